/*
 * eventq.h - work posted to one thread by any other: a queue under a
 * mutex and an eventfd that wakes the thread. The client's progress thread
 * polls the eventfd, the server's libevent loop watches it; both run what
 * was posted with eventq_run. Private.
 */
#ifndef DROVER_EVENTQ_H
#define DROVER_EVENTQ_H

#include <pthread.h>
#include <stdbool.h>

#include "pmix_common.h"

typedef struct eventq_item eventq_item_t;

typedef struct eventq {
    pthread_mutex_t lock;        /* head, tail, accepting */
    eventq_item_t *head, *tail;
    bool accepting;              /* posts are taken (eventq_open..._stop) */
    int fd;                      /* the eventfd; -1 when closed */
} eventq_t;

#define EVENTQ_INITIALIZER {.lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1}

/* Create the eventfd and start taking posts. */
pmix_status_t eventq_open(eventq_t *q);

/* Queue fn(arg) and wake the thread. PMIX_ERR_INIT when q takes no posts
 * (fn is then never called). */
pmix_status_t eventq_post(eventq_t *q, void (*fn)(void *arg), void *arg);

/* Wake the thread with nothing posted (to make it look at its flags). */
void eventq_wake(eventq_t *q);

/* In the woken thread: clear the wake-up, then run what was posted, in
 * order. Work posted meanwhile waits for the next wake-up. */
void eventq_run(eventq_t *q);

/* Refuse later posts; what is queued stays for eventq_run. */
void eventq_stop(eventq_t *q);

/* Stop, drop what was never run, and close the eventfd. */
void eventq_close(eventq_t *q);

#endif
