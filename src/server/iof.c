/*
 * iof.c - I/O forwarding on the server: IOF_PULL and IOF_DEREGISTER (a
 * client or tool asks for, or stops asking for, the output of processes),
 * PMIx_server_IOF_deliver (the host hands the server output to pass on)
 * and IOF_PUSH (stdin for processes, relayed to the host's push_stdin).
 *
 * Design notes:
 *  - A pull is kept per connection with the puller's own handler number,
 *    the processes (wildcard ranks allowed) and the channels it wants.
 *    Output delivered by the host goes, once per connection, to every
 *    connection with a matching pull, as one IOF message naming the
 *    matching handler numbers; the puller's library dispatches it.
 *  - A host with an iof_pull function is told of each pull first (so it
 *    starts sending that output to this server) and of the end of the
 *    last pull covering a process (PMIX_IOF_STOP); the pull is recorded
 *    only once the host agrees. Without the function the host is assumed
 *    to deliver all output, as a launcher does.
 *  - stdin cannot be pulled; it is pushed. A push goes to the host, which
 *    owns the processes' stdin; without push_stdin it is not supported.
 *  - Output arriving before anyone asked for it is kept, within bounds,
 *    for the first pull that covers it (iof_cache.c): a tool pulling
 *    what a job it just spawned writes misses nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "server.h"
#include "server_entry.h"

#define PULLABLE (PMIX_FWD_ALL_CHANNELS & ~PMIX_FWD_STDIN_CHANNEL)

typedef struct pull {
    server_peer_t *peer;         /* a reference */
    size_t id;                   /* the puller's handler number */
    pmix_proc_t *procs;
    size_t nprocs;
    pmix_iof_channel_t channels;
    struct pull *next;
} pull_t;

static pull_t *pulls;

static bool covers(const pull_t *p, const pmix_proc_t *proc)
{
    for (size_t i = 0; i < p->nprocs; i++) {
        if (PMIX_CHECK_NSPACE(p->procs[i].nspace, proc->nspace) &&
            (PMIX_RANK_WILDCARD == p->procs[i].rank || PMIX_RANK_WILDCARD == proc->rank ||
             p->procs[i].rank == proc->rank)) {
            return true;
        }
    }
    return false;
}

static void free_pull(pull_t *p)
{
    peer_release(p->peer);
    free(p->procs);
    free(p);
}

static void host_done(pmix_status_t status, void *cbdata)
{
}

/* Tell the host that nobody here wants p's output any more, if so. */
static void stop_at_host(const pull_t *p)
{
    pmix_info_t stop;

    if (NULL == server.host.iof_pull) {
        return;
    }
    for (const pull_t *q = pulls; NULL != q; q = q->next) {
        for (size_t i = 0; i < p->nprocs; i++) {
            if (covers(q, &p->procs[i])) {
                return;
            }
        }
    }
    PMIX_INFO_LOAD(&stop, PMIX_IOF_STOP, NULL, PMIX_BOOL);
    server.host.iof_pull(p->procs, p->nprocs, &stop, 1, p->channels, host_done, NULL);
    PMIX_INFO_DESTRUCT(&stop);
}

/* One IOF message to peer: the handler numbers ids of its matching pulls,
 * PMIX_PROC source, PMIX_IOF_CHANNEL channel, PMIX_BYTE_OBJECT data,
 * PMIX_INFO[] info. */
static pmix_status_t send_output(server_peer_t *peer, const size_t *ids, size_t nids,
                                 const pmix_proc_t *source, pmix_iof_channel_t channel,
                                 const pmix_byte_object_t *bo, const pmix_info_t *info,
                                 size_t ninfo)
{
    pmix_data_buffer_t msg;
    pmix_status_t rc;
    PMIX_DATA_BUFFER_CONSTRUCT(&msg);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)ids, (int32_t)nids,
                                             PMIX_SIZE)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)source, 1, PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, &channel, 1, PMIX_IOF_CHANNEL)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)bo, 1, PMIX_BYTE_OBJECT)) &&
        PMIX_SUCCESS ==
            (rc = PMIx_Data_pack(NULL, &msg, (void *)info, (int32_t)ninfo, PMIX_INFO))) {
        peer_send(peer, PROTOCOL_IOF, &msg);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&msg);
    return rc;
}

/* Does pull p want output of source on channel? */
static bool pull_wants(void *p, const pmix_proc_t *source, pmix_iof_channel_t channel)
{
    const pull_t *pull = p;
    return (pull->channels & channel) && covers(pull, source);
}

/* A kept piece, to the new pull p alone. */
static void send_kept(void *p, const pmix_proc_t *source, pmix_iof_channel_t channel,
                      const pmix_byte_object_t *bo, const pmix_info_t *info, size_t ninfo)
{
    const pull_t *pull = p;
    send_output(pull->peer, &pull->id, 1, source, channel, bo, info, ninfo);
}

/* ---- IOF_PULL ------------------------------------------------------------- */

typedef struct pull_op {
    pull_t *pull;
    server_peer_t *requester;    /* where the answer goes, a reference */
    uint32_t tag;
    pmix_status_t status;
    pmix_info_t *dirs;           /* held for the host */
    size_t ndirs;
} pull_op_t;

static void pull_answered_in_thread(void *arg)
{
    pull_op_t *op = arg;
    if (PMIX_SUCCESS == op->status && !peer_is_open(op->pull->peer)) {
        op->status = PMIX_ERR_LOST_CONNECTION; /* closed while the host thought */
    }
    if (PMIX_SUCCESS == op->status) {
        op->pull->next = pulls;
        pulls = op->pull;
    }
    peer_reply(op->requester, PROTOCOL_IOF_PULL, op->tag, op->status, NULL);
    peer_release(op->requester);
    if (PMIX_SUCCESS != op->status) {
        free_pull(op->pull);
    } else {
        /* After the answer, so that the puller knows the pull first. */
        iof_cache_replay(pull_wants, send_kept, op->pull);
    }
    protocol_free_array(op->dirs, op->ndirs, PMIX_INFO);
    free(op);
}

static void pull_answered(pmix_status_t status, void *cbdata)
{
    pull_op_t *op = cbdata;
    op->status = status;
    if (PMIX_SUCCESS != server_post(pull_answered_in_thread, op)) {
        /* Shutting down: the connection goes with it. */
        free_pull(op->pull);
        peer_release(op->requester);
        protocol_free_array(op->dirs, op->ndirs, PMIX_INFO);
        free(op);
    }
}

/* IOF_PULL: PMIX_SIZE handler, PMIX_PROC[] procs, PMIX_IOF_CHANNEL
 * channels, PMIX_INFO[] directives. */
void iof_pull_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    pull_op_t *op = calloc(1, sizeof(*op));
    pull_t *p = calloc(1, sizeof(*p));
    int32_t n = 1;
    pmix_status_t rc = NULL == op || NULL == p ? PMIX_ERR_NOMEM : PMIX_SUCCESS;

    if (PMIX_SUCCESS == rc &&
        (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &p->id, &n, PMIX_SIZE)) ||
         PMIX_SUCCESS != (rc = protocol_unpack_array(payload, PMIX_PROC, (void **)&p->procs,
                                                     &p->nprocs)) ||
         PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &p->channels, &n,
                                                PMIX_IOF_CHANNEL)) ||
         PMIX_SUCCESS != (rc = protocol_unpack_array(payload, PMIX_INFO, (void **)&op->dirs,
                                                     &op->ndirs)))) {
        goto fail;
    }
    if (PMIX_SUCCESS == rc && (0 == p->nprocs || 0 == (p->channels & PULLABLE))) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != rc) {
        goto fail;
    }
    p->channels &= PULLABLE;
    /* Output goes where events go: not to a direct connection. */
    p->peer = peer_main(peer);
    peer_retain(p->peer);
    op->pull = p;
    op->requester = peer;
    peer_retain(peer);
    op->tag = tag;
    rc = PMIX_OPERATION_SUCCEEDED;
    if (NULL != server.host.iof_pull) {
        rc = server.host.iof_pull(p->procs, p->nprocs, op->dirs, op->ndirs, p->channels,
                                  pull_answered, op);
    }
    if (PMIX_SUCCESS != rc) {
        op->status = PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc;
        pull_answered_in_thread(op);
    }
    return;
fail:
    peer_reply(peer, PROTOCOL_IOF_PULL, tag, rc, NULL);
    if (NULL != p) {
        free(p->procs);
        free(p);
    }
    if (NULL != op) {
        protocol_free_array(op->dirs, op->ndirs, PMIX_INFO);
        free(op);
    }
}

void iof_forward(server_peer_t *peer, const char *nspace, pmix_iof_channel_t channels)
{
    pull_t *p = calloc(1, sizeof(*p));
    if (NULL == p || NULL == (p->procs = malloc(sizeof(*p->procs)))) {
        free(p);
        return;
    }
    PMIX_LOAD_PROCID(&p->procs[0], nspace, PMIX_RANK_WILDCARD);
    p->nprocs = 1;
    p->id = PROTOCOL_IOF_FORWARDED;
    p->channels = channels & PULLABLE;
    p->peer = peer_main(peer);
    peer_retain(p->peer);
    if (NULL != server.host.iof_pull) {
        server.host.iof_pull(p->procs, 1, NULL, 0, p->channels, host_done, NULL);
    }
    p->next = pulls;
    pulls = p;
}

/* IOF_DEREGISTER: PMIX_SIZE handler, PMIX_INFO[] directives. */
void iof_deregister_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    size_t id;
    int32_t n = 1;
    pmix_status_t rc = PMIx_Data_unpack(NULL, payload, &id, &n, PMIX_SIZE);
    pull_t *found = NULL;
    const server_peer_t *owner = peer_main(peer);

    for (pull_t **p = &pulls; PMIX_SUCCESS == rc && NULL != *p; p = &(*p)->next) {
        if ((*p)->peer == owner && (*p)->id == id) {
            found = *p;
            *p = found->next;
            break;
        }
    }
    if (PMIX_SUCCESS == rc && NULL == found) {
        rc = PMIX_ERR_NOT_FOUND;
    }
    if (NULL != found) {
        stop_at_host(found);
        free_pull(found);
    }
    peer_reply(peer, PROTOCOL_IOF_DEREGISTER, tag, rc, NULL);
}

void iof_peer_closed(server_peer_t *peer)
{
    pull_t **p = &pulls;
    while (NULL != *p) {
        pull_t *q = *p;
        if (q->peer != peer) {
            p = &q->next;
            continue;
        }
        *p = q->next;
        stop_at_host(q);
        free_pull(q);
    }
}

void iof_clear_all(void)
{
    while (NULL != pulls) {
        pull_t *p = pulls;
        pulls = p->next;
        free_pull(p);
    }
    iof_cache_clear();
}

/* ---- PMIx_server_IOF_deliver ------------------------------------------------ */

typedef struct deliver_op {
    pmix_proc_t source;
    pmix_iof_channel_t channel;
    const pmix_byte_object_t *bo;  /* the host's, borrowed until cbfunc */
    const pmix_info_t *info;
    size_t ninfo;
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
} deliver_op_t;

/* Send the output to every connection that pulled it, once per
 * connection, naming that connection's matching pulls; keep it when
 * nobody did. */
static pmix_status_t deliver(void *arg)
{
    deliver_op_t *op = arg;
    size_t *ids = NULL, nids, room = 0;
    pmix_status_t rc = PMIX_SUCCESS;
    bool wanted = false;

    for (pull_t *p = pulls; NULL != p && PMIX_SUCCESS == rc; p = p->next) {
        bool first = true;
        /* Deliver once per connection: skip one already served. */
        for (const pull_t *q = pulls; q != p && first; q = q->next) {
            first = !(q->peer == p->peer && pull_wants((void *)q, &op->source, op->channel));
        }
        if (!first || !pull_wants(p, &op->source, op->channel)) {
            continue;
        }
        wanted = true;
        nids = 0;
        for (const pull_t *q = p; NULL != q; q = q->next) {
            if (q->peer != p->peer || !pull_wants((void *)q, &op->source, op->channel)) {
                continue;
            }
            if (nids == room) {
                size_t *grown = realloc(ids, (room = 2 * room + 4) * sizeof(*grown));
                if (NULL == grown) {
                    rc = PMIX_ERR_NOMEM;
                    break;
                }
                ids = grown;
            }
            ids[nids++] = q->id;
        }
        if (PMIX_SUCCESS == rc) {
            rc = send_output(p->peer, ids, nids, &op->source, op->channel, op->bo, op->info,
                             op->ninfo);
        }
    }
    free(ids);
    if (!wanted) {
        iof_cache_keep(&op->source, op->channel, op->bo, op->info, op->ninfo);
    }
    return rc;
}

static void deliver_async(void *arg)
{
    deliver_op_t *op = arg;
    op->cbfunc(deliver(op), op->cbdata);
    free(op);
}

PMIX_EXPORT pmix_status_t PMIx_server_IOF_deliver(const pmix_proc_t *source,
                                                  pmix_iof_channel_t channel,
                                                  const pmix_byte_object_t *bo,
                                                  const pmix_info_t info[], size_t ninfo,
                                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    deliver_op_t op = {.channel = channel, .bo = bo, .info = info, .ninfo = ninfo,
                       .cbfunc = cbfunc, .cbdata = cbdata};
    pmix_status_t rc;

    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == source || NULL == bo || (NULL == bo->bytes && 0 != bo->size) ||
        (NULL == info && 0 != ninfo) || 0 == channel) {
        return PMIX_ERR_BAD_PARAM;
    }
    op.source = *source;
    if (NULL == cbfunc) {
        rc = server_run_sync(deliver, &op);
        return PMIX_SUCCESS == rc ? PMIX_OPERATION_SUCCEEDED : rc;
    }
    deliver_op_t *copy = malloc(sizeof(*copy));
    if (NULL == copy) {
        return PMIX_ERR_NOMEM;
    }
    *copy = op;
    if (PMIX_SUCCESS != (rc = server_post(deliver_async, copy))) {
        free(copy);
    }
    return rc;
}

/* ---- IOF_PUSH ----------------------------------------------------------------- */

/* IOF_PUSH: PMIX_PROC[] targets, PMIX_BYTE_OBJECT[] data (one), PMIX_INFO[]
 * directives (PMIX_IOF_COMPLETE: the end of the input). */
void iof_push_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_IOF_PUSH);
    pmix_proc_t *targets;
    pmix_byte_object_t *bo;
    pmix_info_t *dirs;
    size_t ntargets, nbo, ndirs;
    pmix_status_t rc = PMIX_ERR_NOT_SUPPORTED;

    if (NULL == r || !relay_unpack(r, payload, PMIX_PROC, (void **)&targets, &ntargets) ||
        !relay_unpack(r, payload, PMIX_BYTE_OBJECT, (void **)&bo, &nbo) ||
        !relay_unpack(r, payload, PMIX_INFO, (void **)&dirs, &ndirs)) {
        return;
    }
    if (0 == ntargets || 1 != nbo) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    if (NULL != server.host.push_stdin) {
        rc = server.host.push_stdin(&peer->proc, targets, ntargets, dirs, ndirs, bo,
                                    relay_op_answered, r);
    }
    relay_called(r, rc);
}

/* PMIx_IOF_push made by the host itself: to its own push_stdin, called
 * from the progress thread like every module function; its callback is
 * passed back from the loop, never inside the host's call. The arguments
 * are borrowed until then (the byte object's header is copied: a caller
 * may pass one of its stack). */
typedef struct host_push {
    const pmix_proc_t *targets;
    size_t ntargets;
    pmix_byte_object_t bo;
    const pmix_info_t *dirs;
    size_t ndirs;
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
    pmix_status_t status;
} host_push_t;

static void host_push_done(void *arg)
{
    host_push_t *op = arg;
    op->cbfunc(op->status, op->cbdata);
    free(op);
}

static void host_push_answered(pmix_status_t status, void *cbdata)
{
    host_push_t *op = cbdata;
    op->status = status;
    if (PMIX_SUCCESS != server_post(host_push_done, op)) {
        free(op); /* finalizing: the loop is gone */
    }
}

static void host_push_in_thread(void *arg)
{
    host_push_t *op = arg;
    pmix_status_t rc = server.host.push_stdin(&server.me, op->targets, op->ntargets, op->dirs,
                                              op->ndirs, &op->bo, host_push_answered, op);
    if (PMIX_SUCCESS != rc) {
        host_push_answered(PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc, op);
    }
}

static pmix_status_t host_push_now(void *arg)
{
    host_push_t *op = arg;
    return server.host.push_stdin(&server.me, op->targets, op->ntargets, op->dirs, op->ndirs,
                                  &op->bo, NULL, NULL);
}

pmix_status_t server_entry_iof_push(const pmix_proc_t *targets, size_t ntargets,
                                    const pmix_byte_object_t *bo, const pmix_info_t *dirs,
                                    size_t ndirs, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    host_push_t push = {.targets = targets, .ntargets = ntargets, .bo = *bo, .dirs = dirs,
                        .ndirs = ndirs, .cbfunc = cbfunc, .cbdata = cbdata};
    host_push_t *op;
    pmix_status_t rc;

    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == server.host.push_stdin) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (NULL == cbfunc) {
        return server_run_sync(host_push_now, &push);
    }
    if (NULL == (op = malloc(sizeof(*op)))) {
        return PMIX_ERR_NOMEM;
    }
    *op = push;
    if (PMIX_SUCCESS != (rc = server_post(host_push_in_thread, op))) {
        free(op);
    }
    return rc;
}
