/*
 * allocation.c - ALLOCATE: PMIx_Allocation_request relayed to the host's
 * allocate function.
 */

#include "pmix.h"
#include "server.h"

/* ALLOCATE: PMIX_ALLOC_DIRECTIVE directive, PMIX_INFO[] data; reply
 * PMIX_INFO[] results. */
void allocation_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_ALLOCATE);
    pmix_alloc_directive_t directive;
    pmix_info_t *data;
    size_t ndata;
    int32_t n = 1;
    pmix_status_t rc;

    if (NULL == r) {
        return;
    }
    if (PMIX_SUCCESS !=
        (rc = PMIx_Data_unpack(NULL, payload, &directive, &n, PMIX_ALLOC_DIRECTIVE))) {
        relay_finish(r, rc);
        return;
    }
    if (!relay_unpack(r, payload, PMIX_INFO, (void **)&data, &ndata)) {
        return;
    }
    rc = PMIX_ERR_NOT_SUPPORTED;
    if (NULL != server.host.allocate) {
        rc = server.host.allocate(&peer->proc, directive, data, ndata, relay_info_answered, r);
    }
    relay_called(r, rc);
}
