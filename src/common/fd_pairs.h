/*
 * fd_pairs.h - pairs of descriptors (pipes, socket pairs) made ahead of
 * the launch that takes them.
 *
 * Each pair costs a system call (5 us here), and a launch waits for its
 * ranks' pairs before it starts them: a daemon's standby makes its first
 * ranks' output pipes (iof.c) and PMI socket pairs (pmi.c) while it waits
 * for its job.
 */
#ifndef DROVER_FD_PAIRS_H
#define DROVER_FD_PAIRS_H

#include <pthread.h>

#define FD_PAIRS_MAX 64

typedef struct fd_pairs {
    pthread_mutex_t lock;
    int (*make)(int pair[2]); /* 0, or -1 with errno */
    int pairs[FD_PAIRS_MAX][2];
    unsigned n;
} fd_pairs_t;

#define FD_PAIRS_INIT(maker)                               \
    {                                                      \
        .lock = PTHREAD_MUTEX_INITIALIZER, .make = (maker) \
    }

/* Make pairs until n are ready (FD_PAIRS_MAX at most), or one fails. */
void fd_pairs_fill(fd_pairs_t *p, unsigned n);

/* A pair made ahead, else a new one: 0, or -1 with errno. Any thread. */
int fd_pairs_take(fd_pairs_t *p, int pair[2]);

/* Close the pairs still ready. */
void fd_pairs_close(fd_pairs_t *p);

#endif
