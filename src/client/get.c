/*
 * get.c - PMIx_Get and PMIx_Get_nb.
 *
 * Design notes:
 *  - Everything the process already knows (its job's registration, data
 *    from fences, earlier answers, PMIx_Store_internal) is answered from
 *    the local store in the caller's thread: one lock, three hash probes
 *    and a copy. PMIx_Get_nb hands such an answer to the progress thread
 *    only to run the callback there, as PMIx requires.
 *  - A miss goes to the server unless PMIX_OPTIONAL forbids it. A
 *    namespace whose registration is here has complete job-level data, so
 *    a missing job-level key is "not found" at once; a missing key the
 *    standard reserves ("pmix" prefix) of a process is asked for without
 *    waiting (PMIX_IMMEDIATE); any other key waits on the server until a
 *    peer commits it or PMIX_TIMEOUT passes.
 *  - The first get of a process's key brings all the process has
 *    committed, so Open MPI's reads of a peer's several keys cost one
 *    round trip; later misses (keys it committed since) bring that key
 *    alone, so a process that posts keys one at a time for its peers
 *    does not make every answer carry all of them (answers grew with
 *    the number of keys: rounds of put, commit and get were quadratic).
 *    With the namespace's registration when we lack it. The answer is
 *    stored and the lookup repeated. A get of all of another process's
 *    keys always asks (the store may hold only some of them), and
 *    without waiting when the registration is here: it is answered with
 *    everything the process committed, and at least its registration.
 *  - In a server's host the store holds what the host keeps there with
 *    PMIx_Store_internal (Open MPI's daemons read their own connection
 *    data back that way); a miss is looked up in what the server library
 *    holds (registrations, committed data), synchronously.
 */
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "pmix.h"
#include "role.h"
#include "server_entry.h"

typedef struct get_op {
    pmix_proc_t proc;
    char key[PMIX_MAX_KEYLEN + 1];
    bool all_keys;               /* key NULL: every key of proc */
    bool whole;                  /* the server is asked for all of proc's data */
    store_scope_t scope;
    char *hostname;              /* scope.hostname points here; owned */
    pmix_value_cbfunc_t cbfunc;  /* non-blocking caller, or ... */
    void *cbdata;
    client_wait_t wait;          /* ... a blocking one */
    pmix_value_t *result;
    pmix_status_t status;
} get_op_t;

/* Every key of one process as a PMIX_DATA_ARRAY of infos. */
static pmix_value_t *all_of(store_ns_t *ns, pmix_rank_t rank)
{
    pmix_info_t *info;
    size_t ninfo;
    hashmap_t *keys = store_keys(ns, STORE_PROC, rank, false);
    if (NULL == keys || PMIX_SUCCESS != store_export(keys, 0, &info, &ninfo) || 0 == ninfo) {
        return NULL;
    }
    pmix_value_t *v = calloc(1, sizeof(*v));
    pmix_data_array_t *array = calloc(1, sizeof(*array));
    if (NULL == v || NULL == array) {
        free(v);
        free(array);
        PMIX_INFO_FREE(info, ninfo);
        return NULL;
    }
    *array = (pmix_data_array_t){.type = PMIX_INFO, .size = ninfo, .array = info};
    v->type = PMIX_DATA_ARRAY;
    v->data.darray = array;
    return v;
}

/* Look the request up locally: PMIX_SUCCESS with op->result set, or
 * PMIX_ERR_NOT_FOUND. *ns_registered tells whether the namespace's
 * registration is here. */
static pmix_status_t lookup(get_op_t *op, bool *ns_registered)
{
    pmix_status_t rc = PMIX_ERR_NOT_FOUND;

    pthread_mutex_lock(&client.lock);
    store_ns_t *ns = store_ns(&client.store, op->proc.nspace, false);
    *ns_registered = NULL != ns && ns->registered;
    if (NULL != ns && op->all_keys) {
        op->result = all_of(ns, op->proc.rank);
        rc = NULL == op->result ? PMIX_ERR_NOT_FOUND : PMIX_SUCCESS;
    } else if (NULL != ns) {
        const pmix_value_t *v = store_lookup(ns, op->proc.rank, op->key, &op->scope);
        if (NULL != v) {
            pmix_value_t *copy = malloc(sizeof(*copy));
            rc = NULL == copy ? PMIX_ERR_NOMEM : PMIx_Value_xfer(copy, v);
            if (PMIX_SUCCESS == rc) {
                op->result = copy;
            } else {
                free(copy);
            }
        }
    }
    pthread_mutex_unlock(&client.lock);
    return rc;
}

/* Free a non-blocking op (a blocking one lives on the caller's stack). */
static void free_op(get_op_t *op)
{
    free(op->hostname);
    free(op);
}

static void complete(get_op_t *op, pmix_status_t status)
{
    if (NULL != op->cbfunc) {
        op->cbfunc(status, op->result, op->cbdata);
        if (NULL != op->result) {
            PMIX_VALUE_RELEASE(op->result);
        }
        free_op(op);
        return;
    }
    op->status = status;
    client_wait_done(&op->wait, status);
}

static void complete_in_thread(void *arg)
{
    get_op_t *op = arg;
    complete(op, op->status);
}

/* The mark on a process's key set once the server has sent all its data. */
#define FETCHED_WHOLE 1u

/* Whether to ask the server for all of op->proc's data: for a get of all
 * of it, and for the first get of one of its keys (our next gets of what
 * it has committed are then local, as after a fence). Later keys come
 * alone. Under the client lock. */
static bool ask_whole(const get_op_t *op)
{
    store_ns_t *ns = store_ns(&client.store, op->proc.nspace, false);
    return op->all_keys ||
           (PMIX_RANK_IS_VALID(op->proc.rank) &&
            (NULL == ns || 0 == (store_keys_flags(ns, STORE_PROC, op->proc.rank) & FETCHED_WHOLE)));
}

static pmix_status_t mark_whole(const get_op_t *op)
{
    pthread_mutex_lock(&client.lock);
    store_ns_t *ns = store_ns(&client.store, op->proc.nspace, true);
    pmix_status_t rc = NULL == ns ? PMIX_ERR_NOMEM
                                  : store_keys_mark(ns, STORE_PROC, op->proc.rank, FETCHED_WHOLE);
    pthread_mutex_unlock(&client.lock);
    return rc;
}

/* The server's answer: status, PMIX_BYTE_OBJECT registration, procdata. */
static void answered(pmix_status_t status, pmix_data_buffer_t *reply, void *arg)
{
    get_op_t *op = arg;
    bool registered;

    if (NULL != reply) {
        pmix_byte_object_t reg = {.bytes = NULL, .size = 0};
        int32_t n = 1;
        pmix_status_t rc = PMIx_Data_unpack(NULL, reply, &reg, &n, PMIX_BYTE_OBJECT);
        if (PMIX_SUCCESS == rc && reg.size > 0) {
            pmix_data_buffer_t buf;
            PMIX_DATA_BUFFER_CONSTRUCT(&buf);
            PMIx_Data_load(&buf, &reg);
            pthread_mutex_lock(&client.lock);
            rc = client_absorb_registration(op->proc.nspace, &buf);
            pthread_mutex_unlock(&client.lock);
            PMIX_DATA_BUFFER_DESTRUCT(&buf);
        } else {
            PMIX_BYTE_OBJECT_DESTRUCT(&reg);
        }
        if (PMIX_SUCCESS == rc) {
            rc = client_absorb_procdata(reply);
        }
        if (PMIX_SUCCESS == rc && PMIX_SUCCESS == status && op->whole &&
            PMIX_RANK_IS_VALID(op->proc.rank)) {
            rc = mark_whole(op);
        }
        if (PMIX_SUCCESS != rc && PMIX_SUCCESS == status) {
            status = rc;
        }
    }
    if (PMIX_SUCCESS == status || PMIX_ERR_NOT_FOUND == status) {
        status = lookup(op, &registered);
    }
    complete(op, status);
}

/* Ask the server; on success answered() completes op later. */
static pmix_status_t ask_server(get_op_t *op, const pmix_info_t *info, size_t ninfo,
                                bool immediate, bool need_ns)
{
    pmix_data_buffer_t msg;
    pmix_info_t *dirs;
    size_t ndirs = ninfo + (immediate ? 1 : 0);
    char *key = op->all_keys ? NULL : op->key;
    pmix_status_t rc;

    PMIX_INFO_CREATE(dirs, ndirs);
    if (NULL == dirs && ndirs > 0) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < ninfo; i++) {
        PMIx_Info_xfer(&dirs[i], &info[i]);
    }
    if (immediate) {
        PMIx_Info_load(&dirs[ninfo], PMIX_IMMEDIATE, NULL, PMIX_BOOL);
    }
    pthread_mutex_lock(&client.lock);
    op->whole = ask_whole(op);
    pthread_mutex_unlock(&client.lock);
    PMIX_DATA_BUFFER_CONSTRUCT(&msg);
    if (PMIX_SUCCESS == (rc = client_pack_commits(&msg)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, &op->proc, 1, PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, &key, 1, PMIX_STRING)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, dirs, (int32_t)ndirs, PMIX_INFO)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, &need_ns, 1, PMIX_BOOL)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, &op->whole, 1, PMIX_BOOL))) {
        rc = conn_request(PROTOCOL_GET, &msg, directive_timeout(info, ninfo), answered, op);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&msg);
    PMIX_INFO_FREE(dirs, ndirs);
    return rc;
}

/* Whether the local store may answer op: not for all of another
 * process's keys, as later gets of its keys bring only the key asked for
 * and the store may hold only some of them (unless PMIX_OPTIONAL forbids
 * asking); nor when PMIX_GET_REFRESH_CACHE says so. */
static bool use_cache(const get_op_t *op, const pmix_info_t *info, size_t ninfo)
{
    if (client_flag(info, ninfo, PMIX_GET_REFRESH_CACHE)) {
        return false;
    }
    return !op->all_keys || !PMIX_RANK_IS_VALID(op->proc.rank) ||
           PMIX_CHECK_PROCID(&op->proc, &client.me) || ROLE_SERVER == role_current() ||
           client.singleton || client_flag(info, ninfo, PMIX_OPTIONAL);
}

/* Start op. PMIX_SUCCESS with op->result set: found locally, complete()
 * not called; PMIX_SUCCESS without: complete() runs when the server
 * answers; any other status: op is done with that status. */
static pmix_status_t start(get_op_t *op, const pmix_info_t *info, size_t ninfo)
{
    bool registered = false;
    bool refresh = !use_cache(op, info, ninfo);
    pmix_status_t rc = refresh ? PMIX_ERR_NOT_FOUND : lookup(op, &registered);

    if (PMIX_ERR_NOT_FOUND != rc) {
        return rc;
    }
    if (refresh) {
        pthread_mutex_lock(&client.lock);
        store_ns_t *ns = store_ns(&client.store, op->proc.nspace, false);
        registered = NULL != ns && ns->registered;
        pthread_mutex_unlock(&client.lock);
    }
    if (ROLE_SERVER == role_current()) {
        /* A server's host: next, what its server library holds. */
        return op->all_keys ? PMIX_ERR_NOT_FOUND
                            : server_entry_get(&op->proc, op->key, &op->scope, &op->result);
    }
    if (client_flag(info, ninfo, PMIX_OPTIONAL) || client.singleton ||
        (registered && PMIX_RANK_WILDCARD == op->proc.rank && !refresh)) {
        return PMIX_ERR_NOT_FOUND;
    }
    /* A reserved key, or all keys (at least the registration's), of a
     * registered process need not wait for commits. */
    bool no_wait = op->all_keys || PMIX_CHECK_RESERVED_KEY(op->key);
    bool immediate = client_flag(info, ninfo, PMIX_IMMEDIATE) || (registered && no_wait);
    return ask_server(op, info, ninfo, immediate, !registered);
}

static pmix_status_t prepare(get_op_t *op, const pmix_proc_t *proc, const char *key,
                             const pmix_info_t *info, size_t ninfo)
{
    if (!client_local_ready()) {
        return PMIX_ERR_INIT;
    }
    if ((NULL == info && 0 != ninfo) ||
        (NULL != key && ('\0' == key[0] || strnlen(key, PMIX_MAX_KEYLEN + 1) > PMIX_MAX_KEYLEN))) {
        return PMIX_ERR_BAD_PARAM;
    }
    op->proc = NULL == proc ? client.me : *proc;
    op->all_keys = NULL == key;
    if (NULL != key) {
        PMIX_LOAD_KEY(op->key, key);
    }
    store_scope_from_info(&op->scope, info, ninfo);
    /* The qualifier is the caller's only during the call; a host name has
     * no fixed bound, so it is copied whole. */
    if (op->scope.node_by_name) {
        if (NULL == (op->hostname = strdup(op->scope.hostname))) {
            return PMIX_ERR_NOMEM;
        }
        op->scope.hostname = op->hostname;
    }
    return PMIX_SUCCESS;
}

/* PMIx_Get once op is prepared. */
static pmix_status_t get_blocking(get_op_t *op, const pmix_info_t *info, size_t ninfo,
                                  pmix_value_t **val)
{
    bool registered;
    pmix_status_t rc;

    /* The common case, entirely in this thread. */
    if (use_cache(op, info, ninfo) && PMIX_SUCCESS == lookup(op, &registered)) {
        *val = op->result;
        return PMIX_SUCCESS;
    }
    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&op->wait);
    rc = start(op, info, ninfo);
    if (PMIX_SUCCESS != rc || NULL != op->result) {
        /* Answered without the server (it arrived meanwhile, or not). */
        client_wait_done(&op->wait, rc);
    }
    rc = client_wait(&op->wait);
    if (PMIX_SUCCESS == rc) {
        *val = op->result;
    } else if (NULL != op->result) {
        PMIX_VALUE_RELEASE(op->result);
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Get(const pmix_proc_t *proc, const char key[],
                                   const pmix_info_t info[], size_t ninfo, pmix_value_t **val)
{
    get_op_t op = {0};
    pmix_status_t rc;

    if (NULL == val) {
        return PMIX_ERR_BAD_PARAM;
    }
    *val = NULL;
    if (PMIX_SUCCESS == (rc = prepare(&op, proc, key, info, ninfo))) {
        rc = get_blocking(&op, info, ninfo, val);
    }
    free(op.hostname);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Get_nb(const pmix_proc_t *proc, const char key[],
                                      const pmix_info_t info[], size_t ninfo,
                                      pmix_value_cbfunc_t cbfunc, void *cbdata)
{
    get_op_t *op;
    pmix_status_t rc;

    if (NULL == cbfunc) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (op = calloc(1, sizeof(*op)))) {
        return PMIX_ERR_NOMEM;
    }
    op->cbfunc = cbfunc;
    op->cbdata = cbdata;
    if (PMIX_SUCCESS != (rc = prepare(op, proc, key, info, ninfo))) {
        free_op(op);
        return rc;
    }
    rc = start(op, info, ninfo);
    if (PMIX_SUCCESS == rc && NULL != op->result) {
        /* Found locally: the callback still runs in the progress thread. */
        op->status = PMIX_SUCCESS;
        rc = client_post(complete_in_thread, op);
    } else if (PMIX_ERR_NOT_FOUND == rc) {
        op->status = rc;
        rc = client_post(complete_in_thread, op);
    }
    if (PMIX_SUCCESS != rc) {
        if (NULL != op->result) {
            PMIX_VALUE_RELEASE(op->result);
        }
        free_op(op);
    }
    return rc;
}
