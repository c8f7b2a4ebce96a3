/*
 * locality.c - PMIx_server_generate_locality_string and
 * PMIx_server_generate_cpuset_string: how a host describes where a client
 * is bound, in the forms clients (Open MPI among them) read.
 *
 * A locality string lists, for each kind of hardware object, the logical
 * indexes of those the binding overlaps, e.g. "SK0:L30:L20-1:L10-1:CR0-1:
 * HT0-1:NM0" (package, L3, L2, L1 caches, cores, hardware threads, NUMA
 * nodes): two processes share a level when their lists there intersect.
 * A cpuset string is "hwloc:" followed by hwloc's list form of the set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "pmix_server.h"
#include "strbuf.h"
#include "topology.h"

static const struct {
    const char *tag;
    hwloc_obj_type_t type;
} levels[] = {
    {"SK", HWLOC_OBJ_PACKAGE}, {"L3", HWLOC_OBJ_L3CACHE}, {"L2", HWLOC_OBJ_L2CACHE},
    {"L1", HWLOC_OBJ_L1CACHE}, {"CR", HWLOC_OBJ_CORE},    {"HT", HWLOC_OBJ_PU},
    {"NM", HWLOC_OBJ_NUMANODE},
};

static bool is_hwloc(const pmix_cpuset_t *cpuset)
{
    return NULL != cpuset && NULL != cpuset->bitmap &&
           (NULL == cpuset->source || 0 == strcmp(cpuset->source, "hwloc"));
}

PMIX_EXPORT pmix_status_t PMIx_server_generate_locality_string(const pmix_cpuset_t *cpuset,
                                                               char **locality)
{
    hwloc_topology_t topo;
    hwloc_bitmap_t objs;
    strbuf_t b = STRBUF_INIT;
    pmix_status_t rc;

    if (!is_hwloc(cpuset) || NULL == locality) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = topology_get(&topo))) {
        return rc;
    }
    if (NULL == (objs = hwloc_bitmap_alloc())) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        hwloc_bitmap_zero(objs);
        hwloc_obj_t obj = NULL;
        while (NULL != (obj = hwloc_get_next_obj_by_type(topo, levels[i].type, obj))) {
            if (NULL != obj->cpuset && hwloc_bitmap_intersects(obj->cpuset, cpuset->bitmap)) {
                hwloc_bitmap_set(objs, obj->logical_index);
            }
        }
        if (hwloc_bitmap_iszero(objs)) {
            continue;
        }
        char *list = NULL;
        if (hwloc_bitmap_list_asprintf(&list, objs) < 0) {
            b.failed = true;
            break;
        }
        strbuf_printf(&b, "%s%s%s", 0 == b.len ? "" : ":", levels[i].tag, list);
        free(list);
    }
    hwloc_bitmap_free(objs);
    *locality = strbuf_finish(&b);
    return NULL == *locality ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_server_generate_cpuset_string(const pmix_cpuset_t *cpuset,
                                                             char **cpuset_string)
{
    char *list = NULL;

    if (!is_hwloc(cpuset) || NULL == cpuset_string) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (hwloc_bitmap_list_asprintf(&list, cpuset->bitmap) < 0) {
        return PMIX_ERR_NOMEM;
    }
    int n = asprintf(cpuset_string, "hwloc:%s", list);
    free(list);
    if (n < 0) {
        *cpuset_string = NULL;
        return PMIX_ERR_NOMEM;
    }
    return PMIX_SUCCESS;
}
