/*
 * client_slurm.c - a job under a Slurm-like host (minihost -s): PMIx_Init
 * returns although the host never answers client_connected; the node
 * count and list come from the host's PMIX_NODE_MAP while the maps
 * themselves are not served; data goes through a fence the host answers
 * inside its fence_nb; the last rank then leaves without PMIx_Finalize
 * (the host must hear of it), the others finalize.
 */
#include <string.h>
#include <unistd.h>

#include "check.h"

pmix_proc_t me;

static void check_nodes(const pmix_proc_t *wild, uint32_t size)
{
    pmix_value_t *v = NULL;
    char host[256] = "", want[600];
    pmix_proc_t *peers = NULL;
    size_t npeers = 0;
    char *nodes = NULL;

    gethostname(host, sizeof(host) - 1);
    snprintf(want, sizeof(want), "%s,minihost-far", host);
    CHECK_RC(PMIx_Get(wild, PMIX_NUM_NODES, NULL, 0, &v), PMIX_SUCCESS, "number of nodes");
    CHECK(PMIX_UINT32 == v->type && 2 == v->data.uint32, "2 nodes from the node map");
    PMIX_VALUE_RELEASE(v);
    CHECK_RC(PMIx_Get(wild, PMIX_NODE_LIST, NULL, 0, &v), PMIX_SUCCESS, "node list");
    CHECK(PMIX_STRING == v->type && 0 == strcmp(v->data.string, want),
          "node list \"%s\", expected \"%s\"", v->data.string, want);
    PMIX_VALUE_RELEASE(v);
    CHECK_RC(PMIx_Get(wild, PMIX_NODE_MAP, NULL, 0, &v), PMIX_ERR_NOT_FOUND,
             "the node map is not served");
    CHECK_RC(PMIx_Get(wild, PMIX_PROC_MAP, NULL, 0, &v), PMIX_ERR_NOT_FOUND,
             "the rank map is not served");
    /* The maps still place the ranks: the last one on the far node. */
    CHECK_RC(PMIx_Resolve_peers(host, me.nspace, &peers, &npeers), PMIX_SUCCESS, "peers here");
    CHECK(size - 1 == npeers, "%zu peers on this node, expected %u", npeers, size - 1);
    PMIX_PROC_FREE(peers, npeers);
    CHECK_RC(PMIx_Resolve_nodes(me.nspace, &nodes), PMIX_SUCCESS, "nodes of the job");
    CHECK(NULL != nodes && 0 == strcmp(nodes, want), "nodes \"%s\"", nodes);
    free(nodes);
}

int main(void)
{
    pmix_proc_t wild, peer;
    pmix_value_t *v = NULL, val;
    char key[32];

    CHECK_RC(PMIx_Init(&me, NULL, 0), PMIX_SUCCESS, "init");
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    CHECK_RC(PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v), PMIX_SUCCESS, "job size");
    uint32_t size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    CHECK(size >= 2, "at least 2 ranks");
    check_nodes(&wild, size);

    PMIX_VALUE_LOAD(&val, &me.rank, PMIX_PROC_RANK);
    CHECK_RC(PMIx_Put(PMIX_GLOBAL, "slurm.rank", &val), PMIX_SUCCESS, "put");
    CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "commit");
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    CHECK_RC(PMIx_Fence(NULL, 0, &collect, 1), PMIX_SUCCESS, "fence the host answers inline");
    PMIX_INFO_DESTRUCT(&collect);
    for (uint32_t r = 0; r < size; r++) {
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        snprintf(key, sizeof(key), "rank %u's data", r);
        CHECK_RC(PMIx_Get(&peer, "slurm.rank", NULL, 0, &v), PMIX_SUCCESS, key);
        CHECK(PMIX_PROC_RANK == v->type && r == v->data.rank, "%s is its rank", key);
        PMIX_VALUE_RELEASE(v);
    }
    if (me.rank == size - 1) {
        _exit(0); /* lost without finalizing: the host must hear of it */
    }
    CHECK_RC(PMIx_Finalize(NULL, 0), PMIX_SUCCESS, "finalize");
    return 0;
}
