/*
 * pmix_bench.c - the costs a PMIx client sees, measured inside each rank:
 * PMIx_Init, PMIx_Get of a job-level key, PMIx_Get of a peer's key after
 * a data fence, PMIx_Fence without data and with 1 KiB per rank.
 *
 * The same binary runs under drover (its libpmix) and under Open MPI's
 * mpirun with OpenPMIx's libpmix (LD_LIBRARY_PATH), so both are measured
 * the same way. Rank 0 prints one line per figure: "name microseconds",
 * the mean over its iterations; every rank checks what it gets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pmix.h"

#define GET_ITERS 100000
#define FENCE_ITERS 300
#define BLOB 1024

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void fail(const char *what, pmix_status_t rc)
{
    fprintf(stderr, "pmix_bench: %s: %s\n", what, PMIx_Error_string(rc));
    exit(1);
}

int main(void)
{
    pmix_proc_t me, wild, peer;
    pmix_value_t *v, val;
    pmix_info_t collect;
    pmix_status_t rc;
    double t0 = now_us();

    if (PMIX_SUCCESS != (rc = PMIx_Init(&me, NULL, 0))) {
        fail("init", rc);
    }
    double init_us = now_us() - t0;
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if (PMIX_SUCCESS != (rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v))) {
        fail("get job size", rc);
    }
    uint32_t size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    PMIX_LOAD_PROCID(&peer, me.nspace, (me.rank + 1) % size);
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, NULL, PMIX_BOOL);

    t0 = now_us();
    for (int i = 0; i < GET_ITERS; i++) {
        if (PMIX_SUCCESS != (rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v))) {
            fail("get job key", rc);
        }
        PMIX_VALUE_RELEASE(v);
    }
    double get_job_us = (now_us() - t0) / GET_ITERS;

    char *blob = malloc(BLOB);
    memset(blob, 'a' + (int)(me.rank % 26), BLOB - 1);
    blob[BLOB - 1] = '\0';
    PMIX_VALUE_LOAD(&val, blob, PMIX_STRING);
    if (PMIX_SUCCESS != (rc = PMIx_Put(PMIX_GLOBAL, "bench.blob", &val)) ||
        PMIX_SUCCESS != (rc = PMIx_Commit()) ||
        PMIX_SUCCESS != (rc = PMIx_Fence(NULL, 0, &collect, 1))) {
        fail("put/commit/fence", rc);
    }
    t0 = now_us();
    for (int i = 0; i < GET_ITERS; i++) {
        if (PMIX_SUCCESS != (rc = PMIx_Get(&peer, "bench.blob", NULL, 0, &v))) {
            fail("get peer key", rc);
        }
        if (PMIX_STRING != v->type || v->data.string[0] != 'a' + (int)(peer.rank % 26)) {
            fprintf(stderr, "pmix_bench: wrong peer data\n");
            return 1;
        }
        PMIX_VALUE_RELEASE(v);
    }
    double get_peer_us = (now_us() - t0) / GET_ITERS;

    PMIx_Fence(NULL, 0, NULL, 0);
    t0 = now_us();
    for (int i = 0; i < FENCE_ITERS; i++) {
        if (PMIX_SUCCESS != (rc = PMIx_Fence(NULL, 0, NULL, 0))) {
            fail("fence", rc);
        }
    }
    double fence_us = (now_us() - t0) / FENCE_ITERS;

    t0 = now_us();
    for (int i = 0; i < FENCE_ITERS; i++) {
        blob[0] = (char)('a' + i % 26);
        if (PMIX_SUCCESS != (rc = PMIx_Put(PMIX_GLOBAL, "bench.blob", &val)) ||
            PMIX_SUCCESS != (rc = PMIx_Commit()) ||
            PMIX_SUCCESS != (rc = PMIx_Fence(NULL, 0, &collect, 1))) {
            fail("data fence", rc);
        }
    }
    double fence_data_us = (now_us() - t0) / FENCE_ITERS;
    PMIX_VALUE_DESTRUCT(&val);
    free(blob);

    if (0 == me.rank) {
        printf("init %.2f\nget_job %.3f\nget_peer %.3f\nfence %.2f\nfence_1k %.2f\n", init_us,
               get_job_us, get_peer_us, fence_us, fence_data_us);
    }
    PMIx_Finalize(NULL, 0);
    return 0;
}
