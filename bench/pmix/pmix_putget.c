/*
 * pmix_putget.c - the cost of posting a new key and reading a neighbour's
 * new key, round after round, with no fence in between: each rank puts
 * "putget.<i>", commits, and gets its right neighbour's "putget.<i>".
 * drover's server holds such a get until the neighbour commits the key;
 * OpenPMIx's answers "not found" when the neighbour has committed other
 * keys but not this one yet, so a not-found get is asked again.
 *
 * usage: pmix_putget ROUNDS
 * Rank 0 prints "putget_ROUNDS microseconds-per-round". Every rank checks
 * the value it gets. After round i each process holds i keys, so a server
 * that answers a get with all of the target's data makes a round cost
 * grow with i and the whole run quadratic; the per-round figure for two
 * different ROUNDS shows which.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pmix.h"

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void fail(const char *what, int round, pmix_status_t rc)
{
    fprintf(stderr, "pmix_putget: %s in round %d: %s\n", what, round, PMIx_Error_string(rc));
    exit(1);
}

int main(int argc, char **argv)
{
    pmix_proc_t me, wild, peer;
    pmix_value_t *v, val;
    pmix_status_t rc;
    int rounds = argc > 1 ? atoi(argv[1]) : 0;

    if (rounds <= 0) {
        fprintf(stderr, "usage: pmix_putget ROUNDS\n");
        return 2;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Init(&me, NULL, 0))) {
        fail("init", 0, rc);
    }
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    if (PMIX_SUCCESS != (rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v))) {
        fail("get job size", 0, rc);
    }
    uint32_t size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    PMIX_LOAD_PROCID(&peer, me.nspace, (me.rank + 1) % size);
    PMIx_Fence(NULL, 0, NULL, 0);

    double t0 = now_us();
    for (int i = 0; i < rounds; i++) {
        char key[PMIX_MAX_KEYLEN + 1];
        snprintf(key, sizeof(key), "putget.%d", i);
        uint64_t mine = (uint64_t)me.rank << 32 | (uint32_t)i;
        PMIX_VALUE_LOAD(&val, &mine, PMIX_UINT64);
        if (PMIX_SUCCESS != (rc = PMIx_Put(PMIX_GLOBAL, key, &val))) {
            fail("put", i, rc);
        }
        if (PMIX_SUCCESS != (rc = PMIx_Commit())) {
            fail("commit", i, rc);
        }
        while (PMIX_ERR_NOT_FOUND == (rc = PMIx_Get(&peer, key, NULL, 0, &v))) {
        }
        if (PMIX_SUCCESS != rc) {
            fail("get", i, rc);
        }
        if (PMIX_UINT64 != v->type || v->data.uint64 != ((uint64_t)peer.rank << 32 | (uint32_t)i)) {
            fprintf(stderr, "pmix_putget: wrong value in round %d\n", i);
            return 1;
        }
        PMIX_VALUE_RELEASE(v);
    }
    double per_round = (now_us() - t0) / rounds;

    PMIx_Fence(NULL, 0, NULL, 0);
    if (0 == me.rank) {
        printf("putget_%d %.3f\n", rounds, per_round);
    }
    PMIx_Finalize(NULL, 0);
    return 0;
}
