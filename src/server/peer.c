/*
 * peer.c - one connection from a client or tool: frames in, requests
 * dispatched, replies out.
 *
 * Design notes:
 *  - Non-blocking I/O on plain libevent events: a reply is written at
 *    once; only what the socket will not take waits in an evbuffer for
 *    the socket to become writable, so a slow reader never stalls the
 *    server and a fast one costs no extra poll per message.
 *  - Frames are taken out of the input whole; a frame of another protocol
 *    version is answered with a clear HELLO error and the connection is
 *    closed once the answer is out; a malformed header closes it at once.
 *  - Until HELLO has named a registered client, HELLO is the only request
 *    accepted, and no frame larger than a HELLO needs is read
 *    (PROTOCOL_HELLO_MAX_PAYLOAD): a stranger cannot make the server hold
 *    256 MiB frames.
 *  - A peer that does not read its replies stops being read: once more
 *    than OUT_HIGH_WATER bytes wait for it, its requests wait in the
 *    socket until the queue is under OUT_LOW_WATER. Nothing is dropped,
 *    and the server's memory stays bounded whatever the peer sends.
 *  - The handler table is indexed by command, one entry per request.
 *  - A client's FENCE and GET may come over its direct connection and
 *    overtake a COMMIT sent before them on the main one. They carry the
 *    number of commits the client had sent; one that arrives early waits
 *    in the client's deferred list until those commits are in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "pmix.h"
#include "server.h"

static const struct {
    peer_handler_t handle;
    bool ordered;                /* starts with the sender's commit count */
    const char *call;            /* the API call it serves, for traces */
} handlers[PROTOCOL_COMMAND_MAX] = {
    [PROTOCOL_HELLO] = {hello_request, false, "PMIx_Init"},
    [PROTOCOL_FINALIZE] = {hello_finalize_request, false, "PMIx_Finalize"},
    [PROTOCOL_ABORT] = {abort_request, false, "PMIx_Abort"},
    [PROTOCOL_COMMIT] = {data_commit_request, false, "PMIx_Commit"},
    [PROTOCOL_FENCE] = {fence_request, true, "PMIx_Fence"},
    [PROTOCOL_GET] = {data_get_request, true, "PMIx_Get"},
    [PROTOCOL_NOTIFY] = {notify_request, false, "PMIx_Notify_event"},
    [PROTOCOL_QUERY] = {query_request, false, "PMIx_Query_info"},
    [PROTOCOL_JOB_CONTROL] = {job_control_request, false, "PMIx_Job_control"},
    [PROTOCOL_LOG] = {log_request, false, "PMIx_Log"},
    [PROTOCOL_CONNECT] = {connect_request, false, "PMIx_Connect"},
    [PROTOCOL_DISCONNECT] = {connect_disconnect_request, false, "PMIx_Disconnect"},
    [PROTOCOL_PUBLISH] = {publish_request, false, "PMIx_Publish"},
    [PROTOCOL_LOOKUP] = {publish_lookup_request, false, "PMIx_Lookup"},
    [PROTOCOL_UNPUBLISH] = {publish_unpublish_request, false, "PMIx_Unpublish"},
    [PROTOCOL_SPAWN] = {spawn_request, false, "PMIx_Spawn"},
    [PROTOCOL_GROUP_CONSTRUCT] = {group_construct_request, false, "PMIx_Group_construct"},
    [PROTOCOL_GROUP_DESTRUCT] = {group_destruct_request, false, "PMIx_Group_destruct"},
    [PROTOCOL_GROUP_INVITE] = {group_invite_request, false, "PMIx_Group_invite"},
    [PROTOCOL_GROUP_JOIN] = {group_join_request, false, "PMIx_Group_join"},
    [PROTOCOL_GROUP_LEAVE] = {group_leave_request, false, "PMIx_Group_leave"},
    [PROTOCOL_ALLOCATE] = {allocation_request, false, "PMIx_Allocation_request"},
    [PROTOCOL_MONITOR] = {monitor_request, false, "PMIx_Process_monitor"},
    [PROTOCOL_FABRIC] = {fabric_request, false, "PMIx_Fabric_register"},
    [PROTOCOL_GET_CREDENTIAL] = {credential_get_request, false, "PMIx_Get_credential"},
    [PROTOCOL_VALIDATE_CREDENTIAL] = {credential_validate_request, false,
                                      "PMIx_Validate_credential"},
    [PROTOCOL_IOF_PULL] = {iof_pull_request, false, "PMIx_IOF_pull"},
    [PROTOCOL_IOF_DEREGISTER] = {iof_deregister_request, false, "PMIx_IOF_deregister"},
    [PROTOCOL_IOF_PUSH] = {iof_push_request, false, "PMIx_IOF_push"},
};

/* Tell the host's trace of a request or reply (DROVER_SERVER_TRACE). */
static void trace(const server_peer_t *peer, bool reply, uint16_t command, uint32_t tag,
                  size_t bytes, pmix_status_t status)
{
    if (command >= PROTOCOL_COMMAND_MAX || NULL == handlers[command].call) {
        return;
    }
    /* A client's second connection says HELLO too: not another PMIx_Init. */
    const char *call = peer->direct && PROTOCOL_HELLO == command ? "direct connection"
                                                                 : handlers[command].call;
    drover_trace_event_t ev = {.reply = reply, .call = call,
                               .proc = &peer->proc, .connection = peer->serial, .tag = tag,
                               .bytes = bytes, .status = status};
    server.trace.record(&ev, server.trace.arg);
}

/* Output queued for one peer above which its input is no longer read,
 * and below which reading resumes. */
#define OUT_HIGH_WATER (4u << 20)
#define OUT_LOW_WATER (1u << 20)

/* A request waiting for its client's earlier commits. */
typedef struct deferred {
    server_peer_t *peer;         /* a reference */
    protocol_header_t h;
    pmix_data_buffer_t payload;  /* from its start */
    struct deferred *next;
} deferred_t;

static server_peer_t *peers;
static uint64_t serials;     /* connections opened, for traces */

server_peer_t *peer_first(void)
{
    return peers;
}

server_peer_t *peer_main(server_peer_t *peer)
{
    if (!peer->direct) {
        return peer;
    }
    if (NULL != peer->client) {
        return NULL != peer->client->peer ? peer->client->peer : peer;
    }
    for (server_peer_t *p = peers; NULL != p; p = p->next) {
        if (p->tool && !p->direct && p->pid == peer->pid && p->uid == peer->uid) {
            return p;
        }
    }
    return peer;
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

bool peer_is_open(const server_peer_t *peer)
{
    return peer->fd >= 0;
}

void peer_close(server_peer_t *peer)
{
    if (peer->fd < 0) {
        return;
    }
    pmi_peer_closed(peer);
    event_free(peer->reading);
    event_free(peer->writing);
    if (NULL != peer->out) {
        evbuffer_free(peer->out);
    }
    protocol_inbuf_free(&peer->in);
    close(peer->fd);
    peer->fd = -1;
    peer->reading = peer->writing = NULL;
    peer->out = NULL;
    if (NULL != peer->prev) {
        peer->prev->next = peer->next;
    } else {
        peers = peer->next;
    }
    if (NULL != peer->next) {
        peer->next->prev = peer->prev;
    }
    hello_peer_closed(peer);
    iof_peer_closed(peer);
    listener_resume();
    /* The reference the open connection held. */
    peer_release(peer);
}

static size_t waiting_output(const server_peer_t *peer)
{
    return NULL == peer->out ? 0 : evbuffer_get_length(peer->out);
}

void peer_write(server_peer_t *peer, const void *bytes, size_t len)
{
    size_t sent = 0;

    if (peer->fd < 0) {
        return;
    }
    if (0 == waiting_output(peer)) {
        ssize_t n = send(peer->fd, bytes, len, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n < 0 && EAGAIN != errno && EWOULDBLOCK != errno && EINTR != errno) {
            /* The reader is gone: its end of the socket says so too. */
            return;
        }
        sent = n > 0 ? (size_t)n : 0;
    }
    if (sent < len) {
        if (NULL != peer->pmi) {
            pmi_output_waits(peer);
            if (peer->fd < 0) {
                return;
            }
        }
        if (NULL == peer->out) {
            peer->out = evbuffer_new();
        }
        if (NULL == peer->out ||
            0 != evbuffer_add(peer->out, (const char *)bytes + sent, len - sent)) {
            /* Out of memory: a partial message would garble the stream. */
            peer_close(peer);
            return;
        }
        event_add(peer->writing, NULL);
    }
}

static void write_frame(server_peer_t *peer, uint16_t command, uint32_t tag,
                        const pmix_data_buffer_t *payload)
{
    pmix_data_buffer_t frame;

    if (peer->fd < 0) {
        return;
    }
    if (NULL != peer->pmi) {
        /* A PMI wire connection speaks text: pmi.c words the replies;
         * events have no place in its protocol. */
        if (0 != (command & PROTOCOL_REPLY)) {
            pmi_reply(peer, command & ~PROTOCOL_REPLY, tag, payload);
        }
        return;
    }
    if (PMIX_SUCCESS != protocol_frame(&frame, command, tag, payload)) {
        return;
    }
    peer_write(peer, frame.base_ptr, frame.bytes_used);
    PMIX_DATA_BUFFER_DESTRUCT(&frame);
}

void peer_reply(server_peer_t *peer, uint16_t command, uint32_t tag, pmix_status_t status,
                const pmix_data_buffer_t *body)
{
    pmix_data_buffer_t reply;

    if (peer->fd < 0) {
        return;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&reply);
    if (PMIX_SUCCESS == protocol_pack_status(&reply, status) &&
        (NULL == body || NULL == body->unpack_ptr ||
         PMIX_SUCCESS == PMIx_Data_copy_payload(&reply, (pmix_data_buffer_t *)body))) {
        if (NULL != server.trace.record) {
            trace(peer, true, command, tag, reply.bytes_used, status);
        }
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
    if (peer->fd < 0) {
        return;
    }
    if (0 == waiting_output(peer)) {
        peer_close(peer);
    } else {
        peer->close_when_flushed = true;
        event_del(peer->reading);
    }
}

/* A frame of another protocol version, or one too large before HELLO: say
 * so in words, then hang up. */
static void refuse_hello(server_peer_t *peer, const protocol_header_t *h)
{
    pmix_data_buffer_t body;
    char *msg = NULL;
    bool version = PROTOCOL_VERSION != h->version;
    int n = version ? asprintf(&msg, "drover server speaks protocol version %d, the client "
                               "version %u", PROTOCOL_VERSION, (unsigned)h->version)
                    : asprintf(&msg, "a HELLO may hold %u bytes, this one has %u",
                               PROTOCOL_HELLO_MAX_PAYLOAD, (unsigned)h->length);

    PMIX_DATA_BUFFER_CONSTRUCT(&body);
    if (n >= 0) {
        PMIx_Data_pack(NULL, &body, &msg, 1, PMIX_STRING);
        free(msg);
    }
    peer_reply(peer, PROTOCOL_HELLO, h->tag, version ? PMIX_ERR_NOT_SUPPORTED : PMIX_ERR_BAD_PARAM,
               &body);
    PMIX_DATA_BUFFER_DESTRUCT(&body);
    peer_close_when_flushed(peer);
}


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
        if (!client->gone && peer_is_open(d->peer)) {
            peer_dispatch(d->peer, &d->h, &d->payload);
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

    if (PMIX_SUCCESS == rc && NULL == peer->client && peer->tool) {
        return true; /* a tool's data are never fenced: no order to keep */
    }
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

void peer_dispatch(server_peer_t *peer, const protocol_header_t *h, pmix_data_buffer_t *payload)
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
    if (NULL != server.trace.record) {
        /* A deferred request comes here again: the host keeps the first. */
        trace(peer, false, h->command, h->tag,
              (size_t)(payload->pack_ptr - payload->unpack_ptr), PMIX_SUCCESS);
    }
    if (handlers[h->command].ordered && !in_order(peer, h, payload)) {
        return;
    }
    handlers[h->command].handle(peer, h->tag, payload);
}

/* The next whole frame, within what the peer may send at this point. */
static pmix_status_t next_frame(server_peer_t *peer, protocol_header_t *h,
                                pmix_data_buffer_t *payload)
{
    bool known = NULL != peer->client || peer->tool;
    peer->in.max_payload = known ? PROTOCOL_MAX_PAYLOAD : PROTOCOL_HELLO_MAX_PAYLOAD;
    return protocol_inbuf_next(&peer->in, h, payload);
}

/* Handle every whole frame read so far; stops when the connection
 * closes or is to close, or when its replies pile up unread (then the
 * peer is not read until they drain: see on_writable). */
static void handle_input(server_peer_t *peer)
{
    protocol_header_t h;
    pmix_data_buffer_t payload;
    pmix_status_t rc = PMIX_ERR_WOULD_BLOCK;

    while (peer->fd >= 0 && !peer->close_when_flushed && !peer->throttled) {
        if (waiting_output(peer) > OUT_HIGH_WATER) {
            peer->throttled = true;
            event_del(peer->reading);
            return;
        }
        if (PMIX_SUCCESS != (rc = next_frame(peer, &h, &payload))) {
            break;
        }
        if (0 != (h.command & PROTOCOL_REPLY)) {
            PMIX_DATA_BUFFER_DESTRUCT(&payload);
            peer_close(peer);
            return;
        }
        peer_dispatch(peer, &h, &payload);
        PMIX_DATA_BUFFER_DESTRUCT(&payload);
    }
    if (peer->fd < 0 || peer->close_when_flushed || PMIX_ERR_WOULD_BLOCK == rc) {
        return;
    }
    if (PMIX_ERR_NOT_SUPPORTED == rc || PMIX_ERR_OUT_OF_RESOURCE == rc) {
        refuse_hello(peer, &h);
    } else {
        peer_close(peer);
    }
}

static void on_readable(evutil_socket_t fd, short what, void *arg)
{
    server_peer_t *peer = arg;
    pmix_status_t rc = protocol_inbuf_fill(&peer->in, fd);

    if (PMIX_ERR_WOULD_BLOCK == rc) {
        return;
    }
    peer_retain(peer);
    /* Frames that arrived whole before the end are still handled. */
    handle_input(peer);
    if (PMIX_SUCCESS != rc) {
        peer_close(peer);
    }
    peer_release(peer);
}

static void on_writable(evutil_socket_t fd, short what, void *arg)
{
    server_peer_t *peer = arg;
    if (evbuffer_write(peer->out, fd) < 0 && EAGAIN != errno && EINTR != errno) {
        peer_close(peer);
        return;
    }
    if (0 != waiting_output(peer)) {
        event_add(peer->writing, NULL);
    } else if (peer->close_when_flushed) {
        peer_close(peer);
        return;
    }
    if (peer->throttled && !peer->close_when_flushed && waiting_output(peer) < OUT_LOW_WATER) {
        /* Drained enough: the requests already read go first. */
        peer->throttled = false;
        event_add(peer->reading, NULL);
        peer_retain(peer);
        handle_input(peer);
        peer_release(peer);
    }
}

server_peer_t *peer_open(int fd, pid_t pid, uid_t uid, gid_t gid,
                         void (*on_read)(evutil_socket_t fd, short what, void *arg), short edge)
{
    server_peer_t *peer = calloc(1, sizeof(*peer));
    if (NULL == peer) {
        close(fd);
        return NULL;
    }
    peer->fd = fd;
    peer->reading = event_new(server.base, fd, EV_READ | EV_PERSIST | edge,
                              NULL != on_read ? on_read : on_readable, peer);
    peer->writing = event_new(server.base, fd, EV_WRITE, on_writable, peer);
    if (NULL == peer->reading || NULL == peer->writing || 0 != event_add(peer->reading, NULL)) {
        if (NULL != peer->reading) {
            event_free(peer->reading);
        }
        if (NULL != peer->writing) {
            event_free(peer->writing);
        }
        close(fd);
        free(peer);
        return NULL;
    }
    peer->refs = 1;
    peer->serial = ++serials;
    peer->pid = pid;
    peer->uid = uid;
    peer->gid = gid;
    peer->next = peers;
    if (NULL != peers) {
        peers->prev = peer;
    }
    peers = peer;
    return peer;
}

void peer_adopt(int fd, pid_t pid, uid_t uid, gid_t gid)
{
    peer_open(fd, pid, uid, gid, NULL, 0);
}

void peer_close_all(void)
{
    while (NULL != peers) {
        peer_close(peers);
    }
}
