/*
 * query.c - PMIx_Query_info and PMIx_Query_info_nb.
 *
 * Design notes:
 *  - The library answers the PMIx Standard ABI versions itself
 *    (PMIX_QUERY_STABLE_ABI_VERSION, PMIX_QUERY_PROVISIONAL_ABI_VERSION),
 *    as OpenPMIx 4.2 does: "0.0" both, since no standard ABI exists yet.
 *    The blocking form answers them even before PMIx_Init when they are
 *    all that is asked; a singleton answers them too.
 *  - Every other key goes to the server, which answers what the library
 *    knows itself (its URI, attribute support, process sets) and asks its
 *    host for the rest (namespaces, job status, process tables...). The
 *    ABI keys are taken out of what is sent and their answers follow the
 *    server's, as in OpenPMIx. A singleton has no one to ask.
 */
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "pmix.h"

/* OpenPMIx 4.2's PMIX_STD_ABI_STABLE_VERSION and _PROVISIONAL_VERSION. */
#define ABI_VERSION "0.0"

static bool answered_here(const char *key)
{
    return 0 == strcmp(key, PMIX_QUERY_STABLE_ABI_VERSION) ||
           0 == strcmp(key, PMIX_QUERY_PROVISIONAL_ABI_VERSION);
}

/* Check the queries; count their keys and those answered here. */
static pmix_status_t count_keys(const pmix_query_t *queries, size_t nqueries, size_t *nkeys,
                                size_t *nhere)
{
    *nkeys = *nhere = 0;
    if (NULL == queries || 0 == nqueries) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 0; i < nqueries; i++) {
        if (NULL == queries[i].keys || NULL == queries[i].keys[0]) {
            return PMIX_ERR_BAD_PARAM;
        }
        for (size_t k = 0; NULL != queries[i].keys[k]; k++) {
            (*nkeys)++;
            *nhere += answered_here(queries[i].keys[k]);
        }
    }
    return PMIX_SUCCESS;
}

/* The answers to the keys answered here, in order (*info: PMIX_INFO_FREE,
 * nhere of them). */
static pmix_status_t answer_here(const pmix_query_t *queries, size_t nqueries, size_t nhere,
                                 pmix_info_t **info)
{
    size_t n = 0;

    PMIX_INFO_CREATE(*info, nhere);
    if (NULL == *info) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < nqueries; i++) {
        for (size_t k = 0; NULL != queries[i].keys[k]; k++) {
            if (answered_here(queries[i].keys[k])) {
                PMIx_Info_load(&(*info)[n++], queries[i].keys[k], ABI_VERSION, PMIX_STRING);
            }
        }
    }
    return PMIX_SUCCESS;
}

/* Pack the queries without the keys answered here (and without the
 * queries left empty). */
static pmix_status_t pack_the_rest(pmix_data_buffer_t *req, const pmix_query_t *queries,
                                   size_t nqueries)
{
    pmix_query_t *rest = calloc(nqueries, sizeof(*rest));
    size_t n = 0;
    pmix_status_t rc = NULL == rest ? PMIX_ERR_NOMEM : PMIX_SUCCESS;

    for (size_t i = 0; PMIX_SUCCESS == rc && i < nqueries; i++) {
        size_t nkeys = 0, k = 0;
        while (NULL != queries[i].keys[nkeys]) {
            nkeys++;
        }
        char **keys = calloc(nkeys + 1, sizeof(*keys));
        if (NULL == keys) {
            rc = PMIX_ERR_NOMEM;
            break;
        }
        for (size_t j = 0; j < nkeys; j++) {
            if (!answered_here(queries[i].keys[j])) {
                keys[k++] = queries[i].keys[j]; /* borrowed */
            }
        }
        if (0 == k) {
            free(keys);
            continue;
        }
        rest[n] = queries[i];
        rest[n++].keys = keys;
    }
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Data_pack(NULL, req, rest, (int32_t)n, PMIX_QUERY);
    }
    for (size_t i = 0; i < n; i++) {
        free(rest[i].keys);
    }
    free(rest);
    return rc;
}

typedef struct query_op {
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
    pmix_status_t status;        /* of an answer made here */
    pmix_info_t *here;           /* the answers made here */
    size_t nhere;
    pmix_info_t *all;            /* what the caller gets, until released */
    size_t nall;
} query_op_t;

static void release_op(void *cbdata)
{
    query_op_t *op = cbdata;
    PMIX_INFO_FREE(op->here, op->nhere);
    PMIX_INFO_FREE(op->all, op->nall);
    free(op);
}

/* Everything was answered here: report from the progress thread. */
static void report_here(void *arg)
{
    query_op_t *op = arg;
    op->cbfunc(op->status, op->here, op->nhere, op->cbdata, release_op, op);
}

/* The server's answers, then those made here. */
static void server_answered(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                            pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    query_op_t *op = cbdata;
    size_t n = 0;

    if (NULL == info) {
        ninfo = 0;
    }
    if (0 < ninfo + op->nhere) {
        PMIX_INFO_CREATE(op->all, ninfo + op->nhere);
    }
    if (0 < ninfo + op->nhere && NULL == op->all) {
        status = PMIX_ERR_NOMEM;
    } else {
        op->nall = ninfo + op->nhere;
        for (size_t i = 0; i < ninfo; i++) {
            PMIx_Info_xfer(&op->all[n++], &info[i]);
        }
        for (size_t i = 0; i < op->nhere; i++) {
            PMIx_Info_xfer(&op->all[n++], &op->here[i]);
        }
        if (0 < op->nhere && PMIX_SUCCESS != status && PMIX_ERR_PARTIAL_SUCCESS != status) {
            /* What was answered here still stands. */
            status = PMIX_ERR_PARTIAL_SUCCESS;
        }
    }
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    if (NULL == op->cbfunc) {
        release_op(op);
        return;
    }
    op->cbfunc(status, op->all, op->nall, op->cbdata, release_op, op);
}

PMIX_EXPORT pmix_status_t PMIx_Query_info_nb(pmix_query_t queries[], size_t nqueries,
                                             pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t req;
    query_op_t *op;
    size_t nkeys, nhere;
    pmix_status_t rc;

    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if (PMIX_SUCCESS != (rc = count_keys(queries, nqueries, &nkeys, &nhere))) {
        return rc;
    }
    if (client.singleton && nhere < nkeys) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (NULL == (op = calloc(1, sizeof(*op)))) {
        return PMIX_ERR_NOMEM;
    }
    *op = (query_op_t){.cbfunc = cbfunc, .cbdata = cbdata, .nhere = nhere};
    if (nhere > 0 && PMIX_SUCCESS != (rc = answer_here(queries, nqueries, nhere, &op->here))) {
        free(op);
        return rc;
    }
    if (nhere == nkeys) {
        /* Nobody waiting (NULL cbfunc) means nothing to do. */
        if (NULL == cbfunc || PMIX_SUCCESS != (rc = conn_post(report_here, op))) {
            release_op(op);
        }
        return rc;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    rc = pack_the_rest(&req, queries, nqueries);
    if (PMIX_SUCCESS == rc) {
        rc = client_request_infos(PROTOCOL_QUERY, &req, 0, server_answered, op);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    if (PMIX_SUCCESS != rc) {
        release_op(op);
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Query_info(pmix_query_t queries[], size_t nqueries,
                                          pmix_info_t **results, size_t *nresults)
{
    client_results_t res = {0};
    size_t nkeys, nhere;
    pmix_status_t rc;

    if (NULL == results || NULL == nresults) {
        return PMIX_ERR_BAD_PARAM;
    }
    *results = NULL;
    *nresults = 0;
    if (!client_initialized()) {
        /* Before PMIx_Init only what is answered here can be asked. */
        rc = count_keys(queries, nqueries, &nkeys, &nhere);
        if (PMIX_SUCCESS != rc || nhere < nkeys) {
            return PMIX_SUCCESS != rc ? rc : PMIX_ERR_INIT;
        }
        rc = answer_here(queries, nqueries, nhere, results);
        *nresults = PMIX_SUCCESS == rc ? nhere : 0;
        return rc;
    }
    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&res.wait);
    return client_wait_results(&res, PMIx_Query_info_nb(queries, nqueries, client_results_cb, &res),
                               results, nresults);
}
