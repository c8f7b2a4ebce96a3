/*
 * eventq.c - work posted to one thread by any other, behind an eventfd.
 *
 * Design notes:
 *  - The eventfd is only a doorbell: the queue itself is a list under a
 *    mutex, taken whole by the woken thread, so a burst of posts costs
 *    one wake-up and runs in the order it came. Only a post to an empty
 *    queue rings it (a launch posts a dozen in a row, each ring a system
 *    call): the thread reads the doorbell before it takes the list, so a
 *    post it has not taken has always rung since.
 *  - Posting never runs the work in the poster's thread, even when that
 *    is the woken thread itself: a caller never sees its own callback run
 *    inside its call.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "errno_status.h"
#include "eventq.h"

struct eventq_item {
    void (*fn)(void *arg);
    void *arg;
    eventq_item_t *next;
};

pmix_status_t eventq_open(eventq_t *q)
{
    if ((q->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
        return errno_status(errno);
    }
    pthread_mutex_lock(&q->lock);
    q->accepting = true;
    pthread_mutex_unlock(&q->lock);
    return PMIX_SUCCESS;
}

void eventq_wake(eventq_t *q)
{
    uint64_t one = 1;
    while (write(q->fd, &one, sizeof(one)) < 0 && EINTR == errno) {
    }
}

pmix_status_t eventq_post(eventq_t *q, void (*fn)(void *arg), void *arg)
{
    eventq_item_t *item = malloc(sizeof(*item));
    if (NULL == item) {
        return PMIX_ERR_NOMEM;
    }
    *item = (eventq_item_t){.fn = fn, .arg = arg};
    pthread_mutex_lock(&q->lock);
    if (!q->accepting) {
        pthread_mutex_unlock(&q->lock);
        free(item);
        return PMIX_ERR_INIT;
    }
    bool was_empty = NULL == q->tail;
    if (was_empty) {
        q->head = item;
    } else {
        q->tail->next = item;
    }
    q->tail = item;
    pthread_mutex_unlock(&q->lock);
    if (was_empty) {
        eventq_wake(q);
    }
    return PMIX_SUCCESS;
}

static eventq_item_t *take_all(eventq_t *q)
{
    pthread_mutex_lock(&q->lock);
    eventq_item_t *list = q->head;
    q->head = q->tail = NULL;
    pthread_mutex_unlock(&q->lock);
    return list;
}

void eventq_run(eventq_t *q)
{
    uint64_t count;
    while (read(q->fd, &count, sizeof(count)) < 0 && EINTR == errno) {
    }
    for (eventq_item_t *list = take_all(q); NULL != list;) {
        eventq_item_t *item = list;
        list = item->next;
        item->fn(item->arg);
        free(item);
    }
}

void eventq_stop(eventq_t *q)
{
    pthread_mutex_lock(&q->lock);
    q->accepting = false;
    pthread_mutex_unlock(&q->lock);
}

void eventq_close(eventq_t *q)
{
    eventq_stop(q);
    for (eventq_item_t *list = take_all(q); NULL != list;) {
        eventq_item_t *item = list;
        list = item->next;
        free(item);
    }
    if (q->fd >= 0) {
        close(q->fd);
        q->fd = -1;
    }
}
