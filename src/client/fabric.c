/*
 * fabric.c - PMIx_Fabric_register, _update and _deregister (and their
 * _nb forms): a description of a fabric, obtained from the host through
 * the server and kept in the caller's pmix_fabric_t.
 *
 * Design notes:
 *  - Register asks the host's fabric function (PMIX_FABRIC_REQUEST_INFO)
 *    with the caller's directives; the answer becomes fabric->info, and
 *    a PMIX_FABRIC_INDEX in it becomes fabric->index. Update asks again
 *    (PMIX_FABRIC_UPDATE_INFO) naming that index and replaces the info.
 *  - Deregister only frees what register attached: the host keeps no
 *    state for us. Its _nb form is done at once and says so
 *    (PMIX_OPERATION_SUCCEEDED, no callback).
 *  - The caller's struct is written only in the callback path, after the
 *    answer has arrived, so a failed request leaves it unchanged.
 */
#include <stdlib.h>

#include "client.h"
#include "pmix.h"

typedef struct fabric_op {
    pmix_fabric_t *fabric;
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
} fabric_op_t;

static void fabric_answered(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                            pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    fabric_op_t *op = cbdata;
    pmix_info_t *copy = NULL;

    if (PMIX_SUCCESS == status && ninfo > 0) {
        PMIX_INFO_CREATE(copy, ninfo);
        if (NULL == copy) {
            status = PMIX_ERR_NOMEM;
        }
        for (size_t i = 0; NULL != copy && i < ninfo; i++) {
            PMIx_Info_xfer(&copy[i], &info[i]);
        }
    }
    if (PMIX_SUCCESS == status) {
        pmix_fabric_t *f = op->fabric;
        PMIX_INFO_FREE(f->info, f->ninfo);
        f->info = copy;
        f->ninfo = ninfo;
        for (size_t i = 0; i < ninfo; i++) {
            if (PMIX_CHECK_KEY(&copy[i], PMIX_FABRIC_INDEX) && PMIX_SIZE == copy[i].value.type) {
                f->index = copy[i].value.data.size;
            }
        }
    }
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    if (NULL != op->cbfunc) {
        op->cbfunc(status, op->cbdata);
    }
    free(op);
}

/* FABRIC: PMIX_UINT8 operation, PMIX_INFO[] directives. */
static pmix_status_t ask(pmix_fabric_t *fabric, pmix_fabric_operation_t operation,
                         const pmix_info_t *dirs, size_t ndirs, pmix_op_cbfunc_t cbfunc,
                         void *cbdata)
{
    pmix_data_buffer_t req;
    fabric_op_t *op;
    uint8_t code = (uint8_t)operation;
    pmix_status_t rc = client_can_ask();

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL == fabric || (NULL == dirs && 0 != ndirs)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (op = malloc(sizeof(*op)))) {
        return PMIX_ERR_NOMEM;
    }
    *op = (fabric_op_t){.fabric = fabric, .cbfunc = cbfunc, .cbdata = cbdata};
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, &code, 1, PMIX_UINT8)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, (void *)dirs, (int32_t)ndirs,
                                             PMIX_INFO))) {
        rc = client_request_infos(PROTOCOL_FABRIC, &req, directive_timeout(dirs, ndirs),
                                  fabric_answered, op);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    if (PMIX_SUCCESS != rc) {
        free(op);
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Fabric_register_nb(pmix_fabric_t *fabric,
                                                  const pmix_info_t directives[], size_t ndirs,
                                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return ask(fabric, PMIX_FABRIC_REQUEST_INFO, directives, ndirs, cbfunc, cbdata);
}

PMIX_EXPORT pmix_status_t PMIx_Fabric_update_nb(pmix_fabric_t *fabric, pmix_op_cbfunc_t cbfunc,
                                                void *cbdata)
{
    pmix_info_t which;

    if (NULL == fabric) {
        return PMIX_ERR_BAD_PARAM;
    }
    /* The directive is packed before ask returns: a stack copy will do. */
    PMIX_INFO_LOAD(&which, PMIX_FABRIC_INDEX, &fabric->index, PMIX_SIZE);
    return ask(fabric, PMIX_FABRIC_UPDATE_INFO, &which, 1, cbfunc, cbdata);
}

static pmix_status_t wait_for(pmix_fabric_t *fabric, const pmix_info_t *dirs, size_t ndirs,
                              bool update)
{
    client_wait_t wait;

    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&wait);
    return client_wait_started(
        &wait, update ? PMIx_Fabric_update_nb(fabric, client_wait_op_cb, &wait)
                      : PMIx_Fabric_register_nb(fabric, dirs, ndirs, client_wait_op_cb, &wait));
}

PMIX_EXPORT pmix_status_t PMIx_Fabric_register(pmix_fabric_t *fabric,
                                               const pmix_info_t directives[], size_t ndirs)
{
    return wait_for(fabric, directives, ndirs, false);
}

PMIX_EXPORT pmix_status_t PMIx_Fabric_update(pmix_fabric_t *fabric)
{
    return wait_for(fabric, NULL, 0, true);
}

PMIX_EXPORT pmix_status_t PMIx_Fabric_deregister_nb(pmix_fabric_t *fabric, pmix_op_cbfunc_t cbfunc,
                                                    void *cbdata)
{
    if (NULL == fabric) {
        return PMIX_ERR_BAD_PARAM;
    }
    PMIX_INFO_FREE(fabric->info, fabric->ninfo);
    fabric->ninfo = 0;
    fabric->module = NULL;
    return PMIX_OPERATION_SUCCEEDED;
}

PMIX_EXPORT pmix_status_t PMIx_Fabric_deregister(pmix_fabric_t *fabric)
{
    pmix_status_t rc = PMIx_Fabric_deregister_nb(fabric, NULL, NULL);
    return PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc;
}
