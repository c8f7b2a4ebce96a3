/*
 * publish.c - PMIx_Publish, PMIx_Lookup and PMIx_Unpublish (and their
 * _nb forms): the host keeps the published data; directives such as
 * PMIX_RANGE, PMIX_PERSISTENCE, PMIX_WAIT and PMIX_TIMEOUT travel with
 * the request for it to honour.
 */
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "pmix.h"

static pmix_status_t check(void)
{
    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    return client.singleton ? PMIX_ERR_NOT_SUPPORTED : PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Publish_nb(const pmix_info_t info[], size_t ninfo,
                                          pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t req;
    pmix_status_t rc;

    if (NULL == info || 0 == ninfo) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = check())) {
        return rc;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    rc = PMIx_Data_pack(NULL, &req, (void *)info, (int32_t)ninfo, PMIX_INFO);
    if (PMIX_SUCCESS == rc) {
        rc = client_request_op(PROTOCOL_PUBLISH, &req, directive_timeout(info, ninfo), cbfunc,
                               cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Publish(const pmix_info_t info[], size_t ninfo)
{
    client_wait_t wait;

    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&wait);
    return client_wait_started(&wait, PMIx_Publish_nb(info, ninfo, client_wait_op_cb, &wait));
}

/* LOOKUP and UNPUBLISH: PMIX_STRING[] keys, PMIX_INFO[] directives. */
static pmix_status_t pack_keys(pmix_data_buffer_t *req, char **keys, const pmix_info_t info[],
                               size_t ninfo)
{
    size_t nkeys = 0;
    while (NULL != keys && NULL != keys[nkeys]) {
        nkeys++;
    }
    pmix_status_t rc = PMIx_Data_pack(NULL, req, keys, (int32_t)nkeys, PMIX_STRING);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Data_pack(NULL, req, (void *)info, (int32_t)ninfo, PMIX_INFO);
    }
    return rc;
}

typedef struct lookup_op {
    pmix_lookup_cbfunc_t cbfunc;
    void *cbdata;
} lookup_op_t;

static void lookup_answered(pmix_status_t status, pmix_data_buffer_t *reply, void *arg)
{
    lookup_op_t *op = arg;
    pmix_pdata_t *data = NULL;
    size_t ndata = 0;
    if (NULL != reply && (PMIX_SUCCESS == status || PMIX_ERR_PARTIAL_SUCCESS == status)) {
        pmix_status_t rc = protocol_unpack_array(reply, PMIX_PDATA, (void **)&data, &ndata);
        if (PMIX_SUCCESS != rc) {
            status = rc;
        }
    }
    if (NULL != op->cbfunc) {
        op->cbfunc(status, data, ndata, op->cbdata);
    }
    protocol_free_array(data, ndata, PMIX_PDATA);
    free(op);
}

PMIX_EXPORT pmix_status_t PMIx_Lookup_nb(char **keys, const pmix_info_t info[], size_t ninfo,
                                         pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t req;
    lookup_op_t *op;
    pmix_status_t rc;

    if (NULL == keys || NULL == keys[0] || (NULL == info && 0 != ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = check())) {
        return rc;
    }
    if (NULL == (op = malloc(sizeof(*op)))) {
        return PMIX_ERR_NOMEM;
    }
    *op = (lookup_op_t){.cbfunc = cbfunc, .cbdata = cbdata};
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    if (PMIX_SUCCESS == (rc = pack_keys(&req, keys, info, ninfo))) {
        rc = conn_request(PROTOCOL_LOOKUP, &req, directive_timeout(info, ninfo), lookup_answered,
                          op);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    if (PMIX_SUCCESS != rc) {
        free(op);
    }
    return rc;
}

typedef struct lookup_wait {
    client_wait_t wait;
    pmix_pdata_t *data;
    size_t ndata;
} lookup_wait_t;

/* Fill the caller's pdata entries from the answer, matching by key. */
static void lookup_done(pmix_status_t status, pmix_pdata_t data[], size_t ndata, void *cbdata)
{
    lookup_wait_t *w = cbdata;
    for (size_t i = 0; i < ndata && PMIX_SUCCESS == status; i++) {
        for (size_t k = 0; k < w->ndata; k++) {
            if (PMIX_CHECK_KEY(&w->data[k], data[i].key) && PMIX_UNDEF == w->data[k].value.type) {
                w->data[k].proc = data[i].proc;
                status = PMIx_Value_xfer(&w->data[k].value, &data[i].value);
                break;
            }
        }
    }
    client_wait_done(&w->wait, status);
}

PMIX_EXPORT pmix_status_t PMIx_Lookup(pmix_pdata_t data[], size_t ndata, const pmix_info_t info[],
                                      size_t ninfo)
{
    lookup_wait_t w = {.data = data, .ndata = ndata};
    char **keys;

    if (NULL == data || 0 == ndata) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    if (NULL == (keys = calloc(ndata + 1, sizeof(*keys)))) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < ndata; i++) {
        keys[i] = data[i].key;
    }
    client_wait_init(&w.wait);
    pmix_status_t rc = client_wait_started(&w.wait,
                                           PMIx_Lookup_nb(keys, info, ninfo, lookup_done, &w));
    free(keys);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Unpublish_nb(char **keys, const pmix_info_t info[], size_t ninfo,
                                            pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t req;
    pmix_status_t rc;

    if (NULL == info && 0 != ninfo) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = check())) {
        return rc;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    if (PMIX_SUCCESS == (rc = pack_keys(&req, keys, info, ninfo))) {
        rc = client_request_op(PROTOCOL_UNPUBLISH, &req, directive_timeout(info, ninfo), cbfunc,
                               cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Unpublish(char **keys, const pmix_info_t info[], size_t ninfo)
{
    client_wait_t wait;

    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&wait);
    return client_wait_started(&wait,
                               PMIx_Unpublish_nb(keys, info, ninfo, client_wait_op_cb, &wait));
}
