/*
 * client_basic.c - put, commit, fence with and without data, get of job
 * data and of peers' data. Every rank checks what it reads and exits 0
 * only when everything matched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmix.h"

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "rank %u: ", me.rank);                         \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, "\n");                                         \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

static pmix_proc_t me;

int main(void)
{
    pmix_value_t *v = NULL, val;
    pmix_proc_t wild, peer;
    pmix_status_t rc;
    char key[64], text[64];

    rc = PMIx_Init(&me, NULL, 0);
    CHECK(PMIX_SUCCESS == rc, "init: %s", PMIx_Error_string(rc));
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
    CHECK(PMIX_SUCCESS == rc && PMIX_UINT32 == v->type, "job size: %s", PMIx_Error_string(rc));
    uint32_t size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    rc = PMIx_Get(&me, PMIX_LOCAL_RANK, NULL, 0, &v);
    CHECK(PMIX_SUCCESS == rc && PMIX_UINT16 == v->type && v->data.uint16 == me.rank,
          "local rank: %s", PMIx_Error_string(rc));
    PMIX_VALUE_RELEASE(v);
    rc = PMIx_Get(&wild, "no.such.key", NULL, 0, &v);
    CHECK(PMIX_ERR_NOT_FOUND == rc, "missing job key: %s", PMIx_Error_string(rc));

    /* Keys the host registered that no standard defines. */
    rc = PMIx_Get(&wild, "vendor.job.flavor", NULL, 0, &v);
    CHECK(PMIX_SUCCESS == rc && PMIX_STRING == v->type && 0 == strcmp(v->data.string, "plain"),
          "host's own job key: %s", PMIx_Error_string(rc));
    PMIX_VALUE_RELEASE(v);
    PMIX_LOAD_PROCID(&peer, me.nspace, size - 1);
    rc = PMIx_Get(&peer, "vendor.proc.weight", NULL, 0, &v);
    CHECK(PMIX_SUCCESS == rc && PMIX_UINT64 == v->type && v->data.uint64 == 10 * (size - 1),
          "host's own key of rank %u: %s", size - 1, PMIx_Error_string(rc));
    PMIX_VALUE_RELEASE(v);

    /* Data collected by a fence. */
    snprintf(text, sizeof(text), "hello from %u", me.rank);
    PMIX_VALUE_LOAD(&val, text, PMIX_STRING);
    CHECK(PMIX_SUCCESS == PMIx_Put(PMIX_GLOBAL, "test.greeting", &val), "put");
    PMIX_VALUE_DESTRUCT(&val);
    CHECK(PMIX_SUCCESS == PMIx_Commit(), "commit");
    pmix_info_t collect;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, NULL, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &collect, 1);
    CHECK(PMIX_SUCCESS == rc, "fence: %s", PMIx_Error_string(rc));
    for (uint32_t r = 0; r < size; r++) {
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        rc = PMIx_Get(&peer, "test.greeting", NULL, 0, &v);
        snprintf(text, sizeof(text), "hello from %u", r);
        CHECK(PMIX_SUCCESS == rc && PMIX_STRING == v->type && 0 == strcmp(v->data.string, text),
              "greeting of %u: %s", r, PMIx_Error_string(rc));
        PMIX_VALUE_RELEASE(v);
    }

    /* Data fetched on demand after a fence without data. */
    uint64_t number = 1000 + me.rank;
    PMIX_VALUE_LOAD(&val, &number, PMIX_UINT64);
    snprintf(key, sizeof(key), "test.number");
    CHECK(PMIX_SUCCESS == PMIx_Put(PMIX_LOCAL, key, &val), "put 2");
    CHECK(PMIX_SUCCESS == PMIx_Commit(), "commit 2");
    CHECK(PMIX_SUCCESS == PMIx_Fence(NULL, 0, NULL, 0), "fence 2");
    PMIX_LOAD_PROCID(&peer, me.nspace, (me.rank + 1) % size);
    rc = PMIx_Get(&peer, key, NULL, 0, &v);
    CHECK(PMIX_SUCCESS == rc && PMIX_UINT64 == v->type && v->data.uint64 == 1000 + peer.rank,
          "number of %u: %s", peer.rank, PMIx_Error_string(rc));
    PMIX_VALUE_RELEASE(v);

    /* A key no one will ever put, with a timeout. */
    pmix_info_t timeout;
    int secs = 1;
    PMIX_INFO_LOAD(&timeout, PMIX_TIMEOUT, &secs, PMIX_INT);
    rc = PMIx_Get(&peer, "test.never", &timeout, 1, &v);
    CHECK(PMIX_ERR_TIMEOUT == rc, "never: %s", PMIx_Error_string(rc));

    /* A fence over a subset: ranks 0 and 1 only, the others not involved. */
    if (me.rank < 2) {
        pmix_proc_t pair[2];
        PMIX_LOAD_PROCID(&pair[0], me.nspace, 1);
        PMIX_LOAD_PROCID(&pair[1], me.nspace, 0);
        rc = PMIx_Fence(pair, 2, &collect, 1);
        CHECK(PMIX_SUCCESS == rc, "subset fence: %s", PMIx_Error_string(rc));
    }
    CHECK(PMIX_SUCCESS == PMIx_Fence(NULL, 0, NULL, 0), "fence 3");
    rc = PMIx_Finalize(NULL, 0);
    CHECK(PMIX_SUCCESS == rc, "finalize: %s", PMIx_Error_string(rc));

    /* A second life: initialising again reconnects. */
    rc = PMIx_Init(&me, NULL, 0);
    CHECK(PMIX_SUCCESS == rc, "second init: %s", PMIx_Error_string(rc));
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
    CHECK(PMIX_SUCCESS == rc && size == v->data.uint32, "job size again");
    PMIX_VALUE_RELEASE(v);
    CHECK(PMIX_SUCCESS == PMIx_Fence(NULL, 0, NULL, 0), "fence in the second life");
    CHECK(PMIX_SUCCESS == PMIx_Finalize(NULL, 0), "second finalize");
    printf("rank %u of %u: ok\n", me.rank, size);
    return 0;
}
