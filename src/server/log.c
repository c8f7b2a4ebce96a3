/*
 * log.c - LOG: PMIx_Log relayed to the host's log function, or written
 * to stderr or syslog by the library when the host has none.
 */

#include "log_local.h"
#include "pmix.h"
#include "server.h"

/* LOG: PMIX_INFO[] data, PMIX_INFO[] directives. */
void log_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_LOG);
    pmix_info_t *data, *dirs;
    size_t ndata, ndirs;

    if (NULL == r || !relay_unpack(r, payload, PMIX_INFO, (void **)&data, &ndata) ||
        !relay_unpack(r, payload, PMIX_INFO, (void **)&dirs, &ndirs)) {
        return;
    }
    if (0 == ndata) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    if (NULL == server.host.log) {
        relay_finish(r, log_local(&peer->proc, data, ndata));
        return;
    }
    /* The host's log function returns nothing: it always calls back. */
    server.host.log(&peer->proc, data, ndata, dirs, ndirs, relay_op_answered, r);
}
