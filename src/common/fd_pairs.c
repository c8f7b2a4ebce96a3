/*
 * fd_pairs.c - pairs of descriptors made ahead (fd_pairs.h says why).
 */
#include <stdbool.h>
#include <unistd.h>

#include "fd_pairs.h"

void fd_pairs_fill(fd_pairs_t *p, unsigned n)
{
    pthread_mutex_lock(&p->lock);
    while (p->n < n && p->n < FD_PAIRS_MAX && 0 == p->make(p->pairs[p->n])) {
        p->n++;
    }
    pthread_mutex_unlock(&p->lock);
}

int fd_pairs_take(fd_pairs_t *p, int pair[2])
{
    pthread_mutex_lock(&p->lock);
    bool taken = p->n > 0;
    if (taken) {
        p->n--;
        pair[0] = p->pairs[p->n][0];
        pair[1] = p->pairs[p->n][1];
    }
    pthread_mutex_unlock(&p->lock);
    return taken ? 0 : p->make(pair);
}

void fd_pairs_close(fd_pairs_t *p)
{
    pthread_mutex_lock(&p->lock);
    while (p->n > 0) {
        p->n--;
        close(p->pairs[p->n][0]);
        close(p->pairs[p->n][1]);
    }
    pthread_mutex_unlock(&p->lock);
}
