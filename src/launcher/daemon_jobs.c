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
 *  - At most max_running jobs run at once; the others wait, in order, as
 *    "queued", so that a burst of submissions is not a burst of forks.
 *  - A submitted job writes to jobs/<id>/stdout and stderr (made with
 *    O_EXCL | O_NOFOLLOW) on /dev/null; a `run --daemon` job on the fds
 *    its command handed over.
 *  - Once a job has started, only what `ps` shows is kept.
 *  - A submitted job's run is traced (`--trace jobs/<id>/trace.json`, by
 *    the state directory's absolute path), for `drover trace JOB`; a
 *    --trace of the submitter's own comes after it and wins.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon.h"
#include "launcher.h"

typedef enum { JOB_QUEUED, JOB_RUNNING, JOB_ENDED } job_state_t;

typedef struct djob {
    unsigned id;
    job_state_t state;
    pid_t pid;
    unsigned ranks;
    time_t start, end;
    int status;
    bool signalled;       /* ended on request (kill, stop) */
    bool own_fds;         /* run --daemon: fds handed over */
    bool lost;            /* from the journal: its daemon died first */
    char *command;        /* the run's arguments, for ps */
    char *cwd;            /* until started */
    char **args;
    char **env;
    int fds[3];
} djob_t;

struct daemon_jobs {
    int dirfd;
    char *exe;
    unsigned max_running;
    daemon_job_ended_fn ended;
    void *arg;
    djob_t **jobs;
    unsigned njobs;
    unsigned nrunning;
};

daemon_jobs_t *daemon_jobs_create(int dirfd, const char *exe, unsigned max_running,
                                  daemon_job_ended_fn ended, void *arg)
{
    daemon_jobs_t *jobs = calloc(1, sizeof(*jobs));
    if (NULL == jobs || NULL == (jobs->exe = strdup(exe))) {
        free(jobs);
        return NULL;
    }
    jobs->dirfd = dirfd;
    jobs->max_running = max_running;
    jobs->ended = ended;
    jobs->arg = arg;
    return jobs;
}

static void close_fds(djob_t *job)
{
    for (int i = 0; i < 3; i++) {
        if (job->fds[i] >= 0) {
            close(job->fds[i]);
            job->fds[i] = -1;
        }
    }
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

/* jobs/<id>/stdout and stderr, and /dev/null as stdin. 0 or -1. */
static int output_files(daemon_jobs_t *jobs, djob_t *job)
{
    char dir[64];
    snprintf(dir, sizeof(dir), DAEMON_JOBS "/%u", job->id);
    if (0 != mkdirat(jobs->dirfd, dir, 0700)) {
        return -1;
    }
    int dfd = openat(jobs->dirfd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        return -1;
    }
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_APPEND;
    job->fds[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
    job->fds[1] = openat(dfd, "stdout", flags, 0600);
    job->fds[2] = openat(dfd, "stderr", flags, 0600);
    close(dfd);
    return job->fds[0] < 0 || job->fds[1] < 0 || job->fds[2] < 0 ? -1 : 0;
}

unsigned daemon_jobs_submit(daemon_jobs_t *jobs, const char *cwd, char *const *args,
                            size_t nargs, char *const *env, int *fds, const char **why)
{
    djob_t *job = calloc(1, sizeof(*job));
    djob_t **grown = realloc(jobs->jobs, (jobs->njobs + 1) * sizeof(*grown));
    *why = "out of memory";
    if (NULL != grown) {
        jobs->jobs = grown;
    }
    if (NULL == job || NULL == grown) {
        free(job);
        return 0;
    }
    job->fds[0] = job->fds[1] = job->fds[2] = -1;
    job->id = jobs->njobs + 1;
    job->status = -1;
    char id[16];
    snprintf(id, sizeof(id), "%u", job->id);
    job->ranks = count_ranks(cwd, args, nargs);
    job->command = join(args, nargs);
    job->cwd = strdup(cwd);
    job->args = copy_args(args, nargs);
    job->env = launch_copy_env(env);
    if (NULL != job->env) {
        char **env_set = launch_setenv(job->env, DAEMON_JOB_ENV, id);
        if (NULL == env_set) {
            launch_free_env(job->env);
        }
        job->env = env_set;
    }
    if (NULL == job->command || NULL == job->cwd || NULL == job->args || NULL == job->env) {
        free_job(job);
        return 0;
    }
    if (NULL != fds) {
        job->own_fds = true;
        memcpy(job->fds, fds, sizeof(job->fds));
        fds[0] = fds[1] = fds[2] = -1;
    } else if (0 != output_files(jobs, job)) {
        *why = "cannot create the job's output files";
        free_job(job);
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
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != daemon) {
        _exit(LAUNCHER_EXIT_FAILURE);
    }
    for (int fd = 0; fd < 3; fd++) {
        if (dup2(job->fds[fd], fd) < 0) {
            _exit(LAUNCHER_EXIT_FAILURE);
        }
    }
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    for (int sig = 1; sig < NSIG; sig++) {
        sigaction(sig, &dfl, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
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

static void ended(daemon_jobs_t *jobs, djob_t *job, int status)
{
    job->state = JOB_ENDED;
    job->status = status;
    job->end = time(NULL);
    drop_launch_data(job);
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
    pid_t daemon = getpid();
    pid_t pid = fork();
    if (0 == pid) {
        child(jobs, job, daemon, argv);
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

void daemon_jobs_reap(daemon_jobs_t *jobs)
{
    int wstatus;
    pid_t pid;
    while ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0) {
        for (unsigned j = 0; j < jobs->njobs; j++) {
            djob_t *job = jobs->jobs[j];
            if (JOB_RUNNING == job->state && job->pid == pid) {
                jobs->nrunning--;
                ended(jobs, job,
                      WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : WEXITSTATUS(wstatus));
                break;
            }
        }
    }
    for (unsigned j = 0; j < jobs->njobs && jobs->nrunning < jobs->max_running; j++) {
        if (JOB_QUEUED == jobs->jobs[j]->state) {
            start(jobs, jobs->jobs[j]);
        }
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
    return NULL != job && !job->own_fds;
}

unsigned daemon_jobs_end_all(daemon_jobs_t *jobs, int sig)
{
    /* No more starts: the queue goes first. */
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

unsigned daemon_jobs_active(const daemon_jobs_t *jobs)
{
    unsigned n = 0;
    for (unsigned j = 0; j < jobs->njobs; j++) {
        n += JOB_ENDED != jobs->jobs[j]->state;
    }
    return n;
}

/* ---- history ----------------------------------------------------------- */

unsigned daemon_jobs_count(const daemon_jobs_t *jobs)
{
    return jobs->njobs;
}

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
        djob_t *job = calloc(1, sizeof(*job));
        char *none = strdup("");
        djob_t **grown = realloc(jobs->jobs, (jobs->njobs + 1) * sizeof(*grown));
        if (NULL != grown) {
            jobs->jobs = grown;
        }
        if (NULL == job || NULL == none || NULL == grown) {
            free(job);
            free(none);
            return -1;
        }
        *job = (djob_t){.id = jobs->njobs + 1, .state = JOB_ENDED, .lost = true,
                        .status = 128 + SIGKILL, .command = none, .fds = {-1, -1, -1}};
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
