/*
 * store.h - what is known about processes: key/value data by namespace,
 * and within a namespace by rank, application or node. Private to the
 * library; the client caches what PMIx_Get answers locally in one, the
 * server keeps registrations and committed data in another.
 *
 * A namespace holds three realms of key sets: processes (by rank, with
 * PMIX_RANK_WILDCARD for job-level data), applications (by appnum) and
 * nodes (by node id). Values are owned by the store. No locking here: the
 * owner of a store serialises access to it.
 */
#ifndef DROVER_STORE_H
#define DROVER_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "hashmap.h"
#include "pmix_common.h"

typedef enum { STORE_PROC, STORE_APP, STORE_NODE, STORE_NREALMS } store_realm_t;

typedef struct store_ns {
    char name[PMIX_MAX_NSLEN + 1];
    hashmap_t realms[STORE_NREALMS];  /* uint32 id -> hashmap_t * (key -> pmix_value_t *) */
    bool registered;                  /* the job's registration is in: its data is final */
} store_ns_t;

typedef struct store {
    hashmap_t namespaces;             /* name -> store_ns_t * */
} store_t;

#define STORE_INIT {HASHMAP_INIT}

/* Destruct and free a heap pmix_value_t; a hashmap release function. */
void store_value_free(void *value);

/* Free everything the store holds. */
void store_clear(store_t *s);

/* The namespace called nspace; with create, added when missing (NULL only
 * when memory runs out). Borrowed until store_drop or store_clear. */
store_ns_t *store_ns(store_t *s, const char *nspace, bool create);

/* Forget a namespace and all its data. */
void store_drop(store_t *s, const char *nspace);

/* The keys of one process, application or node; with create, added when
 * missing. Borrowed while the namespace lives. */
hashmap_t *store_keys(store_ns_t *ns, store_realm_t realm, uint32_t id, bool create);

/* The owner's flags on the key set of one process, application or node
 * (the client marks there the processes whose data its server has sent
 * whole); 0 when the set is missing. */
uint32_t store_keys_flags(store_ns_t *ns, store_realm_t realm, uint32_t id);

/* Add flags to that key set, creating it when missing. */
pmix_status_t store_keys_mark(store_ns_t *ns, store_realm_t realm, uint32_t id, uint32_t flags);

/* Store a copy of value under key, replacing what was there, and record
 * flags with it. On failure the old value stays. */
pmix_status_t store_set(hashmap_t *keys, const char *key, const pmix_value_t *value,
                        uint32_t flags);

/* Store value itself under key, taking it over (value was allocated with
 * PMIX_VALUE_CREATE or malloc). On failure the caller still owns value. */
pmix_status_t store_take(hashmap_t *keys, const char *key, pmix_value_t *value, uint32_t flags);

/* The value under key, or NULL. Borrowed until the key changes. */
const pmix_value_t *store_get(const hashmap_t *keys, const char *key);

/* Add a job description in the form PMIx_server_register_nspace receives:
 * job-level keys, PMIX_PROC_DATA arrays (PMIX_RANK first), and
 * PMIX_APP_INFO_ARRAY, PMIX_NODE_INFO_ARRAY, PMIX_JOB_INFO_ARRAY and
 * PMIX_SESSION_INFO_ARRAY arrays. Marks ns registered. */
pmix_status_t store_ingest(store_ns_t *ns, const pmix_info_t *info, size_t ninfo);

/* Where PMIx_Get looks beyond a process's own keys: an explicit
 * application or node asked for with PMIX_APP_INFO / PMIX_NODE_INFO
 * qualifiers, a node named by PMIX_HOSTNAME / PMIX_NODEID, or the values a
 * process gave a group (PMIX_GROUP_INFO), asked for with a
 * PMIX_GROUP_CONTEXT_ID qualifier. */
typedef struct store_scope {
    bool app;                 /* look in application appnum only */
    uint32_t appnum;
    bool node;                /* look in node nodeid (or named hostname) only */
    bool node_named;          /* a PMIX_HOSTNAME or PMIX_NODEID qualifier */
    bool node_by_name;
    uint32_t nodeid;
    const char *hostname;
    bool group;               /* look for the key given to group context_id */
    size_t context_id;
} store_scope_t;

/* The key under which a process's store keeps key as given to the group
 * of context id context_id (PMIX_GROUP_INFO), in out. False when it does
 * not fit. */
bool store_group_key(char out[PMIX_MAX_KEYLEN + 1], const char *key, size_t context_id);

/* Look key up the way PMIx_Get does: in the process's keys, then the
 * job's, then the process's application and node; or only in the
 * application or node the scope names, or among what the process gave
 * the group it names. For PMIX_RANK_WILDCARD or PMIX_RANK_UNDEF a node
 * named by its qualifier is looked in first, then the job as usual.
 * PMIX_RANK_UNDEF searches every
 * process of the namespace. NULL when absent. Borrowed. */
const pmix_value_t *store_lookup(store_ns_t *ns, pmix_rank_t rank, const char *key,
                                 const store_scope_t *scope);

/* Read the qualifiers of a PMIx_Get (PMIX_APP_INFO, PMIX_APPNUM,
 * PMIX_NODE_INFO, PMIX_HOSTNAME, PMIX_NODEID, PMIX_GROUP_CONTEXT_ID) into
 * scope. Borrows the
 * hostname from info. */
void store_scope_from_info(store_scope_t *scope, const pmix_info_t *info, size_t ninfo);

/* A copy of a key set as an info array, for handing a process's data to
 * someone else: *info is a new array (PMIX_INFO_FREE; NULL when empty).
 * With flags_mask != 0 only keys whose flags share a bit with it go in. */
pmix_status_t store_export(const hashmap_t *keys, uint32_t flags_mask, pmix_info_t **info,
                           size_t *ninfo);

#endif /* DROVER_STORE_H */
