/*
 * init.c - PMIx_Init, PMIx_Initialized, PMIx_Finalize and PMIx_Progress:
 * a client's life, with or without a server.
 *
 * Design notes:
 *  - Init and Finalize are counted: only the first Init connects and only
 *    the last Finalize disconnects (Open MPI initialises twice).
 *  - The server is found through the environment its host prepared
 *    (PMIX_NAMESPACE, PMIX_RANK, PMIX_SERVER_URI41 and its older names).
 *    Without it the process is a singleton: a namespace of its own,
 *    "singleton.<host>.<pid>", rank 0 of a job of one, with put, commit,
 *    fence and get working locally. It never waits for a server.
 *  - The HELLO answer carries the job's registration, stored here so that
 *    every PMIx_Get of job, node, application or process data is local.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "pmix.h"
#include "role.h"
#include "server_entry.h"

client_state_t client = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Serialises Init and Finalize themselves. */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

bool client_initialized(void)
{
    pthread_mutex_lock(&client.lock);
    bool up = client.refcount > 0;
    pthread_mutex_unlock(&client.lock);
    return up;
}

bool client_local_ready(void)
{
    return ROLE_SERVER == role_current() || client_initialized();
}

pmix_status_t client_absorb_registration(const char *nspace, pmix_data_buffer_t *buf)
{
    store_ns_t *ns = store_ns(&client.store, nspace, true);
    if (NULL == ns) {
        return PMIX_ERR_NOMEM;
    }
    while (NULL != buf->unpack_ptr && buf->unpack_ptr < buf->pack_ptr) {
        pmix_info_t *info;
        size_t ninfo;
        pmix_status_t rc = protocol_unpack_array(buf, PMIX_INFO, (void **)&info, &ninfo);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
        rc = store_ingest(ns, info, ninfo);
        protocol_free_array(info, ninfo, PMIX_INFO);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    ns->registered = true;
    return PMIX_SUCCESS;
}

pmix_status_t client_absorb_procdata(pmix_data_buffer_t *reply)
{
    uint32_t count;
    int32_t n = 1;
    pmix_status_t rc = PMIx_Data_unpack(NULL, reply, &count, &n, PMIX_UINT32);

    for (uint32_t i = 0; i < count && PMIX_SUCCESS == rc; i++) {
        pmix_proc_t proc;
        pmix_info_t *info;
        size_t ninfo;
        if (PMIX_SUCCESS != (rc = protocol_unpack_procdata(reply, &proc, &info, &ninfo))) {
            break;
        }
        pthread_mutex_lock(&client.lock);
        store_ns_t *ns = store_ns(&client.store, proc.nspace, true);
        hashmap_t *keys = NULL == ns ? NULL : store_keys(ns, STORE_PROC, proc.rank, true);
        rc = NULL == keys ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
        for (size_t k = 0; k < ninfo && PMIX_SUCCESS == rc; k++) {
            rc = store_set(keys, info[k].key, &info[k].value, 0);
        }
        pthread_mutex_unlock(&client.lock);
        PMIX_INFO_FREE(info, ninfo);
    }
    return rc;
}

/* The job description of a process alone in its job: client.me, rank 0
 * of a job of one. */
static pmix_status_t register_singleton(void)
{
    char host[256] = "localhost", tmp[] = "/tmp", peers[] = "0";
    uint32_t one = 1, zero = 0;
    uint16_t zero16 = 0;
    pmix_rank_t rank0 = 0;
    bool no = false;
    const char *tmpdir = getenv("TMPDIR");
    pmix_info_t info[16];
    size_t n = 0;

    gethostname(host, sizeof(host) - 1);
    PMIx_Info_load(&info[n++], PMIX_JOB_SIZE, &one, PMIX_UINT32);
    PMIx_Info_load(&info[n++], PMIX_UNIV_SIZE, &one, PMIX_UINT32);
    PMIx_Info_load(&info[n++], PMIX_MAX_PROCS, &one, PMIX_UINT32);
    PMIx_Info_load(&info[n++], PMIX_LOCAL_SIZE, &one, PMIX_UINT32);
    PMIx_Info_load(&info[n++], PMIX_NODE_SIZE, &one, PMIX_UINT32);
    PMIx_Info_load(&info[n++], PMIX_NUM_NODES, &one, PMIX_UINT32);
    PMIx_Info_load(&info[n++], PMIX_APPNUM, &zero, PMIX_UINT32);
    PMIx_Info_load(&info[n++], PMIX_APPLDR, &rank0, PMIX_PROC_RANK);
    PMIx_Info_load(&info[n++], PMIX_LOCALLDR, &rank0, PMIX_PROC_RANK);
    PMIx_Info_load(&info[n++], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    PMIx_Info_load(&info[n++], PMIX_HOSTNAME, host, PMIX_STRING);
    PMIx_Info_load(&info[n++], PMIX_NODEID, &zero, PMIX_UINT32);
    PMIx_Info_load(&info[n++], PMIX_TMPDIR, NULL == tmpdir ? tmp : (char *)tmpdir, PMIX_STRING);
    PMIx_Info_load(&info[n++], PMIX_SPAWNED, &no, PMIX_BOOL);
    PMIx_Info_load(&info[n++], PMIX_LOCAL_RANK, &zero16, PMIX_UINT16);
    PMIx_Info_load(&info[n++], PMIX_NODE_RANK, &zero16, PMIX_UINT16);

    store_ns_t *ns = store_ns(&client.store, client.me.nspace, true);
    pmix_status_t rc = NULL == ns ? PMIX_ERR_NOMEM : store_ingest(ns, info, n);
    /* Per-process keys also answer for rank 0 itself. */
    hashmap_t *mine = NULL == ns ? NULL : store_keys(ns, STORE_PROC, 0, true);
    if (PMIX_SUCCESS == rc && NULL != mine) {
        rc = store_set(mine, PMIX_RANK, &(pmix_value_t){.type = PMIX_PROC_RANK,
                                                      .data.rank = 0}, 0);
    }
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    return rc;
}

const char *client_uri_from_env(void)
{
    static const char *const uri_names[] = {PROTOCOL_URI_ENV, "PMIX_SERVER_URI4",
                                            "PMIX_SERVER_URI3", "PMIX_SERVER_URI21",
                                            "PMIX_SERVER_URI2", "PMIX_SERVER_URI"};
    const char *uri = NULL;
    for (size_t i = 0; NULL == uri && i < sizeof(uri_names) / sizeof(uri_names[0]); i++) {
        uri = getenv(uri_names[i]);
    }
    return uri;
}

/* Who we are, from the environment the server's host set up. */
static bool identity_from_env(const char **uri)
{
    const char *nspace = getenv("PMIX_NAMESPACE"), *rank = getenv("PMIX_RANK");

    *uri = client_uri_from_env();
    if (NULL == *uri || NULL == nspace || NULL == rank) {
        return false;
    }
    char *end;
    unsigned long r = strtoul(rank, &end, 10);
    if ('\0' == rank[0] || '\0' != *end || r > PMIX_RANK_VALID) {
        return false;
    }
    PMIX_LOAD_PROCID(&client.me, nspace, (pmix_rank_t)r);
    return true;
}

static pmix_status_t connect_to_server(const char *uri, const pmix_info_t *info, size_t ninfo)
{
    pmix_data_buffer_t welcome;
    pmix_proc_t assigned;
    int32_t n = 1;
    pmix_status_t rc = conn_open(uri, &client.me, info, ninfo, &welcome);

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (PMIX_SUCCESS == (rc = PMIx_Data_unpack(NULL, &welcome, &assigned, &n, PMIX_PROC))) {
        client.me = assigned;
        pthread_mutex_lock(&client.lock);
        rc = client_absorb_registration(client.me.nspace, &welcome);
        pthread_mutex_unlock(&client.lock);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&welcome);
    if (PMIX_SUCCESS != rc) {
        conn_close();
    }
    return rc;
}

static void release_state(void)
{
    pthread_mutex_lock(&client.lock);
    store_clear(&client.store);
    for (int s = 0; s < 3; s++) {
        hashmap_clear(&client.pending[s], store_value_free);
    }
    client.refcount = 0;
    client.singleton = false;
    pthread_mutex_unlock(&client.lock);
}

void client_forget_host(void)
{
    event_clear_all();
    release_state();
}

pmix_status_t client_post(void (*fn)(void *arg), void *arg)
{
    return ROLE_SERVER == role_current() ? server_entry_post(fn, arg) : conn_post(fn, arg);
}

pmix_status_t client_register_self(void)
{
    pthread_mutex_lock(&client.lock);
    pmix_status_t rc = register_singleton();
    pthread_mutex_unlock(&client.lock);
    return rc;
}

pmix_status_t client_start_alone(void)
{
    client.singleton = true;
    pmix_status_t rc = client_register_self();
    return PMIX_SUCCESS == rc ? conn_open_local() : rc;
}

/* A client: connect to the server named in the environment, or be a
 * singleton. */
static pmix_status_t setup_client(const pmix_info_t *info, size_t ninfo)
{
    const char *uri;
    char host[256] = "localhost";

    if (identity_from_env(&uri)) {
        return connect_to_server(uri, info, ninfo);
    }
    gethostname(host, sizeof(host) - 1);
    snprintf(client.me.nspace, sizeof(client.me.nspace), "singleton.%s.%ld", host,
             (long)getpid());
    client.me.rank = 0;
    return client_start_alone();
}

pmix_status_t client_start(role_t role, pmix_status_t (*setup)(const pmix_info_t *, size_t),
                           const pmix_info_t *info, size_t ninfo, pmix_proc_t *proc)
{
    pmix_status_t rc;

    if (NULL == info && 0 != ninfo) {
        return PMIX_ERR_BAD_PARAM;
    }
    pthread_mutex_lock(&init_lock);
    if (client_initialized()) {
        if (role_current() != role) {
            pthread_mutex_unlock(&init_lock);
            return PMIX_ERR_INIT;
        }
        pthread_mutex_lock(&client.lock);
        client.refcount++;
        pthread_mutex_unlock(&client.lock);
        goto done;
    }
    if (PMIX_SUCCESS != (rc = role_claim(role))) {
        pthread_mutex_unlock(&init_lock);
        return rc;
    }
    if (PMIX_SUCCESS != (rc = setup(info, ninfo))) {
        release_state();
        role_release(role);
        pthread_mutex_unlock(&init_lock);
        return rc;
    }
    pthread_mutex_lock(&client.lock);
    client.refcount = 1;
    pthread_mutex_unlock(&client.lock);
done:
    if (NULL != proc) {
        *proc = client.me;
    }
    pthread_mutex_unlock(&init_lock);
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo)
{
    pmix_proc_t me;
    pmix_status_t rc = client_start(ROLE_CLIENT, setup_client, info, ninfo, &me);
    if (PMIX_SUCCESS == rc && (PMIX_SUCCESS != (rc = client_job_types(&me)) ||
                               PMIX_SUCCESS != (rc = client_debug_stop_in_init()))) {
        client_finish(ROLE_CLIENT, NULL, 0);
        return rc;
    }
    if (PMIX_SUCCESS == rc && NULL != proc) {
        *proc = me;
    }
    return rc;
}

PMIX_EXPORT int PMIx_Initialized(void)
{
    return client_initialized();
}

pmix_status_t client_finish(role_t role, const pmix_info_t *info, size_t ninfo)
{
    if (NULL == info && 0 != ninfo) {
        return PMIX_ERR_BAD_PARAM;
    }
    pthread_mutex_lock(&init_lock);
    pthread_mutex_lock(&client.lock);
    if (0 == client.refcount || role_current() != role) {
        pthread_mutex_unlock(&client.lock);
        pthread_mutex_unlock(&init_lock);
        return PMIX_ERR_INIT;
    }
    if (client.refcount > 1) {
        client.refcount--;
        pthread_mutex_unlock(&client.lock);
        pthread_mutex_unlock(&init_lock);
        return PMIX_SUCCESS;
    }
    /* The last one: the count drops to 0 once everything is torn down. */
    pthread_mutex_unlock(&client.lock);
    if (client_flag(info, ninfo, PMIX_EMBED_BARRIER)) {
        PMIx_Fence(NULL, 0, NULL, 0);
    }
    iof_forget_all();
    if (conn_connected()) {
        /* The server answers once its host has seen us go; bounded so a
         * wedged host cannot hold the process. */
        conn_call(PROTOCOL_FINALIZE, NULL, 30, NULL);
    }
    conn_close();
    event_clear_all();
    release_state();
    role_release(role);
    pthread_mutex_unlock(&init_lock);
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Finalize(const pmix_info_t info[], size_t ninfo)
{
    return client_finish(ROLE_CLIENT, info, ninfo);
}

PMIX_EXPORT void PMIx_Progress(void)
{
    /* The progress thread makes progress on its own. */
}

bool client_flag(const pmix_info_t *info, size_t ninfo, const char *key)
{
    return directive_flag(info, ninfo, key);
}
