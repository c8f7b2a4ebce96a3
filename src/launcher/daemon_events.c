/*
 * daemon_events.c - events whose range names processes of other jobs of
 *                   the daemon: a group's member that left or failed
 *                   (PMIX_GROUP_LEFT, PMIX_GROUP_MEMBER_FAILED), or any
 *                   PMIx_Notify_event with a PMIX_EVENT_CUSTOM_RANGE.
 *
 * Design notes:
 *  - A run's server delivers such an event to its own clients and passes
 *    it to the host (notify_event). The run sends it on its control
 *    socket when the range names a process beyond the run: "event\n" and
 *    three packed values, data arrays of one PMIX_STATUS (the code), one
 *    PMIX_PROC (the source) and of PMIX_INFO (the event's info, the
 *    custom range among it).
 *  - The daemon passes the message, unchanged, on the control socket of
 *    each other running job that owns a process of the range. It reads
 *    the message within its length, and passes on only an event whose
 *    source is a process of the sending job.
 *  - The run that receives it hands it to its server
 *    (PMIx_Notify_event from the host), which delivers it to its clients
 *    in the range and, for a group's member that left or failed, takes
 *    that member out of its own record of the group.
 *  - Other ranges stay within the run, as before: an event meant for
 *    every job (PMIX_RANGE_SESSION, _GLOBAL) would reach jobs that never
 *    asked for it, whose default handlers may well take an error code as
 *    fatal.
 */
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "directive.h"
#include "pmix.h"

#define HEADER "event\n"

static const pmix_data_type_t types[3] = {PMIX_STATUS, PMIX_PROC, PMIX_INFO};

/* ---- the run's side ------------------------------------------------------ */

pmix_status_t daemon_events_message(pmix_status_t code, const pmix_proc_t *source,
                                    const pmix_info_t *info, size_t ninfo, char **msg, size_t *len)
{
    pmix_data_array_t arrays[3];
    pmix_value_t values[3] = {
        daemon_relay_array(&arrays[0], &code, 1, PMIX_STATUS),
        daemon_relay_array(&arrays[1], (void *)source, 1, PMIX_PROC),
        daemon_relay_array(&arrays[2], (void *)info, ninfo, PMIX_INFO),
    };
    return daemon_relay_pack(HEADER, values, 3, msg, len);
}

bool daemon_events_is_message(const char *msg, size_t len)
{
    return len > strlen(HEADER) && 0 == memcmp(msg, HEADER, strlen(HEADER));
}

/* The three values of an event message, checked: one code, one source. */
static pmix_status_t unpack(const char *msg, size_t len, pmix_value_t values[3])
{
    pmix_status_t rc = daemon_relay_unpack(msg, len, values, 3, types);
    if (PMIX_SUCCESS == rc &&
        (1 != values[0].data.darray->size || 1 != values[1].data.darray->size)) {
        for (size_t i = 0; i < 3; i++) {
            PMIX_VALUE_DESTRUCT(&values[i]);
        }
        rc = PMIX_ERR_UNPACK_FAILURE;
    }
    return rc;
}

void daemon_events_deliver(const char *msg, size_t len)
{
    pmix_value_t values[3];
    if (PMIX_SUCCESS != unpack(msg, len, values)) {
        return;
    }
    const pmix_data_array_t *info = values[2].data.darray;
    /* The server copies what it needs before this returns. */
    PMIx_Notify_event(*(pmix_status_t *)values[0].data.darray->array, values[1].data.darray->array,
                      PMIX_RANGE_CUSTOM, info->array, info->size, NULL, NULL);
    for (size_t i = 0; i < 3; i++) {
        PMIX_VALUE_DESTRUCT(&values[i]);
    }
}

/* ---- the daemon's side --------------------------------------------------- */

void daemon_events_forward(daemon_jobs_t *jobs, unsigned from, const char *msg, size_t len)
{
    pmix_value_t values[3];
    if (PMIX_SUCCESS != unpack(msg, len, values)) {
        return;
    }
    const pmix_proc_t *source = values[1].data.darray->array;
    const pmix_data_array_t *info = values[2].data.darray;
    size_t n;
    const pmix_proc_t *range =
        directive_procs(info->array, info->size, PMIX_EVENT_CUSTOM_RANGE, &n);
    unsigned *sent = daemon_connect_owner(jobs, source->nspace) == from && n > 0
                         ? calloc(n, sizeof(*sent))
                         : NULL;
    size_t nsent = 0;
    for (size_t i = 0; NULL != sent && i < n; i++) {
        unsigned to = daemon_connect_owner(jobs, range[i].nspace);
        bool again = to == from || 0 == to;
        for (size_t k = 0; k < nsent && !again; k++) {
            again = sent[k] == to;
        }
        if (!again) {
            /* A job that ended meanwhile has nobody left to tell. */
            (void)daemon_jobs_control_bytes(jobs, to, msg, len);
            sent[nsent++] = to;
        }
    }
    free(sent);
    for (size_t i = 0; i < 3; i++) {
        PMIX_VALUE_DESTRUCT(&values[i]);
    }
}
