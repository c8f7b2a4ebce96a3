/*
 * daemon_client.c - the run's side of a daemon's job (its report of its
 *   ranks, its debugger traffic, its status); the command's side of
 *   `drover run --daemon` is daemon_run.c.
 *
 * Design notes:
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
 *    that, and lets go of the command's stdin, stdout and stderr (a pipe
 *    reading the command's output ends with it); not with --trace, whose
 *    writing comes last and may fail.
 *    From then on the run only tears down, and finishes that even if the
 *    daemon stops (SIGTERM) or dies (no more PR_SET_PDEATHSIG): its
 *    command may well stop the daemon as soon as it returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/event.h>

#include "command.h"
#include "daemon.h"
#include "directive.h"
#include "launcher.h"
#include "pmix_server.h"

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
    return daemon_run_wanted(option);
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
 * "release RANK" or "release *"; "event", another job's event for
 * processes of this run (daemon_events.c); "modex ID NSPACE RANK", another
 * job asking for the data of a process of this run; "jobctl" and
 * "query", a tool's request (daemon_relay.c). */
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
        } else if (daemon_events_is_message(msg, (size_t)n)) {
            daemon_events_deliver(msg, (size_t)n);
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

void daemon_client_event(pmix_status_t code, const pmix_proc_t *source, const pmix_info_t *info,
                         size_t ninfo)
{
    size_t n;
    const pmix_proc_t *range = directive_procs(info, ninfo, PMIX_EVENT_CUSTOM_RANGE, &n);
    bool beyond = false;
    for (size_t i = 0; i < n && !beyond; i++) {
        beyond = 0 != strncmp(range[i].nspace, prefix, strlen(prefix));
    }
    char *msg;
    size_t len;
    if (control_fd >= 0 && '\0' != prefix[0] && beyond &&
        PMIX_SUCCESS == daemon_events_message(code, source, info, ninfo, &msg, &len)) {
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
    /* Buffered: the daemon is woken once (or once a page), not once a
     * rank, while the ranks start. */
    FILE *f = fdopen(report_fd, "w");
    for (unsigned r = 0; NULL != f && r < job->nprocs; r++) {
        fprintf(f, "%u %d %s\n", r, (int)job->procs[r].pid,
                job->apps[job->procs[r].app].program);
    }
    if (NULL != f) {
        fclose(f);
    } else {
        close(report_fd);
    }
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
    /* The command's stdin, stdout and stderr are let go at once: a reader
     * of its output (a pipe, `$(drover run --daemon ...)`) then sees their
     * end when the command exits, not after this run's teardown, which has
     * nothing more to say there. */
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int fd = 0; fd < 3 && null >= 0; fd++) {
        dup2(null, fd);
    }
    if (null > 2) {
        close(null);
    }
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
