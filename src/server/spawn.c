/*
 * spawn.c - SPAWN: PMIx_Spawn relayed to the host's spawn function; the
 * reply carries the new job's namespace.
 *
 * A tool that asks for PMIX_FWD_STDOUT, _STDERR or _STDDIAG gets the new
 * job's output as if it had pulled it (iof_forward), from before the
 * reply goes out: what the job writes first is not lost.
 */
#include <stdlib.h>

#include "pmix.h"
#include "server.h"

typedef struct forward {
    relay_t *r;
    pmix_iof_channel_t channels;
    pmix_nspace_t nspace;
} forward_t;

/* In the progress thread, before the relay's reply (posted after this):
 * the relay, and its peer reference, are still there. */
static void forward_in_thread(void *arg)
{
    forward_t *f = arg;
    iof_forward(f->r->peer, f->nspace, f->channels);
    free(f);
}

/* The channels info asks a tool's spawn to forward. */
static pmix_iof_channel_t forwarded(const server_peer_t *peer, const pmix_info_t *info,
                                    size_t ninfo)
{
    pmix_iof_channel_t channels = 0;
    if (!peer->tool) {
        return 0;
    }
    if (directive_flag(info, ninfo, PMIX_FWD_STDOUT)) {
        channels |= PMIX_FWD_STDOUT_CHANNEL;
    }
    if (directive_flag(info, ninfo, PMIX_FWD_STDERR)) {
        channels |= PMIX_FWD_STDERR_CHANNEL;
    }
    if (directive_flag(info, ninfo, PMIX_FWD_STDDIAG)) {
        channels |= PMIX_FWD_STDDIAG_CHANNEL;
    }
    return channels;
}

static void spawn_answered(pmix_status_t status, char nspace[], void *cbdata)
{
    relay_t *r = cbdata;
    const pmix_iof_channel_t *channels = r->extra;
    forward_t *f;
    if (PMIX_SUCCESS == status && NULL != channels && NULL != nspace &&
        NULL != (f = malloc(sizeof(*f)))) {
        *f = (forward_t){.r = r, .channels = *channels};
        PMIX_LOAD_NSPACE(f->nspace, nspace);
        if (PMIX_SUCCESS != server_post(forward_in_thread, f)) {
            free(f);
        }
    }
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
    pmix_iof_channel_t channels = forwarded(peer, info, ninfo);
    if (0 != channels && NULL != (r->extra = malloc(sizeof(channels)))) {
        *(pmix_iof_channel_t *)r->extra = channels;
    }
    if (NULL != server.host.spawn) {
        rc = server.host.spawn(&peer->proc, info, ninfo, apps, napps, spawn_answered, r);
    }
    relay_called(r, rc);
}
