/*
 * time.c - PMIX_TIME (a time_t) and PMIX_TIMEVAL (a struct timeval).
 *
 * Design notes:
 *  - A time_t is a signed 64-bit integer on the wire; a timeval is its two
 *    members, seconds then microseconds, each a signed 64-bit integer.
 *    Values travel as they are, unnormalised ones included, so a timeval
 *    comes back exactly as it was sent.
 *  - Timevals order by seconds, then microseconds.
 *  - Text shows the number and, when it is a representable date, the UTC
 *    date in ISO 8601 form, which is what a person reading a log wants.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "scalar_int.h"

_Static_assert(sizeof(time_t) == 8, "time_t must be 64 bits");
_Static_assert(sizeof(((struct timeval *)NULL)->tv_usec) == 8, "suseconds_t must be 64 bits");

/* " (YYYY-MM-DDTHH:MM:SSZ)" for t, written into buf (len bytes), or ""
 * when t is no calendar date gmtime can express. */
static const char *utc_suffix(time_t t, char *buf, size_t len)
{
    struct tm tm;
    if (NULL == gmtime_r(&t, &tm) || 0 == strftime(buf, len, " (%Y-%m-%dT%H:%M:%SZ)", &tm)) {
        return "";
    }
    return buf;
}

static char *print_time(const void *elem)
{
    time_t t;
    char date[64];
    memcpy(&t, elem, sizeof(t));
    return scalar_int_format("%" PRId64 "%s", (int64_t)t, utc_suffix(t, date, sizeof(date)));
}

static pmix_status_t pack_timeval(drover_writer_t *w, const void *elem)
{
    const struct timeval *tv = elem;
    pmix_status_t rc = wire_put_u64(w, (uint64_t)tv->tv_sec);
    if (PMIX_SUCCESS == rc) {
        rc = wire_put_u64(w, (uint64_t)tv->tv_usec);
    }
    return rc;
}

static pmix_status_t unpack_timeval(drover_reader_t *r, void *elem)
{
    struct timeval *tv = elem;
    uint64_t sec, usec;
    pmix_status_t rc = wire_get_u64(r, &sec);
    if (PMIX_SUCCESS == rc) {
        rc = wire_get_u64(r, &usec);
    }
    if (PMIX_SUCCESS == rc) {
        tv->tv_sec = (time_t)sec;
        tv->tv_usec = (suseconds_t)usec;
    }
    return rc;
}

static pmix_value_cmp_t compare_timeval(const void *a, const void *b)
{
    const struct timeval *x = a, *y = b;
    pmix_value_cmp_t c = scalar_int_order_s64(x->tv_sec, y->tv_sec);
    return PMIX_EQUAL != c ? c : scalar_int_order_s64(x->tv_usec, y->tv_usec);
}

static char *print_timeval(const void *elem)
{
    const struct timeval *tv = elem;
    char date[64];
    if (tv->tv_usec < 0 || tv->tv_usec >= 1000000) {
        return scalar_int_format("{tv_sec=%" PRId64 ", tv_usec=%" PRId64 "}",
                                 (int64_t)tv->tv_sec, (int64_t)tv->tv_usec);
    }
    return scalar_int_format("%" PRId64 ".%06" PRId64 "%s", (int64_t)tv->tv_sec,
                             (int64_t)tv->tv_usec, utc_suffix(tv->tv_sec, date, sizeof(date)));
}

const drover_datatype_t bfrops_type_time =
    SCALAR_INT_RECORD(PMIX_TIME, 64, s, print_time);

const drover_datatype_t bfrops_type_timeval = {
    .name = "PMIX_TIMEVAL",
    .id = PMIX_TIMEVAL,
    .size = sizeof(struct timeval),
    .min_wire = 16,
    .flags = DROVER_DATATYPE_VALUE_INLINE,
    .pack = pack_timeval,
    .unpack = unpack_timeval,
    .compare = compare_timeval,
    .print = print_timeval,
};
