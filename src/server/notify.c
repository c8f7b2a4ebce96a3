/*
 * notify.c - events: from a client (NOTIFY) or from the host
 * (PMIx_Notify_event in the server process) to the local clients in
 * range, and to the host for ranges beyond this node.
 *
 * Design notes:
 *  - An event is packed once and sent to every client in range; each
 *    client runs its own handlers, so the server keeps no registrations.
 *  - Ranges: PMIX_RANGE_PROC_LOCAL stays with the source; NAMESPACE
 *    reaches the source's job; CUSTOM the processes listed in
 *    PMIX_EVENT_CUSTOM_RANGE; RM only the host; every other range all
 *    local clients.
 *  - PMIX_READY_FOR_DEBUG (a process stopped for a debugger, announced by
 *    the process or by the host) also reaches every connected tool,
 *    whatever its range: the debugger is a tool, and the process cannot
 *    know which.
 *  - The source of a client's event is not sent its own event back: its
 *    library already ran its own handlers.
 */
#include <stdlib.h>

#include "directive.h"
#include "pmix.h"
#include "server.h"
#include "server_entry.h"

static bool in_list(const pmix_proc_t *procs, size_t n, const pmix_proc_t *p)
{
    for (size_t i = 0; i < n; i++) {
        if (PMIX_CHECK_NSPACE(procs[i].nspace, p->nspace) &&
            (PMIX_RANK_WILDCARD == procs[i].rank || procs[i].rank == p->rank)) {
            return true;
        }
    }
    return false;
}

static bool in_range(const pmix_proc_t *target, const pmix_proc_t *source,
                     pmix_data_range_t range, const pmix_proc_t *custom, size_t ncustom)
{
    switch (range) {
    case PMIX_RANGE_PROC_LOCAL:
        return PMIX_CHECK_PROCID(target, source);
    case PMIX_RANGE_NAMESPACE:
        return PMIX_CHECK_NSPACE(target->nspace, source->nspace);
    case PMIX_RANGE_CUSTOM:
        return in_list(custom, ncustom, target);
    case PMIX_RANGE_RM:
        return false;
    default:
        return true;
    }
}

void notify_deliver(pmix_status_t code, const pmix_proc_t *source, pmix_data_range_t range,
                    const pmix_info_t *info, size_t ninfo, const server_peer_t *skip)
{
    pmix_data_buffer_t event;
    size_t ncustom;
    const pmix_proc_t *custom = directive_procs(info, ninfo, PMIX_EVENT_CUSTOM_RANGE, &ncustom);

    PMIX_DATA_BUFFER_CONSTRUCT(&event);
    if (PMIX_SUCCESS != PMIx_Data_pack(NULL, &event, &code, 1, PMIX_STATUS) ||
        PMIX_SUCCESS != PMIx_Data_pack(NULL, &event, (void *)source, 1, PMIX_PROC) ||
        PMIX_SUCCESS != PMIx_Data_pack(NULL, &event, (void *)info, (int32_t)ninfo, PMIX_INFO)) {
        PMIX_DATA_BUFFER_DESTRUCT(&event);
        return;
    }
    for (server_peer_t *p = peer_first(); NULL != p; p = p->next) {
        if (p != skip && (NULL != p->client || p->tool) && !p->direct &&
            (in_range(&p->proc, source, range, custom, ncustom) ||
             (PMIX_READY_FOR_DEBUG == code && p->tool))) {
            peer_send(p, PROTOCOL_EVENT, &event);
        }
    }
    PMIX_DATA_BUFFER_DESTRUCT(&event);
}

static bool beyond_node(pmix_data_range_t range)
{
    return PMIX_RANGE_PROC_LOCAL != range && PMIX_RANGE_LOCAL != range;
}

static void host_done(pmix_status_t status, void *cbdata)
{
}

/* NOTIFY: PMIX_STATUS code, PMIX_PROC source, PMIX_DATA_RANGE range,
 * PMIX_INFO[] info; answered with a status once delivered. */
void notify_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    pmix_status_t code, rc;
    pmix_proc_t source;
    pmix_data_range_t range;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    int32_t n = 1;

    if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &code, &n, PMIX_STATUS)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &source, &n, PMIX_PROC)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &range, &n, PMIX_DATA_RANGE)) ||
        PMIX_SUCCESS != (rc = protocol_unpack_array(payload, PMIX_INFO, (void **)&info, &ninfo))) {
        peer_reply(peer, PROTOCOL_NOTIFY, tag, rc, NULL);
        return;
    }
    /* A client speaks for itself only. */
    source = peer->proc;
    notify_deliver(code, &source, range, info, ninfo, peer);
    /* The host may hold processes for a debugger (stopped at exec). */
    if ((beyond_node(range) || PMIX_DEBUGGER_RELEASE == code) &&
        NULL != server.host.notify_event) {
        rc = server.host.notify_event(code, &source, range, info, ninfo, host_done, NULL);
    }
    peer_reply(peer, PROTOCOL_NOTIFY, tag, PMIX_SUCCESS, NULL);
    protocol_free_array(info, ninfo, PMIX_INFO);
}

typedef struct host_event {
    pmix_status_t code;
    pmix_proc_t source;
    pmix_data_range_t range;
    pmix_info_t *info;
    size_t ninfo;
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
} host_event_t;

static void host_event_in_thread(void *arg)
{
    host_event_t *ev = arg;
    group_heard(ev->code, ev->info, ev->ninfo);
    if (!invite_heard(ev->code, &ev->source, ev->info, ev->ninfo)) {
        notify_deliver(ev->code, &ev->source, ev->range, ev->info, ev->ninfo, NULL);
    }
    if (NULL != ev->cbfunc) {
        ev->cbfunc(PMIX_SUCCESS, ev->cbdata);
    }
    PMIX_INFO_FREE(ev->info, ev->ninfo);
    free(ev);
}

pmix_status_t server_entry_notify(pmix_status_t code, const pmix_proc_t *source,
                                  pmix_data_range_t range, const pmix_info_t *info,
                                  size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    host_event_t *ev = calloc(1, sizeof(*ev));
    pmix_status_t rc;

    if (NULL == ev) {
        return PMIX_ERR_NOMEM;
    }
    *ev = (host_event_t){.code = code, .range = range, .cbfunc = cbfunc, .cbdata = cbdata};
    ev->source = NULL != source ? *source : server.me;
    if (ninfo > 0) {
        PMIX_INFO_CREATE(ev->info, ninfo);
        if (NULL == ev->info) {
            free(ev);
            return PMIX_ERR_NOMEM;
        }
        ev->ninfo = ninfo;
        for (size_t i = 0; i < ninfo; i++) {
            if (PMIX_SUCCESS != (rc = PMIx_Info_xfer(&ev->info[i], &info[i]))) {
                PMIX_INFO_FREE(ev->info, ev->ninfo);
                free(ev);
                return rc;
            }
        }
    }
    if (PMIX_SUCCESS != (rc = server_post(host_event_in_thread, ev))) {
        PMIX_INFO_FREE(ev->info, ev->ninfo);
        free(ev);
    }
    return rc;
}
