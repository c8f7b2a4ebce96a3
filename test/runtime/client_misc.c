/*
 * client_misc.c - the smaller client calls end to end: Store_internal,
 * Get with PMIX_RANK_UNDEF, PMIX_OPTIONAL and PMIX_IMMEDIATE, Get of all
 * of a process's keys, Resolve_peers/nodes, Connect/Disconnect, Log,
 * Query of the server URI, cleanup registration, bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmix.h"

static pmix_proc_t me;

#define CHECK(cond, ...)                                       \
    do {                                                       \
        if (!(cond)) {                                         \
            fprintf(stderr, "rank %u: ", me.rank);             \
            fprintf(stderr, __VA_ARGS__);                      \
            fprintf(stderr, "\n");                             \
            exit(1);                                           \
        }                                                      \
    } while (0)

int main(int argc, char **argv)
{
    pmix_value_t *v, val;
    pmix_proc_t peer, undef;
    pmix_status_t rc;
    pmix_info_t flag;
    char host[256];

    CHECK(PMIX_SUCCESS == PMIx_Init(&me, NULL, 0), "init");
    CHECK(PMIx_Initialized(), "initialized");
    gethostname(host, sizeof(host));

    /* Store_internal: visible to this process's gets, never sent. */
    uint16_t loc = 7;
    PMIX_LOAD_PROCID(&peer, me.nspace, 1 - me.rank);
    PMIX_VALUE_LOAD(&val, &loc, PMIX_UINT16);
    CHECK(PMIX_SUCCESS == PMIx_Store_internal(&peer, "test.loc", &val), "store internal");
    CHECK(PMIX_SUCCESS == PMIx_Get(&peer, "test.loc", NULL, 0, &v) && 7 == v->data.uint16,
          "get stored internal");
    PMIX_VALUE_RELEASE(v);
    /* A standard key with the wrong type is refused. */
    CHECK(PMIX_ERR_TYPE_MISMATCH == PMIx_Put(PMIX_GLOBAL, PMIX_JOB_SIZE, &val), "mistyped put");
    CHECK(PMIX_ERR_BAD_PARAM == PMIx_Put(PMIX_GLOBAL, NULL, &val), "put without key");
    CHECK(PMIX_ERR_BAD_PARAM == PMIx_Get(&peer, "test.loc", NULL, 0, NULL), "get without result");

    /* Rank 0 publishes a key; rank 1 finds it with an undefined rank. */
    if (0 == me.rank) {
        PMIX_VALUE_LOAD(&val, "zero", PMIX_STRING);
        CHECK(PMIX_SUCCESS == PMIx_Put(PMIX_LOCAL, "test.only.zero", &val), "put");
        PMIX_VALUE_DESTRUCT(&val);
        CHECK(PMIX_SUCCESS == PMIx_Commit(), "commit");
    }
    CHECK(PMIX_SUCCESS == PMIx_Fence(NULL, 0, NULL, 0), "fence");
    PMIX_LOAD_PROCID(&undef, me.nspace, PMIX_RANK_UNDEF);
    rc = PMIx_Get(&undef, "test.only.zero", NULL, 0, &v);
    CHECK(PMIX_SUCCESS == rc && 0 == strcmp(v->data.string, "zero"), "undef get: %s",
          PMIx_Error_string(rc));
    PMIX_VALUE_RELEASE(v);

    /* Optional: local only; immediate: no waiting at the server. */
    PMIX_INFO_LOAD(&flag, PMIX_OPTIONAL, NULL, PMIX_BOOL);
    CHECK(PMIX_ERR_NOT_FOUND == PMIx_Get(&peer, "test.nowhere", &flag, 1, &v), "optional");
    PMIX_INFO_LOAD(&flag, PMIX_IMMEDIATE, NULL, PMIX_BOOL);
    CHECK(PMIX_ERR_NOT_FOUND == PMIx_Get(&peer, "test.nowhere", &flag, 1, &v), "immediate");

    /* All of a process's keys. */
    PMIX_LOAD_PROCID(&peer, me.nspace, me.rank);
    rc = PMIx_Get(&peer, NULL, NULL, 0, &v);
    CHECK(PMIX_SUCCESS == rc && PMIX_DATA_ARRAY == v->type && v->data.darray->size >= 1,
          "all keys: %s", PMIx_Error_string(rc));
    PMIX_VALUE_RELEASE(v);

    /* Resolve: both ranks on this host. */
    pmix_proc_t *procs;
    size_t nprocs;
    rc = PMIx_Resolve_peers(host, me.nspace, &procs, &nprocs);
    CHECK(PMIX_SUCCESS == rc && 2 == nprocs, "resolve peers: %s, %zu", PMIx_Error_string(rc),
          nprocs);
    PMIX_PROC_FREE(procs, nprocs);
    rc = PMIx_Resolve_peers("no-such-host", me.nspace, &procs, &nprocs);
    CHECK(PMIX_ERR_NOT_FOUND == rc && 0 == nprocs, "resolve peers elsewhere");
    char *nodes = NULL;
    rc = PMIx_Resolve_nodes(me.nspace, &nodes);
    CHECK(PMIX_SUCCESS == rc && 0 == strcmp(nodes, host), "resolve nodes: %s", nodes);
    free(nodes);

    /* Connect and disconnect over the job. */
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    CHECK(PMIX_SUCCESS == PMIx_Connect(&all, 1, NULL, 0), "connect");
    CHECK(PMIX_SUCCESS == PMIx_Disconnect(&all, 1, NULL, 0), "disconnect");
    CHECK(PMIX_ERR_BAD_PARAM == PMIx_Connect(NULL, 0, NULL, 0), "connect nobody");

    /* Log: the host has no log function, so the server writes it. */
    pmix_info_t entry;
    char line[64];
    snprintf(line, sizeof(line), "client_misc: log from rank %u\n", me.rank);
    PMIX_INFO_LOAD(&entry, PMIX_LOG_STDERR, line, PMIX_STRING);
    CHECK(PMIX_SUCCESS == PMIx_Log(&entry, 1, NULL, 0), "log");
    PMIX_INFO_DESTRUCT(&entry);

    /* The server answers its URI itself. */
    pmix_query_t q;
    pmix_info_t *results;
    size_t nresults;
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_SERVER_URI);
    rc = PMIx_Query_info(&q, 1, &results, &nresults);
    CHECK(PMIX_SUCCESS == rc && 1 == nresults &&
              0 == strncmp(results[0].value.data.string, "drover://", 9),
          "query uri: %s", PMIx_Error_string(rc));
    PMIX_INFO_FREE(results, nresults);
    PMIX_QUERY_DESTRUCT(&q);

    /* Cleanup registration: the paths named on the command line go when
     * the job ends (the test script checks). The second is registered as
     * Open MPI does it, with no callback: nobody waits for the answer. */
    if (argc > 2 && 0 == me.rank) {
        pmix_info_t dirs[2];
        PMIX_INFO_LOAD(&dirs[0], PMIX_REGISTER_CLEANUP_DIR, argv[1], PMIX_STRING);
        PMIX_INFO_LOAD(&dirs[1], PMIX_CLEANUP_RECURSIVE, NULL, PMIX_BOOL);
        rc = PMIx_Job_control(&me, 1, dirs, 2, NULL, NULL);
        CHECK(PMIX_SUCCESS == rc, "register cleanup: %s", PMIx_Error_string(rc));
        PMIX_INFO_DESTRUCT(&dirs[0]);
        PMIX_INFO_LOAD(&dirs[0], PMIX_REGISTER_CLEANUP_DIR, argv[2], PMIX_STRING);
        rc = PMIx_Job_control_nb(&me, 1, dirs, 2, NULL, NULL);
        CHECK(PMIX_SUCCESS == rc, "register cleanup without a callback: %s",
              PMIx_Error_string(rc));
        PMIX_INFO_DESTRUCT(&dirs[0]);
        PMIX_INFO_DESTRUCT(&dirs[1]);
        PMIX_INFO_LOAD(&dirs[0], PMIX_REGISTER_CLEANUP_DIR, "relative/path", PMIX_STRING);
        CHECK(PMIX_ERR_BAD_PARAM == PMIx_Job_control(&me, 1, dirs, 1, NULL, NULL),
              "a relative cleanup path is refused");
        PMIX_INFO_DESTRUCT(&dirs[0]);
    }

    CHECK(PMIX_SUCCESS == PMIx_Fence(NULL, 0, NULL, 0), "last fence");
    CHECK(PMIX_SUCCESS == PMIx_Finalize(NULL, 0), "finalize");
    CHECK(!PMIx_Initialized(), "finalized");
    CHECK(PMIX_ERR_INIT == PMIx_Finalize(NULL, 0), "finalize twice");
    printf("rank %u: misc ok\n", me.rank);
    return 0;
}
