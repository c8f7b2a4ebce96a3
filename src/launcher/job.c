/*
 * job.c - jobs and their processes: start, reap, end, events.
 *
 * Design notes:
 *  - A job is one namespace: the command line's (index 0) or one made by
 *    PMIx_Spawn. Its namespace is "drover-<pid>-<index>", so every
 *    namespace of a run shares the session's shared-memory prefix.
 *  - Starting a job: place it (mapping.c); ask the server's thread to
 *    register it (jobinfo.c) and its clients, without waiting; per
 *    process its PROCDIR and environment (the app's plus
 *    PMIx_server_setup_fork's, made in this thread); ask for every
 *    process's PMI connection, in turn behind the registration; per
 *    process its pipes; only then wait for the server's answers, and
 *    fork and exec every process, from two threads at once
 *    (launch_threads.c). The server's thread registers while this one
 *    readies (on 2 cores, 0.3 ms of an 8-rank launch).
 *  - Every process is made ready before the first is forked, and the
 *    server learns the pids once all are: a trip to the server's thread
 *    once ranks run waits for a CPU behind them (0.5 ms per rank on 2
 *    cores, 0.05 ms before any runs), and each wake-up of that thread
 *    takes CPU from the ranks and the launches. (A rank's PMIx_Init that
 *    arrives before its pid is known waits.)
 *  - The run's exit status is fixed once, by the first failure: a process
 *    exiting non-zero or killed by a signal (128+signal, with a one-line
 *    message naming rank, pid and signal), PMIx_Abort, --timeout or a
 *    signal to drover. Every failure ends every job: SIGTERM to the whole
 *    process group, SIGKILL after the grace period. A process ended on a
 *    client's request (PMIx_Job_control, PMIx_Abort's targets) is not a
 *    failure.
 *  - A reaped process is deregistered from the server at once, so a
 *    collective waiting for it fails instead of hanging. The run waits
 *    for those deregistrations before it says its status (run.c): what
 *    the server raises for a process gone (a group's member failed) must
 *    still reach the host.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/event.h>

#include "drover.h"
#include "launcher.h"
#include "pmix.h"
#include "pmix_server.h"

void job_free_apps(launcher_app_t *apps, size_t napps)
{
    for (size_t a = 0; NULL != apps && a < napps; a++) {
        launch_free_env(apps[a].argv);
        launch_free_env(apps[a].env);
        free(apps[a].wdir);
        free(apps[a].program);
    }
    free(apps);
}

launcher_job_t *job_create(launcher_t *run, launcher_app_t *apps, unsigned napps,
                           const pmix_proc_t *parent)
{
    launcher_job_t *job = calloc(1, sizeof(*job));
    launcher_job_t **grown = realloc(run->jobs, (run->njobs + 1) * sizeof(*grown));
    if (NULL != grown) {
        run->jobs = grown;
    }
    unsigned nprocs = 0;
    for (unsigned a = 0; a < napps; a++) {
        apps[a].first_rank = nprocs;
        nprocs += apps[a].nprocs;
    }
    if (NULL == job || NULL == grown ||
        NULL == (job->procs = calloc(nprocs, sizeof(*job->procs)))) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        free(job);
        job_free_apps(apps, napps);
        return NULL;
    }
    job->run = run;
    job->index = run->njobs;
    snprintf(job->nspace, sizeof(job->nspace), "%s%u", run->session.shm_prefix, job->index);
    job->apps = apps;
    job->napps = napps;
    job->nprocs = nprocs;
    job->state = PMIX_JOB_STATE_UNDEF;
    if (NULL != parent) {
        job->spawned = true;
        job->parent = *parent;
    }
    for (unsigned a = 0; a < napps; a++) {
        for (unsigned r = 0; r < apps[a].nprocs; r++) {
            job->procs[apps[a].first_rank + r].app = a;
        }
    }
    run->jobs[run->njobs++] = job;
    return job;
}

launcher_job_t *job_find(launcher_t *run, const char *nspace)
{
    for (unsigned j = 0; j < run->njobs; j++) {
        if (PMIX_CHECK_NSPACE(run->jobs[j]->nspace, nspace)) {
            return run->jobs[j];
        }
    }
    return NULL;
}

launcher_proc_t *job_find_proc(launcher_t *run, const pmix_proc_t *proc, launcher_job_t **jobp)
{
    launcher_job_t *job = job_find(run, proc->nspace);
    if (NULL != jobp) {
        *jobp = job;
    }
    if (NULL == job || proc->rank >= job->nprocs) {
        return NULL;
    }
    return &job->procs[proc->rank];
}

static void proc_name(const launcher_job_t *job, unsigned rank, pmix_proc_t *proc)
{
    PMIX_LOAD_PROCID(proc, job->nspace, rank);
}

/* How messages name a job: "the job" (the first), or its namespace. */
static const char *job_named(const launcher_job_t *job)
{
    return 0 == job->index ? "the job" : job->nspace;
}

/* How messages name a process: "rank 3" in the first job, "rank 3 of
 * <nspace>" in a spawned one. */
static const char *describe(const launcher_job_t *job, unsigned rank, char *buf, size_t size)
{
    if (0 == job->index) {
        snprintf(buf, size, "rank %u", rank);
    } else {
        snprintf(buf, size, "rank %u of %s", rank, job->nspace);
    }
    return buf;
}

static void deregistered(pmix_status_t status, void *cbdata)
{
}

/* ---- starting -------------------------------------------------------- */

/* What process r needs from the server before its fork: made for every
 * process of a job before the first starts (see the notes). */
typedef struct ready {
    char *procdir;
    char **env;
    int pmi_fd; /* drover's end of its PMI connection, or -1 */
} ready_t;

static void ready_release(ready_t *ready)
{
    if (ready->pmi_fd >= 0) {
        close(ready->pmi_fd);
    }
    free(ready->procdir);
    launch_free_env(ready->env);
    *ready = (ready_t){.pmi_fd = -1};
}

static void free_app_envs(char ***envs, unsigned napps)
{
    for (unsigned a = 0; NULL != envs && a < napps; a++) {
        launch_free_env(envs[a]);
    }
    free(envs);
}

/* What every process of each app gets before the server's variables:
 * made once per app, copied for each process. NULL: no memory. */
static char ***app_envs(const launcher_job_t *job)
{
    const launcher_t *run = job->run;
    char ***envs = calloc(job->napps, sizeof(*envs));
    for (unsigned a = 0; NULL != envs && a < job->napps; a++) {
        envs[a] = session_label_env(&run->session, openmpi_env(launch_copy_env(job->apps[a].env),
                                                                 &job->map, run->openmpi_shm));
        if (NULL == envs[a]) {
            free_app_envs(envs, a);
            return NULL;
        }
    }
    return envs;
}

static pmix_status_t make_ready(launcher_job_t *job, unsigned r, char *const *app_env,
                                ready_t *ready)
{
    char who[PMIX_MAX_NSLEN + 32];
    if (asprintf(&ready->procdir, "%s/%u", job->nsdir, r) < 0) {
        ready->procdir = NULL;
    }
    ready->env = launch_copy_env(app_env);
    if (NULL == ready->procdir || NULL == ready->env) {
        return PMIX_ERR_NOMEM;
    }
    pmix_proc_t proc;
    proc_name(job, r, &proc);
    pmix_status_t rc = PMIx_server_setup_fork(&proc, &ready->env);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, LAUNCHER_NAME ": cannot prepare %s: %s\n",
                describe(job, r, who, sizeof(who)), PMIx_Error_string(rc));
    }
    return rc;
}

/* What the server's thread is asked to do before a job's processes
 * start, without waiting (see the notes): the job's registration and its
 * clients', then, in turn behind them, its processes' PMI connections
 * (PMI-1 beside PMIx, for MPICH and its kin). The arrays are the
 * library's until their op has been waited for. */
struct job_asked {
    pmix_status_t prepared;    /* placement and directory */
    host_op_t *registration;
    unsigned registration_calls;
    pmix_info_t *info;
    size_t ninfo;
    host_op_t *pmi;
    pmix_proc_t *procs;
    char ***envs;
    int *fds;
    pmix_status_t refused;     /* the registration's first failure */
    pmix_status_t pmi_failed;  /* the PMI connections' */
};
typedef struct job_asked asked_t;

static pmix_status_t ask_registration(launcher_job_t *job, asked_t *a)
{
    pmix_status_t rc = jobinfo_describe(job, &a->info, &a->ninfo);
    if (PMIX_SUCCESS == rc && NULL == (a->registration = host_op_begin())) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_server_register_nspace(job->nspace, (int)job->nprocs, a->info, a->ninfo,
                                         host_op_cbfunc, a->registration);
    }
    if (PMIX_SUCCESS != rc) {
        a->refused = rc;
        return rc;
    }
    a->registration_calls++;
    job->registered = true;
    for (unsigned r = 0; r < job->nprocs && PMIX_SUCCESS == rc; r++) {
        pmix_proc_t proc;
        proc_name(job, r, &proc);
        rc = PMIx_server_register_client(&proc, getuid(), getgid(), &job->procs[r],
                                         host_op_cbfunc, a->registration);
        if (PMIX_SUCCESS == rc) {
            a->registration_calls++;
            job->procs[r].registered = true;
        }
    }
    a->refused = rc;
    return rc;
}

static pmix_status_t ask_pmi(launcher_job_t *job, ready_t *ready, asked_t *a)
{
    unsigned n = job->nprocs;
    a->procs = calloc(n, sizeof(*a->procs));
    a->envs = calloc(n, sizeof(*a->envs));
    a->fds = calloc(n, sizeof(*a->fds));
    if (NULL == a->procs || NULL == a->envs || NULL == a->fds ||
        NULL == (a->pmi = host_op_begin())) {
        /* Nothing asked: the environments stay the processes'. */
        free(a->procs);
        free(a->envs);
        free(a->fds);
        a->procs = NULL;
        a->envs = NULL;
        a->fds = NULL;
        return a->pmi_failed = PMIX_ERR_NOMEM;
    }
    for (unsigned r = 0; r < n; r++) {
        proc_name(job, r, &a->procs[r]);
        a->envs[r] = ready[r].env;
        a->fds[r] = -1;
    }
    pmix_status_t rc = drover_server_setup_pmi_procs_nb(a->procs, n, a->envs, a->fds,
                                                        host_op_cbfunc, a->pmi);
    if (PMIX_SUCCESS != rc) {
        /* Nothing asked; the environments did not move, every fds[r] is -1. */
        host_op_wait(a->pmi, 0);
        a->pmi = NULL;
        a->pmi_failed = rc;
    }
    return rc;
}

/* The server's answers, its first failure said; rc is the launch's so
 * far. What the server was given and did not answer in time stays
 * allocated (it may still use it); the processes' environments and PMI
 * ends are then no longer theirs. */
static pmix_status_t answered(launcher_job_t *job, asked_t *a, ready_t *ready, pmix_status_t rc)
{
    const char *what = job_named(job);
    pmix_status_t waited = PMIX_SUCCESS;
    if (NULL != a->registration) {
        waited = host_op_wait(a->registration, a->registration_calls);
        a->refused = PMIX_SUCCESS == a->refused ? waited : a->refused;
    }
    if (PMIX_ERR_TIMEOUT != waited) {
        PMIX_INFO_FREE(a->info, a->ninfo);
    }
    if (PMIX_SUCCESS != a->refused) {
        fprintf(stderr, LAUNCHER_NAME ": the PMIx server refused %s: %s\n", what,
                PMIx_Error_string(a->refused));
    }
    if (NULL != a->pmi && PMIX_ERR_TIMEOUT == (a->pmi_failed = host_op_wait(a->pmi, 1))) {
        for (unsigned r = 0; r < job->nprocs; r++) {
            ready[r].env = NULL;
        }
        return PMIX_ERR_TIMEOUT;
    }
    /* The environments may have moved, even on failure. */
    for (unsigned r = 0; NULL != a->envs && r < job->nprocs; r++) {
        ready[r].env = a->envs[r];
        ready[r].pmi_fd = a->fds[r];
    }
    if (PMIX_SUCCESS != a->pmi_failed && PMIX_SUCCESS == a->refused) {
        fprintf(stderr, LAUNCHER_NAME ": cannot prepare the PMI connections of %s: %s\n", what,
                PMIx_Error_string(a->pmi_failed));
    }
    free(a->procs);
    free(a->envs);
    free(a->fds);
    rc = PMIX_SUCCESS == rc ? a->refused : rc;
    return PMIX_SUCCESS == rc ? a->pmi_failed : rc;
}

/* What process r's child needs, its pipes made: into *child (its
 * environment, directory and PMI connection once the server answered). */
static pmix_status_t child_of(launcher_job_t *job, unsigned r, const sigset_t *handled,
                              launch_child_t *child)
{
    launcher_t *run = job->run;
    launcher_proc_t *p = &job->procs[r];
    launcher_app_t *app = &job->apps[p->app];
    char who[PMIX_MAX_NSLEN + 32];
    *child = (launch_child_t){
        .path = app->program,
        .argv = app->argv,
        .wdir = app->wdir,
        .pgid = run->session.pgid,
        .cgroup_dir = run->session.cgroup.dir_fd,
        .cgroup_procs = run->session.cgroup.procs_fd,
        .trace_exec = debug_stops_at_exec(job, r),
        .handled = handled,
    };
    bool with_stdin = 0 == job->index && 0 == r;
    int err = iof_prepare(run->iof, job->index, r, with_stdin, child->fds, &p->stream);
    if (0 != err) {
        fprintf(stderr, LAUNCHER_NAME ": cannot make pipes for %s: %s\n",
                describe(job, r, who, sizeof(who)), strerror(err));
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    child->affinity = mapping_affinity(&job->map, &run->topo, r, &child->affinity_size);
    return PMIX_SUCCESS;
}

/* Process r's start went as *result says: its pipes are handed over
 * (or closed), and it counts as alive. */
static pmix_status_t launched(launcher_job_t *job, unsigned r, launch_child_t *child,
                              const launch_result_t *result)
{
    launcher_t *run = job->run;
    launcher_proc_t *p = &job->procs[r];
    char who[PMIX_MAX_NSLEN + 32];
    pid_t pid = result->pid;
    if (NULL != run->trace && pid > 0) {
        trace_launched(run->trace, job, r, result->began, pid);
    }
    iof_launched(run->iof, p->stream, pid > 0);
    if (NULL != child->affinity) {
        CPU_FREE(child->affinity);
        child->affinity = NULL;
    }
    if (pid < 0) {
        fprintf(stderr, LAUNCHER_NAME ": cannot fork %s: %s\n",
                describe(job, r, who, sizeof(who)), strerror(result->err));
    }
    if (pid <= 0) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    p->pid = pid;
    p->alive = true;
    p->traced = child->trace_exec;
    job->nalive++;
    run->nalive++;
    run->nlaunched++;
    return PMIX_SUCCESS;
}

/* The server then takes each started process's PMIx_Init from its pid
 * only: told in one trip for them all. */
static pmix_status_t tell_pids(launcher_job_t *job)
{
    pmix_proc_t *procs = calloc(job->nprocs, sizeof(*procs));
    pid_t *pids = calloc(job->nprocs, sizeof(*pids));
    size_t n = 0;
    pmix_status_t rc = NULL == procs || NULL == pids ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    for (unsigned r = 0; PMIX_SUCCESS == rc && r < job->nprocs; r++) {
        if (job->procs[r].pid > 0) {
            proc_name(job, r, &procs[n]);
            pids[n++] = job->procs[r].pid;
        }
    }
    if (PMIX_SUCCESS == rc && n > 0) {
        rc = drover_server_client_pids(procs, pids, n);
    }
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, LAUNCHER_NAME ": cannot tell the PMIx server the pids of %s: %s\n",
                job_named(job), PMIx_Error_string(rc));
    }
    free(procs);
    free(pids);
    return rc;
}

pmix_status_t job_register(launcher_job_t *job)
{
    launcher_t *run = job->run;
    asked_t *a = job->asked = calloc(1, sizeof(*a));
    if (NULL == a) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        return PMIX_ERR_NOMEM;
    }
    if (NULL == job->map.cpusets) {
        a->prepared = limits_fit(job->nprocs, run->nalive);
        if (PMIX_SUCCESS == a->prepared) {
            a->prepared = mapping_place(&job->map, &run->topo, run->opts, job->nprocs,
                                        run->nalive, job_named(job));
        }
        if (PMIX_SUCCESS != a->prepared) {
            return a->prepared;
        }
    }
    job->node_rank_base = run->nlaunched;
    job->nsdir = session_mkdir(run->session.dir, job->nspace);
    if (NULL == job->nsdir) {
        fprintf(stderr, LAUNCHER_NAME ": cannot create the directory of %s\n", job->nspace);
        return a->prepared = PMIX_ERR_OUT_OF_RESOURCE;
    }
    return ask_registration(job, a);
}

/* The server's answers to what job_register asked, if it was not
 * launched after all: waited for, and forgotten. */
static void forget_asked(launcher_job_t *job)
{
    if (NULL != job->asked) {
        (void)answered(job, job->asked, NULL, PMIX_SUCCESS);
        free(job->asked);
        job->asked = NULL;
    }
}

/* Every process of job made ready while the server's thread registers
 * them, then every one forked (two at a time, launch_threads.c). */
static pmix_status_t launch_all(launcher_job_t *job)
{
    pmix_status_t rc = NULL == job->asked ? job_register(job) : PMIX_SUCCESS;
    asked_t *asked = job->asked;
    if (NULL != asked && PMIX_SUCCESS == rc) {
        rc = PMIX_SUCCESS != asked->prepared ? asked->prepared : asked->refused;
    }
    ready_t *ready = calloc(job->nprocs, sizeof(*ready));
    launch_child_t *children = calloc(job->nprocs, sizeof(*children));
    launch_result_t *results = calloc(job->nprocs, sizeof(*results));
    for (unsigned r = 0; NULL != ready && r < job->nprocs; r++) {
        ready[r].pmi_fd = -1;
    }
    char ***envs = NULL;
    if (PMIX_SUCCESS == rc && (NULL == ready || NULL == children || NULL == results ||
                               NULL == (envs = app_envs(job)))) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        rc = PMIX_ERR_NOMEM;
    }
    for (unsigned r = 0; r < job->nprocs && PMIX_SUCCESS == rc; r++) {
        rc = make_ready(job, r, envs[job->procs[r].app], &ready[r]);
    }
    free_app_envs(envs, job->napps);
    if (PMIX_SUCCESS == rc) {
        rc = ask_pmi(job, ready, asked);
    }
    sigset_t handled;
    launch_handled_signals(&handled);
    unsigned prepared = 0;
    while (PMIX_SUCCESS == rc && prepared < job->nprocs &&
           PMIX_SUCCESS == (rc = child_of(job, prepared, &handled, &children[prepared]))) {
        prepared++;
    }
    if (PMIX_SUCCESS == rc && prepared >= 2) {
        launch_threads_expect();
    }
    if (NULL != asked) {
        rc = answered(job, asked, ready, rc);
        free(asked);
        job->asked = NULL;
    }
    /* After a failure none is forked; those prepared have their pipes
     * closed (launched, as a start that failed). */
    for (unsigned r = 0; PMIX_SUCCESS == rc && r < prepared; r++) {
        children[r].env = ready[r].env;
        children[r].procdir = ready[r].procdir;
        children[r].inherit_fd = ready[r].pmi_fd;
    }
    launch_fork_all(children, PMIX_SUCCESS == rc ? prepared : 0, results);
    for (unsigned r = 0; r < job->nprocs; r++) {
        pmix_status_t started = r < prepared ? launched(job, r, &children[r], &results[r])
                                             : PMIX_SUCCESS;
        rc = PMIX_SUCCESS == rc ? started : rc;
        if (NULL != ready) {
            ready_release(&ready[r]);
        }
    }
    if (job->nalive > 0 && PMIX_SUCCESS != tell_pids(job) && PMIX_SUCCESS == rc) {
        rc = PMIX_ERROR;
    }
    free(ready);
    free(children);
    free(results);
    return rc;
}

pmix_status_t job_start(launcher_job_t *job)
{
    launcher_t *run = job->run;
    if (NULL != run->trace) {
        trace_job(run->trace, job);
    }
    job->state = PMIX_JOB_STATE_LAUNCH_UNDERWAY;
    pmix_status_t rc = launch_all(job);
    if (PMIX_SUCCESS != rc) {
        job->state = job->nalive > 0 ? PMIX_JOB_STATE_RUNNING
                                     : PMIX_JOB_STATE_TERMINATED_WITH_ERROR;
        if (job->nalive > 0) {
            job_fail(run, LAUNCHER_EXIT_FAILURE, NULL);
        }
        return rc;
    }
    job->state = PMIX_JOB_STATE_RUNNING;
    return PMIX_SUCCESS;
}

/* ---- ending ---------------------------------------------------------- */

static void arm_grace(launcher_t *run)
{
    double g = run->opts->grace;
    struct timeval tv = {(time_t)g, (suseconds_t)((g - (double)(time_t)g) * 1e6)};
    if (NULL != run->grace_timer && !evtimer_pending(run->grace_timer, NULL)) {
        evtimer_add(run->grace_timer, &tv);
    }
}

void job_end_all(launcher_t *run, int sig)
{
    if (run->ending) {
        return;
    }
    run->ending = true;
    for (unsigned j = 0; j < run->njobs; j++) {
        launcher_job_t *job = run->jobs[j];
        for (unsigned r = 0; r < job->nprocs; r++) {
            if (job->procs[r].alive) {
                job->procs[r].terminating = true;
                /* A process that left the group still gets the signal;
                 * one held for a debugger must run to take it. */
                kill(job->procs[r].pid, sig);
                if (job->procs[r].held) {
                    kill(job->procs[r].pid, SIGCONT);
                }
            }
        }
    }
    session_signal_all(&run->session, sig, false);
    arm_grace(run);
}

void job_fail(launcher_t *run, int status, const char *fmt, ...)
{
    if (NULL != fmt) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
    if (!run->status_fixed) {
        run->status_fixed = true;
        run->status = status;
    }
    job_end_all(run, SIGTERM);
}

void job_signal_proc(launcher_t *run, launcher_proc_t *p, int sig)
{
    if (p->alive) {
        if (SIGCONT != sig && SIGSTOP != sig) {
            p->requested_end = true;
        }
        kill(p->pid, sig);
    }
}

void job_terminate_proc(launcher_t *run, launcher_proc_t *p)
{
    if (p->alive) {
        job_signal_proc(run, p, SIGTERM);
        p->terminating = true;
        arm_grace(run);
    }
}

void job_grace_expired(launcher_t *run)
{
    for (unsigned j = 0; j < run->njobs; j++) {
        launcher_job_t *job = run->jobs[j];
        for (unsigned r = 0; r < job->nprocs; r++) {
            launcher_proc_t *p = &job->procs[r];
            if (p->alive && (p->terminating || run->ending)) {
                kill(p->pid, SIGKILL);
            }
        }
    }
    if (run->ending) {
        session_signal_all(&run->session, SIGKILL, false);
    }
}

/* ---- reaping --------------------------------------------------------- */

static void job_ended(launcher_t *run, launcher_job_t *job)
{
    job->state = 0 == job->exit_code ? PMIX_JOB_STATE_TERMINATED
                                     : PMIX_JOB_STATE_TERMINATED_WITH_ERROR;
    pmix_proc_t all;
    proc_name(job, PMIX_RANK_WILDCARD, &all);
    pubsub_forget(run->pubsub, &all);
    if (job->notify_completion) {
        host_notify(run, PMIX_EVENT_JOB_END, &all, job->exit_code);
    }
}

static void proc_ended(launcher_t *run, launcher_job_t *job, unsigned rank, int wstatus)
{
    launcher_proc_t *p = &job->procs[rank];
    pmix_proc_t proc;
    proc_name(job, rank, &proc);
    p->alive = false;
    job->nalive--;
    run->nalive--;
    iof_exited(run->iof, p->stream);
    if (p->registered) {
        /* Counted: the run waits for them before it stops (run.c). */
        if (NULL == run->reaped) {
            run->reaped = host_op_begin();
        }
        if (NULL != run->reaped) {
            run->nreaped++;
        }
        PMIx_server_deregister_client(&proc, NULL != run->reaped ? host_op_cbfunc : deregistered,
                                      run->reaped);
        p->registered = false;
    }
    pubsub_forget(run->pubsub, &proc);
    char who[PMIX_MAX_NSLEN + 32];
    describe(job, rank, who, sizeof(who));
    bool expected = run->ending || p->requested_end;
    if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        p->exit_code = 128 + sig;
        if (!expected) {
            host_notify(run, PMIX_ERR_PROC_ABORTED, &proc, p->exit_code);
            job_fail(run, p->exit_code, LAUNCHER_NAME ": %s (pid %d) was killed by signal %d (%s)",
                     who, (int)p->pid, sig, strsignal(sig));
        }
    } else {
        p->exit_code = WEXITSTATUS(wstatus);
        if (0 != p->exit_code && !expected) {
            host_notify(run, PMIX_ERR_PROC_ABORTED, &proc, p->exit_code);
            job_fail(run, p->exit_code, LAUNCHER_NAME ": %s (pid %d) exited with status %d", who,
                     (int)p->pid, p->exit_code);
        }
    }
    if (NULL != run->trace) {
        trace_exited(run->trace, job, rank, p->exit_code);
    }
    if (0 != p->exit_code && 0 == job->exit_code) {
        job->exit_code = p->exit_code;
    }
    if (0 == job->nalive && job->state >= PMIX_JOB_STATE_RUNNING) {
        job_ended(run, job);
    }
}

void job_reap(launcher_t *run)
{
    int wstatus;
    pid_t pid;
    while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0) {
        if (WIFSTOPPED(wstatus)) {
            debug_stopped(run, pid, WSTOPSIG(wstatus));
            continue;
        }
        if (!WIFEXITED(wstatus) && !WIFSIGNALED(wstatus)) {
            continue;
        }
        for (unsigned j = 0; j < run->njobs; j++) {
            launcher_job_t *job = run->jobs[j];
            for (unsigned r = 0; r < job->nprocs; r++) {
                if (job->procs[r].alive && job->procs[r].pid == pid) {
                    proc_ended(run, job, r, wstatus);
                    goto next;
                }
            }
        }
        /* The anchor, or an orphan drover adopted: nothing to report. */
        if (pid == run->session.pgid) {
            run->session.anchor_alive = false;
        }
    next:;
    }
    run_check_done(run);
}

/* ---- teardown -------------------------------------------------------- */

void job_destroy(launcher_job_t *job)
{
    if (NULL == job) {
        return;
    }
    launcher_t *run = job->run;
    forget_asked(job);
    if (run->server_up) {
        for (unsigned r = 0; r < job->nprocs; r++) {
            if (job->procs[r].registered) {
                pmix_proc_t proc;
                proc_name(job, r, &proc);
                PMIx_server_deregister_client(&proc, deregistered, NULL);
            }
        }
        if (job->registered) {
            host_op_t *op = host_op_begin();
            if (NULL != op) {
                PMIx_server_deregister_nspace(job->nspace, host_op_cbfunc, op);
                host_op_wait(op, 1);
            }
        }
    }
    job_free_apps(job->apps, job->napps);
    if (NULL != job->debug) {
        PMIX_INFO_FREE(job->debug, job->ndebug);
    }
    free(job->procs);
    mapping_release(&job->map);
    free(job->nsdir);
    free(job);
}
