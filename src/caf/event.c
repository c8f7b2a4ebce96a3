/*
 * event.c - EVENT POST, EVENT WAIT and EVENT_QUERY.
 *
 * An event variable is a count in the symmetric heap of the image it
 * belongs to (8 bytes per element, the count first). EVENT POST adds one to
 * the count on the target image and rings that image's doorbell; EVENT WAIT
 * (always on a variable of the executing image) sleeps on its own doorbell
 * until the count reaches UNTIL_COUNT, then takes that many off.
 */
#include "caf.h"

#define EVENT_BYTES 8

static _Atomic int32_t *event_count(caf_token_t token, size_t index, int rank)
{
    return (_Atomic int32_t *)(caf_token_mem(token, rank) + index * EVENT_BYTES);
}

CAF_EXPORT void _gfortran_caf_event_post(caf_token_t token, size_t index, int image, int *stat,
                                         char *errmsg, size_t errmsg_len)
{
    caf_ok(stat);
    int rank = caf_rank_of(image);
    if (CAF_STAT_FAILED_IMAGE == atomic_load(&caf_ctl(rank)->status)) {
        caf_error(stat, errmsg, errmsg_len, CAF_STAT_FAILED_IMAGE,
                  "EVENT POST: image %d has failed", image);
        return;
    }
    atomic_fetch_add(event_count(token, index, rank), 1);
    caf_ring(rank);
}

typedef struct until {
    _Atomic int32_t *count;
    int32_t want;
} until_t;

static bool posted(void *arg)
{
    const until_t *u = arg;
    return atomic_load(u->count) >= u->want;
}

CAF_EXPORT void _gfortran_caf_event_wait(caf_token_t token, size_t index, int until_count,
                                         int *stat, char *errmsg, size_t errmsg_len)
{
    caf_ok(stat);
    until_t u = {.count = event_count(token, index, caf.me),
                 .want = until_count > 0 ? until_count : 1};
    caf_wait_until(posted, &u);
    atomic_fetch_sub(u.count, u.want);
}

CAF_EXPORT void _gfortran_caf_event_query(caf_token_t token, size_t index, int image, int *count,
                                          int *stat)
{
    caf_ok(stat);
    int rank = caf_rank_of(image);
    *count = atomic_load(event_count(token, index, rank));
}
