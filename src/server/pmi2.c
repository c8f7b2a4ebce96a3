/*
 * pmi2.c - the PMI-2 commands.
 *
 * Design notes:
 *  - A PMI-2 client opens with PMI-1's "cmd=init pmi_version=2" line
 *    (pmi1.c answers it), then sends length-prefixed commands. fullinit
 *    names the client: it becomes HELLO.
 *  - Replies are worded as hydra words them: "cmd=<command>-response;"
 *    then the thread id the client sent (a threaded client matches
 *    replies by it), the fields, and "rc=0;". A ';' inside a value is
 *    written ";;".
 *  - kvs-put, kvs-fence and kvs-get are PMI-1's put, barrier and get.
 *    info-getjobattr answers the job attributes (pmi_job_attr), then
 *    anything in the job's key-value space, as hydra does.
 *  - Node attributes are shared by the job's processes on this node: they
 *    live in the job's store under this node, with a "pmi.node." prefix
 *    so they never overwrite what the host registered. A getnodeattr with
 *    wait=TRUE for a key not yet put waits for it.
 *  - An unknown command, or one missing a field, closes the connection.
 */
#include <stdlib.h>
#include <string.h>

#include "pmi.h"
#include "pmix.h"
#include "strbuf.h"

#define NODE_PREFIX "pmi.node."

/* A reply being built: start_reply, fields, then end_reply sends it. */
static void start_reply(strbuf_t *b, server_peer_t *peer, const char *cmd)
{
    strbuf_printf(b, "cmd=%s-response;", cmd);
    if ('\0' != peer->pmi->thrid[0]) {
        strbuf_printf(b, "thrid=%s;", peer->pmi->thrid);
    }
}

static void field(strbuf_t *b, const char *key, const char *value)
{
    strbuf_printf(b, "%s=", key);
    for (const char *p = value; '\0' != *p;) {
        size_t n = strcspn(p, ";");
        strbuf_append(b, p, n);
        p += n;
        if (';' == *p) {
            strbuf_append(b, ";;", 2);
            p++;
        }
    }
    strbuf_append(b, ";", 1);
}

static void end_reply(strbuf_t *b, server_peer_t *peer, int rc, const char *errmsg)
{
    strbuf_printf(b, "rc=%d;", rc);
    if (NULL != errmsg) {
        field(b, "errmsg", errmsg);
    }
    char *text = strbuf_finish(b);
    if (NULL == text) {
        pmi_fail(peer);
        return;
    }
    pmi_send(peer, text, strlen(text));
    free(text);
}

/* A reply with no fields. */
static void simple_reply(server_peer_t *peer, const char *cmd, pmix_status_t status)
{
    strbuf_t b = STRBUF_INIT;
    start_reply(&b, peer, cmd);
    end_reply(&b, peer, PMIX_SUCCESS == status ? 0 : -1,
              PMIX_SUCCESS == status ? NULL : PMIx_Error_string(status));
}

/* A found/value reply (kvs-get, info-getjobattr, info-getnodeattr). */
static void value_reply(server_peer_t *peer, const char *cmd, const char *value)
{
    strbuf_t b = STRBUF_INIT;
    start_reply(&b, peer, cmd);
    if (NULL != value) {
        field(&b, "found", "TRUE");
        field(&b, "value", value);
    } else {
        field(&b, "found", "FALSE");
    }
    end_reply(&b, peer, 0, NULL);
}

/* ---- Commands ---------------------------------------------------------- */

static void fullinit_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    pmi_conn_t *c = peer->pmi;
    strbuf_t b = STRBUF_INIT;

    c->initialized = PMIX_SUCCESS == status;
    start_reply(&b, peer, "fullinit");
    if (PMIX_SUCCESS != status) {
        end_reply(&b, peer, -1, PMIx_Error_string(status));
        peer_close_when_flushed(peer);
        return;
    }
    strbuf_printf(&b, "pmi-version=2;pmi-subversion=0;rank=%u;size=%u;appnum=%u;", c->proc.rank,
                  pmi_job_size(peer), pmi_appnum(peer));
    char *parent = pmi_parent(peer);
    if (NULL != parent) {
        field(&b, "spawner-jobid", parent);
        free(parent);
    }
    strbuf_printf(&b, "debugged=FALSE;pmiverbose=FALSE;");
    end_reply(&b, peer, 0, NULL);
}

static void fullinit(server_peer_t *peer, const pmi_cmd_t *cmd)
{
    long rank;

    /* The rank it claims must be the one the connection serves. */
    if (peer->pmi->initialized || !pmi_int(cmd, "pmirank", 0, INT32_MAX, &rank) ||
        (pmix_rank_t)rank != peer->pmi->proc.rank) {
        simple_reply(peer, "fullinit", PMIX_ERR_BAD_PARAM);
        peer_close_when_flushed(peer);
        return;
    }
    pmi_hello(peer, fullinit_done);
}

/* kvs-get, and info-getjobattr beyond the job attributes. */
static void get(server_peer_t *peer, const pmi_cmd_t *cmd, const char *name)
{
    const char *key = pmi_value(cmd, "key");
    char *value = NULL;

    if (NULL == key) {
        pmi_fail(peer);
        return;
    }
    if (PMIX_SUCCESS != pmi_job_attr(peer, key, &value)) {
        pmi_get(peer, pmi_value(cmd, "jobid"), key, &value);
    }
    value_reply(peer, name, value);
    free(value);
}

static void kvs_put(server_peer_t *peer, const pmi_cmd_t *cmd)
{
    const char *key = pmi_value(cmd, "key"), *value = pmi_value(cmd, "value");
    if (NULL == key || NULL == value) {
        pmi_fail(peer);
        return;
    }
    simple_reply(peer, "kvs-put", pmi_put(peer, key, value));
}

static void fence_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    simple_reply(peer, "kvs-fence", status);
}

static void finalize_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    simple_reply(peer, "finalize", status);
}

static void job_getid(server_peer_t *peer)
{
    strbuf_t b = STRBUF_INIT;
    start_reply(&b, peer, "job-getid");
    field(&b, "jobid", peer->pmi->proc.nspace);
    end_reply(&b, peer, 0, NULL);
}

static void abort_job(server_peer_t *peer, const pmi_cmd_t *cmd)
{
    long code = 1;
    const char *msg = pmi_value(cmd, "msg");
    if (NULL != pmi_value(cmd, "exitcode") &&
        !pmi_int(cmd, "exitcode", INT32_MIN, INT32_MAX, &code)) {
        code = 1;
    }
    pmi_abort(peer, (int)code, NULL != msg ? msg : "PMI2_Abort");
}

/* ---- Node attributes ----------------------------------------------------- */

/* A getnodeattr waiting for its key. */
typedef struct node_waiter {
    server_peer_t *peer;        /* a reference */
    char key[PMIX_MAX_KEYLEN + 1];
    struct node_waiter *next;
} node_waiter_t;

static node_waiter_t *node_waiters;

/* The job's key set for this node; NULL when it cannot be had. */
static hashmap_t *node_keys(server_peer_t *peer, bool create)
{
    store_ns_t *ns = store_ns(&server.data, peer->pmi->proc.nspace, create);
    return NULL == ns ? NULL : store_keys(ns, STORE_NODE, pmi_node_id(peer), create);
}

static bool node_key(const char *key, char out[PMIX_MAX_KEYLEN + 1])
{
    if ('\0' == key[0] || strlen(key) + sizeof(NODE_PREFIX) - 1 > PMIX_MAX_KEYLEN) {
        return false;
    }
    strcpy(out, NODE_PREFIX);
    strcat(out, key);
    return true;
}

static const char *node_value(server_peer_t *peer, const char *key)
{
    const hashmap_t *keys = node_keys(peer, false);
    const pmix_value_t *v = NULL == keys ? NULL : store_get(keys, key);
    return NULL != v && PMIX_STRING == v->type ? v->data.string : NULL;
}

static void putnodeattr(server_peer_t *peer, const pmi_cmd_t *cmd)
{
    const char *key = pmi_value(cmd, "key"), *value = pmi_value(cmd, "value");
    char full[PMIX_MAX_KEYLEN + 1];
    pmix_status_t rc = PMIX_ERR_BAD_PARAM;

    if (NULL == key || NULL == value) {
        pmi_fail(peer);
        return;
    }
    hashmap_t *keys = node_key(key, full) ? node_keys(peer, true) : NULL;
    if (NULL != keys) {
        pmix_value_t v = {.type = PMIX_STRING, .data.string = (char *)value};
        rc = store_set(keys, full, &v, 0);
    }
    simple_reply(peer, "info-putnodeattr", rc);
    if (PMIX_SUCCESS != rc) {
        return;
    }
    /* Answer those of the same job waiting for this key: taken off the
     * list first, since resuming a client runs its next commands, which
     * may change the list. */
    node_waiter_t *ready = NULL;
    for (node_waiter_t **w = &node_waiters; NULL != *w;) {
        node_waiter_t *x = *w;
        if (0 == strcmp(x->key, full) && peer_is_open(x->peer) &&
            PMIX_CHECK_NSPACE(x->peer->pmi->proc.nspace, peer->pmi->proc.nspace)) {
            *w = x->next;
            x->next = ready;
            ready = x;
        } else {
            w = &x->next;
        }
    }
    while (NULL != ready) {
        node_waiter_t *x = ready;
        ready = x->next;
        if (peer_is_open(x->peer)) {
            value_reply(x->peer, "info-getnodeattr", value);
            pmi_resume(x->peer);
        }
        peer_release(x->peer);
        free(x);
    }
}

static void getnodeattr(server_peer_t *peer, const pmi_cmd_t *cmd)
{
    const char *key = pmi_value(cmd, "key"), *wait = pmi_value(cmd, "wait");
    char full[PMIX_MAX_KEYLEN + 1];

    if (NULL == key) {
        pmi_fail(peer);
        return;
    }
    if (!node_key(key, full)) {
        value_reply(peer, "info-getnodeattr", NULL);
        return;
    }
    const char *value = node_value(peer, full);
    if (NULL != value || NULL == wait || 0 != strcmp(wait, "TRUE")) {
        value_reply(peer, "info-getnodeattr", value);
        return;
    }
    node_waiter_t *w = calloc(1, sizeof(*w));
    if (NULL == w) {
        pmi_fail(peer);
        return;
    }
    strcpy(w->key, full);
    w->peer = peer;
    peer_retain(peer);
    w->next = node_waiters;
    node_waiters = w;
    pmi_hold(peer);
}

void pmi2_peer_closed(server_peer_t *peer)
{
    for (node_waiter_t **w = &node_waiters; NULL != *w;) {
        node_waiter_t *x = *w;
        if (x->peer == peer) {
            *w = x->next;
            peer_release(x->peer);
            free(x);
        } else {
            w = &x->next;
        }
    }
}

/* ---- Spawn ------------------------------------------------------------------ */

static void spawn_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    char *nspace = NULL;
    strbuf_t b = STRBUF_INIT;

    if (PMIX_SUCCESS == status) {
        status = pmi_spawn_jobid(body, &nspace);
    }
    start_reply(&b, peer, "spawn");
    if (PMIX_SUCCESS == status) {
        field(&b, "jobid", nspace);
        field(&b, "nerrs", "0");
    }
    end_reply(&b, peer, PMIX_SUCCESS == status ? 0 : -1,
              PMIX_SUCCESS == status ? NULL : PMIx_Error_string(status));
    free(nspace);
}

/* One app: the pairs from its subcmd to the next. */
static bool add_app(pmi_spawn_t *s, const pmi_cmd_t *cmd, size_t from, size_t to,
                    const char **v)
{
    long maxprocs, argc, ninfo = 0;
    const char **args = v, **keys = v + PMI_MAX_PAIRS, **vals = v + 2 * PMI_MAX_PAIRS;

    return pmi_int_in(cmd, from, to, "maxprocs", 1, INT32_MAX, &maxprocs) &&
           pmi_int_in(cmd, from, to, "argc", 0, PMI_MAX_PAIRS, &argc) &&
           (NULL == pmi_value_in(cmd, from, to, "infokeycount") ||
            pmi_int_in(cmd, from, to, "infokeycount", 0, PMI_MAX_PAIRS, &ninfo)) &&
           pmi_indexed(cmd, from, to, "argv", 0, argc, args) &&
           pmi_indexed(cmd, from, to, "infokey", 0, ninfo, keys) &&
           pmi_indexed(cmd, from, to, "infoval", 0, ninfo, vals) &&
           PMIX_SUCCESS == pmi_spawn_app(s, cmd->pairs[from].value, maxprocs, args,
                                         (size_t)argc, keys, vals, (size_t)ninfo);
}

static void spawn(server_peer_t *peer, const pmi_cmd_t *cmd)
{
    long ncmds, npreput = 0;
    pmi_spawn_t *s = pmi_spawn_new();
    const char **v = calloc(3 * PMI_MAX_PAIRS, sizeof(*v));
    size_t first = 0;
    bool ok = NULL != s && NULL != v && pmi_int(cmd, "ncmds", 1, PMI_MAX_PAIRS, &ncmds);

    /* The preputs come before the first subcmd. */
    while (first < cmd->n && 0 != strcmp(cmd->pairs[first].key, "subcmd")) {
        first++;
    }
    ok = ok && (NULL == pmi_value_in(cmd, 0, first, "preputcount") ||
                pmi_int_in(cmd, 0, first, "preputcount", 0, PMI_MAX_PAIRS, &npreput)) &&
         pmi_indexed(cmd, 0, first, "ppkey", 0, npreput, v) &&
         pmi_indexed(cmd, 0, first, "ppval", 0, npreput, v + PMI_MAX_PAIRS);
    for (long i = 0; ok && i < npreput; i++) {
        ok = PMIX_SUCCESS == pmi_spawn_preput(s, v[i], v[PMI_MAX_PAIRS + i]);
    }
    for (size_t from = first; ok && from < cmd->n;) {
        size_t to = from + 1;
        while (to < cmd->n && 0 != strcmp(cmd->pairs[to].key, "subcmd")) {
            to++;
        }
        ok = add_app(s, cmd, from, to, v);
        from = to;
    }
    free(v);
    if (!ok || NULL == s || (size_t)ncmds != pmi_spawn_count(s)) {
        pmi_spawn_free(s);
        pmi_fail(peer);
        return;
    }
    pmi_spawn_start(peer, s, spawn_done);
}

/* ---- Names ----------------------------------------------------------------- */

static void publish_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    simple_reply(peer, "name-publish", status);
}

static void unpublish_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    simple_reply(peer, "name-unpublish", status);
}

static void lookup_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    char *port = NULL;
    strbuf_t b = STRBUF_INIT;

    if (PMIX_SUCCESS == status) {
        status = pmi_lookup_value(body, peer->pmi->key, &port);
    }
    start_reply(&b, peer, "name-lookup");
    if (PMIX_SUCCESS == status) {
        field(&b, "port", port);
        field(&b, "found", "TRUE");
        end_reply(&b, peer, 0, NULL);
    } else {
        field(&b, "found", "FALSE");
        end_reply(&b, peer, 1, NULL);
    }
    free(port);
}

static void names(server_peer_t *peer, const char *what, const pmi_cmd_t *cmd)
{
    const char *name = pmi_value(cmd, "name"), *port = pmi_value(cmd, "port");

    if (NULL == name || ('p' == what[0] && NULL == port)) {
        pmi_fail(peer);
    } else if ('p' == what[0]) {
        pmi_publish(peer, name, port, publish_done);
    } else if ('u' == what[0]) {
        pmi_unpublish(peer, name, unpublish_done);
    } else {
        pmi_lookup(peer, name, lookup_done);
    }
}

void pmi2_command(server_peer_t *peer, pmi_cmd_t *cmd)
{
    const char *name = cmd->pairs[0].value, *thrid = pmi_value(cmd, "thrid");
    pmi_conn_t *c = peer->pmi;

    c->thrid[0] = '\0';
    if (NULL != thrid) {
        if (strlen(thrid) >= sizeof(c->thrid) || NULL != strchr(thrid, ';')) {
            pmi_fail(peer);
            return;
        }
        strcpy(c->thrid, thrid);
    }
    if (0 == strcmp(name, "fullinit")) {
        fullinit(peer, cmd);
    } else if (!c->initialized) {
        pmi_fail(peer);
    } else if (0 == strcmp(name, "job-getid")) {
        job_getid(peer);
    } else if (0 == strcmp(name, "kvs-put")) {
        kvs_put(peer, cmd);
    } else if (0 == strcmp(name, "kvs-fence")) {
        pmi_fence(peer, fence_done);
    } else if (0 == strcmp(name, "kvs-get")) {
        get(peer, cmd, name);
    } else if (0 == strcmp(name, "info-getjobattr")) {
        get(peer, cmd, name);
    } else if (0 == strcmp(name, "info-putnodeattr")) {
        putnodeattr(peer, cmd);
    } else if (0 == strcmp(name, "info-getnodeattr")) {
        getnodeattr(peer, cmd);
    } else if (0 == strcmp(name, "name-publish")) {
        names(peer, "publish", cmd);
    } else if (0 == strcmp(name, "name-unpublish")) {
        names(peer, "unpublish", cmd);
    } else if (0 == strcmp(name, "name-lookup")) {
        names(peer, "lookup", cmd);
    } else if (0 == strcmp(name, "spawn")) {
        spawn(peer, cmd);
    } else if (0 == strcmp(name, "abort")) {
        abort_job(peer, cmd);
    } else if (0 == strcmp(name, "finalize")) {
        pmi_finalize(peer, finalize_done);
    } else if (0 == strcmp(name, "job-connect") || 0 == strcmp(name, "job-disconnect")) {
        /* Not functioning in MPICH's own servers either. */
        strbuf_t b = STRBUF_INIT;
        start_reply(&b, peer, name);
        end_reply(&b, peer, -1, "not_supported");
    } else {
        pmi_fail(peer);
    }
}
