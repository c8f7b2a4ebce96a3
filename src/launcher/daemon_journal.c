/*
 * daemon_journal.c - the daemon's journal: records that outlive it.
 *
 * Design notes:
 *  - One append-only file in the state directory (opened O_NOFOLLOW,
 *    mode 0600). A record is an 8-byte header, its payload's length and
 *    the payload's CRC-32 (both little-endian), then the payload: a list
 *    of NUL-terminated words, as on the wire (docs/protocol.md).
 *  - An append returns once the record is written: the daemon answers a
 *    request only after that, so its death (even by SIGKILL) loses
 *    nothing it answered. The journal's thread then puts what was written
 *    on disk (fdatasync), against a crash of the machine: the daemon's
 *    loop does not wait for the disk, but to compact the journal (rare,
 *    below). A sync took 0.3 ms here as a rule but over 0.1 s at times,
 *    and a loop that waited for it held every job's exit status and every
 *    request meanwhile.
 *  - The thread syncs SYNC_DELAY_MS after the first record it has not
 *    synced, not at once: the records written meanwhile (a job's end, the
 *    jobs of a burst) share the sync, and the sync (the file system's
 *    commit, the disk's interrupts) does not land in the launch of the job
 *    whose record it is, which it slowed by 1 to 2 %. Stopping syncs at
 *    once. A crash of the machine may lose that much more; the daemon's
 *    own death, nothing.
 *  - A crash mid-write leaves a short or corrupt last record; replay
 *    stops there and cuts it off, so that later records follow the last
 *    good one.
 *  - Compaction writes the live records (the caller says which) to a new
 *    file, syncs it and renames it over the old one, then syncs the
 *    directory: at every moment one complete journal is in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"

#define HEADER_BYTES 8u
#define MAX_RECORD (1u << 20)
#define JOURNAL_TMP DAEMON_JOURNAL ".new"
/* Longer than an 8-rank launch on a loaded node. */
#define SYNC_DELAY_MS 20L

struct daemon_journal {
    int dirfd;
    int fd;
    size_t size;
    size_t live; /* bytes of the records the last compaction kept */
    /* The loop writes records, the thread syncs them. Under lock: */
    pthread_mutex_t lock;
    pthread_cond_t work, idle;
    uint64_t written, synced; /* records written, and on disk */
    bool stopping, syncing, waiting;
    pthread_t thread;
    bool threaded;
};

static uint32_t crc32(const unsigned char *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    while (n-- > 0) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++) {
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
        }
    }
    return ~crc;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        p[i] = (unsigned char)(v >> (8 * i));
    }
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int write_full(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && EINTR == errno) {
            continue;
        }
        if (w <= 0) {
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* A record of words into a new buffer (*len bytes). NULL on overflow. */
static unsigned char *encode(char *const *words, size_t nwords, size_t *len)
{
    size_t payload = 0;
    for (size_t i = 0; i < nwords; i++) {
        payload += strlen(words[i]) + 1;
    }
    if (0 == payload || payload > MAX_RECORD) {
        errno = E2BIG;
        return NULL;
    }
    unsigned char *rec = malloc(HEADER_BYTES + payload);
    if (NULL == rec) {
        return NULL;
    }
    size_t off = HEADER_BYTES;
    for (size_t i = 0; i < nwords; i++) {
        size_t n = strlen(words[i]) + 1;
        memcpy(rec + off, words[i], n);
        off += n;
    }
    put32(rec, (uint32_t)payload);
    put32(rec + 4, crc32(rec + HEADER_BYTES, payload));
    *len = off;
    return rec;
}

static int append_to(int fd, char *const *words, size_t nwords, size_t *size)
{
    size_t len;
    unsigned char *rec = encode(words, nwords, &len);
    if (NULL == rec) {
        return -1;
    }
    int rc = write_full(fd, rec, len);
    free(rec);
    if (0 == rc) {
        *size += len;
    }
    return rc;
}

/* Hand every whole record of buf to fn; returns the bytes they span. */
static size_t replay(const unsigned char *buf, size_t size, daemon_journal_record_fn fn, void *arg)
{
    size_t off = 0;
    while (size - off >= HEADER_BYTES) {
        uint32_t len = get32(buf + off);
        const unsigned char *payload = buf + off + HEADER_BYTES;
        if (0 == len || len > MAX_RECORD || len > size - off - HEADER_BYTES ||
            '\0' != payload[len - 1] || crc32(payload, len) != get32(buf + off + 4)) {
            break;
        }
        char *words[64];
        size_t nwords = 0;
        for (size_t p = 0; p < len && nwords < 64; p += strlen((const char *)payload + p) + 1) {
            words[nwords++] = (char *)payload + p;
        }
        fn(arg, words, nwords);
        off += HEADER_BYTES + len;
    }
    return off;
}

static unsigned char *read_all(int fd, size_t *size)
{
    struct stat st;
    if (0 != fstat(fd, &st)) {
        return NULL;
    }
    unsigned char *buf = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (NULL != buf && got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
    *size = got;
    return buf;
}

/* Until work is signalled (a record, or the stop), under lock. */
static void wait_for_work(daemon_journal_t *j)
{
    j->waiting = true;
    pthread_cond_wait(&j->work, &j->lock);
    j->waiting = false;
}

/* SYNC_DELAY_MS from now, on the clock the conditions wait on. */
static struct timespec sync_deadline(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_nsec += SYNC_DELAY_MS * 1000000L;
    t.tv_sec += t.tv_nsec / 1000000000L;
    t.tv_nsec %= 1000000000L;
    return t;
}

/* The thread: syncs what was written, until stopped with nothing left. */
static void *sync_records(void *arg)
{
    daemon_journal_t *j = arg;
    pthread_mutex_lock(&j->lock);
    for (;;) {
        while (!j->stopping && j->synced == j->written) {
            wait_for_work(j);
        }
        /* Only the stop cuts the delay short: appends meanwhile do not
         * signal (daemon_journal_append). */
        struct timespec until = sync_deadline();
        while (!j->stopping && ETIMEDOUT != pthread_cond_timedwait(&j->work, &j->lock, &until)) {
        }
        if (j->synced == j->written) {
            if (j->stopping) {
                break;
            }
            continue;
        }
        uint64_t target = j->written;
        int fd = j->fd;
        j->syncing = true;
        pthread_mutex_unlock(&j->lock);
        /* A failure is the disk's: the next record tries again. */
        bool done = 0 == fdatasync(fd);
        pthread_mutex_lock(&j->lock);
        j->syncing = false;
        j->synced = done ? target : j->synced;
        pthread_cond_broadcast(&j->idle);
        if (!done && !j->stopping) {
            wait_for_work(j);
        } else if (!done) {
            break;
        }
    }
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

daemon_journal_t *daemon_journal_open(int dirfd, daemon_journal_record_fn fn, void *arg,
                                      size_t *dropped)
{
    daemon_journal_t *j = calloc(1, sizeof(*j));
    if (NULL == j) {
        return NULL;
    }
    pthread_condattr_t monotonic;
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->work, &monotonic);
    pthread_condattr_destroy(&monotonic);
    pthread_cond_init(&j->idle, NULL);
    j->dirfd = dirfd;
    j->fd = openat(dirfd, DAEMON_JOURNAL, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    size_t size = 0;
    unsigned char *buf = j->fd < 0 ? NULL : read_all(j->fd, &size);
    if (NULL == buf) {
        daemon_journal_close(j);
        return NULL;
    }
    size_t good = replay(buf, size, fn, arg);
    free(buf);
    *dropped = size - good;
    /* A torn tail goes, so that new records follow the last good one. */
    if ((good != size && 0 != ftruncate(j->fd, (off_t)good)) ||
        (off_t)good != lseek(j->fd, (off_t)good, SEEK_SET)) {
        daemon_journal_close(j);
        return NULL;
    }
    j->size = j->live = good;
    /* A new journal's name must outlive a crash too, before the first
     * record it acknowledges. */
    if (0 == size) {
        fsync(dirfd);
    }
    if (0 != (errno = pthread_create(&j->thread, NULL, sync_records, j))) {
        int err = errno;
        daemon_journal_close(j);
        errno = err;
        return NULL;
    }
    j->threaded = true;
    return j;
}

int daemon_journal_append(daemon_journal_t *j, char *const *words, size_t nwords)
{
    size_t before = j->size;
    if (0 != append_to(j->fd, words, nwords, &j->size)) {
        /* Nothing half-written may stay in front of later records. */
        int err = errno;
        if (0 == ftruncate(j->fd, (off_t)before)) {
            lseek(j->fd, (off_t)before, SEEK_SET);
        }
        j->size = before;
        errno = err;
        return -1;
    }
    pthread_mutex_lock(&j->lock);
    j->written++;
    if (j->waiting) {
        pthread_cond_signal(&j->work);
    }
    pthread_mutex_unlock(&j->lock);
    return 0;
}

bool daemon_journal_wants_compaction(const daemon_journal_t *j)
{
    return j->size > DAEMON_JOURNAL_COMPACT_BYTES && j->size > 2 * j->live;
}

/* Write the live records to a new file, synced, renamed over the old
 * one; the thread is held off meanwhile. */
static int compact_locked(daemon_journal_t *j, daemon_journal_live_fn live, void *arg)
{
    int fd =
        openat(j->dirfd, JOURNAL_TMP, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        return -1;
    }
    size_t size = 0;
    int rc = live(arg, fd, &size);
    if (0 != rc || 0 != fdatasync(fd) ||
        0 != renameat(j->dirfd, JOURNAL_TMP, j->dirfd, DAEMON_JOURNAL)) {
        close(fd);
        unlinkat(j->dirfd, JOURNAL_TMP, 0);
        return -1;
    }
    fsync(j->dirfd);
    close(j->fd);
    /* Appends go on in the new file, which holds every live record, on
     * disk. */
    j->fd = openat(j->dirfd, DAEMON_JOURNAL, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    close(fd);
    j->size = j->live = size;
    j->synced = j->written;
    return j->fd < 0 ? -1 : 0;
}

int daemon_journal_compact(daemon_journal_t *j, daemon_journal_live_fn live, void *arg)
{
    pthread_mutex_lock(&j->lock);
    while (j->syncing) {
        pthread_cond_wait(&j->idle, &j->lock);
    }
    int rc = compact_locked(j, live, arg);
    pthread_mutex_unlock(&j->lock);
    return rc;
}

int daemon_journal_write(int fd, size_t *size, char *const *words, size_t nwords)
{
    return append_to(fd, words, nwords, size);
}

void daemon_journal_close(daemon_journal_t *j)
{
    if (NULL == j) {
        return;
    }
    if (j->threaded) {
        /* It syncs what is left before it ends. */
        pthread_mutex_lock(&j->lock);
        j->stopping = true;
        pthread_cond_signal(&j->work);
        pthread_mutex_unlock(&j->lock);
        pthread_join(j->thread, NULL);
    }
    if (j->fd >= 0) {
        close(j->fd);
    }
    pthread_cond_destroy(&j->idle);
    pthread_cond_destroy(&j->work);
    pthread_mutex_destroy(&j->lock);
    free(j);
}
