/*
 * daemon_client.c - `drover run --daemon`, and the run's side of a
 *   daemon's job (its report of its ranks, its debugger traffic).
 *
 * Design notes:
 *  - run --daemon is one request on one connection of the daemon's own
 *    protocol (daemon_wire.c; daemon_connect checks the state directory
 *    and the daemon's uid first), not a PMIx tool's: it hands over file
 *    descriptors, which PMIx cannot carry. The job gets the command's
 *    arguments (already checked by `drover run`), working directory and
 *    environment. The other commands are PMIx tools (daemon_tools.c).
 *  - run --daemon hands its stdin, stdout and stderr to the daemon, which
 *    runs the job on them: output needs no forwarding. INT, TERM and HUP
 *    it receives are passed to the job; it exits with the job's status, or
 *    by the same signal when the job ended by the one it was sent, as a
 *    standalone run does.
 *  - A daemon's job is a `drover run` that the daemon started with
 *    DROVER_DAEMON_JOB and DROVER_DAEMON_REPORT in its environment: it
 *    runs the job itself and writes its ranks' pids to the report fd.
 *  - Debugging through the daemon: the job's tools are the daemon's, so
 *    its run passes each PMIX_READY_FOR_DEBUG of its ranks (from
 *    PMIx_Init or the application, or held at exec) to the daemon on the
 *    control socket (fd 4, DROVER_DAEMON_CONTROL), one message each
 *    ("ready RANK BREAKPOINT"), and takes the daemon's "release RANK|*"
 *    as a tool's PMIX_DEBUGGER_RELEASE of its own server (debug.c). The
 *    same socket brings tools' job control and queries (daemon_relay.c),
 *    so a message may be long: its size is read first; and takes the
 *    groups of the run's ranks up to the daemon (daemon_groups.c).
 *  - Once its ranks have ended, the run says its exit status on the
 *    control socket ("exit STATUS", the status it will exit with) before
 *    its teardown, so that `run --daemon` returns without waiting for
 *    that; not with --trace, whose writing comes last and may fail.
 *    From then on the run only tears down, and finishes that even if the
 *    daemon stops (SIGTERM) or dies (no more PR_SET_PDEATHSIG): its
 *    command may well stop the daemon as soon as it returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/event.h>

#include "command.h"
#include "daemon.h"
#include "directive.h"
#include "launcher.h"
#include "pmix_server.h"

extern char **environ;

/* Send words, read the one reply. Returns the socket (the caller closes
 * it) with *reply filled, or -1 after a message. An "error" reply is
 * printed and returned as -1. */
static int request(const char *who, char *const *words, size_t nwords, const int *fds,
                   size_t nfds, wire_msg_t *reply)
{
    int sock = daemon_connect(who);
    if (sock < 0) {
        return -1;
    }
    if (0 != daemon_wire_send(sock, words, nwords, fds, nfds)) {
        fprintf(stderr, "%s: cannot send the request: %s\n", who, strerror(errno));
        close(sock);
        return -1;
    }
    int rc = daemon_wire_recv(sock, reply);
    if (0 != rc || 0 == reply->nwords) {
        fprintf(stderr, "%s: the daemon did not answer\n", who);
        if (0 == rc) {
            daemon_wire_release(reply);
        }
        close(sock);
        return -1;
    }
    if (0 == strcmp(reply->words[0], "error")) {
        fprintf(stderr, "%s: %s\n", who, reply->nwords > 1 ? reply->words[1] : "refused");
        daemon_wire_release(reply);
        close(sock);
        return -1;
    }
    return sock;
}

/* verb CWD NARGS ARGS... ENV..., for submit and run. NULL after a
 * message. Caller frees the array (the strings are borrowed, but for
 * the two numbers it holds in buf). */
static char **launch_words(const char *who, const char *verb, int argc, char **argv,
                           size_t *nwords, char *cwd, char *nargs)
{
    if (NULL == getcwd(cwd, PATH_MAX)) {
        fprintf(stderr, "%s: cannot tell the working directory: %s\n", who, strerror(errno));
        return NULL;
    }
    size_t nenv = 0;
    while (NULL != environ[nenv]) {
        nenv++;
    }
    char **words = calloc((size_t)argc + nenv + 3, sizeof(*words));
    if (NULL == words) {
        fprintf(stderr, "%s: out of memory\n", who);
        return NULL;
    }
    snprintf(nargs, 16, "%d", argc - 1);
    words[0] = (char *)verb;
    words[1] = cwd;
    words[2] = nargs;
    memcpy(words + 3, argv + 1, (size_t)(argc - 1) * sizeof(*words));
    memcpy(words + 2 + argc, environ, nenv * sizeof(*words));
    *nwords = (size_t)argc + 2 + nenv;
    return words;
}

/* A daemon's job: where its run reports its ranks (-1: not one), and
 * the prefix of its namespaces. */
static int report_fd = -1;
static int control_fd = -1;
static struct event *control_ev;
static char prefix[DAEMON_NSPACE_MAX];

/* A prefix the daemon makes: drover-daemon.<pid>.<id>- */
static bool prefix_ok(const char *s)
{
    size_t len = strlen(s);
    return len < sizeof(prefix) && 0 == strncmp(s, "drover-daemon.", 14) && '-' == s[len - 1] &&
           strspn(s + 14, "0123456789.-") == len - 14;
}

const char *daemon_client_prefix(void)
{
    return '\0' != prefix[0] ? prefix : NULL;
}

static unsigned daemon_job;

unsigned daemon_client_job(void)
{
    return daemon_job;
}

bool daemon_client_wanted(bool option)
{
    const char *job = getenv(DAEMON_JOB_ENV);
    if (NULL != job) {
        /* This run is the daemon's job; its ranks must not see that. */
        unsigned long id = strtoul(job, NULL, 10);
        daemon_job = id <= UINT32_MAX ? (unsigned)id : 0;
        const char *fd = getenv(DAEMON_REPORT_ENV);
        const char *given = getenv(DAEMON_PREFIX_ENV);
        if (NULL != fd && 0 == strcmp(fd, "3") && fcntl(3, F_SETFD, FD_CLOEXEC) == 0) {
            report_fd = 3;
        }
        const char *control = getenv(DAEMON_CONTROL_ENV);
        if (NULL != given && prefix_ok(given)) {
            strcpy(prefix, given);
        }
        if (NULL != control && 0 == strcmp(control, "4") && fcntl(4, F_SETFD, FD_CLOEXEC) == 0) {
            control_fd = 4;
        }
        unsetenv(DAEMON_JOB_ENV);
        unsetenv(DAEMON_REPORT_ENV);
        unsetenv(DAEMON_PREFIX_ENV);
        unsetenv(DAEMON_CONTROL_ENV);
        return false;
    }
    const char *env = getenv("DROVER_DAEMON");
    return option || (NULL != env && 0 == strcmp(env, "1"));
}

/* A debugger's release of rank (or all) of job, as a tool of this run's
 * server would send it: to the ranks waiting in PMIx_Init or the
 * application, and for those held at exec (debug.c). */
static void release(launcher_job_t *job, pmix_rank_t rank)
{
    pmix_proc_t proc;
    pmix_info_t *info;
    PMIX_LOAD_PROCID(&proc, job->nspace, rank);
    PMIX_INFO_CREATE(info, 2);
    if (NULL == info) {
        return;
    }
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_CUSTOM_RANGE, &proc, PMIX_PROC);
    PMIX_INFO_LOAD(&info[1], PMIX_EVENT_AFFECTED_PROC, &proc, PMIX_PROC);
    debug_release(job->run, info, 2);
    host_raise(job->run, PMIX_DEBUGGER_RELEASE, NULL, PMIX_RANGE_CUSTOM, info, 2);
}

/* The run's answer to the daemon's "modex": "modexdata ID STATUS HEX",
 * sent from the library's thread (one message: nothing interleaves). */
static void dmodex_answered(pmix_status_t status, char *data, size_t size, void *cbdata)
{
    unsigned long id = (unsigned long)(uintptr_t)cbdata;
    char *msg = malloc(64 + 2 * size);
    if (NULL == msg) {
        return;
    }
    int n = snprintf(msg, 64, "modexdata %lu %d ", id, PMIX_SUCCESS == status ? 0 : (int)status);
    for (size_t i = 0; PMIX_SUCCESS == status && i < size; i++) {
        snprintf(msg + n + 2 * i, 3, "%02x", (unsigned char)data[i]);
    }
    size_t len = (size_t)n + (PMIX_SUCCESS == status ? 2 * size : 0);
    if (control_fd >= 0) {
        (void)send(control_fd, msg, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    free(msg);
}

/* What the daemon says on the control socket, a message each:
 * "release RANK" or "release *"; "modex ID NSPACE RANK", another job
 * asking for the data of a process of this run; "jobctl" and "query", a
 * tool's request (daemon_relay.c). */
static void on_control(evutil_socket_t fd, short what, void *arg)
{
    char small[PMIX_MAX_NSLEN + 64], nspace[PMIX_MAX_NSLEN + 1], *msg = small;
    /* A relayed request may be long: its size first. */
    ssize_t n = recv((int)fd, NULL, 0, MSG_DONTWAIT | MSG_PEEK | MSG_TRUNC);
    if (n >= (ssize_t)sizeof(small) && NULL == (msg = malloc((size_t)n + 1))) {
        msg = small;
    }
    n = recv((int)fd, msg, small == msg ? sizeof(small) - 1 : (size_t)n, MSG_DONTWAIT);
    launcher_job_t *job = arg;
    unsigned rank;
    unsigned long id;
    if (n > 0) {
        msg[n] = '\0';
        if (0 == strcmp(msg, "release *")) {
            release(job, PMIX_RANK_WILDCARD);
        } else if (1 == sscanf(msg, "release %u", &rank)) {
            release(job, rank);
        } else if (3 == sscanf(msg, "modex %lu %255s %u", &id, nspace, &rank)) {
            pmix_proc_t proc;
            PMIX_LOAD_PROCID(&proc, nspace, rank);
            if (PMIX_SUCCESS != PMIx_server_dmodex_request(&proc, dmodex_answered,
                                                          (void *)(uintptr_t)id)) {
                dmodex_answered(PMIX_ERR_NOT_FOUND, NULL, 0, (void *)(uintptr_t)id);
            }
        } else {
            daemon_relay_serve(job->run, job, (int)fd, msg, (size_t)n);
        }
    } else if (0 == n || (EINTR != errno && EAGAIN != errno)) {
        daemon_client_unwatch();
    }
    if (small != msg) {
        free(msg);
    }
}

void daemon_client_ready(const pmix_proc_t *proc, const pmix_info_t *info, size_t ninfo)
{
    const pmix_value_t *bp = directive_find(info, ninfo, PMIX_BREAKPOINT);
    char msg[128];
    int n = snprintf(msg, sizeof(msg), "ready %u %s", proc->rank,
                     NULL != bp && PMIX_STRING == bp->type && NULL != bp->data.string
                         ? bp->data.string
                         : "");
    if (control_fd >= 0 && n > 0) {
        /* One message; a daemon gone is the run's end anyway. */
        (void)send(control_fd, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1,
                   MSG_NOSIGNAL | MSG_DONTWAIT);
    }
}

void daemon_client_group(const char *name, const pmix_proc_t *members, size_t n)
{
    char *msg;
    size_t len;
    if (control_fd >= 0 && PMIX_SUCCESS == daemon_groups_message(name, members, n, &msg, &len)) {
        /* One message; a daemon gone is the run's end anyway. */
        (void)send(control_fd, msg, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        free(msg);
    }
}

void daemon_client_watch(launcher_t *run, launcher_job_t *job)
{
    if (control_fd < 0) {
        return;
    }
    control_ev = event_new(run->base, control_fd, EV_READ | EV_PERSIST, on_control, job);
    if (NULL == control_ev || 0 != event_add(control_ev, NULL)) {
        daemon_client_unwatch();
    }
}

void daemon_client_unwatch(void)
{
    if (NULL != control_ev) {
        event_free(control_ev);
        control_ev = NULL;
    }
    if (control_fd >= 0) {
        close(control_fd);
        control_fd = -1;
    }
}

void daemon_client_report(const launcher_job_t *job)
{
    if (report_fd < 0) {
        return;
    }
    for (unsigned r = 0; r < job->nprocs; r++) {
        dprintf(report_fd, "%u %d %s\n", r, (int)job->procs[r].pid,
                job->apps[job->procs[r].app].program);
    }
    close(report_fd);
    report_fd = -1;
}

void daemon_client_exited(const launcher_t *run, int status)
{
    /* A trace is written after the teardown, and may fail the run. */
    if (control_fd < 0 || NULL != run->trace) {
        return;
    }
    char msg[32];
    int n = snprintf(msg, sizeof(msg), "exit %d",
                     0 != run->interrupted_by ? 128 + run->interrupted_by : status);
    (void)send(control_fd, msg, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
    /* The job is over for its command, which may stop the daemon at once:
     * neither the daemon's death nor its SIGTERM may cut the teardown
     * short, or the session's files would stay. run.c unblocks the
     * signal it ends by. */
    prctl(PR_SET_PDEATHSIG, 0);
    sigset_t ending;
    sigemptyset(&ending);
    sigaddset(&ending, SIGINT);
    sigaddset(&ending, SIGTERM);
    sigaddset(&ending, SIGHUP);
    sigprocmask(SIG_BLOCK, &ending, NULL);
}

/* Wait for the job's end, passing on the signals drover run forwards. */
static int follow(int sock, unsigned *sent)
{
    sigset_t sigs, old;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGHUP);
    sigprocmask(SIG_BLOCK, &sigs, &old);
    int sfd = signalfd(-1, &sigs, SFD_CLOEXEC);
    int status = -1;
    while (status < 0) {
        struct pollfd p[2] = {{.fd = sock, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
        if (poll(p, sfd >= 0 ? 2 : 1, -1) < 0) {
            if (EINTR == errno) {
                continue;
            }
            break;
        }
        struct signalfd_siginfo si;
        if (sfd >= 0 && 0 != (p[1].revents & POLLIN) && sizeof(si) == read(sfd, &si, sizeof(si))) {
            char sig[16];
            snprintf(sig, sizeof(sig), "%u", si.ssi_signo);
            *sent = si.ssi_signo;
            daemon_wire_sendv(sock, "signal", sig, NULL);
        }
        if (0 != p[0].revents) {
            wire_msg_t msg;
            if (0 != daemon_wire_recv(sock, &msg)) {
                break;
            }
            if (2 == msg.nwords && 0 == strcmp(msg.words[0], "exit")) {
                status = atoi(msg.words[1]);
            }
            daemon_wire_release(&msg);
        }
    }
    if (sfd >= 0) {
        close(sfd);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return status;
}

int daemon_client_run(int argc, char **argv)
{
    char cwd[PATH_MAX], nargs[16];
    size_t nwords;
    char **words = launch_words(LAUNCHER_NAME, "run", argc, argv, &nwords, cwd, nargs);
    if (NULL == words) {
        return LAUNCHER_EXIT_FAILURE;
    }
    static const int fds[3] = {0, 1, 2};
    wire_msg_t reply;
    int sock = request(LAUNCHER_NAME, words, nwords, fds, 3, &reply);
    free(words);
    if (sock < 0) {
        return LAUNCHER_EXIT_FAILURE;
    }
    daemon_wire_release(&reply);
    unsigned sent = 0;
    int status = follow(sock, &sent);
    close(sock);
    if (status < 0) {
        fprintf(stderr, LAUNCHER_NAME ": lost the daemon before the job ended\n");
        return LAUNCHER_EXIT_FAILURE;
    }
    if (0 != sent && status == 128 + (int)sent) {
        signal((int)sent, SIG_DFL);
        raise((int)sent);
    }
    return status;
}
