/*
 * daemon_store.c - the daemon's publications: PMIx_Publish / Lookup /
 *                  Unpublish data shared by all of its jobs.
 *
 * Design notes:
 *  - A job's run keeps publications of narrow ranges itself (pubsub.c)
 *    and hands those of range SESSION or GLOBAL (the default, and what
 *    Open MPI's MPI_Publish_name and connect/accept use) to the daemon,
 *    whose jobs are one session: each is seen by every job.
 *  - The daemon does not read the values: they come packed (PMIx_Data_pack
 *    of the pmix_value_t, in hex) and go back as they came.
 *  - A key is published once: again, while the first is there, is
 *    PMIX_ERR_DUPLICATE_KEY.
 *  - Persistence: PROC goes when the run says its publisher ended (or the
 *    job ends), APP and SESSION when the publisher's job ends, FIRST_READ
 *    with the first lookup that returns it, INDEF only when unpublished.
 *    INDEF publications are journaled (daemon_journal.c) before the
 *    publish is acknowledged, and come back when a daemon starts.
 *  - A lookup may wait (PMIX_WAIT) for keys published later: its
 *    connection stays open, each publish re-examines the waiting lookups
 *    (oldest first), and a timer or the run hanging up ends the wait.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon.h"
#include "pmix.h"

typedef struct pub {
    struct pub *next;
    char *key;
    char *value;
    char *nspace;
    char *rank;
    unsigned job;
    int persistence;
} pub_t;

typedef struct waiter {
    struct waiter *next;
    daemon_store_t *store;
    int fd;
    char **keys; /* NULL-terminated copies */
    size_t needed;
    struct event *hangup;
    struct event *timer;
} waiter_t;

struct daemon_store {
    struct event_base *base;
    daemon_journal_t *const *journal; /* the daemon's, once open */
    pub_t *pubs;
    waiter_t *waiters; /* oldest first */
};

daemon_store_t *daemon_store_create(struct event_base *base, daemon_journal_t *const *journal)
{
    daemon_store_t *store = calloc(1, sizeof(*store));
    if (NULL != store) {
        store->base = base;
        store->journal = journal;
    }
    return store;
}

static void pub_free(pub_t *p)
{
    free(p->key);
    free(p->value);
    free(p->nspace);
    free(p->rank);
    free(p);
}

static pub_t *pub_new(const char *key, const char *value, const char *nspace, const char *rank,
                      unsigned job, int persistence)
{
    pub_t *p = calloc(1, sizeof(*p));
    if (NULL == p) {
        return NULL;
    }
    p->key = strdup(key);
    p->value = strdup(value);
    p->nspace = strdup(nspace);
    p->rank = strdup(rank);
    p->job = job;
    p->persistence = persistence;
    if (NULL == p->key || NULL == p->value || NULL == p->nspace || NULL == p->rank) {
        pub_free(p);
        return NULL;
    }
    return p;
}

static pub_t *find(const daemon_store_t *store, const char *key)
{
    for (pub_t *p = store->pubs; NULL != p; p = p->next) {
        if (0 == strcmp(p->key, key)) {
            return p;
        }
    }
    return NULL;
}

static void unlink_pub(daemon_store_t *store, pub_t *victim)
{
    for (pub_t **p = &store->pubs; NULL != *p; p = &(*p)->next) {
        if (*p == victim) {
            *p = victim->next;
            return;
        }
    }
}

/* An INDEF publication's record: "pub KEY VALUE NSPACE RANK", or its
 * removal, "unpub KEY". */
static int journal_pub(daemon_store_t *store, const pub_t *p, bool added)
{
    if (PMIX_PERSIST_INDEF != p->persistence || NULL == *store->journal) {
        return 0;
    }
    char *words[] = {added ? "pub" : "unpub", p->key, p->value, p->nspace, p->rank};
    return daemon_journal_append(*store->journal, words, added ? 5 : 2);
}

static void reply_status(int fd, pmix_status_t status)
{
    char text[16];
    snprintf(text, sizeof(text), "%d", status);
    daemon_wire_sendv(fd, PMIX_SUCCESS == status ? "ok" : "error", text, NULL);
}

/* ---- waiting lookups --------------------------------------------------- */

static void waiter_free(waiter_t *w)
{
    for (waiter_t **p = &w->store->waiters; NULL != *p; p = &(*p)->next) {
        if (*p == w) {
            *p = w->next;
            break;
        }
    }
    if (NULL != w->hangup) {
        event_free(w->hangup);
    }
    if (NULL != w->timer) {
        event_free(w->timer);
    }
    if (w->fd >= 0) {
        close(w->fd);
    }
    for (size_t k = 0; NULL != w->keys && NULL != w->keys[k]; k++) {
        free(w->keys[k]);
    }
    free(w->keys);
    free(w);
}

/* Answer the lookup on fd if at least needed of keys are there: "ok"
 * then NSPACE RANK KEY VALUE for each found. Returns whether it did. */
static bool answer(daemon_store_t *store, int fd, char *const *keys, size_t needed)
{
    size_t nkeys = 0, nfound = 0;
    for (; NULL != keys[nkeys]; nkeys++) {
        nfound += NULL != find(store, keys[nkeys]);
    }
    if (nfound < (0 == needed || needed > nkeys ? nkeys : needed)) {
        return false;
    }
    char **words = calloc(1 + 4 * nfound, sizeof(*words));
    if (NULL == words) {
        reply_status(fd, PMIX_ERR_NOMEM);
        return true;
    }
    size_t n = 0;
    words[n++] = "ok";
    for (size_t k = 0; k < nkeys; k++) {
        pub_t *p = find(store, keys[k]);
        if (NULL != p) {
            words[n++] = p->nspace;
            words[n++] = p->rank;
            words[n++] = p->key;
            words[n++] = p->value;
        }
    }
    daemon_wire_send(fd, words, n, NULL, 0);
    free(words);
    for (size_t k = 0; k < nkeys; k++) {
        pub_t *p = find(store, keys[k]);
        if (NULL != p && PMIX_PERSIST_FIRST_READ == p->persistence) {
            /* Read: the next lookup does not see it. */
            unlink_pub(store, p);
            pub_free(p);
        }
    }
    return true;
}

static void check_waiters(daemon_store_t *store)
{
    waiter_t *w = store->waiters;
    while (NULL != w) {
        waiter_t *next = w->next;
        if (answer(store, w->fd, w->keys, w->needed)) {
            waiter_free(w);
        }
        w = next;
    }
}

static void on_waiter_timeout(evutil_socket_t fd, short what, void *arg)
{
    waiter_t *w = arg;
    reply_status(w->fd, PMIX_ERR_TIMEOUT);
    waiter_free(w);
}

/* The run went away (or sent something it should not have). */
static void on_waiter_hangup(evutil_socket_t fd, short what, void *arg)
{
    waiter_free(arg);
}

static bool wait_for(daemon_store_t *store, int fd, char *const *keys, size_t needed,
                     unsigned long timeout)
{
    waiter_t *w = calloc(1, sizeof(*w));
    if (NULL == w) {
        return false;
    }
    w->store = store;
    w->fd = fd;
    w->needed = needed;
    size_t nkeys = 0;
    while (NULL != keys[nkeys]) {
        nkeys++;
    }
    w->keys = calloc(nkeys + 1, sizeof(*w->keys));
    bool ok = NULL != w->keys;
    for (size_t k = 0; ok && k < nkeys; k++) {
        ok = NULL != (w->keys[k] = strdup(keys[k]));
    }
    w->hangup = event_new(store->base, fd, EV_READ, on_waiter_hangup, w);
    ok = ok && NULL != w->hangup && 0 == event_add(w->hangup, NULL);
    if (ok && timeout > 0) {
        struct timeval tv = {(time_t)timeout, 0};
        w->timer = evtimer_new(store->base, on_waiter_timeout, w);
        ok = NULL != w->timer && 0 == evtimer_add(w->timer, &tv);
    }
    waiter_t **tail = &store->waiters;
    while (NULL != *tail) {
        tail = &(*tail)->next;
    }
    *tail = w;
    if (!ok) {
        /* The caller closes fd. */
        w->fd = -1;
        waiter_free(w);
    }
    return ok;
}

/* ---- requests ---------------------------------------------------------- */

static bool parse_ulong(const char *s, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (s[0] < '0' || s[0] > '9' || '\0' != *end || 0 != errno) {
        return false;
    }
    *out = v;
    return true;
}

/* publish JOB NSPACE RANK PERSIST (KEY VALUE)... */
static void publish(daemon_store_t *store, int fd, unsigned job, char *const *w, size_t n)
{
    unsigned long persist;
    if (n < 6 || 0 != (n - 4) % 2 || !parse_ulong(w[3], &persist) ||
        persist > PMIX_PERSIST_SESSION) {
        reply_status(fd, PMIX_ERR_BAD_PARAM);
        return;
    }
    for (size_t i = 4; i < n; i += 2) {
        for (size_t k = 4; k < i; k += 2) {
            if (0 == strcmp(w[i], w[k])) {
                reply_status(fd, PMIX_ERR_DUPLICATE_KEY);
                return;
            }
        }
        if (NULL != find(store, w[i])) {
            reply_status(fd, PMIX_ERR_DUPLICATE_KEY);
            return;
        }
    }
    pmix_status_t status = PMIX_SUCCESS;
    pub_t *added = NULL;
    for (size_t i = 4; PMIX_SUCCESS == status && i < n; i += 2) {
        pub_t *p = pub_new(w[i], w[i + 1], w[1], w[2], job, (int)persist);
        if (NULL == p) {
            status = PMIX_ERR_NOMEM;
        } else if (0 != journal_pub(store, p, true)) {
            status = PMIX_ERROR;
            pub_free(p);
        } else {
            p->next = added;
            added = p;
        }
    }
    /* All or nothing: journaled ones that must go are journaled gone. */
    while (NULL != added) {
        pub_t *p = added;
        added = p->next;
        if (PMIX_SUCCESS == status) {
            p->next = store->pubs;
            store->pubs = p;
        } else {
            journal_pub(store, p, false);
            pub_free(p);
        }
    }
    reply_status(fd, status);
    if (PMIX_SUCCESS == status) {
        check_waiters(store);
    }
}

/* lookup JOB NSPACE RANK NEEDED TIMEOUT KEY... (NEEDED 0: no wait).
 * Returns whether fd is kept for a later answer. */
static bool lookup(daemon_store_t *store, int fd, char *const *w, size_t n)
{
    unsigned long needed, timeout;
    if (n < 6 || !parse_ulong(w[3], &needed) || !parse_ulong(w[4], &timeout)) {
        reply_status(fd, PMIX_ERR_BAD_PARAM);
        return false;
    }
    char *const *keys = w + 5;
    if (0 == needed) {
        /* Without PMIX_WAIT: what is there now, if anything. */
        if (!answer(store, fd, keys, 1)) {
            reply_status(fd, PMIX_ERR_NOT_FOUND);
        }
        return false;
    }
    if (answer(store, fd, keys, needed)) {
        return false;
    }
    if (!wait_for(store, fd, keys, needed, timeout)) {
        reply_status(fd, PMIX_ERR_NOMEM);
        return false;
    }
    return true;
}

/* unpublish JOB NSPACE RANK [KEY...]: the publisher's own. */
static void unpublish(daemon_store_t *store, int fd, char *const *w, size_t n)
{
    size_t removed = 0;
    pmix_status_t status = PMIX_SUCCESS;
    pub_t **p = &store->pubs;
    while (NULL != *p) {
        pub_t *e = *p;
        bool match = 0 == strcmp(e->nspace, w[1]) && 0 == strcmp(e->rank, w[2]);
        if (match && n > 3) {
            match = false;
            for (size_t k = 3; k < n; k++) {
                match = match || 0 == strcmp(e->key, w[k]);
            }
        }
        if (match && 0 != journal_pub(store, e, false)) {
            status = PMIX_ERROR;
            match = false;
        }
        if (match) {
            *p = e->next;
            pub_free(e);
            removed++;
        } else {
            p = &e->next;
        }
    }
    reply_status(fd, PMIX_SUCCESS != status ? status
                     : removed > 0          ? PMIX_SUCCESS
                                            : PMIX_ERR_NOT_FOUND);
}

/* Drop the job's publications that persistence ties to what ended: the
 * proc nspace/rank (PROC), every proc of nspace (rank NULL: APP), or the
 * whole job (nspace NULL: PROC, APP and SESSION). */
static void drop(daemon_store_t *store, unsigned job, const char *nspace, const char *rank)
{
    pub_t **p = &store->pubs;
    while (NULL != *p) {
        pub_t *e = *p;
        bool gone = e->job == job;
        if (NULL == nspace) {
            gone = gone &&
                   (PMIX_PERSIST_PROC == e->persistence || PMIX_PERSIST_APP == e->persistence ||
                    PMIX_PERSIST_SESSION == e->persistence);
        } else if (NULL == rank) {
            gone = gone && PMIX_PERSIST_APP == e->persistence && 0 == strcmp(e->nspace, nspace);
        } else {
            gone = gone && PMIX_PERSIST_PROC == e->persistence && 0 == strcmp(e->nspace, nspace) &&
                   0 == strcmp(e->rank, rank);
        }
        if (gone) {
            *p = e->next;
            pub_free(e);
        } else {
            p = &e->next;
        }
    }
}

bool daemon_store_verb(const char *verb)
{
    return 0 == strcmp(verb, "publish") || 0 == strcmp(verb, "lookup") ||
           0 == strcmp(verb, "unpublish") || 0 == strcmp(verb, "forget");
}

bool daemon_store_request(daemon_store_t *store, int fd, unsigned job, char *const *words,
                          size_t nwords)
{
    const char *verb = words[0];
    if (nwords < 4) {
        reply_status(fd, PMIX_ERR_BAD_PARAM);
    } else if (0 == strcmp(verb, "publish")) {
        publish(store, fd, job, words + 1, nwords - 1);
    } else if (0 == strcmp(verb, "lookup")) {
        return lookup(store, fd, words + 1, nwords - 1);
    } else if (0 == strcmp(verb, "unpublish")) {
        unpublish(store, fd, words + 1, nwords - 1);
    } else {
        /* forget JOB NSPACE RANK|* */
        drop(store, job, words[2], 0 == strcmp(words[3], "*") ? NULL : words[3]);
        reply_status(fd, PMIX_SUCCESS);
    }
    return false;
}

void daemon_store_job_ended(daemon_store_t *store, unsigned job)
{
    drop(store, job, NULL, NULL);
}

/* ---- the journal ------------------------------------------------------- */

void daemon_store_replay(daemon_store_t *store, char *const *words, size_t nwords)
{
    pub_t *p = 2 <= nwords ? find(store, words[1]) : NULL;
    if (NULL != p) {
        /* Replaced (pub) or removed (unpub). */
        unlink_pub(store, p);
        pub_free(p);
    }
    if (5 == nwords && 0 == strcmp(words[0], "pub") &&
        NULL != (p = pub_new(words[1], words[2], words[3], words[4], 0, PMIX_PERSIST_INDEF))) {
        p->next = store->pubs;
        store->pubs = p;
    }
}

int daemon_store_dump(const daemon_store_t *store, int fd, size_t *size)
{
    for (const pub_t *p = store->pubs; NULL != p; p = p->next) {
        char *words[] = {"pub", p->key, p->value, p->nspace, p->rank};
        if (PMIX_PERSIST_INDEF == p->persistence && 0 != daemon_journal_write(fd, size, words, 5)) {
            return -1;
        }
    }
    return 0;
}

void daemon_store_destroy(daemon_store_t *store)
{
    if (NULL == store) {
        return;
    }
    while (NULL != store->waiters) {
        reply_status(store->waiters->fd, PMIX_ERR_NOT_FOUND);
        waiter_free(store->waiters);
    }
    while (NULL != store->pubs) {
        pub_t *p = store->pubs;
        store->pubs = p->next;
        pub_free(p);
    }
    free(store);
}
