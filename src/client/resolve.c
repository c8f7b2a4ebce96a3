/*
 * resolve.c - PMIx_Resolve_peers and PMIx_Resolve_nodes: which processes
 * of a job run on a node, and which nodes a job uses.
 *
 * Both read the job's registration: its node and rank maps
 * (PMIX_NODE_MAP, PMIX_PROC_MAP, kept under the keys of maps.h) when
 * present, else every rank's PMIX_HOSTNAME. A namespace whose registration is not here yet is
 * fetched from the server first (a get of its job size does that).
 * A NULL namespace means every namespace known here.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "maps.h"
#include "pmix.h"
#include "strbuf.h"

/* Make sure the registration of nspace is here. */
static pmix_status_t fetch(const char *nspace)
{
    pmix_proc_t wild;
    pmix_value_t *v = NULL;
    PMIX_LOAD_PROCID(&wild, nspace, PMIX_RANK_WILDCARD);
    pmix_status_t rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
    if (NULL != v) {
        PMIX_VALUE_RELEASE(v);
    }
    return rc;
}

static const char *string_of(const pmix_value_t *v)
{
    return NULL != v && PMIX_STRING == v->type ? v->data.string : NULL;
}

/* A map of the job's registration (key of maps.h), or NULL. */
static const char *map_of(store_ns_t *ns, const char *key)
{
    return string_of(store_lookup(ns, PMIX_RANK_WILDCARD, key, NULL));
}

/* Add a proc to the growing array. */
static pmix_status_t add_proc(pmix_proc_t **procs, size_t *n, const char *nspace,
                              pmix_rank_t rank)
{
    pmix_proc_t *grown = realloc(*procs, (*n + 1) * sizeof(*grown));
    if (NULL == grown) {
        return PMIX_ERR_NOMEM;
    }
    PMIX_LOAD_PROCID(&grown[*n], nspace, rank);
    *procs = grown;
    (*n)++;
    return PMIX_SUCCESS;
}

/* The ranks of ns on node, from the maps or the hostnames (lock held). */
static pmix_status_t peers_in(store_ns_t *ns, const char *node, pmix_proc_t **procs, size_t *n)
{
    const char *node_map = map_of(ns, MAPS_NODE_MAP_KEY);
    const char *proc_map = map_of(ns, MAPS_PROC_MAP_KEY);
    pmix_status_t rc = PMIX_SUCCESS;

    if (NULL != node_map && NULL != proc_map) {
        char **names = NULL;
        if (PMIX_SUCCESS != (rc = maps_parse_nodes(node_map, &names))) {
            return rc;
        }
        for (size_t i = 0; NULL != names[i] && PMIX_SUCCESS == rc; i++) {
            if (0 != strcmp(names[i], node)) {
                continue;
            }
            pmix_rank_t *ranks;
            size_t nranks;
            if (PMIX_SUCCESS == (rc = maps_node_ranks(proc_map, i, &ranks, &nranks))) {
                for (size_t k = 0; k < nranks && PMIX_SUCCESS == rc; k++) {
                    rc = add_proc(procs, n, ns->name, ranks[k]);
                }
                free(ranks);
            }
        }
        PMIX_ARGV_FREE(names);
        return rc;
    }
    const hashmap_t *ranks = &ns->realms[STORE_PROC];
    for (uint32_t i = 0; i < ranks->count && PMIX_SUCCESS == rc; i++) {
        pmix_rank_t rank = *(const pmix_rank_t *)ranks->entries[i].key;
        const char *host = string_of(store_get(ranks->entries[i].value, PMIX_HOSTNAME));
        if (PMIX_RANK_WILDCARD != rank && NULL != host && 0 == strcmp(host, node)) {
            rc = add_proc(procs, n, ns->name, rank);
        }
    }
    return rc;
}

/* Run fn over nspace, or over every namespace known (lock held). */
static pmix_status_t for_namespaces(const char *nspace,
                                    pmix_status_t (*fn)(store_ns_t *ns, void *arg), void *arg)
{
    if (NULL != nspace && '\0' != nspace[0]) {
        store_ns_t *ns = store_ns(&client.store, nspace, false);
        return NULL == ns ? PMIX_ERR_NOT_FOUND : fn(ns, arg);
    }
    pmix_status_t rc = PMIX_SUCCESS;
    for (uint32_t i = 0; i < client.store.namespaces.count && PMIX_SUCCESS == rc; i++) {
        rc = fn(client.store.namespaces.entries[i].value, arg);
    }
    return rc;
}

typedef struct peers_arg {
    const char *node;
    pmix_proc_t *procs;
    size_t n;
} peers_arg_t;

static pmix_status_t collect_peers(store_ns_t *ns, void *arg)
{
    peers_arg_t *a = arg;
    return peers_in(ns, a->node, &a->procs, &a->n);
}

PMIX_EXPORT pmix_status_t PMIx_Resolve_peers(const char *nodename, const pmix_nspace_t nspace,
                                             pmix_proc_t **procs, size_t *nprocs)
{
    char host[256] = "";
    peers_arg_t a = {.node = nodename};
    pmix_status_t rc;

    if (NULL == procs || NULL == nprocs) {
        return PMIX_ERR_BAD_PARAM;
    }
    *procs = NULL;
    *nprocs = 0;
    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if (NULL != nspace && '\0' != nspace[0] && PMIX_SUCCESS != (rc = fetch(nspace))) {
        return rc;
    }
    if (NULL == a.node) {
        gethostname(host, sizeof(host) - 1);
        a.node = host;
    }
    pthread_mutex_lock(&client.lock);
    rc = for_namespaces(nspace, collect_peers, &a);
    pthread_mutex_unlock(&client.lock);
    if (PMIX_SUCCESS != rc || 0 == a.n) {
        free(a.procs);
        return PMIX_SUCCESS != rc ? rc : PMIX_ERR_NOT_FOUND;
    }
    *procs = a.procs;
    *nprocs = a.n;
    return PMIX_SUCCESS;
}

/* Append name to the list unless it is there already. */
static void add_node(strbuf_t *b, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = b->s; NULL != p && '\0' != *p;) {
        const char *end = strchr(p, ',');
        size_t plen = NULL == end ? strlen(p) : (size_t)(end - p);
        if (plen == len && 0 == strncmp(p, name, len)) {
            return;
        }
        p = NULL == end ? p + plen : end + 1;
    }
    if (b->len > 0) {
        strbuf_append(b, ",", 1);
    }
    strbuf_append(b, name, len);
}

static pmix_status_t collect_nodes(store_ns_t *ns, void *arg)
{
    strbuf_t *b = arg;
    const char *node_map = map_of(ns, MAPS_NODE_MAP_KEY);
    if (NULL != node_map) {
        char **names = NULL;
        pmix_status_t rc = maps_parse_nodes(node_map, &names);
        for (size_t i = 0; PMIX_SUCCESS == rc && NULL != names[i]; i++) {
            add_node(b, names[i]);
        }
        PMIX_ARGV_FREE(names);
        return rc;
    }
    const hashmap_t *ranks = &ns->realms[STORE_PROC];
    for (uint32_t i = 0; i < ranks->count; i++) {
        const char *host = string_of(store_get(ranks->entries[i].value, PMIX_HOSTNAME));
        if (NULL != host) {
            add_node(b, host);
        }
    }
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Resolve_nodes(const pmix_nspace_t nspace, char **nodelist)
{
    strbuf_t b = STRBUF_INIT;
    pmix_status_t rc;

    if (NULL == nodelist) {
        return PMIX_ERR_BAD_PARAM;
    }
    *nodelist = NULL;
    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if (NULL != nspace && '\0' != nspace[0] && PMIX_SUCCESS != (rc = fetch(nspace))) {
        return rc;
    }
    pthread_mutex_lock(&client.lock);
    rc = for_namespaces(nspace, collect_nodes, &b);
    pthread_mutex_unlock(&client.lock);
    char *list = strbuf_finish(&b);
    if (PMIX_SUCCESS != rc || NULL == list || '\0' == list[0]) {
        free(list);
        return PMIX_SUCCESS != rc ? rc : NULL == list ? PMIX_ERR_NOMEM : PMIX_ERR_NOT_FOUND;
    }
    *nodelist = list;
    return PMIX_SUCCESS;
}
