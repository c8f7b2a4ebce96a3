/*
 * nspace.c - registered jobs and their local clients:
 * PMIx_server_register_nspace, _deregister_nspace, _register_client,
 * _deregister_client and _setup_fork, drover_server_client_pid, and the
 * paths jobs ask to have removed when they end (PMIX_REGISTER_CLEANUP,
 * _CLEANUP_DIR).
 *
 * Design notes:
 *  - The registration is kept packed, exactly as it will be sent: every
 *    client of the job receives the same bytes in its HELLO reply, packed
 *    once however many ranks connect. It is also ingested into the
 *    server's store so the server can answer from it.
 *  - Registering the same namespace again adds to its description; the
 *    packed form then holds one PMIX_INFO group per registration.
 *  - Which ranks are local comes from register_client and from
 *    PMIX_LOCAL_PEERS, so a collective knows every local participant even
 *    if it starts before the host has registered them all. A namespace
 *    registered with no local processes has none, whatever its
 *    PMIX_LOCAL_PEERS says: it is a job of this node served by another
 *    server (a drover daemon's other job, after a connect), whose peers
 *    are its clients there, never this server's.
 *  - Non-blocking calls borrow their arguments until the callback runs
 *    (pmix_server.h), so nothing is copied on the way to the thread.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drover.h"
#include "pmix.h"
#include "rmtree.h"
#include "server.h"

server_nspace_t *nspace_find(const char *name)
{
    hashmap_entry_t *e = hashmap_find(&server.nspaces, name, strnlen(name, PMIX_MAX_NSLEN));
    return NULL == e ? NULL : e->value;
}

server_client_t *nspace_client(const server_nspace_t *ns, pmix_rank_t rank)
{
    hashmap_entry_t *e = NULL == ns ? NULL : hashmap_find(&ns->clients, &rank, sizeof(rank));
    return NULL == e ? NULL : e->value;
}

server_client_t *nspace_find_client(const pmix_proc_t *proc)
{
    return nspace_client(nspace_find(proc->nspace), proc->rank);
}

bool nspace_rank_gone(const server_nspace_t *ns, pmix_rank_t rank)
{
    const server_client_t *client = nspace_client(ns, rank);
    return NULL != client ? client->gone
                          : NULL != ns && NULL != hashmap_find(&ns->departed, &rank, sizeof(rank));
}

bool nspace_is_local(const server_nspace_t *ns, pmix_rank_t rank)
{
    return NULL != nspace_client(ns, rank) ||
           NULL != hashmap_find(&ns->local_ranks, &rank, sizeof(rank));
}

uint32_t nspace_local_count(const pmix_proc_t *proc)
{
    const server_nspace_t *ns = nspace_find(proc->nspace);
    if (NULL == ns) {
        return 0;
    }
    if (PMIX_RANK_WILDCARD == proc->rank) {
        uint32_t n = ns->clients.count > ns->local_ranks.count ? ns->clients.count
                                                               : ns->local_ranks.count;
        return ns->nlocal > n ? ns->nlocal : n;
    }
    return nspace_is_local(ns, proc->rank) ? 1 : 0;
}

static server_nspace_t *nspace_add(const char *name)
{
    size_t len = strnlen(name, PMIX_MAX_NSLEN);
    hashmap_entry_t *e = hashmap_insert(&server.nspaces, name, len, NULL);
    if (NULL == e) {
        return NULL;
    }
    if (NULL == e->value) {
        server_nspace_t *ns = calloc(1, sizeof(*ns));
        if (NULL == ns) {
            hashmap_remove(&server.nspaces, name, len);
            return NULL;
        }
        memcpy(ns->name, name, len);
        PMIX_DATA_BUFFER_CONSTRUCT(&ns->reg);
        e->value = ns;
    }
    return e->value;
}

/* Record the ranks of a PMIX_LOCAL_PEERS list ("0,1,2"). */
static void note_local_peers(server_nspace_t *ns, const pmix_info_t *info, size_t ninfo)
{
    for (size_t i = 0; i < ninfo; i++) {
        if (!PMIX_CHECK_KEY(&info[i], PMIX_LOCAL_PEERS) || PMIX_STRING != info[i].value.type ||
            NULL == info[i].value.data.string) {
            continue;
        }
        const char *p = info[i].value.data.string;
        while ('\0' != *p) {
            char *end;
            unsigned long r = strtoul(p, &end, 10);
            if (end == p) {
                break;
            }
            pmix_rank_t rank = (pmix_rank_t)r;
            hashmap_insert(&ns->local_ranks, &rank, sizeof(rank), NULL);
            p = ',' == *end ? end + 1 : end;
        }
    }
}

typedef struct register_op {
    const char *nspace;
    int nlocal;
    pmix_info_t *info;
    size_t ninfo;
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
} register_op_t;

/* One piece of a registration: stored, and kept for the clients. */
static pmix_status_t take_piece(const pmix_info_t *piece, size_t n, void *arg)
{
    server_nspace_t *ns = arg;
    store_ns_t *data = store_ns(&server.data, ns->name, true);
    pmix_status_t rc = NULL == data ? PMIX_ERR_NOMEM : store_ingest(data, piece, n);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Data_pack(NULL, &ns->reg, (void *)piece, (int32_t)n, PMIX_INFO);
    }
    return rc;
}

/* A node map that cannot be read fails the registration before anything
 * is recorded. */
static pmix_status_t do_register_nspace(void *arg)
{
    register_op_t *op = arg;
    pmix_info_t derived[2];
    size_t nderived = 0;
    pmix_status_t rc = jobmaps_derive(op->info, op->ninfo, derived, &nderived);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    server_nspace_t *ns = nspace_add(op->nspace);
    rc = NULL == ns ? PMIX_ERR_NOMEM : jobmaps_walk(op->info, op->ninfo, take_piece, ns);
    if (PMIX_SUCCESS == rc && nderived > 0) {
        rc = take_piece(derived, nderived, ns);
    }
    for (size_t i = 0; i < nderived; i++) {
        PMIX_INFO_DESTRUCT(&derived[i]);
    }
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (op->nlocal > 0) {
        ns->nlocal = (uint32_t)op->nlocal;
    }
    if (0 != op->nlocal) {
        note_local_peers(ns, op->info, op->ninfo);
    }
    return PMIX_SUCCESS;
}

static void register_nspace_async(void *arg)
{
    register_op_t *op = arg;
    pmix_status_t rc = do_register_nspace(op);
    op->cbfunc(rc, op->cbdata);
    free(op);
}

PMIX_EXPORT pmix_status_t PMIx_server_register_nspace(const pmix_nspace_t nspace, int nlocalprocs,
                                                      pmix_info_t info[], size_t ninfo,
                                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    register_op_t op = {.nspace = nspace, .nlocal = nlocalprocs, .info = info,
                        .ninfo = ninfo, .cbfunc = cbfunc, .cbdata = cbdata};
    pmix_status_t rc;

    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == nspace || '\0' == nspace[0] || (NULL == info && 0 != ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == cbfunc) {
        rc = server_run_sync(do_register_nspace, &op);
        return PMIX_SUCCESS == rc ? PMIX_OPERATION_SUCCEEDED : rc;
    }
    register_op_t *copy = malloc(sizeof(*copy));
    if (NULL == copy) {
        return PMIX_ERR_NOMEM;
    }
    *copy = op;
    if (PMIX_SUCCESS != (rc = server_post(register_nspace_async, copy))) {
        free(copy);
    }
    return rc;
}

/* Remove one registered path. The server is the clients' user, so it
 * removes only what that user owns, and never through a name another user
 * could redirect (rmtree.c). */
static void remove_path(const char *path, cleanup_mode_t mode)
{
    const char *name;
    int dirfd = rmtree_open_parent(path, geteuid(), &name);
    if (dirfd < 0) {
        return;
    }
    struct stat st;
    bool dir = 0 == fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode);
    if (dir == (CLEANUP_FILE != mode)) {
        rmtree_at(dirfd, name, geteuid(), CLEANUP_TREE == mode);
    }
    close(dirfd);
}

static void run_cleanup(server_nspace_t *ns)
{
    for (size_t i = ns->ncleanup; i-- > 0;) {
        remove_path(ns->cleanup[i], (cleanup_mode_t)ns->cleanup_mode[i]);
        free(ns->cleanup[i]);
    }
    free(ns->cleanup);
    free(ns->cleanup_mode);
    ns->cleanup = NULL;
    ns->cleanup_mode = NULL;
    ns->ncleanup = 0;
}

pmix_status_t nspace_add_cleanup(server_nspace_t *ns, const char *path, cleanup_mode_t mode)
{
    if (NULL == path || '/' != path[0] || '\0' == path[strspn(path, "/")]) {
        return PMIX_ERR_BAD_PARAM;
    }
    char **paths = realloc(ns->cleanup, (ns->ncleanup + 1) * sizeof(*paths));
    if (NULL == paths) {
        return PMIX_ERR_NOMEM;
    }
    ns->cleanup = paths;
    uint8_t *modes = realloc(ns->cleanup_mode, (ns->ncleanup + 1) * sizeof(*modes));
    if (NULL == modes) {
        return PMIX_ERR_NOMEM;
    }
    ns->cleanup_mode = modes;
    if (NULL == (paths[ns->ncleanup] = strdup(path))) {
        return PMIX_ERR_NOMEM;
    }
    modes[ns->ncleanup++] = (uint8_t)mode;
    return PMIX_SUCCESS;
}

void nspace_client_gone(server_client_t *client)
{
    if (client->gone) {
        return;
    }
    client->gone = true;
    peer_run_deferred(client);
    collective_client_gone(client);
    data_client_gone(client);
    group_client_gone(client);
}

static void drop_client(server_nspace_t *ns, server_client_t *client)
{
    hello_client_dropped(client);
    nspace_client_gone(client);
    server_peer_t *peers[] = {client->peer, client->direct_peer};
    for (size_t i = 0; i < 2; i++) {
        if (NULL != peers[i]) {
            peers[i]->client = NULL;
            peer_close_when_flushed(peers[i]);
        }
    }
    client->peer = client->direct_peer = NULL;
    hashmap_remove(&ns->clients, &client->proc.rank, sizeof(client->proc.rank));
    hashmap_insert(&ns->departed, &client->proc.rank, sizeof(client->proc.rank), NULL);
    free(client);
}

static void release_nspace(server_nspace_t *ns)
{
    while (ns->clients.count > 0) {
        drop_client(ns, ns->clients.entries[ns->clients.count - 1].value);
    }
    hashmap_clear(&ns->clients, NULL);
    hashmap_clear(&ns->local_ranks, NULL);
    hashmap_clear(&ns->departed, NULL);
    run_cleanup(ns);
    PMIX_DATA_BUFFER_DESTRUCT(&ns->reg);
    store_drop(&server.data, ns->name);
    free(ns);
}

typedef struct name_op {
    pmix_proc_t proc;
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
} name_op_t;

static pmix_status_t do_deregister_nspace(void *arg)
{
    name_op_t *op = arg;
    server_nspace_t *ns = hashmap_remove(&server.nspaces, op->proc.nspace,
                                         strnlen(op->proc.nspace, PMIX_MAX_NSLEN));
    if (NULL != ns) {
        release_nspace(ns);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t do_deregister_client(void *arg)
{
    name_op_t *op = arg;
    server_nspace_t *ns = nspace_find(op->proc.nspace);
    server_client_t *client = nspace_client(ns, op->proc.rank);
    if (NULL != client) {
        drop_client(ns, client);
    }
    return PMIX_SUCCESS;
}

typedef struct name_call {
    name_op_t op;
    pmix_status_t (*fn)(void *arg);
} name_call_t;

static void name_call_async(void *arg)
{
    name_call_t *call = arg;
    call->fn(&call->op);
    call->op.cbfunc(PMIX_SUCCESS, call->op.cbdata);
    free(call);
}

/* The void-returning deregistrations: cbfunc is always called, with an
 * error when the server is not there to do the work. */
static void run_name_op(pmix_status_t (*fn)(void *arg), const pmix_proc_t *proc,
                        pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    name_call_t *call;

    if (!server.initialized || NULL == proc) {
        if (NULL != cbfunc) {
            cbfunc(NULL == proc ? PMIX_ERR_BAD_PARAM : PMIX_ERR_INIT, cbdata);
        }
        return;
    }
    if (NULL == cbfunc) {
        name_op_t op = {.proc = *proc};
        server_run_sync(fn, &op);
        return;
    }
    if (NULL == (call = malloc(sizeof(*call)))) {
        cbfunc(PMIX_ERR_NOMEM, cbdata);
        return;
    }
    *call = (name_call_t){.op = {.proc = *proc, .cbfunc = cbfunc, .cbdata = cbdata}, .fn = fn};
    if (PMIX_SUCCESS != server_post(name_call_async, call)) {
        free(call);
        cbfunc(PMIX_ERR_INIT, cbdata);
    }
}

PMIX_EXPORT void PMIx_server_deregister_nspace(const pmix_nspace_t nspace, pmix_op_cbfunc_t cbfunc,
                                               void *cbdata)
{
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, nspace, PMIX_RANK_WILDCARD);
    run_name_op(do_deregister_nspace, NULL == nspace ? NULL : &proc, cbfunc, cbdata);
}

PMIX_EXPORT void PMIx_server_deregister_client(const pmix_proc_t *proc, pmix_op_cbfunc_t cbfunc,
                                               void *cbdata)
{
    run_name_op(do_deregister_client, proc, cbfunc, cbdata);
}

typedef struct client_op {
    pmix_proc_t proc;
    uid_t uid;
    gid_t gid;
    void *server_object;
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
} client_op_t;

static pmix_status_t do_register_client(void *arg)
{
    client_op_t *op = arg;
    server_nspace_t *ns = nspace_add(op->proc.nspace);
    hashmap_entry_t *e;

    if (NULL == ns ||
        NULL == (e = hashmap_insert(&ns->clients, &op->proc.rank, sizeof(op->proc.rank), NULL))) {
        return PMIX_ERR_NOMEM;
    }
    if (NULL == e->value) {
        server_client_t *client = calloc(1, sizeof(*client));
        if (NULL == client) {
            hashmap_remove(&ns->clients, &op->proc.rank, sizeof(op->proc.rank));
            return PMIX_ERR_NOMEM;
        }
        client->ns = ns;
        client->proc = op->proc;
        e->value = client;
    }
    server_client_t *client = e->value;
    hashmap_remove(&ns->departed, &op->proc.rank, sizeof(op->proc.rank));
    client->uid = op->uid;
    client->gid = op->gid;
    client->server_object = op->server_object;
    return PMIX_SUCCESS;
}

static void register_client_async(void *arg)
{
    client_op_t *op = arg;
    pmix_status_t rc = do_register_client(op);
    op->cbfunc(rc, op->cbdata);
    free(op);
}

PMIX_EXPORT pmix_status_t PMIx_server_register_client(const pmix_proc_t *proc, uid_t uid,
                                                      gid_t gid, void *server_object,
                                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_status_t rc;

    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == proc || '\0' == proc->nspace[0] || !PMIX_RANK_IS_VALID(proc->rank)) {
        return PMIX_ERR_BAD_PARAM;
    }
    client_op_t op = {.proc = *proc, .uid = uid, .gid = gid, .server_object = server_object,
                      .cbfunc = cbfunc, .cbdata = cbdata};
    if (NULL == cbfunc) {
        rc = server_run_sync(do_register_client, &op);
        return PMIX_SUCCESS == rc ? PMIX_OPERATION_SUCCEEDED : rc;
    }
    client_op_t *copy = malloc(sizeof(*copy));
    if (NULL == copy) {
        return PMIX_ERR_NOMEM;
    }
    *copy = op;
    if (PMIX_SUCCESS != (rc = server_post(register_client_async, copy))) {
        free(copy);
    }
    return rc;
}

/* The variables PMIx_server_setup_fork sets: all named "PMIX_...". */
#define FORK_VARS 12

PMIX_EXPORT pmix_status_t PMIx_server_setup_fork(const pmix_proc_t *proc, char ***env)
{
    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == proc || NULL == env || '\0' == proc->nspace[0]) {
        return PMIX_ERR_BAD_PARAM;
    }
    char rank[16], nspace[PMIX_MAX_NSLEN + 1];
    snprintf(rank, sizeof(rank), "%u", proc->rank);
    PMIX_LOAD_NSPACE(nspace, proc->nspace);
    /* Clients of every PMIx generation look for one of the URI names. */
    const char *const vars[FORK_VARS][2] = {
        {"PMIX_NAMESPACE", nspace},
        {"PMIX_RANK", rank},
        {PROTOCOL_URI_ENV, server.uri},
        {"PMIX_SERVER_URI4", server.uri},
        {"PMIX_SERVER_URI3", server.uri},
        {"PMIX_SERVER_URI21", server.uri},
        {"PMIX_SERVER_URI2", server.uri},
        {"PMIX_SERVER_URI", server.uri},
        {"PMIX_SECURITY_MODE", "native"},
        {"PMIX_SERVER_TMPDIR", server.tmpdir},
        {"PMIX_SYSTEM_TMPDIR", server.tmpdir},
        {"PMIX_VERSION", "4.2.2"},
    };
    return env_set_all(env, "PMIX_", vars, FORK_VARS);
}

typedef struct pids_op {
    size_t n;
    pmix_proc_t *procs;
    pid_t *pids;
} pids_op_t;

static void client_pids_async(void *arg)
{
    pids_op_t *op = arg;
    for (size_t i = 0; i < op->n; i++) {
        server_client_t *client = nspace_client(nspace_find(op->procs[i].nspace),
                                                op->procs[i].rank);
        if (NULL != client) {
            client->pid = op->pids[i];
            hello_client_pid(client);
        }
    }
    free(op);
}

PMIX_EXPORT pmix_status_t drover_server_client_pids(const pmix_proc_t *procs, const pid_t *pids,
                                                    size_t n)
{
    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == procs || NULL == pids || 0 == n) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 0; i < n; i++) {
        if (pids[i] <= 0) {
            return PMIX_ERR_BAD_PARAM;
        }
    }
    /* One allocation, one trip to the progress thread. */
    pids_op_t *op = malloc(sizeof(*op) + n * (sizeof(*op->procs) + sizeof(*op->pids)));
    if (NULL == op) {
        return PMIX_ERR_NOMEM;
    }
    op->n = n;
    op->procs = (pmix_proc_t *)(op + 1);
    op->pids = (pid_t *)(op->procs + n);
    memcpy(op->procs, procs, n * sizeof(*procs));
    memcpy(op->pids, pids, n * sizeof(*pids));
    pmix_status_t rc = server_post(client_pids_async, op);
    if (PMIX_SUCCESS != rc) {
        free(op);
    }
    return rc;
}

PMIX_EXPORT pmix_status_t drover_server_client_pid(const pmix_proc_t *proc, pid_t pid)
{
    if (NULL == proc) {
        return server.initialized ? PMIX_ERR_BAD_PARAM : PMIX_ERR_INIT;
    }
    return drover_server_client_pids(proc, &pid, 1);
}

void nspace_clear_all(void)
{
    for (uint32_t i = 0; i < server.nspaces.count; i++) {
        release_nspace(server.nspaces.entries[i].value);
    }
    hashmap_clear(&server.nspaces, NULL);
}
