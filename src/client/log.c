/*
 * log.c - PMIx_Log and PMIx_Log_nb.
 *
 * The server hands the data to its host (drover run writes it on its
 * stderr or stdout, or to syslog); a singleton writes it itself.
 */
#include <stdlib.h>

#include "client.h"
#include "log_local.h"
#include "pmix.h"

typedef struct local_log {
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
    pmix_status_t status;
} local_log_t;

static void local_done(void *arg)
{
    local_log_t *l = arg;
    if (NULL != l->cbfunc) {
        l->cbfunc(l->status, l->cbdata);
    }
    free(l);
}

PMIX_EXPORT pmix_status_t PMIx_Log_nb(const pmix_info_t data[], size_t ndata,
                                      const pmix_info_t directives[], size_t ndirs,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t req;
    pmix_status_t rc;

    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == data || 0 == ndata || (NULL == directives && 0 != ndirs)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (client.singleton) {
        local_log_t *l = malloc(sizeof(*l));
        if (NULL == l) {
            return PMIX_ERR_NOMEM;
        }
        *l = (local_log_t){.cbfunc = cbfunc, .cbdata = cbdata,
                           .status = log_local(&client.me, data, ndata)};
        if (PMIX_SUCCESS != (rc = conn_post(local_done, l))) {
            free(l);
        }
        return rc;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, (void *)data, (int32_t)ndata,
                                             PMIX_INFO)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, (void *)directives, (int32_t)ndirs,
                                             PMIX_INFO))) {
        rc = client_request_op(PROTOCOL_LOG, &req, 0, cbfunc, cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Log(const pmix_info_t data[], size_t ndata,
                                   const pmix_info_t directives[], size_t ndirs)
{
    client_wait_t wait;

    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&wait);
    return client_wait_started(
        &wait, PMIx_Log_nb(data, ndata, directives, ndirs, client_wait_op_cb, &wait));
}
