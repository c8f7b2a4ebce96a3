/*
 * probe.c - a PMIx client run by Open MPI's mpirun with drover's library
 * first on the library path. It checks that mpirun (its parent) and it
 * itself have drover's libpmix.so.2 loaded and that the server it reached
 * is drover's, that what Open MPI registered for the job reads back with
 * the types MPI_Init needs, and that data moves between ranks through a
 * fence with data and through direct modex (between the servers of two
 * nodes when run on two). Rank 0 prints one PASS line.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpmix_of.h"
#include "pmix.h"

static pmix_proc_t me;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "probe %u: ", me.rank);                        \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, "\n");                                         \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

/* The value of key for proc, which must have type. Released by caller. */
static pmix_value_t *get_typed(const pmix_proc_t *proc, const char *key, pmix_data_type_t type)
{
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(proc, key, NULL, 0, &v);
    CHECK(PMIX_SUCCESS == rc, "get %s of rank %u: %s", key, proc->rank, PMIx_Error_string(rc));
    CHECK(type == v->type, "%s of rank %u has type %s, not %s", key, proc->rank,
          PMIx_Data_type_string(v->type), PMIx_Data_type_string(type));
    return v;
}

/* That key of proc is there with type. */
static void expect_type(const pmix_proc_t *proc, const char *key, pmix_data_type_t type)
{
    pmix_value_t *v = get_typed(proc, key, type);
    PMIX_VALUE_RELEASE(v);
}

static void check_identity(void)
{
    const char *libdir = getenv("DROVER_LIBDIR"), *uri = getenv("PMIX_SERVER_URI41");
    bool seen;

    CHECK(NULL != libdir, "DROVER_LIBDIR is not set");
    CHECK(libpmix_from(getppid(), libdir, &seen), "mpirun (pid %ld) %s", (long)getppid(),
          seen ? "runs another libpmix.so.2" : "has no libpmix.so.2 loaded");
    CHECK(libpmix_from(getpid(), libdir, &seen), "this rank runs another libpmix.so.2");
    CHECK(NULL != uri && 0 == strncmp(uri, "drover://", 9), "server URI %s is not drover's",
          NULL == uri ? "(none)" : uri);
}

/* The node a rank runs on, as registered. */
static uint32_t node_of(const pmix_proc_t *proc)
{
    pmix_value_t *v = get_typed(proc, PMIX_NODEID, PMIX_UINT32);
    uint32_t node = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    return node;
}

/* What Open MPI's mpirun registered: sizes, where every rank runs, the
 * ranks and locality of the local ones (numbered in rank order on each
 * node), and keys of its own. */
static uint32_t check_registration(void)
{
    pmix_proc_t wild = me, peer = me;
    wild.rank = PMIX_RANK_WILDCARD;

    pmix_value_t *v = get_typed(&wild, PMIX_JOB_SIZE, PMIX_UINT32);
    uint32_t size = v->data.uint32, here = node_of(&me);
    PMIX_VALUE_RELEASE(v);
    char expected[4096] = "";
    uint16_t nlocal = 0;
    for (peer.rank = 0; peer.rank < size; peer.rank++) {
        expect_type(&peer, PMIX_HOSTNAME, PMIX_STRING);
        if (node_of(&peer) != here) {
            continue;
        }
        snprintf(expected + strlen(expected), sizeof(expected) - strlen(expected),
                 nlocal > 0 ? ",%u" : "%u", peer.rank);
        v = get_typed(&peer, PMIX_LOCAL_RANK, PMIX_UINT16);
        CHECK(v->data.uint16 == nlocal, "local rank of %u is %u, not %u", peer.rank,
              v->data.uint16, nlocal);
        PMIX_VALUE_RELEASE(v);
        nlocal++;
        expect_type(&peer, PMIX_NODE_RANK, PMIX_UINT16);
        expect_type(&peer, PMIX_LOCALITY_STRING, PMIX_STRING);
    }
    v = get_typed(&wild, PMIX_LOCAL_PEERS, PMIX_STRING);
    CHECK(0 == strcmp(expected, v->data.string), "local peers %s, expected %s",
          v->data.string, expected);
    PMIX_VALUE_RELEASE(v);
    expect_type(&wild, PMIX_MAX_PROCS, PMIX_UINT32);
    expect_type(&wild, PMIX_MAPBY, PMIX_STRING);
    expect_type(&wild, PMIX_TOPOLOGY_SIGNATURE, PMIX_STRING);
    expect_type(&wild, PMIX_SERVER_NSPACE, PMIX_STRING);
    return size;
}

/* Each rank publishes key = its rank + base, then reads its right
 * neighbour's after a fence (with data collected or not). */
static void exchange(uint32_t size, const char *key, uint32_t base, bool collect)
{
    pmix_value_t val = {.type = PMIX_UINT32, .data.uint32 = me.rank + base};
    pmix_info_t info;
    pmix_proc_t right = me;
    pmix_status_t rc;

    CHECK(PMIX_SUCCESS == (rc = PMIx_Put(PMIX_GLOBAL, key, &val)), "put: %s",
          PMIx_Error_string(rc));
    CHECK(PMIX_SUCCESS == (rc = PMIx_Commit()), "commit: %s", PMIx_Error_string(rc));
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    CHECK(PMIX_SUCCESS == (rc = PMIx_Fence(NULL, 0, &info, 1)), "fence: %s",
          PMIx_Error_string(rc));
    right.rank = (me.rank + 1) % size;
    pmix_value_t *v = get_typed(&right, key, PMIX_UINT32);
    CHECK(v->data.uint32 == right.rank + base, "%s of %u is %u", key, right.rank,
          v->data.uint32);
    PMIX_VALUE_RELEASE(v);
}

int main(void)
{
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    CHECK(PMIX_SUCCESS == rc, "init: %s", PMIx_Error_string(rc));
    check_identity();
    uint32_t size = check_registration();
    exchange(size, "probe.collected", 100, true);
    exchange(size, "probe.on.demand", 200, false);
    CHECK(PMIX_SUCCESS == (rc = PMIx_Fence(NULL, 0, NULL, 0)), "last fence: %s",
          PMIx_Error_string(rc));
    if (0 == me.rank) {
        printf("PASS probe: %u ranks; mpirun and the ranks run drover's libpmix.so.2\n", size);
    }
    CHECK(PMIX_SUCCESS == (rc = PMIx_Finalize(NULL, 0)), "finalize: %s", PMIx_Error_string(rc));
    return 0;
}
