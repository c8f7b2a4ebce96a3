/*
 * listener.c - the rendezvous socket clients connect to.
 *
 * Design notes:
 *  - The socket lives in a directory of its own, made with mkdtemp (mode
 *    0700) under PMIX_SERVER_TMPDIR, $TMPDIR or /tmp, so other users can
 *    neither connect nor plant a socket of their own in its place.
 *  - Every accepted connection is checked with SO_PEERCRED: a process of
 *    another user is refused even if it reached the socket somehow, with
 *    a line in the host's log if it gave one (DROVER_SERVER_REFUSAL_LOG).
 *  - The directory and socket are removed by listener_stop; the host
 *    removes its own session directory (which may contain ours) on top.
 *  - Every local client holds one or two connections, so the soft limit
 *    on open files is raised to the hard one at start. When accept still
 *    fails for want of descriptors the connection stays in the backlog:
 *    the listener is not watched (it would be readable at once, forever)
 *    until a connection closes or a short pause has passed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "errno_status.h"
#include "server.h"

#define SOCKET_NAME "server.sock"

/* How long accepting pauses when descriptors run out and none is freed. */
#define PAUSE_MS 100

static int listen_fd = -1;
static struct event *accept_event;
static struct event *pause_timer;
static bool paused;

/* Stop watching the listener until a descriptor may be free again. */
static void pause_accepting(void)
{
    struct timeval tv = {0, PAUSE_MS * 1000};
    paused = true;
    event_del(accept_event);
    evtimer_add(pause_timer, &tv);
}

void listener_resume(void)
{
    if (!paused) {
        return;
    }
    paused = false;
    evtimer_del(pause_timer);
    /* Pending connections make the listener readable at once. */
    event_add(accept_event, NULL);
}

static void on_pause_over(evutil_socket_t fd, short what, void *arg)
{
    listener_resume();
}

/* One line about a refused peer in the host's log, if it keeps one. */
static void log_refusal(const struct ucred *cred)
{
    char line[256];
    time_t now = time(NULL);
    struct tm tm;
    if (server.refusal_log < 0) {
        return;
    }
    gmtime_r(&now, &tm);
    size_t n = strftime(line, sizeof(line), "%Y-%m-%dT%H:%M:%SZ ", &tm);
    int m = snprintf(line + n, sizeof(line) - n,
                     "refused a PMIx connection from uid %u (pid %d): not the server's user\n",
                     (unsigned)cred->uid, (int)cred->pid);
    if (m > 0 && (size_t)m < sizeof(line) - n) {
        (void)!write(server.refusal_log, line, n + (size_t)m);
    }
}

static void on_accept(evutil_socket_t fd, short what, void *arg)
{
    for (;;) {
        int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (conn < 0) {
            if (EMFILE == errno || ENFILE == errno || ENOBUFS == errno || ENOMEM == errno) {
                pause_accepting();
            }
            /* EAGAIN: drained; EINTR, ECONNABORTED...: the next readiness
             * brings what is left. */
            return;
        }
        struct ucred cred;
        socklen_t len = sizeof(cred);
        if (0 != getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
            close(conn);
            continue;
        }
        if (cred.uid != geteuid()) {
            log_refusal(&cred);
            close(conn);
            continue;
        }
        peer_adopt(conn, cred.pid, cred.uid, cred.gid);
    }
}

static pmix_status_t make_paths(void)
{
    size_t dirlen = strlen(server.tmpdir) + sizeof("/drover-server.XXXXXX");
    if (NULL == (server.dir = malloc(dirlen))) {
        return PMIX_ERR_NOMEM;
    }
    snprintf(server.dir, dirlen, "%s/drover-server.XXXXXX", server.tmpdir);
    if (NULL == mkdtemp(server.dir)) {
        pmix_status_t rc = errno_status(errno);
        free(server.dir);
        server.dir = NULL;
        return rc;
    }
    if (asprintf(&server.socket_path, "%s/" SOCKET_NAME, server.dir) < 0) {
        server.socket_path = NULL;
        return PMIX_ERR_NOMEM;
    }
    if (asprintf(&server.uri, PROTOCOL_URI_PREFIX "%s", server.socket_path) < 0) {
        server.uri = NULL;
        return PMIX_ERR_NOMEM;
    }
    return PMIX_SUCCESS;
}

/* As many open files as the hard limit allows: a failure leaves the
 * soft limit, which is then the one to live with. */
static void raise_file_limit(void)
{
    struct rlimit rl;
    if (0 == getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

pmix_status_t listener_start(void)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    pmix_status_t rc = make_paths();

    raise_file_limit();

    if (PMIX_SUCCESS != rc) {
        listener_stop();
        return rc;
    }
    if (strlen(server.socket_path) >= sizeof(addr.sun_path)) {
        /* A socket path is limited to 107 bytes: the temporary directory
         * given is too deep. */
        listener_stop();
        return PMIX_ERR_BAD_PARAM;
    }
    strcpy(addr.sun_path, server.socket_path);
    listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (listen_fd < 0 || 0 != bind(listen_fd, (struct sockaddr *)&addr, sizeof(addr)) ||
        0 != listen(listen_fd, SOMAXCONN)) {
        rc = errno_status(errno);
        listener_stop();
        return rc;
    }
    accept_event = event_new(server.base, listen_fd, EV_READ | EV_PERSIST, on_accept, NULL);
    pause_timer = evtimer_new(server.base, on_pause_over, NULL);
    if (NULL == accept_event || NULL == pause_timer || 0 != event_add(accept_event, NULL)) {
        listener_stop();
        return PMIX_ERR_NOMEM;
    }
    return PMIX_SUCCESS;
}

void listener_stop(void)
{
    if (NULL != accept_event) {
        event_free(accept_event);
        accept_event = NULL;
    }
    if (NULL != pause_timer) {
        event_free(pause_timer);
        pause_timer = NULL;
    }
    paused = false;
    if (listen_fd >= 0) {
        close(listen_fd);
        listen_fd = -1;
    }
    if (NULL != server.socket_path) {
        unlink(server.socket_path);
    }
    if (NULL != server.dir) {
        rmdir(server.dir);
    }
    free(server.uri);
    free(server.socket_path);
    free(server.dir);
    server.uri = server.socket_path = server.dir = NULL;
}
