/*
 * connect.c - CONNECT and DISCONNECT: PMIx_Connect and PMIx_Disconnect.
 * The local participants are gathered as a collective (collective.c), then
 * the host's connect or disconnect function runs it across nodes; without
 * one, gathering the local participants is all there is to do.
 */
#include <stdlib.h>

#include "pmix.h"
#include "server.h"

static uint16_t connect_command(collective_kind_t kind)
{
    return COLLECTIVE_CONNECT == kind ? PROTOCOL_CONNECT : PROTOCOL_DISCONNECT;
}

typedef struct connect_op {
    collective_t *c;
    pmix_status_t status;
} connect_op_t;

static void connect_answered_in_thread(void *arg)
{
    connect_op_t *op = arg;
    if (collective_host_answered(op->c)) {
        collective_finish(op->c, op->status, NULL);
    }
    free(op);
}

static void connect_answered(pmix_status_t status, void *cbdata)
{
    connect_op_t *op = cbdata;
    op->status = status;
    if (PMIX_SUCCESS != server_post(connect_answered_in_thread, op)) {
        free(op);
    }
}

static void connect_start(collective_t *c)
{
    pmix_server_connect_fn_t fn =
        COLLECTIVE_CONNECT == c->kind ? server.host.connect : server.host.disconnect;
    connect_op_t *op;
    pmix_status_t rc = PMIX_SUCCESS;

    if (NULL != fn) {
        if (NULL == (op = calloc(1, sizeof(*op)))) {
            rc = PMIX_ERR_NOMEM;
        } else {
            op->c = c;
            c->at_host = true;
            rc = fn(c->procs, c->nprocs, c->info, c->ninfo, connect_answered, op);
            if (PMIX_SUCCESS == rc) {
                return;
            }
            c->at_host = false;
            free(op);
        }
    }
    collective_finish(c, PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc, NULL);
}

/* Payload of CONNECT and DISCONNECT: PMIX_PROC[] procs, PMIX_INFO[]. */
static void connect_or_disconnect(collective_kind_t kind, server_peer_t *peer, uint32_t tag,
                                  pmix_data_buffer_t *payload)
{
    pmix_proc_t *procs = NULL;
    pmix_info_t *info = NULL;
    size_t nprocs = 0, ninfo = 0;
    collective_t *c = NULL;
    bool complete = false;
    pmix_status_t rc;

    rc = protocol_unpack_array(payload, PMIX_PROC, (void **)&procs, &nprocs);
    if (PMIX_SUCCESS == rc) {
        rc = protocol_unpack_array(payload, PMIX_INFO, (void **)&info, &ninfo);
    }
    if (PMIX_SUCCESS != rc || 0 == nprocs) {
        free(procs);
        peer_reply(peer, connect_command(kind), tag, PMIX_SUCCESS != rc ? rc : PMIX_ERR_BAD_PARAM,
                   NULL);
        protocol_free_array(info, ninfo, PMIX_INFO);
        return;
    }
    rc = collective_join(kind, peer, tag, procs, nprocs, info, ninfo, &c, &complete);
    if (PMIX_SUCCESS != rc) {
        peer_reply(peer, connect_command(kind), tag, rc, NULL);
    } else if (NULL != c && complete) {
        connect_start(c);
    }
}

void connect_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    connect_or_disconnect(COLLECTIVE_CONNECT, peer, tag, payload);
}

void connect_disconnect_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    connect_or_disconnect(COLLECTIVE_DISCONNECT, peer, tag, payload);
}
