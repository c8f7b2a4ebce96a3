/*
 * foreign.c - a daemon job's run: the other jobs' namespaces it has
 *             registered with its server, and when they go.
 *
 * Design notes:
 *  - A PMIx_Connect with processes of another of the daemon's jobs brings
 *    that job's description, which the run registers with its server as a
 *    namespace with no local processes (pubsub_daemon.c), so that its
 *    ranks can PMIx_Get the other job's keys.
 *  - Each such namespace is counted: one reference per connect that
 *    named it (however many of its processes, whatever number of the
 *    run's ranks took part: the server calls the host once per connect),
 *    taken back by a disconnect naming it; and one per group of the run's
 *    server that has members of it, for as long as the group lives (its
 *    members come from the server, DROVER_SERVER_GROUPS). When the last
 *    reference goes, the namespace is deregistered: the server forgets
 *    it, and a later connect registers it again. (A rank that read the
 *    other job's keys before keeps what it read.)
 *  - Everything runs in the run's main thread; deregistering waits for
 *    the server's thread, which never waits for this one.
 */
#include <stdlib.h>
#include <string.h>

#include "launcher.h"
#include "pmix.h"
#include "pmix_server.h"

typedef struct other {
    pmix_nspace_t nspace;
    unsigned refs;
} other_t;

/* The registered namespaces a group names, a reference on each. */
typedef struct held {
    struct held *next;
    char *group;
    pmix_nspace_t *nspaces;
    size_t n;
} held_t;

struct foreign {
    other_t *others;
    size_t nothers;
    held_t *held;
};

foreign_t *foreign_create(void)
{
    return calloc(1, sizeof(foreign_t));
}

static void free_held(held_t *h)
{
    free(h->group);
    free(h->nspaces);
    free(h);
}

void foreign_destroy(foreign_t *f)
{
    if (NULL == f) {
        return;
    }
    while (NULL != f->held) {
        held_t *h = f->held;
        f->held = h->next;
        free_held(h);
    }
    free(f->others);
    free(f);
}

static other_t *find(foreign_t *f, const char *nspace)
{
    for (size_t i = 0; i < f->nothers; i++) {
        if (PMIX_CHECK_NSPACE(f->others[i].nspace, nspace)) {
            return &f->others[i];
        }
    }
    return NULL;
}

pmix_status_t foreign_connected(foreign_t *f, const char *nspace, pmix_info_t *info, size_t ninfo)
{
    other_t *o = find(f, nspace);
    if (NULL != o) {
        o->refs++;
        return PMIX_SUCCESS;
    }
    other_t *grown = realloc(f->others, (f->nothers + 1) * sizeof(*grown));
    if (NULL == grown) {
        return PMIX_ERR_NOMEM;
    }
    f->others = grown;
    pmix_status_t rc = host_register_nspace(nspace, 0, info, ninfo);
    if (PMIX_SUCCESS == rc) {
        o = &f->others[f->nothers++];
        PMIX_LOAD_NSPACE(o->nspace, nspace);
        o->refs = 1;
    }
    return rc;
}

void foreign_release(foreign_t *f, const char *nspace)
{
    other_t *o = find(f, nspace);
    if (NULL == o || --o->refs > 0) {
        return;
    }
    /* Synchronous (no callback): gone from the server on return. */
    PMIx_server_deregister_nspace(o->nspace, NULL, NULL);
    *o = f->others[--f->nothers];
}

void foreign_disconnected(foreign_t *f, const pmix_proc_t *procs, size_t nprocs)
{
    for (size_t i = 0; i < nprocs; i++) {
        /* The server sorted them: a namespace's entries are together. */
        if (0 == i || !PMIX_CHECK_NSPACE(procs[i].nspace, procs[i - 1].nspace)) {
            foreign_release(f, procs[i].nspace);
        }
    }
}

/* Whether h holds nspace already. */
static bool holds(const held_t *h, const char *nspace)
{
    for (size_t i = 0; i < h->n; i++) {
        if (PMIX_CHECK_NSPACE(h->nspaces[i], nspace)) {
            return true;
        }
    }
    return false;
}

/* A reference on each registered namespace among members, for group
 * name; NULL when there is none (or memory runs out: then none is
 * taken). */
static held_t *hold(foreign_t *f, const char *name, const pmix_proc_t *members, size_t n)
{
    held_t *h = NULL;
    for (size_t i = 0; i < n; i++) {
        if (NULL == find(f, members[i].nspace) || (NULL != h && holds(h, members[i].nspace))) {
            continue;
        }
        if (NULL == h &&
            (NULL == (h = calloc(1, sizeof(*h))) || NULL == (h->group = strdup(name)))) {
            free(h);
            return NULL;
        }
        pmix_nspace_t *grown = realloc(h->nspaces, (h->n + 1) * sizeof(*grown));
        if (NULL == grown) {
            free_held(h);
            return NULL;
        }
        h->nspaces = grown;
        PMIX_LOAD_NSPACE(h->nspaces[h->n++], members[i].nspace);
    }
    for (size_t i = 0; NULL != h && i < h->n; i++) {
        find(f, h->nspaces[i])->refs++;
    }
    return h;
}

void foreign_group(foreign_t *f, const char *name, const pmix_proc_t *members, size_t n)
{
    held_t **where = &f->held;
    while (NULL != *where && 0 != strcmp((*where)->group, name)) {
        where = &(*where)->next;
    }
    /* The new references first: a namespace the group still names is
     * never released in between. */
    held_t *now = hold(f, name, members, n), *before = *where;
    if (NULL != before) {
        *where = before->next;
        for (size_t i = 0; i < before->n; i++) {
            foreign_release(f, before->nspaces[i]);
        }
        free_held(before);
    }
    if (NULL != now) {
        now->next = f->held;
        f->held = now;
    }
}
