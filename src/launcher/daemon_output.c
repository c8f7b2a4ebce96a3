/*
 * daemon_output.c - a submitted job's output: its files in the state
 *   directory, which rank wrote what, and which jobs' files are kept.
 *
 * Design notes:
 *  - A submitted job's run gets three pipes: its own stdout and stderr
 *    (what drover itself says: its errors, PMIx_Log) and the frame pipe
 *    (fd 5, DAEMON_OUTPUT_ENV), on which it sends what its ranks write as
 *    frames naming the rank and the channel (output_frames.c). A frame
 *    stream that breaks (a malformed header) is closed and logged through
 *    the run's own stderr; the pipes go on.
 *  - Whatever comes is appended to jobs/<id>/stdout or stderr, as before
 *    ranks were told apart (so `drover output JOB` is what a standalone
 *    run would have printed), and a record of where it went and who
 *    wrote it is appended to jobs/<id>/ranks: 24 bytes, the offset in
 *    the file (uint64), the length (uint32), the rank (uint32; UINT32_MAX
 *    for the run's own), the run's job index (uint32), the channel (1 or
 *    2) and three zero bytes, in the host's byte order. The bytes are in
 *    the file before their record, so a reader that sees a record can
 *    read them. `drover output --rank R` and `--tag-output` read them
 *    back through daemon_output_read.
 *  - Each piece then goes to the PMIx server with its true source
 *    (daemon_pmix_output), which hands it to the tools that pulled it.
 *  - The job directories outlive the daemon with the journal: a new
 *    daemon keeps the directories of the jobs its journal knows and
 *    removes everything else in jobs/ (daemon_output_sweep); the jobs
 *    module keeps the newest DAEMON_KEEP_OUTPUT ended jobs' directories.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon.h"
#include "output_frames.h"
#include "rmtree.h"

#define RECORD_SIZE 24
#define READ_CHUNK 65536

struct daemon_output {
    unsigned id;
    daemon_job_output_fn fn;
    void *arg;
    int files[2]; /* jobs/<id>/stdout and stderr */
    uint64_t size[2]; /* how much each holds */
    int index; /* jobs/<id>/ranks */
    int pipes[2]; /* the run's own stdout and stderr; -1 closed */
    struct event *pipe_ev[2];
    int frames; /* the ranks' frames; -1 closed */
    struct event *frames_ev;
    output_frames_reader_t reader;
};

/* ---- the run's side ----------------------------------------------------- */

static int frames_fd = -1;

void daemon_output_take_env(bool daemon_job)
{
    const char *fd = getenv(DAEMON_OUTPUT_ENV);
    if (daemon_job && NULL != fd && 0 == strcmp(fd, DAEMON_FRAMES_FD_TEXT) &&
        0 == fcntl(DAEMON_FRAMES_FD, F_SETFD, FD_CLOEXEC)) {
        frames_fd = DAEMON_FRAMES_FD;
    }
    unsetenv(DAEMON_OUTPUT_ENV);
}

int daemon_output_frames(void)
{
    return frames_fd;
}

/* ---- the daemon's side: writing ------------------------------------------- */

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

static void stop_fd(int *fd, struct event **ev)
{
    if (NULL != *ev) {
        event_free(*ev);
        *ev = NULL;
    }
    close_fd(fd);
}

/* Stop reading a stream; once all three have ended, the files are
 * closed (an ended job holds no fd of the daemon). */
static void stop_stream(daemon_output_t *out, int *fd, struct event **ev)
{
    stop_fd(fd, ev);
    if (out->pipes[0] < 0 && out->pipes[1] < 0 && out->frames < 0) {
        close_fd(&out->files[0]);
        close_fd(&out->files[1]);
        close_fd(&out->index);
    }
}

/* The record of a piece at offset of its file. */
static void record(const daemon_output_t *out, const daemon_output_piece_t *p, uint64_t offset,
                   uint32_t len)
{
    unsigned char rec[RECORD_SIZE] = {0};
    uint32_t job = p->job;
    memcpy(rec, &offset, 8);
    memcpy(rec + 8, &len, 4);
    memcpy(rec + 12, &p->rank, 4);
    memcpy(rec + 16, &job, 4);
    rec[20] = (unsigned char)p->fd;
    /* A record lost (the disk full) loses only --rank's view of it. */
    (void)!write(out->index, rec, sizeof(rec));
}

/* A piece of output: into its file, its record, and to the tools. */
static void take_piece(daemon_output_t *out, const daemon_output_piece_t *p)
{
    int i = p->fd - 1;
    size_t done = 0;
    while (done < p->len && out->files[i] >= 0) {
        ssize_t w = write(out->files[i], p->bytes + done, p->len - done);
        if (w <= 0) {
            break;
        }
        done += (size_t)w;
    }
    if (done > 0) {
        record(out, p, out->size[i], (uint32_t)done);
        out->size[i] += done;
    }
    out->fn(out->arg, out->id, p);
}

static void on_pipe(evutil_socket_t fd, short what, void *arg)
{
    daemon_output_t *out = arg;
    int i = (int)fd == out->pipes[0] ? 0 : 1;
    char buf[READ_CHUNK];
    ssize_t n;
    while ((n = read((int)fd, buf, sizeof(buf))) > 0) {
        daemon_output_piece_t p = {
            .rank = DAEMON_OUTPUT_RUN, .fd = i + 1, .bytes = buf, .len = (size_t)n};
        take_piece(out, &p);
    }
    if (0 == n || (n < 0 && EAGAIN != errno && EINTR != errno)) {
        stop_stream(out, &out->pipes[i], &out->pipe_ev[i]);
    }
}

static void take_frame(void *arg, const output_frame_t *f)
{
    daemon_output_piece_t p = {
        .job = f->job, .rank = f->rank, .fd = f->channel, .bytes = f->bytes, .len = f->len};
    take_piece(arg, &p);
}

/* The run's own message about its frames, as if on its stderr. */
static void frames_failed(daemon_output_t *out, const char *why)
{
    char text[160];
    int n = snprintf(text, sizeof(text), DAEMON_NAME ": job %u: %s\n", out->id, why);
    daemon_output_piece_t p = {.rank = DAEMON_OUTPUT_RUN, .fd = 2, .bytes = text, .len = (size_t)n};
    take_piece(out, &p);
}

static void on_frames(evutil_socket_t fd, short what, void *arg)
{
    daemon_output_t *out = arg;
    ssize_t n = 0;
    size_t room;
    unsigned char *at;
    while (NULL != (at = output_frames_room(&out->reader, &room)) && room > 0 &&
           (n = read((int)fd, at, room)) > 0) {
        if (0 != output_frames_take(&out->reader, (size_t)n, take_frame, out)) {
            frames_failed(out, "its ranks' output came malformed; the rest of it is dropped");
            stop_stream(out, &out->frames, &out->frames_ev);
            return;
        }
    }
    if (0 == n || (n < 0 && EAGAIN != errno && EINTR != errno)) {
        if (output_frames_partial(&out->reader)) {
            frames_failed(out, "its ranks' output ended in the middle of a frame");
        }
        stop_stream(out, &out->frames, &out->frames_ev);
    }
}

/* A pipe whose read end the daemon watches with cb; the write end goes
 * to *child. 0 or -1. */
static int watched_pipe(struct event_base *base, daemon_output_t *out, int *fd, struct event **ev,
                        event_callback_fn cb, int *child)
{
    int p[2];
    if (0 != pipe2(p, O_CLOEXEC)) {
        return -1;
    }
    *fd = p[0];
    *child = p[1];
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    *ev = event_new(base, p[0], EV_READ | EV_PERSIST, cb, out);
    return NULL == *ev || 0 != event_add(*ev, NULL) ? -1 : 0;
}

/* jobs/<id>/stdout, stderr and ranks, made afresh. 0 or -1. */
static int make_files(daemon_output_t *out, int dirfd)
{
    char dir[64];
    snprintf(dir, sizeof(dir), DAEMON_JOBS "/%u", out->id);
    if (0 != mkdirat(dirfd, dir, 0700)) {
        return -1;
    }
    int dfd = openat(dirfd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) {
        return -1;
    }
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_APPEND;
    out->files[0] = openat(dfd, "stdout", flags, 0600);
    out->files[1] = openat(dfd, "stderr", flags, 0600);
    out->index = openat(dfd, "ranks", flags, 0600);
    close(dfd);
    return out->files[0] < 0 || out->files[1] < 0 || out->index < 0 ? -1 : 0;
}

daemon_output_t *daemon_output_open(struct event_base *base, int dirfd, unsigned id,
                                    daemon_job_output_fn fn, void *arg, int child[3])
{
    daemon_output_t *out = calloc(1, sizeof(*out));
    child[0] = child[1] = child[2] = -1;
    if (NULL == out) {
        return NULL;
    }
    *out = (daemon_output_t){.id = id,
                             .fn = fn,
                             .arg = arg,
                             .files = {-1, -1},
                             .index = -1,
                             .pipes = {-1, -1},
                             .frames = -1};
    if (0 != output_frames_init(&out->reader) || 0 != make_files(out, dirfd) ||
        0 != watched_pipe(base, out, &out->pipes[0], &out->pipe_ev[0], on_pipe, &child[0]) ||
        0 != watched_pipe(base, out, &out->pipes[1], &out->pipe_ev[1], on_pipe, &child[1]) ||
        0 != watched_pipe(base, out, &out->frames, &out->frames_ev, on_frames, &child[2])) {
        for (int i = 0; i < 3; i++) {
            if (child[i] >= 0) {
                close(child[i]);
                child[i] = -1;
            }
        }
        daemon_output_close(out);
        return NULL;
    }
    return out;
}

void daemon_output_drain(daemon_output_t *out)
{
    for (int i = 0; i < 2; i++) {
        if (out->pipes[i] >= 0) {
            on_pipe(out->pipes[i], EV_READ, out);
        }
    }
    if (out->frames >= 0) {
        on_frames(out->frames, EV_READ, out);
    }
}

void daemon_output_close(daemon_output_t *out)
{
    if (NULL == out) {
        return;
    }
    for (int i = 0; i < 2; i++) {
        stop_fd(&out->pipes[i], &out->pipe_ev[i]);
    }
    stop_stream(out, &out->frames, &out->frames_ev);
    output_frames_release(&out->reader);
    free(out);
}

/* ---- the job directories ---------------------------------------------------- */

/* The job id a name of jobs/ stands for, 0 for none. */
static unsigned job_of(const char *name)
{
    char *end;
    errno = 0;
    unsigned long id = strtoul(name, &end, 10);
    return name[0] >= '1' && name[0] <= '9' && '\0' == *end && 0 == errno && id <= UINT32_MAX
               ? (unsigned)id
               : 0;
}

int daemon_output_dir(int dirfd)
{
    struct stat st;
    if (0 == fstatat(dirfd, DAEMON_JOBS, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode) &&
        st.st_uid == geteuid()) {
        return 0;
    }
    rmtree_at(dirfd, DAEMON_JOBS, geteuid(), true);
    return mkdirat(dirfd, DAEMON_JOBS, 0700);
}

bool daemon_output_kept(int dirfd, unsigned id)
{
    char name[64];
    struct stat st;
    snprintf(name, sizeof(name), DAEMON_JOBS "/%u", id);
    return 0 == fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode);
}

void daemon_output_remove(int dirfd, unsigned id)
{
    char name[64];
    snprintf(name, sizeof(name), DAEMON_JOBS "/%u", id);
    rmtree_at(dirfd, name, geteuid(), true);
}

/* The arguments of daemon_output_sweep. */
typedef struct sweep {
    bool (*keep)(void *arg, unsigned id);
    void *arg;
} sweep_t;

static bool not_kept(void *arg, const char *name)
{
    const sweep_t *sweep = arg;
    unsigned id = job_of(name);
    return 0 == id || !sweep->keep(sweep->arg, id);
}

void daemon_output_sweep(int dirfd, bool (*keep)(void *arg, unsigned id), void *arg)
{
    sweep_t sweep = {.keep = keep, .arg = arg};
    daemon_dir_remove_if(dirfd, DAEMON_JOBS, not_kept, &sweep);
}

/* ---- reading back: drover output --rank, --tag-output ------------------------ */

/* Write len bytes to out; false when it failed. */
static bool put(FILE *out, const char *bytes, size_t len)
{
    return len == fwrite(bytes, 1, len, out);
}

/* A piece to its channel, each line tagged with its source when asked
 * ("[rank] ", "[job.rank] "; the run's own lines untagged). A piece of
 * another source than the line it interrupts starts a line of its own. */
static bool show(daemon_output_reader_t *r, const daemon_output_piece_t *p)
{
    FILE *out = 1 == p->fd ? stdout : stderr;
    struct daemon_output_line *last = &r->last[p->fd - 1];
    if (!r->tag) {
        return put(out, p->bytes, p->len);
    }
    char tag[32] = "";
    if (DAEMON_OUTPUT_RUN != p->rank && 0 == p->job) {
        snprintf(tag, sizeof(tag), "[%u] ", p->rank);
    } else if (DAEMON_OUTPUT_RUN != p->rank) {
        snprintf(tag, sizeof(tag), "[%u.%u] ", p->job, p->rank);
    }
    bool same = last->job == p->job && last->rank == p->rank;
    if (last->midline && !same && !put(out, "\n", 1)) {
        return false;
    }
    bool midline = last->midline && same;
    for (size_t i = 0; i < p->len;) {
        const char *nl = memchr(p->bytes + i, '\n', p->len - i);
        size_t end = NULL == nl ? p->len : (size_t)(nl - p->bytes) + 1;
        if ((!midline && !put(out, tag, strlen(tag))) || !put(out, p->bytes + i, end - i)) {
            return false;
        }
        midline = NULL == nl;
        i = end;
    }
    *last = (struct daemon_output_line){.job = p->job, .rank = p->rank, .midline = midline};
    return true;
}

/* The record rec, checked, as a piece (without its bytes) at *offset. */
static bool parse_record(const unsigned char *rec, daemon_output_piece_t *p, uint64_t *offset)
{
    uint32_t len, job;
    memcpy(offset, rec, 8);
    memcpy(&len, rec + 8, 4);
    memcpy(&p->rank, rec + 12, 4);
    memcpy(&job, rec + 16, 4);
    p->job = job;
    p->fd = rec[20];
    p->len = len;
    return (1 == p->fd || 2 == p->fd) && len > 0 && len <= READ_CHUNK && 0 == rec[21] &&
           0 == rec[22] && 0 == rec[23];
}

/* The piece of a record: its bytes read from its file and shown. */
static bool copy_piece(daemon_output_reader_t *r, daemon_output_piece_t *p, uint64_t offset,
                       char *buf)
{
    ssize_t n = pread(r->files[p->fd - 1], buf, p->len, (off_t)offset);
    if (n != (ssize_t)p->len) {
        return false;
    }
    p->bytes = buf;
    return show(r, p);
}

int daemon_output_read(daemon_output_reader_t *r)
{
    unsigned char recs[RECORD_SIZE * 256];
    char *buf = malloc(READ_CHUNK);
    ssize_t n;
    bool ok = NULL != buf;
    while (ok && (n = pread(r->index, recs, sizeof(recs), r->at)) >= RECORD_SIZE) {
        /* Whole records only: the daemon may be writing the next. */
        for (size_t at = 0; ok && at + RECORD_SIZE <= (size_t)n; at += RECORD_SIZE) {
            daemon_output_piece_t p;
            uint64_t offset;
            ok = parse_record(recs + at, &p, &offset);
            if (ok && (r->every_rank || (0 == p.job && p.rank == r->rank))) {
                ok = copy_piece(r, &p, offset, buf);
            }
            r->at += ok ? RECORD_SIZE : 0;
        }
    }
    free(buf);
    return ok && 0 == fflush(stdout) && 0 == fflush(stderr) ? 0 : -1;
}
