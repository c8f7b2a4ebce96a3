/*
 * abort.c - ABORT: PMIx_Abort relayed to the host's abort function.
 */
#include <stdlib.h>

#include "pmix.h"
#include "server.h"

/* ABORT: PMIX_STATUS code, PMIX_STRING message, PMIX_PROC[] targets. */
void abort_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_ABORT);
    pmix_status_t code;
    char *msg = NULL;
    pmix_proc_t *procs;
    size_t nprocs;
    int32_t n = 1;
    pmix_status_t rc;

    if (NULL == r) {
        return;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &code, &n, PMIX_STATUS)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &msg, &n, PMIX_STRING))) {
        relay_finish(r, rc);
        return;
    }
    if (!relay_unpack(r, payload, PMIX_PROC, (void **)&procs, &nprocs)) {
        free(msg);
        return;
    }
    rc = PMIX_ERR_NOT_SUPPORTED;
    if (NULL != server.host.abort) {
        void *obj = NULL != peer->client ? peer->client->server_object : NULL;
        rc = server.host.abort(&peer->proc, obj, code, msg, procs, nprocs, relay_op_answered, r);
    }
    free(msg);
    relay_called(r, rc);
}
