/*
 * tool.c - tools connecting to the server: a HELLO that says it comes
 * from a tool (PMIX_REQUESTOR_IS_TOOL among its info) rather than from a
 * client the host registered.
 *
 * Design notes:
 *  - A tool needs an identity. The host's tool_connected assigns it,
 *    given the tool's info plus what the server knows of it (PMIX_USERID,
 *    PMIX_GRPID from the socket's credentials, PMIX_VERSION_INFO, and
 *    PMIX_NSPACE/PMIX_RANK when the tool asked for an identity of its
 *    own). Without that function the server takes the identity the tool
 *    asked for, or makes one up: "<server namespace>.tool.<n>", rank 0.
 *    An identity that is a registered client's is refused.
 *  - A connected tool is served like a client (queries, logs, job
 *    control, events, I/O forwarding...), with its own identity, but it
 *    takes part in no job: it is no collective's participant.
 *  - The HELLO answer is PMIX_PROC tool, PMIX_PROC server: the tool
 *    learns both who it is and whom it talks to.
 *  - A tool's second, direct connection (conn.c) is matched to its main
 *    one by process id, as the kernel reports it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "server.h"

typedef struct tool_op {
    server_peer_t *peer;         /* a reference */
    uint32_t tag;
    pmix_status_t status;
    pmix_proc_t proc;
    pmix_info_t *info;           /* what the host was shown */
    size_t ninfo;
} tool_op_t;

static unsigned next_tool = 1;

bool tool_requested(const pmix_info_t *info, size_t ninfo)
{
    return directive_flag(info, ninfo, PMIX_REQUESTOR_IS_TOOL);
}

static void welcome(tool_op_t *op)
{
    pmix_data_buffer_t body;
    server_peer_t *peer = op->peer;
    pmix_status_t status = op->status;

    if (PMIX_SUCCESS == status && NULL != nspace_find_client(&op->proc)) {
        status = PMIX_ERR_BAD_PARAM; /* it would pose as a job's process */
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&body);
    if (PMIX_SUCCESS == status &&
        PMIX_SUCCESS == (status = PMIx_Data_pack(NULL, &body, &op->proc, 1, PMIX_PROC))) {
        status = PMIx_Data_pack(NULL, &body, &server.me, 1, PMIX_PROC);
    }
    if (PMIX_SUCCESS == status) {
        peer->tool = true;
        peer->proc = op->proc;
    }
    peer_reply(peer, PROTOCOL_HELLO, op->tag, status, PMIX_SUCCESS == status ? &body : NULL);
    if (PMIX_SUCCESS != status) {
        peer_close_when_flushed(peer);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&body);
    PMIX_INFO_FREE(op->info, op->ninfo);
    peer_release(peer);
    free(op);
}

static void welcome_in_thread(void *arg)
{
    welcome(arg);
}

/* The host's pmix_tool_connection_cbfunc_t (any thread). */
static void host_assigned(pmix_status_t status, pmix_proc_t *proc, void *cbdata)
{
    tool_op_t *op = cbdata;
    op->status = status;
    if (PMIX_SUCCESS == status) {
        if (NULL == proc || '\0' == proc->nspace[0]) {
            op->status = PMIX_ERR_BAD_PARAM;
        } else {
            op->proc = *proc;
        }
    }
    if (PMIX_SUCCESS != server_post(welcome_in_thread, op)) {
        PMIX_INFO_FREE(op->info, op->ninfo);
        free(op); /* shutting down: the peer goes with the rest */
    }
}

/* The tool's info, and what the server knows of it, for the host. */
static pmix_status_t describe(tool_op_t *op, const pmix_info_t *info, size_t ninfo,
                              bool named)
{
    size_t n = 0;
    uint32_t uid = op->peer->uid, gid = op->peer->gid;

    PMIX_INFO_CREATE(op->info, ninfo + 5);
    if (NULL == op->info) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < ninfo; i++) {
        PMIx_Info_xfer(&op->info[n++], &info[i]);
    }
    PMIx_Info_load(&op->info[n++], PMIX_VERSION_INFO, "4.2.2", PMIX_STRING);
    PMIx_Info_load(&op->info[n++], PMIX_USERID, &uid, PMIX_UINT32);
    PMIx_Info_load(&op->info[n++], PMIX_GRPID, &gid, PMIX_UINT32);
    if (named) {
        PMIx_Info_load(&op->info[n++], PMIX_NSPACE, op->proc.nspace, PMIX_STRING);
        PMIx_Info_load(&op->info[n++], PMIX_RANK, &op->proc.rank, PMIX_PROC_RANK);
    }
    op->ninfo = n;
    return PMIX_SUCCESS;
}

/* A tool's direct connection: find its main one. */
static void direct_hello(server_peer_t *peer, uint32_t tag)
{
    for (server_peer_t *p = peer_first(); NULL != p; p = p->next) {
        if (p->tool && !p->direct && p->pid == peer->pid && p->uid == peer->uid) {
            peer->tool = true;
            peer->direct = true;
            peer->proc = p->proc;
            peer_reply(peer, PROTOCOL_HELLO, tag, PMIX_SUCCESS, NULL);
            return;
        }
    }
    peer_reply(peer, PROTOCOL_HELLO, tag, PMIX_ERR_NOT_FOUND, NULL);
    peer_close_when_flushed(peer);
}

void tool_hello(server_peer_t *peer, uint32_t tag, const pmix_proc_t *asked, bool direct,
                const pmix_info_t *info, size_t ninfo)
{
    tool_op_t *op;
    bool named = '\0' != asked->nspace[0];
    pmix_status_t rc;

    if (direct) {
        direct_hello(peer, tag);
        return;
    }
    if (NULL == (op = calloc(1, sizeof(*op)))) {
        peer_reply(peer, PROTOCOL_HELLO, tag, PMIX_ERR_NOMEM, NULL);
        peer_close_when_flushed(peer);
        return;
    }
    op->peer = peer;
    op->tag = tag;
    peer_retain(peer);
    op->proc = *asked;
    if (!named) {
        char nspace[PMIX_MAX_NSLEN + 1];
        snprintf(nspace, sizeof(nspace), "%.200s.tool.%u", server.me.nspace, next_tool++);
        PMIX_LOAD_PROCID(&op->proc, nspace, 0);
    }
    if (NULL == server.host.tool_connected) {
        welcome(op);
        return;
    }
    if (PMIX_SUCCESS != (rc = describe(op, info, ninfo, named))) {
        op->status = rc;
        welcome(op);
        return;
    }
    /* Returns nothing: the host always calls back. */
    server.host.tool_connected(op->info, op->ninfo, host_assigned, op);
}
