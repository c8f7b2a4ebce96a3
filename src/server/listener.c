/*
 * listener.c - the rendezvous socket clients connect to.
 *
 * Design notes:
 *  - The socket lives in a directory of its own, made with mkdtemp (mode
 *    0700) under PMIX_SERVER_TMPDIR, $TMPDIR or /tmp, so other users can
 *    neither connect nor plant a socket of their own in its place.
 *  - Every accepted connection is checked with SO_PEERCRED: a process of
 *    another user is refused even if it reached the socket somehow.
 *  - The directory and socket are removed by listener_stop; the host
 *    removes its own session directory (which may contain ours) on top.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <event2/event.h>

#include "errno_status.h"
#include "server.h"

#define SOCKET_NAME "server.sock"

static int listen_fd = -1;
static struct event *accept_event;

static void on_accept(evutil_socket_t fd, short what, void *arg)
{
    for (;;) {
        int conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (conn < 0) {
            /* EAGAIN: drained. Anything else (EMFILE...) is retried at the
             * next readiness rather than spinning here. */
            return;
        }
        struct ucred cred;
        socklen_t len = sizeof(cred);
        if (0 != getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cred, &len) ||
            cred.uid != geteuid()) {
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

pmix_status_t listener_start(void)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    pmix_status_t rc = make_paths();

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
    if (NULL == accept_event || 0 != event_add(accept_event, NULL)) {
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
