/*
 * daemon_run.c - `drover run --daemon`: the command's side.
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
 *  - Only the C library: this is the libc-only part of the drover
 *    command (drover.c), which need not load the PMIx library, libevent
 *    and hwloc to hand a job over.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "daemon.h"
#include "options.h"

extern char **environ;

bool daemon_run_wanted(bool option)
{
    const char *env = getenv("DROVER_DAEMON");
    return option || (NULL != env && 0 == strcmp(env, "1"));
}

/* Send words, read the one reply. Returns the socket (the caller closes
 * it) with *reply filled, or -1 after a message. An "error" reply is
 * printed and returned as -1. */
static int request(const char *who, char *const *words, size_t nwords, const int *fds, size_t nfds,
                   wire_msg_t *reply)
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

/* verb CWD NARGS ARGS... ENV.... NULL after a message. Caller frees the
 * array (the strings are borrowed, but for the two numbers it holds in
 * buf). */
static char **launch_words(const char *who, const char *verb, int argc, char **argv, size_t *nwords,
                           char *cwd, char *nargs)
{
    if (NULL == getcwd(cwd, PATH_MAX)) {
        fprintf(stderr, "%s: cannot tell the working directory: %s\n", who, strerror(errno));
        return NULL;
    }
    size_t nenv = launch_env_count(environ);
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

int daemon_run(int argc, char **argv)
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
