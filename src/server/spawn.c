/*
 * spawn.c - SPAWN: PMIx_Spawn relayed to the host's spawn function; the
 * reply carries the new job's namespace.
 */

#include "pmix.h"
#include "server.h"

static void spawn_answered(pmix_status_t status, char nspace[], void *cbdata)
{
    relay_t *r = cbdata;
    if (PMIX_SUCCESS == status) {
        pmix_status_t rc = PMIx_Data_pack(NULL, &r->body, &nspace, 1, PMIX_STRING);
        if (PMIX_SUCCESS != rc) {
            status = rc;
        }
    }
    relay_answered(r, status);
}

/* SPAWN: PMIX_INFO[] job info, PMIX_APP[] apps; reply PMIX_STRING nspace. */
void spawn_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_SPAWN);
    pmix_info_t *info;
    pmix_app_t *apps;
    size_t ninfo, napps;
    pmix_status_t rc = PMIX_ERR_NOT_SUPPORTED;

    if (NULL == r || !relay_unpack(r, payload, PMIX_INFO, (void **)&info, &ninfo) ||
        !relay_unpack(r, payload, PMIX_APP, (void **)&apps, &napps)) {
        return;
    }
    if (0 == napps) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    if (NULL != server.host.spawn) {
        rc = server.host.spawn(&peer->proc, info, ninfo, apps, napps, spawn_answered, r);
    }
    relay_called(r, rc);
}
