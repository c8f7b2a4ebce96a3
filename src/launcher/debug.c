/*
 * debug.c - debugger directives: a job's processes stopped in PMIx_Init,
 *           at exec or where the application chooses, until a tool
 *           releases them.
 *
 * Design notes:
 *  - PMIX_DEBUG_STOP_IN_INIT, _ON_EXEC and _IN_APP come in a tool's spawn
 *    job info (a bool, a rank or processes, as the standard allows) or
 *    from --stop-in-init, --stop-on-exec and --stop-in-app (true, or an
 *    array of the ranks given as --stop-in-init=0,2). Each
 *    is checked and kept with the job, and registered as job information:
 *    the client library stops in PMIx_Init by itself, and an application
 *    reads its own stop-in-app directive.
 *  - Stop at exec: the child asks to be traced before execve, so the
 *    kernel stops it with SIGTRAP once the new program is loaded. The
 *    reaper then detaches with SIGSTOP (the process stays stopped, state
 *    'T', for a debugger to attach by pid) and announces
 *    PMIX_READY_FOR_DEBUG for it (breakpoint "exec"), which the server
 *    passes to every tool. Another signal reaching it before exec is
 *    handed on. The tracer is the thread that forked, the main thread,
 *    which is also the one that reaps.
 *  - PMIX_DEBUGGER_RELEASE from a tool continues the processes it names
 *    (PMIX_EVENT_CUSTOM_RANGE, PMIX_EVENT_AFFECTED_PROC(S); all held ones
 *    when it names none) that are held at exec; a debugger may as well
 *    send SIGCONT itself. Processes in PMIx_Init or the application get
 *    the event from the server.
 *  - In a daemon's job the debugger is the daemon's tool: every
 *    announcement goes to the daemon as well, and its releases come back
 *    as this server's would (daemon_client.c).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>

#include "directive.h"
#include "launcher.h"
#include "pmix.h"

static const char *const debug_keys[] = {PMIX_DEBUG_STOP_IN_INIT, PMIX_DEBUG_STOP_ON_EXEC,
                                         PMIX_DEBUG_STOP_IN_APP};
#define NKEYS (sizeof(debug_keys) / sizeof(debug_keys[0]))

static bool is_debug_key(const pmix_info_t *info)
{
    for (size_t k = 0; k < NKEYS; k++) {
        if (PMIX_CHECK_KEY(info, debug_keys[k])) {
            return true;
        }
    }
    return false;
}

pmix_status_t debug_check(const pmix_info_t *info, size_t ninfo)
{
    for (size_t i = 0; i < ninfo; i++) {
        bool named;
        if (is_debug_key(&info[i]) &&
            PMIX_SUCCESS != directive_names_proc(&info[i].value, &(pmix_proc_t){0}, &named)) {
            fprintf(stderr, LAUNCHER_NAME ": %s wants a bool, a rank or processes, not %s\n",
                    info[i].key, PMIx_Data_type_string(info[i].value.type));
            return PMIX_ERR_BAD_PARAM;
        }
    }
    return PMIX_SUCCESS;
}

pmix_status_t debug_take(launcher_job_t *job, const pmix_info_t *info, size_t ninfo)
{
    size_t n = 0;
    for (size_t i = 0; i < ninfo; i++) {
        n += is_debug_key(&info[i]);
    }
    if (0 == n) {
        return PMIX_SUCCESS;
    }
    PMIX_INFO_CREATE(job->debug, n);
    if (NULL == job->debug) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < ninfo; i++) {
        if (is_debug_key(&info[i]) &&
            PMIX_SUCCESS != PMIx_Info_xfer(&job->debug[job->ndebug++], &info[i])) {
            return PMIX_ERR_NOMEM;
        }
    }
    return PMIX_SUCCESS;
}

/* One --stop-* option's directive into *info: true for every rank, else
 * an array of the ranks listed (below the job's size). */
static pmix_status_t option_directive(const launcher_job_t *job, const char *key,
                                      const char *option, const char *ranks, pmix_info_t *info)
{
    if ('\0' == ranks[0]) {
        PMIX_INFO_LOAD(info, key, NULL, PMIX_BOOL);
        return PMIX_SUCCESS;
    }
    size_t n = options_rank_list(ranks, NULL, 0);
    unsigned *list = calloc(n, sizeof(*list));
    pmix_data_array_t *array;
    PMIX_DATA_ARRAY_CREATE(array, n, PMIX_PROC_RANK);
    if (NULL == list || NULL == array) {
        free(list);
        PMIX_DATA_ARRAY_FREE(array);
        return PMIX_ERR_NOMEM;
    }
    options_rank_list(ranks, list, n);
    for (size_t i = 0; i < n; i++) {
        if (list[i] >= job->nprocs) {
            fprintf(stderr, LAUNCHER_NAME ": %s=%s names rank %u, but the job has %u ranks\n",
                    option, ranks, list[i], job->nprocs);
            free(list);
            PMIX_DATA_ARRAY_FREE(array);
            return PMIX_ERR_BAD_PARAM;
        }
        ((pmix_rank_t *)array->array)[i] = list[i];
    }
    free(list);
    PMIX_INFO_CONSTRUCT(info);
    PMIX_LOAD_KEY(info->key, key);
    info->value.type = PMIX_DATA_ARRAY;
    info->value.data.darray = array;
    return PMIX_SUCCESS;
}

pmix_status_t debug_take_options(launcher_job_t *job, const launcher_options_t *opts)
{
    static const char *const options[NKEYS] = {"--stop-in-init", "--stop-on-exec",
                                               "--stop-in-app"};
    const char *wanted[NKEYS] = {opts->stop_in_init, opts->stop_on_exec, opts->stop_in_app};
    pmix_info_t info[NKEYS];
    size_t n = 0;
    pmix_status_t rc = PMIX_SUCCESS;
    for (size_t k = 0; k < NKEYS && PMIX_SUCCESS == rc; k++) {
        if (NULL != wanted[k] && PMIX_SUCCESS == (rc = option_directive(job, debug_keys[k], options[k],
                                                                        wanted[k], &info[n]))) {
            n++;
        }
    }
    if (PMIX_SUCCESS == rc) {
        rc = debug_take(job, info, n);
    }
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    return rc;
}

bool debug_stops_at_exec(const launcher_job_t *job, unsigned rank)
{
    pmix_proc_t proc;
    bool named = false;
    PMIX_LOAD_PROCID(&proc, job->nspace, rank);
    const pmix_value_t *v = directive_find(job->debug, job->ndebug, PMIX_DEBUG_STOP_ON_EXEC);
    return NULL != v && PMIX_SUCCESS == directive_names_proc(v, &proc, &named) && named;
}

static void announce(launcher_t *run, const launcher_job_t *job, unsigned rank)
{
    pmix_proc_t proc;
    pmix_info_t *info;
    PMIX_LOAD_PROCID(&proc, job->nspace, rank);
    PMIX_INFO_CREATE(info, 3);
    if (NULL == info) {
        return;
    }
    PMIX_INFO_LOAD(&info[0], PMIX_BREAKPOINT, "exec", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_EVENT_NON_DEFAULT, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[2], PMIX_EVENT_AFFECTED_PROC, &proc, PMIX_PROC);
    daemon_client_ready(&proc, info, 3);
    host_raise(run, PMIX_READY_FOR_DEBUG, &proc, PMIX_RANGE_RM, info, 3);
}

void debug_stopped(launcher_t *run, pid_t pid, int sig)
{
    for (unsigned j = 0; j < run->njobs; j++) {
        launcher_job_t *job = run->jobs[j];
        for (unsigned r = 0; r < job->nprocs; r++) {
            launcher_proc_t *p = &job->procs[r];
            if (!p->alive || p->pid != pid || !p->traced) {
                continue;
            }
            if (SIGTRAP != sig) {
                ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
                return;
            }
            p->traced = false;
            if (0 != ptrace(PTRACE_DETACH, pid, NULL, (void *)(long)SIGSTOP)) {
                kill(pid, SIGKILL); /* cannot hold it: it must not run */
                return;
            }
            p->held = true;
            announce(run, job, r);
            return;
        }
    }
}

/* Whether the release event's info names proc: every process list it
 * carries must. */
static bool release_names(const pmix_info_t *info, size_t ninfo, const pmix_proc_t *proc)
{
    for (size_t i = 0; i < ninfo; i++) {
        bool named;
        if ((PMIX_CHECK_KEY(&info[i], PMIX_EVENT_CUSTOM_RANGE) ||
             PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) ||
             PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROCS)) &&
            (PMIX_SUCCESS != directive_names_proc(&info[i].value, proc, &named) || !named)) {
            return false;
        }
    }
    return true;
}

void debug_release(launcher_t *run, const pmix_info_t *info, size_t ninfo)
{
    for (unsigned j = 0; j < run->njobs; j++) {
        launcher_job_t *job = run->jobs[j];
        for (unsigned r = 0; r < job->nprocs; r++) {
            pmix_proc_t proc;
            PMIX_LOAD_PROCID(&proc, job->nspace, r);
            if (job->procs[r].alive && job->procs[r].held && release_names(info, ninfo, &proc)) {
                job->procs[r].held = false;
                kill(job->procs[r].pid, SIGCONT);
            }
        }
    }
}
