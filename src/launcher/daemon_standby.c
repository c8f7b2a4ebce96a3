/*
 * daemon_standby.c - the daemon's standby run: a `drover run` started
 *   before its job comes, so that the job does not wait for an exec.
 *
 * Design notes:
 *  - The daemon keeps one standby: a child started as a job's run is
 *    (daemon_standby_child_setup: its own process group,
 *    PR_SET_PDEATHSIG, default signals), `drover run` with
 *    DAEMON_STANDBY_ENV naming its end of a socket pair (fd 3). It loads
 *    its libraries, every symbol bound (LD_BIND_NOW, which it then drops:
 *    a command binds each symbol at its first call, which is cheaper for
 *    one that calls few), and the node's topology
 *    (mapping_preload), grows and touches its heap (heap_warm.h) and
 *    makes its first ranks' output pipes (iof.c), then waits for one
 *    message: "job CWD NARGS RUN-ARGS... ENV..." with the job's five or
 *    six fds (stdin, stdout, stderr, report, control, and a submitted
 *    job's output frames): what the daemon would otherwise give the exec
 *    of a run (daemon_jobs.c). It makes them its fds 0-5, its working
 *    directory and its environment and goes on as that run, with those
 *    arguments. The job's pid is the standby's, so waitpid, kill, ps and
 *    the journal see no difference.
 *  - What the standby did before its job must not depend on the job.
 *    The topology does not (--use-hwthread-cpus picks its slot type
 *    later), nor where drover's libpmix is, nor the session
 *    (session_prepare: its directory, cgroup and anchor; the job's
 *    /dev/shm prefix and grace are told to the anchor when the job
 *    comes), nor its event loop, PMIx server (in the session's
 *    directory; its trace hook finds the job's --trace when there is
 *    one) and second launching thread (run_prestart: the fds they open
 *    land above 5, held for the job's); the options are read after the
 *    job came. A session removed while the standby waited takes the
 *    server with it: the job's run starts both anew.
 *    What the dynamic loader, hwloc, the sanitizers and malloc read from
 *    the environment when the process starts does, and where
 *    the session goes (TMPDIR) or whether it has a cgroup (SLURM_JOB_ID):
 *    a job whose environment differs from the daemon's in LD_*, HWLOC_*,
 *    *SAN_OPTIONS, MALLOC_*, GLIBC_TUNABLES, TMPDIR or SLURM_JOB_ID is
 *    started by an exec of its own instead.
 *  - A consumed standby is replaced when a job ends, not when one starts:
 *    the replacement's exec and topology would take a core from the job
 *    being launched. A standby that died before its job is not replaced
 *    until then either, so one that cannot start costs a fork per job,
 *    never a loop; without a standby, jobs are forked and exec'd.
 *  - The standby shows its job as a run of its own would: its command
 *    line and environment (proctitle.c) are written where the kernel shows
 *    them, in room the standby's exec kept for them (a padding argument,
 *    ARGS_ROOM bytes in all, and variable, ENV_SLACK bytes beyond the
 *    daemon's environment). A job that does not fit gets an exec of its
 *    own.
 *  - Its only files are its session's (removed by its anchor should it
 *    be killed). It ends when its socket closes (the daemon stops or drops
 *    it: it removes its session first, and is SIGKILLed if that takes over
 *    DROP_WAIT_MS), or when the daemon dies (PR_SET_PDEATHSIG).
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon.h"
#include "heap_warm.h"
#include "launcher.h"

extern char **environ;

/* The standby's socket, and the fds of its job: 0-2, report, control,
 * and (a submitted job's) output frames. */
#define STANDBY_FD 3
#define JOB_FDS_MIN 5
#define JOB_FDS_MAX 6
/* How long a dropped standby has to end by itself. */
#define DROP_WAIT_MS 1000
/* The room a standby keeps for its job's command line, in all, and for
 * its job's environment, beyond the daemon's; and the variable that
 * keeps the latter. */
#define ARGS_ROOM 8192
#define ENV_SLACK 16384
/* What a standby's heap is grown to before its job comes: what an
 * 8-rank job's run took, 0.45 MiB. */
#define STANDBY_HEAP (512 * 1024)
/* The padding argument's length: with "drover" and "run", ARGS_ROOM. */
#define ARGS_PAD (ARGS_ROOM - sizeof("drover") - sizeof("run") - 1)
#define ROOM_ENV "DROVER_STANDBY_ROOM"
/* The dynamic loader binds every symbol at the exec. */
#define BIND_NOW_ENV "LD_BIND_NOW"

struct daemon_standby {
    char *exe;
    pid_t pid; /* 0: none */
    int sock; /* the daemon's end; -1: none */
    size_t args_room, env_room; /* the standby's, as proctitle_size */
};

daemon_standby_t *daemon_standby_create(const char *exe)
{
    daemon_standby_t *s = calloc(1, sizeof(*s));
    if (NULL == s || NULL == (s->exe = strdup(exe))) {
        free(s);
        return NULL;
    }
    s->sock = -1;
    return s;
}

/* Forget the standby (its process is reaped by the caller). */
static void forget(daemon_standby_t *s)
{
    s->pid = 0;
    if (s->sock >= 0) {
        close(s->sock);
        s->sock = -1;
    }
}

void daemon_standby_destroy(daemon_standby_t *s)
{
    if (NULL == s) {
        return;
    }
    daemon_standby_drop(s);
    free(s->exe);
    free(s);
}

/* Whether pid has ended (and is reaped) within ms milliseconds. */
static bool ended_within(pid_t pid, int ms)
{
    for (int waited = 0; waited <= ms; waited++) {
        pid_t got = waitpid(pid, NULL, WNOHANG);
        if (got == pid || (got < 0 && ECHILD == errno)) {
            return true;
        }
        usleep(1000);
    }
    return false;
}

void daemon_standby_drop(daemon_standby_t *s)
{
    if (s->sock >= 0) {
        /* Its socket's end is its cue: it removes its session and ends. */
        close(s->sock);
        s->sock = -1;
    }
    if (0 != s->pid && !ended_within(s->pid, DROP_WAIT_MS)) {
        kill(s->pid, SIGKILL);
        while (waitpid(s->pid, NULL, 0) < 0 && EINTR == errno) {
        }
    }
    forget(s);
}

bool daemon_standby_reaped(daemon_standby_t *s, pid_t pid)
{
    if (0 == s->pid || pid != s->pid) {
        return false;
    }
    forget(s);
    return true;
}

void daemon_standby_child_setup(pid_t daemon)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != daemon) {
        _exit(LAUNCHER_EXIT_FAILURE);
    }
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    for (int sig = 1; sig < NSIG; sig++) {
        sigaction(sig, &dfl, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

/* ROOM_ENV "=" and ENV_SLACK spaces, made once for the daemon's life (a
 * standby is started after every job); NULL when memory runs out. */
static const char *room_entry(void)
{
    static char *entry;
    static const char name[] = ROOM_ENV "=";
    if (NULL == entry && NULL != (entry = malloc(sizeof(name) + ENV_SLACK))) {
        memcpy(entry, name, sizeof(name) - 1);
        memset(entry + sizeof(name) - 1, ' ', ENV_SLACK);
        entry[sizeof(name) - 1 + ENV_SLACK] = '\0';
    }
    return entry;
}

/* The daemon's environment (its strings borrowed), with the standby's
 * fd, room and binding: NULL when memory runs out. */
static char **standby_env(const char *room)
{
    size_t n = launch_env_count(environ), k = 0;
    char **env = calloc(n + 4, sizeof(*env));
    for (size_t i = 0; NULL != env && i < n; i++) {
        if (0 != strncmp(environ[i], DAEMON_STANDBY_ENV "=", sizeof(DAEMON_STANDBY_ENV)) &&
            0 != strncmp(environ[i], ROOM_ENV "=", sizeof(ROOM_ENV)) &&
            0 != strncmp(environ[i], BIND_NOW_ENV "=", sizeof(BIND_NOW_ENV))) {
            env[k++] = environ[i];
        }
    }
    if (NULL != env) {
        env[k++] = DAEMON_STANDBY_ENV "=3";
        env[k++] = BIND_NOW_ENV "=1";
        env[k] = (char *)room;
    }
    return env;
}

void daemon_standby_fill(daemon_standby_t *s)
{
    if (0 != s->pid) {
        return;
    }
    int sp[2];
    const char *room = room_entry();
    char **with_standby = NULL == room ? NULL : standby_env(room);
    if (NULL == with_standby || 0 != socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sp)) {
        free(with_standby);
        return;
    }
    /* The padding argument: spaces of the room's. */
    char *argv[] = {"drover", "run", (char *)room + strlen(room) - ARGS_PAD, NULL};
    s->args_room = proctitle_size(NULL, argv);
    s->env_room = proctitle_size(NULL, with_standby);
    pid_t daemon = getpid();
    pid_t pid = fork();
    if (0 == pid) {
        daemon_standby_child_setup(daemon);
        /* dup2 onto itself would keep close-on-exec. */
        int fd = STANDBY_FD == sp[1] ? fcntl(sp[1], F_SETFD, 0) : dup2(sp[1], STANDBY_FD);
        if (fd >= 0) {
            execve(s->exe, argv, with_standby);
        }
        _exit(LAUNCHER_EXIT_NOEXEC);
    }
    free(with_standby);
    close(sp[1]);
    if (pid < 0) {
        close(sp[0]);
        return;
    }
    /* A standby that does not read is dropped, not waited for. */
    fcntl(sp[0], F_SETFL, O_NONBLOCK);
    s->pid = pid;
    s->sock = sp[0];
}

/* Is the variable (NAME=value) one the process reads when it starts, or
 * the standby before its job comes (where its session goes, whether it
 * has a cgroup)? */
static bool read_at_start(const char *entry)
{
    static const char *const prefixes[] = {
        "LD_", "HWLOC_", "MALLOC_", "GLIBC_TUNABLES=", "TMPDIR=", "SLURM_JOB_ID="};
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
        if (0 == strncmp(entry, prefixes[i], strlen(prefixes[i]))) {
            return true;
        }
    }
    /* ASAN_OPTIONS, UBSAN_OPTIONS, LSAN_OPTIONS, ... */
    size_t len = strcspn(entry, "=");
    return len >= 11 && 0 == strncmp(entry + len - 11, "SAN_OPTIONS", 11);
}

/* The entries of a that are read at start, all in b. */
static bool start_env_within(char *const *a, char *const *b)
{
    for (; NULL != *a; a++) {
        if (!read_at_start(*a)) {
            continue;
        }
        char *const *e = b;
        while (NULL != *e && 0 != strcmp(*e, *a)) {
            e++;
        }
        if (NULL == *e) {
            return false;
        }
    }
    return true;
}

pid_t daemon_standby_hand(daemon_standby_t *s, const char *cwd, char *const *args, char *const *env,
                          const int *fds, int nfds)
{
    if (0 == s->pid || nfds < JOB_FDS_MIN || nfds > JOB_FDS_MAX ||
        !start_env_within(env, environ) || !start_env_within(environ, env) ||
        proctitle_size("drover", args) > s->args_room || proctitle_size(NULL, env) > s->env_room) {
        return -1;
    }
    size_t nargs = 0, nenv = 0;
    while (NULL != args[nargs]) {
        nargs++;
    }
    while (NULL != env[nenv]) {
        nenv++;
    }
    char count[24];
    snprintf(count, sizeof(count), "%zu", nargs);
    char **words = calloc(3 + nargs + nenv, sizeof(*words));
    if (NULL == words) {
        return -1;
    }
    words[0] = "job";
    words[1] = (char *)cwd;
    words[2] = count;
    memcpy(words + 3, args, nargs * sizeof(*words));
    memcpy(words + 3 + nargs, env, nenv * sizeof(*words));
    int rc = daemon_wire_send(s->sock, words, 3 + nargs + nenv, fds, (size_t)nfds);
    free(words);
    pid_t pid = s->pid;
    if (0 != rc) {
        /* Dead or stuck: not to be tried again. */
        daemon_standby_drop(s);
        return -1;
    }
    forget(s);
    return pid;
}

/* ---- the standby's side ------------------------------------------------ */

/* The job's message: its environment and arguments point into it for
 * the rest of the process's life. */
static wire_msg_t job;
static char **job_argv;
static char **job_env; /* until daemon_standby_show_job */

/* Make the job's fds 0-4 (or 0-5) of this process, and 5 closed if
 * only those. 0 or -1. */
static int take_fds(wire_msg_t *msg)
{
    /* Out of the way first: a received fd may be 0-5 already. */
    int nfds = (int)msg->nfds, moved[JOB_FDS_MAX];
    for (int i = 0; i < nfds; i++) {
        moved[i] = fcntl(msg->fds[i], F_DUPFD_CLOEXEC, 10);
        close(msg->fds[i]);
    }
    msg->nfds = 0;
    int rc = 0;
    for (int i = 0; i < nfds; i++) {
        if (moved[i] < 0 || dup2(moved[i], i) < 0) {
            rc = -1;
        }
        if (moved[i] >= 0) {
            close(moved[i]);
        }
    }
    /* What hold_job_fds held and the job does not fill (else free). */
    for (int fd = nfds; fd < JOB_FDS_MAX; fd++) {
        close(fd);
    }
    return rc;
}

/* "job CWD NARGS ARGS... ENV..." with its fds, ARGS starting with "run". */
static bool well_formed(const wire_msg_t *msg, size_t *nargs)
{
    char *end;
    if (msg->nwords < 4 || 0 != strcmp(msg->words[0], "job") || msg->nfds < JOB_FDS_MIN ||
        msg->nfds > JOB_FDS_MAX) {
        return false;
    }
    unsigned long n = strtoul(msg->words[2], &end, 10);
    *nargs = (size_t)n;
    return '\0' == *end && n > 0 && n <= msg->nwords - 3 && 0 == strcmp(msg->words[3], "run");
}

/* The session made ahead, out of reach of PR_SET_PDEATHSIG: killed between
 * making its directory and forking its anchor (which removes it), the
 * standby would leave the directory behind, and a daemon that dies does
 * kill its new standby at once. Whether the daemon is still there. */
static bool prepare_session(void)
{
    pid_t daemon = getppid();
    prctl(PR_SET_PDEATHSIG, 0);
    (void)session_prepare(0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    return getppid() == daemon;
}

/* No job will come: the session made for one goes now, the daemon's death
 * signal off. That signal may still be on its way (a dying daemon's socket
 * closes before its children are signalled): killed between its anchor's
 * end and the directory's removal, the standby would leave the directory
 * behind (seen under ASan, whose slower start widens the window). */
static int no_job(int status)
{
    prctl(PR_SET_PDEATHSIG, 0);
    run_unprestart();
    session_unprepare();
    return status;
}

/* The job's fds will be 0-5: what the standby opens before its job
 * (run_prestart's loop and server) must land above them, so 3-5 are held
 * (by /dev/null) until take_fds puts the job's there. Whether they are. */
static bool hold_job_fds(void)
{
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    bool held = null >= 0;
    for (int fd = STANDBY_FD; held && fd < JOB_FDS_MAX; fd++) {
        held = fd == null || fcntl(fd, F_GETFD) >= 0 || dup3(null, fd, O_CLOEXEC) == fd;
    }
    if (null >= JOB_FDS_MAX) {
        close(null);
    }
    return held;
}

void daemon_standby_show_job(void)
{
    if (NULL != job_env) {
        (void)proctitle_show("drover", job_argv, job_env);
        job_env = NULL;
    }
}

int daemon_standby_take_job(int *argc, char ***argv)
{
    const char *fd = getenv(DAEMON_STANDBY_ENV);
    if (NULL == fd) {
        return -1;
    }
    bool ours = 0 == strcmp(fd, "3");
    unsetenv(DAEMON_STANDBY_ENV);
    unsetenv(BIND_NOW_ENV);
    /* Until its job comes, a standby is `drover run`. */
    unsetenv(ROOM_ENV);
    (void)proctitle_show("drover", (char *[]){"run", NULL}, NULL);
    int sock = ours ? fcntl(STANDBY_FD, F_DUPFD_CLOEXEC, 10) : -1;
    if (sock < 0) {
        fprintf(stderr, LAUNCHER_NAME ": " DAEMON_STANDBY_ENV " is for the daemon's own runs\n");
        return LAUNCHER_EXIT_FAILURE;
    }
    close(STANDBY_FD);
    /* A failure is said by the job's run, which loads it again; or makes
     * its session, or finds drover's libpmix (cached), then. */
    (void)mapping_preload();
    if (!prepare_session()) {
        close(sock);
        return no_job(0);
    }
    (void)launch_libpmix_dir();
    if (hold_job_fds() && NULL != session_prepared_dir()) {
        (void)run_prestart(session_prepared_dir());
        /* Above the fds held for the job's. */
        iof_pipes_ahead(2 * STANDBY_RANKS_AHEAD);
    }
    /* The heap a job's run grows to before its ranks start, grown and
     * touched while waiting (the server's thread did its own), and kept:
     * trimmed only beyond twice that. */
    mallopt(M_TRIM_THRESHOLD, 2 * STANDBY_HEAP);
    heap_warm(STANDBY_HEAP);
    int rc = daemon_wire_recv(sock, &job);
    int err = errno;
    close(sock);
    size_t nargs;
    if (1 == rc) {
        /* The daemon stopped, or dropped this standby. */
        return no_job(0);
    }
    if (0 != rc || !well_formed(&job, &nargs) ||
        NULL == (job_argv = calloc(nargs + 1, sizeof(*job_argv)))) {
        fprintf(stderr, LAUNCHER_NAME ": no job came from the daemon: %s\n",
                0 != rc ? strerror(err) : "malformed");
        daemon_wire_release(&job);
        return no_job(LAUNCHER_EXIT_FAILURE);
    }
    if (0 != take_fds(&job)) {
        return no_job(LAUNCHER_EXIT_FAILURE);
    }
    if (0 != chdir(job.words[1])) {
        fprintf(stderr, DAEMON_NAME ": cannot enter the job's working directory\n");
        return no_job(LAUNCHER_EXIT_FAILURE);
    }
    memcpy(job_argv, job.words + 3, nargs * sizeof(*job_argv));
    environ = job_env = job.words + 3 + nargs;
    *argc = (int)nargs;
    *argv = job_argv;
    return -1;
}
