/*
 * collective.c - gathering the local participants of a collective (fence,
 * connect, disconnect, group construct and destruct) before the host runs
 * it across nodes. The requests themselves are in fence.c, connect.c and
 * group.c.
 *
 * Design notes:
 *  - A collective is identified by its kind and its sorted participant
 *    list, the same on every process taking part, so contributions find
 *    each other without any id on the wire.
 *  - The number of local participants comes from the registrations (a
 *    wildcard counts every local process of the job, including those not
 *    yet registered as clients).
 *  - A collective cannot complete if a participant has gone (dropped its
 *    connection without finalizing, or was deregistered because its
 *    process ended) without contributing: it fails at once with
 *    PMIX_ERR_PROC_TERM_WO_SYNC, so no one hangs. A participant that only
 *    finalized may still initialise again and join. A group construct
 *    marked PMIX_GROUP_OPTIONAL completes without the gone instead.
 *  - Groups name their collectives: the group's name is part of the
 *    signature, so two groups of the same processes stay apart.
 *  - PMIX_TIMEOUT in the first contributor's directives arms a timer;
 *    when it fires, the members get PMIX_ERR_TIMEOUT. Once the host has
 *    the collective it is only abandoned, and freed on the host's answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "pmix.h"
#include "server.h"

static collective_t *collectives;

static int compare_procs(const void *a, const void *b)
{
    const pmix_proc_t *x = a, *y = b;
    int c = strncmp(x->nspace, y->nspace, PMIX_MAX_NSLEN);
    if (0 != c) {
        return c;
    }
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

size_t collective_normalise(pmix_proc_t *procs, size_t n)
{
    size_t k = 0;
    qsort(procs, n, sizeof(*procs), compare_procs);
    for (size_t i = 0; i < n; i++) {
        if (0 == k || 0 != compare_procs(&procs[k - 1], &procs[i])) {
            procs[k++] = procs[i];
        }
    }
    return k;
}

/* The name (a group's) is written with its length, so no name can be
 * mistaken for another followed by participants. */
static char *make_signature(collective_kind_t kind, const char *name, const pmix_proc_t *procs,
                            size_t n)
{
    size_t namelen = NULL == name ? 0 : strlen(name);
    size_t size = 48 + namelen + n * (PMIX_MAX_NSLEN + 16);
    char *sig = malloc(size);
    if (NULL == sig) {
        return NULL;
    }
    size_t len = (size_t)snprintf(sig, size, "%d#%zu:%s", (int)kind, namelen,
                                  NULL == name ? "" : name);
    for (size_t i = 0; i < n; i++) {
        len += (size_t)snprintf(sig + len, size - len, "|%.*s:%u", PMIX_MAX_NSLEN,
                                procs[i].nspace, procs[i].rank);
    }
    return sig;
}

bool collective_includes(const pmix_proc_t *procs, size_t n, const pmix_proc_t *p)
{
    for (size_t i = 0; i < n; i++) {
        if (PMIX_CHECK_NSPACE(procs[i].nspace, p->nspace) &&
            (PMIX_RANK_WILDCARD == procs[i].rank || procs[i].rank == p->rank)) {
            return true;
        }
    }
    return false;
}

static bool has_contributed(const collective_t *c, const pmix_proc_t *p)
{
    for (size_t i = 0; i < c->nmembers; i++) {
        if (PMIX_CHECK_PROCID(&c->members[i].proc, p)) {
            return true;
        }
    }
    return false;
}

/* The local participants that can no longer contribute: clients gone
 * without contributing, and clients deregistered since. */
static uint32_t count_lost(const collective_t *c)
{
    uint32_t lost = 0;
    for (size_t i = 0; i < c->nprocs; i++) {
        const server_nspace_t *ns = nspace_find(c->procs[i].nspace);
        if (NULL == ns) {
            continue;
        }
        for (uint32_t k = 0; k < ns->departed.count; k++) {
            pmix_proc_t p;
            PMIX_LOAD_PROCID(&p, ns->name, *(const pmix_rank_t *)ns->departed.entries[k].key);
            if ((PMIX_RANK_WILDCARD == c->procs[i].rank || c->procs[i].rank == p.rank) &&
                !has_contributed(c, &p)) {
                lost++;
            }
        }
        for (uint32_t k = 0; k < ns->clients.count; k++) {
            const server_client_t *client = ns->clients.entries[k].value;
            if ((PMIX_RANK_WILDCARD == c->procs[i].rank || c->procs[i].rank == client->proc.rank) &&
                client->gone && !has_contributed(c, &client->proc)) {
                lost++;
            }
        }
    }
    return lost;
}

/* Whether everyone still able to contribute has (PMIX_GROUP_OPTIONAL). */
static bool complete_without_lost(const collective_t *c)
{
    return c->nmembers + count_lost(c) >= c->expected;
}

static void free_collective(collective_t *c)
{
    for (size_t i = 0; i < c->nmembers; i++) {
        peer_release(c->members[i].peer);
    }
    if (NULL != c->timer) {
        event_free(c->timer);
    }
    free(c->members);
    free(c->signature);
    free(c->name);
    free(c->procs);
    protocol_free_array(c->info, c->ninfo, PMIX_INFO);
    PMIX_DATA_BUFFER_DESTRUCT(&c->blob);
    free(c);
}

static void unlink_collective(collective_t *c)
{
    for (collective_t **p = &collectives; NULL != *p; p = &(*p)->next) {
        if (*p == c) {
            *p = c->next;
            return;
        }
    }
}

static uint16_t command_of(collective_kind_t kind)
{
    switch (kind) {
    case COLLECTIVE_CONNECT:
        return PROTOCOL_CONNECT;
    case COLLECTIVE_DISCONNECT:
        return PROTOCOL_DISCONNECT;
    case COLLECTIVE_GROUP_CONSTRUCT:
        return PROTOCOL_GROUP_CONSTRUCT;
    case COLLECTIVE_GROUP_DESTRUCT:
        return PROTOCOL_GROUP_DESTRUCT;
    case COLLECTIVE_FENCE:
    default:
        return PROTOCOL_FENCE;
    }
}

void collective_finish(collective_t *c, pmix_status_t status, const pmix_data_buffer_t *body)
{
    for (size_t i = 0; i < c->nmembers; i++) {
        const collective_member_t *m = &c->members[i];
        peer_reply(m->peer, m->command, m->tag, status, body);
    }
    unlink_collective(c);
    if (c->at_host) {
        /* The host still holds it: free when it answers. */
        c->abandoned = true;
        for (size_t i = 0; i < c->nmembers; i++) {
            peer_release(c->members[i].peer);
        }
        c->nmembers = 0;
        return;
    }
    free_collective(c);
}

bool collective_host_answered(collective_t *c)
{
    c->at_host = false;
    if (c->abandoned) {
        free_collective(c);
        return false;
    }
    return true;
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
    collective_t *c = arg;
    collective_finish(c, PMIX_ERR_TIMEOUT, NULL);
}

/* Directives every kind understands. */
static void read_directives(collective_t *c)
{
    struct timeval tv = {.tv_sec = directive_timeout(c->info, c->ninfo)};

    for (size_t i = 0; i < c->ninfo; i++) {
        if (PMIX_CHECK_KEY(&c->info[i], PMIX_COLLECT_DATA)) {
            c->collect_data = PMIX_INFO_TRUE(&c->info[i]);
        } else if (PMIX_CHECK_KEY(&c->info[i], PMIX_GROUP_OPTIONAL)) {
            c->optional = PMIX_INFO_TRUE(&c->info[i]);
        }
    }
    if (tv.tv_sec > 0 && NULL == c->timer) {
        c->timer = evtimer_new(server.base, on_timeout, c);
        if (NULL != c->timer) {
            evtimer_add(c->timer, &tv);
        }
    }
}

static collective_t *find(const char *signature)
{
    for (collective_t *c = collectives; NULL != c; c = c->next) {
        if (0 == strcmp(c->signature, signature)) {
            return c;
        }
    }
    return NULL;
}

static uint32_t count_local(const pmix_proc_t *procs, size_t n)
{
    uint32_t total = 0;
    for (size_t i = 0; i < n; i++) {
        total += nspace_local_count(&procs[i]);
    }
    return total;
}

/* Find the collective for procs, or start it (taking procs and info over
 * on success). */
static pmix_status_t find_or_start(collective_kind_t kind, const char *name, pmix_proc_t *procs,
                                   size_t nprocs, pmix_info_t *info, size_t ninfo,
                                   collective_t **out, bool *adopted)
{
    char *sig = make_signature(kind, name, procs, nprocs);
    collective_t *c;

    *adopted = false;
    if (NULL == sig) {
        return PMIX_ERR_NOMEM;
    }
    if (NULL != (c = find(sig))) {
        free(sig);
        *out = c;
        return PMIX_SUCCESS;
    }
    if (NULL == (c = calloc(1, sizeof(*c)))) {
        free(sig);
        return PMIX_ERR_NOMEM;
    }
    if (NULL != name && NULL == (c->name = strdup(name))) {
        free(sig);
        free(c);
        return PMIX_ERR_NOMEM;
    }
    c->kind = kind;
    c->signature = sig;
    c->procs = procs;
    c->nprocs = nprocs;
    c->info = info;
    c->ninfo = ninfo;
    c->expected = count_local(procs, nprocs);
    PMIX_DATA_BUFFER_CONSTRUCT(&c->blob);
    read_directives(c);
    c->next = collectives;
    collectives = c;
    *adopted = true;
    *out = c;
    return PMIX_SUCCESS;
}

pmix_status_t collective_join(collective_kind_t kind, server_peer_t *peer, uint32_t tag,
                              pmix_proc_t *procs, size_t nprocs, pmix_info_t *info,
                              size_t ninfo, collective_t **out, bool *complete)
{
    return collective_join_named(kind, NULL, peer, tag, procs, nprocs, info, ninfo, out,
                                 complete);
}

pmix_status_t collective_join_named(collective_kind_t kind, const char *name, server_peer_t *peer,
                                    uint32_t tag, pmix_proc_t *procs, size_t nprocs,
                                    pmix_info_t *info, size_t ninfo, collective_t **out,
                                    bool *complete)
{
    collective_t *c = NULL;
    bool adopted = false;
    pmix_status_t rc = PMIX_SUCCESS;

    if (0 == nprocs) {
        free(procs);
        if (NULL == (procs = malloc(sizeof(*procs)))) {
            rc = PMIX_ERR_NOMEM;
            goto done;
        }
        PMIX_LOAD_PROCID(procs, peer->proc.nspace, PMIX_RANK_WILDCARD);
        nprocs = 1;
    }
    nprocs = collective_normalise(procs, nprocs);
    if (!collective_includes(procs, nprocs, &peer->proc)) {
        rc = PMIX_ERR_BAD_PARAM;
        goto done;
    }
    if (PMIX_SUCCESS !=
        (rc = find_or_start(kind, name, procs, nprocs, info, ninfo, &c, &adopted))) {
        goto done;
    }
    if (has_contributed(c, &peer->proc) || c->at_host) {
        rc = PMIX_ERR_BAD_PARAM;
        goto done;
    }
    collective_member_t *grown = realloc(c->members, (c->nmembers + 1) * sizeof(*grown));
    if (NULL == grown) {
        rc = PMIX_ERR_NOMEM;
        goto done;
    }
    c->members = grown;
    grown[c->nmembers++] = (collective_member_t){.peer = peer, .tag = tag,
                                                 .command = command_of(kind), .proc = peer->proc};
    peer_retain(peer);
    *out = c;
    *complete = c->nmembers >= c->expected;
    if (!*complete && c->optional) {
        *complete = complete_without_lost(c);
    } else if (!*complete && count_lost(c) > 0) {
        collective_finish(c, PMIX_ERR_PROC_TERM_WO_SYNC, NULL);
        *out = NULL;
    }
done:
    if (!adopted) {
        free(procs);
        protocol_free_array(info, ninfo, PMIX_INFO);
    }
    if (PMIX_SUCCESS != rc && adopted) {
        unlink_collective(c);
        free_collective(c);
    }
    return rc;
}

void collective_client_gone(server_client_t *client)
{
    collective_t *c = collectives;
    while (NULL != c) {
        collective_t *next = c->next;
        if (!c->at_host && collective_includes(c->procs, c->nprocs, &client->proc) &&
            !has_contributed(c, &client->proc)) {
            if (!c->optional) {
                collective_finish(c, PMIX_ERR_PROC_TERM_WO_SYNC, NULL);
            } else if (complete_without_lost(c) && NULL != c->ready) {
                /* The others need not wait for it any longer. */
                c->ready(c);
            }
        }
        c = next;
    }
}

void collective_clear_all(void)
{
    while (NULL != collectives) {
        collective_t *c = collectives;
        collectives = c->next;
        if (c->at_host) {
            /* The host may still answer: leave it abandoned. */
            c->abandoned = true;
            continue;
        }
        free_collective(c);
    }
}
