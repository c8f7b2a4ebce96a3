/*
 * daemon_modex.c - the data of another job's processes, for a job's run
 *                  (its server's direct modex), after a PMIx_Connect
 *                  across jobs.
 *
 * Design notes:
 *  - A run asks "modex JOB NSPACE RANK" on a connection of its own; the
 *    daemon finds the job that owns NSPACE (the job's own namespace, or
 *    one its run spawned) and passes "modex ID NSPACE
 *    RANK" on that job's control socket. Its run answers "modexdata ID
 *    STATUS HEX" with what PMIx_server_dmodex_request gave (the blob of
 *    the process's committed data), which goes back as "ok HEX" or
 *    "error STATUS".
 *  - A request waits at most MODEX_TIMEOUT seconds (the other job may
 *    end meanwhile) and is dropped when its run hangs up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon.h"
#include "pmix.h"

#define MODEX_TIMEOUT 30

typedef struct asking {
    struct asking *next;
    unsigned long id;
    int fd;
    struct event *hangup;
    struct event *timer;
} asking_t;

static asking_t *askings;
static unsigned long next_id;

static void asking_free(asking_t *a)
{
    for (asking_t **p = &askings; NULL != *p; p = &(*p)->next) {
        if (*p == a) {
            *p = a->next;
            break;
        }
    }
    if (NULL != a->hangup) {
        event_free(a->hangup);
    }
    if (NULL != a->timer) {
        event_free(a->timer);
    }
    if (a->fd >= 0) {
        close(a->fd);
    }
    free(a);
}

static void answer_status(int fd, pmix_status_t status)
{
    char text[16];
    snprintf(text, sizeof(text), "%d", status);
    daemon_wire_sendv(fd, "error", text, NULL);
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
    asking_t *a = arg;
    answer_status(a->fd, PMIX_ERR_TIMEOUT);
    asking_free(a);
}

static void on_hangup(evutil_socket_t fd, short what, void *arg)
{
    asking_free(arg);
}

bool daemon_modex_request(daemon_jobs_t *jobs, struct event_base *base, int fd, char *const *words,
                          size_t nwords)
{
    unsigned target = 4 == nwords ? daemon_connect_owner(jobs, words[2]) : 0;
    asking_t *a = 0 == target ? NULL : calloc(1, sizeof(*a));
    if (NULL == a) {
        answer_status(fd, 0 == target ? PMIX_ERR_NOT_FOUND : PMIX_ERR_NOMEM);
        return false;
    }
    a->id = ++next_id;
    a->fd = fd;
    char msg[PMIX_MAX_NSLEN + 64];
    int n = snprintf(msg, sizeof(msg), "modex %lu %s %s", a->id, words[2], words[3]);
    struct timeval tv = {MODEX_TIMEOUT, 0};
    a->hangup = event_new(base, fd, EV_READ, on_hangup, a);
    a->timer = evtimer_new(base, on_timeout, a);
    a->next = askings;
    askings = a;
    if (n <= 0 || (size_t)n >= sizeof(msg) || NULL == a->hangup || NULL == a->timer ||
        0 != event_add(a->hangup, NULL) || 0 != evtimer_add(a->timer, &tv) ||
        0 != daemon_jobs_control(jobs, target, msg)) {
        answer_status(fd, PMIX_ERR_UNREACH);
        /* The caller closes fd. */
        a->fd = -1;
        asking_free(a);
        return false;
    }
    return true;
}

void daemon_modex_answered(const char *msg)
{
    unsigned long id;
    int status, at = 0;
    if (2 != sscanf(msg, "modexdata %lu %d %n", &id, &status, &at) || 0 == at) {
        return;
    }
    for (asking_t *a = askings; NULL != a; a = a->next) {
        if (a->id == id) {
            if (0 == status) {
                daemon_wire_sendv(a->fd, "ok", msg + at, NULL);
            } else {
                answer_status(a->fd, status);
            }
            asking_free(a);
            return;
        }
    }
}

void daemon_modex_cancel(void)
{
    while (NULL != askings) {
        answer_status(askings->fd, PMIX_ERR_UNREACH);
        asking_free(askings);
    }
}
