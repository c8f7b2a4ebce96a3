/*
 * job_control.c - PMIx_Job_control and PMIx_Job_control_nb.
 *
 * The server registers cleanup (PMIX_REGISTER_CLEANUP, _CLEANUP_DIR)
 * itself and hands every other directive (kill, signal, terminate...) to
 * its host.
 */
#include "client.h"
#include "pmix.h"

PMIX_EXPORT pmix_status_t PMIx_Job_control_nb(const pmix_proc_t targets[], size_t ntargets,
                                              const pmix_info_t directives[], size_t ndirs,
                                              pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t req;
    pmix_status_t rc;

    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    /* A NULL cbfunc is a request nobody waits for: Open MPI registers its
     * cleanup directory that way and needs PMIX_SUCCESS. */
    if ((NULL == targets && 0 != ntargets) || NULL == directives || 0 == ndirs) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (client.singleton) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, (void *)targets, (int32_t)ntargets,
                                             PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, (void *)directives, (int32_t)ndirs,
                                             PMIX_INFO))) {
        rc = client_request_infos(PROTOCOL_JOB_CONTROL, &req, directive_timeout(directives, ndirs),
                                  cbfunc, cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Job_control(const pmix_proc_t targets[], size_t ntargets,
                                           const pmix_info_t directives[], size_t ndirs,
                                           pmix_info_t **results, size_t *nresults)
{
    client_results_t res = {0};

    if ((NULL == results) != (NULL == nresults)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL != results) {
        *results = NULL;
        *nresults = 0;
    }
    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&res.wait);
    return client_wait_results(
        &res, PMIx_Job_control_nb(targets, ntargets, directives, ndirs, client_results_cb, &res),
        results, nresults);
}
