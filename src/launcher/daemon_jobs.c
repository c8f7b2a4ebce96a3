/*
 * daemon_jobs.c - the daemon's jobs.
 *
 * Design notes:
 *  - A job is a `drover run` child of the daemon, started with the
 *    submitter's arguments, working directory and environment: the very
 *    code of a standalone run (PMIx server, mapping, session cleanup),
 *    and the job's exit status is that run's. DROVER_DAEMON_JOB in its
 *    environment stops it from going to the daemon again.
 *  - Each child gets a process group of its own (the daemon's terminal
 *    signals are not its) and PR_SET_PDEATHSIG: if the daemon dies, even
 *    by SIGKILL, its runs die, and their anchors clean up the ranks.
 *  - A job's start first offers it to the standby run (daemon_standby.c),
 *    a `drover run` started ahead that takes the very arguments,
 *    directory, environment and fds the exec would get, and keeps its
 *    pid; only without one fit for the job is a run forked and exec'd.
 *    A child reaped that is no job's is the standby's. A new standby is
 *    started when a job ends and none starts, never once stopping.
 *  - At most max_running jobs run at once; the others wait, in order, as
 *    "queued", so that a burst of submissions is not a burst of forks.
 *  - A submitted job writes into pipes the daemon reads, its ranks'
 *    output framed by rank (daemon_output.c): what comes is appended to
 *    jobs/<id>/stdout and stderr (made with O_EXCL | O_NOFOLLOW) and
 *    handed to the output callback (the PMIx server forwards it to the
 *    tools that asked). Its stdin is /dev/null. A `run --daemon` job
 *    runs on the fds its command handed over.
 *  - A job's directory (output, trace) outlives the daemon; of the ended
 *    jobs, the DAEMON_KEEP_OUTPUT that ended last keep theirs (the others
 *    are removed as jobs end, and when a daemon starts).
 *  - Job id's namespace is "<prefix>.<id>-0": its run takes "<prefix>.
 *    <id>-" (DAEMON_PREFIX_ENV) where a standalone run takes "drover-<pid>-"
 *    to name its session's jobs and shared-memory segments, so the ranks'
 *    own namespace is the one tools know the job by.
 *  - The run reports its ranks' pids on fd 3 (DAEMON_REPORT_ENV), one
 *    line "<rank> <pid> <program>" each, once they have started: the
 *    process table of PMIx_Query_info.
 *  - Its control socket (fd 4) carries what a debugger needs: the ranks
 *    ready for it, up to the tools (daemon_pmix_job_ready), and the
 *    tools' releases, down to the run (daemon_client.c); the tools' job
 *    control and queries the run answers (daemon_relay.c); the groups
 *    of its ranks, up to the tools (daemon_groups.c); and the run's
 *    exit status once its ranks have ended, before its teardown, which
 *    goes to the exited callback (for `run --daemon`). The job still
 *    ends when its run is reaped, and what the run said on the socket
 *    before it ended is read then (the reap may come first).
 *  - A submitted job's run is traced (`--trace jobs/<id>/trace.json`, by
 *    the state directory's absolute path), for `drover trace JOB`; a
 *    --trace of the submitter's own comes after it and wins.
 *  - Once a job has started, only what `ps` and the queries show is kept.
 *  - Jobs of an earlier daemon come back from its journal (daemon.c) as
 *    ended, or as lost when that daemon died while they ran.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon.h"
#include "launcher.h"

/* The fds a job's run reports its ranks on and talks with the daemon
 * about debuggers on. */
#define REPORT_FD 3
#define CONTROL_FD 4
#define REPORT_MAX 65536

typedef struct djob {
    daemon_jobs_t *jobs;
    unsigned id;
    daemon_job_state_t state;
    pid_t pid;
    unsigned ranks;
    time_t start, end;
    int status;
    bool signalled;       /* ended on request (kill, stop) */
    bool own_fds;         /* run --daemon: fds handed over */
    bool lost;            /* from the journal: its daemon died first */
    char *command;        /* the run's arguments, for ps */
    char nspace[DAEMON_NSPACE_MAX];
    daemon_output_t *output;  /* a submitted job's, until it ends */
    bool kept;                /* jobs/<id>/ is there */
    struct event *report_ev;
    int report_fd;            /* read end of the run's report; -1 closed */
    char *report;             /* what it said so far */
    size_t report_len;
    daemon_proc_t *procs;     /* as reported */
    unsigned nprocs;
    char *cwd;            /* until started */
    char **args;
    char **env;
    int fds[3];
    int report_w;         /* until started: the report pipe's write end */
    int frames_w;         /* until started: the frame pipe's write end */
    int control_r;        /* until started: the run's end of the control
                           * socket (its fd 4) */
    int control_w;        /* the daemon's end, until the job ends */
    struct event *control_ev;
} djob_t;

struct daemon_jobs {
    int dirfd;
    char *exe;
    char *prefix;
    struct event_base *base;
    unsigned max_running;
    daemon_job_ended_fn ended;
    daemon_job_ended_fn exited;
    daemon_job_output_fn output;
    void *arg;
    daemon_standby_t *standby;
    bool stopping;        /* no more standby runs */
    djob_t **jobs;
    unsigned njobs;
    unsigned nrunning;
};

daemon_jobs_t *daemon_jobs_create(struct event_base *base, int dirfd, const char *exe,
                                  const char *prefix, unsigned max_running,
                                  daemon_job_ended_fn ended, daemon_job_ended_fn exited,
                                  daemon_job_output_fn output, void *arg)
{
    daemon_jobs_t *jobs = calloc(1, sizeof(*jobs));
    if (NULL == jobs || NULL == (jobs->exe = strdup(exe)) ||
        NULL == (jobs->prefix = strdup(prefix)) ||
        NULL == (jobs->standby = daemon_standby_create(exe))) {
        if (NULL != jobs) {
            free(jobs->exe);
            free(jobs->prefix);
        }
        free(jobs);
        return NULL;
    }
    jobs->exited = exited;
    jobs->base = base;
    jobs->output = output;
    jobs->dirfd = dirfd;
    jobs->max_running = max_running;
    jobs->ended = ended;
    jobs->arg = arg;
    return jobs;
}

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

static void close_fds(djob_t *job)
{
    for (int i = 0; i < 3; i++) {
        close_fd(&job->fds[i]);
    }
    close_fd(&job->report_w);
    close_fd(&job->frames_w);
    close_fd(&job->control_r);
}

static void stop_event(struct event **ev)
{
    if (NULL != *ev) {
        event_free(*ev);
        *ev = NULL;
    }
}

/* The job's output pipes and files, and its report. */
static void close_streams(djob_t *job)
{
    daemon_output_close(job->output);
    job->output = NULL;
    stop_event(&job->report_ev);
    close_fd(&job->report_fd);
    stop_event(&job->control_ev);
    close_fd(&job->control_w);
    free(job->report);
    job->report = NULL;
}

/* What is only needed to start the job. */
static void drop_launch_data(djob_t *job)
{
    free(job->cwd);
    job->cwd = NULL;
    launch_free_env(job->args);
    job->args = NULL;
    launch_free_env(job->env);
    job->env = NULL;
    close_fds(job);
}

static void free_job(djob_t *job)
{
    drop_launch_data(job);
    close_streams(job);
    for (unsigned r = 0; r < job->nprocs; r++) {
        free(job->procs[r].program);
    }
    free(job->procs);
    free(job->command);
    free(job);
}

void daemon_jobs_destroy(daemon_jobs_t *jobs)
{
    if (NULL == jobs) {
        return;
    }
    for (unsigned j = 0; j < jobs->njobs; j++) {
        free_job(jobs->jobs[j]);
    }
    free(jobs->jobs);
    free(jobs->exe);
    free(jobs->prefix);
    daemon_standby_destroy(jobs->standby);
    free(jobs);
}

static djob_t *find(const daemon_jobs_t *jobs, unsigned id)
{
    /* Ids are 1, 2, ... in order. */
    return 0 < id && id <= jobs->njobs ? jobs->jobs[id - 1] : NULL;
}

/* The number of ranks the arguments ask for (0 if they do not parse: the
 * run then says why in the job's stderr), a job file's read from the
 * job's working directory cwd. */
static unsigned count_ranks(const char *cwd, char *const *args, size_t nargs)
{
    char **argv = calloc(nargs + 2, sizeof(*argv));
    if (NULL == argv) {
        return 0;
    }
    argv[0] = "run";
    memcpy(argv + 1, args, nargs * sizeof(*argv));
    launcher_options_t opts;
    unsigned ranks = 0;
    if (OPTIONS_RUN == options_parse((int)nargs + 1, argv, &opts)) {
        char *job = NULL;
        if (NULL != opts.job && '/' != opts.job[0] &&
            asprintf(&job, "%s/%s", cwd, opts.job) >= 0) {
            opts.job = job;
        }
        if (NULL == opts.job || 0 == jobfile_apply(&opts)) {
            ranks = opts.nranks;
        }
        options_release(&opts);
        free(job);
    }
    free(argv);
    return ranks;
}

static char *join(char *const *args, size_t nargs)
{
    size_t len = 1;
    for (size_t i = 0; i < nargs; i++) {
        len += strlen(args[i]) + 1;
    }
    char *s = malloc(len);
    if (NULL != s) {
        s[0] = '\0';
        for (size_t i = 0; i < nargs; i++) {
            strcat(strcat(s, 0 == i ? "" : " "), args[i]);
        }
    }
    return s;
}

static char **copy_args(char *const *args, size_t nargs)
{
    char **copy = calloc(nargs + 1, sizeof(*copy));
    for (size_t i = 0; NULL != copy && i < nargs; i++) {
        if (NULL == (copy[i] = strdup(args[i]))) {
            launch_free_env(copy);
            return NULL;
        }
    }
    return copy;
}

/* A submitted job's output (daemon_output.c) on the fds of its run, and
 * /dev/null as its stdin; the run learns of the frame pipe from its
 * environment. 0 or -1. */
static int keep_output(daemon_jobs_t *jobs, djob_t *job)
{
    int child[3];
    job->output = daemon_output_open(jobs->base, jobs->dirfd, job->id, jobs->output, jobs->arg,
                                     child);
    if (NULL == job->output) {
        return -1;
    }
    job->kept = true;
    job->fds[1] = child[0];
    job->fds[2] = child[1];
    job->frames_w = child[2];
    job->fds[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
    char **env = launch_setenv(job->env, DAEMON_OUTPUT_ENV, DAEMON_FRAMES_FD_TEXT);
    if (NULL != env) {
        job->env = env;
    }
    return job->fds[0] < 0 || NULL == env ? -1 : 0;
}

/* The run's report: one line per rank, "<rank> <pid> <program>". */
static void take_report(djob_t *job)
{
    char *line = job->report, *end;
    while (NULL != (end = memchr(line, '\n', job->report_len - (size_t)(line - job->report)))) {
        *end = '\0';
        unsigned rank;
        int pid, at = 0;
        if (2 == sscanf(line, "%u %d %n", &rank, &pid, &at) && at > 0 && rank < 1u << 20) {
            if (rank >= job->nprocs) {
                daemon_proc_t *grown = realloc(job->procs, (rank + 1) * sizeof(*grown));
                if (NULL == grown) {
                    break;
                }
                memset(grown + job->nprocs, 0, (rank + 1 - job->nprocs) * sizeof(*grown));
                job->procs = grown;
                job->nprocs = rank + 1;
            }
            free(job->procs[rank].program);
            job->procs[rank] = (daemon_proc_t){.pid = pid, .program = strdup(line + at)};
        }
        line = end + 1;
    }
}

/* Read what the report pipe holds; at its end (or when the run has
 * ended: final), take the report and close it. */
static void read_report(djob_t *job, bool final)
{
    ssize_t n = 0;
    while (job->report_len < REPORT_MAX &&
           (n = read(job->report_fd, job->report + job->report_len,
                     REPORT_MAX - job->report_len)) > 0) {
        job->report_len += (size_t)n;
    }
    bool more = job->report_len < REPORT_MAX && n < 0 && (EAGAIN == errno || EINTR == errno);
    if (more && !final) {
        return;
    }
    take_report(job);
    stop_event(&job->report_ev);
    close_fd(&job->report_fd);
    free(job->report);
    job->report = NULL;
}

static void on_report(evutil_socket_t fd, short what, void *arg)
{
    read_report(arg, false);
}

/* What the run says on the control socket: "ready RANK BREAKPOINT", a
 * rank waiting for a debugger, for the tools; "modexdata ...", the answer
 * to another job's "modex" (daemon_modex.c), as long as its data;
 * "relayed ...", the answer to a tool's request (daemon_relay.c);
 * "group ...", a group of its ranks made, changed or gone
 * (daemon_groups.c); "event ...", an event for other jobs' processes
 * (daemon_events.c); "exit STATUS", its exit status, known before its
 * teardown. One message: false when there was none (or the run hung up,
 * which ends the watch). */
static bool take_control(djob_t *job)
{
    int fd = job->control_w;
    char small[128], *msg = small;
    ssize_t n = recv(fd, NULL, 0, MSG_DONTWAIT | MSG_PEEK | MSG_TRUNC);
    if (n >= (ssize_t)sizeof(small) && NULL == (msg = malloc((size_t)n + 1))) {
        msg = small;
    }
    size_t size = small == msg ? sizeof(small) : (size_t)n + 1;
    n = recv(fd, msg, size - 1, MSG_DONTWAIT);
    unsigned rank;
    int at = 0;
    if (n > 0) {
        msg[n] = '\0';
        if (1 == sscanf(msg, "ready %u %n", &rank, &at) && at > 0) {
            daemon_pmix_job_ready(job->id, rank, msg + at);
        } else if (0 == strncmp(msg, "modexdata ", 10)) {
            daemon_modex_answered(msg);
        } else if (0 == strncmp(msg, "relayed ", 8)) {
            daemon_relay_answered(msg, (size_t)n);
        } else if (daemon_groups_is_message(msg, (size_t)n)) {
            daemon_groups_update(job->jobs, job->id, msg, (size_t)n);
        } else if (daemon_events_is_message(msg, (size_t)n)) {
            daemon_events_forward(job->jobs, job->id, msg, (size_t)n);
        } else if (1 == sscanf(msg, "exit %u %n", &rank, &at) && at > 0 && rank <= 255) {
            job->jobs->exited(job->jobs->arg, job->id, (int)rank);
        }
    } else if (0 == n || (EINTR != errno && EAGAIN != errno)) {
        stop_event(&job->control_ev);
    }
    if (small != msg) {
        free(msg);
    }
    return n > 0;
}

static void on_control(evutil_socket_t fd, short what, void *arg)
{
    take_control(arg);
}

/* The pipe the run reports its ranks on (fd 3 in the run), and the
 * control socket (its fd 4). 0 or -1. */
static int report_pipe(daemon_jobs_t *jobs, djob_t *job)
{
    int p[2], c[2];
    if (NULL == (job->report = malloc(REPORT_MAX)) ||
        0 != socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, c)) {
        return -1;
    }
    job->control_r = c[0];
    job->control_w = c[1];
    job->control_ev = event_new(jobs->base, c[1], EV_READ | EV_PERSIST, on_control, job);
    if (NULL == job->control_ev || 0 != event_add(job->control_ev, NULL) ||
        0 != pipe2(p, O_CLOEXEC)) {
        return -1;
    }
    job->report_fd = p[0];
    job->report_w = p[1];
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    job->report_ev = event_new(jobs->base, p[0], EV_READ | EV_PERSIST, on_report, job);
    return NULL == job->report_ev || 0 != event_add(job->report_ev, NULL) ? -1 : 0;
}

/* The next job, with nothing open, and room for it in the table (where
 * the caller puts it). NULL when memory runs out. */
static djob_t *new_job(daemon_jobs_t *jobs)
{
    djob_t *job = calloc(1, sizeof(*job));
    djob_t **grown = realloc(jobs->jobs, (jobs->njobs + 1) * sizeof(*grown));
    if (NULL != grown) {
        jobs->jobs = grown;
    }
    if (NULL == job || NULL == grown) {
        free(job);
        return NULL;
    }
    job->fds[0] = job->fds[1] = job->fds[2] = -1;
    job->report_fd = job->report_w = job->frames_w = job->control_r = job->control_w = -1;
    job->jobs = jobs;
    job->id = jobs->njobs + 1;
    job->status = -1;
    return job;
}

/* A job that could not be queued: its directory goes too, so that the
 * next job, which takes its id, can make its own. */
static void drop_new_job(daemon_jobs_t *jobs, djob_t *job)
{
    if (!job->own_fds) {
        daemon_output_remove(jobs->dirfd, job->id);
    }
    free_job(job);
}

unsigned daemon_jobs_submit(daemon_jobs_t *jobs, const char *cwd, char *const *args,
                            size_t nargs, char *const *env, int *fds, const char **why)
{
    djob_t *job = new_job(jobs);
    *why = "out of memory";
    if (NULL == job) {
        return 0;
    }
    char id[16];
    snprintf(id, sizeof(id), "%u", job->id);
    char prefix[DAEMON_NSPACE_MAX - 1];
    snprintf(prefix, sizeof(prefix), "%s.%u-", jobs->prefix, job->id);
    snprintf(job->nspace, sizeof(job->nspace), "%s0", prefix);
    job->ranks = count_ranks(cwd, args, nargs);
    job->command = join(args, nargs);
    job->cwd = strdup(cwd);
    job->args = copy_args(args, nargs);
    job->env = launch_copy_env(env);
    if (NULL != job->env) {
        char **env_set = launch_setenv(job->env, DAEMON_JOB_ENV, id);
        char **with_report = NULL == env_set ? NULL
                                             : launch_setenv(env_set, DAEMON_REPORT_ENV, "3");
        char **with_prefix = NULL == with_report
                                 ? NULL
                                 : launch_setenv(with_report, DAEMON_PREFIX_ENV, prefix);
        char **with_control = NULL == with_prefix
                                  ? NULL
                                  : launch_setenv(with_prefix, DAEMON_CONTROL_ENV, "4");
        if (NULL == with_control) {
            launch_free_env(NULL != with_prefix   ? with_prefix
                            : NULL != with_report ? with_report
                            : NULL != env_set     ? env_set
                                                  : job->env);
        }
        job->env = with_control;
    }
    if (NULL == job->command || NULL == job->cwd || NULL == job->args || NULL == job->env) {
        free_job(job);
        return 0;
    }
    if (NULL != fds) {
        job->own_fds = true;
        memcpy(job->fds, fds, sizeof(job->fds));
        fds[0] = fds[1] = fds[2] = -1;
    } else if (0 != keep_output(jobs, job)) {
        *why = "cannot create the job's output files";
        drop_new_job(jobs, job);
        return 0;
    }
    if (0 != report_pipe(jobs, job)) {
        *why = "cannot make a pipe";
        drop_new_job(jobs, job);
        return 0;
    }
    jobs->jobs[jobs->njobs++] = job;
    daemon_jobs_reap(jobs);
    return job->id;
}

/* The child: become `drover run` on the job's fds. Only async-signal-safe
 * calls and exec. */
static void child(const daemon_jobs_t *jobs, const djob_t *job, pid_t daemon, char **argv)
{
    daemon_standby_child_setup(daemon);
    for (int fd = 0; fd < 3; fd++) {
        if (dup2(job->fds[fd], fd) < 0) {
            _exit(LAUNCHER_EXIT_FAILURE);
        }
    }
    /* Out of the way first: any may be 3, 4 or 5 already. */
    int report = fcntl(job->report_w, F_DUPFD_CLOEXEC, 10);
    int control = fcntl(job->control_r, F_DUPFD_CLOEXEC, 10);
    int frames = job->frames_w < 0 ? -1 : fcntl(job->frames_w, F_DUPFD_CLOEXEC, 10);
    if (report < 0 || control < 0 || dup2(report, REPORT_FD) < 0 ||
        dup2(control, CONTROL_FD) < 0 || (frames >= 0 && dup2(frames, DAEMON_FRAMES_FD) < 0)) {
        _exit(LAUNCHER_EXIT_FAILURE);
    }
    if (0 != chdir(job->cwd)) {
        static const char msg[] = DAEMON_NAME ": cannot enter the job's working directory\n";
        (void)!write(2, msg, sizeof(msg) - 1);
        _exit(LAUNCHER_EXIT_FAILURE);
    }
    execve(jobs->exe, argv, job->env);
    static const char msg[] = DAEMON_NAME ": cannot execute drover\n";
    (void)!write(2, msg, sizeof(msg) - 1);
    _exit(LAUNCHER_EXIT_NOEXEC);
}

/* Of the ended jobs, only the DAEMON_KEEP_OUTPUT that ended last keep
 * their directories (of two that ended in the same second, the earlier id
 * goes first). */
static void trim_kept(daemon_jobs_t *jobs)
{
    unsigned kept = 0;
    for (unsigned j = 0; j < jobs->njobs; j++) {
        kept += jobs->jobs[j]->kept && JOB_ENDED == jobs->jobs[j]->state;
    }
    for (; kept > DAEMON_KEEP_OUTPUT; kept--) {
        djob_t *oldest = NULL;
        for (unsigned j = 0; j < jobs->njobs; j++) {
            djob_t *job = jobs->jobs[j];
            if (job->kept && JOB_ENDED == job->state &&
                (NULL == oldest || job->end < oldest->end)) {
                oldest = job;
            }
        }
        daemon_output_remove(jobs->dirfd, oldest->id);
        oldest->kept = false;
    }
}

static void ended(daemon_jobs_t *jobs, djob_t *job, int status)
{
    /* What the run wrote or said before it ended comes first. */
    if (NULL != job->output) {
        daemon_output_drain(job->output);
    }
    if (job->report_fd >= 0) {
        read_report(job, true);
    }
    while (NULL != job->control_ev && take_control(job)) {
    }
    job->state = JOB_ENDED;
    job->status = status;
    stop_event(&job->control_ev);
    close_fd(&job->control_w);
    job->end = time(NULL);
    drop_launch_data(job);
    trim_kept(jobs);
    jobs->ended(jobs->arg, job->id, status);
}

/* argv[k] and argv[k + 1] become "--trace" and where a submitted job's
 * trace goes; returns how many arguments were set (0: none). */
static size_t trace_args(const daemon_jobs_t *jobs, const djob_t *job, char **argv, size_t k,
                         char *path, size_t size)
{
    char fdlink[64], dir[PATH_MAX];
    snprintf(fdlink, sizeof(fdlink), "/proc/self/fd/%d", jobs->dirfd);
    ssize_t len = job->own_fds ? -1 : readlink(fdlink, dir, sizeof(dir) - 1);
    if (len <= 0) {
        return 0;
    }
    dir[len] = '\0';
    int n = snprintf(path, size, "%s/" DAEMON_JOBS "/%u/trace.json", dir, job->id);
    if (n < 0 || (size_t)n >= size) {
        return 0;
    }
    argv[k] = "--trace";
    argv[k + 1] = path;
    return 2;
}

static void start(daemon_jobs_t *jobs, djob_t *job)
{
    size_t nargs = 0;
    while (NULL != job->args[nargs]) {
        nargs++;
    }
    char **argv = calloc(nargs + 5, sizeof(*argv));
    char trace[PATH_MAX + 64];
    job->start = time(NULL);
    if (NULL == argv) {
        ended(jobs, job, LAUNCHER_EXIT_FAILURE);
        return;
    }
    argv[0] = "drover";
    argv[1] = "run";
    size_t k = 2 + trace_args(jobs, job, argv, 2, trace, sizeof(trace));
    memcpy(argv + k, job->args, nargs * sizeof(*argv));
    const int fds[] = {job->fds[0], job->fds[1],  job->fds[2],
                       job->report_w, job->control_r, job->frames_w};
    /* The frame pipe, last, only for a submitted job. */
    int nfds = (int)(sizeof(fds) / sizeof(fds[0])) - (job->frames_w < 0 ? 1 : 0);
    pid_t pid = daemon_standby_hand(jobs->standby, job->cwd, argv + 1, job->env, fds, nfds);
    if (pid < 0) {
        pid_t daemon = getpid();
        if (0 == (pid = fork())) {
            child(jobs, job, daemon, argv);
        }
    }
    free(argv);
    if (pid < 0) {
        ended(jobs, job, LAUNCHER_EXIT_FAILURE);
        return;
    }
    job->pid = pid;
    job->state = JOB_RUNNING;
    jobs->nrunning++;
    drop_launch_data(job);
}

void daemon_jobs_prepare(daemon_jobs_t *jobs)
{
    daemon_standby_fill(jobs->standby);
}

void daemon_jobs_reap(daemon_jobs_t *jobs)
{
    int wstatus;
    pid_t pid;
    bool ended_one = false, started_one = false;
    while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0) {
        unsigned j = 0;
        while (j < jobs->njobs &&
               (JOB_RUNNING != jobs->jobs[j]->state || jobs->jobs[j]->pid != pid)) {
            j++;
        }
        if (j == jobs->njobs) {
            daemon_standby_reaped(jobs->standby, pid);
            continue;
        }
        jobs->nrunning--;
        ended_one = true;
        ended(jobs, jobs->jobs[j],
              WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : WEXITSTATUS(wstatus));
    }
    for (unsigned j = 0; j < jobs->njobs && jobs->nrunning < jobs->max_running; j++) {
        if (JOB_QUEUED == jobs->jobs[j]->state) {
            start(jobs, jobs->jobs[j]);
            started_one = true;
        }
    }
    /* Not while a job launches: the standby's start would slow it. */
    if (ended_one && !started_one && !jobs->stopping) {
        daemon_standby_fill(jobs->standby);
    }
}

int daemon_jobs_signal(daemon_jobs_t *jobs, unsigned id, int sig, const char **why)
{
    djob_t *job = find(jobs, id);
    if (NULL == job) {
        *why = "no such job";
        return -1;
    }
    if (JOB_ENDED == job->state) {
        *why = "the job has ended";
        return -1;
    }
    job->signalled = true;
    if (JOB_QUEUED == job->state) {
        ended(jobs, job, 128 + sig);
        return 0;
    }
    if (0 != kill(job->pid, sig)) {
        *why = strerror(errno);
        return -1;
    }
    return 0;
}

int daemon_jobs_status(const daemon_jobs_t *jobs, unsigned id)
{
    const djob_t *job = find(jobs, id);
    return NULL == job ? -2 : JOB_ENDED == job->state ? job->status : -1;
}

bool daemon_jobs_has_output(const daemon_jobs_t *jobs, unsigned id)
{
    const djob_t *job = find(jobs, id);
    return NULL != job && job->kept;
}

unsigned daemon_jobs_end_all(daemon_jobs_t *jobs, int sig)
{
    /* No more starts: the queue and the standby go first. */
    jobs->stopping = true;
    daemon_standby_drop(jobs->standby);
    for (unsigned j = 0; j < jobs->njobs; j++) {
        if (JOB_QUEUED == jobs->jobs[j]->state) {
            jobs->jobs[j]->signalled = true;
            ended(jobs, jobs->jobs[j], 128 + SIGTERM);
        }
    }
    for (unsigned j = 0; j < jobs->njobs; j++) {
        if (JOB_RUNNING == jobs->jobs[j]->state) {
            jobs->jobs[j]->signalled = true;
            kill(jobs->jobs[j]->pid, sig);
        }
    }
    return jobs->nrunning;
}

int daemon_jobs_control_bytes(daemon_jobs_t *jobs, unsigned id, const char *msg, size_t len)
{
    djob_t *job = find(jobs, id);
    if (NULL == job || JOB_RUNNING != job->state || job->control_w < 0) {
        return -1;
    }
    return (ssize_t)len == send(job->control_w, msg, len, MSG_NOSIGNAL | MSG_DONTWAIT) ? 0 : -1;
}

int daemon_jobs_control(daemon_jobs_t *jobs, unsigned id, const char *msg)
{
    return daemon_jobs_control_bytes(jobs, id, msg, strlen(msg));
}

int daemon_jobs_release(daemon_jobs_t *jobs, unsigned id, const char *rank)
{
    char msg[32];
    int n = snprintf(msg, sizeof(msg), "release %s", rank);
    return n <= 0 || (size_t)n >= sizeof(msg) ? -1 : daemon_jobs_control(jobs, id, msg);
}

daemon_job_state_t daemon_jobs_state(const daemon_jobs_t *jobs, unsigned id)
{
    const djob_t *job = find(jobs, id);
    return NULL == job ? JOB_NONE : job->state;
}

unsigned daemon_jobs_find(const daemon_jobs_t *jobs, const char *nspace)
{
    size_t len = strlen(jobs->prefix);
    char *end;
    if (0 != strncmp(nspace, jobs->prefix, len) || '.' != nspace[len] || nspace[len + 1] < '1' ||
        nspace[len + 1] > '9') {
        return 0;
    }
    unsigned long id = strtoul(nspace + len + 1, &end, 10);
    return 0 == strcmp(end, "-0") && id <= UINT32_MAX && NULL != find(jobs, (unsigned)id)
               ? (unsigned)id
               : 0;
}

const char *daemon_jobs_nspace(const daemon_jobs_t *jobs, unsigned id)
{
    const djob_t *job = find(jobs, id);
    return NULL == job ? NULL : job->nspace;
}

unsigned daemon_jobs_count(const daemon_jobs_t *jobs)
{
    return jobs->njobs;
}

const daemon_proc_t *daemon_jobs_procs(const daemon_jobs_t *jobs, unsigned id, unsigned *n)
{
    const djob_t *job = find(jobs, id);
    *n = NULL == job ? 0 : job->nprocs;
    return NULL == job ? NULL : job->procs;
}

unsigned daemon_jobs_active(const daemon_jobs_t *jobs)
{
    unsigned n = 0;
    for (unsigned j = 0; j < jobs->njobs; j++) {
        n += JOB_ENDED != jobs->jobs[j]->state;
    }
    return n;
}

/* ---- history ----------------------------------------------------------- */

bool daemon_jobs_info(const daemon_jobs_t *jobs, unsigned id, daemon_job_info_t *info)
{
    const djob_t *job = find(jobs, id);
    if (NULL == job) {
        return false;
    }
    *info = (daemon_job_info_t){.ranks = job->ranks,
                                .start = job->start,
                                .end = job->end,
                                .status = JOB_ENDED == job->state ? job->status : -1,
                                .signalled = job->signalled,
                                .lost = job->lost,
                                .command = job->command};
    return true;
}

int daemon_jobs_restore(daemon_jobs_t *jobs, unsigned id, const daemon_job_info_t *info)
{
    while (jobs->njobs < id) {
        djob_t *job = new_job(jobs);
        if (NULL == job || NULL == (job->command = strdup(""))) {
            free(job);
            return -1;
        }
        job->state = JOB_ENDED;
        job->lost = true;
        job->status = 128 + SIGKILL;
        jobs->jobs[jobs->njobs++] = job;
    }
    djob_t *job = find(jobs, id);
    char *command = strdup(info->command);
    if (NULL == job || NULL == command) {
        free(command);
        return -1;
    }
    free(job->command);
    job->command = command;
    job->ranks = info->ranks;
    job->start = info->start;
    job->end = info->end;
    job->signalled = info->signalled;
    job->lost = info->status < 0;
    job->status = job->lost ? 128 + SIGKILL : info->status;
    return 0;
}

static bool restored_kept(void *arg, unsigned id)
{
    const djob_t *job = find(arg, id);
    return NULL != job && job->kept;
}

void daemon_jobs_keep_restored(daemon_jobs_t *jobs)
{
    for (unsigned j = 0; j < jobs->njobs; j++) {
        jobs->jobs[j]->kept = daemon_output_kept(jobs->dirfd, jobs->jobs[j]->id);
    }
    daemon_output_sweep(jobs->dirfd, restored_kept, jobs);
    trim_kept(jobs);
}

/* ---- ps ---------------------------------------------------------------- */

static const char *state_name(const djob_t *job)
{
    switch (job->state) {
    case JOB_QUEUED:
        return "queued";
    case JOB_RUNNING:
        return "running";
    default:
        return job->lost        ? "lost"
               : job->signalled ? "killed"
               : 0 == job->status ? "completed"
                                  : "failed";
    }
}

static void when(char *buf, size_t size, time_t t, bool json)
{
    struct tm tm;
    if (0 == t) {
        snprintf(buf, size, json ? "null" : "-");
    } else {
        gmtime_r(&t, &tm);
        strftime(buf, size, json ? "\"%Y-%m-%dT%H:%M:%SZ\"" : "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
}

char *daemon_jobs_table(const daemon_jobs_t *jobs, bool json)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (NULL == out) {
        return NULL;
    }
    if (json) {
        fputc('[', out);
    } else {
        fprintf(out, "%-5s %-9s %5s  %-20s  %-20s  %6s  %s\n", "JOB", "STATE", "RANKS", "START",
                "END", "STATUS", "COMMAND");
    }
    for (unsigned j = 0; j < jobs->njobs; j++) {
        const djob_t *job = jobs->jobs[j];
        char start[32], end[32], status[16];
        when(start, sizeof(start), job->start, json);
        when(end, sizeof(end), job->end, json);
        if (JOB_ENDED == job->state) {
            snprintf(status, sizeof(status), "%d", job->status);
        } else {
            snprintf(status, sizeof(status), json ? "null" : "-");
        }
        if (json) {
            fprintf(out,
                    "%s\n {\"id\": %u, \"state\": \"%s\", \"ranks\": %u, \"pid\": %d, "
                    "\"start\": %s, \"end\": %s, \"exit_status\": %s, \"command\": \"",
                    0 == j ? "" : ",", job->id, state_name(job), job->ranks, (int)job->pid, start,
                    end, status);
            json_escape(out, job->command);
            fputs("\"}", out);
        } else {
            fprintf(out, "%-5u %-9s %5u  %-20s  %-20s  %6s  %s\n", job->id, state_name(job),
                    job->ranks, start, end, status, job->command);
        }
    }
    if (json) {
        fputs(0 == jobs->njobs ? "]\n" : "\n]\n", out);
    }
    if (0 != fclose(out)) {
        free(text);
        return NULL;
    }
    return text;
}
