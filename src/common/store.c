/*
 * store.c - what is known about processes, by namespace, rank, application
 * and node.
 *
 * Design notes:
 *  - Three levels of hash maps: namespaces by name, key sets by a 32-bit id
 *    (rank, appnum or node id, stored as its four bytes), values by key.
 *    A lookup is three hash probes, which keeps PMIx_Get of local data in
 *    the tens of nanoseconds.
 *  - Job descriptions arrive as the flat info arrays of
 *    PMIx_server_register_nspace; store_ingest sorts them into the realms,
 *    so client and server read registrations with the same code.
 *  - A node described only by its hostname gets an id above the range node
 *    ids use, so it can still be found by name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "directive.h"
#include "pmix.h"
#include "store.h"

/* Ids given to nodes described without PMIX_NODEID. */
#define UNNUMBERED_NODE 0x80000000u

void store_value_free(void *value)
{
    PMIx_Value_destruct(value);
    free(value);
}

static void release_keys(void *keys)
{
    hashmap_clear(keys, store_value_free);
    free(keys);
}

static void release_ns(void *p)
{
    store_ns_t *ns = p;
    for (int r = 0; r < STORE_NREALMS; r++) {
        hashmap_clear(&ns->realms[r], release_keys);
    }
    free(ns);
}

void store_clear(store_t *s)
{
    hashmap_clear(&s->namespaces, release_ns);
}

store_ns_t *store_ns(store_t *s, const char *nspace, bool create)
{
    size_t len = strnlen(nspace, PMIX_MAX_NSLEN);
    hashmap_entry_t *e = create ? hashmap_insert(&s->namespaces, nspace, len, NULL)
                                : hashmap_find(&s->namespaces, nspace, len);
    if (NULL == e) {
        return NULL;
    }
    if (NULL == e->value) {
        store_ns_t *ns = calloc(1, sizeof(*ns));
        if (NULL == ns) {
            hashmap_remove(&s->namespaces, nspace, len);
            return NULL;
        }
        memcpy(ns->name, nspace, len);
        e->value = ns;
    }
    return e->value;
}

void store_drop(store_t *s, const char *nspace)
{
    store_ns_t *ns = hashmap_remove(&s->namespaces, nspace, strnlen(nspace, PMIX_MAX_NSLEN));
    if (NULL != ns) {
        release_ns(ns);
    }
}

hashmap_t *store_keys(store_ns_t *ns, store_realm_t realm, uint32_t id, bool create)
{
    hashmap_t *realm_map = &ns->realms[realm];
    hashmap_entry_t *e = create ? hashmap_insert(realm_map, &id, sizeof(id), NULL)
                                : hashmap_find(realm_map, &id, sizeof(id));
    if (NULL == e) {
        return NULL;
    }
    if (NULL == e->value && NULL == (e->value = calloc(1, sizeof(hashmap_t)))) {
        hashmap_remove(realm_map, &id, sizeof(id));
        return NULL;
    }
    return e->value;
}

uint32_t store_keys_flags(store_ns_t *ns, store_realm_t realm, uint32_t id)
{
    const hashmap_entry_t *e = hashmap_find(&ns->realms[realm], &id, sizeof(id));
    return NULL == e ? 0 : e->flags;
}

pmix_status_t store_keys_mark(store_ns_t *ns, store_realm_t realm, uint32_t id, uint32_t flags)
{
    if (NULL == store_keys(ns, realm, id, true)) {
        return PMIX_ERR_NOMEM;
    }
    hashmap_find(&ns->realms[realm], &id, sizeof(id))->flags |= flags;
    return PMIX_SUCCESS;
}

pmix_status_t store_take(hashmap_t *keys, const char *key, pmix_value_t *value, uint32_t flags)
{
    hashmap_entry_t *e = hashmap_insert_str(keys, key, NULL);
    if (NULL == e) {
        return PMIX_ERR_NOMEM;
    }
    if (NULL != e->value) {
        store_value_free(e->value);
    }
    e->value = value;
    e->flags = flags;
    return PMIX_SUCCESS;
}

pmix_status_t store_set(hashmap_t *keys, const char *key, const pmix_value_t *value,
                        uint32_t flags)
{
    pmix_value_t *copy = malloc(sizeof(*copy));
    pmix_status_t rc;

    if (NULL == copy) {
        return PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Value_xfer(copy, value))) {
        free(copy);
        return rc;
    }
    if (PMIX_SUCCESS != (rc = store_take(keys, key, copy, flags))) {
        store_value_free(copy);
    }
    return rc;
}

const pmix_value_t *store_get(const hashmap_t *keys, const char *key)
{
    if (NULL == keys) {
        return NULL;
    }
    const hashmap_entry_t *e = hashmap_find_str(keys, key);
    return NULL == e ? NULL : e->value;
}

/* The info array inside a PMIX_DATA_ARRAY value of infos, or NULL. */
static const pmix_info_t *info_array(const pmix_value_t *v, size_t *n)
{
    if (PMIX_DATA_ARRAY != v->type || NULL == v->data.darray ||
        PMIX_INFO != v->data.darray->type) {
        return NULL;
    }
    *n = v->data.darray->size;
    return v->data.darray->array;
}

/* A number that fits 32 bits, in whichever integer type it came. */
static bool value_u32(const pmix_value_t *v, uint32_t *out)
{
    int64_t n;

    if (NULL == v || PMIX_SUCCESS != directive_integer(v, &n) || n < 0 || n > UINT32_MAX) {
        return false;
    }
    *out = (uint32_t)n;
    return true;
}

/* Copy every entry of info except the one named skip into keys. */
static pmix_status_t add_all(hashmap_t *keys, const pmix_info_t *info, size_t n, const char *skip)
{
    for (size_t i = 0; i < n; i++) {
        if (NULL != skip && PMIX_CHECK_KEY(&info[i], skip)) {
            continue;
        }
        pmix_status_t rc = store_set(keys, info[i].key, &info[i].value, 0);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

static uint32_t node_by_name(store_ns_t *ns, const char *hostname, bool *found)
{
    const hashmap_t *nodes = &ns->realms[STORE_NODE];
    *found = false;
    for (uint32_t i = 0; i < nodes->count; i++) {
        const pmix_value_t *h = store_get(nodes->entries[i].value, PMIX_HOSTNAME);
        if (NULL != h && PMIX_STRING == h->type && NULL != h->data.string &&
            0 == strcmp(h->data.string, hostname)) {
            *found = true;
            return *(const uint32_t *)nodes->entries[i].key;
        }
    }
    return UNNUMBERED_NODE + nodes->count;
}

/* One PMIX_*_INFO_ARRAY or PMIX_PROC_DATA entry: which key set it fills. */
static pmix_status_t ingest_array(store_ns_t *ns, const pmix_info_t *item)
{
    size_t n;
    const pmix_info_t *inner = info_array(&item->value, &n);
    uint32_t id;
    bool found;

    if (NULL == inner) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_CHECK_KEY(item, PMIX_PROC_DATA)) {
        if (!value_u32(directive_find(inner, n, PMIX_RANK), &id)) {
            return PMIX_ERR_BAD_PARAM;
        }
        hashmap_t *keys = store_keys(ns, STORE_PROC, id, true);
        return NULL == keys ? PMIX_ERR_NOMEM : add_all(keys, inner, n, PMIX_RANK);
    }
    if (PMIX_CHECK_KEY(item, PMIX_APP_INFO_ARRAY)) {
        if (!value_u32(directive_find(inner, n, PMIX_APPNUM), &id)) {
            return PMIX_ERR_BAD_PARAM;
        }
        hashmap_t *keys = store_keys(ns, STORE_APP, id, true);
        return NULL == keys ? PMIX_ERR_NOMEM : add_all(keys, inner, n, NULL);
    }
    if (PMIX_CHECK_KEY(item, PMIX_NODE_INFO_ARRAY)) {
        if (!value_u32(directive_find(inner, n, PMIX_NODEID), &id)) {
            const pmix_value_t *h = directive_find(inner, n, PMIX_HOSTNAME);
            if (NULL == h || PMIX_STRING != h->type || NULL == h->data.string) {
                return PMIX_ERR_BAD_PARAM;
            }
            id = node_by_name(ns, h->data.string, &found);
        }
        hashmap_t *keys = store_keys(ns, STORE_NODE, id, true);
        return NULL == keys ? PMIX_ERR_NOMEM : add_all(keys, inner, n, NULL);
    }
    /* Job and session arrays hold job-level keys. */
    hashmap_t *keys = store_keys(ns, STORE_PROC, PMIX_RANK_WILDCARD, true);
    return NULL == keys ? PMIX_ERR_NOMEM : add_all(keys, inner, n, NULL);
}

static bool is_array_key(const char *key)
{
    static const char *const arrays[] = {PMIX_PROC_DATA, PMIX_APP_INFO_ARRAY,
                                         PMIX_NODE_INFO_ARRAY, PMIX_JOB_INFO_ARRAY,
                                         PMIX_SESSION_INFO_ARRAY};
    for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) {
        if (0 == strncmp(key, arrays[i], PMIX_MAX_KEYLEN)) {
            return true;
        }
    }
    return false;
}

pmix_status_t store_ingest(store_ns_t *ns, const pmix_info_t *info, size_t ninfo)
{
    hashmap_t *job = store_keys(ns, STORE_PROC, PMIX_RANK_WILDCARD, true);
    if (NULL == job) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < ninfo; i++) {
        pmix_status_t rc = is_array_key(info[i].key)
                               ? ingest_array(ns, &info[i])
                               : store_set(job, info[i].key, &info[i].value, 0);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    ns->registered = true;
    return PMIX_SUCCESS;
}

static const pmix_value_t *in_realm(store_ns_t *ns, store_realm_t realm, uint32_t id,
                                    const char *key)
{
    return store_get(store_keys(ns, realm, id, false), key);
}

/* The node a scope names: by host name, or by id. */
static const pmix_value_t *in_named_node(store_ns_t *ns, const store_scope_t *scope,
                                         const char *key)
{
    uint32_t id = scope->nodeid;
    bool found;

    if (scope->node_by_name) {
        id = node_by_name(ns, scope->hostname, &found);
        if (!found) {
            return NULL;
        }
    }
    return in_realm(ns, STORE_NODE, id, key);
}

const pmix_value_t *store_lookup(store_ns_t *ns, pmix_rank_t rank, const char *key,
                                 const store_scope_t *scope)
{
    const pmix_value_t *v;
    uint32_t id;

    if (NULL != scope && scope->app) {
        return in_realm(ns, STORE_APP, scope->appnum, key);
    }
    if (NULL != scope && scope->group) {
        char qualified[PMIX_MAX_KEYLEN + 1];
        return store_group_key(qualified, key, scope->context_id)
                   ? store_get(store_keys(ns, STORE_PROC, rank, false), qualified)
                   : NULL;
    }
    /* A node named without PMIX_NODE_INFO is asked about only for a
     * non-process rank, and what it lacks is still looked for in the job. */
    if (NULL != scope && (scope->node || (scope->node_named && !PMIX_RANK_IS_VALID(rank)))) {
        v = in_named_node(ns, scope, key);
        if (NULL != v || scope->node) {
            return v;
        }
    }
    if (PMIX_RANK_UNDEF == rank) {
        const hashmap_t *procs = &ns->realms[STORE_PROC];
        for (uint32_t i = 0; i < procs->count; i++) {
            if (NULL != (v = store_get(procs->entries[i].value, key))) {
                return v;
            }
        }
        return NULL;
    }
    const hashmap_t *own = store_keys(ns, STORE_PROC, rank, false);
    if (NULL != (v = store_get(own, key))) {
        return v;
    }
    if (NULL != (v = in_realm(ns, STORE_PROC, PMIX_RANK_WILDCARD, key)) || NULL == own) {
        return v;
    }
    if (value_u32(store_get(own, PMIX_APPNUM), &id) &&
        NULL != (v = in_realm(ns, STORE_APP, id, key))) {
        return v;
    }
    if (value_u32(store_get(own, PMIX_NODEID), &id)) {
        return in_realm(ns, STORE_NODE, id, key);
    }
    return NULL;
}

bool store_group_key(char out[PMIX_MAX_KEYLEN + 1], const char *key, size_t context_id)
{
    /* "pmix.grp.ctx" keys are not the standard's: no real key collides. */
    int n = snprintf(out, PMIX_MAX_KEYLEN + 1, "pmix.grp.ctx.%zu:%s", context_id, key);
    return n > 0 && n <= PMIX_MAX_KEYLEN;
}

void store_scope_from_info(store_scope_t *scope, const pmix_info_t *info, size_t ninfo)
{
    *scope = (store_scope_t){0};
    for (size_t i = 0; i < ninfo; i++) {
        const pmix_info_t *in = &info[i];
        if (PMIX_CHECK_KEY(in, PMIX_APP_INFO)) {
            scope->app = PMIX_INFO_TRUE(in);
        } else if (PMIX_CHECK_KEY(in, PMIX_NODE_INFO)) {
            scope->node = PMIX_INFO_TRUE(in);
        } else if (PMIX_CHECK_KEY(in, PMIX_APPNUM)) {
            value_u32(&in->value, &scope->appnum);
        } else if (PMIX_CHECK_KEY(in, PMIX_NODEID)) {
            scope->node_named = value_u32(&in->value, &scope->nodeid);
        } else if (PMIX_CHECK_KEY(in, PMIX_GROUP_CONTEXT_ID)) {
            pmix_status_t rc;
            PMIX_VALUE_GET_NUMBER(rc, &in->value, scope->context_id, size_t);
            scope->group = PMIX_SUCCESS == rc;
        } else if (PMIX_CHECK_KEY(in, PMIX_HOSTNAME) && PMIX_STRING == in->value.type &&
                   NULL != in->value.data.string) {
            scope->hostname = in->value.data.string;
            scope->node_by_name = true;
            scope->node_named = true;
        }
    }
}

pmix_status_t store_export(const hashmap_t *keys, uint32_t flags_mask, pmix_info_t **info,
                           size_t *ninfo)
{
    size_t n = 0;
    pmix_info_t *out = NULL;

    *info = NULL;
    *ninfo = 0;
    for (uint32_t i = 0; NULL != keys && i < keys->count; i++) {
        n += 0 == flags_mask || 0 != (keys->entries[i].flags & flags_mask);
    }
    if (0 == n) {
        return PMIX_SUCCESS;
    }
    PMIX_INFO_CREATE(out, n);
    if (NULL == out) {
        return PMIX_ERR_NOMEM;
    }
    size_t k = 0;
    for (uint32_t i = 0; i < keys->count; i++) {
        const hashmap_entry_t *e = &keys->entries[i];
        if (0 != flags_mask && 0 == (e->flags & flags_mask)) {
            continue;
        }
        PMIX_LOAD_KEY(out[k].key, e->key);
        pmix_status_t rc = PMIx_Value_xfer(&out[k].value, e->value);
        if (PMIX_SUCCESS != rc) {
            PMIX_INFO_FREE(out, n);
            return rc;
        }
        k++;
    }
    *info = out;
    *ninfo = n;
    return PMIX_SUCCESS;
}
