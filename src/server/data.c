/*
 * data.c - the data processes post: COMMIT, GET, and the direct modex
 * between servers (PMIx_server_dmodex_request and the host's
 * direct_modex).
 *
 * Design notes:
 *  - Committed values go into the server's store under their process,
 *    tagged with who may see them: SCOPE_LOCAL (PMIX_LOCAL), SCOPE_REMOTE
 *    (PMIX_REMOTE) or both (PMIX_GLOBAL). Registration data carries no tag
 *    and is never handed out this way: clients get it whole at HELLO.
 *  - A GET for a key not yet committed by a live local process waits here
 *    until a commit brings it, the process goes, or PMIX_TIMEOUT expires;
 *    with PMIX_IMMEDIATE, or when the process has already gone (ended,
 *    connected or not), it is answered "not found" at once. A GET for a
 *    process on another node asks the host (direct_modex).
 *  - A GET says whether it wants all of the process's data (the client's
 *    first get of that process, or a get of all its keys) or the key
 *    alone (a later miss): a process may post keys one at a time and its
 *    peers read each as it comes, and answers carrying all of its data
 *    would make that quadratic. The first answer about a process on
 *    another node carries all of it too (the host's direct modex brought
 *    it). The client caches what it gets and asks again for a key it
 *    lacks. When the client lacks the namespace (it never saw its
 *    registration), the registration comes along too.
 *  - Waiting requests are kept in one list, whether they came from a
 *    client (GET) or from the host (PMIx_server_dmodex_request).
 */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "pmix.h"
#include "server.h"

typedef struct waiter waiter_t;
struct waiter {
    pmix_proc_t proc;                  /* whose data */
    char key[PMIX_MAX_KEYLEN + 1];     /* "" : any */
    /* A client's GET ... */
    server_peer_t *peer;
    uint32_t tag;
    bool need_ns;
    bool whole;                        /* answer with all of proc's data */
    /* ... or the host's dmodex request. */
    pmix_dmodex_response_fn_t dmodex_cb;
    void *dmodex_cbdata;
    struct event *timer;
    waiter_t *next;
};

static waiter_t *waiters;

/* ---- Packing what is known of a process -------------------------------- */

static pmix_status_t pack_one(pmix_data_buffer_t *buf, const char *nspace, pmix_rank_t rank,
                              const hashmap_t *keys, uint32_t scope_mask, uint32_t *count)
{
    pmix_info_t *info;
    size_t ninfo;
    pmix_proc_t proc;
    pmix_status_t rc = store_export(keys, scope_mask, &info, &ninfo);

    if (PMIX_SUCCESS != rc || 0 == ninfo) {
        return rc;
    }
    PMIX_LOAD_PROCID(&proc, nspace, rank);
    rc = protocol_pack_procdata(buf, &proc, info, ninfo);
    PMIX_INFO_FREE(info, ninfo);
    if (PMIX_SUCCESS == rc) {
        (*count)++;
    }
    return rc;
}

pmix_status_t data_pack_proc(pmix_data_buffer_t *buf, const pmix_proc_t *proc,
                             uint32_t scope_mask, uint32_t *count)
{
    store_ns_t *ns = store_ns(&server.data, proc->nspace, false);
    if (NULL == ns) {
        return PMIX_SUCCESS;
    }
    if (PMIX_RANK_WILDCARD != proc->rank) {
        return pack_one(buf, ns->name, proc->rank,
                        store_keys(ns, STORE_PROC, proc->rank, false), scope_mask, count);
    }
    const hashmap_t *procs = &ns->realms[STORE_PROC];
    for (uint32_t i = 0; i < procs->count; i++) {
        pmix_rank_t rank = *(const pmix_rank_t *)procs->entries[i].key;
        pmix_status_t rc = PMIX_RANK_WILDCARD == rank
                               ? PMIX_SUCCESS
                               : pack_one(buf, ns->name, rank, procs->entries[i].value,
                                          scope_mask, count);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

/* One key of a process as a procdata entry, when the process has it in a
 * scope the mask admits. */
static pmix_status_t pack_key(pmix_data_buffer_t *buf, const pmix_proc_t *proc, const char *key,
                              uint32_t scope_mask, uint32_t *count)
{
    store_ns_t *ns = store_ns(&server.data, proc->nspace, false);
    const hashmap_t *keys = NULL == ns ? NULL : store_keys(ns, STORE_PROC, proc->rank, false);
    const hashmap_entry_t *e = NULL == keys ? NULL : hashmap_find_str(keys, key);
    pmix_info_t info;

    if (NULL == e || 0 == (e->flags & scope_mask)) {
        return PMIX_SUCCESS;
    }
    /* A shallow copy: packing only reads the value. */
    PMIX_INFO_CONSTRUCT(&info);
    PMIX_LOAD_KEY(info.key, key);
    info.value = *(const pmix_value_t *)e->value;
    pmix_status_t rc = protocol_pack_procdata(buf, proc, &info, 1);
    if (PMIX_SUCCESS == rc) {
        (*count)++;
    }
    return rc;
}

/* ---- Storing data ------------------------------------------------------ */

static pmix_status_t store_values(const pmix_proc_t *proc, const pmix_info_t *info, size_t n,
                                  uint32_t scope)
{
    store_ns_t *ns;
    hashmap_t *keys;

    if (0 == n) {
        return PMIX_SUCCESS;
    }
    if (NULL == (ns = store_ns(&server.data, proc->nspace, true)) ||
        NULL == (keys = store_keys(ns, STORE_PROC, proc->rank, true))) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        pmix_status_t rc = store_set(keys, info[i].key, &info[i].value, scope);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

static void recheck(const pmix_proc_t *proc);

pmix_status_t data_absorb_blob(const char *blob, size_t size)
{
    pmix_data_buffer_t buf;
    pmix_status_t rc = PMIX_SUCCESS;

    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    buf.base_ptr = buf.unpack_ptr = (char *)blob;
    buf.pack_ptr = (char *)blob + size;
    buf.bytes_used = buf.bytes_allocated = size;
    while (PMIX_SUCCESS == rc && buf.unpack_ptr < buf.pack_ptr) {
        pmix_proc_t proc;
        pmix_info_t *info;
        size_t ninfo;
        rc = protocol_unpack_procdata(&buf, &proc, &info, &ninfo);
        if (PMIX_SUCCESS != rc) {
            break;
        }
        const server_nspace_t *ns = nspace_find(proc.nspace);
        if (NULL == ns || !nspace_is_local(ns, proc.rank)) {
            rc = store_values(&proc, info, ninfo, SCOPE_LOCAL | SCOPE_REMOTE);
            recheck(&proc);
        }
        PMIX_INFO_FREE(info, ninfo);
    }
    /* The bytes are the caller's: detach them before the buffer goes. */
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    return rc;
}

/* ---- Waiting requests -------------------------------------------------- */

static void free_waiter(waiter_t *w)
{
    if (NULL != w->timer) {
        event_free(w->timer);
    }
    if (NULL != w->peer) {
        peer_release(w->peer);
    }
    free(w);
}

static void unlink_waiter(waiter_t *w)
{
    for (waiter_t **p = &waiters; NULL != *p; p = &(*p)->next) {
        if (*p == w) {
            *p = w->next;
            return;
        }
    }
}

/* Whether the key (any data, for "") is known for the process. For an
 * undefined rank, *found_rank says whose. */
static bool known(const pmix_proc_t *proc, const char *key, pmix_rank_t *found_rank)
{
    store_ns_t *ns = store_ns(&server.data, proc->nspace, false);
    if (NULL == ns) {
        return false;
    }
    *found_rank = proc->rank;
    if ('\0' == key[0]) {
        const hashmap_t *keys = store_keys(ns, STORE_PROC, proc->rank, false);
        for (uint32_t i = 0; NULL != keys && i < keys->count; i++) {
            if (0 != keys->entries[i].flags) {
                return true;
            }
        }
        return false;
    }
    if (PMIX_RANK_UNDEF != proc->rank) {
        return NULL != store_lookup(ns, proc->rank, key, NULL);
    }
    const hashmap_t *procs = &ns->realms[STORE_PROC];
    for (uint32_t i = 0; i < procs->count; i++) {
        if (NULL != store_get(procs->entries[i].value, key)) {
            *found_rank = *(const pmix_rank_t *)procs->entries[i].key;
            return true;
        }
    }
    return false;
}

/* Answer a client's GET of key ("": all of proc's data): status,
 * PMIX_BYTE_OBJECT registration (empty when not asked for), PMIX_UINT32
 * count, procdata entries. */
static void answer_get(server_peer_t *peer, uint32_t tag, const pmix_proc_t *proc,
                       const char *key, bool need_ns, pmix_status_t status)
{
    pmix_data_buffer_t body, entries;
    pmix_byte_object_t reg = {.bytes = NULL, .size = 0};
    uint32_t count = 0;
    const server_nspace_t *ns = nspace_find(proc->nspace);
    pmix_status_t rc;

    PMIX_DATA_BUFFER_CONSTRUCT(&body);
    PMIX_DATA_BUFFER_CONSTRUCT(&entries);
    if (need_ns && NULL != ns) {
        reg.bytes = ns->reg.base_ptr;
        reg.size = ns->reg.bytes_used;
    }
    rc = PMIx_Data_pack(NULL, &body, &reg, 1, PMIX_BYTE_OBJECT);
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == status && PMIX_RANK_WILDCARD != proc->rank) {
        rc = '\0' == key[0] ? data_pack_proc(&entries, proc, SCOPE_LOCAL, &count)
                            : pack_key(&entries, proc, key, SCOPE_LOCAL, &count);
    }
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Data_pack(NULL, &body, &count, 1, PMIX_UINT32);
    }
    if (PMIX_SUCCESS == rc && count > 0) {
        rc = PMIx_Data_copy_payload(&body, &entries);
    }
    peer_reply(peer, PROTOCOL_GET, tag, PMIX_SUCCESS == rc ? status : rc, &body);
    PMIX_DATA_BUFFER_DESTRUCT(&entries);
    PMIX_DATA_BUFFER_DESTRUCT(&body);
}

static void answer_dmodex(waiter_t *w, pmix_status_t status)
{
    pmix_data_buffer_t blob;
    uint32_t count = 0;

    PMIX_DATA_BUFFER_CONSTRUCT(&blob);
    if (PMIX_SUCCESS == status) {
        status = data_pack_proc(&blob, &w->proc, SCOPE_REMOTE, &count);
    }
    w->dmodex_cb(status, blob.base_ptr, blob.bytes_used, w->dmodex_cbdata);
    PMIX_DATA_BUFFER_DESTRUCT(&blob);
}

/* Answer w (found: with the data of found_rank) and free it. */
static void finish_waiter(waiter_t *w, pmix_status_t status, pmix_rank_t found_rank)
{
    pmix_proc_t proc = w->proc;
    proc.rank = found_rank;
    unlink_waiter(w);
    if (NULL != w->dmodex_cb) {
        answer_dmodex(w, status);
    } else {
        answer_get(w->peer, w->tag, &proc, w->whole ? "" : w->key, w->need_ns, status);
    }
    free_waiter(w);
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
    waiter_t *w = arg;
    finish_waiter(w, PMIX_ERR_TIMEOUT, w->proc.rank);
}

static bool same_target(const waiter_t *w, const pmix_proc_t *proc)
{
    return PMIX_CHECK_NSPACE(w->proc.nspace, proc->nspace) &&
           (PMIX_RANK_UNDEF == w->proc.rank || w->proc.rank == proc->rank);
}

static void recheck(const pmix_proc_t *proc)
{
    waiter_t *w = waiters;
    while (NULL != w) {
        waiter_t *next = w->next;
        pmix_rank_t found;
        if (same_target(w, proc) && known(&w->proc, w->key, &found)) {
            finish_waiter(w, PMIX_SUCCESS, found);
        }
        w = next;
    }
}

static pmix_status_t add_waiter(waiter_t *w, int timeout)
{
    if (timeout > 0) {
        struct timeval tv = {.tv_sec = timeout};
        if (NULL == (w->timer = evtimer_new(server.base, on_timeout, w)) ||
            0 != evtimer_add(w->timer, &tv)) {
            return PMIX_ERR_NOMEM;
        }
    }
    w->next = waiters;
    waiters = w;
    return PMIX_SUCCESS;
}

void data_client_gone(server_client_t *client)
{
    waiter_t *w = waiters;
    while (NULL != w) {
        waiter_t *next = w->next;
        if (NULL != w->peer && PMIX_CHECK_PROCID(&w->peer->proc, &client->proc)) {
            /* The asker itself: nobody to answer. */
            unlink_waiter(w);
            free_waiter(w);
        } else if (same_target(w, &client->proc) && PMIX_RANK_UNDEF != w->proc.rank) {
            finish_waiter(w, PMIX_ERR_NOT_FOUND, w->proc.rank);
        }
        w = next;
    }
}

void data_clear_all(void)
{
    while (NULL != waiters) {
        waiter_t *w = waiters;
        finish_waiter(w, PMIX_ERR_LOST_CONNECTION, w->proc.rank);
    }
}

/* ---- COMMIT ------------------------------------------------------------ */

/* COMMIT: PMIX_INFO[] local, PMIX_INFO[] remote, PMIX_INFO[] global. No
 * reply: the client does not wait for it. */
void data_commit_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    static const uint32_t scopes[] = {SCOPE_LOCAL, SCOPE_REMOTE, SCOPE_LOCAL | SCOPE_REMOTE};

    for (size_t s = 0; s < sizeof(scopes) / sizeof(scopes[0]); s++) {
        pmix_info_t *info = NULL;
        size_t ninfo = 0;
        if (PMIX_SUCCESS != protocol_unpack_array(payload, PMIX_INFO, (void **)&info, &ninfo)) {
            return;
        }
        store_values(&peer->proc, info, ninfo, scopes[s]);
        protocol_free_array(info, ninfo, PMIX_INFO);
    }
    recheck(&peer->proc);
    if (NULL != peer->client) {
        peer->client->commits++;
        peer_run_deferred(peer->client);
    }
}

/* ---- GET --------------------------------------------------------------- */

typedef struct get_args {
    pmix_proc_t proc;
    char *key;
    pmix_info_t *info;
    size_t ninfo;
    bool need_ns;
    bool whole;
    bool immediate;
    int timeout;
} get_args_t;

/* The host has answered a direct modex for w (its data absorbed): no
 * more waiting, found or not. */
static void dmodex_answered(waiter_t *w)
{
    pmix_rank_t found;
    bool ok = known(&w->proc, w->key, &found);
    answer_get(w->peer, w->tag, &w->proc, "", w->need_ns, ok ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND);
    free_waiter(w);
}

typedef struct host_dmodex {
    waiter_t *w;
    pmix_status_t status;
    char *data;
    size_t ndata;
    pmix_release_cbfunc_t relfn;
    void *relcbdata;
} host_dmodex_t;

static void host_dmodex_in_thread(void *arg)
{
    host_dmodex_t *op = arg;
    if (PMIX_SUCCESS == op->status && op->ndata > 0) {
        data_absorb_blob(op->data, op->ndata);
    }
    if (NULL != op->relfn) {
        op->relfn(op->relcbdata);
    }
    dmodex_answered(op->w);
    free(op);
}

static void host_dmodex_answered(pmix_status_t status, const char *data, size_t ndata,
                                 void *cbdata, pmix_release_cbfunc_t relfn, void *relcbdata)
{
    host_dmodex_t *op = cbdata;
    *op = (host_dmodex_t){.w = op->w, .status = status, .data = (char *)data, .ndata = ndata,
                          .relfn = relfn, .relcbdata = relcbdata};
    if (PMIX_SUCCESS != server_post(host_dmodex_in_thread, op)) {
        if (NULL != relfn) {
            relfn(relcbdata);
        }
        free(op);
    }
}

/* Ask the host for a remote process's data; the waiter is answered when
 * it replies. Returns false when the host cannot be asked. */
static bool ask_host(waiter_t *w, const get_args_t *a)
{
    host_dmodex_t *op;
    if (NULL == server.host.direct_modex || NULL == (op = calloc(1, sizeof(*op)))) {
        return false;
    }
    op->w = w;
    /* Not in the waiters list: commits cannot answer it, the host will. */
    pmix_status_t rc = server.host.direct_modex(&w->proc, a->info, a->ninfo,
                                                host_dmodex_answered, op);
    if (PMIX_SUCCESS != rc) {
        free(op);
        return false;
    }
    return true;
}

static void get(server_peer_t *peer, uint32_t tag, get_args_t *a)
{
    pmix_rank_t found;
    const char *key = NULL == a->key ? "" : a->key;
    const char *answer = a->whole ? "" : key;

    if (PMIX_RANK_WILDCARD == a->proc.rank || known(&a->proc, key, &found)) {
        a->proc.rank = PMIX_RANK_WILDCARD == a->proc.rank ? a->proc.rank : found;
        answer_get(peer, tag, &a->proc, answer, a->need_ns, PMIX_SUCCESS);
        return;
    }
    const server_nspace_t *ns = nspace_find(a->proc.nspace);
    bool local = NULL != ns && (PMIX_RANK_UNDEF == a->proc.rank || nspace_is_local(ns, a->proc.rank));
    if (a->immediate || nspace_rank_gone(ns, a->proc.rank)) {
        answer_get(peer, tag, &a->proc, answer, a->need_ns, PMIX_ERR_NOT_FOUND);
        return;
    }
    waiter_t *w = calloc(1, sizeof(*w));
    if (NULL == w) {
        answer_get(peer, tag, &a->proc, answer, a->need_ns, PMIX_ERR_NOMEM);
        return;
    }
    w->proc = a->proc;
    PMIX_LOAD_KEY(w->key, key);
    w->peer = peer;
    w->tag = tag;
    w->need_ns = a->need_ns;
    w->whole = a->whole;
    peer_retain(peer);
    if (!local && ask_host(w, a)) {
        return;
    }
    if (!local && NULL == ns) {
        /* Nobody knows this namespace. */
        finish_waiter(w, PMIX_ERR_NOT_FOUND, w->proc.rank);
        return;
    }
    if (PMIX_SUCCESS != add_waiter(w, a->timeout)) {
        finish_waiter(w, PMIX_ERR_NOMEM, w->proc.rank);
    }
}

/* GET: PMIX_PROC proc, PMIX_STRING key (NULL: all of proc's data),
 * PMIX_INFO[] directives, PMIX_BOOL need_ns, PMIX_BOOL whole. */
void data_get_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    get_args_t a = {0};
    int32_t n = 1;
    pmix_status_t rc;

    if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &a.proc, &n, PMIX_PROC)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &a.key, &n, PMIX_STRING)) ||
        PMIX_SUCCESS != (rc = protocol_unpack_array(payload, PMIX_INFO, (void **)&a.info,
                                                    &a.ninfo)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &a.need_ns, &n, PMIX_BOOL)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &a.whole, &n, PMIX_BOOL))) {
        peer_reply(peer, PROTOCOL_GET, tag, rc, NULL);
    } else {
        for (size_t i = 0; i < a.ninfo; i++) {
            if (PMIX_CHECK_KEY(&a.info[i], PMIX_IMMEDIATE)) {
                a.immediate = PMIX_INFO_TRUE(&a.info[i]);
            }
        }
        a.timeout = directive_timeout(a.info, a.ninfo);
        get(peer, tag, &a);
    }
    free(a.key);
    protocol_free_array(a.info, a.ninfo, PMIX_INFO);
}

/* ---- PMIx_server_dmodex_request ----------------------------------------- */

typedef struct dmodex_request {
    pmix_proc_t proc;
    pmix_dmodex_response_fn_t cbfunc;
    void *cbdata;
} dmodex_request_t;

static void dmodex_in_thread(void *arg)
{
    dmodex_request_t *req = arg;
    waiter_t *w = calloc(1, sizeof(*w));
    pmix_rank_t found;

    if (NULL == w) {
        req->cbfunc(PMIX_ERR_NOMEM, NULL, 0, req->cbdata);
        free(req);
        return;
    }
    w->proc = req->proc;
    w->dmodex_cb = req->cbfunc;
    w->dmodex_cbdata = req->cbdata;
    free(req);
    const server_client_t *target = nspace_find_client(&w->proc);
    if (known(&w->proc, "", &found)) {
        answer_dmodex(w, PMIX_SUCCESS);
        free_waiter(w);
    } else if (NULL == target || target->gone) {
        answer_dmodex(w, PMIX_ERR_NOT_FOUND);
        free_waiter(w);
    } else if (PMIX_SUCCESS != add_waiter(w, 0)) {
        answer_dmodex(w, PMIX_ERR_NOMEM);
        free_waiter(w);
    }
}

PMIX_EXPORT pmix_status_t PMIx_server_dmodex_request(const pmix_proc_t *proc,
                                                     pmix_dmodex_response_fn_t cbfunc,
                                                     void *cbdata)
{
    dmodex_request_t *req;
    pmix_status_t rc;

    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == proc || NULL == cbfunc || !PMIX_RANK_IS_VALID(proc->rank)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (req = malloc(sizeof(*req)))) {
        return PMIX_ERR_NOMEM;
    }
    *req = (dmodex_request_t){.proc = *proc, .cbfunc = cbfunc, .cbdata = cbdata};
    if (PMIX_SUCCESS != (rc = server_post(dmodex_in_thread, req))) {
        free(req);
    }
    return rc;
}
