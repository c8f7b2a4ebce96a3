/*
 * pmi_floor.c - the least a PMI-1 server can do for test/mpich/pmi_wire's
 * latency test, as the floor row of bench/mpich: the ranks get pre-connected
 * socket pairs (PMI_FD, as hydra and drover give them) and one epoll loop
 * answers with fixed text, without a store. Per get it makes the system
 * calls any server must (a read and a write, an epoll_wait shared by the
 * requests that arrive together) and wakes the rank once; what a real
 * server takes beyond this is its own, what this takes is the ranks' and
 * the kernel's.
 *
 *   pmi_floor N PROGRAM [ARGS...]   N ranks of PROGRAM; fails if one does
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_RANKS 256
#define LINE_MAX_BYTES 4096

typedef struct rank {
    int fd;
    size_t len;
    char in[LINE_MAX_BYTES];
} rank_t;

static rank_t ranks[MAX_RANKS];
static int nranks, barrier;

static void say(int fd, const char *text)
{
    size_t len = strlen(text);
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            return; /* the rank is gone: its end says so */
        }
        text += n;
        len -= (size_t)n;
    }
}

static void answer(int r, const char *cmd)
{
    /* pmi_wire's values are 100 digits. */
    static const char got[] = "cmd=get_result rc=0 msg=success value="
                              "0000000000000000000000000000000000000000000000000000"
                              "000000000000000000000000000000000000000000000000\n";
    int fd = ranks[r].fd;

    if (0 == strncmp(cmd, "cmd=get ", 8)) {
        say(fd, got);
    } else if (0 == strncmp(cmd, "cmd=init ", 9)) {
        say(fd, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n");
    } else if (0 == strcmp(cmd, "cmd=get_my_kvsname")) {
        say(fd, "cmd=my_kvsname kvsname=floor\n");
    } else if (0 == strncmp(cmd, "cmd=put ", 8)) {
        say(fd, "cmd=put_result rc=0 msg=success\n");
    } else if (0 == strcmp(cmd, "cmd=barrier_in")) {
        if (++barrier == nranks) {
            barrier = 0;
            for (int i = 0; i < nranks; i++) {
                say(ranks[i].fd, "cmd=barrier_out\n");
            }
        }
    } else if (0 == strcmp(cmd, "cmd=finalize")) {
        say(fd, "cmd=finalize_ack\n");
    } else {
        fprintf(stderr, "pmi_floor: rank %d: unknown command '%s'\n", r, cmd);
        exit(1);
    }
}

/* Read what rank r sent and answer its whole lines; false at its end. */
static bool serve(int r)
{
    rank_t *k = &ranks[r];
    ssize_t n = read(k->fd, k->in + k->len, sizeof(k->in) - 1 - k->len);
    if (n < 0 && EINTR == errno) {
        return true;
    }
    if (n <= 0) {
        return false;
    }
    k->len += (size_t)n;
    char *nl;
    while (NULL != (nl = memchr(k->in, '\n', k->len))) {
        *nl = '\0';
        answer(r, k->in);
        k->len -= (size_t)(nl + 1 - k->in);
        memmove(k->in, nl + 1, k->len);
    }
    if (k->len == sizeof(k->in) - 1) {
        fprintf(stderr, "pmi_floor: rank %d: line too long\n", r);
        exit(1);
    }
    return true;
}

static void start(int r, int fd, char **argv)
{
    char var[3][16];
    snprintf(var[0], sizeof(var[0]), "%d", fd);
    snprintf(var[1], sizeof(var[1]), "%d", r);
    snprintf(var[2], sizeof(var[2]), "%d", nranks);
    if (0 != setenv("PMI_FD", var[0], 1) || 0 != setenv("PMI_RANK", var[1], 1) ||
        0 != setenv("PMI_SIZE", var[2], 1)) {
        _exit(127);
    }
    execvp(argv[0], argv);
    fprintf(stderr, "pmi_floor: %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

int main(int argc, char **argv)
{
    int ep = epoll_create1(EPOLL_CLOEXEC), open = 0, status;
    bool failed = false;

    nranks = argc > 2 ? atoi(argv[1]) : 0;
    if (nranks < 1 || nranks > MAX_RANKS || ep < 0) {
        fprintf(stderr, "usage: pmi_floor N PROGRAM [ARGS...] (N: 1 to %d)\n", MAX_RANKS);
        return 2;
    }
    for (int r = 0; r < nranks; r++) {
        int sv[2];
        if (0 != socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
            perror("pmi_floor: socketpair");
            return 1;
        }
        pid_t pid = fork();
        if (pid < 0) {
            perror("pmi_floor: fork");
            return 1;
        }
        if (0 == pid) {
            int fd = dup(sv[1]); /* without close-on-exec */
            start(r, fd, argv + 2);
        }
        close(sv[1]);
        ranks[r].fd = sv[0];
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)r};
        if (0 != epoll_ctl(ep, EPOLL_CTL_ADD, sv[0], &ev)) {
            perror("pmi_floor: epoll_ctl");
            return 1;
        }
        open++;
    }
    while (open > 0) {
        struct epoll_event evs[MAX_RANKS];
        int n = epoll_wait(ep, evs, MAX_RANKS, -1);
        if (n < 0 && EINTR != errno) {
            perror("pmi_floor: epoll_wait");
            return 1;
        }
        for (int i = 0; i < n; i++) {
            int r = (int)evs[i].data.u32;
            if (!serve(r)) {
                epoll_ctl(ep, EPOLL_CTL_DEL, ranks[r].fd, NULL);
                close(ranks[r].fd);
                open--;
            }
        }
    }
    while (wait(&status) > 0) {
        failed |= !WIFEXITED(status) || 0 != WEXITSTATUS(status);
    }
    return failed;
}
