/*
 * run.c - `drover run`: start N processes of a program under drover's own
 *         PMIx server and stay until every one has ended.
 *
 * Design notes:
 *  - The steps, in order: parse the command line; resolve the program,
 *    check the open-file limit and place the ranks (so that a missing
 *    program or too many ranks is one clear message before anything
 *    starts); create the session and its anchor (a fork, so before any
 *    thread); start the server library; launch the first job; run the
 *    loop; tear down in reverse.
 *  - The loop ends when no process of any job is left and their output has
 *    been written (output still held open by an orphan after the last
 *    process ended is waited for DRAIN_SECONDS at most).
 *  - SIGINT, SIGTERM and SIGHUP are forwarded to every process; SIGKILL
 *    follows after the grace period, or at once on a second signal. drover
 *    then cleans up and ends by the same signal, so its caller sees what
 *    happened. When its stdout or stderr loses its reader, the processes
 *    are ended (SIGTERM) and drover ends by SIGPIPE. --timeout ends the
 *    run with status 124.
 *  - Exit status: the first failure's (see job.c), else 0. A daemon's job
 *    tells the daemon once its loop has ended, before the teardown
 *    (daemon_client_exited).
 *  - A daemon's standby run (daemon_standby.c) takes its job's arguments,
 *    fds, directory and environment first thing, then runs as any other.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "command.h"
#include "daemon.h"
#include "drover.h"
#include "launcher.h"
#include "pmix.h"

#define DRAIN_SECONDS 1

double run_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct timeval seconds(double s)
{
    return (struct timeval){(time_t)s, (suseconds_t)((s - floor(s)) * 1e6)};
}

static void on_drained(evutil_socket_t fd, short what, void *arg)
{
    event_base_loopbreak(((launcher_t *)arg)->base);
}

void run_check_done(launcher_t *run)
{
    if (NULL == run->base || run->nalive > 0) {
        return;
    }
    if (0 == iof_open_streams(run->iof)) {
        event_base_loopbreak(run->base);
    } else if (NULL != run->drain_timer && !evtimer_pending(run->drain_timer, NULL)) {
        struct timeval tv = seconds(DRAIN_SECONDS);
        evtimer_add(run->drain_timer, &tv);
    }
}

static void on_stream_closed(void *arg)
{
    run_check_done(arg);
}

/* drover's stdout or stderr lost its reader (`drover run ... | head -1`):
 * as the writer of a shell pipeline would, drover ends, by SIGPIPE, and
 * the job with it. Quietly: a pipeline's writer dies without a word. */
static void on_output_broken(void *arg)
{
    launcher_t *run = arg;
    if (0 != run->interrupted_by) {
        return;
    }
    run->interrupted_by = SIGPIPE;
    if (!run->status_fixed) {
        run->status_fixed = true;
        run->status = 128 + SIGPIPE;
    }
    job_end_all(run, SIGTERM);
}

static void on_sigchld(evutil_socket_t sig, short what, void *arg)
{
    job_reap(arg);
}

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
    launcher_t *run = arg;
    if (0 != run->interrupted_by) {
        /* Asked twice: no more grace. */
        job_grace_expired(run);
        return;
    }
    run->interrupted_by = (int)sig;
    if (!run->status_fixed) {
        run->status_fixed = true;
        run->status = 128 + (int)sig;
    }
    fprintf(stderr, LAUNCHER_NAME ": got %s; passing it on to the processes\n",
            strsignal((int)sig));
    job_end_all(run, (int)sig);
}

static void on_grace(evutil_socket_t fd, short what, void *arg)
{
    job_grace_expired(arg);
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
    launcher_t *run = arg;
    job_fail(run, LAUNCHER_EXIT_TIMEOUT, LAUNCHER_NAME ": timed out after %g s; ending the job",
             run->opts->timeout);
}

/* fds 0-2 must exist, or the pipes made for the ranks could land there. */
static void ensure_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) < 0 && EBADF == errno) {
            int null = open("/dev/null", O_RDWR);
            if (null >= 0 && null != fd) {
                dup2(null, fd);
                close(null);
            }
        }
    }
}

/* Does a -x of the command line set the variable name (len bytes)? */
static bool exported(const launcher_options_t *opts, const char *name, size_t len)
{
    for (size_t i = 0; i < opts->nexports; i++) {
        if (0 == strncmp(opts->exports[i], name, len) &&
            ('=' == opts->exports[i][len] || '\0' == opts->exports[i][len])) {
            return true;
        }
    }
    return false;
}

/* One app of the first job: nprocs of argv in wdir, with a job file's
 * variables (file_env, NULL: none) under the command line's -x. Returns 0
 * or an exit status after a message. */
static int make_app(launcher_t *run, launcher_app_t *app, char *const *argv, unsigned nprocs,
                    const char *wdir, char *const *file_env)
{
    struct stat st;
    int bad = NULL == wdir ? 0 : 0 != stat(wdir, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
    if (0 != bad) {
        fprintf(stderr, LAUNCHER_NAME ": --wdir %s: %s\n", wdir,
                ENOENT == bad ? "no such directory" : "not a directory");
        return LAUNCHER_EXIT_FAILURE;
    }
    app->nprocs = nprocs;
    app->argv = launch_copy_env(argv);
    app->env = launch_copy_env(run->base_env);
    if (NULL == app->argv || NULL == app->env ||
        (NULL != wdir && NULL == (app->wdir = strdup(wdir)))) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        return LAUNCHER_EXIT_FAILURE;
    }
    for (char *const *e = file_env; NULL != e && NULL != *e; e++) {
        size_t len = strcspn(*e, "=");
        char *name = strndup(*e, len);
        char **grown = NULL == name || exported(run->opts, *e, len)
                           ? app->env
                           : launch_setenv(app->env, name, *e + len + 1);
        free(name);
        if (NULL == grown) {
            fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
            return LAUNCHER_EXIT_FAILURE;
        }
        app->env = grown;
    }
    const char *why;
    int rc = launch_resolve(argv[0], app->env, wdir, &app->program, &why);
    if (0 != rc) {
        fprintf(stderr, LAUNCHER_NAME ": cannot run '%s': %s\n", argv[0], why);
    }
    return rc;
}

/* The first job's apps: the job file's (MPMD: ranks of app 0, then of
 * app 1, ...), or the command line's one. Returns 0 with *apps (napps of
 * them), or an exit status after a message. */
static int first_apps(launcher_t *run, launcher_app_t **apps, unsigned *napps)
{
    const launcher_options_t *opts = run->opts;
    const jobfile_t *jf = opts->jobfile;
    *napps = NULL != jf ? jf->napps : 1;
    *apps = calloc(*napps, sizeof(**apps));
    if (NULL == *apps) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        return LAUNCHER_EXIT_FAILURE;
    }
    int status = 0;
    for (unsigned a = 0; a < *napps && 0 == status; a++) {
        if (NULL == jf) {
            status = make_app(run, &(*apps)[a], opts->argv, opts->nranks, opts->wdir, NULL);
        } else {
            const jobfile_app_t *ja = &jf->apps[a];
            status = make_app(run, &(*apps)[a], ja->argv, ja->count,
                              NULL != opts->wdir ? opts->wdir : ja->wdir, ja->env);
        }
    }
    return status;
}

/* Watch sig. A forwarded signal drover was started ignoring (nohup, a
 * background job of a script) stays ignored, for drover and its ranks. */
static int add_signal(launcher_t *run, struct event **ev, int sig, event_callback_fn fn)
{
    struct sigaction old;
    if (SIGCHLD != sig && 0 == sigaction(sig, NULL, &old) && SIG_IGN == old.sa_handler) {
        return 0;
    }
    *ev = evsignal_new(run->base, sig, fn, run);
    return NULL == *ev || 0 != evsignal_add(*ev, NULL) ? -1 : 0;
}

/* The run's event loop, with its timers and SIGCHLD: what does not depend
 * on the job. */
static int loop_create(launcher_t *run)
{
    run->base = event_base_new();
    if (NULL == run->base || NULL == (run->grace_timer = evtimer_new(run->base, on_grace, run)) ||
        NULL == (run->drain_timer = evtimer_new(run->base, on_drained, run)) ||
        0 != add_signal(run, &run->signals[0], SIGCHLD, on_sigchld)) {
        fprintf(stderr, LAUNCHER_NAME ": cannot set up the event loop\n");
        return LAUNCHER_EXIT_FAILURE;
    }
    return 0;
}

/* The server, in the session's directory: started, or the standby's (see
 * run_prestart) if that is where it runs. */
static int server_start(launcher_t *run)
{
    if (run->server_up && 0 == strcmp(run->server_dir, run->session.dir)) {
        return 0;
    }
    if (run->server_up) {
        /* A standby's session replaced while it waited (session_create). */
        host_stop(run);
    }
    free(run->server_dir);
    host_setup_t setup = {.tmpdir = run->session.dir,
                          .daemon_job = daemon_client_job() > 0,
                          .traced = NULL != run->trace,
                          .pmi_procs = run->opts->nranks};
    if (NULL == (run->server_dir = strdup(run->session.dir))) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        return LAUNCHER_EXIT_FAILURE;
    }
    if (PMIX_SUCCESS != host_start(run, &setup)) {
        return LAUNCHER_EXIT_FAILURE;
    }
    return 0;
}

static int execute(launcher_t *run)
{
    static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};
    struct event *timeout = NULL;
    launcher_app_t *apps = NULL;
    unsigned napps = 0;
    if (NULL == (run->base_env = launch_base_env(run->opts))) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        return LAUNCHER_EXIT_FAILURE;
    }
    int status = first_apps(run, &apps, &napps);
    if (0 == status && PMIX_SUCCESS != limits_fit(run->opts->nranks, 0)) {
        status = LAUNCHER_EXIT_FAILURE;
    }
    /* Before the server's thread exists (host_start), unless a standby's
     * started it, having reserved for most jobs. */
    limits_reserve(run->opts->nranks);
    if (0 != status) {
        job_free_apps(apps, napps);
        return status;
    }
    if (0 != (status = mapping_load(&run->topo, run->opts->use_hwthreads))) {
        return status;
    }
    /* A standby's server runs in the session it prepared. Should that have
     * gone while it waited, the server goes first: session_create then
     * forks a new session's anchor, which wants no other thread. */
    if (run->server_up && NULL == session_prepared_dir()) {
        host_stop(run);
    }
    /* The session prefix names the job, so the session comes first; the
     * job is placed before anything is started. */
    if (0 != (status = session_create(&run->session, run->opts->grace))) {
        return status;
    }
    launcher_job_t *first = job_create(run, apps, napps, NULL);
    if (NULL == first || PMIX_SUCCESS != debug_take_options(first, run->opts)) {
        return LAUNCHER_EXIT_FAILURE;
    }
    if (PMIX_SUCCESS != mapping_place(&first->map, &run->topo, run->opts, first->nprocs, 0,
                                      "the job")) {
        return LAUNCHER_EXIT_FAILURE;
    }
    if ((NULL == run->base && 0 != (status = loop_create(run))) ||
        0 != (status = server_start(run))) {
        goto out;
    }
    /* The server's thread registers the job while this one makes the rest
     * of the loop and what only the ranks need (job_start takes the
     * answer): what comes before the registration delays the launch. */
    (void)job_register(first);
    run->openmpi_shm = openmpi_shm_dir(&run->session);
    /* A daemon's job publishes through the daemon (daemon_client_job). */
    if (NULL == (run->iof = iof_create(run->base, run->opts->tag_output, on_stream_closed,
                                       on_output_broken, run)) ||
        NULL == (run->pubsub = pubsub_create(run->base))) {
        fprintf(stderr, LAUNCHER_NAME ": cannot set up the event loop\n");
        status = LAUNCHER_EXIT_FAILURE;
        goto out;
    }
    /* A submitted job's ranks' output goes to the daemon, by rank. */
    iof_send_frames(run->iof, daemon_output_frames());
    for (int i = 0; i < 3; i++) {
        if (0 != add_signal(run, &run->signals[i + 1], forwarded[i], on_signal)) {
            status = LAUNCHER_EXIT_FAILURE;
            goto out;
        }
    }
    daemon_client_watch(run, first);
    if (run->opts->timeout > 0) {
        struct timeval tv = seconds(run->opts->timeout);
        timeout = evtimer_new(run->base, on_timeout, run);
        if (NULL == timeout || 0 != evtimer_add(timeout, &tv)) {
            status = LAUNCHER_EXIT_FAILURE;
            goto out;
        }
    }
    if (PMIX_SUCCESS != job_start(first) && !run->status_fixed) {
        run->status_fixed = true;
        run->status = LAUNCHER_EXIT_FAILURE;
    }
    daemon_standby_show_job();
    daemon_client_report(first);
    /* A child may have ended before SIGCHLD was watched. */
    job_reap(run);
    if (run->nalive > 0 || iof_open_streams(run->iof) > 0) {
        event_base_dispatch(run->base);
    }
    status = run->status_fixed ? run->status : 0;

out:
    if (run->nalive > 0) {
        /* Only reached when the loop could not run: end what started. */
        job_end_all(run, SIGKILL);
    }
    /* What the server does as a process goes (a group's member failed,
     * for processes beyond the run: host.c) reaches the host before the
     * run says its status and stops the server. */
    if (NULL != run->reaped) {
        host_op_wait(run->reaped, run->nreaped);
        run->reaped = NULL;
    }
    host_flush(run);
    /* The status is known: a daemon's `run --daemon` need not wait for
     * the rest. */
    daemon_client_exited(run, status);
    daemon_client_unwatch();
    pubsub_destroy(run->pubsub);
    run->pubsub = NULL;
    for (unsigned j = 0; j < run->njobs; j++) {
        job_destroy(run->jobs[j]);
    }
    run->njobs = 0;
    host_stop(run);
    if (NULL != timeout) {
        event_free(timeout);
    }
    return status;
}

static void teardown(launcher_t *run)
{
    for (unsigned j = 0; j < run->njobs; j++) {
        job_destroy(run->jobs[j]);
    }
    free(run->jobs);
    iof_destroy(run->iof);
    pubsub_destroy(run->pubsub);
    if (NULL != run->grace_timer) {
        event_free(run->grace_timer);
    }
    if (NULL != run->drain_timer) {
        event_free(run->drain_timer);
    }
    for (int i = 0; i < 4; i++) {
        if (NULL != run->signals[i]) {
            event_free(run->signals[i]);
        }
    }
    if (NULL != run->base) {
        event_base_free(run->base);
    }
    session_destroy(&run->session);
    free(run->server_dir);
    free(run->openmpi_shm);
    mapping_unload(&run->topo);
    launch_free_env(run->base_env);
}

/* Read and check --types before anything starts; the ranks get the text
 * that was checked (with what it includes merged in). */
static int types_check(launcher_options_t *opts)
{
    size_t len = 0;
    opts->types_text = launch_read_text(opts->types, &len);
    if (NULL == opts->types_text) {
        fprintf(stderr, "drover: --types %s: cannot read it as text\n", opts->types);
        return -1;
    }
    char *errors = NULL;
    pmix_status_t rc = drover_types_load_string(opts->types, opts->types_text, len,
                                                DROVER_TYPES_CHECK_ONLY, &errors);
    if (NULL != errors) {
        fputs(errors, stderr);
        free(errors);
    }
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "drover: --types %s has errors: nothing started\n", opts->types);
        return -1;
    }
    /* Files it includes may not be where the ranks look: they get the
     * types as one canonical document instead. */
    if (NULL != strstr(opts->types_text, "include")) {
        char *flat = NULL;
        rc = drover_types_describe(opts->types, NULL, DROVER_TYPES_YAML, &flat, NULL);
        if (PMIX_SUCCESS != rc) {
            fprintf(stderr, "drover: --types %s: %s\n", opts->types, PMIx_Error_string(rc));
            return -1;
        }
        free(opts->types_text);
        opts->types_text = flat;
        len = (ssize_t)strlen(flat);
    }
    /* The server stores and forwards the ranks' values of these types. */
    rc = drover_types_load_string(opts->types, opts->types_text, len, DROVER_TYPES_RELAY, NULL);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "drover: --types %s: %s\n", opts->types, PMIx_Error_string(rc));
        return -1;
    }
    return 0;
}

/* The run of this process: a standby's started before its job came. */
static launcher_t the_run;
static bool prestarted;

static void run_init(launcher_t *run)
{
    *run = (launcher_t){.session = SESSION_NONE};
    if (0 != gethostname(run->hostname, sizeof(run->hostname) - 1)) {
        snprintf(run->hostname, sizeof(run->hostname), "localhost");
    }
}

int run_prestart(const char *session_dir)
{
    launcher_t *run = &the_run;
    run_init(run);
    /* The server's thread is about to exist: see limits_reserve. */
    limits_reserve(STANDBY_RESERVED_RANKS);
    host_setup_t setup = {.tmpdir = session_dir, .daemon_job = true, .traced = true,
                          .pmi_procs = STANDBY_RANKS_AHEAD};
    prestarted = 0 == mapping_load(&run->topo, false) && 0 == loop_create(run) &&
                 NULL != (run->server_dir = strdup(session_dir)) &&
                 PMIX_SUCCESS == host_start(run, &setup);
    if (!prestarted) {
        run_unprestart();
        return -1;
    }
    launch_threads_start();
    return 0;
}

void run_unprestart(void)
{
    host_stop(&the_run);
    teardown(&the_run);
    run_init(&the_run);
    prestarted = false;
}

static int run_job(int argc, char **argv)
{
    int standby = daemon_standby_take_job(&argc, &argv);
    if (standby >= 0) {
        return standby;
    }
    launcher_options_t opts;
    int parsed = options_parse(argc, argv, &opts);
    if (OPTIONS_RUN != parsed) {
        return OPTIONS_HELP == parsed ? 0 : LAUNCHER_EXIT_USAGE;
    }
    if (NULL != opts.job && 0 != jobfile_apply(&opts)) {
        options_release(&opts);
        return LAUNCHER_EXIT_FAILURE;
    }
    if (daemon_client_wanted(opts.daemon)) {
        options_release(&opts);
        return daemon_run(argc, argv);
    }
    daemon_output_take_env(daemon_client_job() > 0);
    ensure_std_fds();
    if (NULL != opts.types && 0 != types_check(&opts)) {
        options_release(&opts);
        return LAUNCHER_EXIT_FAILURE;
    }
    unsigned nodes = slurm_allocation_nodes();
    if (nodes > 1 && NULL != opts.jobfile) {
        fprintf(stderr, LAUNCHER_NAME ": %s%s runs on this node only, not across the "
                "Slurm allocation's %u nodes (DROVER_SLURM=0 runs it here)\n",
                NULL != opts.job ? opts.job : "", NULL != opts.job ? ": a job file" : "a job of "
                "several apps (':')", nodes);
        options_release(&opts);
        return LAUNCHER_EXIT_FAILURE;
    }
    if (nodes > 1) {
        int status = slurm_run(&opts, nodes);
        options_release(&opts);
        return status;
    }
    signal(SIGPIPE, SIG_IGN);
    launcher_t *run = &the_run;
    if (!prestarted) {
        run_init(run);
    }
    run->opts = &opts;
    run->started = run_now();
    trace_t *trace = NULL;
    if (NULL != opts.trace && NULL == (trace = trace_create(opts.trace))) {
        options_release(&opts);
        return LAUNCHER_EXIT_FAILURE;
    }
    /* A prestarted server's thread may look already. */
    __atomic_store_n(&run->trace, trace, __ATOMIC_RELEASE);
    /* From here the run ends what was prestarted (execute, teardown). */
    prestarted = false;
    int status = execute(run);
    /* Whatever the ending: the server has stopped, the record is whole. */
    if (NULL != run->trace && 0 != trace_write(run->trace) && 0 == status) {
        status = LAUNCHER_EXIT_FAILURE;
    }
    trace_destroy(run->trace);
    teardown(run);
    options_release(&opts);
    if (0 != run->interrupted_by) {
        /* End the way the signal would have ended drover (a daemon's job
         * blocks it for its teardown, daemon_client_exited). */
        sigset_t sig;
        sigemptyset(&sig);
        sigaddset(&sig, run->interrupted_by);
        signal(run->interrupted_by, SIG_DFL);
        sigprocmask(SIG_UNBLOCK, &sig, NULL);
        raise(run->interrupted_by);
    }
    return status;
}

static int run_command(int argc, char **argv)
{
    int status = run_job(argc, argv);
    /* A standby's job that ended before it ran (a usage error, a job
     * across Slurm nodes): its server is stopped before the process ends. */
    if (prestarted) {
        run_unprestart();
    }
    return status;
}

const drover_command_t command_run = {
    .name = "run",
    .usage = "-n N [options] program | job.yml",
    .summary = "run N processes of a program under drover's PMIx server",
    .run = run_command,
};
