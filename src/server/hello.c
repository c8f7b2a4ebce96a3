/*
 * hello.c - a client's arrival (HELLO, PMIx_Init) and departure
 * (FINALIZE, PMIx_Finalize, or its connection dropping).
 *
 * Design notes:
 *  - HELLO names the process; it must be a client the host registered,
 *    of the connecting user, and not already connected (a tool says it is
 *    one and is handled by tool.c) (a process that
 *    finalized may connect again: PMIx_Init after PMIx_Finalize).
 *  - A host that forks its clients (DROVER_SERVER_CLIENT_PIDS) tells each
 *    one's pid: the HELLO must then come from that process or one of its
 *    descendants (the socket's peer credentials; /proc gives the parents),
 *    and one that comes before the pid is known waits for it rather than
 *    let another process of the user take the rank.
 *  - As OpenPMIx 4.2 does, the client is answered first (the job's
 *    registration goes out at once) and the host hears of it afterwards
 *    through client_connected2, or else client_connected, with no
 *    callback: the library waits for neither (Slurm's returns
 *    PMIX_SUCCESS and never calls back). An error from client_connected
 *    closes the connection; one from client_connected2 is ignored.
 *  - PMIx_Finalize is held until the host's client_finalized calls back.
 *  - A connection that drops before PMIx_Finalize makes the client "gone":
 *    collectives and requests waiting on it fail instead of hanging, and
 *    the host's event handlers see PMIX_ERR_LOST_CONNECTION with the
 *    process as source (Slurm ends the step on it).
 */
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "procstat.h"
#include "server.h"

/* A FINALIZE the host is holding. */
typedef struct finalize_op {
    server_peer_t *peer;
    uint32_t tag;
    pmix_status_t status;   /* the host's answer */
} finalize_op_t;

static void finish_finalize(void *arg)
{
    finalize_op_t *op = arg;
    peer_reply(op->peer, PROTOCOL_FINALIZE, op->tag, op->status, NULL);
    peer_release(op->peer);
    free(op);
}

/* The host's answer to client_finalized: any thread, perhaps inside the
 * call; the reply goes out from the loop. */
static void host_answered(pmix_status_t status, void *cbdata)
{
    finalize_op_t *op = cbdata;
    op->status = status;
    if (PMIX_SUCCESS != server_post(finish_finalize, op)) {
        /* The server is shutting down: the peer cannot be touched from
         * this thread, so its reference is left to the process's end. */
        free(op);
    }
}

/* Send the HELLO's answer: the client's identity and its job's
 * registration. */
static void welcome(server_peer_t *peer, uint32_t tag, const server_client_t *client)
{
    pmix_data_buffer_t body;
    pmix_status_t status;

    PMIX_DATA_BUFFER_CONSTRUCT(&body);
    status = PMIx_Data_pack(NULL, &body, (void *)&client->proc, 1, PMIX_PROC);
    if (PMIX_SUCCESS == status && client->ns->reg.bytes_used > 0) {
        status = PMIx_Data_copy_payload(&body, &client->ns->reg);
    }
    peer_reply(peer, PROTOCOL_HELLO, tag, status, &body);
    PMIX_DATA_BUFFER_DESTRUCT(&body);
}

/* Tell the host that client has connected, after its HELLO was answered.
 * false when the host refused it (client_connected's error). */
static bool tell_host_connected(server_client_t *client, const pmix_info_t *info, size_t ninfo)
{
    pmix_status_t rc = PMIX_SUCCESS;

    if (NULL != server.host.client_connected2) {
        server.host.client_connected2(&client->proc, client->server_object, (pmix_info_t *)info,
                                      ninfo, NULL, NULL);
    } else if (NULL != server.host.client_connected) {
        rc = server.host.client_connected(&client->proc, client->server_object, NULL, NULL);
    }
    return PMIX_SUCCESS == rc || PMIX_OPERATION_SUCCEEDED == rc;
}

/* Whether process pid is ancestor or one of its descendants: the process
 * the host started may be a wrapper (a shell, time, strace) whose child is
 * the PMIx client. */
static bool descends(pid_t pid, pid_t ancestor)
{
    for (int depth = 0; depth < 64 && pid > 1; depth++) {
        if (pid == ancestor) {
            return true;
        }
        char state;
        long ppid, pgrp;
        if (!procstat_read(pid, &state, &ppid, &pgrp)) {
            return false;
        }
        pid = (pid_t)ppid;
    }
    return false;
}

static pmix_status_t check_client(server_peer_t *peer, const pmix_proc_t *proc,
                                  server_client_t **out)
{
    server_client_t *client = nspace_find_client(proc);

    if (NULL == client) {
        return PMIX_ERR_NOT_FOUND;
    }
    /* A PMI connection proved who it is otherwise: the socket the host
     * handed to that very process, or the secret PMI_ID given to it. */
    if (client->uid != peer->uid ||
        (0 != client->pid && NULL == peer->pmi && !descends(peer->pid, client->pid))) {
        return PMIX_ERR_NO_PERMISSIONS;
    }
    if (NULL != client->peer && client->peer != peer) {
        if (!client->finalized) {
            return PMIX_ERR_EXISTS;
        }
        /* It finalized and came back before we saw the old socket close. */
        client->peer->client = NULL;
    }
    *out = client;
    return PMIX_SUCCESS;
}

/* A direct connection must come from the very process whose main
 * connection is already in. */
static pmix_status_t check_direct(server_peer_t *peer, const pmix_proc_t *proc,
                                  server_client_t **out)
{
    server_client_t *client = nspace_find_client(proc);

    if (NULL == client || NULL == client->peer || client->finalized) {
        return PMIX_ERR_NOT_FOUND;
    }
    if (client->peer->pid != peer->pid || client->uid != peer->uid) {
        return PMIX_ERR_NO_PERMISSIONS;
    }
    *out = client;
    return PMIX_SUCCESS;
}

/* A HELLO waiting for the pid of the client it claims. */
typedef struct parked_hello {
    server_peer_t *peer;
    uint32_t tag;
    pmix_info_t *info;
    size_t ninfo;
    struct parked_hello *next;
} parked_hello_t;

static void refuse(server_peer_t *peer, uint32_t tag, pmix_status_t rc)
{
    peer_reply(peer, PROTOCOL_HELLO, tag, rc, NULL);
    peer_close_when_flushed(peer);
}

/* With DROVER_SERVER_CLIENT_PIDS a HELLO claiming a client whose pid the
 * host has not told yet waits for it: until then nothing tells the
 * process from another of the same user. True when the HELLO was taken
 * (parked, or refused for want of memory); info is then its. */
static bool park(server_peer_t *peer, uint32_t tag, const pmix_proc_t *proc, pmix_info_t *info,
                 size_t ninfo)
{
    server_client_t *client = nspace_find_client(proc);
    if (!server.client_pids || NULL == client || 0 != client->pid) {
        return false;
    }
    parked_hello_t *p = malloc(sizeof(*p)), **tail = &client->parked;
    if (NULL == p) {
        protocol_free_array(info, ninfo, PMIX_INFO);
        refuse(peer, tag, PMIX_ERR_NOMEM);
        return true;
    }
    *p = (parked_hello_t){.peer = peer, .tag = tag, .info = info, .ninfo = ninfo};
    peer_retain(peer);
    while (NULL != *tail) {
        tail = &(*tail)->next;
    }
    *tail = p;
    return true;
}

/* Admit a HELLO for proc or refuse it; info is freed (or kept while the
 * HELLO waits). */
static void admit(server_peer_t *peer, uint32_t tag, const pmix_proc_t *proc, pmix_info_t *info,
                  size_t ninfo, bool direct)
{
    server_client_t *client = NULL;
    pmix_status_t rc;

    if (!direct && park(peer, tag, proc, info, ninfo)) {
        return;
    }
    if (PMIX_SUCCESS != (rc = direct ? check_direct(peer, proc, &client)
                                     : check_client(peer, proc, &client))) {
        protocol_free_array(info, ninfo, PMIX_INFO);
        refuse(peer, tag, rc);
        return;
    }
    if (direct) {
        /* A second connection of a client already in: nothing to ask. */
        protocol_free_array(info, ninfo, PMIX_INFO);
        if (NULL != client->direct_peer) {
            client->direct_peer->client = NULL;
            peer_close_when_flushed(client->direct_peer);
        }
        client->direct_peer = peer;
        peer->client = client;
        peer->proc = client->proc;
        peer->direct = true;
        peer_reply(peer, PROTOCOL_HELLO, tag, PMIX_SUCCESS, NULL);
        return;
    }
    peer->client = client;
    peer->proc = client->proc;
    client->peer = peer;
    client->finalized = false;
    client->gone = false;
    welcome(peer, tag, client);
    if (!tell_host_connected(client, info, ninfo)) {
        client->peer = NULL;
        peer->client = NULL;
        peer_close_when_flushed(peer);
    }
    protocol_free_array(info, ninfo, PMIX_INFO);
}

void hello_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    pmix_proc_t proc;
    pid_t pid;
    int32_t n = 1;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    bool direct = false;
    pmix_status_t rc;

    if (NULL != peer->client || peer->tool) {
        peer_reply(peer, PROTOCOL_HELLO, tag, PMIX_ERR_EXISTS, NULL);
        return;
    }
    if (PMIX_SUCCESS == (rc = PMIx_Data_unpack(NULL, payload, &proc, &n, PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_unpack(NULL, payload, &pid, &n, PMIX_PID)) &&
        PMIX_SUCCESS == (rc = protocol_unpack_array(payload, PMIX_INFO, (void **)&info, &ninfo)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_unpack(NULL, payload, &direct, &n, PMIX_BOOL)) &&
        (tool_requested(info, ninfo) || (direct && NULL == nspace_find_client(&proc)))) {
        /* A tool, or a direct connection of no registered client (so
         * perhaps a tool's): tool.c takes it from here. */
        tool_hello(peer, tag, &proc, direct, info, ninfo);
        protocol_free_array(info, ninfo, PMIX_INFO);
        return;
    }
    if (PMIX_SUCCESS != rc) {
        protocol_free_array(info, ninfo, PMIX_INFO);
        refuse(peer, tag, rc);
        return;
    }
    admit(peer, tag, &proc, info, ninfo, direct);
}

/* Take the parked HELLOs of client off it, in the order they came. */
static parked_hello_t *unpark(server_client_t *client)
{
    parked_hello_t *list = client->parked;
    client->parked = NULL;
    return list;
}

void hello_client_pid(server_client_t *client)
{
    for (parked_hello_t *p = unpark(client), *next; NULL != p; p = next) {
        next = p->next;
        if (p->peer->fd >= 0 && NULL == p->peer->client) {
            admit(p->peer, p->tag, &client->proc, p->info, p->ninfo, false);
        } else {
            protocol_free_array(p->info, p->ninfo, PMIX_INFO);
        }
        peer_release(p->peer);
        free(p);
    }
}

void hello_client_dropped(server_client_t *client)
{
    for (parked_hello_t *p = unpark(client), *next; NULL != p; p = next) {
        next = p->next;
        refuse(p->peer, p->tag, PMIX_ERR_NOT_FOUND);
        protocol_free_array(p->info, p->ninfo, PMIX_INFO);
        peer_release(p->peer);
        free(p);
    }
}

void hello_finalize_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    if (peer->tool) {
        /* No host function hears of a tool's departure. */
        peer_reply(peer, PROTOCOL_FINALIZE, tag, PMIX_SUCCESS, NULL);
        return;
    }
    if (NULL == peer->client) {
        peer_reply(peer, PROTOCOL_FINALIZE, tag, PMIX_ERR_NOT_FOUND, NULL);
        return;
    }
    peer->client->finalized = true;
    finalize_op_t *op = NULL;
    pmix_status_t rc = PMIX_OPERATION_SUCCEEDED;
    if (NULL != server.host.client_finalized) {
        if (NULL == (op = malloc(sizeof(*op)))) {
            rc = PMIX_ERR_NOMEM;
        } else {
            *op = (finalize_op_t){.peer = peer, .tag = tag};
            peer_retain(peer);
            rc = server.host.client_finalized(&peer->client->proc, peer->client->server_object,
                                              host_answered, op);
        }
    }
    if (PMIX_SUCCESS == rc) {
        return; /* host_answered replies */
    }
    if (NULL != op) {
        peer_release(peer);
        free(op);
    }
    peer_reply(peer, PROTOCOL_FINALIZE, tag, PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc,
               NULL);
}

void hello_peer_closed(server_peer_t *peer)
{
    server_client_t *client = peer->client;
    if (NULL != client && peer->direct) {
        client->direct_peer = NULL;
    }
    if (NULL == client || peer->direct) {
        peer->client = NULL;
        return;
    }
    peer->client = NULL;
    client->peer = NULL;
    if (!client->finalized) {
        nspace_client_gone(client);
        host_events_lost(&client->proc);
    }
}
