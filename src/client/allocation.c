/*
 * allocation.c - PMIx_Allocation_request and its _nb form: ask the host
 * (through the server) for resources, more time, or to give some back.
 * The host's answer (PMIX_ALLOC_ID, the nodes granted...) is handed back
 * as it is; a host without an allocate function answers
 * PMIX_ERR_NOT_SUPPORTED, and so does a singleton.
 */
#include "client.h"
#include "pmix.h"

PMIX_EXPORT pmix_status_t PMIx_Allocation_request_nb(pmix_alloc_directive_t directive,
                                                     pmix_info_t *info, size_t ninfo,
                                                     pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t req;
    pmix_status_t rc = client_can_ask();

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL == info && 0 != ninfo) {
        return PMIX_ERR_BAD_PARAM;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, &directive, 1, PMIX_ALLOC_DIRECTIVE)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, info, (int32_t)ninfo, PMIX_INFO))) {
        rc = client_request_infos(PROTOCOL_ALLOCATE, &req, directive_timeout(info, ninfo), cbfunc,
                                  cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Allocation_request(pmix_alloc_directive_t directive,
                                                  pmix_info_t *info, size_t ninfo,
                                                  pmix_info_t **results, size_t *nresults)
{
    client_results_t res;
    pmix_status_t rc = client_results_start(&res, results, nresults);

    return PMIX_SUCCESS != rc ? rc : client_wait_results(
        &res, PMIx_Allocation_request_nb(directive, info, ninfo, client_results_cb, &res),
        results, nresults);
}
