/*
 * spawn.c - PMIx_Spawn: a new job, inside the same run, from a client's
 *           apps.
 *
 * Design notes:
 *  - A spawned job is a job like the first: its own namespace, registered
 *    with PMIX_SPAWNED=true and PMIX_PARENT_ID, launched into the same
 *    process group, its output forwarded (tagged "[job.rank]") and its exit
 *    statuses folded into the run's: a failure in it ends the run as one
 *    in the first job would. The run ends when every job has ended.
 *  - Each app's processes start from the run's base environment (so -x
 *    settings and the library path reach spawned processes too) with the
 *    app's env entries on top; its working directory is the app's cwd, or
 *    PMIX_WDIR among its info or the job info, or --wdir.
 *  - The programs are resolved before anything starts: a missing program
 *    is one message on drover's stderr and PMIX_ERR_JOB_EXE_NOT_FOUND for
 *    the caller, and the run goes on.
 *  - PMIX_HOST (MPI_Comm_spawn's "host" info key) may name only this node
 *    (or localhost): a run has no other, and quietly starting processes
 *    elsewhere than asked would be wrong.
 *  - More processes than free slots is refused (PMIX_ERR_OUT_OF_RESOURCE)
 *    unless drover runs with --oversubscribe, as for the first job.
 *  - Debugger directives among the job info (PMIX_DEBUG_STOP_*) are
 *    checked before anything is made and kept with the job (debug.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "directive.h"
#include "launcher.h"
#include "pmix.h"

static const char *string_info(const pmix_info_t *info, size_t ninfo, const char *key)
{
    const pmix_value_t *v = directive_find(info, ninfo, key);
    return NULL != v && PMIX_STRING == v->type ? v->data.string : NULL;
}

/* Whether every name of a PMIX_HOST list (comma-separated) is this node:
 * a run has no other. *bad is the first that is not. */
static bool hosts_here(const launcher_t *run, const char *hosts, char *bad, size_t size)
{
    for (const char *h = hosts; '\0' != *h;) {
        size_t n = strcspn(h, ",");
        if (0 != n && !(n == strlen(run->hostname) && 0 == strncmp(h, run->hostname, n)) &&
            !(n == 9 && 0 == strncmp(h, "localhost", n))) {
            snprintf(bad, size, "%.*s", (int)n, h);
            return false;
        }
        h += n + (',' == h[n] ? 1 : 0);
    }
    return true;
}

/* Fill out from the client's app. Returns PMIX_SUCCESS or an error after
 * a message. */
static pmix_status_t convert(launcher_t *run, const pmix_app_t *in, const pmix_info_t *job_info,
                             size_t ninfo, launcher_app_t *out)
{
    const char *cmd = NULL != in->cmd ? in->cmd
                      : NULL != in->argv && NULL != in->argv[0] ? in->argv[0]
                                                                : NULL;
    if (NULL == cmd || in->maxprocs <= 0) {
        fprintf(stderr, LAUNCHER_NAME ": a spawn request has %s\n",
                NULL == cmd ? "no program" : "no process count");
        return PMIX_ERR_BAD_PARAM;
    }
    const char *hosts = string_info(in->info, in->ninfo, PMIX_HOST);
    char bad[256];
    if (NULL != hosts && !hosts_here(run, hosts, bad, sizeof(bad))) {
        fprintf(stderr, LAUNCHER_NAME ": cannot spawn on host '%s': this run has only %s\n", bad,
                run->hostname);
        return PMIX_ERR_NOT_AVAILABLE;
    }
    out->nprocs = (unsigned)in->maxprocs;
    out->argv = launch_copy_env(NULL != in->argv && NULL != in->argv[0] ? in->argv
                                                                         : (char *const[]){
                                                                               (char *)cmd, NULL});
    out->env = launch_copy_env(run->base_env);
    const char *wdir = NULL != in->cwd && '\0' != in->cwd[0] ? in->cwd
                       : NULL != string_info(in->info, in->ninfo, PMIX_WDIR)
                           ? string_info(in->info, in->ninfo, PMIX_WDIR)
                       : NULL != string_info(job_info, ninfo, PMIX_WDIR)
                           ? string_info(job_info, ninfo, PMIX_WDIR)
                           : run->opts->wdir;
    if (NULL == out->argv || NULL == out->env ||
        (NULL != wdir && NULL == (out->wdir = strdup(wdir)))) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t e = 0; NULL != in->env && NULL != in->env[e]; e++) {
        const char *eq = strchr(in->env[e], '=');
        if (NULL == eq) {
            continue;
        }
        char *name = strndup(in->env[e], (size_t)(eq - in->env[e]));
        char **grown = NULL == name ? NULL : launch_setenv(out->env, name, eq + 1);
        free(name);
        if (NULL == grown) {
            return PMIX_ERR_NOMEM;
        }
        out->env = grown;
    }
    const char *why;
    int rc = launch_resolve(cmd, out->env, out->wdir, &out->program, &why);
    if (0 != rc) {
        fprintf(stderr, LAUNCHER_NAME ": cannot spawn '%s': %s\n", cmd, why);
        return LAUNCHER_EXIT_FAILURE == rc ? PMIX_ERR_NOMEM : PMIX_ERR_JOB_EXE_NOT_FOUND;
    }
    return PMIX_SUCCESS;
}

void spawn_job(launcher_t *run, const pmix_proc_t *requestor, const pmix_info_t *job_info,
               size_t ninfo, const pmix_app_t *apps, size_t napps, pmix_spawn_cbfunc_t cbfunc,
               void *cbdata)
{
    if (run->ending) {
        cbfunc(PMIX_ERR_NOT_AVAILABLE, NULL, cbdata);
        return;
    }
    pmix_status_t rc = debug_check(job_info, ninfo);
    launcher_app_t *converted = PMIX_SUCCESS == rc ? calloc(napps, sizeof(*converted)) : NULL;
    if (NULL == converted) {
        cbfunc(PMIX_SUCCESS == rc ? PMIX_ERR_NOMEM : rc, NULL, cbdata);
        return;
    }
    for (size_t a = 0; a < napps; a++) {
        rc = convert(run, &apps[a], job_info, ninfo, &converted[a]);
        if (PMIX_SUCCESS != rc) {
            job_free_apps(converted, napps);
            cbfunc(rc, NULL, cbdata);
            return;
        }
    }
    launcher_job_t *job = job_create(run, converted, (unsigned)napps, requestor);
    if (NULL == job) {
        cbfunc(PMIX_ERR_NOMEM, NULL, cbdata);
        return;
    }
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&job_info[i], PMIX_NOTIFY_COMPLETION)) {
            job->notify_completion = PMIX_INFO_TRUE(&job_info[i]);
        }
    }
    rc = debug_take(job, job_info, ninfo);
    if (PMIX_SUCCESS == rc) {
        rc = job_start(job);
    } else {
        job->state = PMIX_JOB_STATE_TERMINATED_WITH_ERROR;
    }
    cbfunc(rc, PMIX_SUCCESS == rc ? job->nspace : NULL, cbdata);
}
