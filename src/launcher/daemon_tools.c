/*
 * daemon_tools.c - submit, ps, wait, kill and output: PMIx tools of the
 * user's daemon, as prun and pterm are of PRRTE's.
 *
 * Design notes:
 *  - Each command checks the state directory (daemon_dir_open), then
 *    connects with PMIx_tool_init and PMIX_CONNECT_TO_SYSTEM: the daemon
 *    is the user's system server (daemon_pmix.c). Job N is the namespace
 *    "<daemon's namespace>.N-0"; the daemon's namespace is the server's
 *    identity PMIx_tool_get_servers reports.
 *  - submit checks the run options here, as `drover run` would, so that a
 *    mistake is one line before anything is queued, then spawns the job
 *    with the run's arguments as typed (DROVER_SPAWN_RUN_ARGS), its
 *    working directory and its whole environment.
 *  - ps asks DROVER_QUERY_JOBS (or _JSON); kill is PMIx_Job_control
 *    (PMIX_JOB_CTRL_KILL for KILL, else PMIX_JOB_CTRL_SIGNAL).
 *  - wait and output --follow register for PMIX_EVENT_JOB_END before they
 *    ask whether the job has ended (PMIX_EXIT_CODE), so an end between the
 *    two is not missed; losing the daemon (PMIX_ERR_LOST_CONNECTION) ends
 *    the wait with a message.
 *  - output reads the job's files itself, from the directory the daemon
 *    names (inside the checked state directory), without following links.
 *    With --rank or --tag-output it goes by the job's ranks file, which
 *    says who wrote each piece (daemon_output.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "daemon.h"
#include "directive.h"
#include "drover.h"
#include "launcher.h"
#include "output_frames.h"
#include "pmix_tool.h"

extern char **environ;

/* The daemon's namespace, once connected. */
static pmix_nspace_t daemon_ns;

/* Connect to the user's daemon as a PMIx tool. 0, or -1 after a
 * message. */
static int tool_open(const char *who)
{
    char dir[PATH_MAX];
    int dirfd = daemon_dir_open(dir, false, who);
    if (dirfd < 0) {
        return -1;
    }
    close(dirfd);
    pmix_info_t info;
    pmix_proc_t me, *servers = NULL;
    size_t n = 0;
    bool yes = true;
    PMIX_INFO_LOAD(&info, PMIX_CONNECT_TO_SYSTEM, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_tool_init(&me, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "%s: the drover daemon is not running (drover daemon start)\n", who);
        return -1;
    }
    if (PMIX_SUCCESS != PMIx_tool_get_servers(&servers, &n) || 1 != n) {
        fprintf(stderr, "%s: the daemon did not say who it is\n", who);
        PMIx_tool_finalize();
        return -1;
    }
    PMIX_LOAD_NSPACE(daemon_ns, servers[0].nspace);
    PMIX_PROC_FREE(servers, n);
    return 0;
}

static void job_nspace(pmix_nspace_t nspace, const char *id)
{
    char text[PMIX_MAX_NSLEN + 32];
    snprintf(text, sizeof(text), "%s.%s-0", daemon_ns, id);
    PMIX_LOAD_NSPACE(nspace, text);
}

/* Query keys (NULL-terminated, borrowed) about nspace (NULL: none). */
static pmix_status_t ask(char **keys, const char *nspace, pmix_info_t **results, size_t *n)
{
    pmix_query_t q;
    pmix_info_t qual;
    PMIX_QUERY_CONSTRUCT(&q);
    q.keys = keys;
    if (NULL != nspace) {
        PMIX_INFO_LOAD(&qual, PMIX_NSPACE, nspace, PMIX_STRING);
        q.qualifiers = &qual;
        q.nqual = 1;
    }
    *results = NULL;
    *n = 0;
    pmix_status_t rc = PMIx_Query_info(&q, 1, results, n);
    if (NULL != nspace) {
        PMIX_INFO_DESTRUCT(&qual);
    }
    return rc;
}

static void free_results(pmix_info_t *results, size_t n)
{
    if (NULL != results) {
        PMIX_INFO_FREE(results, n);
    }
}

static bool job_id(const char *who, const char *s)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (s[0] < '1' || s[0] > '9' || '\0' != *end || 0 != errno || v > UINT32_MAX) {
        fprintf(stderr, "%s: '%s' is not a job id\n", who, s);
        return false;
    }
    return true;
}

/* ---- submit ---------------------------------------------------------------- */

/* Spawn `drover run argv[1...]` through the daemon; print the job's id.
 * 0, or an exit status after a message. */
static int spawn_run(const launcher_options_t *opts, int argc, char **argv)
{
    char cwd[PATH_MAX];
    int rc = LAUNCHER_EXIT_FAILURE;
    if (NULL == getcwd(cwd, sizeof(cwd))) {
        fprintf(stderr, "drover submit: cannot tell the working directory: %s\n", strerror(errno));
    } else if (0 == tool_open("drover submit")) {
        pmix_data_array_t args = {.type = PMIX_STRING, .size = (size_t)argc - 1, .array = argv + 1};
        pmix_info_t info;
        pmix_app_t app;
        pmix_nspace_t nspace;
        PMIX_INFO_LOAD(&info, DROVER_SPAWN_RUN_ARGS, &args, PMIX_DATA_ARRAY);
        PMIX_APP_CONSTRUCT(&app);
        /* Borrowed: given back before the destruct. The daemon runs the
         * arguments as typed; the app names the program or job file. */
        app.cmd = NULL != opts->argv ? opts->argv[0] : (char *)opts->job;
        app.maxprocs = opts->nranks > 0 ? (int)opts->nranks : 1;
        app.env = environ;
        app.cwd = cwd;
        pmix_status_t prc = PMIx_Spawn(&info, 1, &app, 1, nspace);
        app.cmd = app.cwd = NULL;
        app.env = NULL;
        PMIX_APP_DESTRUCT(&app);
        PMIX_INFO_DESTRUCT(&info);
        /* <daemon's namespace>.<id>-0 */
        const char *id = PMIX_SUCCESS == prc ? strrchr(nspace, '.') : NULL;
        if (NULL != id) {
            printf("%.*s\n", (int)strcspn(id + 1, "-"), id + 1);
            rc = 0;
        } else {
            fprintf(stderr, "drover submit: the daemon did not queue the job: %s\n",
                    PMIX_ERR_NOT_AVAILABLE == prc ? "it is stopping" : PMIx_Error_string(prc));
        }
        PMIx_tool_finalize();
    }
    return rc;
}

static int submit_command(int argc, char **argv)
{
    launcher_options_t opts;
    int parsed = options_parse(argc, argv, &opts);
    if (OPTIONS_RUN != parsed) {
        return OPTIONS_HELP == parsed ? 0 : LAUNCHER_EXIT_USAGE;
    }
    /* A job file is checked as drover run would (its located messages);
     * the job's run reads it again when it starts. */
    int rc = NULL != opts.job ? jobfile_apply(&opts) : 0;
    if (0 == rc) {
        rc = spawn_run(&opts, argc, argv);
    }
    options_release(&opts);
    return rc;
}

/* ---- ps --------------------------------------------------------------------- */

static int ps_command(int argc, char **argv)
{
    bool json = 2 == argc && 0 == strcmp(argv[1], "--json");
    if (argc > 2 || (2 == argc && !json)) {
        fprintf(stderr, "usage: drover ps [--json]\n");
        return LAUNCHER_EXIT_USAGE;
    }
    if (0 != tool_open("drover ps")) {
        return LAUNCHER_EXIT_FAILURE;
    }
    char *keys[] = {json ? DROVER_QUERY_JOBS_JSON : DROVER_QUERY_JOBS, NULL};
    pmix_info_t *res;
    size_t n;
    pmix_status_t rc = ask(keys, NULL, &res, &n);
    const pmix_value_t *v = directive_find(res, n, keys[0]);
    if (PMIX_SUCCESS == rc && NULL != v && PMIX_STRING == v->type) {
        fputs(v->data.string, stdout);
    } else {
        fprintf(stderr, "drover ps: the daemon did not answer: %s\n", PMIx_Error_string(rc));
    }
    free_results(res, n);
    PMIx_tool_finalize();
    return PMIX_SUCCESS == rc && NULL != v ? 0 : LAUNCHER_EXIT_FAILURE;
}

/* ---- the end of a job -------------------------------------------------------- */

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    pmix_nspace_t nspace; /* the job waited for */
    bool ended, lost;
    int status;
} ending = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static void on_event(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                     size_t ninfo, pmix_info_t *results, size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    const pmix_value_t *affected = directive_find(info, ninfo, PMIX_EVENT_AFFECTED_PROC);
    const pmix_value_t *code = directive_find(info, ninfo, PMIX_EXIT_CODE);
    pthread_mutex_lock(&ending.lock);
    if (PMIX_ERR_LOST_CONNECTION == status) {
        ending.lost = true;
    } else if (NULL != affected && PMIX_PROC == affected->type &&
               PMIX_CHECK_NSPACE(affected->data.proc->nspace, ending.nspace) && NULL != code &&
               PMIX_INT == code->type) {
        ending.ended = true;
        ending.status = code->data.integer;
    }
    pthread_cond_signal(&ending.cond);
    pthread_mutex_unlock(&ending.lock);
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

/* Wait for job id's end, calling tick (if any) every 100 ms meanwhile
 * (it returns false to stop). Returns the job's exit status, or -1 after
 * a message. */
static int wait_end(const char *who, const char *id, bool (*tick)(void *), void *arg)
{
    pmix_status_t codes[] = {PMIX_EVENT_JOB_END, PMIX_ERR_LOST_CONNECTION};
    char *keys[] = {PMIX_QUERY_JOB_STATUS, PMIX_EXIT_CODE, NULL};
    pmix_info_t *res;
    size_t n;

    job_nspace(ending.nspace, id);
    if (PMIx_Register_event_handler(codes, 2, NULL, 0, on_event, NULL, NULL) < 0) {
        fprintf(stderr, "%s: cannot watch the job's end\n", who);
        return -1;
    }
    pmix_status_t rc = ask(keys, ending.nspace, &res, &n);
    const pmix_value_t *code = directive_find(res, n, PMIX_EXIT_CODE);
    pthread_mutex_lock(&ending.lock);
    if (NULL != code && PMIX_INT == code->type && !ending.ended) {
        ending.ended = true;
        ending.status = code->data.integer;
    }
    bool known = NULL != directive_find(res, n, PMIX_QUERY_JOB_STATUS);
    free_results(res, n);
    while (known && !ending.ended && !ending.lost) {
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_nsec += 100 * 1000 * 1000;
        if (deadline.tv_nsec >= 1000 * 1000 * 1000) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000 * 1000 * 1000;
        }
        pthread_cond_timedwait(&ending.cond, &ending.lock, &deadline);
        if (NULL != tick && !ending.ended) {
            pthread_mutex_unlock(&ending.lock);
            bool go_on = tick(arg);
            pthread_mutex_lock(&ending.lock);
            if (!go_on) {
                break;
            }
        }
    }
    int status = ending.ended ? ending.status : -1;
    pthread_mutex_unlock(&ending.lock);
    if (!known) {
        fprintf(stderr, "%s: no job %s%s%s\n", who, id, PMIX_ERR_NOT_FOUND == rc ? "" : ": ",
                PMIX_ERR_NOT_FOUND == rc ? "" : PMIx_Error_string(rc));
    } else if (status < 0) {
        fprintf(stderr, "%s: lost the daemon before job %s ended\n", who, id);
    }
    return status;
}

static int wait_command(int argc, char **argv)
{
    if (2 != argc) {
        fprintf(stderr, "usage: drover wait JOB\n");
        return LAUNCHER_EXIT_USAGE;
    }
    if (!job_id("drover wait", argv[1])) {
        return LAUNCHER_EXIT_USAGE;
    }
    if (0 != tool_open("drover wait")) {
        return LAUNCHER_EXIT_FAILURE;
    }
    int status = wait_end("drover wait", argv[1], NULL, NULL);
    PMIx_tool_finalize();
    return status < 0 ? LAUNCHER_EXIT_FAILURE : status;
}

/* ---- kill -------------------------------------------------------------------- */

static int signal_number(const char *s)
{
    static const struct {
        const char *name;
        int sig;
    } names[] = {{"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT},
                 {"KILL", SIGKILL}, {"USR1", SIGUSR1}, {"USR2", SIGUSR2},
                 {"TERM", SIGTERM}, {"CONT", SIGCONT}, {"STOP", SIGSTOP}};
    char *end;
    long n = strtol(s, &end, 10);
    if (s[0] >= '0' && s[0] <= '9' && '\0' == *end) {
        return n > 0 && n < NSIG ? (int)n : -1;
    }
    const char *name = 0 == strncmp(s, "SIG", 3) ? s + 3 : s;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (0 == strcmp(name, names[i].name)) {
            return names[i].sig;
        }
    }
    return -1;
}

static int kill_command(int argc, char **argv)
{
    int sig = SIGTERM;
    if (4 == argc && 0 == strcmp(argv[2], "--signal")) {
        if ((sig = signal_number(argv[3])) < 0) {
            fprintf(stderr, "drover kill: unknown signal '%s'\n", argv[3]);
            return LAUNCHER_EXIT_USAGE;
        }
    } else if (2 != argc) {
        fprintf(stderr, "usage: drover kill JOB [--signal S]\n");
        return LAUNCHER_EXIT_USAGE;
    }
    if (!job_id("drover kill", argv[1])) {
        return LAUNCHER_EXIT_USAGE;
    }
    if (0 != tool_open("drover kill")) {
        return LAUNCHER_EXIT_FAILURE;
    }
    pmix_proc_t job;
    pmix_info_t dir, *res = NULL;
    size_t n = 0;
    bool yes = true;
    pmix_nspace_t nspace;
    job_nspace(nspace, argv[1]);
    PMIX_LOAD_PROCID(&job, nspace, PMIX_RANK_WILDCARD);
    if (SIGKILL == sig) {
        PMIX_INFO_LOAD(&dir, PMIX_JOB_CTRL_KILL, &yes, PMIX_BOOL);
    } else {
        PMIX_INFO_LOAD(&dir, PMIX_JOB_CTRL_SIGNAL, &sig, PMIX_INT);
    }
    pmix_status_t rc = PMIx_Job_control(&job, 1, &dir, 1, &res, &n);
    PMIX_INFO_DESTRUCT(&dir);
    free_results(res, n);
    PMIx_tool_finalize();
    if (PMIX_ERR_NOT_FOUND == rc) {
        fprintf(stderr, "drover kill: no job %s\n", argv[1]);
    } else if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "drover kill: cannot signal job %s: %s\n", argv[1],
                PMIX_ERR_NOT_AVAILABLE == rc ? "the job has ended" : PMIx_Error_string(rc));
    }
    return PMIX_SUCCESS == rc ? 0 : LAUNCHER_EXIT_FAILURE;
}

/* ---- output ------------------------------------------------------------------- */

/* Copy what fd has now to `to`. 0 or -1. */
static int copy_fd(int fd, int to)
{
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(to, buf + off, (size_t)(n - off));
            if (w <= 0) {
                return -1;
            }
            off += w;
        }
    }
    return n < 0 ? -1 : 0;
}

/* The job's stdout to stdout, its stderr to stderr, as far as written. */
static bool copy_output(void *arg)
{
    const int *fds = arg;
    return 0 == copy_fd(fds[0], 1) && 0 == copy_fd(fds[1], 2);
}

/* Open the job's stdout and stderr files in fds, and its ranks file in
 * fds[2] when fds has room for it (nfds 3). 0, or -1 after a message. */
static int open_output(const char *id, int *fds, int nfds)
{
    char *keys[] = {PMIX_QUERY_JOB_STATUS, DROVER_QUERY_OUTPUT, NULL};
    pmix_info_t *res;
    size_t n;
    pmix_nspace_t nspace;
    job_nspace(nspace, id);
    ask(keys, nspace, &res, &n);
    const pmix_value_t *dir = directive_find(res, n, DROVER_QUERY_OUTPUT);
    int rc = -1;
    if (NULL == directive_find(res, n, PMIX_QUERY_JOB_STATUS)) {
        fprintf(stderr, "drover output: no job %s\n", id);
    } else if (NULL == dir || PMIX_STRING != dir->type) {
        fprintf(stderr,
                "drover output: job %s has no output kept (run with drover run --daemon, its "
                "output went to that command; else older than the last %d jobs that ended)\n",
                id, DAEMON_KEEP_OUTPUT);
    } else {
        int dfd = open(dir->data.string, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        static const char *const names[3] = {"stdout", "stderr", "ranks"};
        rc = 0;
        for (int i = 0; i < nfds; i++) {
            fds[i] = dfd < 0 ? -1 : openat(dfd, names[i], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
            if (fds[i] < 0) {
                fprintf(stderr, "drover output: cannot open %s/%s: %s\n", dir->data.string,
                        names[i], strerror(errno));
                rc = -1;
                break;
            }
        }
        if (dfd >= 0) {
            close(dfd);
        }
    }
    free_results(res, n);
    return rc;
}

/* The pieces recorded since the last call, as --rank and --tag-output
 * ask. */
static bool copy_by_rank(void *arg)
{
    if (0 != daemon_output_read(arg)) {
        fprintf(stderr, "drover output: the job's ranks file is malformed or unreadable\n");
        return false;
    }
    return true;
}

/* drover output's arguments: JOB [--follow] [--rank R] [--tag-output],
 * the options in any order. False after a message. */
static bool output_options(int argc, char **argv, bool *follow, daemon_output_reader_t *by)
{
    unsigned long rank;
    char *end;
    *follow = false;
    *by = (daemon_output_reader_t){.every_rank = true, .index = -1, .files = {-1, -1}};
    for (int i = 2; i < argc; i++) {
        if (0 == strcmp(argv[i], "--follow")) {
            *follow = true;
        } else if (0 == strcmp(argv[i], "--tag-output")) {
            by->tag = true;
        } else if (0 == strcmp(argv[i], "--rank") && i + 1 < argc) {
            errno = 0;
            rank = strtoul(argv[++i], &end, 10);
            if (argv[i][0] < '0' || argv[i][0] > '9' || '\0' != *end || 0 != errno ||
                rank > OUTPUT_FRAME_RANK_MAX) {
                fprintf(stderr, "drover output: --rank wants a rank (0, 1, ...), not '%s'\n",
                        argv[i]);
                return false;
            }
            by->every_rank = false;
            by->rank = (uint32_t)rank;
        } else {
            fprintf(stderr, "usage: drover output JOB [--follow] [--rank R] [--tag-output]\n");
            return false;
        }
    }
    return argc >= 2 && job_id("drover output", argv[1]);
}

static int output_command(int argc, char **argv)
{
    bool follow;
    daemon_output_reader_t by;
    if (argc < 2) {
        fprintf(stderr, "usage: drover output JOB [--follow] [--rank R] [--tag-output]\n");
        return LAUNCHER_EXIT_USAGE;
    }
    if (!output_options(argc, argv, &follow, &by)) {
        return LAUNCHER_EXIT_USAGE;
    }
    if (0 != tool_open("drover output")) {
        return LAUNCHER_EXIT_FAILURE;
    }
    /* Plain, the files as they are; by rank or tagged, through the ranks
     * file. */
    bool plain = by.every_rank && !by.tag;
    int fds[3] = {-1, -1, -1}, rc = LAUNCHER_EXIT_FAILURE;
    bool (*copy)(void *) = plain ? copy_output : copy_by_rank;
    void *arg = plain ? (void *)fds : (void *)&by;
    if (0 == open_output(argv[1], fds, plain ? 2 : 3)) {
        by.files[0] = fds[0];
        by.files[1] = fds[1];
        by.index = fds[2];
        if (follow) {
            int status = wait_end("drover output", argv[1], copy, arg);
            rc = status >= 0 && copy(arg) ? status : LAUNCHER_EXIT_FAILURE;
        } else if (copy(arg)) {
            rc = 0;
        }
    }
    for (int i = 0; i < 3; i++) {
        if (fds[i] >= 0) {
            close(fds[i]);
        }
    }
    PMIx_tool_finalize();
    return rc;
}

const drover_command_t command_submit = {
    .name = "submit",
    .usage = "[run options] program | job.yml",
    .summary = "queue a job on the daemon; prints its id",
    .run = submit_command,
};

const drover_command_t command_ps = {
    .name = "ps",
    .usage = "[--json]",
    .summary = "the daemon's jobs: state, ranks, times, status",
    .run = ps_command,
};

const drover_command_t command_wait = {
    .name = "wait",
    .usage = "JOB",
    .summary = "wait for a job; exits with its status",
    .run = wait_command,
};

const drover_command_t command_kill = {
    .name = "kill",
    .usage = "JOB [--signal S]",
    .summary = "signal a job (default TERM)",
    .run = kill_command,
};

const drover_command_t command_output = {
    .name = "output",
    .usage = "JOB [--follow] [--rank R] [--tag-output]",
    .summary = "a submitted job's stdout and stderr",
    .run = output_command,
};
