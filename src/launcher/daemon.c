/*
 * daemon.c - `drover daemon start|stop|status`, and the daemon itself.
 *
 * Design notes:
 *  - One daemon per user per node: it holds an flock on daemon.lock in
 *    the state directory for as long as it lives. A lock that can be taken
 *    means whoever made the socket and pid file is dead (even by SIGKILL,
 *    the kernel drops the lock): a new daemon replaces them.
 *  - `start` forks the daemon, which sets everything up and says "ready"
 *    through a pipe, so that `start` returns once the socket answers, or
 *    fails with the daemon's own message. --foreground stays in the
 *    process, for service managers. Either way the log is daemon.log.
 *  - Every connection's peer credentials are checked before anything is
 *    read: another uid, root included, is refused and the refusal logged.
 *  - Job history and INDEF publications are written to the journal
 *    (daemon_journal.c) before the request is answered, and come back
 *    when a daemon starts: jobs that were running then are "lost". The
 *    journal's thread puts them on disk; the loop never waits for that.
 *  - Two sockets: the daemon's own (daemon.sock) for `daemon status`,
 *    `stop` and `run --daemon`, which hands over file descriptors; and the
 *    PMIx server's (daemon_pmix.c) for the tools: submit, ps, wait, kill,
 *    output and any PMIx tool of the user.
 *  - One request per connection of the daemon's socket. A `run`
 *    connection stays open until its job ends; so does `stop`, answered
 *    once every job has ended (SIGTERM, then SIGKILL after the grace) and
 *    every file the daemon made is gone, but for what the next daemon
 *    takes over: the journal and the jobs' directories (daemon_output.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event2/event.h>

#include "command.h"
#include "daemon.h"
#include "launcher.h"
#include "rmtree.h"

#define DEFAULT_GRACE 10.0
#define REQUEST_TIMEOUT_SECONDS 5

typedef struct daemon daemon_t;

typedef enum { CONN_RUN, CONN_STOP } conn_kind_t;

/* A connection kept open for a later answer. */
typedef struct conn {
    struct conn *next;
    daemon_t *d;
    int fd;
    conn_kind_t kind;
    unsigned job;
    struct event *ev;     /* the peer's messages and hang-up */
} conn_t;

struct daemon {
    char dir[PATH_MAX];
    int dirfd;
    int lockfd;
    int listenfd;
    int logfd;
    double grace;
    struct event_base *base;
    struct event *listen_ev;
    struct event *signals[4];
    struct event *grace_timer;
    daemon_jobs_t *jobs;
    daemon_store_t *store;
    daemon_journal_t *journal;
    char nspace[DAEMON_NSPACE_MAX];  /* the PMIx server's; jobs' are <it>.<id> */
    conn_t *conns;
    bool stopping;
    bool finished;
};

static void note(daemon_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool parse_uint(const char *s, unsigned long max, unsigned long *out);

static void note(daemon_t *d, const char *fmt, ...)
{
    if (d->logfd < 0) {
        return;
    }
    char line[1024];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    size_t n = strftime(line, sizeof(line), "%Y-%m-%dT%H:%M:%SZ ", &tm);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
    va_end(ap);
    n = m < 0 ? n : n + ((size_t)m < sizeof(line) - n - 1 ? (size_t)m : sizeof(line) - n - 2);
    line[n++] = '\n';
    (void)!write(d->logfd, line, n);
}

/* ---- ending ------------------------------------------------------------ */

static void conn_free(conn_t *c)
{
    for (conn_t **p = &c->d->conns; NULL != *p; p = &(*p)->next) {
        if (*p == c) {
            *p = c->next;
            break;
        }
    }
    if (NULL != c->ev) {
        event_free(c->ev);
    }
    if (c->fd >= 0) {
        close(c->fd);
    }
    free(c);
}

/* Everything is over: remove what the daemon made, then answer `stop`. */
static void finish(daemon_t *d)
{
    if (d->finished) {
        return;
    }
    d->finished = true;
    note(d, "stopped");
    daemon_pmix_stop(d->dirfd);
    unlinkat(d->dirfd, DAEMON_SOCKET, 0);
    unlinkat(d->dirfd, DAEMON_PIDFILE, 0);
    unlinkat(d->dirfd, DAEMON_LOGFILE, 0);
    /* The journal and the jobs' kept directories stay for the next
     * daemon, unless they hold nothing (then the directory goes too). */
    rmtree_at(d->dirfd, DAEMON_JOBS, geteuid(), false);
    struct stat st;
    if (0 == fstatat(d->dirfd, DAEMON_JOURNAL, &st, AT_SYMLINK_NOFOLLOW) && 0 == st.st_size) {
        unlinkat(d->dirfd, DAEMON_JOURNAL, 0);
    }
    /* Still holding the lock: a new daemon checks it locked the file that
     * is in place. */
    unlinkat(d->dirfd, DAEMON_LOCKFILE, 0);
    rmdir(d->dir);
    while (NULL != d->conns) {
        conn_t *c = d->conns;
        if (CONN_STOP == c->kind) {
            daemon_wire_sendv(c->fd, "ok", NULL);
            /* Left open: `stop` returns when it closes, at the daemon's
             * exit. */
            c->fd = -1;
        }
        conn_free(c);
    }
    event_base_loopbreak(d->base);
}

static void job_output(void *arg, unsigned id, const daemon_output_piece_t *piece)
{
    daemon_pmix_output(id, piece);
}

static void journal_job(daemon_t *d, unsigned id);

static void tool_spawned(void *arg, unsigned id, const char *why)
{
    if (0 == id) {
        note(arg, "refused a tool's spawn: %s", why);
    } else {
        note(arg, "job %u queued by a tool", id);
        journal_job(arg, id);
    }
}

static void on_grace(evutil_socket_t fd, short what, void *arg)
{
    daemon_t *d = arg;
    note(d, "grace period over: killing what is left");
    daemon_jobs_end_all(d->jobs, SIGKILL);
}

static void begin_stop(daemon_t *d, const char *why)
{
    if (d->stopping) {
        return;
    }
    d->stopping = true;
    daemon_pmix_refuse_spawns();
    note(d, "stopping (%s): ending %u jobs", why, daemon_jobs_active(d->jobs));
    if (0 == daemon_jobs_end_all(d->jobs, SIGTERM)) {
        finish(d);
        return;
    }
    double g = d->grace;
    struct timeval tv = {(time_t)g, (suseconds_t)((g - floor(g)) * 1e6)};
    evtimer_add(d->grace_timer, &tv);
}

/* ---- the journal ------------------------------------------------------- */

/* "job ID RANKS START END STATUS SIGNALLED COMMAND" (STATUS -1: not
 * ended). fd >= 0: into a compacted journal. */
static int job_record(daemon_t *d, unsigned id, int fd, size_t *size)
{
    daemon_job_info_t info;
    if (!daemon_jobs_info(d->jobs, id, &info)) {
        return 0;
    }
    char sid[16], ranks[16], start[24], end[24], status[16];
    snprintf(sid, sizeof(sid), "%u", id);
    snprintf(ranks, sizeof(ranks), "%u", info.ranks);
    snprintf(start, sizeof(start), "%lld", (long long)info.start);
    snprintf(end, sizeof(end), "%lld", (long long)info.end);
    snprintf(status, sizeof(status), "%d", info.lost ? -1 : info.status);
    char *words[] = {"job", sid, ranks, start, end, status, info.signalled ? "1" : "0",
                     (char *)info.command};
    return fd >= 0 ? daemon_journal_write(fd, size, words, 8)
                   : daemon_journal_append(d->journal, words, 8);
}

static int live_records(void *arg, int fd, size_t *size)
{
    daemon_t *d = arg;
    for (unsigned id = 1; id <= daemon_jobs_count(d->jobs); id++) {
        if (0 != job_record(d, id, fd, size)) {
            return -1;
        }
    }
    return daemon_store_dump(d->store, fd, size);
}

static void journal_job(daemon_t *d, unsigned id)
{
    if (NULL == d->journal) {
        return;
    }
    if (0 != job_record(d, id, -1, NULL)) {
        note(d, "job %u: cannot write the journal: %s", id, strerror(errno));
    }
    if (daemon_journal_wants_compaction(d->journal) &&
        0 != daemon_journal_compact(d->journal, live_records, d)) {
        note(d, "cannot compact the journal: %s", strerror(errno));
    }
}

static bool parse_number(const char *s, long long min, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || '\0' != *end || 0 != errno || v < min) {
        return false;
    }
    *out = v;
    return true;
}

static void replayed(void *arg, char *const *words, size_t nwords)
{
    daemon_t *d = arg;
    unsigned long id, ranks;
    long long start, end, status;
    if (8 != nwords || 0 != strcmp(words[0], "job")) {
        daemon_store_replay(d->store, words, nwords);
    } else if (parse_uint(words[1], UINT32_MAX, &id) && id > 0 &&
               parse_uint(words[2], UINT32_MAX, &ranks) && parse_number(words[3], 0, &start) &&
               parse_number(words[4], 0, &end) && parse_number(words[5], -1, &status) &&
               status <= 255) {
        daemon_job_info_t info = {.ranks = (unsigned)ranks, .start = (time_t)start,
                                  .end = (time_t)end, .status = (int)status,
                                  .signalled = 0 == strcmp(words[6], "1"), .command = words[7]};
        if (0 != daemon_jobs_restore(d->jobs, (unsigned)id, &info)) {
            note(d, "journal: cannot restore job %lu", id);
        }
    } else {
        note(d, "journal: ignored a malformed job record");
    }
}

/* The `run --daemon` commands of job id get its exit status. */
static void answer_runs(daemon_t *d, unsigned id, int status)
{
    char text[16];
    snprintf(text, sizeof(text), "%d", status);
    for (conn_t *c = d->conns, *next; NULL != c; c = next) {
        next = c->next;
        if (CONN_STOP != c->kind && c->job == id) {
            daemon_wire_sendv(c->fd, "exit", text, NULL);
            conn_free(c);
        }
    }
}

/* The job's run said its exit status before its teardown: its command
 * need not wait for that. The job ends when the run is reaped. */
static void job_exited(void *arg, unsigned id, int status)
{
    answer_runs(arg, id, status);
}

static void job_ended(void *arg, unsigned id, int status)
{
    daemon_t *d = arg;
    note(d, "job %u ended with status %d", id, status);
    daemon_store_job_ended(d->store, id);
    daemon_connect_job_ended(id);
    journal_job(d, id);
    daemon_pmix_job_ended(id, status);
    answer_runs(d, id, status);
    if (d->stopping && 0 == daemon_jobs_active(d->jobs)) {
        finish(d);
    }
}

/* ---- requests ---------------------------------------------------------- */

static void reply_error(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void reply_error(int fd, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    daemon_wire_sendv(fd, "error", text, NULL);
}

static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (s[0] < '0' || s[0] > '9' || '\0' != *end || 0 != errno || v > max) {
        return false;
    }
    *out = v;
    return true;
}

/* What the peer of a kept connection sends: a signal for its run, or
 * end of file (it is gone). */
static void on_conn(evutil_socket_t fd, short what, void *arg)
{
    conn_t *c = arg;
    daemon_t *d = c->d;
    wire_msg_t msg;
    int rc = daemon_wire_recv(c->fd, &msg);
    unsigned long sig;
    const char *why;
    if (0 == rc && CONN_RUN == c->kind && 2 == msg.nwords && 0 == strcmp(msg.words[0], "signal") &&
        parse_uint(msg.words[1], NSIG - 1, &sig) && sig > 0) {
        note(d, "job %u: passing on signal %lu from its drover run", c->job, sig);
        daemon_jobs_signal(d->jobs, c->job, (int)sig, &why);
    } else if (0 != rc || CONN_RUN == c->kind) {
        unsigned job = c->job;
        bool orphaned = CONN_RUN == c->kind && 0 != rc;
        /* First: ending a queued job answers its connections at once. */
        conn_free(c);
        if (orphaned) {
            /* As a standalone run, the job does not outlive its command. */
            note(d, "job %u: its drover run went away; ending the job", job);
            daemon_jobs_signal(d->jobs, job, SIGTERM, &why);
        }
    }
    if (0 == rc) {
        daemon_wire_release(&msg);
    }
}

static void keep(daemon_t *d, int fd, conn_kind_t kind, unsigned job)
{
    conn_t *c = calloc(1, sizeof(*c));
    if (NULL == c) {
        close(fd);
        return;
    }
    *c = (conn_t){.next = d->conns, .d = d, .fd = fd, .kind = kind, .job = job};
    d->conns = c;
    c->ev = event_new(d->base, fd, EV_READ | EV_PERSIST, on_conn, c);
    if (NULL != c->ev) {
        event_add(c->ev, NULL);
    }
}

/* run CWD NARGS ARGS... ENV..., with 3 fds. Returns whether the
 * connection stays. */
static bool run_request(daemon_t *d, int fd, wire_msg_t *msg)
{
    unsigned long nargs;
    if (msg->nwords < 4 || !parse_uint(msg->words[2], msg->nwords - 3, &nargs) || 0 == nargs ||
        3 != msg->nfds) {
        reply_error(fd, "malformed %s request", msg->words[0]);
        return false;
    }
    if (d->stopping) {
        reply_error(fd, "the daemon is stopping");
        return false;
    }
    const char *why;
    unsigned id = daemon_jobs_submit(d->jobs, msg->words[1], msg->words + 3, nargs,
                                     msg->words + 3 + nargs, msg->fds, &why);
    if (0 == id) {
        reply_error(fd, "cannot queue the job: %s", why);
        return false;
    }
    note(d, "job %u queued (run --daemon)", id);
    journal_job(d, id);
    char text[16];
    snprintf(text, sizeof(text), "%u", id);
    daemon_wire_sendv(fd, "ok", text, NULL);
    if (daemon_jobs_status(d->jobs, id) < 0) {
        keep(d, fd, CONN_RUN, id);
        return true;
    }
    /* It could not even start. */
    snprintf(text, sizeof(text), "%d", daemon_jobs_status(d->jobs, id));
    daemon_wire_sendv(fd, "exit", text, NULL);
    return false;
}

static void handle(daemon_t *d, int fd, wire_msg_t *msg)
{
    const char *verb = msg->words[0];
    bool kept = false;
    if (0 == strcmp(verb, "status")) {
        char pid[16], active[16];
        snprintf(pid, sizeof(pid), "%d", (int)getpid());
        snprintf(active, sizeof(active), "%u", daemon_jobs_active(d->jobs));
        daemon_wire_sendv(fd, "ok", pid, active, d->dir, NULL);
    } else if (0 == strcmp(verb, "stop")) {
        keep(d, fd, CONN_STOP, 0);
        kept = true;
        begin_stop(d, "drover daemon stop");
    } else if (0 == strcmp(verb, "run")) {
        kept = run_request(d, fd, msg);
    } else if (daemon_store_verb(verb) || 0 == strcmp(verb, "modex") || daemon_connect_verb(verb)) {
        /* From a job's run: its job must be running. */
        unsigned long id;
        if (msg->nwords < 2 || !parse_uint(msg->words[1], UINT32_MAX, &id) ||
            -1 != daemon_jobs_status(d->jobs, (unsigned)id)) {
            reply_error(fd, "%s: no such running job", verb);
        } else if (0 == strcmp(verb, "modex")) {
            kept = daemon_modex_request(d->jobs, d->base, fd, msg->words, msg->nwords);
        } else if (daemon_connect_verb(verb)) {
            kept = daemon_connect_request(d->jobs, d->base, fd, msg->words, msg->nwords);
        } else {
            kept = daemon_store_request(d->store, fd, (unsigned)id, msg->words, msg->nwords);
        }
    } else {
        reply_error(fd, "unknown request '%s'", verb);
    }
    if (!kept) {
        close(fd);
    }
}

static void on_accept(evutil_socket_t lfd, short what, void *arg)
{
    daemon_t *d = arg;
    int fd = accept4((int)lfd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) {
        return;
    }
    uid_t uid;
    pid_t pid;
    if (0 != daemon_wire_peer(fd, &uid, &pid)) {
        note(d, "refused a connection: cannot read its credentials: %s", strerror(errno));
        close(fd);
        return;
    }
    if (uid != geteuid()) {
        note(d, "refused a connection from uid %u (pid %d): not the daemon's user (uid %u)",
              (unsigned)uid, (int)pid, (unsigned)geteuid());
        reply_error(fd, "refused: uid %u is not the daemon's user", (unsigned)uid);
        /* Unread data at close would reset the connection, losing the
         * answer: drop what has come, without waiting for more. */
        char drain[4096];
        while (recv(fd, drain, sizeof(drain), MSG_DONTWAIT) > 0) {
        }
        close(fd);
        return;
    }
    /* A request comes at once; a silent peer does not hold the daemon. */
    struct timeval tv = {REQUEST_TIMEOUT_SECONDS, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    wire_msg_t msg;
    if (0 != daemon_wire_recv(fd, &msg) || 0 == msg.nwords) {
        note(d, "dropped a connection from pid %d: no valid request", (int)pid);
        if (NULL != msg.words) {
            daemon_wire_release(&msg);
        }
        close(fd);
        return;
    }
    handle(d, fd, &msg);
    daemon_wire_release(&msg);
}

/* ---- the daemon's loop ------------------------------------------------- */

static void on_signal(evutil_socket_t sig, short what, void *arg)
{
    daemon_t *d = arg;
    if (SIGCHLD == sig) {
        daemon_jobs_reap(d->jobs);
    } else {
        begin_stop(d, strsignal((int)sig));
    }
}

/* Take the lock, or say who holds it. 0 or -1. */
static int take_lock(daemon_t *d)
{
    for (int tries = 0; tries < 10; tries++) {
        int fd = openat(d->dirfd, DAEMON_LOCKFILE, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0) {
            fprintf(stderr, DAEMON_NAME ": cannot open %s/" DAEMON_LOCKFILE ": %s\n", d->dir,
                    strerror(errno));
            return -1;
        }
        if (0 != flock(fd, LOCK_EX | LOCK_NB)) {
            char pid[32] = "";
            int pfd = openat(d->dirfd, DAEMON_PIDFILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
            if (pfd >= 0) {
                ssize_t n = read(pfd, pid, sizeof(pid) - 1);
                pid[n > 0 ? n : 0] = '\0';
                pid[strcspn(pid, "\n")] = '\0';
                close(pfd);
            }
            fprintf(stderr, DAEMON_NAME ": already running (pid %s, %s)\n",
                    '\0' != pid[0] ? pid : "?", d->dir);
            close(fd);
            return -1;
        }
        struct stat held, now;
        if (0 == fstat(fd, &held) && 0 == fstatat(d->dirfd, DAEMON_LOCKFILE, &now,
                                                  AT_SYMLINK_NOFOLLOW) &&
            held.st_ino == now.st_ino && held.st_dev == now.st_dev) {
            d->lockfd = fd;
            return 0;
        }
        /* A stopping daemon removed it meanwhile: take the new one. */
        close(fd);
    }
    fprintf(stderr, DAEMON_NAME ": cannot take %s/" DAEMON_LOCKFILE "\n", d->dir);
    return -1;
}

static bool stale_server(void *arg, const char *name)
{
    return 0 == strncmp(name, "drover-server.", strlen("drover-server."));
}

/* The PMIx server directories (drover-server.*) of a dead daemon. */
static void remove_stale_servers(daemon_t *d)
{
    daemon_dir_remove_if(d->dirfd, ".", stale_server, NULL);
}

/* Replace what a dead daemon left, and listen. 0 or -1 after a message. */
static int set_up(daemon_t *d)
{
    if (0 != take_lock(d)) {
        return -1;
    }
    d->logfd = openat(d->dirfd, DAEMON_LOGFILE,
                      O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (d->logfd < 0) {
        fprintf(stderr, DAEMON_NAME ": cannot open the log %s/" DAEMON_LOGFILE ": %s\n", d->dir,
                strerror(errno));
        return -1;
    }
    struct stat st;
    if (0 == fstatat(d->dirfd, DAEMON_SOCKET, &st, AT_SYMLINK_NOFOLLOW) ||
        0 == fstatat(d->dirfd, DAEMON_PIDFILE, &st, AT_SYMLINK_NOFOLLOW)) {
        note(d, "replacing the socket and pid file of a daemon that is gone");
    }
    unlinkat(d->dirfd, DAEMON_SOCKET, 0);
    unlinkat(d->dirfd, DAEMON_PIDFILE, 0);
    remove_stale_servers(d);
    /* The jobs' directories stay: those the journal knows are kept. */
    if (0 != daemon_output_dir(d->dirfd)) {
        fprintf(stderr, DAEMON_NAME ": cannot create %s/" DAEMON_JOBS ": %s\n", d->dir,
                strerror(errno));
        return -1;
    }
    struct sockaddr_un sa;
    if (0 != daemon_dir_socket(&sa, d->dir)) {
        fprintf(stderr, DAEMON_NAME ": the socket's path is too long (%s)\n", d->dir);
        return -1;
    }
    d->listenfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    mode_t old = umask(077);
    int rc = d->listenfd < 0 ? -1 : bind(d->listenfd, (struct sockaddr *)&sa, sizeof(sa));
    umask(old);
    if (0 != rc || 0 != listen(d->listenfd, 128)) {
        fprintf(stderr, DAEMON_NAME ": cannot listen on %s: %s\n", sa.sun_path, strerror(errno));
        return -1;
    }
    return 0;
}

static int write_pidfile(daemon_t *d)
{
    int fd = openat(d->dirfd, DAEMON_PIDFILE,
                    O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        return -1;
    }
    char pid[32];
    int n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
    int rc = n == write(fd, pid, (size_t)n) ? 0 : -1;
    close(fd);
    return rc;
}

static int set_up_loop(daemon_t *d, unsigned max_jobs)
{
    static const int sigs[4] = {SIGCHLD, SIGTERM, SIGINT, SIGHUP};
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0) {
        fprintf(stderr, DAEMON_NAME ": cannot find the drover executable\n");
        return -1;
    }
    exe[n] = '\0';
    snprintf(d->nspace, sizeof(d->nspace), "drover-daemon.%d", (int)getpid());
    if (NULL == (d->base = event_base_new()) ||
        NULL == (d->jobs = daemon_jobs_create(d->base, d->dirfd, exe, d->nspace, max_jobs,
                                              job_ended, job_exited, job_output, d)) ||
        NULL == (d->store = daemon_store_create(d->base, &d->journal)) ||
        NULL == (d->grace_timer = evtimer_new(d->base, on_grace, d)) ||
        NULL == (d->listen_ev = event_new(d->base, d->listenfd, EV_READ | EV_PERSIST, on_accept,
                                          d)) ||
        0 != event_add(d->listen_ev, NULL)) {
        fprintf(stderr, DAEMON_NAME ": cannot set up the event loop\n");
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        if (NULL == (d->signals[i] = evsignal_new(d->base, sigs[i], on_signal, d)) ||
            0 != evsignal_add(d->signals[i], NULL)) {
            fprintf(stderr, DAEMON_NAME ": cannot watch signals\n");
            return -1;
        }
    }
    /* Before the journal's and the server's threads: room for the
     * descriptors of max_jobs jobs' connections, pipes and tools
     * (limits.c says why). */
    limits_reserve(max_jobs * 2);
    size_t dropped = 0;
    if (NULL == (d->journal = daemon_journal_open(d->dirfd, replayed, d, &dropped))) {
        fprintf(stderr, DAEMON_NAME ": cannot open %s/" DAEMON_JOURNAL ": %s\n", d->dir,
                strerror(errno));
        return -1;
    }
    if (dropped > 0) {
        note(d, "journal: ignored a torn last record (%zu bytes)", dropped);
    }
    if (daemon_jobs_count(d->jobs) > 0) {
        note(d, "journal: %u jobs of earlier daemons", daemon_jobs_count(d->jobs));
    }
    /* The pid file first: whoever sees the socket may look for it. */
    if (0 != write_pidfile(d)) {
        fprintf(stderr, DAEMON_NAME ": cannot write %s/" DAEMON_PIDFILE "\n", d->dir);
        return -1;
    }
    daemon_jobs_keep_restored(d->jobs);
    daemon_pmix_host_t host = {.jobs = d->jobs, .dir = d->dir, .logfd = d->logfd,
                               .spawned = tool_spawned, .arg = d};
    return daemon_pmix_start(&host, d->base, d->dirfd, d->nspace);
}

static void tear_down(daemon_t *d)
{
    if (d->dirfd >= 0) {
        daemon_pmix_stop(d->dirfd);
    }
    while (NULL != d->conns) {
        conn_free(d->conns);
    }
    for (int i = 0; i < 4; i++) {
        if (NULL != d->signals[i]) {
            event_free(d->signals[i]);
        }
    }
    if (NULL != d->listen_ev) {
        event_free(d->listen_ev);
    }
    if (NULL != d->grace_timer) {
        event_free(d->grace_timer);
    }
    daemon_modex_cancel();
    daemon_connect_cancel();
    daemon_store_destroy(d->store);
    daemon_journal_close(d->journal);
    daemon_jobs_destroy(d->jobs);
    if (NULL != d->base) {
        event_base_free(d->base);
    }
    const int fds[] = {d->listenfd, d->logfd, d->lockfd, d->dirfd};
    for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
        if (fds[i] >= 0) {
            close(fds[i]);
        }
    }
}

/* The daemon's life. ready_fd (-1 in the foreground) is told once the
 * socket listens; until then errors go to stderr. */
static int serve(daemon_t *d, unsigned max_jobs, int ready_fd)
{
    signal(SIGPIPE, SIG_IGN);
    if (0 != set_up(d) || 0 != set_up_loop(d, max_jobs)) {
        tear_down(d);
        return 1;
    }
    note(d, "started (pid %d, at most %u jobs at once)", (int)getpid(), max_jobs);
    if (ready_fd >= 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            close(null);
        }
        /* What a job's run cannot say elsewhere ends up in the log. */
        dup2(d->logfd, 2);
        (void)!write(ready_fd, "r", 1);
        close(ready_fd);
    } else {
        printf(DAEMON_NAME ": running (pid %d, %s)\n", (int)getpid(), d->dir);
        fflush(stdout);
    }
    daemon_jobs_prepare(d->jobs);
    event_base_dispatch(d->base);
    tear_down(d);
    return 0;
}

/* ---- the command ------------------------------------------------------- */

static int start(bool foreground, unsigned max_jobs, double grace)
{
    daemon_t d = {.dirfd = -1, .lockfd = -1, .listenfd = -1, .logfd = -1, .grace = grace};
    d.dirfd = daemon_dir_open(d.dir, true, DAEMON_NAME);
    if (d.dirfd < 0) {
        return 1;
    }
    if (foreground) {
        return serve(&d, max_jobs, -1);
    }
    int pipefd[2];
    if (0 != pipe2(pipefd, O_CLOEXEC)) {
        fprintf(stderr, DAEMON_NAME ": cannot make a pipe: %s\n", strerror(errno));
        close(d.dirfd);
        return 1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (0 == pid) {
        close(pipefd[0]);
        setsid();
        _exit(serve(&d, max_jobs, pipefd[1]));
    }
    close(pipefd[1]);
    close(d.dirfd);
    char ready;
    ssize_t n = pid < 0 ? -1 : read(pipefd[0], &ready, 1);
    close(pipefd[0]);
    if (1 != n) {
        if (pid > 0) {
            waitpid(pid, NULL, 0);
        }
        return 1;
    }
    printf(DAEMON_NAME ": started (pid %d, %s)\n", (int)pid, d.dir);
    return 0;
}

static int ask(const char *verb)
{
    int sock = daemon_connect(DAEMON_NAME);
    if (sock < 0) {
        return 1;
    }
    wire_msg_t reply;
    int rc = 1;
    if (0 != daemon_wire_sendv(sock, verb, NULL) || 0 != daemon_wire_recv(sock, &reply)) {
        fprintf(stderr, DAEMON_NAME ": no answer from the daemon\n");
    } else {
        if (0 == strcmp(verb, "status") && 4 == reply.nwords && 0 == strcmp(reply.words[0], "ok")) {
            printf(DAEMON_NAME ": running (pid %s, %s jobs active, %s)\n", reply.words[1],
                   reply.words[2], reply.words[3]);
            rc = 0;
        } else if (0 == strcmp(verb, "stop") && 1 == reply.nwords &&
                   0 == strcmp(reply.words[0], "ok")) {
            /* The daemon closes the connection by exiting. */
            char byte;
            while (read(sock, &byte, 1) > 0) {
            }
            printf(DAEMON_NAME ": stopped\n");
            rc = 0;
        } else {
            fprintf(stderr, DAEMON_NAME ": %s\n",
                    reply.nwords > 1 ? reply.words[1] : "unexpected answer");
        }
        daemon_wire_release(&reply);
    }
    close(sock);
    return rc;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: drover daemon start [--foreground] [--max-jobs N] [--grace SEC]\n"
                 "       drover daemon stop\n"
                 "       drover daemon status\n\n"
                 "The user's drover daemon runs jobs for drover submit and drover run --daemon.\n"
                 "  --foreground   stay in the foreground (for service managers)\n"
                 "  --max-jobs N   run at most N jobs at once; the others wait (default: twice\n"
                 "                 the number of CPUs)\n"
                 "  --grace SEC    on stop, seconds from SIGTERM to SIGKILL (default 10)\n");
}

static int daemon_command(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return LAUNCHER_EXIT_USAGE;
    }
    const char *verb = argv[1];
    if (0 == strcmp(verb, "-h") || 0 == strcmp(verb, "--help")) {
        usage(stdout);
        return 0;
    }
    if ((0 == strcmp(verb, "stop") || 0 == strcmp(verb, "status")) && 2 == argc) {
        return ask(verb);
    }
    if (0 != strcmp(verb, "start")) {
        fprintf(stderr, DAEMON_NAME ": unknown command '%s' (start, stop or status)\n", verb);
        return LAUNCHER_EXIT_USAGE;
    }
    bool foreground = false;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned long max_jobs = cpus > 0 ? 2 * (unsigned long)cpus : 2;
    double grace = DEFAULT_GRACE;
    for (int i = 2; i < argc; i++) {
        char *end;
        if (0 == strcmp(argv[i], "--foreground")) {
            foreground = true;
        } else if (0 == strcmp(argv[i], "--max-jobs") && i + 1 < argc) {
            if (!parse_uint(argv[++i], 65535, &max_jobs) || 0 == max_jobs) {
                fprintf(stderr, DAEMON_NAME ": --max-jobs wants a number from 1 to 65535, "
                                "not '%s'\n", argv[i]);
                return LAUNCHER_EXIT_USAGE;
            }
        } else if (0 == strcmp(argv[i], "--grace") && i + 1 < argc) {
            grace = strtod(argv[++i], &end);
            if (end == argv[i] || '\0' != *end || !(grace >= 0 && grace <= 3600)) {
                fprintf(stderr, DAEMON_NAME ": --grace wants seconds from 0 to 3600, not '%s'\n",
                        argv[i]);
                return LAUNCHER_EXIT_USAGE;
            }
        } else {
            fprintf(stderr, DAEMON_NAME ": unknown or incomplete option '%s' (try 'drover "
                            "daemon -h')\n", argv[i]);
            return LAUNCHER_EXIT_USAGE;
        }
    }
    return start(foreground, (unsigned)max_jobs, grace);
}

const drover_command_t command_daemon = {
    .name = "daemon",
    .usage = "start|stop|status",
    .summary = "the user's job daemon on this node",
    .run = daemon_command,
};
