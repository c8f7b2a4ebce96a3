/*
 * debug.c - stopping in PMIx_Init for a debugger (PMIX_DEBUG_STOP_IN_INIT).
 *
 * Design notes:
 *  - The directive is job information ("pmix.dbg.init", the job-level key
 *    OpenPMIx reads): a bool, a rank or a list of processes. A process it
 *    names announces PMIX_READY_FOR_DEBUG (breakpoint "pmix-init", range
 *    PMIX_RANGE_RM: for the host, whose server passes it to every tool)
 *    and sleeps on a condition variable until PMIX_DEBUGGER_RELEASE comes.
 *    The handler runs in the progress thread, which stays free meanwhile.
 *  - The handler is registered before the announcement, so a release sent
 *    the moment a tool sees it cannot be missed. A release that names the
 *    processes it is for (PMIX_EVENT_AFFECTED_PROC(S)) leaves the others
 *    waiting. A lost server ends the wait with an error.
 *  - Only the first PMIx_Init of the process stops: Open MPI initialises
 *    twice.
 */
#include <stdlib.h>

#include "client.h"
#include "pmix.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static bool released, stopped_once;
static pmix_status_t outcome;

/* Whether an event's PMIX_EVENT_AFFECTED_PROC(S), if any, include me. */
static bool affects_me(const pmix_info_t *info, size_t ninfo)
{
    for (size_t i = 0; i < ninfo; i++) {
        bool named;
        if ((PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) ||
             PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROCS)) &&
            PMIX_SUCCESS == directive_names_proc(&info[i].value, &client.me, &named)) {
            return named;
        }
    }
    return true;
}

static void on_release(size_t id, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    if (PMIX_DEBUGGER_RELEASE != status || affects_me(info, ninfo)) {
        pthread_mutex_lock(&lock);
        released = true;
        outcome = PMIX_DEBUGGER_RELEASE == status ? PMIX_SUCCESS : PMIX_ERR_UNREACH;
        pthread_cond_signal(&wake);
        pthread_mutex_unlock(&lock);
    }
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

/* Whether the job's stop-in-init directive names this process. */
static pmix_status_t named_to_stop(bool *named)
{
    pmix_proc_t job;
    pmix_info_t optional;
    pmix_value_t *v = NULL;

    *named = false;
    PMIX_LOAD_PROCID(&job, client.me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&optional, PMIX_OPTIONAL, NULL, PMIX_BOOL);
    pmix_status_t rc = PMIx_Get(&job, PMIX_DEBUG_STOP_IN_INIT, &optional, 1, &v);
    if (PMIX_SUCCESS != rc) {
        return PMIX_SUCCESS; /* no directive */
    }
    rc = directive_names_proc(v, &client.me, named);
    PMIX_VALUE_RELEASE(v);
    return rc;
}

pmix_status_t client_debug_stop_in_init(void)
{
    pmix_status_t codes[] = {PMIX_DEBUGGER_RELEASE, PMIX_ERR_LOST_CONNECTION};
    bool named;
    pmix_status_t rc = named_to_stop(&named);

    if (PMIX_SUCCESS != rc || !named || stopped_once || client.singleton) {
        return rc;
    }
    stopped_once = true;
    released = false;
    rc = PMIx_Register_event_handler(codes, 2, NULL, 0, on_release, NULL, NULL);
    if (rc < 0) {
        return rc;
    }
    size_t id = (size_t)rc;
    pmix_info_t info[3];
    PMIX_INFO_LOAD(&info[0], PMIX_BREAKPOINT, "pmix-init", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_EVENT_NON_DEFAULT, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[2], PMIX_EVENT_DO_NOT_CACHE, NULL, PMIX_BOOL);
    rc = PMIx_Notify_event(PMIX_READY_FOR_DEBUG, &client.me, PMIX_RANGE_RM, info, 3, NULL, NULL);
    PMIX_INFO_DESTRUCT(&info[0]);
    if (PMIX_SUCCESS == rc) {
        pthread_mutex_lock(&lock);
        while (!released) {
            pthread_cond_wait(&wake, &lock);
        }
        rc = outcome;
        pthread_mutex_unlock(&lock);
    }
    PMIx_Deregister_event_handler(id, NULL, NULL);
    return rc;
}
