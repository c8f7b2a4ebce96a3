/*
 * peer.c - one connection from a client or tool: frames in, requests
 * dispatched, replies out.
 *
 * Design notes:
 *  - libevent bufferevents do the non-blocking I/O, so a slow reader never
 *    stalls the server: replies queue in its output buffer.
 *  - Frames are taken out of the input whole; a frame of another protocol
 *    version is answered with a clear HELLO error and the connection is
 *    closed once the answer is out; a malformed header closes it at once.
 *  - Until HELLO has named a registered client, HELLO is the only request
 *    accepted.
 *  - The handler table is indexed by command, one entry per request.
 *  - A client's FENCE and GET may come over its direct connection and
 *    overtake a COMMIT sent before them on the main one. They carry the
 *    number of commits the client had sent; one that arrives early waits
 *    in the client's deferred list until those commits are in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "pmix.h"
#include "server.h"

static const struct {
    peer_handler_t handle;
    bool ordered;                /* starts with the sender's commit count */
} handlers[PROTOCOL_COMMAND_MAX] = {
    [PROTOCOL_HELLO] = {hello_request},
    [PROTOCOL_FINALIZE] = {hello_finalize_request},
    [PROTOCOL_ABORT] = {abort_request},
    [PROTOCOL_COMMIT] = {data_commit_request},
    [PROTOCOL_FENCE] = {fence_request, true},
    [PROTOCOL_GET] = {data_get_request, true},
    [PROTOCOL_NOTIFY] = {notify_request},
    [PROTOCOL_QUERY] = {query_request},
    [PROTOCOL_JOB_CONTROL] = {job_control_request},
    [PROTOCOL_LOG] = {log_request},
    [PROTOCOL_CONNECT] = {connect_request},
    [PROTOCOL_DISCONNECT] = {disconnect_request},
    [PROTOCOL_PUBLISH] = {publish_request},
    [PROTOCOL_LOOKUP] = {lookup_request},
    [PROTOCOL_UNPUBLISH] = {unpublish_request},
    [PROTOCOL_SPAWN] = {spawn_request},
};

/* A request waiting for its client's earlier commits. */
typedef struct deferred {
    server_peer_t *peer;         /* a reference */
    protocol_header_t h;
    pmix_data_buffer_t payload;  /* from its start */
    struct deferred *next;
} deferred_t;

static server_peer_t *peers;

server_peer_t *peer_first(void)
{
    return peers;
}

void peer_retain(server_peer_t *peer)
{
    peer->refs++;
}

void peer_release(server_peer_t *peer)
{
    if (0 == --peer->refs) {
        free(peer);
    }
}

static void close_peer(server_peer_t *peer)
{
    if (NULL == peer->bev) {
        return;
    }
    bufferevent_free(peer->bev);
    peer->bev = NULL;
    if (NULL != peer->prev) {
        peer->prev->next = peer->next;
    } else {
        peers = peer->next;
    }
    if (NULL != peer->next) {
        peer->next->prev = peer->prev;
    }
    hello_peer_closed(peer);
    /* The reference the open connection held. */
    peer_release(peer);
}

static void write_frame(server_peer_t *peer, uint16_t command, uint32_t tag,
                        const pmix_data_buffer_t *payload)
{
    pmix_data_buffer_t frame;
    if (NULL == peer->bev || PMIX_SUCCESS != protocol_frame(&frame, command, tag, payload)) {
        return;
    }
    struct evbuffer *out = bufferevent_get_output(peer->bev);
    bool idle = 0 == evbuffer_get_length(out);
    bufferevent_write(peer->bev, frame.base_ptr, frame.bytes_used);
    PMIX_DATA_BUFFER_DESTRUCT(&frame);
    if (idle) {
        /* Nothing queued before: write now rather than one loop turn
         * later, which would add a poll to every reply's latency. What
         * does not fit stays for the bufferevent to send. */
        evbuffer_write(out, bufferevent_getfd(peer->bev));
    }
}

void peer_reply(server_peer_t *peer, uint16_t command, uint32_t tag, pmix_status_t status,
                const pmix_data_buffer_t *body)
{
    pmix_data_buffer_t reply;

    if (NULL == peer->bev) {
        return;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&reply);
    if (PMIX_SUCCESS == protocol_pack_status(&reply, status) &&
        (NULL == body || NULL == body->unpack_ptr ||
         PMIX_SUCCESS == PMIx_Data_copy_payload(&reply, (pmix_data_buffer_t *)body))) {
        write_frame(peer, command | PROTOCOL_REPLY, tag, &reply);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&reply);
}

void peer_send(server_peer_t *peer, uint16_t command, const pmix_data_buffer_t *payload)
{
    write_frame(peer, command, 0, payload);
}

void peer_close_when_flushed(server_peer_t *peer)
{
    if (NULL == peer->bev) {
        return;
    }
    if (0 == evbuffer_get_length(bufferevent_get_output(peer->bev))) {
        close_peer(peer);
    } else {
        peer->close_when_flushed = true;
        bufferevent_disable(peer->bev, EV_READ);
    }
}

/* A frame of another protocol version: say so in words, then hang up. */
static void refuse_version(server_peer_t *peer, const protocol_header_t *h)
{
    pmix_data_buffer_t body;
    char *msg = NULL;

    PMIX_DATA_BUFFER_CONSTRUCT(&body);
    if (asprintf(&msg, "drover server speaks protocol version %d, the client version %u",
                 PROTOCOL_VERSION, (unsigned)h->version) >= 0) {
        PMIx_Data_pack(NULL, &body, &msg, 1, PMIX_STRING);
        free(msg);
    }
    peer_reply(peer, PROTOCOL_HELLO, h->tag, PMIX_ERR_NOT_SUPPORTED, &body);
    PMIX_DATA_BUFFER_DESTRUCT(&body);
    peer_close_when_flushed(peer);
}

static void dispatch(server_peer_t *peer, const protocol_header_t *h, pmix_data_buffer_t *payload);

/* Keep a copy of the request until its client's commits are in. */
static void defer(server_peer_t *peer, const protocol_header_t *h, pmix_data_buffer_t *payload)
{
    deferred_t *d = calloc(1, sizeof(*d));
    if (NULL == d) {
        peer_reply(peer, h->command, h->tag, PMIX_ERR_NOMEM, NULL);
        return;
    }
    d->peer = peer;
    d->h = *h;
    PMIX_DATA_BUFFER_CONSTRUCT(&d->payload);
    if (PMIX_SUCCESS != PMIx_Data_copy_payload(&d->payload, payload)) {
        free(d);
        peer_reply(peer, h->command, h->tag, PMIX_ERR_NOMEM, NULL);
        return;
    }
    peer_retain(peer);
    /* Appended, so replays keep the order the requests came in. */
    deferred_t **tail = &peer->client->deferred;
    while (NULL != *tail) {
        tail = &(*tail)->next;
    }
    *tail = d;
}

void peer_run_deferred(server_client_t *client)
{
    deferred_t *list = client->deferred;
    client->deferred = NULL;
    while (NULL != list) {
        deferred_t *d = list;
        list = d->next;
        if (!client->gone && NULL != d->peer->bev) {
            dispatch(d->peer, &d->h, &d->payload);
        }
        PMIX_DATA_BUFFER_DESTRUCT(&d->payload);
        peer_release(d->peer);
        free(d);
    }
}

/* For an ordered request: false (the request deferred or refused) when
 * the commits it follows have not all arrived; else the count is read. */
static bool in_order(server_peer_t *peer, const protocol_header_t *h, pmix_data_buffer_t *payload)
{
    char *start = payload->unpack_ptr;
    uint32_t seq;
    int32_t n = 1;
    pmix_status_t rc = PMIx_Data_unpack(NULL, payload, &seq, &n, PMIX_UINT32);

    if (PMIX_SUCCESS != rc || NULL == peer->client) {
        peer_reply(peer, h->command, h->tag, PMIX_SUCCESS != rc ? rc : PMIX_ERR_NOT_FOUND, NULL);
        return false;
    }
    if (peer->client->commits < seq) {
        payload->unpack_ptr = start;
        defer(peer, h, payload);
        return false;
    }
    return true;
}

static void dispatch(server_peer_t *peer, const protocol_header_t *h, pmix_data_buffer_t *payload)
{
    bool known = h->command < PROTOCOL_COMMAND_MAX && NULL != handlers[h->command].handle;

    if (NULL == peer->client && !peer->tool && PROTOCOL_HELLO != h->command) {
        peer_reply(peer, h->command, h->tag, PMIX_ERR_NO_PERMISSIONS, NULL);
        peer_close_when_flushed(peer);
        return;
    }
    if (!known) {
        peer_reply(peer, h->command, h->tag, PMIX_ERR_NOT_SUPPORTED, NULL);
        return;
    }
    if (handlers[h->command].ordered && !in_order(peer, h, payload)) {
        return;
    }
    handlers[h->command].handle(peer, h->tag, payload);
}

/* Take one whole frame out of the input, if there is one. Returns false
 * when no complete frame is waiting or the connection was closed. */
static bool next_frame(server_peer_t *peer, struct evbuffer *in)
{
    uint8_t raw[PROTOCOL_HEADER_SIZE];
    protocol_header_t h;
    pmix_byte_object_t bo = {.bytes = NULL, .size = 0};
    pmix_data_buffer_t payload;

    if (evbuffer_get_length(in) < PROTOCOL_HEADER_SIZE) {
        return false;
    }
    evbuffer_copyout(in, raw, sizeof(raw));
    pmix_status_t rc = protocol_decode_header(raw, &h);
    if (PMIX_ERR_NOT_SUPPORTED == rc) {
        refuse_version(peer, &h);
        return false;
    }
    if (PMIX_SUCCESS != rc || 0 != (h.command & PROTOCOL_REPLY)) {
        close_peer(peer);
        return false;
    }
    if (evbuffer_get_length(in) < PROTOCOL_HEADER_SIZE + (size_t)h.length) {
        return false;
    }
    evbuffer_drain(in, PROTOCOL_HEADER_SIZE);
    PMIX_DATA_BUFFER_CONSTRUCT(&payload);
    if (h.length > 0) {
        if (NULL == (bo.bytes = malloc(h.length))) {
            close_peer(peer);
            return false;
        }
        bo.size = h.length;
        evbuffer_remove(in, bo.bytes, bo.size);
        PMIx_Data_load(&payload, &bo);
    }
    dispatch(peer, &h, &payload);
    PMIX_DATA_BUFFER_DESTRUCT(&payload);
    return NULL != peer->bev && !peer->close_when_flushed;
}

static void on_read(struct bufferevent *bev, void *arg)
{
    server_peer_t *peer = arg;
    struct evbuffer *in = bufferevent_get_input(bev);

    peer_retain(peer);
    while (next_frame(peer, in)) {
    }
    peer_release(peer);
}

static void on_write(struct bufferevent *bev, void *arg)
{
    server_peer_t *peer = arg;
    if (peer->close_when_flushed) {
        close_peer(peer);
    }
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
    if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
        close_peer(arg);
    }
}

void peer_adopt(int fd, pid_t pid, uid_t uid, gid_t gid)
{
    server_peer_t *peer = calloc(1, sizeof(*peer));
    if (NULL == peer) {
        close(fd);
        return;
    }
    peer->bev = bufferevent_socket_new(server.base, fd, BEV_OPT_CLOSE_ON_FREE);
    if (NULL == peer->bev) {
        close(fd);
        free(peer);
        return;
    }
    peer->refs = 1;
    peer->pid = pid;
    peer->uid = uid;
    peer->gid = gid;
    peer->next = peers;
    if (NULL != peers) {
        peers->prev = peer;
    }
    peers = peer;
    bufferevent_setcb(peer->bev, on_read, on_write, on_event, peer);
    bufferevent_enable(peer->bev, EV_READ);
}

void peer_close_all(void)
{
    while (NULL != peers) {
        close_peer(peers);
    }
}
