/*
 * pubsub.c - the publish/lookup store behind PMIx_Publish, PMIx_Lookup
 *            and PMIx_Unpublish.
 *
 * Design notes:
 *  - The host keeps the store, as the contract says: one list of entries
 *    {key, value, publisher, range, persistence}, all in the main thread.
 *  - Ranges decide visibility both ways: an entry is seen by a requester
 *    its range admits, and a lookup's own PMIX_RANGE limits which
 *    publishers it sees. Everything runs on one node in one session, so
 *    RM, LOCAL, SESSION, GLOBAL and UNDEF admit everyone; NAMESPACE admits
 *    the publisher's namespace; PROC_LOCAL the publisher only.
 *  - A key may be published once per range: publishing it again where the
 *    two would see each other is PMIX_ERR_DUPLICATE_KEY, and a publish
 *    that fails stores nothing.
 *  - Persistence: INDEF and SESSION last until unpublished or the run
 *    ends; FIRST_READ goes once a lookup returns it; PROC when the
 *    publisher ends; APP when the publisher's job ends.
 *  - PMIX_WAIT makes a lookup wait until all its keys (or the number
 *    given) are found; PMIX_TIMEOUT bounds the wait (PMIX_ERR_TIMEOUT).
 *    Every publish re-examines the waiting lookups, oldest first, so a
 *    FIRST_READ entry goes to the lookup that waited longest.
 *  - A daemon's job shares with the daemon's other jobs: publications of
 *    range SESSION or GLOBAL (or none: SESSION is the default, and what
 *    Open MPI uses) go to the daemon (pubsub_daemon.c), as do lookups of
 *    those ranges that the run cannot answer in full itself, and the end
 *    of publishers. Narrower ranges stay here. The daemon also has the
 *    data of its other jobs' processes (pubsub_modex) and meets their
 *    runs for a connect across jobs (pubsub_connect).
 */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "daemon.h"
#include "directive.h"
#include "launcher.h"
#include "pmix.h"

typedef struct entry {
    struct entry *next;
    pmix_proc_t publisher;
    char key[PMIX_MAX_KEYLEN + 1];
    pmix_value_t value;
    pmix_data_range_t range;
    pmix_persistence_t persistence;
} entry_t;

typedef struct waiter {
    struct waiter *next;
    pubsub_t *ps;
    pmix_proc_t requester;
    char **keys;
    size_t needed;
    pmix_data_range_t range;
    struct event *timer;
    pmix_lookup_cbfunc_t cbfunc;
    void *cbdata;
} waiter_t;

struct pubsub {
    struct event_base *base;
    pubsub_daemon_t *daemon;   /* a daemon's job: the shared store */
    bool mortal;               /* it has PROC or APP data there */
    entry_t *entries;
    waiter_t *waiters;   /* oldest first */
};

pubsub_t *pubsub_create(struct event_base *base)
{
    pubsub_t *ps = calloc(1, sizeof(*ps));
    if (NULL == ps) {
        return NULL;
    }
    ps->base = base;
    unsigned job = daemon_client_job();
    if (job > 0 && NULL == (ps->daemon = pubsub_daemon_create(base, job))) {
        free(ps);
        return NULL;
    }
    return ps;
}

static bool admits(pmix_data_range_t range, const pmix_proc_t *owner, const pmix_proc_t *other)
{
    switch (range) {
    case PMIX_RANGE_NAMESPACE:
        return PMIX_CHECK_NSPACE(owner->nspace, other->nspace);
    case PMIX_RANGE_PROC_LOCAL:
        return PMIX_CHECK_PROCID(owner, other);
    default:
        return true;
    }
}

static bool visible(const entry_t *e, const pmix_proc_t *requester, pmix_data_range_t range)
{
    return admits(e->range, &e->publisher, requester) && admits(range, requester, &e->publisher);
}

static bool is_directive(const pmix_info_t *i)
{
    return PMIX_CHECK_KEY(i, PMIX_RANGE) || PMIX_CHECK_KEY(i, PMIX_PERSISTENCE) ||
           PMIX_CHECK_KEY(i, PMIX_TIMEOUT) || PMIX_CHECK_KEY(i, PMIX_WAIT) ||
           PMIX_CHECK_KEY(i, PMIX_USERID) || PMIX_CHECK_KEY(i, PMIX_GRPID);
}

/* The PMIX_RANGE or PMIX_PERSISTENCE directive (its own type or any
 * integer, as Open MPI sends them), else dflt. */
static int directive_of(const pmix_info_t *info, size_t ninfo, const char *key, int dflt)
{
    const pmix_value_t *v = directive_find(info, ninfo, key);
    int64_t n;
    if (NULL == v) {
        return dflt;
    }
    if (PMIX_DATA_RANGE == v->type) {
        return v->data.range;
    }
    if (PMIX_PERSIST == v->type) {
        return v->data.persist;
    }
    return PMIX_SUCCESS == directive_integer(v, &n) && n >= 0 && n <= UINT8_MAX ? (int)n : dflt;
}

static pmix_data_range_t range_of(const pmix_info_t *info, size_t ninfo)
{
    return (pmix_data_range_t)directive_of(info, ninfo, PMIX_RANGE, PMIX_RANGE_SESSION);
}

/* Whether the daemon keeps what has this range. */
static bool shared(const pubsub_t *ps, pmix_data_range_t range)
{
    return NULL != ps->daemon && (PMIX_RANGE_SESSION == range || PMIX_RANGE_GLOBAL == range ||
                                  PMIX_RANGE_UNDEF == range);
}

static void entry_free(entry_t *e)
{
    PMIX_VALUE_DESTRUCT(&e->value);
    free(e);
}

static void check_waiters(pubsub_t *ps);

static pmix_persistence_t persistence_of(const pmix_info_t *info, size_t ninfo)
{
    return (pmix_persistence_t)directive_of(info, ninfo, PMIX_PERSISTENCE, PMIX_PERSIST_SESSION);
}

static pmix_status_t publish_here(pubsub_t *ps, const pmix_proc_t *proc, const pmix_info_t *info,
                                  size_t ninfo)
{
    pmix_data_range_t range = range_of(info, ninfo);
    pmix_persistence_t persistence = persistence_of(info, ninfo);
    entry_t *added = NULL;
    size_t nadded = 0;
    pmix_status_t rc = PMIX_ERR_DUPLICATE_KEY;
    for (size_t i = 0; i < ninfo; i++) {
        if (is_directive(&info[i])) {
            continue;
        }
        for (entry_t *e = ps->entries; NULL != e; e = e->next) {
            if (PMIX_CHECK_KEY(e, info[i].key) && admits(e->range, &e->publisher, proc) &&
                admits(range, proc, &e->publisher)) {
                goto fail;
            }
        }
        for (entry_t *e = added; NULL != e; e = e->next) {
            if (PMIX_CHECK_KEY(e, info[i].key)) {
                goto fail;
            }
        }
        entry_t *e = calloc(1, sizeof(*e));
        if (NULL == e) {
            rc = PMIX_ERR_NOMEM;
            goto fail;
        }
        e->publisher = *proc;
        PMIX_LOAD_KEY(e->key, info[i].key);
        e->range = range;
        e->persistence = persistence;
        PMIx_Value_xfer(&e->value, &info[i].value);
        e->next = added;
        added = e;
        nadded++;
    }
    if (0 == nadded) {
        return PMIX_ERR_BAD_PARAM;
    }
    while (NULL != added) {
        entry_t *e = added;
        added = e->next;
        e->next = ps->entries;
        ps->entries = e;
    }
    check_waiters(ps);
    return PMIX_SUCCESS;

fail:
    while (NULL != added) {
        entry_t *e = added;
        added = e->next;
        entry_free(e);
    }
    return rc;
}

/* To the daemon: the data among info, or PMIX_ERR_BAD_PARAM if none. */
static void publish_shared(pubsub_t *ps, const pmix_proc_t *proc, const pmix_info_t *info,
                           size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    const pmix_info_t **data = calloc(ninfo + 1, sizeof(*data));
    size_t ndata = 0;
    for (size_t i = 0; NULL != data && i < ninfo; i++) {
        if (!is_directive(&info[i])) {
            data[ndata++] = &info[i];
        }
    }
    if (NULL == data || 0 == ndata) {
        if (NULL != cbfunc) {
            cbfunc(NULL == data ? PMIX_ERR_NOMEM : PMIX_ERR_BAD_PARAM, cbdata);
        }
    } else {
        pmix_persistence_t persistence = persistence_of(info, ninfo);
        ps->mortal = ps->mortal || PMIX_PERSIST_PROC == persistence ||
                     PMIX_PERSIST_APP == persistence;
        pubsub_daemon_publish(ps->daemon, proc, data, ndata, persistence, cbfunc, cbdata);
    }
    free(data);
}

void pubsub_publish(pubsub_t *ps, const pmix_proc_t *proc, const pmix_info_t *info, size_t ninfo,
                    pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (shared(ps, range_of(info, ninfo))) {
        publish_shared(ps, proc, info, ninfo, cbfunc, cbdata);
        return;
    }
    pmix_status_t rc = publish_here(ps, proc, info, ninfo);
    if (NULL != cbfunc) {
        cbfunc(rc, cbdata);
    }
}

static entry_t *find(pubsub_t *ps, const char *key, const pmix_proc_t *requester,
                     pmix_data_range_t range)
{
    for (entry_t *e = ps->entries; NULL != e; e = e->next) {
        if (PMIX_CHECK_KEY(e, key) && visible(e, requester, range)) {
            return e;
        }
    }
    return NULL;
}

static void remove_entry(pubsub_t *ps, entry_t *victim)
{
    for (entry_t **e = &ps->entries; NULL != *e; e = &(*e)->next) {
        if (*e == victim) {
            *e = victim->next;
            entry_free(victim);
            return;
        }
    }
}

/* Answer w if enough of its keys are there (or, with force, whatever is
 * there with status). Returns true when w was answered. */
static bool try_answer(pubsub_t *ps, waiter_t *w, bool force, pmix_status_t status)
{
    size_t nkeys = 0, nfound = 0;
    while (NULL != w->keys[nkeys]) {
        nfound += NULL != find(ps, w->keys[nkeys], &w->requester, w->range);
        nkeys++;
    }
    size_t needed = 0 == w->needed || w->needed > nkeys ? nkeys : w->needed;
    if (nfound < needed && !force) {
        return false;
    }
    if (force) {
        w->cbfunc(status, NULL, 0, w->cbdata);
        return true;
    }
    pmix_pdata_t *data = NULL;
    PMIX_PDATA_CREATE(data, nfound);
    size_t n = 0;
    for (size_t k = 0; NULL != data && k < nkeys; k++) {
        entry_t *e = find(ps, w->keys[k], &w->requester, w->range);
        if (NULL != e) {
            data[n].proc = e->publisher;
            PMIX_LOAD_KEY(data[n].key, e->key);
            PMIx_Value_xfer(&data[n].value, &e->value);
            n++;
            if (PMIX_PERSIST_FIRST_READ == e->persistence) {
                remove_entry(ps, e);
            }
        }
    }
    if (NULL == data) {
        w->cbfunc(PMIX_ERR_NOMEM, NULL, 0, w->cbdata);
    } else {
        w->cbfunc(PMIX_SUCCESS, data, n, w->cbdata);
        PMIX_PDATA_FREE(data, nfound);
    }
    return true;
}

static void waiter_free(waiter_t *w)
{
    if (NULL != w->timer) {
        event_free(w->timer);
    }
    launch_free_env(w->keys);
    free(w);
}

static void unlink_waiter(pubsub_t *ps, waiter_t *w)
{
    for (waiter_t **p = &ps->waiters; NULL != *p; p = &(*p)->next) {
        if (*p == w) {
            *p = w->next;
            return;
        }
    }
}

static void check_waiters(pubsub_t *ps)
{
    waiter_t **p = &ps->waiters;
    while (NULL != *p) {
        waiter_t *w = *p;
        if (try_answer(ps, w, false, PMIX_SUCCESS)) {
            *p = w->next;
            waiter_free(w);
        } else {
            p = &w->next;
        }
    }
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
    waiter_t *w = arg;
    unlink_waiter(w->ps, w);
    try_answer(w->ps, w, true, PMIX_ERR_TIMEOUT);
    waiter_free(w);
}

void pubsub_lookup(pubsub_t *ps, const pmix_proc_t *proc, char **keys, const pmix_info_t *info,
                   size_t ninfo, pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    waiter_t *w = calloc(1, sizeof(*w));
    if (NULL == w) {
        cbfunc(PMIX_ERR_NOMEM, NULL, 0, cbdata);
        return;
    }
    bool wait = false;
    int timeout = directive_timeout(info, ninfo);
    for (size_t i = 0; i < ninfo; i++) {
        int64_t needed = 0;
        if (PMIX_CHECK_KEY(&info[i], PMIX_WAIT)) {
            /* PMIX_WAIT is the number of keys to wait for, 0 for all; a
             * boolean true (as some clients send) means all. */
            wait = PMIX_BOOL != info[i].value.type || info[i].value.data.flag;
            if (PMIX_BOOL != info[i].value.type &&
                PMIX_SUCCESS == directive_integer(&info[i].value, &needed) && needed > 0) {
                w->needed = (size_t)needed;
            }
        }
    }
    w->ps = ps;
    w->requester = *proc;
    w->range = range_of(info, ninfo);
    w->cbfunc = cbfunc;
    w->cbdata = cbdata;
    if (NULL == (w->keys = launch_copy_env(keys))) {
        cbfunc(PMIX_ERR_NOMEM, NULL, 0, cbdata);
        waiter_free(w);
        return;
    }
    size_t nkeys = 0, nhere = 0;
    for (; NULL != w->keys[nkeys]; nkeys++) {
        nhere += NULL != find(ps, w->keys[nkeys], proc, w->range);
    }
    if (shared(ps, w->range) && nhere < nkeys) {
        /* The daemon waits (if asked) for all or the number needed. */
        size_t needed = !wait ? 0 : 0 == w->needed || w->needed > nkeys ? nkeys : w->needed;
        pubsub_daemon_lookup(ps->daemon, proc, w->keys, needed, timeout, cbfunc, cbdata);
        waiter_free(w);
        return;
    }
    if (!wait) {
        /* Without PMIX_WAIT: what is there now, or not found. */
        size_t nfound = 0;
        for (size_t k = 0; NULL != w->keys[k]; k++) {
            nfound += NULL != find(ps, w->keys[k], proc, w->range);
        }
        if (0 == nfound) {
            cbfunc(PMIX_ERR_NOT_FOUND, NULL, 0, cbdata);
        } else {
            w->needed = 1;
            try_answer(ps, w, false, PMIX_SUCCESS);
        }
        waiter_free(w);
        return;
    }
    if (try_answer(ps, w, false, PMIX_SUCCESS)) {
        waiter_free(w);
        return;
    }
    if (timeout > 0) {
        struct timeval tv = {(time_t)timeout, 0};
        w->timer = evtimer_new(ps->base, on_timeout, w);
        if (NULL == w->timer || 0 != evtimer_add(w->timer, &tv)) {
            cbfunc(PMIX_ERR_NOMEM, NULL, 0, cbdata);
            waiter_free(w);
            return;
        }
    }
    waiter_t **tail = &ps->waiters;
    while (NULL != *tail) {
        tail = &(*tail)->next;
    }
    *tail = w;
}

static pmix_status_t unpublish_here(pubsub_t *ps, const pmix_proc_t *proc, char **keys,
                                    const pmix_info_t *info, size_t ninfo)
{
    pmix_data_range_t range = range_of(info, ninfo);
    bool any_range = true;
    for (size_t i = 0; i < ninfo; i++) {
        any_range = any_range && !PMIX_CHECK_KEY(&info[i], PMIX_RANGE);
    }
    size_t removed = 0;
    entry_t **p = &ps->entries;
    while (NULL != *p) {
        entry_t *e = *p;
        bool match = PMIX_CHECK_PROCID(&e->publisher, proc) && (any_range || e->range == range);
        if (match && NULL != keys && NULL != keys[0]) {
            match = false;
            for (size_t k = 0; NULL != keys[k]; k++) {
                match = match || PMIX_CHECK_KEY(e, keys[k]);
            }
        }
        if (match) {
            *p = e->next;
            entry_free(e);
            removed++;
        } else {
            p = &e->next;
        }
    }
    return removed > 0 ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
}

/* An unpublish both here and at the daemon: success if either found. */
typedef struct unpublishing {
    pmix_status_t here;
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
} unpublishing_t;

static void unpublished(pmix_status_t status, void *cbdata)
{
    unpublishing_t *u = cbdata;
    if (NULL != u->cbfunc) {
        u->cbfunc(PMIX_SUCCESS == u->here ? PMIX_SUCCESS : status, u->cbdata);
    }
    free(u);
}

void pubsub_unpublish(pubsub_t *ps, const pmix_proc_t *proc, char **keys, const pmix_info_t *info,
                      size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_status_t rc = unpublish_here(ps, proc, keys, info, ninfo);
    bool any_range = NULL == directive_find(info, ninfo, PMIX_RANGE);
    unpublishing_t *u = NULL;
    if ((any_range || shared(ps, range_of(info, ninfo))) && NULL != ps->daemon &&
        NULL != (u = malloc(sizeof(*u)))) {
        *u = (unpublishing_t){.here = rc, .cbfunc = cbfunc, .cbdata = cbdata};
        pubsub_daemon_unpublish(ps->daemon, proc, keys, unpublished, u);
    } else if (NULL != cbfunc) {
        cbfunc(rc, cbdata);
    }
}

void pubsub_forget(pubsub_t *ps, const pmix_proc_t *proc)
{
    if (NULL == ps) {
        return;
    }
    if (ps->mortal) {
        pubsub_daemon_forget(ps->daemon, proc);
    }
    bool job = PMIX_RANK_WILDCARD == proc->rank;
    entry_t **p = &ps->entries;
    while (NULL != *p) {
        entry_t *e = *p;
        bool gone = job ? PMIX_PERSIST_APP == e->persistence &&
                              PMIX_CHECK_NSPACE(e->publisher.nspace, proc->nspace)
                        : PMIX_PERSIST_PROC == e->persistence &&
                              PMIX_CHECK_PROCID(&e->publisher, proc);
        if (gone) {
            *p = e->next;
            entry_free(e);
        } else {
            p = &e->next;
        }
    }
}

void pubsub_modex(pubsub_t *ps, const pmix_proc_t *proc, pmix_modex_cbfunc_t cbfunc,
                  void *cbdata)
{
    if (NULL == ps->daemon) {
        cbfunc(PMIX_ERR_NOT_FOUND, NULL, 0, cbdata, NULL, NULL);
    } else {
        pubsub_daemon_modex(ps->daemon, proc, cbfunc, cbdata);
    }
}

void pubsub_connect(pubsub_t *ps, const pmix_proc_t *procs, size_t nprocs,
                    launcher_job_t *const *mine, size_t nmine, int timeout, bool disconnect,
                    pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (NULL == ps->daemon) {
        cbfunc(PMIX_ERR_NOT_FOUND, cbdata);
    } else {
        pubsub_daemon_connect(ps->daemon, procs, nprocs, mine, nmine, timeout, disconnect, cbfunc,
                              cbdata);
    }
}

void pubsub_group(pubsub_t *ps, const char *name, const pmix_proc_t *members, size_t n)
{
    if (NULL != ps->daemon) {
        pubsub_daemon_group(ps->daemon, name, members, n);
    }
}

void pubsub_group_op(pubsub_t *ps, bool destruct, const char *name, const pmix_proc_t *procs,
                     size_t nprocs, launcher_job_t *const *mine, size_t nmine,
                     const pmix_info_t *info, size_t ninfo, pmix_info_cbfunc_t cbfunc,
                     void *cbdata)
{
    if (NULL == ps->daemon) {
        cbfunc(PMIX_ERR_NOT_FOUND, NULL, 0, cbdata, NULL, NULL);
    } else {
        pubsub_daemon_group_op(ps->daemon, destruct, name, procs, nprocs, mine, nmine, info, ninfo,
                               cbfunc, cbdata);
    }
}

void pubsub_destroy(pubsub_t *ps)
{
    if (NULL == ps) {
        return;
    }
    pubsub_daemon_destroy(ps->daemon);
    while (NULL != ps->waiters) {
        waiter_t *w = ps->waiters;
        ps->waiters = w->next;
        try_answer(ps, w, true, PMIX_ERR_NOT_FOUND);
        waiter_free(w);
    }
    while (NULL != ps->entries) {
        entry_t *e = ps->entries;
        ps->entries = e->next;
        entry_free(e);
    }
    free(ps);
}
