/*
 * fabric.c - FABRIC: PMIx_Fabric_register and _update relayed to the
 * host's fabric function.
 */

#include "pmix.h"
#include "server.h"

/* FABRIC: PMIX_UINT8 operation (pmix_fabric_operation_t), PMIX_INFO[]
 * directives; reply PMIX_INFO[] the fabric's description. */
void fabric_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_FABRIC);
    pmix_info_t *dirs;
    size_t ndirs;
    uint8_t op;
    int32_t n = 1;
    pmix_status_t rc;

    if (NULL == r) {
        return;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &op, &n, PMIX_UINT8))) {
        relay_finish(r, rc);
        return;
    }
    if (!relay_unpack(r, payload, PMIX_INFO, (void **)&dirs, &ndirs)) {
        return;
    }
    if (PMIX_FABRIC_REQUEST_INFO != op && PMIX_FABRIC_UPDATE_INFO != op) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    rc = PMIX_ERR_NOT_SUPPORTED;
    if (NULL != server.host.fabric) {
        rc = server.host.fabric(&peer->proc, (pmix_fabric_operation_t)op, dirs, ndirs,
                                relay_info_answered, r);
    }
    relay_called(r, rc);
}
