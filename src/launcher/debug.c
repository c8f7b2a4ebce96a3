/*
 * debug.c - a run's side of PMIX_DEBUG_STOP_IN_INIT: ranks that wait in
 * PMIx_Init for a debugger, and their release.
 *
 * Design notes:
 *  - A job told to stop (job->stop_in_init: a daemon's job spawned so by a
 *    tool) is registered with PMIX_DEBUG_STOP_IN_INIT true (jobinfo.c); its
 *    ranks then wait in PMIx_Init (client/debug.c).
 *  - A waiting rank says PMIX_READY_FOR_DEBUG to the host (host.c passes it
 *    here). Once a debugger has released the job (debug_release), every
 *    rank gets PMIX_DEBUGGER_RELEASE, and each that says it waits later
 *    gets it then: a release never overtakes a rank that is not yet
 *    listening for it.
 */
#include "launcher.h"
#include "pmix.h"

/* PMIX_DEBUGGER_RELEASE to procs (a rank, or the job's wildcard). */
static void release(launcher_t *run, const pmix_proc_t *procs)
{
    pmix_info_t *info;
    pmix_data_array_t range = {.type = PMIX_PROC, .size = 1, .array = (void *)procs};

    PMIX_INFO_CREATE(info, 1);
    if (NULL != info) {
        PMIX_INFO_LOAD(&info[0], PMIX_EVENT_CUSTOM_RANGE, &range, PMIX_DATA_ARRAY);
        host_raise(run, PMIX_DEBUGGER_RELEASE, NULL, PMIX_RANGE_CUSTOM, info, 1);
    }
}

void debug_ready(launcher_t *run, const pmix_proc_t *proc)
{
    launcher_job_t *job;
    if (NULL != job_find_proc(run, proc, &job) && job->released) {
        release(run, proc);
    }
}

void debug_release(launcher_t *run, launcher_job_t *job)
{
    pmix_proc_t all;
    if (!job->stop_in_init || job->released) {
        return;
    }
    job->released = true;
    PMIX_LOAD_PROCID(&all, job->nspace, PMIX_RANK_WILDCARD);
    release(run, &all);
}
