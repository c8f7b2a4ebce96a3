/*
 * pmi.c - PMI-1 and PMI-2 wire connections: their input, and the PMIx
 * requests their commands become (see pmi.h).
 *
 * Design notes:
 *  - A connection starts in PMI-1 (one command per line). PMI-2 clients
 *    open with the same "cmd=init pmi_version=2" line, and switch to
 *    PMI-2's length-prefixed commands once it is answered (pmi1.c).
 *  - Input is buffered up to one whole command of at most
 *    PMI_MAX_COMMAND bytes: anything longer, or malformed, closes the
 *    connection, so a bad client costs a bounded buffer and never blocks
 *    the others. While a request is in flight reading stops once the
 *    buffer is full, so a client that sends without waiting is slowed
 *    down, not buffered without end.
 *  - A rank's socket pair is read by peeking (SO_PEEK_OFF), and what
 *    was read is taken off the socket only every few commands. Taking
 *    bytes off a Unix socket wakes whoever sleeps on the sender's end,
 *    and a PMI client sleeps there waiting for its answer: taken at once,
 *    every command would wake its client twice, the first time for
 *    nothing, and on a busy machine that wake-up is most of a get's cost
 *    (docs/launcher.md). What is held stays small enough (a few short
 *    commands, never a partial one) that even a client with the smallest
 *    send buffer can always send its next command, which takes them.
 *  - put commits at once with global scope: a PMIx rank's PMIx_Get of
 *    that rank finds it, and a barrier (a fence collecting data) carries
 *    it to the other nodes. get looks the key up in the store as an
 *    immediate PMIx_Get of any rank (PMIX_RANK_UNDEF) would: a PMI get
 *    does not wait, and the data of every rank, local or brought by a
 *    fence, is there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/event.h>

#include "drover.h"
#include "fd_pairs.h"
#include "pmi.h"
#include "pmi_map.h"
#include "pmix.h"

#define INPUT_CAPACITY (PMI_MAX_COMMAND + PMI2_LENGTH_DIGITS + 1)

/* What a peeking connection holds at most: its skbs then take some 4 KB
 * of the client's send buffer, which is never smaller than 4608 bytes. */
#define HOLD_COMMANDS 4
#define HOLD_BYTES 512

/* ---- Output ------------------------------------------------------------ */

void pmi_send(server_peer_t *peer, const char *text, size_t len)
{
    if (2 == peer->pmi->version) {
        char prefix[PMI2_LENGTH_DIGITS + 1];
        snprintf(prefix, sizeof(prefix), "%-6zu", len);
        peer_write(peer, prefix, PMI2_LENGTH_DIGITS);
    }
    peer_write(peer, text, len);
}

void pmi_fail(server_peer_t *peer)
{
    peer_close(peer);
}

/* ---- Requests ---------------------------------------------------------- */

/* Dispatch a request as if the client had sent it; done (NULL: no answer
 * is awaited) gets the reply, perhaps before this returns. */
static void request(server_peer_t *peer, uint16_t command, pmix_data_buffer_t *payload,
                    pmi_done_t done)
{
    pmi_conn_t *c = peer->pmi;
    protocol_header_t h = {.magic = PROTOCOL_MAGIC, .version = PROTOCOL_VERSION,
                           .command = command};

    if (NULL != done) {
        /* Tags only need to tell this connection's requests apart. */
        h.tag = ++c->tag;
        c->busy = true;
        c->done = done;
    }
    payload->unpack_ptr = payload->base_ptr;
    h.length = (uint32_t)payload->bytes_used;
    peer_retain(peer);
    peer_dispatch(peer, &h, payload);
    peer_release(peer);
    PMIX_DATA_BUFFER_DESTRUCT(payload);
}

/* A request that could not even be packed: answered at once. */
static void refuse(server_peer_t *peer, pmix_data_buffer_t *payload, pmi_done_t done,
                   pmix_status_t rc)
{
    PMIX_DATA_BUFFER_DESTRUCT(payload);
    if (NULL != done) {
        done(peer, rc, NULL);
    }
}

void pmi_request(server_peer_t *peer, uint16_t command, pmix_data_buffer_t *payload,
                 pmix_status_t packed, pmi_done_t done)
{
    if (PMIX_SUCCESS != packed) {
        refuse(peer, payload, done, packed);
    } else {
        request(peer, command, payload, done);
    }
}

/* The count of commits an ordered request (FENCE, GET) follows. */
static pmix_status_t pack_commits(server_peer_t *peer, pmix_data_buffer_t *buf)
{
    uint32_t commits = NULL != peer->client ? peer->client->commits : 0;
    return PMIx_Data_pack(NULL, buf, &commits, 1, PMIX_UINT32);
}

void pmi_hello(server_peer_t *peer, pmi_done_t done)
{
    pmix_data_buffer_t buf;
    pid_t pid = peer->pid;
    bool direct = false;
    pmix_status_t rc;

    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    if (PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &buf, &peer->pmi->proc, 1, PMIX_PROC)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &buf, &pid, 1, PMIX_PID)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &buf, NULL, 0, PMIX_INFO)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &buf, &direct, 1, PMIX_BOOL))) {
        refuse(peer, &buf, done, rc);
        return;
    }
    request(peer, PROTOCOL_HELLO, &buf, done);
}

pmix_status_t pmi_put(server_peer_t *peer, const char *key, const char *value)
{
    pmix_data_buffer_t buf;
    pmix_info_t info;
    pmix_status_t rc;

    if ('\0' == key[0] || strlen(key) > PMIX_MAX_KEYLEN) {
        return PMIX_ERR_BAD_PARAM;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    PMIX_INFO_LOAD(&info, key, value, PMIX_STRING);
    /* COMMIT: local, remote, then global values. */
    if (PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &buf, NULL, 0, PMIX_INFO)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &buf, NULL, 0, PMIX_INFO)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &buf, &info, 1, PMIX_INFO))) {
        PMIX_INFO_DESTRUCT(&info);
        PMIX_DATA_BUFFER_DESTRUCT(&buf);
        return rc;
    }
    PMIX_INFO_DESTRUCT(&info);
    request(peer, PROTOCOL_COMMIT, &buf, NULL);
    return PMIX_SUCCESS;
}

void pmi_fence(server_peer_t *peer, pmi_done_t done)
{
    pmix_data_buffer_t buf;
    pmix_info_t info;
    bool collect = true;
    pmix_status_t rc;

    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    if (PMIX_SUCCESS != (rc = pack_commits(peer, &buf)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &buf, NULL, 0, PMIX_PROC)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &buf, &info, 1, PMIX_INFO))) {
        PMIX_INFO_DESTRUCT(&info);
        refuse(peer, &buf, done, rc);
        return;
    }
    PMIX_INFO_DESTRUCT(&info);
    request(peer, PROTOCOL_FENCE, &buf, done);
}

/* A value as PMI text: strings only, and only those the wire can carry
 * (no newline; PMI-1 has no room for spaces either). */
static pmix_status_t as_text(const pmix_value_t *v, char **text)
{
    if (PMIX_STRING != v->type || NULL == v->data.string) {
        return PMIX_ERR_TYPE_MISMATCH;
    }
    if (NULL != strchr(v->data.string, '\n')) {
        return PMIX_ERR_TYPE_MISMATCH;
    }
    *text = strdup(v->data.string);
    return NULL == *text ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

pmix_status_t pmi_get(server_peer_t *peer, const char *nspace, const char *key, char **value)
{
    *value = NULL;
    if ('\0' == key[0] || strlen(key) > PMIX_MAX_KEYLEN) {
        return PMIX_ERR_BAD_PARAM;
    }
    /* Another job's data is asked for by its namespace (a spawned job's
     * parent's); anything unknown means the caller's own. */
    const char *job = NULL != nspace && NULL != nspace_find(nspace) ? nspace
                                                                    : peer->pmi->proc.nspace;
    store_ns_t *ns = store_ns(&server.data, job, false);
    const hashmap_t *procs = NULL == ns ? NULL : &ns->realms[STORE_PROC];
    /* What an immediate PMIx_Get of any rank (PMIX_RANK_UNDEF) finds: data
     * some process committed, never the job's registration. */
    for (uint32_t i = 0; NULL != procs && i < procs->count; i++) {
        const hashmap_entry_t *e = hashmap_find_str(procs->entries[i].value, key);
        if (PMIX_RANK_WILDCARD != *(const pmix_rank_t *)procs->entries[i].key && NULL != e &&
            0 != (e->flags & SCOPE_LOCAL)) {
            return as_text(e->value, value);
        }
    }
    return PMIX_ERR_NOT_FOUND;
}

void pmi_publish(server_peer_t *peer, const char *name, const char *port, pmi_done_t done)
{
    pmix_data_buffer_t buf;
    pmix_info_t info;
    pmix_status_t rc;

    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    if ('\0' == name[0] || strlen(name) > PMIX_MAX_KEYLEN) {
        refuse(peer, &buf, done, PMIX_ERR_BAD_PARAM);
        return;
    }
    PMIX_INFO_LOAD(&info, name, port, PMIX_STRING);
    rc = PMIx_Data_pack(NULL, &buf, &info, 1, PMIX_INFO);
    PMIX_INFO_DESTRUCT(&info);
    if (PMIX_SUCCESS != rc) {
        refuse(peer, &buf, done, rc);
        return;
    }
    request(peer, PROTOCOL_PUBLISH, &buf, done);
}

/* LOOKUP and UNPUBLISH: one name, no directives. */
static void name_request(server_peer_t *peer, uint16_t command, const char *name,
                         pmi_done_t done)
{
    pmix_data_buffer_t buf;
    pmix_status_t rc;

    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    if ('\0' == name[0] || strlen(name) > PMIX_MAX_KEYLEN) {
        refuse(peer, &buf, done, PMIX_ERR_BAD_PARAM);
        return;
    }
    PMIX_LOAD_KEY(peer->pmi->key, name);
    if (PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &buf, &name, 1, PMIX_STRING)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &buf, NULL, 0, PMIX_INFO))) {
        refuse(peer, &buf, done, rc);
        return;
    }
    request(peer, command, &buf, done);
}

void pmi_lookup(server_peer_t *peer, const char *name, pmi_done_t done)
{
    name_request(peer, PROTOCOL_LOOKUP, name, done);
}

void pmi_unpublish(server_peer_t *peer, const char *name, pmi_done_t done)
{
    name_request(peer, PROTOCOL_UNPUBLISH, name, done);
}

pmix_status_t pmi_lookup_value(pmix_data_buffer_t *body, const char *name, char **port)
{
    pmix_pdata_t *found = NULL;
    size_t nfound = 0;
    pmix_status_t rc;

    *port = NULL;
    if (NULL == body) {
        return PMIX_ERR_NOT_FOUND;
    }
    if (PMIX_SUCCESS != (rc = protocol_unpack_array(body, PMIX_PDATA, (void **)&found, &nfound))) {
        return rc;
    }
    rc = PMIX_ERR_NOT_FOUND;
    for (size_t i = 0; i < nfound && PMIX_ERR_NOT_FOUND == rc; i++) {
        if (PMIX_CHECK_KEY(&found[i], name)) {
            rc = as_text(&found[i].value, port);
        }
    }
    protocol_free_array(found, nfound, PMIX_PDATA);
    return rc;
}

void pmi_abort(server_peer_t *peer, int code, const char *msg)
{
    pmix_data_buffer_t buf;
    pmix_status_t status = code;

    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    if (PMIX_SUCCESS != PMIx_Data_pack(NULL, &buf, &status, 1, PMIX_STATUS) ||
        PMIX_SUCCESS != PMIx_Data_pack(NULL, &buf, &msg, 1, PMIX_STRING) ||
        PMIX_SUCCESS != PMIx_Data_pack(NULL, &buf, NULL, 0, PMIX_PROC)) {
        PMIX_DATA_BUFFER_DESTRUCT(&buf);
        return;
    }
    request(peer, PROTOCOL_ABORT, &buf, NULL);
}

void pmi_finalize(server_peer_t *peer, pmi_done_t done)
{
    pmix_data_buffer_t buf;

    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    request(peer, PROTOCOL_FINALIZE, &buf, done);
}

/* ---- Job attributes ---------------------------------------------------- */

static const pmix_value_t *job_value(const char *nspace, pmix_rank_t rank, const char *key)
{
    store_ns_t *ns = store_ns(&server.data, nspace, false);
    return NULL == ns ? NULL : store_lookup(ns, rank, key, NULL);
}

static uint32_t job_u32(const char *nspace, pmix_rank_t rank, const char *key)
{
    const pmix_value_t *v = job_value(nspace, rank, key);
    return NULL != v && PMIX_UINT32 == v->type ? v->data.uint32 : 0;
}

uint32_t pmi_appnum(server_peer_t *peer)
{
    return job_u32(peer->pmi->proc.nspace, peer->pmi->proc.rank, PMIX_APPNUM);
}

uint32_t pmi_job_size(server_peer_t *peer)
{
    return job_u32(peer->pmi->proc.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
}

uint32_t pmi_node_id(server_peer_t *peer)
{
    return job_u32(peer->pmi->proc.nspace, peer->pmi->proc.rank, PMIX_NODEID);
}

char *pmi_parent(server_peer_t *peer)
{
    const pmix_value_t *v = job_value(peer->pmi->proc.nspace, PMIX_RANK_WILDCARD,
                                      PMIX_PARENT_ID);
    if (NULL == v || PMIX_PROC != v->type || NULL == v->data.proc) {
        return NULL;
    }
    return strndup(v->data.proc->nspace, PMIX_MAX_NSLEN);
}

uint32_t pmi_universe_size(server_peer_t *peer)
{
    uint32_t n = job_u32(peer->pmi->proc.nspace, PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE);
    return 0 != n ? n : pmi_job_size(peer);
}

/* hydra's PMI_process_mapping from the node of every rank. */
static pmix_status_t process_mapping(const char *nspace, char **out)
{
    enum { ROOM = 1024 };
    uint32_t size = job_u32(nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    uint32_t *nodes = calloc(size > 0 ? size : 1, sizeof(*nodes));
    char *s = malloc(ROOM);
    pmix_status_t rc = NULL == nodes || NULL == s ? PMIX_ERR_NOMEM : PMIX_SUCCESS;

    for (uint32_t r = 0; r < size && PMIX_SUCCESS == rc; r++) {
        const pmix_value_t *v = job_value(nspace, r, PMIX_NODEID);
        if (NULL == v || PMIX_UINT32 != v->type) {
            rc = PMIX_ERR_NOT_FOUND;
        } else {
            nodes[r] = v->data.uint32;
        }
    }
    if (PMIX_SUCCESS == rc && !pmi_map_format(nodes, size, s, ROOM)) {
        rc = PMIX_ERR_NOT_FOUND;
    }
    free(nodes);
    if (PMIX_SUCCESS != rc) {
        free(s);
        return rc;
    }
    *out = s;
    return PMIX_SUCCESS;
}

pmix_status_t pmi_job_attr(server_peer_t *peer, const char *key, char **value)
{
    uint32_t n;

    *value = NULL;
    if (0 == strcmp(key, "PMI_process_mapping")) {
        return process_mapping(peer->pmi->proc.nspace, value);
    }
    if (0 == strcmp(key, "universeSize")) {
        n = pmi_universe_size(peer);
    } else if (0 == strcmp(key, "appnum")) {
        n = pmi_appnum(peer);
    } else {
        const char *preput = pmi_spawn_preput_value(peer->pmi->proc.nspace, key);
        if (NULL == preput) {
            return PMIX_ERR_NOT_FOUND;
        }
        *value = strdup(preput);
        return NULL == *value ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    }
    return asprintf(value, "%u", n) < 0 ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

/* ---- Replies and input ------------------------------------------------- */

static void handle_input(server_peer_t *peer);

void pmi_hold(server_peer_t *peer)
{
    peer->pmi->busy = true;
    peer->pmi->done = NULL;
}

void pmi_resume(server_peer_t *peer)
{
    pmi_conn_t *c = peer->pmi;

    c->busy = false;
    c->done = NULL;
    if (!c->processing) {
        peer_retain(peer);
        handle_input(peer);
        if (peer_is_open(peer)) {
            event_add(peer->reading, NULL);
        }
        peer_release(peer);
    }
}

void pmi_reply(server_peer_t *peer, uint16_t command, uint32_t tag,
               const pmix_data_buffer_t *payload)
{
    pmi_conn_t *c = peer->pmi;
    pmix_data_buffer_t body;
    pmix_status_t status = PMIX_ERR_UNPACK_FAILURE;

    if (!c->busy || NULL == c->done || tag != c->tag) {
        return; /* the answer to a request nobody waits for (ABORT) */
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&body);
    if (NULL != payload && NULL != payload->unpack_ptr &&
        PMIX_SUCCESS == PMIx_Data_copy_payload(&body, (pmix_data_buffer_t *)payload)) {
        protocol_unpack_status(&body, &status);
    }
    pmi_done_t done = c->done;
    c->done = NULL;
    peer_retain(peer);
    done(peer, status, &body);
    PMIX_DATA_BUFFER_DESTRUCT(&body);
    if (peer_is_open(peer)) {
        pmi_resume(peer);
    }
    peer_release(peer);
}

/* Take what was peeked off the socket: the bytes are in c->in already,
 * or handled. */
static void take_peeked(server_peer_t *peer)
{
    pmi_conn_t *c = peer->pmi;
    char scratch[4096];

    while (c->peeked > 0) {
        ssize_t n = recv(peer->fd, scratch, c->peeked < sizeof(scratch) ? c->peeked
                                                                         : sizeof(scratch),
                         MSG_DONTWAIT);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            peer_close(peer);
            return;
        }
        c->peeked -= (size_t)n;
    }
    c->held = 0;
}

/* Handle whole commands while no request is in flight. */
static void handle_input(server_peer_t *peer)
{
    pmi_conn_t *c = peer->pmi;
    pmi_cmd_t *cmd = &c->cmd;

    c->processing = true;
    while (peer_is_open(peer) && !c->busy && c->len > 0) {
        size_t start = 0, cmdlen = 0;
        int version = c->version;
        pmix_status_t rc = 1 == version ? pmi_frame_v1(c->in, c->len, &cmdlen)
                                        : pmi_frame_v2(c->in, c->len, &start, &cmdlen);
        if (PMIX_ERR_WOULD_BLOCK == rc) {
            break;
        }
        /* PMI-1 text is parsed without its final newline, so the '\0'
         * the parser writes stays inside the command. */
        if (PMIX_SUCCESS == rc) {
            rc = 1 == version ? pmi_parse_v1(c->in, cmdlen - 1, cmd)
                              : pmi_parse_v2(c->in + start, cmdlen - start, cmd);
        }
        if (PMIX_SUCCESS != rc) {
            pmi_fail(peer);
            break;
        }
        if (1 == version) {
            pmi1_command(peer, cmd);
        } else {
            pmi2_command(peer, cmd);
        }
        if (!peer_is_open(peer)) {
            break;
        }
        c->len -= cmdlen;
        memmove(c->in, c->in + cmdlen, c->len);
        c->held++;
    }
    if (peer_is_open(peer) && c->peeking &&
        (c->len > 0 || c->held >= HOLD_COMMANDS || c->peeked >= HOLD_BYTES)) {
        take_peeked(peer);
    }
    if (peer_is_open(peer)) {
        c->processing = false;
    }
}

/* Read once; false when there is nothing more to read now. */
static bool read_input(server_peer_t *peer)
{
    pmi_conn_t *c = peer->pmi;

    if (c->len >= INPUT_CAPACITY - 1) {
        /* Full while a request is in flight: wait for its answer. */
        event_del(peer->reading);
        return false;
    }
    /* Made at the first input: most ranks never speak PMI. */
    if (NULL == c->in && NULL == (c->in = malloc(INPUT_CAPACITY))) {
        peer_close(peer);
        return false;
    }
    ssize_t n = recv(peer->fd, c->in + c->len, INPUT_CAPACITY - 1 - c->len,
                     MSG_DONTWAIT | (c->peeking ? MSG_PEEK : 0));
    if (n < 0 && EINTR == errno) {
        return true;
    }
    if (n < 0 && (EAGAIN == errno || EWOULDBLOCK == errno)) {
        return false;
    }
    if (n <= 0) {
        peer_close(peer);
        return false;
    }
    c->len += (size_t)n;
    if (c->peeking) {
        c->peeked += (size_t)n;
    }
    if (!c->processing) {
        handle_input(peer);
    }
    return peer_is_open(peer);
}

static void on_readable(evutil_socket_t fd, short what, void *arg);

/* Watch the input edge-triggered (peeking) or level-triggered; the
 * connection is closed if libevent refuses. */
static void watch_input(server_peer_t *peer, short edge)
{
    event_del(peer->reading);
    if (0 != event_assign(peer->reading, server.base, peer->fd, EV_READ | EV_PERSIST | edge,
                          on_readable, peer) ||
        0 != event_add(peer->reading, NULL)) {
        peer_close(peer);
    }
}

void pmi_output_waits(server_peer_t *peer)
{
    pmi_conn_t *c = peer->pmi;

    /* A client slow to read its answers gains nothing by the peeking. */
    if (c->peeking) {
        take_peeked(peer);
        if (peer_is_open(peer)) {
            c->peeking = false;
            watch_input(peer, 0);
        }
    }
}

static void on_readable(evutil_socket_t fd, short what, void *arg)
{
    server_peer_t *peer = arg;
    bool more;

    /* A peeking connection's event is edge-triggered (the bytes it holds
     * keep the socket readable): read until there is nothing new. */
    peer_retain(peer);
    do {
        more = read_input(peer);
    } while (more && peer->pmi->peeking);
    peer_release(peer);
}

void pmi_peer_closed(server_peer_t *peer)
{
    pmi_conn_t *c = peer->pmi;
    if (NULL == c) {
        return;
    }
    pmi2_peer_closed(peer);
    pmi_port_forget(peer);
    pmi_spawn_free(c->spawn);
    free(c->in);
    free(c);
    peer->pmi = NULL;
}

/* ---- Connections --------------------------------------------------------- */

pmix_status_t pmi_adopt(int fd, const pmix_proc_t *proc, uid_t uid, gid_t gid)
{
    pmi_conn_t *c = calloc(1, sizeof(*c));

    if (NULL == c) {
        close(fd);
        return PMIX_ERR_NOMEM;
    }
    c->version = 1;
    if (NULL != proc) {
        c->proc = *proc;
        c->identified = true;
        /* A socket pair of ours: peek (see the top), where the kernel can. */
        int zero = 0;
        c->peeking = 0 == setsockopt(fd, SOL_SOCKET, SO_PEEK_OFF, &zero, sizeof(zero));
    }
    server_peer_t *peer = peer_open(fd, 0, uid, gid, on_readable, c->peeking ? EV_ET : 0);
    if (NULL == peer) {
        free(c);
        return PMIX_ERR_NOMEM;
    }
    peer->pmi = c;
    return PMIX_SUCCESS;
}

/* Serve proc, a registered client, over fd (taken over whatever happens). */
static pmix_status_t attach(const pmix_proc_t *proc, int fd)
{
    const server_client_t *client = nspace_find_client(proc);

    if (NULL == client) {
        close(fd);
        return PMIX_ERR_NOT_FOUND;
    }
    return pmi_adopt(fd, proc, client->uid, client->gid);
}

typedef struct setup_op {
    pmix_proc_t proc;
    int fd;                      /* the server's end; -1 once taken over */
    char *const *env;
    uint32_t size;               /* the job's */
    uint32_t id;                 /* PMI_ID on the port */
    char address[32];            /* PMI_PORT */
} setup_op_t;

typedef struct setup_batch {
    setup_op_t *ops;
    size_t n;
    char ***envs;
    int *fds;
    pmix_op_cbfunc_t cbfunc;     /* NULL: a caller waits (server_run_sync) */
    void *cbdata;
} setup_batch_t;

/* What op's variables need: its job's size, preputs, the port and an id
 * on it. */
static pmix_status_t prepare_one(setup_op_t *op)
{
    pmix_status_t rc;

    op->size = job_u32(op->proc.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE);
    if (0 == op->size) {
        return PMIX_ERR_NOT_FOUND;
    }
    if (PMIX_SUCCESS != (rc = pmi_spawn_take_preputs(op->proc.nspace, op->env)) ||
        PMIX_SUCCESS != (rc = pmi_port_open()) ||
        PMIX_SUCCESS != (rc = pmi_port_id(&op->proc, &op->id))) {
        return rc;
    }
    snprintf(op->address, sizeof(op->address), "%s", pmi_port_address());
    return PMIX_SUCCESS;
}

/* The variables hydra gives, and PMI_PORT and PMI_ID, for op, whose
 * process inherits fd. */
static pmix_status_t export_vars(const setup_op_t *op, int fd, char ***env)
{
    char nspace[PMIX_MAX_NSLEN + 1], fdnum[16], rank[16], nprocs[16], id[16];
    PMIX_LOAD_NSPACE(nspace, op->proc.nspace);
    snprintf(fdnum, sizeof(fdnum), "%d", fd);
    snprintf(rank, sizeof(rank), "%u", op->proc.rank);
    snprintf(nprocs, sizeof(nprocs), "%u", op->size);
    snprintf(id, sizeof(id), "%u", op->id);
    const char *const vars[][2] = {{"PMI_FD", fdnum},         {"PMI_JOBID", nspace},
                                   {"PMI_RANK", rank},        {"PMI_SIZE", nprocs},
                                   {"PMI_PORT", op->address}, {"PMI_ID", id}};
    return env_set_all(env, "PMI_", vars, sizeof(vars) / sizeof(vars[0]));
}

/* The ends of the first n pairs of b still open, closed. */
static void close_pairs(setup_batch_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (b->ops[i].fd >= 0) {
            close(b->ops[i].fd);
            b->ops[i].fd = -1;
        }
        if (b->fds[i] >= 0) {
            close(b->fds[i]);
            b->fds[i] = -1;
        }
    }
}

/* In the progress thread: each process's variables. Should one fail,
 * every pair is closed. */
static pmix_status_t prepare_all(setup_batch_t *b)
{
    pmix_status_t rc = PMIX_SUCCESS;

    for (size_t i = 0; i < b->n && PMIX_SUCCESS == rc; i++) {
        rc = prepare_one(&b->ops[i]);
    }
    for (size_t i = 0; i < b->n && PMIX_SUCCESS == rc; i++) {
        rc = export_vars(&b->ops[i], b->fds[i], &b->envs[i]);
    }
    if (PMIX_SUCCESS != rc) {
        close_pairs(b, b->n);
    }
    return rc;
}

/* In the progress thread: every server end served (taken over, closed
 * if it cannot be: its process then finds its connection closed). The
 * first failure. */
static pmix_status_t serve_all(setup_batch_t *b)
{
    pmix_status_t first = PMIX_SUCCESS;
    for (size_t i = 0; i < b->n; i++) {
        int fd = b->ops[i].fd;
        b->ops[i].fd = -1;
        pmix_status_t rc = attach(&b->ops[i].proc, fd);
        first = PMIX_SUCCESS == first ? rc : first;
    }
    return first;
}

/* A caller waits: all done, or nothing left open. */
static pmix_status_t setup_in_thread(void *arg)
{
    setup_batch_t *b = arg;
    pmix_status_t rc = prepare_all(b);
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS != (rc = serve_all(b))) {
        /* The host's ends closed close the ends served. */
        close_pairs(b, b->n);
    }
    return rc;
}

/* The host launches on the answer, which is given before the ends are
 * served (an 8-rank launch waited 0.07 ms more for that): what a process
 * sends meanwhile waits in its socket. */
static void setup_posted(void *arg)
{
    setup_batch_t *b = arg;
    pmix_status_t rc = prepare_all(b);
    b->cbfunc(rc, b->cbdata);
    if (PMIX_SUCCESS == rc) {
        (void)serve_all(b);
    }
    free(b->ops);
    free(b);
}

static int make_pair(int sv[2])
{
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
}

/* Socket pairs made at init for the host's first PMI processes
 * (DROVER_SERVER_PMI_PROCS), taken by any host thread. */
static fd_pairs_t ahead = FD_PAIRS_INIT(make_pair);

void pmi_pairs_ahead(uint32_t n)
{
    fd_pairs_fill(&ahead, n);
}

void pmi_pairs_close(void)
{
    fd_pairs_close(&ahead);
}

/* What a process given no environment reads: it must outlive the call
 * (the progress thread reads it later). */
static char *const no_env[] = {NULL};

/* The socket pairs made here, the rest in one trip to the progress
 * thread: waited for (cbfunc NULL) or called back. */
static pmix_status_t setup_procs(const pmix_proc_t *procs, size_t nprocs, char ***envs, int *fds,
                                 pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == procs || NULL == envs || NULL == fds || 0 == nprocs) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 0; i < nprocs; i++) {
        if (!PMIX_RANK_IS_VALID(procs[i].rank)) {
            return PMIX_ERR_BAD_PARAM;
        }
    }
    setup_batch_t *b = malloc(sizeof(*b));
    setup_op_t *ops = calloc(nprocs, sizeof(*ops));
    if (NULL == b || NULL == ops) {
        free(b);
        free(ops);
        return PMIX_ERR_NOMEM;
    }
    *b = (setup_batch_t){.ops = ops, .n = nprocs, .envs = envs, .fds = fds, .cbfunc = cbfunc,
                         .cbdata = cbdata};
    pmix_status_t rc = PMIX_SUCCESS;
    for (size_t i = 0; i < nprocs; i++) {
        int sv[2] = {-1, -1};
        if (PMIX_SUCCESS == rc && 0 != fd_pairs_take(&ahead, sv)) {
            rc = PMIX_ERR_OUT_OF_RESOURCE;
        }
        ops[i] = (setup_op_t){.proc = procs[i], .fd = sv[0],
                              .env = NULL != envs[i] ? envs[i] : no_env};
        fds[i] = sv[1];
    }
    if (PMIX_SUCCESS == rc && NULL != cbfunc && PMIX_SUCCESS == (rc = server_post(setup_posted, b))) {
        return PMIX_SUCCESS;
    }
    if (PMIX_SUCCESS == rc) {
        rc = server_run_sync(setup_in_thread, b);
    }
    /* Whatever was not run has its pairs still open. */
    if (PMIX_SUCCESS != rc) {
        close_pairs(b, nprocs);
    }
    free(ops);
    free(b);
    return rc;
}

PMIX_EXPORT pmix_status_t drover_server_setup_pmi_procs(const pmix_proc_t *procs, size_t nprocs,
                                                        char ***envs, int *fds)
{
    return setup_procs(procs, nprocs, envs, fds, NULL, NULL);
}

PMIX_EXPORT pmix_status_t drover_server_setup_pmi_procs_nb(const pmix_proc_t *procs,
                                                           size_t nprocs, char ***envs, int *fds,
                                                           pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (NULL == cbfunc) {
        return PMIX_ERR_BAD_PARAM;
    }
    return setup_procs(procs, nprocs, envs, fds, cbfunc, cbdata);
}

PMIX_EXPORT pmix_status_t drover_server_setup_pmi(const pmix_proc_t *proc, char ***env, int *fd)
{
    if (NULL == proc || NULL == env || NULL == fd) {
        return PMIX_ERR_BAD_PARAM;
    }
    return drover_server_setup_pmi_procs(proc, 1, env, fd);
}
