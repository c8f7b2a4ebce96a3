/*
 * monitor.c - PMIx_Process_monitor and its _nb form (and so the
 * PMIx_Heartbeat macro): ask the host, through the server, to watch this
 * process (heartbeats, a file's growth...) and raise an event when the
 * watch fails. The host does the watching; without a monitor function the
 * server answers PMIX_ERR_NOT_SUPPORTED.
 *
 * A heartbeat asks for no answer (cbfunc NULL): the request goes out and
 * its reply, whatever it says, is dropped.
 */
#include "client.h"
#include "pmix.h"

PMIX_EXPORT pmix_status_t PMIx_Process_monitor_nb(const pmix_info_t *monitor, pmix_status_t error,
                                                  const pmix_info_t directives[], size_t ndirs,
                                                  pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t req;
    pmix_status_t rc = client_can_ask();

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL == monitor || (NULL == directives && 0 != ndirs)) {
        return PMIX_ERR_BAD_PARAM;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, (void *)monitor, 1, PMIX_INFO)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, &error, 1, PMIX_STATUS)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, (void *)directives, (int32_t)ndirs,
                                             PMIX_INFO))) {
        rc = client_request_infos(PROTOCOL_MONITOR, &req, directive_timeout(directives, ndirs),
                                  cbfunc, cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Process_monitor(const pmix_info_t *monitor, pmix_status_t error,
                                               const pmix_info_t directives[], size_t ndirs,
                                               pmix_info_t **results, size_t *nresults)
{
    client_results_t res;
    pmix_status_t rc = client_results_start(&res, results, nresults);

    return PMIX_SUCCESS != rc ? rc : client_wait_results(
        &res, PMIx_Process_monitor_nb(monitor, error, directives, ndirs, client_results_cb, &res),
        results, nresults);
}
