/*
 * fence.c - PMIx_Fence on the server: gather the local participants, let
 * the host combine every node's data, hand the result to the clients.
 *
 * Design notes:
 *  - The data handed to the host is a plain sequence of procdata entries
 *    (docs/protocol.md), one per local participant with data visible
 *    beyond the node. Sequences concatenate, so whatever a multi-node host
 *    does (concatenating every node's contribution) stays readable.
 *  - The host owns the blob it is handed (it frees it), as with OpenPMIx:
 *    hosts written for OpenPMIx, Open MPI's mpirun among them, free it.
 *  - The answer to the clients is packed once and sent to every member:
 *    with PMIX_COLLECT_DATA it holds every participant's data a local
 *    process may see; without, only the status (the data stays here,
 *    fetched on demand with GET).
 */
#include <stdlib.h>

#include "pmix.h"
#include "server.h"

typedef struct fence_op {
    collective_t *c;
    pmix_status_t status;
    char *data;
    size_t ndata;
    pmix_release_cbfunc_t relfn;
    void *relcbdata;
} fence_op_t;

/* The clients' answer: status, then with collected data PMIX_UINT32 count
 * and that many procdata entries. */
static void release(collective_t *c, pmix_status_t status)
{
    pmix_data_buffer_t body;
    uint32_t count = 0;

    PMIX_DATA_BUFFER_CONSTRUCT(&body);
    if (PMIX_SUCCESS == status && c->collect_data) {
        pmix_data_buffer_t entries;
        PMIX_DATA_BUFFER_CONSTRUCT(&entries);
        for (size_t i = 0; i < c->nprocs && PMIX_SUCCESS == status; i++) {
            status = data_pack_proc(&entries, &c->procs[i], SCOPE_LOCAL, &count);
        }
        if (PMIX_SUCCESS == status) {
            status = PMIx_Data_pack(NULL, &body, &count, 1, PMIX_UINT32);
        }
        if (PMIX_SUCCESS == status && count > 0) {
            status = PMIx_Data_copy_payload(&body, &entries);
        }
        PMIX_DATA_BUFFER_DESTRUCT(&entries);
    }
    collective_finish(c, status, PMIX_SUCCESS == status ? &body : NULL);
    PMIX_DATA_BUFFER_DESTRUCT(&body);
}

static void host_answered_in_thread(void *arg)
{
    fence_op_t *op = arg;
    pmix_status_t status = op->status;

    if (collective_host_answered(op->c)) {
        if (PMIX_SUCCESS == status && op->ndata > 0) {
            status = data_absorb_blob(op->data, op->ndata);
        }
        release(op->c, status);
    }
    if (NULL != op->relfn) {
        op->relfn(op->relcbdata);
    }
    free(op);
}

/* The host's pmix_modex_cbfunc_t: any thread. data stays the host's until
 * relfn is called. */
static void host_answered(pmix_status_t status, const char *data, size_t ndata, void *cbdata,
                          pmix_release_cbfunc_t relfn, void *relcbdata)
{
    fence_op_t *op = cbdata;
    *op = (fence_op_t){.c = op->c, .status = status, .data = (char *)data, .ndata = ndata,
                       .relfn = relfn, .relcbdata = relcbdata};
    if (PMIX_SUCCESS != server_post(host_answered_in_thread, op)) {
        if (NULL != relfn) {
            relfn(relcbdata);
        }
        free(op);
    }
}

static void start(collective_t *c)
{
    fence_op_t *op;
    pmix_status_t rc;

    if (NULL == server.host.fence_nb) {
        /* No host: every participant is local. */
        release(c, PMIX_SUCCESS);
        return;
    }
    if (NULL == (op = calloc(1, sizeof(*op)))) {
        release(c, PMIX_ERR_NOMEM);
        return;
    }
    op->c = c;
    c->at_host = true;
    /* The blob becomes the host's, to free(), as OpenPMIx hands it over
     * (Open MPI's mpirun frees it). */
    char *data;
    size_t ndata;
    PMIX_DATA_BUFFER_UNLOAD(&c->blob, data, ndata);
    rc = server.host.fence_nb(c->procs, c->nprocs, c->info, c->ninfo, data, ndata, host_answered,
                              op);
    if (PMIX_SUCCESS != rc) {
        c->at_host = false;
        free(op);
        release(c, PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc);
    }
}

/* FENCE: PMIX_PROC[] participants (empty: the caller's namespace),
 * PMIX_INFO[] directives. */
void fence_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    pmix_proc_t *procs = NULL;
    pmix_info_t *info = NULL;
    size_t nprocs = 0, ninfo = 0;
    collective_t *c = NULL;
    bool complete = false;
    uint32_t unused = 0;
    pmix_status_t rc;

    rc = protocol_unpack_array(payload, PMIX_PROC, (void **)&procs, &nprocs);
    if (PMIX_SUCCESS == rc) {
        rc = protocol_unpack_array(payload, PMIX_INFO, (void **)&info, &ninfo);
    }
    if (PMIX_SUCCESS == rc) {
        rc = collective_join(COLLECTIVE_FENCE, peer, tag, procs, nprocs, info, ninfo, &c,
                             &complete);
    } else {
        free(procs);
    }
    if (PMIX_SUCCESS == rc && NULL != c) {
        /* With collected data, the caller's goes to the other nodes with
         * the collective; without, they ask for it (direct modex). */
        if (c->collect_data) {
            rc = data_pack_proc(&c->blob, &peer->proc, SCOPE_REMOTE, &unused);
        }
        if (PMIX_SUCCESS != rc) {
            collective_finish(c, rc, NULL);
            return;
        }
        if (complete) {
            start(c);
        }
        return;
    }
    if (PMIX_SUCCESS != rc) {
        peer_reply(peer, PROTOCOL_FENCE, tag, rc, NULL);
    }
}
