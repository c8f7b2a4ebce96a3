/*
 * daemon_wire.c - the messages between the drover commands and the daemon.
 *
 * Design notes:
 *  - The daemon's own socket carries what PMIx cannot: `run --daemon`
 *    hands over its stdin, stdout and stderr; `daemon status` and `stop`
 *    come with it (the other commands are PMIx tools, daemon_tools.c).
 *  - A message is a list of strings: a 4-byte length (host order: both
 *    ends are on this node) and the strings, each ending in NUL. The first
 *    word names a request ("run", "status", "stop") or a reply ("ok",
 *    "error", "exit", or from `run` the client: "signal").
 *  - File descriptors travel as SCM_RIGHTS with the length, so that they
 *    arrive with the first recvmsg of the message.
 *  - Messages are bounded (an environment fits easily); anything else is
 *    EPROTO, and the fds that came with it are closed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon.h"

#define WIRE_MAX_BYTES (4u << 20)
#define WIRE_MAX_WORDS 65536u

int daemon_wire_send(int sock, char *const *words, size_t nwords, const int *fds, size_t nfds)
{
    size_t total = 0;
    for (size_t i = 0; i < nwords; i++) {
        total += strlen(words[i]) + 1;
    }
    if (total > WIRE_MAX_BYTES || nwords > WIRE_MAX_WORDS || nfds > WIRE_MAX_FDS) {
        errno = E2BIG;
        return -1;
    }
    char *buf = malloc(sizeof(uint32_t) + total);
    if (NULL == buf) {
        return -1;
    }
    uint32_t len = (uint32_t)total;
    memcpy(buf, &len, sizeof(len));
    size_t off = sizeof(len);
    for (size_t i = 0; i < nwords; i++) {
        size_t n = strlen(words[i]) + 1;
        memcpy(buf + off, words[i], n);
        off += n;
    }
    union {
        char buf[CMSG_SPACE(sizeof(int) * WIRE_MAX_FDS)];
        struct cmsghdr align;
    } control;
    struct iovec iov = {.iov_base = buf, .iov_len = off};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
    if (nfds > 0) {
        memset(&control, 0, sizeof(control));
        mh.msg_control = control.buf;
        mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
        struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
    }
    int rc = 0;
    while (iov.iov_len > 0) {
        ssize_t n = sendmsg(sock, &mh, MSG_NOSIGNAL);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            rc = -1;
            break;
        }
        /* The fds went with the first part. */
        mh.msg_control = NULL;
        mh.msg_controllen = 0;
        iov.iov_base = (char *)iov.iov_base + n;
        iov.iov_len -= (size_t)n;
    }
    int err = errno;
    free(buf);
    errno = err;
    return rc;
}

int daemon_wire_sendv(int sock, ...)
{
    char *words[16];
    size_t n = 0;
    va_list ap;
    va_start(ap, sock);
    for (char *w = va_arg(ap, char *); NULL != w && n < 16; w = va_arg(ap, char *)) {
        words[n++] = w;
    }
    va_end(ap);
    return daemon_wire_send(sock, words, n, NULL, 0);
}

static int read_full(int sock, char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = read(sock, buf, len);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            if (0 == n) {
                errno = EPROTO;
            }
            return -1;
        }
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static void take_fds(struct msghdr *mh, wire_msg_t *msg)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); NULL != c; c = CMSG_NXTHDR(mh, c)) {
        if (SOL_SOCKET != c->cmsg_level || SCM_RIGHTS != c->cmsg_type) {
            continue;
        }
        size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        int fds[WIRE_MAX_FDS];
        memcpy(fds, CMSG_DATA(c), sizeof(int) * (n < WIRE_MAX_FDS ? n : WIRE_MAX_FDS));
        for (size_t i = 0; i < n && i < WIRE_MAX_FDS; i++) {
            if (msg->nfds < WIRE_MAX_FDS) {
                msg->fds[msg->nfds++] = fds[i];
            } else {
                close(fds[i]);
            }
        }
    }
}

int daemon_wire_recv(int sock, wire_msg_t *msg)
{
    *msg = (wire_msg_t){.nfds = 0};
    uint32_t len;
    union {
        char buf[CMSG_SPACE(sizeof(int) * WIRE_MAX_FDS)];
        struct cmsghdr align;
    } control;
    struct iovec iov = {.iov_base = &len, .iov_len = sizeof(len)};
    struct msghdr mh = {.msg_iov = &iov,
                        .msg_iovlen = 1,
                        .msg_control = control.buf,
                        .msg_controllen = sizeof(control.buf)};
    ssize_t n;
    do {
        n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
    } while (n < 0 && EINTR == errno);
    if (n <= 0) {
        return 0 == n ? 1 : -1;
    }
    take_fds(&mh, msg);
    if ((size_t)n < sizeof(len) &&
        0 != read_full(sock, (char *)&len + n, sizeof(len) - (size_t)n)) {
        goto fail;
    }
    if (len > WIRE_MAX_BYTES || 0 == len) {
        errno = EPROTO;
        goto fail;
    }
    char *text = malloc(len);
    if (NULL == text) {
        goto fail;
    }
    if (0 != read_full(sock, text, len) || '\0' != text[len - 1]) {
        free(text);
        errno = 0 == errno ? EPROTO : errno;
        goto fail;
    }
    size_t nwords = 0;
    for (uint32_t i = 0; i < len; i++) {
        nwords += '\0' == text[i];
    }
    if (nwords > WIRE_MAX_WORDS) {
        free(text);
        errno = EPROTO;
        goto fail;
    }
    /* The word pointers and the text in one block. */
    char **words = malloc((nwords + 1) * sizeof(*words) + len);
    if (NULL == words) {
        free(text);
        goto fail;
    }
    char *copy = (char *)(words + nwords + 1);
    memcpy(copy, text, len);
    free(text);
    for (size_t w = 0, off = 0; w < nwords; w++) {
        words[w] = copy + off;
        off += strlen(copy + off) + 1;
    }
    words[nwords] = NULL;
    msg->words = words;
    msg->nwords = nwords;
    return 0;

fail:;
    int err = errno;
    daemon_wire_release(msg);
    errno = err;
    return -1;
}

void daemon_wire_release(wire_msg_t *msg)
{
    free(msg->words);
    msg->words = NULL;
    msg->nwords = 0;
    for (size_t i = 0; i < msg->nfds; i++) {
        if (msg->fds[i] >= 0) {
            close(msg->fds[i]);
        }
    }
    msg->nfds = 0;
}

int daemon_wire_peer(int sock, uid_t *uid, pid_t *pid)
{
    struct ucred cred;
    socklen_t len = sizeof(cred);
    if (0 != getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
        return -1;
    }
    *uid = cred.uid;
    *pid = cred.pid;
    return 0;
}
