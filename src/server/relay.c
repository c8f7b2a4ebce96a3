/*
 * relay.c - the skeleton every request relayed to a host module function
 * shares: unpack the request, call the module, reply when it answers. The
 * requests themselves live in the file of their API family (abort.c,
 * query.c, job_control.c, log.c, publish.c, spawn.c, allocation.c,
 * monitor.c, fabric.c), as in the client.
 *
 * Design notes:
 *  - Every relay has the same shape: unpack the request, keep what was
 *    unpacked alive while the host works (the host borrows it until it
 *    calls back), call the module function, and reply when it answers.
 *    A relay_t carries that state; the unpacked arrays are "held" by it
 *    and freed with it.
 *  - The host's callbacks may come from any thread. They pack their
 *    results on the spot (the host may free them when the callback
 *    returns) and post the ready reply to the progress thread.
 *  - A module function the host does not provide makes the request fail
 *    with PMIX_ERR_NOT_SUPPORTED, except where the library can do the
 *    work itself: cleanup registration in job control, logging to stderr
 *    or syslog, and the server's own URI in queries.
 */
#include <assert.h>
#include <stdlib.h>

#include "pmix.h"
#include "server.h"

relay_t *relay_new(server_peer_t *peer, uint32_t tag, uint16_t command)
{
    relay_t *r = calloc(1, sizeof(*r));
    if (NULL == r) {
        peer_reply(peer, command, tag, PMIX_ERR_NOMEM, NULL);
        return NULL;
    }
    r->peer = peer;
    r->tag = tag;
    r->command = command;
    PMIX_DATA_BUFFER_CONSTRUCT(&r->body);
    peer_retain(peer);
    return r;
}

static void relay_free(relay_t *r)
{
    for (size_t i = 0; i < r->nheld; i++) {
        protocol_free_array(r->held[i].array, r->held[i].n, r->held[i].type);
    }
    free(r->keys);
    free(r->extra);
    PMIX_DATA_BUFFER_DESTRUCT(&r->body);
    peer_release(r->peer);
    free(r);
}

/* Reply with status (and, when there is an answer, the body packed so
 * far) and free r. */
void relay_finish(relay_t *r, pmix_status_t status)
{
    bool answer = PMIX_SUCCESS == status || PMIX_ERR_PARTIAL_SUCCESS == status;
    peer_reply(r->peer, r->command, r->tag, status, answer ? &r->body : NULL);
    relay_free(r);
}

static void finish_in_thread(void *arg)
{
    relay_t *r = arg;
    relay_finish(r, r->status);
}

/* The host has answered (any thread): reply from the progress thread. */
void relay_answered(relay_t *r, pmix_status_t status)
{
    r->status = status;
    if (PMIX_SUCCESS != server_post(finish_in_thread, r)) {
        /* Shutting down: the connection is closing anyway. */
        relay_free(r);
    }
}

/* After the module call: PMIX_SUCCESS means the host will call back. */
void relay_called(relay_t *r, pmix_status_t rc)
{
    if (PMIX_SUCCESS != rc) {
        relay_finish(r, PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc);
    }
}

/* Keep array (of n elements of type) alive until r is freed. */
void relay_hold(relay_t *r, void *array, size_t n, pmix_data_type_t type)
{
    /* Requests hold at most two arrays; the bound is a programming error. */
    assert(r->nheld < RELAY_MAX_HELD);
    r->held[r->nheld].array = array;
    r->held[r->nheld].n = n;
    r->held[r->nheld].type = type;
    r->nheld++;
}

/* Unpack one array group and hold it; false (after replying) on error. */
bool relay_unpack(relay_t *r, pmix_data_buffer_t *payload, pmix_data_type_t type, void **array,
                  size_t *n)
{
    pmix_status_t rc = protocol_unpack_array(payload, type, array, n);
    if (PMIX_SUCCESS != rc) {
        relay_finish(r, rc);
        return false;
    }
    relay_hold(r, *array, *n, type);
    return true;
}

/* Unpack a PMIX_STRING array as the NULL-terminated keys a module wants. */
bool relay_unpack_keys(relay_t *r, pmix_data_buffer_t *payload)
{
    char **strings;
    size_t n;
    if (!relay_unpack(r, payload, PMIX_STRING, (void **)&strings, &n)) {
        return false;
    }
    if (NULL == (r->keys = calloc(n + 1, sizeof(*r->keys)))) {
        relay_finish(r, PMIX_ERR_NOMEM);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (NULL == strings[i]) {
            relay_finish(r, PMIX_ERR_BAD_PARAM);
            return false;
        }
        r->keys[i] = strings[i];
    }
    return true;
}

void relay_op_answered(pmix_status_t status, void *cbdata)
{
    relay_answered(cbdata, status);
}

/* Pack the host's results (when status says there are some) into r's
 * body, here, since the host may free them once its callback returns.
 * Returns status, or the packing's failure. */
static pmix_status_t relay_pack(relay_t *r, pmix_status_t status, void *data, size_t n,
                                pmix_data_type_t type)
{
    if (PMIX_SUCCESS == status || PMIX_ERR_PARTIAL_SUCCESS == status) {
        pmix_status_t rc = PMIx_Data_pack(NULL, &r->body, data, (int32_t)n, type);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return status;
}

void relay_answered_with(relay_t *r, pmix_status_t status, void *data, size_t n,
                         pmix_data_type_t type)
{
    relay_answered(r, relay_pack(r, status, data, n, type));
}

/* A pmix_info_cbfunc_t: the results are packed before they are released. */
void relay_info_answered(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                         pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    relay_t *r = cbdata;

    status = relay_pack(r, status, info, ninfo, PMIX_INFO);
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    relay_answered(r, status);
}
