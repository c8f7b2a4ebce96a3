/*
 * requests.c - the client requests the server relays to a host module
 * function: ABORT, QUERY, JOB_CONTROL, LOG, PUBLISH, LOOKUP, UNPUBLISH,
 * SPAWN, ALLOCATE, MONITOR and FABRIC. (Fence, connect, groups, I/O
 * forwarding, credentials and the data requests have files of their own:
 * they do more than relay.)
 *
 * Design notes:
 *  - Every relay has the same shape: unpack the request, keep what was
 *    unpacked alive while the host works (the host borrows it until it
 *    calls back), call the module function, and reply when it answers.
 *    A relay_t carries that state; the unpacked arrays are "held" by it
 *    and freed with it.
 *  - The host's callbacks may come from any thread. They pack their
 *    results on the spot (the host may free them when the callback
 *    returns) and post the ready reply to the progress thread.
 *  - A module function the host does not provide makes the request fail
 *    with PMIX_ERR_NOT_SUPPORTED, except where the library can do the
 *    work itself: cleanup registration in job control, logging to stderr
 *    or syslog, and the server's own URI in queries.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log_local.h"
#include "pmix.h"
#include "server.h"

relay_t *relay_new(server_peer_t *peer, uint32_t tag, uint16_t command)
{
    relay_t *r = calloc(1, sizeof(*r));
    if (NULL == r) {
        peer_reply(peer, command, tag, PMIX_ERR_NOMEM, NULL);
        return NULL;
    }
    r->peer = peer;
    r->tag = tag;
    r->command = command;
    PMIX_DATA_BUFFER_CONSTRUCT(&r->body);
    peer_retain(peer);
    return r;
}

static void relay_free(relay_t *r)
{
    for (size_t i = 0; i < r->nheld; i++) {
        protocol_free_array(r->held[i].array, r->held[i].n, r->held[i].type);
    }
    free(r->keys);
    free(r->extra);
    PMIX_DATA_BUFFER_DESTRUCT(&r->body);
    peer_release(r->peer);
    free(r);
}

/* Reply with status (and, when there is an answer, the body packed so
 * far) and free r. */
void relay_finish(relay_t *r, pmix_status_t status)
{
    bool answer = PMIX_SUCCESS == status || PMIX_ERR_PARTIAL_SUCCESS == status;
    peer_reply(r->peer, r->command, r->tag, status, answer ? &r->body : NULL);
    relay_free(r);
}

static void finish_in_thread(void *arg)
{
    relay_t *r = arg;
    relay_finish(r, r->status);
}

/* The host has answered (any thread): reply from the progress thread. */
void relay_answered(relay_t *r, pmix_status_t status)
{
    r->status = status;
    if (PMIX_SUCCESS != server_post(finish_in_thread, r)) {
        /* Shutting down: the connection is closing anyway. */
        relay_free(r);
    }
}

/* After the module call: PMIX_SUCCESS means the host will call back. */
void relay_called(relay_t *r, pmix_status_t rc)
{
    if (PMIX_SUCCESS != rc) {
        relay_finish(r, PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc);
    }
}

/* Keep array (of n elements of type) alive until r is freed. */
static void relay_hold(relay_t *r, void *array, size_t n, pmix_data_type_t type)
{
    /* Requests hold at most two arrays; the bound is a programming error. */
    assert(r->nheld < RELAY_MAX_HELD);
    r->held[r->nheld].array = array;
    r->held[r->nheld].n = n;
    r->held[r->nheld].type = type;
    r->nheld++;
}

/* Unpack one array group and hold it; false (after replying) on error. */
bool relay_unpack(relay_t *r, pmix_data_buffer_t *payload, pmix_data_type_t type, void **array,
                  size_t *n)
{
    pmix_status_t rc = protocol_unpack_array(payload, type, array, n);
    if (PMIX_SUCCESS != rc) {
        relay_finish(r, rc);
        return false;
    }
    relay_hold(r, *array, *n, type);
    return true;
}

/* Unpack a PMIX_STRING array as the NULL-terminated keys a module wants. */
static bool relay_unpack_keys(relay_t *r, pmix_data_buffer_t *payload)
{
    char **strings;
    size_t n;
    if (!relay_unpack(r, payload, PMIX_STRING, (void **)&strings, &n)) {
        return false;
    }
    if (NULL == (r->keys = calloc(n + 1, sizeof(*r->keys)))) {
        relay_finish(r, PMIX_ERR_NOMEM);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (NULL == strings[i]) {
            relay_finish(r, PMIX_ERR_BAD_PARAM);
            return false;
        }
        r->keys[i] = strings[i];
    }
    return true;
}

void relay_op_answered(pmix_status_t status, void *cbdata)
{
    relay_answered(cbdata, status);
}

/* A pmix_info_cbfunc_t: pack the results here, the host may free them. */
void relay_info_answered(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                         pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    relay_t *r = cbdata;
    if (PMIX_SUCCESS == status || PMIX_ERR_PARTIAL_SUCCESS == status) {
        pmix_status_t rc = PMIx_Data_pack(NULL, &r->body, info, (int32_t)ninfo, PMIX_INFO);
        if (PMIX_SUCCESS != rc) {
            status = rc;
        }
    }
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    relay_answered(r, status);
}

/* ---- ABORT ------------------------------------------------------------- */

/* ABORT: PMIX_STATUS code, PMIX_STRING message, PMIX_PROC[] targets. */
void abort_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_ABORT);
    pmix_status_t code;
    char *msg = NULL;
    pmix_proc_t *procs;
    size_t nprocs;
    int32_t n = 1;
    pmix_status_t rc;

    if (NULL == r) {
        return;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &code, &n, PMIX_STATUS)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &msg, &n, PMIX_STRING))) {
        relay_finish(r, rc);
        return;
    }
    if (!relay_unpack(r, payload, PMIX_PROC, (void **)&procs, &nprocs)) {
        free(msg);
        return;
    }
    rc = PMIX_ERR_NOT_SUPPORTED;
    if (NULL != server.host.abort) {
        void *obj = NULL != peer->client ? peer->client->server_object : NULL;
        rc = server.host.abort(&peer->proc, obj, code, msg, procs, nprocs, relay_op_answered, r);
    }
    free(msg);
    relay_called(r, rc);
}

/* ---- QUERY ------------------------------------------------------------- */

/* The server's own URI. */
static bool uri_query(const char *key, const pmix_query_t *q, pmix_info_t *result,
                      pmix_status_t *rc)
{
    if (0 != strcmp(key, PMIX_SERVER_URI)) {
        return false;
    }
    *rc = PMIx_Info_load(result, key, server.uri, PMIX_STRING);
    return true;
}

/* What the library answers itself, one function per subject. Each says
 * whether a key is its own and, if so, answers it. */
static bool (*const local_answers[])(const char *key, const pmix_query_t *q,
                                     pmix_info_t *result, pmix_status_t *rc) = {
    uri_query, pset_query, group_query, attrs_query,
};

typedef struct local_results {
    pmix_info_t *info;
    size_t ninfo;
    size_t foreign;              /* keys the library does not know */
    size_t failed;               /* keys it knows but could not answer */
} local_results_t;

static void answer_locally(const pmix_query_t *queries, size_t nqueries, local_results_t *out)
{
    for (size_t i = 0; i < nqueries; i++) {
        for (size_t k = 0; NULL != queries[i].keys && NULL != queries[i].keys[k]; k++) {
            pmix_info_t result;
            pmix_status_t rc = PMIX_ERR_NOT_FOUND;
            bool own = false;
            PMIX_INFO_CONSTRUCT(&result);
            for (size_t f = 0; !own && f < sizeof(local_answers) / sizeof(*local_answers); f++) {
                own = local_answers[f](queries[i].keys[k], &queries[i], &result, &rc);
            }
            pmix_info_t *grown = own && PMIX_SUCCESS == rc
                                     ? realloc(out->info, (out->ninfo + 1) * sizeof(*grown))
                                     : NULL;
            if (NULL != grown) {
                out->info = grown;
                grown[out->ninfo++] = result;
                continue;
            }
            PMIX_INFO_DESTRUCT(&result);
            out->foreign += !own;
            out->failed += own;
        }
    }
}

/* The status of a query: complete, partial, or nothing found. */
static pmix_status_t query_outcome(size_t answered, size_t missing, pmix_status_t none)
{
    return 0 == missing ? PMIX_SUCCESS : 0 < answered ? PMIX_ERR_PARTIAL_SUCCESS : none;
}

/* The host answered the keys the library could not: its results follow
 * the library's own (held by r, with the count of failed keys in
 * r->extra) in one PMIX_INFO[] group. */
static void query_answered(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                           pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    relay_t *r = cbdata;
    const local_results_t *mine = r->extra;
    bool host_ok = PMIX_SUCCESS == status || PMIX_ERR_PARTIAL_SUCCESS == status;
    size_t nhost = host_ok ? ninfo : 0, n = mine->ninfo + nhost;
    pmix_info_t *all = 0 == n ? NULL : malloc(n * sizeof(*all));

    if (0 < n && NULL == all) {
        status = PMIX_ERR_NOMEM;
    } else {
        /* Shallow copies, only read by the pack. */
        if (mine->ninfo > 0) {
            memcpy(all, mine->info, mine->ninfo * sizeof(*all));
        }
        if (nhost > 0) {
            memcpy(all + mine->ninfo, info, nhost * sizeof(*all));
        }
        pmix_status_t rc = PMIx_Data_pack(NULL, &r->body, all, (int32_t)n, PMIX_INFO);
        if (PMIX_SUCCESS != rc) {
            status = rc;
        } else if (PMIX_SUCCESS == status) {
            status = query_outcome(n, mine->failed, PMIX_ERR_NOT_FOUND);
        } else if (!host_ok) {
            status = query_outcome(n, 1, status);
        }
    }
    free(all);
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    relay_answered(r, status);
}

/* QUERY: PMIX_QUERY[] queries; reply PMIX_INFO[] results. */
void query_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_QUERY);
    pmix_query_t *queries;
    size_t nqueries;
    local_results_t *mine;

    if (NULL == r || !relay_unpack(r, payload, PMIX_QUERY, (void **)&queries, &nqueries)) {
        return;
    }
    if (0 == nqueries) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    if (NULL == (mine = r->extra = calloc(1, sizeof(*mine)))) {
        relay_finish(r, PMIX_ERR_NOMEM);
        return;
    }
    answer_locally(queries, nqueries, mine);
    relay_hold(r, mine->info, mine->ninfo, PMIX_INFO);
    if (0 == mine->foreign || NULL == server.host.query) {
        pmix_status_t rc = PMIx_Data_pack(NULL, &r->body, mine->info, (int32_t)mine->ninfo,
                                          PMIX_INFO);
        relay_finish(r, PMIX_SUCCESS != rc ? rc
                                           : query_outcome(mine->ninfo,
                                                           mine->foreign + mine->failed,
                                                           0 < mine->foreign
                                                               ? PMIX_ERR_NOT_SUPPORTED
                                                               : PMIX_ERR_NOT_FOUND));
        return;
    }
    relay_called(r, server.host.query(&peer->proc, queries, nqueries, query_answered, r));
}

/* ---- JOB_CONTROL ------------------------------------------------------- */

/* Register the cleanup a directive asks for (a comma-separated list of
 * paths). */
static pmix_status_t register_cleanup(server_nspace_t *ns, const char *paths,
                                      cleanup_mode_t mode)
{
    char *copy = strdup(paths), *save = NULL;
    pmix_status_t rc = NULL == copy ? PMIX_ERR_NOMEM : PMIX_SUCCESS;

    for (char *p = NULL == copy ? NULL : strtok_r(copy, ",", &save);
         NULL != p && PMIX_SUCCESS == rc; p = strtok_r(NULL, ",", &save)) {
        rc = nspace_add_cleanup(ns, p, mode);
    }
    free(copy);
    return rc;
}

/* Handle the cleanup directives; true when nothing is left for the host. */
static bool cleanup_directives(server_peer_t *peer, const pmix_info_t *dirs, size_t ndirs,
                               pmix_status_t *rc)
{
    bool recursive = false, only_cleanup = true;
    server_nspace_t *ns = NULL != peer->client ? peer->client->ns : NULL;

    *rc = PMIX_SUCCESS;
    for (size_t i = 0; i < ndirs; i++) {
        if (PMIX_CHECK_KEY(&dirs[i], PMIX_CLEANUP_RECURSIVE)) {
            recursive = PMIX_INFO_TRUE(&dirs[i]);
        }
    }
    for (size_t i = 0; i < ndirs && PMIX_SUCCESS == *rc; i++) {
        const pmix_info_t *d = &dirs[i];
        bool file = PMIX_CHECK_KEY(d, PMIX_REGISTER_CLEANUP);
        bool dir = PMIX_CHECK_KEY(d, PMIX_REGISTER_CLEANUP_DIR);
        if (file || dir) {
            if (NULL == ns || PMIX_STRING != d->value.type || NULL == d->value.data.string) {
                *rc = PMIX_ERR_BAD_PARAM;
            } else {
                *rc = register_cleanup(ns, d->value.data.string,
                                       file ? CLEANUP_FILE : recursive ? CLEANUP_TREE : CLEANUP_DIR);
            }
        } else if (!PMIX_CHECK_KEY(d, PMIX_CLEANUP_RECURSIVE) &&
                   !PMIX_CHECK_KEY(d, PMIX_CLEANUP_EMPTY) &&
                   !PMIX_CHECK_KEY(d, PMIX_CLEANUP_LEAVE_TOPDIR)) {
            only_cleanup = false;
        }
    }
    return only_cleanup || PMIX_SUCCESS != *rc;
}

/* JOB_CONTROL: PMIX_PROC[] targets, PMIX_INFO[] directives; reply
 * PMIX_INFO[] results. */
void job_control_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_JOB_CONTROL);
    pmix_proc_t *targets;
    pmix_info_t *dirs;
    size_t ntargets, ndirs;
    pmix_status_t rc;

    if (NULL == r || !relay_unpack(r, payload, PMIX_PROC, (void **)&targets, &ntargets) ||
        !relay_unpack(r, payload, PMIX_INFO, (void **)&dirs, &ndirs)) {
        return;
    }
    if (0 == ndirs) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    if (cleanup_directives(peer, dirs, ndirs, &rc)) {
        if (PMIX_SUCCESS == rc) {
            rc = PMIx_Data_pack(NULL, &r->body, NULL, 0, PMIX_INFO);
        }
        relay_finish(r, rc);
        return;
    }
    rc = PMIX_ERR_NOT_SUPPORTED;
    if (NULL != server.host.job_control) {
        rc = server.host.job_control(&peer->proc, targets, ntargets, dirs, ndirs, relay_info_answered,
                                     r);
    }
    relay_called(r, rc);
}

/* ---- LOG --------------------------------------------------------------- */

/* LOG: PMIX_INFO[] data, PMIX_INFO[] directives. */
void log_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_LOG);
    pmix_info_t *data, *dirs;
    size_t ndata, ndirs;

    if (NULL == r || !relay_unpack(r, payload, PMIX_INFO, (void **)&data, &ndata) ||
        !relay_unpack(r, payload, PMIX_INFO, (void **)&dirs, &ndirs)) {
        return;
    }
    if (0 == ndata) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    if (NULL == server.host.log) {
        relay_finish(r, log_local(&peer->proc, data, ndata));
        return;
    }
    /* The host's log function returns nothing: it always calls back. */
    server.host.log(&peer->proc, data, ndata, dirs, ndirs, relay_op_answered, r);
}

/* ---- PUBLISH, LOOKUP, UNPUBLISH ----------------------------------------- */

/* Unpack the directives of a publish, lookup or unpublish and add the
 * requestor's PMIX_USERID and PMIX_GRPID, as OpenPMIx does: hosts keep
 * published data by owner (Open MPI's data server finds nothing for a
 * lookup without them). The server's values replace any the client sent. */
static bool relay_unpack_with_owner(relay_t *r, pmix_data_buffer_t *payload, pmix_info_t **info,
                                    size_t *ninfo)
{
    pmix_info_t *sent, *all;
    size_t nsent, n = 0;
    pmix_status_t rc = protocol_unpack_array(payload, PMIX_INFO, (void **)&sent, &nsent);

    if (PMIX_SUCCESS != rc) {
        relay_finish(r, rc);
        return false;
    }
    PMIX_INFO_CREATE(all, nsent + 2);
    if (NULL == all) {
        protocol_free_array(sent, nsent, PMIX_INFO);
        relay_finish(r, PMIX_ERR_NOMEM);
        return false;
    }
    for (size_t i = 0; i < nsent; i++) {
        if (!PMIX_CHECK_KEY(&sent[i], PMIX_USERID) && !PMIX_CHECK_KEY(&sent[i], PMIX_GRPID)) {
            PMIx_Info_xfer(&all[n++], &sent[i]);
        }
    }
    protocol_free_array(sent, nsent, PMIX_INFO);
    uint32_t uid = (uint32_t)r->peer->uid, gid = (uint32_t)r->peer->gid;
    PMIx_Info_load(&all[n++], PMIX_USERID, &uid, PMIX_UINT32);
    PMIx_Info_load(&all[n++], PMIX_GRPID, &gid, PMIX_UINT32);
    relay_hold(r, all, nsent + 2, PMIX_INFO);
    *info = all;
    *ninfo = n;
    return true;
}

/* PUBLISH: PMIX_INFO[] data and directives. */
void publish_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_PUBLISH);
    pmix_info_t *info;
    size_t ninfo;
    pmix_status_t rc = PMIX_ERR_NOT_SUPPORTED;

    if (NULL == r || !relay_unpack_with_owner(r, payload, &info, &ninfo)) {
        return;
    }
    if (NULL != server.host.publish) {
        rc = server.host.publish(&peer->proc, info, ninfo, relay_op_answered, r);
    }
    relay_called(r, rc);
}

static void lookup_answered(pmix_status_t status, pmix_pdata_t data[], size_t ndata,
                            void *cbdata)
{
    relay_t *r = cbdata;
    if (PMIX_SUCCESS == status || PMIX_ERR_PARTIAL_SUCCESS == status) {
        pmix_status_t rc = PMIx_Data_pack(NULL, &r->body, data, (int32_t)ndata, PMIX_PDATA);
        if (PMIX_SUCCESS != rc) {
            status = rc;
        }
    }
    relay_answered(r, status);
}

/* LOOKUP: PMIX_STRING[] keys, PMIX_INFO[] directives; reply PMIX_PDATA[]. */
void lookup_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_LOOKUP);
    pmix_info_t *info;
    size_t ninfo;
    pmix_status_t rc = PMIX_ERR_NOT_SUPPORTED;

    if (NULL == r || !relay_unpack_keys(r, payload) ||
        !relay_unpack_with_owner(r, payload, &info, &ninfo)) {
        return;
    }
    if (NULL == r->keys[0]) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    if (NULL != server.host.lookup) {
        rc = server.host.lookup(&peer->proc, r->keys, info, ninfo, lookup_answered, r);
    }
    relay_called(r, rc);
}

/* UNPUBLISH: PMIX_STRING[] keys (empty: all of the caller's), PMIX_INFO[]. */
void unpublish_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_UNPUBLISH);
    pmix_info_t *info;
    size_t ninfo;
    pmix_status_t rc = PMIX_ERR_NOT_SUPPORTED;

    if (NULL == r || !relay_unpack_keys(r, payload) ||
        !relay_unpack_with_owner(r, payload, &info, &ninfo)) {
        return;
    }
    if (NULL != server.host.unpublish) {
        rc = server.host.unpublish(&peer->proc, NULL == r->keys[0] ? NULL : r->keys, info, ninfo,
                                   relay_op_answered, r);
    }
    relay_called(r, rc);
}

/* ---- SPAWN ------------------------------------------------------------- */

static void spawn_answered(pmix_status_t status, char nspace[], void *cbdata)
{
    relay_t *r = cbdata;
    if (PMIX_SUCCESS == status) {
        pmix_status_t rc = PMIx_Data_pack(NULL, &r->body, &nspace, 1, PMIX_STRING);
        if (PMIX_SUCCESS != rc) {
            status = rc;
        }
    }
    relay_answered(r, status);
}

/* SPAWN: PMIX_INFO[] job info, PMIX_APP[] apps; reply PMIX_STRING nspace. */
void spawn_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_SPAWN);
    pmix_info_t *info;
    pmix_app_t *apps;
    size_t ninfo, napps;
    pmix_status_t rc = PMIX_ERR_NOT_SUPPORTED;

    if (NULL == r || !relay_unpack(r, payload, PMIX_INFO, (void **)&info, &ninfo) ||
        !relay_unpack(r, payload, PMIX_APP, (void **)&apps, &napps)) {
        return;
    }
    if (0 == napps) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    if (NULL != server.host.spawn) {
        rc = server.host.spawn(&peer->proc, info, ninfo, apps, napps, spawn_answered, r);
    }
    relay_called(r, rc);
}

/* ---- ALLOCATE, MONITOR, FABRIC ----------------------------------------- */

/* ALLOCATE: PMIX_ALLOC_DIRECTIVE directive, PMIX_INFO[] data; reply
 * PMIX_INFO[] results. */
void allocate_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_ALLOCATE);
    pmix_alloc_directive_t directive;
    pmix_info_t *data;
    size_t ndata;
    int32_t n = 1;
    pmix_status_t rc;

    if (NULL == r) {
        return;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &directive, &n,
                                               PMIX_ALLOC_DIRECTIVE))) {
        relay_finish(r, rc);
        return;
    }
    if (!relay_unpack(r, payload, PMIX_INFO, (void **)&data, &ndata)) {
        return;
    }
    rc = PMIX_ERR_NOT_SUPPORTED;
    if (NULL != server.host.allocate) {
        rc = server.host.allocate(&peer->proc, directive, data, ndata, relay_info_answered, r);
    }
    relay_called(r, rc);
}

/* MONITOR: PMIX_INFO[] monitor (exactly one), PMIX_STATUS error,
 * PMIX_INFO[] directives; reply PMIX_INFO[] results. */
void monitor_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_MONITOR);
    pmix_info_t *monitor, *dirs;
    size_t nmonitor, ndirs;
    pmix_status_t error, rc;
    int32_t n = 1;

    if (NULL == r || !relay_unpack(r, payload, PMIX_INFO, (void **)&monitor, &nmonitor)) {
        return;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &error, &n, PMIX_STATUS))) {
        relay_finish(r, rc);
        return;
    }
    if (!relay_unpack(r, payload, PMIX_INFO, (void **)&dirs, &ndirs)) {
        return;
    }
    if (1 != nmonitor) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    rc = PMIX_ERR_NOT_SUPPORTED;
    if (NULL != server.host.monitor) {
        rc = server.host.monitor(&peer->proc, monitor, error, dirs, ndirs, relay_info_answered, r);
    }
    relay_called(r, rc);
}

/* FABRIC: PMIX_UINT8 operation (pmix_fabric_operation_t), PMIX_INFO[]
 * directives; reply PMIX_INFO[] the fabric's description. */
void fabric_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_FABRIC);
    pmix_info_t *dirs;
    size_t ndirs;
    uint8_t op;
    int32_t n = 1;
    pmix_status_t rc;

    if (NULL == r) {
        return;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &op, &n, PMIX_UINT8))) {
        relay_finish(r, rc);
        return;
    }
    if (!relay_unpack(r, payload, PMIX_INFO, (void **)&dirs, &ndirs)) {
        return;
    }
    if (PMIX_FABRIC_REQUEST_INFO != op && PMIX_FABRIC_UPDATE_INFO != op) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    rc = PMIX_ERR_NOT_SUPPORTED;
    if (NULL != server.host.fabric) {
        rc = server.host.fabric(&peer->proc, (pmix_fabric_operation_t)op, dirs, ndirs,
                                relay_info_answered, r);
    }
    relay_called(r, rc);
}
