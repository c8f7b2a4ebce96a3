/*
 * types_ranks.c - ranks of `drover run --types particles.yml` exchanging a
 * declared type through PMIx_Put, PMIx_Fence and PMIx_Get.
 *
 * Usage: types_ranks exchange | conflict
 *   exchange  every rank binds n = 3, puts a particle, fences, and checks
 *             the particle of every other rank, pointee included.
 *   conflict  rank 1 declares its own, different, point before PMIx_Init,
 *             which must refuse it; the others check they were declared.
 * Each rank prints one line saying what it saw; the script checks them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drover.h"
#include "pmix.h"

#define N 3

typedef struct point {
    double x, y;
} point_t;

typedef struct particle {
    int id;
    double coords[N];
    point_t *home;
    char tags[8];
} particle_t;

static int fail(const char *what, pmix_status_t rc)
{
    printf("rank %s: %s: %s\n", getenv("PMIX_RANK"), what, PMIx_Error_string(rc));
    return 1;
}

static int check_peer(const pmix_proc_t *me, pmix_rank_t r, pmix_data_type_t id)
{
    pmix_proc_t peer;
    pmix_value_t *val = NULL;
    PMIX_LOAD_PROCID(&peer, me->nspace, r);
    pmix_status_t rc = PMIx_Get(&peer, "particle", NULL, 0, &val);
    if (PMIX_SUCCESS != rc) {
        return fail("PMIx_Get", rc);
    }
    const particle_t *p = val->data.ptr;
    int bad = val->type != id || p->id != (int)r || NULL == p->home || p->home->x != r ||
              p->home->y != -(double)r || 0 != memcmp(p->tags, "\0\0tag\0\0\0", 8);
    for (int i = 0; i < N; i++) {
        bad = bad || p->coords[i] != 10.0 * r + i;
    }
    PMIX_VALUE_RELEASE(val);
    if (bad) {
        printf("rank %u: the particle of rank %u is wrong\n", me->rank, r);
    }
    return bad;
}

static int exchange(const pmix_proc_t *me)
{
    pmix_data_type_t id;
    pmix_status_t rc = drover_type_lookup("particle", &id);
    if (PMIX_SUCCESS != rc) {
        return fail("drover_type_lookup", rc);
    }
    point_t home = {me->rank, -(double)me->rank};
    particle_t mine = {.id = (int)me->rank, .home = &home};
    for (int i = 0; i < N; i++) {
        mine.coords[i] = 10.0 * me->rank + i;
    }
    /* Outside the slice: must not travel. */
    memcpy(mine.tags, "xxtagyyy", 8);
    mine.tags[5] = '\0';
    pmix_value_t v;
    if (PMIX_SUCCESS != (rc = PMIx_Value_load(&v, &mine, id)) ||
        PMIX_SUCCESS != (rc = PMIx_Put(PMIX_GLOBAL, "particle", &v)) ||
        PMIX_SUCCESS != (rc = PMIx_Commit())) {
        return fail("put", rc);
    }
    PMIx_Value_destruct(&v);
    bool collect = true;
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (PMIX_SUCCESS != rc) {
        return fail("PMIx_Fence", rc);
    }
    pmix_value_t *size = NULL;
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, me->nspace, PMIX_RANK_WILDCARD);
    if (PMIX_SUCCESS != (rc = PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &size))) {
        return fail("job size", rc);
    }
    uint32_t nprocs = size->data.uint32;
    PMIX_VALUE_RELEASE(size);
    int bad = 0;
    for (pmix_rank_t r = 0; r < nprocs; r++) {
        if (r != me->rank) {
            bad |= check_peer(me, r, id);
        }
    }
    if (!bad) {
        printf("rank %u: particle %u is datatype %u; the %u peers' particles arrived whole\n",
               me->rank, me->rank, (unsigned)id, nprocs - 1);
    }
    return bad;
}

int main(int argc, char **argv)
{
    if (2 != argc || (0 != strcmp(argv[1], "exchange") && 0 != strcmp(argv[1], "conflict"))) {
        fprintf(stderr, "usage: types_ranks exchange|conflict\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    int64_t n = N;
    drover_type_bind("n", &n, 1);
    const char *rank = getenv("PMIX_RANK");
    bool conflict = 0 == strcmp(argv[1], "conflict");
    if (conflict && NULL != rank && 0 == strcmp(rank, "1")) {
        const char *own = "types: {point: {type: struct, members: [{x: float}, {y: float}]}}\n";
        pmix_status_t rc = drover_types_load_string("own.yml", own, strlen(own), 0, NULL);
        if (PMIX_SUCCESS != rc) {
            return fail("own declaration", rc);
        }
    }
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (PMIX_SUCCESS != rc) {
        printf("rank %s: PMIx_Init refused: %s\n", rank, PMIx_Error_string(rc));
        return 3;
    }
    int status;
    if (conflict) {
        pmix_data_type_t id;
        status = PMIX_SUCCESS != drover_type_lookup("point", &id);
        printf("rank %u: the job's point is datatype %u\n", me.rank, (unsigned)id);
    } else {
        status = exchange(&me);
    }
    PMIx_Finalize(NULL, 0);
    return status;
}
