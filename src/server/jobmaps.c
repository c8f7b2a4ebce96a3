/*
 * jobmaps.c - what a registration's node and rank maps imply, as OpenPMIx
 * 4.2 derives it: PMIX_NUM_NODES and PMIX_NODE_LIST from a host-given
 * PMIX_NODE_MAP, and the maps themselves moved out of PMIx_Get's reach.
 *
 * Design notes:
 *  - Hosts such as Slurm register only PMIX_NODE_MAP and PMIX_PROC_MAP
 *    (from PMIx_generate_regex/_ppn) and rely on the library to serve the
 *    node count and list; Open MPI reads them.
 *  - OpenPMIx expands the maps and keeps no key for them, so a client's
 *    PMIx_Get of either finds nothing. drover keeps them, under the keys
 *    of maps.h, for PMIx_Resolve_peers/_nodes.
 *  - What the host gave explicitly wins: nothing is derived over it.
 *  - The registration is not copied: it is handed on in pieces, each map
 *    in one of its own (a registration may be several PMIX_INFO groups,
 *    docs/protocol.md).
 */
#include <stdlib.h>
#include <string.h>

#include "maps.h"
#include "pmix.h"
#include "server.h"
#include "strbuf.h"

static bool is_map(const pmix_info_t *info)
{
    return PMIX_CHECK_KEY(info, PMIX_NODE_MAP) || PMIX_CHECK_KEY(info, PMIX_PROC_MAP);
}

/* The node map's string, if info has one; whether the host gave the node
 * count and list itself. */
static const char *scan(const pmix_info_t *info, size_t ninfo, bool *has_count, bool *has_list,
                        bool *has_map)
{
    const char *node_map = NULL;
    *has_count = *has_list = *has_map = false;
    for (size_t i = 0; i < ninfo; i++) {
        *has_count = *has_count || PMIX_CHECK_KEY(&info[i], PMIX_NUM_NODES);
        *has_list = *has_list || PMIX_CHECK_KEY(&info[i], PMIX_NODE_LIST);
        *has_map = *has_map || is_map(&info[i]);
        if (PMIX_CHECK_KEY(&info[i], PMIX_NODE_MAP) && PMIX_STRING == info[i].value.type) {
            node_map = info[i].value.data.string;
        }
    }
    return node_map;
}

/* Append PMIX_NUM_NODES and/or PMIX_NODE_LIST of node_map at out[*n]. */
static pmix_status_t derive(const char *node_map, bool count, bool list, pmix_info_t *out,
                            size_t *n)
{
    char **names = NULL, *joined = NULL;
    strbuf_t b = STRBUF_INIT;
    uint32_t nnodes = 0;
    pmix_status_t rc = maps_parse_nodes(node_map, &names);

    for (; PMIX_SUCCESS == rc && NULL != names && NULL != names[nnodes]; nnodes++) {
        strbuf_printf(&b, "%s%s", nnodes > 0 ? "," : "", names[nnodes]);
    }
    PMIX_ARGV_FREE(names);
    if (PMIX_SUCCESS != rc || NULL == (joined = strbuf_finish(&b))) {
        return PMIX_SUCCESS != rc ? rc : PMIX_ERR_NOMEM;
    }
    if (count) {
        rc = PMIx_Info_load(&out[(*n)++], PMIX_NUM_NODES, &nnodes, PMIX_UINT32);
    }
    if (PMIX_SUCCESS == rc && list) {
        rc = PMIx_Info_load(&out[(*n)++], PMIX_NODE_LIST, joined, PMIX_STRING);
    }
    free(joined);
    return rc;
}

pmix_status_t jobmaps_derive(const pmix_info_t *info, size_t ninfo, pmix_info_t derived[2],
                             size_t *nderived)
{
    bool has_count, has_list, has_map;
    const char *node_map = scan(info, ninfo, &has_count, &has_list, &has_map);

    *nderived = 0;
    if (NULL == node_map || (has_count && has_list)) {
        return PMIX_SUCCESS;
    }
    memset(derived, 0, 2 * sizeof(*derived));
    pmix_status_t rc = derive(node_map, !has_count, !has_list, derived, nderived);
    if (PMIX_SUCCESS != rc) {
        for (size_t i = 0; i < *nderived; i++) {
            PMIX_INFO_DESTRUCT(&derived[i]);
        }
        *nderived = 0;
    }
    return rc;
}

pmix_status_t jobmaps_walk(const pmix_info_t *info, size_t ninfo,
                           pmix_status_t (*take)(const pmix_info_t *piece, size_t n, void *arg),
                           void *arg)
{
    /* The host's entries are passed as they are (copying them was most
     * of a registration's cost); a map alone, renamed. */
    pmix_status_t rc = PMIX_SUCCESS;
    size_t start = 0;
    for (size_t i = 0; i < ninfo && PMIX_SUCCESS == rc; i++) {
        if (!is_map(&info[i])) {
            continue;
        }
        if (i > start) {
            rc = take(info + start, i - start, arg);
        }
        pmix_info_t renamed = info[i];
        PMIX_LOAD_KEY(renamed.key,
                      PMIX_CHECK_KEY(&info[i], PMIX_NODE_MAP) ? MAPS_NODE_MAP_KEY : MAPS_PROC_MAP_KEY);
        if (PMIX_SUCCESS == rc) {
            rc = take(&renamed, 1, arg);
        }
        start = i + 1;
    }
    if (PMIX_SUCCESS == rc && ninfo > start) {
        rc = take(info + start, ninfo - start, arg);
    }
    return rc;
}
