/*
 * publish.c - PUBLISH, LOOKUP and UNPUBLISH: PMIx_Publish, PMIx_Lookup
 * and PMIx_Unpublish relayed to the host, which keeps the data by owner.
 */
#include <stdlib.h>

#include "pmix.h"
#include "server.h"

/* Unpack the directives of a publish, lookup or unpublish and add the
 * requestor's PMIX_USERID and PMIX_GRPID, as OpenPMIx does: hosts keep
 * published data by owner (Open MPI's data server finds nothing for a
 * lookup without them). The server's values replace any the client sent. */
static bool publish_unpack_with_owner(relay_t *r, pmix_data_buffer_t *payload, pmix_info_t **info,
                                      size_t *ninfo)
{
    pmix_info_t *sent, *all;
    size_t nsent, n = 0;
    pmix_status_t rc = protocol_unpack_array(payload, PMIX_INFO, (void **)&sent, &nsent);

    if (PMIX_SUCCESS != rc) {
        relay_finish(r, rc);
        return false;
    }
    PMIX_INFO_CREATE(all, nsent + 2);
    if (NULL == all) {
        protocol_free_array(sent, nsent, PMIX_INFO);
        relay_finish(r, PMIX_ERR_NOMEM);
        return false;
    }
    for (size_t i = 0; i < nsent; i++) {
        if (!PMIX_CHECK_KEY(&sent[i], PMIX_USERID) && !PMIX_CHECK_KEY(&sent[i], PMIX_GRPID)) {
            PMIx_Info_xfer(&all[n++], &sent[i]);
        }
    }
    protocol_free_array(sent, nsent, PMIX_INFO);
    uint32_t uid = (uint32_t)r->peer->uid, gid = (uint32_t)r->peer->gid;
    PMIx_Info_load(&all[n++], PMIX_USERID, &uid, PMIX_UINT32);
    PMIx_Info_load(&all[n++], PMIX_GRPID, &gid, PMIX_UINT32);
    relay_hold(r, all, nsent + 2, PMIX_INFO);
    *info = all;
    *ninfo = n;
    return true;
}

/* PUBLISH: PMIX_INFO[] data and directives. */
void publish_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_PUBLISH);
    pmix_info_t *info;
    size_t ninfo;
    pmix_status_t rc = PMIX_ERR_NOT_SUPPORTED;

    if (NULL == r || !publish_unpack_with_owner(r, payload, &info, &ninfo)) {
        return;
    }
    if (NULL != server.host.publish) {
        rc = server.host.publish(&peer->proc, info, ninfo, relay_op_answered, r);
    }
    relay_called(r, rc);
}

/* Start a LOOKUP or UNPUBLISH: PMIX_STRING[] keys, then the directives
 * with the owner added. NULL (the peer answered) on error. */
static relay_t *publish_start_keyed(server_peer_t *peer, uint32_t tag, uint16_t command,
                                    pmix_data_buffer_t *payload, pmix_info_t **info, size_t *ninfo)
{
    relay_t *r = relay_new(peer, tag, command);

    if (NULL == r || !relay_unpack_keys(r, payload) ||
        !publish_unpack_with_owner(r, payload, info, ninfo)) {
        return NULL;
    }
    return r;
}

static void publish_lookup_answered(pmix_status_t status, pmix_pdata_t data[], size_t ndata,
                                    void *cbdata)
{
    relay_answered_with(cbdata, status, data, ndata, PMIX_PDATA);
}

/* LOOKUP: PMIX_STRING[] keys, PMIX_INFO[] directives; reply PMIX_PDATA[]. */
void publish_lookup_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    pmix_info_t *info;
    size_t ninfo;
    relay_t *r = publish_start_keyed(peer, tag, PROTOCOL_LOOKUP, payload, &info, &ninfo);
    pmix_status_t rc = PMIX_ERR_NOT_SUPPORTED;

    if (NULL == r) {
        return;
    }
    if (NULL == r->keys[0]) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    if (NULL != server.host.lookup) {
        rc = server.host.lookup(&peer->proc, r->keys, info, ninfo, publish_lookup_answered, r);
    }
    relay_called(r, rc);
}

/* UNPUBLISH: PMIX_STRING[] keys (empty: all of the caller's), PMIX_INFO[]. */
void publish_unpublish_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    pmix_info_t *info;
    size_t ninfo;
    relay_t *r = publish_start_keyed(peer, tag, PROTOCOL_UNPUBLISH, payload, &info, &ninfo);
    pmix_status_t rc = PMIX_ERR_NOT_SUPPORTED;

    if (NULL == r) {
        return;
    }
    if (NULL != server.host.unpublish) {
        rc = server.host.unpublish(&peer->proc, NULL == r->keys[0] ? NULL : r->keys, info, ninfo,
                                   relay_op_answered, r);
    }
    relay_called(r, rc);
}
