/*
 * query.c - PMIx_Query_info and PMIx_Query_info_nb.
 *
 * Queries go to the server, which answers what the library knows itself
 * (its URI, attribute support, process sets) and asks its host for the
 * rest (namespaces, job status, process tables...). A singleton has no
 * one to ask.
 */
#include "client.h"
#include "pmix.h"

PMIX_EXPORT pmix_status_t PMIx_Query_info_nb(pmix_query_t queries[], size_t nqueries,
                                             pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t req;
    pmix_status_t rc;

    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == queries || 0 == nqueries) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 0; i < nqueries; i++) {
        if (NULL == queries[i].keys || NULL == queries[i].keys[0]) {
            return PMIX_ERR_BAD_PARAM;
        }
    }
    if (client.singleton) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    rc = PMIx_Data_pack(NULL, &req, queries, (int32_t)nqueries, PMIX_QUERY);
    if (PMIX_SUCCESS == rc) {
        rc = client_request_infos(PROTOCOL_QUERY, &req, 0, cbfunc, cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Query_info(pmix_query_t queries[], size_t nqueries,
                                          pmix_info_t **results, size_t *nresults)
{
    client_results_t res = {0};

    if (NULL == results || NULL == nresults) {
        return PMIX_ERR_BAD_PARAM;
    }
    *results = NULL;
    *nresults = 0;
    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&res.wait);
    return client_wait_results(&res, PMIx_Query_info_nb(queries, nqueries, client_results_cb, &res),
                               results, nresults);
}
