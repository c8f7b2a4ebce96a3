/*
 * pmi1.c - the PMI-1 commands ("simple" PMI, as MPICH's hydra serves it).
 *
 * Design notes:
 *  - Every reply is worded as hydra words it (cmd=get_result rc=0
 *    msg=success value=...), since clients compare the strings.
 *  - A spawn comes as one mcmd block per app; the answer follows the
 *    last (pmi_spawn.c).
 *  - "init pmi_version=2" is how a PMI-2 client opens: it is answered in
 *    PMI-1, and the connection continues in PMI-2 (pmi2.c).
 *  - Before init only init is accepted; an unknown command, or one
 *    missing a field, closes the connection: the client is not speaking
 *    PMI-1, and waiting for an answer that cannot come would hang it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmi.h"
#include "pmix.h"

/* What hydra advertises; MPICH sizes its messages from them. */
#define KVSNAME_MAX 256
#define KEYLEN_MAX 64
#define VALLEN_MAX 1024

static void say(server_peer_t *peer, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(server_peer_t *peer, const char *fmt, ...)
{
    va_list ap;
    char *text;

    va_start(ap, fmt);
    int n = vasprintf(&text, fmt, ap);
    va_end(ap);
    if (n < 0) {
        pmi_fail(peer);
        return;
    }
    pmi_send(peer, text, (size_t)n);
    free(text);
}

/* A value PMI-1 can carry: one token, no spaces. */
static bool one_token(const char *value)
{
    return '\0' == value[strcspn(value, " \t\r\n")];
}

static void hello_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    peer->pmi->initialized = PMIX_SUCCESS == status;
    say(peer, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=%d\n",
        PMIX_SUCCESS == status ? 0 : -1);
    if (PMIX_SUCCESS != status) {
        peer_close_when_flushed(peer);
    }
}

static void init(server_peer_t *peer, const pmi_cmd_t *cmd)
{
    long version = 0;

    if (peer->pmi->initialized || !pmi_int(cmd, "pmi_version", 1, 2, &version)) {
        say(peer, "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-1\n");
        peer_close_when_flushed(peer);
        return;
    }
    if (2 == version) {
        say(peer, "cmd=response_to_init pmi_version=2 pmi_subversion=0 rc=0\n");
        peer->pmi->version = 2;
        return;
    }
    pmi_hello(peer, hello_done);
}

static void get(server_peer_t *peer, const pmi_cmd_t *cmd)
{
    const char *key = pmi_value(cmd, "key");
    char *value;

    if (NULL == key || !one_token(key)) {
        pmi_fail(peer);
        return;
    }
    if (PMIX_SUCCESS == pmi_job_attr(peer, key, &value) ||
        PMIX_SUCCESS == pmi_get(peer, pmi_value(cmd, "kvsname"), key, &value)) {
        if (one_token(value)) {
            say(peer, "cmd=get_result rc=0 msg=success value=%s\n", value);
            free(value);
            return;
        }
        free(value);
    }
    say(peer, "cmd=get_result rc=-1 msg=key_%s_not_found value=unknown\n", key);
}

static void put(server_peer_t *peer, const pmi_cmd_t *cmd)
{
    const char *key = pmi_value(cmd, "key"), *value = pmi_value(cmd, "value");

    if (NULL == key || NULL == value) {
        pmi_fail(peer);
        return;
    }
    pmix_status_t rc = pmi_put(peer, key, value);
    if (PMIX_SUCCESS == rc) {
        say(peer, "cmd=put_result rc=0 msg=success\n");
    } else {
        say(peer, "cmd=put_result rc=-1 msg=%s\n",
            PMIX_ERR_BAD_PARAM == rc ? "invalid_key" : "put_failed");
    }
}

static void barrier_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    if (PMIX_SUCCESS == status) {
        say(peer, "cmd=barrier_out\n");
    } else {
        say(peer, "cmd=barrier_out rc=-1 msg=barrier_failed\n");
    }
}

static void finalize_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    say(peer, "cmd=finalize_ack\n");
}

static void abort_job(server_peer_t *peer, const pmi_cmd_t *cmd)
{
    long code = 1;
    const char *msg = pmi_value(cmd, "message");

    if (NULL != pmi_value(cmd, "exitcode") &&
        !pmi_int(cmd, "exitcode", INT32_MIN, INT32_MAX, &code)) {
        code = 1;
    }
    pmi_abort(peer, (int)code, NULL != msg ? msg : "PMI_Abort");
}

static void publish_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    if (PMIX_SUCCESS == status) {
        say(peer, "cmd=publish_result info=ok rc=0 msg=success\n");
    } else {
        say(peer, "cmd=publish_result info=ok rc=1 msg=key_already_present\n");
    }
}

static void unpublish_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    if (PMIX_SUCCESS == status) {
        say(peer, "cmd=unpublish_result info=ok rc=0 msg=success\n");
    } else {
        say(peer, "cmd=unpublish_result info=ok rc=1 msg=service_not_found\n");
    }
}

static void lookup_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    char *port = NULL;

    if (PMIX_SUCCESS == status) {
        status = pmi_lookup_value(body, peer->pmi->key, &port);
    }
    if (PMIX_SUCCESS == status && one_token(port)) {
        say(peer, "cmd=lookup_result port=%s info=ok rc=0 msg=success\n", port);
    } else {
        say(peer, "cmd=lookup_result rc=1 msg=service_not_found\n");
    }
    free(port);
}

static void names(server_peer_t *peer, const char *what, const pmi_cmd_t *cmd)
{
    const char *service = pmi_value(cmd, "service"), *port = pmi_value(cmd, "port");

    if (NULL == service || ('p' == what[0] && NULL == port)) {
        pmi_fail(peer);
    } else if ('p' == what[0]) {
        pmi_publish(peer, service, port, publish_done);
    } else if ('u' == what[0]) {
        pmi_unpublish(peer, service, unpublish_done);
    } else {
        pmi_lookup(peer, service, lookup_done);
    }
}

static void spawn_done(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body)
{
    say(peer, "cmd=spawn_result rc=%d\n", PMIX_SUCCESS == status ? 0 : -1);
}

/* Add one segment's app (and, from the first, the preputs) to s. */
static bool add_segment(pmi_spawn_t *s, const pmi_cmd_t *cmd, bool first)
{
    long nprocs, nargs = 0, npreput = 0, ninfo = 0;
    const char *exec = pmi_value(cmd, "execname");
    const char **v = calloc(5 * PMI_MAX_PAIRS, sizeof(*v));
    const char **args = v, **pkeys = v + PMI_MAX_PAIRS, **pvals = v + 2 * PMI_MAX_PAIRS,
               **ikeys = v + 3 * PMI_MAX_PAIRS, **ivals = v + 4 * PMI_MAX_PAIRS;
    bool ok = NULL != v && NULL != exec && pmi_int(cmd, "nprocs", 1, INT32_MAX, &nprocs) &&
              (NULL == pmi_value(cmd, "argcnt") ||
               pmi_int(cmd, "argcnt", 0, PMI_MAX_PAIRS, &nargs)) &&
              (NULL == pmi_value(cmd, "preput_num") ||
               pmi_int(cmd, "preput_num", 0, PMI_MAX_PAIRS, &npreput)) &&
              (NULL == pmi_value(cmd, "info_num") ||
               pmi_int(cmd, "info_num", 0, PMI_MAX_PAIRS, &ninfo)) &&
              pmi_indexed(cmd, 0, cmd->n, "arg", 1, nargs, args) &&
              pmi_indexed(cmd, 0, cmd->n, "preput_key_", 0, npreput, pkeys) &&
              pmi_indexed(cmd, 0, cmd->n, "preput_val_", 0, npreput, pvals) &&
              pmi_indexed(cmd, 0, cmd->n, "info_key_", 0, ninfo, ikeys) &&
              pmi_indexed(cmd, 0, cmd->n, "info_val_", 0, ninfo, ivals);

    for (long i = 0; ok && first && i < npreput; i++) {
        ok = PMIX_SUCCESS == pmi_spawn_preput(s, pkeys[i], pvals[i]);
    }
    ok = ok && PMIX_SUCCESS == pmi_spawn_app(s, exec, nprocs, args, (size_t)nargs, ikeys, ivals,
                                             (size_t)ninfo);
    free(v);
    return ok;
}

/* mcmd=spawn: one segment per app, numbered; the last one starts it. */
static void spawn(server_peer_t *peer, const pmi_cmd_t *cmd)
{
    pmi_conn_t *c = peer->pmi;
    long total, sofar;

    if (!pmi_int(cmd, "totspawns", 1, PMI_MAX_PAIRS, &total) ||
        !pmi_int(cmd, "spawnssofar", 1, total, &sofar) ||
        (NULL == c->spawn && (1 != sofar || NULL == (c->spawn = pmi_spawn_new()))) ||
        (NULL != c->spawn && 1 == sofar && 0 != pmi_spawn_count(c->spawn)) ||
        (sofar > 1 && (total != c->spawn_total ||
                       (size_t)sofar != pmi_spawn_count(c->spawn) + 1)) ||
        !add_segment(c->spawn, cmd, 1 == sofar)) {
        pmi_fail(peer);
        return;
    }
    c->spawn_total = total;
    if (sofar == total) {
        pmi_spawn_t *s = c->spawn;
        c->spawn = NULL;
        pmi_spawn_start(peer, s, spawn_done);
    }
}

/* PMI_PORT's handshake: who it is, then its size, rank and debug flag. */
static void initack(server_peer_t *peer, const pmi_cmd_t *cmd)
{
    long id;

    if (peer->pmi->identified || !pmi_int(cmd, "pmiid", 1, INT32_MAX, &id) ||
        !pmi_port_identify(peer, id)) {
        pmi_fail(peer);
        return;
    }
    say(peer, "cmd=initack\ncmd=set size=%u\ncmd=set rank=%u\ncmd=set debug=0\n",
        pmi_job_size(peer), peer->pmi->proc.rank);
}

void pmi1_command(server_peer_t *peer, pmi_cmd_t *cmd)
{
    const char *name = cmd->pairs[0].value;
    pmi_conn_t *c = peer->pmi;

    if (0 == strcmp(name, "initack")) {
        initack(peer, cmd);
    } else if (!c->identified) {
        pmi_fail(peer);
    } else if (0 == strcmp(cmd->pairs[0].key, "cmd") && 0 == strcmp(name, "init")) {
        init(peer, cmd);
    } else if (!c->initialized) {
        pmi_fail(peer);
    } else if (0 == strcmp(name, "get_maxes")) {
        say(peer, "cmd=maxes kvsname_max=%d keylen_max=%d vallen_max=%d\n", KVSNAME_MAX,
            KEYLEN_MAX, VALLEN_MAX);
    } else if (0 == strcmp(name, "get_appnum")) {
        say(peer, "cmd=appnum appnum=%u\n", pmi_appnum(peer));
    } else if (0 == strcmp(name, "get_my_kvsname")) {
        say(peer, "cmd=my_kvsname kvsname=%s\n", c->proc.nspace);
    } else if (0 == strcmp(name, "get_universe_size")) {
        say(peer, "cmd=universe_size size=%u\n", pmi_universe_size(peer));
    } else if (0 == strcmp(name, "put")) {
        put(peer, cmd);
    } else if (0 == strcmp(name, "get")) {
        get(peer, cmd);
    } else if (0 == strcmp(name, "barrier_in")) {
        pmi_fence(peer, barrier_done);
    } else if (0 == strcmp(name, "finalize")) {
        pmi_finalize(peer, finalize_done);
    } else if (0 == strcmp(name, "abort")) {
        abort_job(peer, cmd);
    } else if (0 == strcmp(name, "publish_name")) {
        names(peer, "publish", cmd);
    } else if (0 == strcmp(name, "unpublish_name")) {
        names(peer, "unpublish", cmd);
    } else if (0 == strcmp(name, "lookup_name")) {
        names(peer, "lookup", cmd);
    } else if (0 == strcmp(cmd->pairs[0].key, "mcmd") && 0 == strcmp(name, "spawn")) {
        spawn(peer, cmd);
    } else {
        pmi_fail(peer);
    }
}
