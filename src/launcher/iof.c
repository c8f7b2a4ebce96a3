/*
 * iof.c - stdin to rank 0, stdout and stderr back in whole lines.
 *
 * Design notes:
 *  - Each process gets two pipes (stdout, stderr) read by the event loop;
 *    what arrives is held per channel until a newline, and only complete
 *    lines are written to drover's own fd 1 or 2, each batch with one
 *    write(2), so lines of different processes never mix. A line longer
 *    than LINE_MAX_BYTES is passed on in pieces (a process that writes no
 *    newline at all must not make drover hoard its output).
 *  - With --tag-output every line starts with the process's tag. Without
 *    it the bytes pass unchanged, a last line without newline included;
 *    with it such a line gets its newline so the next tag starts a line.
 *  - stdin goes to one process (rank 0 of the first job); everyone else
 *    reads /dev/null. drover reads its stdin only as fast as that process
 *    takes it: while the pipe is full, stdin is not watched. A stdin that
 *    epoll cannot watch (a regular file, /dev/null) never blocks, so it
 *    is read whenever the pipe has room.
 *  - Writes to drover's stdout/stderr block (poll) when the reader is
 *    slow: output is never dropped unless the reader has gone (EPIPE).
 *    Then the run is told (broken), once: like the writer of a shell
 *    pipeline whose reader has gone, the job is to end. What the ranks
 *    write meanwhile is still read, and dropped, so none blocks.
 *  - A daemon's standby makes the first pipes while it waits for its job
 *    (iof_pipes_ahead): each pipe2 takes 5 us here, and a launch waits
 *    for its ranks' pipes before it starts them.
 *  - A daemon's submitted job (iof_send_frames) sends what its processes
 *    write, the same bytes in the same batches, as frames naming the
 *    process and the channel (output_frames.c) on the fd the daemon
 *    gave, instead of on drover's stdout and stderr, so that the daemon
 *    can tell the ranks apart. drover's own messages still go to its
 *    stdout and stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/event.h>

#include "fd_pairs.h"
#include "launcher.h"
#include "output_frames.h"

#define LINE_MAX_BYTES 65536
#define READ_CHUNK 65536

typedef struct stream stream_t;

typedef struct channel {
    stream_t *owner;
    int fd;                /* parent's read end; -1 when closed */
    int target;            /* drover's fd 1 or 2 */
    struct event *ev;
    char *buf;
    size_t len;
    bool midline;          /* the last piece written ended without '\n' */
} channel_t;

struct stream {
    iof_t *iof;
    char *tag;             /* "[rank] " or NULL */
    unsigned job;          /* the process: its job's index and rank */
    unsigned rank;
    channel_t out[2];
    int stdin_fd;          /* parent's write end, -1 if none */
    int child_fds[3];
    stream_t *next;
};

struct iof {
    struct event_base *base;
    bool tag_output;
    void (*closed)(void *arg);
    void (*broken_cb)(void *arg);
    void *closed_arg;      /* the argument of both */
    stream_t *streams;
    unsigned open;
    int devnull;
    bool broken[3];        /* drover's fd 1/2 reader went away */
    int frames;            /* the daemon's frame pipe, or -1 */
    bool frames_broken;
    /* stdin forwarding */
    stream_t *stdin_target;
    struct event *stdin_read;     /* fd 0 readable */
    struct event *stdin_write;    /* the target's pipe writable */
    bool stdin_pollable;
    bool stdin_eof;
    char stdin_buf[READ_CHUNK];
    size_t stdin_len, stdin_off;
};

/* Write all of data to fd, waiting while it is full. 0, or -1 with
 * errno. */
static int write_fully(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n > 0) {
            data += n;
            len -= (size_t)n;
        } else if (n < 0 && EAGAIN == errno) {
            struct pollfd p = {.fd = fd, .events = POLLOUT};
            poll(&p, 1, -1);
        } else if (n < 0 && EINTR != errno) {
            return -1;
        }
    }
    return 0;
}

static void write_all(iof_t *iof, int fd, const char *data, size_t len)
{
    if (!iof->broken[fd] && 0 != write_fully(fd, data, len)) {
        iof->broken[fd] = true;
        if (EPIPE == errno && NULL != iof->broken_cb) {
            iof->broken_cb(iof->closed_arg);
        }
    }
}

/* What process s wrote on channel target (1 or 2), as frames to the
 * daemon. A daemon gone takes the run with it: the output is dropped. */
static void send_frames(stream_t *s, int target, const char *data, size_t len)
{
    iof_t *iof = s->iof;
    while (len > 0 && !iof->frames_broken) {
        output_frame_t f = {.rank = s->rank, .job = s->job, .channel = (uint8_t)target,
                            .bytes = data,
                            .len = len < OUTPUT_FRAME_MAX ? len : OUTPUT_FRAME_MAX};
        unsigned char header[OUTPUT_FRAME_HEADER];
        output_frames_header(header, &f);
        if (0 != write_fully(iof->frames, (const char *)header, sizeof(header)) ||
            0 != write_fully(iof->frames, data, f.len)) {
            iof->frames_broken = true;
        }
        data += f.len;
        len -= f.len;
    }
}

/* Output of process s: to the daemon when it wants frames, else to
 * drover's own fd 1 or 2. */
static void deliver(stream_t *s, int target, const char *data, size_t len)
{
    if (s->iof->frames >= 0) {
        send_frames(s, target, data, len);
    } else {
        write_all(s->iof, target, data, len);
    }
}

/* Write the first len bytes of the channel's buffer, tagging each line
 * when tagging; `close_line` ends an unterminated last line. */
static void emit(channel_t *ch, size_t len, bool close_line)
{
    stream_t *s = ch->owner;
    if (NULL == s->tag) {
        deliver(s, ch->target, ch->buf, len);
        ch->midline = len > 0 && '\n' != ch->buf[len - 1];
        return;
    }
    size_t taglen = strlen(s->tag), lines = 1;
    for (size_t i = 0; i < len; i++) {
        lines += '\n' == ch->buf[i];
    }
    char *out = malloc(len + lines * taglen + 1);
    if (NULL == out) {
        deliver(s, ch->target, ch->buf, len);
        return;
    }
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(ch->buf + i, '\n', len - i);
        size_t end = NULL == nl ? len : (size_t)(nl - ch->buf) + 1;
        if (!ch->midline) {
            memcpy(out + o, s->tag, taglen);
            o += taglen;
        }
        memcpy(out + o, ch->buf + i, end - i);
        o += end - i;
        ch->midline = NULL == nl;
        i = end;
    }
    if (close_line && ch->midline) {
        out[o++] = '\n';
        ch->midline = false;
    }
    deliver(s, ch->target, out, o);
    free(out);
}

static void channel_close(channel_t *ch)
{
    if (ch->fd < 0) {
        return;
    }
    if (ch->len > 0) {
        emit(ch, ch->len, true);
        ch->len = 0;
    }
    if (NULL != ch->ev) {
        event_free(ch->ev);
        ch->ev = NULL;
    }
    close(ch->fd);
    ch->fd = -1;
    free(ch->buf);
    ch->buf = NULL;
    ch->owner->iof->open--;
}

static void on_output(evutil_socket_t fd, short what, void *arg)
{
    channel_t *ch = arg;
    /* Made at the first output: many processes write nothing. */
    if (NULL == ch->buf && NULL == (ch->buf = malloc(LINE_MAX_BYTES))) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory: the output of rank %u is lost\n",
                ch->owner->rank);
    }
    ssize_t n = NULL == ch->buf ? 0 : read(fd, ch->buf + ch->len, LINE_MAX_BYTES - ch->len);
    if (n < 0 && (EAGAIN == errno || EINTR == errno)) {
        return;
    }
    if (n <= 0) {
        iof_t *iof = ch->owner->iof;
        channel_close(ch);
        if (NULL != iof->closed) {
            iof->closed(iof->closed_arg);
        }
        return;
    }
    ch->len += (size_t)n;
    size_t whole = ch->len;
    while (whole > 0 && '\n' != ch->buf[whole - 1]) {
        whole--;
    }
    if (0 == whole && LINE_MAX_BYTES == ch->len) {
        whole = ch->len;   /* a line too long to hold: pass it on in pieces */
    }
    if (whole > 0) {
        emit(ch, whole, false);
        memmove(ch->buf, ch->buf + whole, ch->len - whole);
        ch->len -= whole;
    }
}

iof_t *iof_create(struct event_base *base, bool tag_output, void (*closed)(void *arg),
                  void (*broken)(void *arg), void *arg)
{
    iof_t *iof = calloc(1, sizeof(*iof));
    if (NULL == iof) {
        return NULL;
    }
    iof->base = base;
    iof->tag_output = tag_output;
    iof->closed = closed;
    iof->broken_cb = broken;
    iof->closed_arg = arg;
    iof->frames = -1;
    iof->devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (iof->devnull < 0) {
        free(iof);
        return NULL;
    }
    return iof;
}

static void stdin_stop(iof_t *iof)
{
    if (NULL != iof->stdin_read) {
        event_free(iof->stdin_read);
        iof->stdin_read = NULL;
    }
    if (NULL != iof->stdin_write) {
        event_free(iof->stdin_write);
        iof->stdin_write = NULL;
    }
    if (NULL != iof->stdin_target && iof->stdin_target->stdin_fd >= 0) {
        close(iof->stdin_target->stdin_fd);
        iof->stdin_target->stdin_fd = -1;
    }
    iof->stdin_target = NULL;
}

/* Read more of drover's stdin. Returns false at EOF or error. */
static bool stdin_fill(iof_t *iof)
{
    ssize_t n;
    do {
        n = read(0, iof->stdin_buf, sizeof(iof->stdin_buf));
    } while (n < 0 && EINTR == errno);
    if (n < 0 && EAGAIN == errno) {
        return true;
    }
    if (n <= 0) {
        iof->stdin_eof = true;
        return false;
    }
    iof->stdin_len = (size_t)n;
    iof->stdin_off = 0;
    return true;
}

/* Move stdin to the target as far as possible without blocking, then
 * watch whichever side must be waited for. */
static void stdin_pump(iof_t *iof)
{
    int fd = iof->stdin_target->stdin_fd;
    for (;;) {
        if (iof->stdin_off < iof->stdin_len) {
            ssize_t n = write(fd, iof->stdin_buf + iof->stdin_off,
                              iof->stdin_len - iof->stdin_off);
            if (n < 0 && EAGAIN == errno) {
                event_del(iof->stdin_read);
                event_add(iof->stdin_write, NULL);
                return;
            }
            if (n < 0 && EINTR == errno) {
                continue;
            }
            if (n < 0) {
                stdin_stop(iof);   /* the process closed its stdin */
                return;
            }
            iof->stdin_off += (size_t)n;
            continue;
        }
        if (iof->stdin_eof) {
            stdin_stop(iof);
            return;
        }
        if (iof->stdin_pollable) {
            event_del(iof->stdin_write);
            event_add(iof->stdin_read, NULL);
            return;
        }
        if (!stdin_fill(iof)) {
            stdin_stop(iof);
            return;
        }
    }
}

static void on_stdin(evutil_socket_t fd, short what, void *arg)
{
    iof_t *iof = arg;
    if (EV_READ & what) {
        stdin_fill(iof);
    }
    stdin_pump(iof);
}

/* Start forwarding drover's stdin to s. */
static void stdin_start(iof_t *iof, stream_t *s)
{
    struct stat st;
    if (0 != fstat(0, &st)) {
        stdin_stop(iof);
        return;
    }
    iof->stdin_pollable = S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || isatty(0);
    iof->stdin_read = event_new(iof->base, 0, EV_READ | EV_PERSIST, on_stdin, iof);
    iof->stdin_write = event_new(iof->base, s->stdin_fd, EV_WRITE | EV_PERSIST, on_stdin, iof);
    if (NULL == iof->stdin_read || NULL == iof->stdin_write) {
        stdin_stop(iof);
        return;
    }
    if (iof->stdin_pollable) {
        event_add(iof->stdin_read, NULL);
    } else {
        event_add(iof->stdin_write, NULL);
    }
}

void iof_send_frames(iof_t *iof, int fd)
{
    iof->frames = fd;
}

static int make_pipe(int p[2])
{
    return pipe2(p, O_CLOEXEC);
}

/* The ranks' output pipes made ahead. */
static fd_pairs_t ahead = FD_PAIRS_INIT(make_pipe);

void iof_pipes_ahead(unsigned n)
{
    fd_pairs_fill(&ahead, n);
}

int iof_prepare(iof_t *iof, unsigned job, unsigned rank, bool with_stdin, int fds[3],
                void **handle)
{
    stream_t *s = calloc(1, sizeof(*s));
    if (NULL == s) {
        return ENOMEM;
    }
    s->iof = iof;
    s->stdin_fd = -1;
    s->job = job;
    s->rank = rank;
    int rc = 0;
    int p[2][2] = {{-1, -1}, {-1, -1}}, in[2] = {-1, -1};
    char tag[32];
    if (0 == job) {
        snprintf(tag, sizeof(tag), "[%u] ", rank);
    } else {
        snprintf(tag, sizeof(tag), "[%u.%u] ", job, rank);
    }
    if (iof->tag_output && NULL == (s->tag = strdup(tag))) {
        rc = ENOMEM;
        goto fail;
    }
    for (int i = 0; i < 2; i++) {
        if (0 != fd_pairs_take(&ahead, p[i])) {
            rc = errno;
            goto fail;
        }
    }
    if (with_stdin && 0 != pipe2(in, O_CLOEXEC | O_NONBLOCK)) {
        rc = errno;
        goto fail;
    }
    if (with_stdin) {
        /* Only drover's end is non-blocking. */
        fcntl(in[0], F_SETFL, 0);
    }
    for (int i = 0; i < 2; i++) {
        s->out[i] = (channel_t){.owner = s, .fd = p[i][0], .target = i + 1};
        s->child_fds[i + 1] = p[i][1];
    }
    s->child_fds[0] = with_stdin ? in[0] : iof->devnull;
    s->stdin_fd = in[1];
    memcpy(fds, s->child_fds, sizeof(s->child_fds));
    s->next = iof->streams;
    iof->streams = s;
    if (with_stdin) {
        iof->stdin_target = s;
    }
    *handle = s;
    return 0;

fail:
    for (int i = 0; i < 2; i++) {
        if (p[i][0] >= 0) {
            close(p[i][0]);
            close(p[i][1]);
        }
    }
    if (in[0] >= 0) {
        close(in[0]);
        close(in[1]);
    }
    free(s->tag);
    free(s);
    return rc;
}

void iof_launched(iof_t *iof, void *handle, bool started)
{
    stream_t *s = handle;
    for (int i = 0; i < 3; i++) {
        if (s->child_fds[i] != iof->devnull) {
            close(s->child_fds[i]);
        }
        s->child_fds[i] = -1;
    }
    for (int i = 0; i < 2; i++) {
        channel_t *ch = &s->out[i];
        ch->ev = started ? event_new(iof->base, ch->fd, EV_READ | EV_PERSIST, on_output, ch)
                         : NULL;
        iof->open++;
        if (NULL == ch->ev || 0 != event_add(ch->ev, NULL)) {
            channel_close(ch);
        }
    }
    if (iof->stdin_target == s) {
        if (started) {
            stdin_start(iof, s);
        } else {
            stdin_stop(iof);
        }
    }
}

void iof_exited(iof_t *iof, void *handle)
{
    if (NULL != handle && iof->stdin_target == handle) {
        stdin_stop(iof);
    }
}

unsigned iof_open_streams(const iof_t *iof)
{
    return NULL == iof ? 0 : iof->open;
}

void iof_message(iof_t *iof, void *handle, int fd, const char *text)
{
    stream_t *s = handle;
    const char *tag = NULL != s && NULL != s->tag ? s->tag : "";
    size_t len = strlen(text);
    bool newline = len > 0 && '\n' == text[len - 1];
    char *line;
    int n = asprintf(&line, "%s%s%s", tag, text, newline ? "" : "\n");
    if (n > 0) {
        write_all(iof, 1 == fd ? 1 : 2, line, (size_t)n);
        free(line);
    }
}

void iof_destroy(iof_t *iof)
{
    if (NULL == iof) {
        return;
    }
    iof->closed = NULL;
    iof->broken_cb = NULL;
    stdin_stop(iof);
    while (NULL != iof->streams) {
        stream_t *s = iof->streams;
        iof->streams = s->next;
        for (int i = 0; i < 2; i++) {
            if (NULL == s->out[i].buf && s->out[i].fd >= 0) {
                /* Never launched: nothing was counted or buffered. */
                close(s->out[i].fd);
                continue;
            }
            channel_close(&s->out[i]);
        }
        for (int i = 0; i < 3; i++) {
            if (s->child_fds[i] >= 0 && s->child_fds[i] != iof->devnull) {
                close(s->child_fds[i]);
            }
        }
        free(s->tag);
        free(s);
    }
    close(iof->devnull);
    free(iof);
    fd_pairs_close(&ahead);
}
