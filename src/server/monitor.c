/*
 * monitor.c - MONITOR: PMIx_Process_monitor relayed to the host's monitor
 * function.
 */

#include "pmix.h"
#include "server.h"

/* MONITOR: PMIX_INFO[] monitor (exactly one), PMIX_STATUS error,
 * PMIX_INFO[] directives; reply PMIX_INFO[] results. */
void monitor_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_MONITOR);
    pmix_info_t *monitor, *dirs;
    size_t nmonitor, ndirs;
    pmix_status_t error, rc;
    int32_t n = 1;

    if (NULL == r || !relay_unpack(r, payload, PMIX_INFO, (void **)&monitor, &nmonitor)) {
        return;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &error, &n, PMIX_STATUS))) {
        relay_finish(r, rc);
        return;
    }
    if (!relay_unpack(r, payload, PMIX_INFO, (void **)&dirs, &ndirs)) {
        return;
    }
    if (1 != nmonitor) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    rc = PMIX_ERR_NOT_SUPPORTED;
    if (NULL != server.host.monitor) {
        rc = server.host.monitor(&peer->proc, monitor, error, dirs, ndirs, relay_info_answered, r);
    }
    relay_called(r, rc);
}
