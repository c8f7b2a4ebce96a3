/*
 * declared_types.c - the example of docs/datatypes.md: ranks exchange a
 * type declared in readings.yml, with no C code for the type itself.
 *
 *     drover run -n 4 --types readings.yml ./declared_types
 */
#include <stdio.h>

#include <drover.h>
#include <pmix.h>

#define NSAMPLES 4

/* The C view of the declared types, for this program's own use. */
typedef struct position {
    double x, y;
} position_t;

typedef struct reading {
    int sensor;
    float samples[NSAMPLES];
    position_t *where;
} reading_t;

int main(void)
{
    int64_t nsamples = NSAMPLES;
    drover_type_bind("nsamples", &nsamples, 1);   /* before the type is used */

    pmix_proc_t me;
    if (PMIX_SUCCESS != PMIx_Init(&me, NULL, 0)) {
        return 1;
    }
    pmix_data_type_t reading_type;
    if (PMIX_SUCCESS != drover_type_lookup("reading", &reading_type)) {
        return 1;
    }

    position_t here = {1.5 * me.rank, -2.0};
    reading_t mine = {.sensor = 100 + (int)me.rank, .where = &here};
    for (int i = 0; i < NSAMPLES; i++) {
        mine.samples[i] = 20.0f + (float)me.rank + 0.25f * (float)i;
    }
    pmix_value_t value;
    PMIx_Value_load(&value, &mine, reading_type);
    PMIx_Put(PMIX_GLOBAL, "reading", &value);
    PMIx_Value_destruct(&value);
    PMIx_Commit();
    PMIx_Fence(NULL, 0, NULL, 0);

    pmix_proc_t job = me, peer = me;
    pmix_value_t *size = NULL, *got = NULL;
    job.rank = PMIX_RANK_WILDCARD;
    PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &size);
    peer.rank = (me.rank + 1) % size->data.uint32;
    if (PMIX_SUCCESS == PMIx_Get(&peer, "reading", NULL, 0, &got)) {
        const reading_t *r = got->data.ptr;
        printf("rank %u got sensor %d: %.2f .. %.2f C at (%.1f, %.1f)\n", me.rank, r->sensor,
               r->samples[0], r->samples[NSAMPLES - 1], r->where->x, r->where->y);
        PMIX_VALUE_RELEASE(got);   /* frees the copy of *where too */
    }
    PMIX_VALUE_RELEASE(size);
    PMIx_Finalize(NULL, 0);
    return 0;
}
