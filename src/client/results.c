/*
 * results.c - requests whose answer is only a status (pmix_op_cbfunc_t)
 * or a status and an info array (pmix_info_cbfunc_t), the shape of most
 * of the API, and the blocking forms waiting on them.
 */
#include <stdlib.h>

#include "client.h"
#include "pmix.h"

typedef struct op_request {
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
} op_request_t;

static void op_answered(pmix_status_t status, pmix_data_buffer_t *reply, void *arg)
{
    op_request_t *r = arg;
    if (NULL != r->cbfunc) { /* NULL: a request nobody waits for */
        r->cbfunc(status, r->cbdata);
    }
    free(r);
}

pmix_status_t client_request_op(uint16_t command, const pmix_data_buffer_t *msg, int timeout,
                                pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    op_request_t *r = malloc(sizeof(*r));
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    *r = (op_request_t){.cbfunc = cbfunc, .cbdata = cbdata};
    pmix_status_t rc = conn_request(command, msg, timeout, op_answered, r);
    if (PMIX_SUCCESS != rc) {
        free(r);
    }
    return rc;
}

typedef struct info_request {
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
    pmix_info_t *info;
    size_t ninfo;
} info_request_t;

static void release_infos(void *cbdata)
{
    info_request_t *r = cbdata;
    protocol_free_array(r->info, r->ninfo, PMIX_INFO);
    free(r);
}

static void info_answered(pmix_status_t status, pmix_data_buffer_t *reply, void *arg)
{
    info_request_t *r = arg;
    if (NULL == r->cbfunc) { /* a request nobody waits for */
        free(r);
        return;
    }
    /* A host that finished at once (PMIX_OPERATION_SUCCEEDED) sends no
     * infos at all. */
    if (NULL != reply && reply->unpack_ptr < reply->pack_ptr &&
        (PMIX_SUCCESS == status || PMIX_ERR_PARTIAL_SUCCESS == status)) {
        pmix_status_t rc = protocol_unpack_array(reply, PMIX_INFO, (void **)&r->info, &r->ninfo);
        if (PMIX_SUCCESS != rc) {
            status = rc;
        }
    }
    r->cbfunc(status, r->info, r->ninfo, r->cbdata, release_infos, r);
}

pmix_status_t client_request_infos(uint16_t command, const pmix_data_buffer_t *msg, int timeout,
                                   pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    info_request_t *r = calloc(1, sizeof(*r));
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    r->cbfunc = cbfunc;
    r->cbdata = cbdata;
    pmix_status_t rc = conn_request(command, msg, timeout, info_answered, r);
    if (PMIX_SUCCESS != rc) {
        free(r);
    }
    return rc;
}

void client_results_cb(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                       pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    client_results_t *res = cbdata;
    if (ninfo > 0 && NULL != info) {
        PMIX_INFO_CREATE(res->info, ninfo);
        if (NULL == res->info) {
            status = PMIX_ERR_NOMEM;
        } else {
            res->ninfo = ninfo;
            for (size_t i = 0; i < ninfo; i++) {
                PMIx_Info_xfer(&res->info[i], &info[i]);
            }
        }
    }
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    client_wait_done(&res->wait, status);
}

pmix_status_t client_wait_results(client_results_t *res, pmix_status_t started,
                                  pmix_info_t **info, size_t *ninfo)
{
    pmix_status_t rc = client_wait_started(&res->wait, started);
    if (NULL != info) {
        *info = res->info;
        *ninfo = res->ninfo;
    } else {
        PMIX_INFO_FREE(res->info, res->ninfo);
    }
    return rc;
}

pmix_status_t client_can_ask(void)
{
    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    return client.singleton ? PMIX_ERR_NOT_SUPPORTED : PMIX_SUCCESS;
}

pmix_status_t client_results_start(client_results_t *res, pmix_info_t **info, size_t *ninfo)
{
    *res = (client_results_t){.info = NULL};
    if ((NULL == info) != (NULL == ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL != info) {
        *info = NULL;
        *ninfo = 0;
    }
    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&res->wait);
    return PMIX_SUCCESS;
}
