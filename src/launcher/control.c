/*
 * control.c - PMIx_Job_control directives and PMIx_Process_monitor
 *             heartbeats, carried out for the clients in the main thread.
 *
 * Design notes:
 *  - Job control: kill, terminate (SIGTERM, then SIGKILL after the grace),
 *    signal, pause and resume act on the targets (the requester's whole
 *    job when none is named); processes ended that way are not failures.
 *    PMIX_JOB_CTRL_PREEMPTIBLE marks the targets' jobs (PMIx_Query_info of
 *    PMIX_JOB_CTRL_PREEMPTIBLE reports it): drover never preempts, but a
 *    tool may ask. The cleanup directives are the library's own.
 *  - Checkpoint (PMIX_JOB_CTRL_CHECKPOINT, its value the checkpoint's id):
 *    drover cannot checkpoint a process, so it triggers the application's
 *    own checkpoint, as in PMIx's model: by the signal the request names
 *    (PMIX_JOB_CTRL_CHECKPOINT_SIGNAL), else by the event PMIX_JCTRL_
 *    CHECKPOINT to the targets (PMIX_JOB_CTRL_CHECKPOINT_EVENT, or what the
 *    targets' job declared with PMIX_JOB_CTRL_CHECKPOINT_METHOD, event
 *    when nothing says). The event carries the id; completion is the
 *    application's to report (PMIX_JCTRL_CHECKPOINT_COMPLETE). OpenPMIx 4.2
 *    gives PMIX_JOB_CTRL_CHECKPOINT_TIMEOUT the key of _SIGNAL, so the two
 *    cannot be told apart: an int under that key is the signal.
 *  - Heartbeats: PMIX_MONITOR_HEARTBEAT with PMIX_MONITOR_HEARTBEAT_TIME
 *    (seconds, required) and PMIX_MONITOR_HEARTBEAT_DROPS (default 0)
 *    watches the caller: a timer checks every TIME seconds whether a
 *    heartbeat (PMIX_SEND_HEARTBEAT, the PMIx_Heartbeat macro) came since
 *    the last check. More than DROPS checks in a row without one raise the
 *    monitor's event (its error code, PMIX_MONITOR_HEARTBEAT_ALERT by
 *    default) about the process to every client and, unless the request
 *    said PMIX_MONITOR_APP_CONTROL, end the job as a failure, with one
 *    line saying why. PMIX_MONITOR_CANCEL drops the caller's watches of
 *    that PMIX_MONITOR_ID (all of them for an empty id). A watch ends with
 *    its process, or its PMIx_Finalize; a process has at most MAX_WATCHES.
 *    File monitors are not supported.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "directive.h"
#include "launcher.h"
#include "pmix.h"

void control_for_each(launcher_t *run, const pmix_proc_t *procs, size_t nprocs,
                      void (*fn)(launcher_t *run, launcher_proc_t *p, int arg), int arg)
{
    for (size_t i = 0; i < nprocs; i++) {
        launcher_job_t *job = job_find(run, procs[i].nspace);
        if (NULL == job) {
            continue;
        }
        for (unsigned rank = 0; rank < job->nprocs; rank++) {
            if ((PMIX_RANK_WILDCARD == procs[i].rank || rank == procs[i].rank) &&
                job->procs[rank].alive) {
                fn(run, &job->procs[rank], arg);
            }
        }
    }
}

static void signal_target(launcher_t *run, launcher_proc_t *p, int sig)
{
    job_signal_proc(run, p, sig);
}

static void terminate_target(launcher_t *run, launcher_proc_t *p, int unused)
{
    job_terminate_proc(run, p);
}

/* A checkpoint signal asks the process to save itself, not to end: it is
 * not marked as ended on request. */
static void checkpoint_signal(launcher_t *run, launcher_proc_t *p, int sig)
{
    kill(p->pid, sig);
}

/* ---- Job control ---------------------------------------------------------- */

/* The signal a value names, 0 when none (or not an int), -1 when invalid. */
static int signal_of(const pmix_value_t *v)
{
    if (NULL == v || PMIX_INT != v->type) {
        return 0;
    }
    int sig = v->data.integer;
    return sig > 0 && sig < NSIG ? sig : -1;
}

/* PMIX_JOB_CTRL_CHECKPOINT_METHOD: the methods the targets' application
 * supports; the last one given is the one used. */
static pmix_status_t declare_methods(launcher_t *run, const pmix_proc_t *targets, size_t n,
                                     const pmix_info_t *d)
{
    const pmix_data_array_t *a = d->value.data.darray;
    int sig = 0;
    bool by_event = false;

    if (PMIX_DATA_ARRAY != d->value.type || NULL == a || PMIX_INFO != a->type) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 0; i < a->size; i++) {
        const pmix_info_t *m = &((const pmix_info_t *)a->array)[i];
        if (PMIX_CHECK_KEY(m, PMIX_JOB_CTRL_CHECKPOINT_SIGNAL)) {
            if ((sig = signal_of(&m->value)) <= 0) {
                return PMIX_ERR_BAD_PARAM;
            }
            by_event = false;
        } else if (PMIX_CHECK_KEY(m, PMIX_JOB_CTRL_CHECKPOINT_EVENT) && PMIX_INFO_TRUE(m)) {
            by_event = true;
            sig = 0;
        }
    }
    if (0 == sig && !by_event) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    for (size_t i = 0; i < n; i++) {
        launcher_job_t *job = job_find(run, targets[i].nspace);
        if (NULL != job) {
            job->checkpoint_signal = sig;
        }
    }
    return PMIX_SUCCESS;
}

/* The event PMIX_JCTRL_CHECKPOINT to the targets, with the id. */
static pmix_status_t checkpoint_event(launcher_t *run, const pmix_proc_t *requestor,
                                      const pmix_proc_t *targets, size_t n, const char *id)
{
    pmix_info_t *info;
    pmix_data_array_t range = {.type = PMIX_PROC, .size = n, .array = (void *)targets};

    PMIX_INFO_CREATE(info, 2);
    if (NULL == info) {
        return PMIX_ERR_NOMEM;
    }
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_CUSTOM_RANGE, &range, PMIX_DATA_ARRAY);
    PMIX_INFO_LOAD(&info[1], PMIX_JOB_CTRL_CHECKPOINT, id, PMIX_STRING);
    return host_raise(run, PMIX_JCTRL_CHECKPOINT, requestor, PMIX_RANGE_CUSTOM, info, 2);
}

/* PMIX_JOB_CTRL_CHECKPOINT d with the request's other directives. */
static pmix_status_t checkpoint(launcher_t *run, const pmix_proc_t *requestor,
                                const pmix_proc_t *targets, size_t n, const pmix_info_t *d,
                                const pmix_info_t *dirs, size_t ndirs)
{
    const char *id = PMIX_STRING == d->value.type ? d->value.data.string : NULL;
    const pmix_value_t *ev = directive_find(dirs, ndirs, PMIX_JOB_CTRL_CHECKPOINT_EVENT);
    int sig = signal_of(directive_find(dirs, ndirs, PMIX_JOB_CTRL_CHECKPOINT_SIGNAL));

    if (PMIX_BOOL == d->value.type && !PMIX_INFO_TRUE(d)) {
        return PMIX_SUCCESS; /* asked not to */
    }
    if (sig < 0 || (PMIX_STRING != d->value.type && PMIX_BOOL != d->value.type)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == sig && (NULL == ev || !PMIX_CHECK_TRUE(ev))) {
        /* The method the targets' application declared, if one job. */
        const launcher_job_t *job = 1 == n ? job_find(run, targets[0].nspace) : NULL;
        sig = NULL != job ? job->checkpoint_signal : 0;
    }
    if (sig > 0) {
        control_for_each(run, targets, n, checkpoint_signal, sig);
        return PMIX_SUCCESS;
    }
    return checkpoint_event(run, requestor, targets, n, NULL != id ? id : "");
}

static void set_preemptible(launcher_t *run, const pmix_proc_t *targets, size_t n, bool yes)
{
    for (size_t i = 0; i < n; i++) {
        launcher_job_t *job = job_find(run, targets[i].nspace);
        if (NULL != job) {
            job->preemptible = yes;
        }
    }
}

pmix_status_t control_job(launcher_t *run, const pmix_proc_t *requestor,
                          const pmix_proc_t *targets, size_t ntargets, const pmix_info_t *dirs,
                          size_t ndirs)
{
    pmix_proc_t whole = *requestor;
    pmix_status_t rc = PMIX_ERR_NOT_SUPPORTED;

    if (0 == ntargets) {
        whole.rank = PMIX_RANK_WILDCARD;
        targets = &whole;
        ntargets = 1;
    }
    for (size_t i = 0; i < ndirs; i++) {
        const pmix_info_t *d = &dirs[i];
        pmix_status_t done = PMIX_SUCCESS;
        if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_KILL) && PMIX_INFO_TRUE(d)) {
            control_for_each(run, targets, ntargets, signal_target, SIGKILL);
        } else if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_TERMINATE) && PMIX_INFO_TRUE(d)) {
            control_for_each(run, targets, ntargets, terminate_target, 0);
        } else if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_SIGNAL) && PMIX_INT == d->value.type) {
            int sig = signal_of(&d->value);
            if (sig <= 0) {
                return PMIX_ERR_BAD_PARAM;
            }
            control_for_each(run, targets, ntargets, signal_target, sig);
        } else if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_PAUSE) && PMIX_INFO_TRUE(d)) {
            control_for_each(run, targets, ntargets, signal_target, SIGSTOP);
        } else if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_RESUME) && PMIX_INFO_TRUE(d)) {
            control_for_each(run, targets, ntargets, signal_target, SIGCONT);
        } else if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_PREEMPTIBLE)) {
            set_preemptible(run, targets, ntargets, PMIX_INFO_TRUE(d));
        } else if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_CHECKPOINT)) {
            done = checkpoint(run, requestor, targets, ntargets, d, dirs, ndirs);
        } else if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_CHECKPOINT_METHOD)) {
            done = declare_methods(run, targets, ntargets, d);
        } else if (PMIX_CHECK_KEY(d, PMIX_REGISTER_CLEANUP) ||
                   PMIX_CHECK_KEY(d, PMIX_REGISTER_CLEANUP_DIR) ||
                   PMIX_CHECK_KEY(d, PMIX_CLEANUP_RECURSIVE) ||
                   PMIX_CHECK_KEY(d, PMIX_CLEANUP_IGNORE) ||
                   PMIX_CHECK_KEY(d, PMIX_CLEANUP_LEAVE_TOPDIR) ||
                   PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_ID) ||
                   PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_CHECKPOINT_EVENT) ||
                   PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_CHECKPOINT_SIGNAL)) {
            /* The library honours the cleanup directives itself (the
             * session directory goes at the end in any case); the
             * checkpoint method goes with PMIX_JOB_CTRL_CHECKPOINT. */
        } else {
            continue;
        }
        if (PMIX_SUCCESS != done) {
            return done;
        }
        rc = PMIX_SUCCESS;
    }
    return rc;
}

/* ---- Heartbeats ----------------------------------------------------------- */

typedef struct watch {
    launcher_t *run;
    pmix_proc_t proc;
    char *id;                    /* PMIX_MONITOR_ID, or NULL */
    pmix_status_t error;         /* the event to raise */
    uint32_t period, drops, missed;
    bool beat;                   /* a heartbeat came since the last check */
    bool app_control;            /* the application acts on the alert */
    struct event *timer;
    struct watch *next;
} watch_t;

static watch_t *watches;

/* Watches one process may have at once: each is a timer in drover's loop,
 * and a process has no use for many. */
#define MAX_WATCHES 64

static void unlink_watch(watch_t *w)
{
    for (watch_t **p = &watches; NULL != *p; p = &(*p)->next) {
        if (*p == w) {
            *p = w->next;
            break;
        }
    }
    if (NULL != w->timer) {
        event_free(w->timer);
    }
    free(w->id);
    free(w);
}

static void alert(watch_t *w, const launcher_proc_t *p, const launcher_job_t *job)
{
    char who[PMIX_MAX_NSLEN + 32];
    launcher_t *run = w->run;
    pmix_info_t *info;
    size_t n = NULL != w->id ? 2 : 1;

    PMIX_INFO_CREATE(info, n);
    if (NULL != info) {
        PMIX_INFO_LOAD(&info[0], PMIX_EVENT_AFFECTED_PROC, &w->proc, PMIX_PROC);
        if (NULL != w->id) {
            PMIX_INFO_LOAD(&info[1], PMIX_MONITOR_ID, w->id, PMIX_STRING);
        }
        host_raise(run, w->error, &w->proc, PMIX_RANGE_SESSION, info, n);
    }
    if (!w->app_control) {
        /* Named as drover names ranks elsewhere: the namespace only for a
         * spawned job. */
        snprintf(who, sizeof(who), 0 == job->index ? "rank %u" : "rank %u of %s", w->proc.rank,
                 w->proc.nspace);
        job_fail(run, LAUNCHER_EXIT_FAILURE,
                 LAUNCHER_NAME ": %s (pid %d) sent no heartbeat for %u s (%u missed): "
                               "ending the job",
                 who, (int)p->pid, (w->drops + 1) * w->period, w->drops + 1);
    }
}

static void check_beat(evutil_socket_t fd, short what, void *arg)
{
    watch_t *w = arg;
    launcher_job_t *job;
    const launcher_proc_t *p = job_find_proc(w->run, &w->proc, &job);

    if (NULL == p || !p->alive || p->finalized) {
        unlink_watch(w); /* its process is gone, or cannot beat any more */
        return;
    }
    if (w->beat) {
        w->beat = false;
        w->missed = 0;
        return;
    }
    if (++w->missed > w->drops) {
        alert(w, p, job);
        unlink_watch(w);
    }
}

/* A 32-bit count in whichever integer type it came; *ok says whether it
 * was one. */
static uint32_t u32_of(const pmix_value_t *v, bool *ok)
{
    int64_t n;

    *ok = NULL != v && PMIX_SUCCESS == directive_integer(v, &n) && n >= 0 && n <= UINT32_MAX;
    return *ok ? (uint32_t)n : 0;
}

static pmix_status_t watch_heartbeats(launcher_t *run, const pmix_proc_t *proc,
                                      pmix_status_t error, const pmix_info_t *dirs, size_t ndirs)
{
    const pmix_value_t *time = directive_find(dirs, ndirs, PMIX_MONITOR_HEARTBEAT_TIME);
    const pmix_value_t *drops = directive_find(dirs, ndirs, PMIX_MONITOR_HEARTBEAT_DROPS);
    const pmix_value_t *id = directive_find(dirs, ndirs, PMIX_MONITOR_ID);
    const pmix_value_t *app = directive_find(dirs, ndirs, PMIX_MONITOR_APP_CONTROL);
    bool ok_time, ok_drops = true;
    uint32_t period = u32_of(time, &ok_time), ndrops = NULL == drops ? 0 : u32_of(drops, &ok_drops);
    watch_t *w;

    if (!ok_time || 0 == period || !ok_drops ||
        (NULL != id && (PMIX_STRING != id->type || NULL == id->data.string))) {
        return PMIX_ERR_BAD_PARAM;
    }
    size_t mine = 0;
    for (const watch_t *other = watches; NULL != other; other = other->next) {
        mine += PMIX_CHECK_PROCID(&other->proc, proc);
    }
    if (mine >= MAX_WATCHES) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (NULL == job_find_proc(run, proc, NULL)) {
        return PMIX_ERR_NOT_FOUND;
    }
    if (NULL == (w = calloc(1, sizeof(*w)))) {
        return PMIX_ERR_NOMEM;
    }
    *w = (watch_t){.run = run, .proc = *proc, .period = period, .drops = ndrops,
                   .error = PMIX_SUCCESS == error ? PMIX_MONITOR_HEARTBEAT_ALERT : error,
                   .app_control = NULL != app && PMIX_CHECK_TRUE(app)};
    struct timeval tv = {.tv_sec = period};
    if ((NULL != id && NULL == (w->id = strdup(id->data.string))) ||
        NULL == (w->timer = event_new(run->base, -1, EV_PERSIST, check_beat, w)) ||
        0 != event_add(w->timer, &tv)) {
        unlink_watch(w);
        return PMIX_ERR_NOMEM;
    }
    w->next = watches;
    watches = w;
    return PMIX_SUCCESS;
}

/* Drop proc's watches of id (all of them for NULL or ""). */
static pmix_status_t cancel(const pmix_proc_t *proc, const pmix_info_t *m)
{
    const char *id = PMIX_STRING == m->value.type ? m->value.data.string : NULL;
    bool all = NULL == id || '\0' == id[0];
    bool found = false;

    for (watch_t *w = watches, *next; NULL != w; w = next) {
        next = w->next;
        if (PMIX_CHECK_PROCID(&w->proc, proc) &&
            (all || (NULL != w->id && 0 == strcmp(w->id, id)))) {
            unlink_watch(w);
            found = true;
        }
    }
    return found ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
}

pmix_status_t control_monitor(launcher_t *run, const pmix_proc_t *requestor,
                              const pmix_info_t *monitor, pmix_status_t error,
                              const pmix_info_t *dirs, size_t ndirs)
{
    if (PMIX_CHECK_KEY(monitor, PMIX_SEND_HEARTBEAT)) {
        for (watch_t *w = watches; NULL != w; w = w->next) {
            w->beat |= PMIX_CHECK_PROCID(&w->proc, requestor);
        }
        return PMIX_SUCCESS;
    }
    if (PMIX_CHECK_KEY(monitor, PMIX_MONITOR_HEARTBEAT)) {
        return PMIX_INFO_TRUE(monitor) ? watch_heartbeats(run, requestor, error, dirs, ndirs)
                                       : PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_CHECK_KEY(monitor, PMIX_MONITOR_CANCEL)) {
        return cancel(requestor, monitor);
    }
    return PMIX_ERR_NOT_SUPPORTED;
}

void control_stop(void)
{
    while (NULL != watches) {
        unlink_watch(watches);
    }
}
