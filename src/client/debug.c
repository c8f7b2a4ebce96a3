/*
 * debug.c - PMIX_DEBUG_STOP_IN_INIT: a rank its job says to stop waits in
 * PMIx_Init until a debugger releases it (PMIX_DEBUGGER_RELEASE).
 *
 * Design notes:
 *  - The job-level key is read with PMIX_OPTIONAL (no message to the
 *    server): true stops every rank; a PMIX_PROC, or an array of them,
 *    the ranks named (wildcard ranks allowed).
 *  - The handler for the release is in place before the rank says it is
 *    waiting (PMIX_READY_FOR_DEBUG, to its host only: PMIX_RANGE_RM, with
 *    PMIX_BREAKPOINT "pmix-init"), so a release the host sends on that
 *    word is never missed. The host keeps a debugger's release and
 *    passes it to every rank that says it is waiting afterwards.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "pmix.h"

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool released;
} stop = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static void on_release(size_t id, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    pthread_mutex_lock(&stop.lock);
    stop.released = true;
    pthread_cond_broadcast(&stop.cond);
    pthread_mutex_unlock(&stop.lock);
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

static bool names(const pmix_proc_t *p, const pmix_proc_t *me)
{
    return PMIX_CHECK_NSPACE(p->nspace, me->nspace) &&
           (PMIX_RANK_WILDCARD == p->rank || p->rank == me->rank);
}

/* Whether the value of PMIX_DEBUG_STOP_IN_INIT stops me. */
static bool stops(const pmix_value_t *v, const pmix_proc_t *me)
{
    if (PMIX_BOOL == v->type) {
        return v->data.flag;
    }
    if (PMIX_PROC == v->type && NULL != v->data.proc) {
        return names(v->data.proc, me);
    }
    if (PMIX_DATA_ARRAY == v->type && NULL != v->data.darray &&
        PMIX_PROC == v->data.darray->type) {
        const pmix_proc_t *procs = v->data.darray->array;
        for (size_t i = 0; i < v->data.darray->size; i++) {
            if (names(&procs[i], me)) {
                return true;
            }
        }
    }
    return false;
}

static void said(pmix_status_t status, void *cbdata)
{
}

pmix_status_t client_stop_in_init(const pmix_proc_t *me)
{
    pmix_proc_t job;
    pmix_info_t optional, breakpoint;
    pmix_value_t *val = NULL;
    pmix_status_t code = PMIX_DEBUGGER_RELEASE;
    bool yes = true;

    PMIX_LOAD_PROCID(&job, me->nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&optional, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Get(&job, PMIX_DEBUG_STOP_IN_INIT, &optional, 1, &val);
    PMIX_INFO_DESTRUCT(&optional);
    bool stopped = PMIX_SUCCESS == rc && NULL != val && stops(val, me);
    if (NULL != val) {
        PMIX_VALUE_RELEASE(val);
    }
    if (!stopped) {
        return PMIX_SUCCESS;
    }
    rc = PMIx_Register_event_handler(&code, 1, NULL, 0, on_release, NULL, NULL);
    if (rc < 0) {
        return rc;
    }
    size_t handler = (size_t)rc;
    PMIX_INFO_LOAD(&breakpoint, PMIX_BREAKPOINT, "pmix-init", PMIX_STRING);
    rc = PMIx_Notify_event(PMIX_READY_FOR_DEBUG, me, PMIX_RANGE_RM, &breakpoint, 1, said, NULL);
    PMIX_INFO_DESTRUCT(&breakpoint);
    if (PMIX_SUCCESS == rc || PMIX_OPERATION_SUCCEEDED == rc) {
        pthread_mutex_lock(&stop.lock);
        while (!stop.released) {
            pthread_cond_wait(&stop.cond, &stop.lock);
        }
        pthread_mutex_unlock(&stop.lock);
        rc = PMIX_SUCCESS;
    }
    PMIx_Deregister_event_handler(handler, NULL, NULL);
    return rc;
}
