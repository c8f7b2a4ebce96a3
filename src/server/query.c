/*
 * query.c - QUERY: PMIx_Query_info. The library answers the keys it knows
 * itself (its URI, process sets, groups, attribute support) and relays the
 * rest to the host's query function, one reply holding both.
 */
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "server.h"

/* The server's own URI. */
static bool uri_query(const char *key, const pmix_query_t *q, pmix_info_t *result,
                      pmix_status_t *rc)
{
    if (0 != strcmp(key, PMIX_SERVER_URI)) {
        return false;
    }
    *rc = PMIx_Info_load(result, key, server.uri, PMIX_STRING);
    return true;
}

/* What the library answers itself, one function per subject. Each says
 * whether a key is its own and, if so, answers it. */
static bool (*const local_answers[])(const char *key, const pmix_query_t *q,
                                     pmix_info_t *result, pmix_status_t *rc) = {
    uri_query, pset_query, group_query, attrs_query,
};

typedef struct local_results {
    pmix_info_t *info;
    size_t ninfo;
    size_t foreign;              /* keys the library does not know */
    size_t failed;               /* keys it knows but could not answer */
} local_results_t;

static void answer_locally(const pmix_query_t *queries, size_t nqueries, local_results_t *out)
{
    for (size_t i = 0; i < nqueries; i++) {
        for (size_t k = 0; NULL != queries[i].keys && NULL != queries[i].keys[k]; k++) {
            pmix_info_t result;
            pmix_status_t rc = PMIX_ERR_NOT_FOUND;
            bool own = false;
            PMIX_INFO_CONSTRUCT(&result);
            for (size_t f = 0; !own && f < sizeof(local_answers) / sizeof(*local_answers); f++) {
                own = local_answers[f](queries[i].keys[k], &queries[i], &result, &rc);
            }
            pmix_info_t *grown = own && PMIX_SUCCESS == rc
                                     ? realloc(out->info, (out->ninfo + 1) * sizeof(*grown))
                                     : NULL;
            if (NULL != grown) {
                out->info = grown;
                grown[out->ninfo++] = result;
                continue;
            }
            PMIX_INFO_DESTRUCT(&result);
            out->foreign += !own;
            out->failed += own;
        }
    }
}

/* The status of a query: complete, partial, or nothing found. */
static pmix_status_t query_outcome(size_t answered, size_t missing, pmix_status_t none)
{
    return 0 == missing ? PMIX_SUCCESS : 0 < answered ? PMIX_ERR_PARTIAL_SUCCESS : none;
}

/* The host answered the keys the library could not: its results follow
 * the library's own (held by r, with the count of failed keys in
 * r->extra) in one PMIX_INFO[] group. */
static void query_answered(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                           pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    relay_t *r = cbdata;
    const local_results_t *mine = r->extra;
    if (PMIX_QUERY_PARTIAL_SUCCESS == status) {
        /* The query-specific code hosts may use: the same outcome. */
        status = PMIX_ERR_PARTIAL_SUCCESS;
    }
    bool host_ok = PMIX_SUCCESS == status || PMIX_ERR_PARTIAL_SUCCESS == status;
    size_t nhost = host_ok ? ninfo : 0, n = mine->ninfo + nhost;
    pmix_info_t *all = 0 == n ? NULL : malloc(n * sizeof(*all));

    if (0 < n && NULL == all) {
        status = PMIX_ERR_NOMEM;
    } else {
        /* Shallow copies, only read by the pack. */
        if (mine->ninfo > 0) {
            memcpy(all, mine->info, mine->ninfo * sizeof(*all));
        }
        if (nhost > 0) {
            memcpy(all + mine->ninfo, info, nhost * sizeof(*all));
        }
        pmix_status_t rc = PMIx_Data_pack(NULL, &r->body, all, (int32_t)n, PMIX_INFO);
        if (PMIX_SUCCESS != rc) {
            status = rc;
        } else if (PMIX_SUCCESS == status) {
            status = query_outcome(n, mine->failed, PMIX_ERR_NOT_FOUND);
        } else if (!host_ok) {
            status = query_outcome(n, 1, status);
        }
    }
    free(all);
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    relay_answered(r, status);
}

/* QUERY: PMIX_QUERY[] queries; reply PMIX_INFO[] results. */
void query_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_QUERY);
    pmix_query_t *queries;
    size_t nqueries;
    local_results_t *mine;

    if (NULL == r || !relay_unpack(r, payload, PMIX_QUERY, (void **)&queries, &nqueries)) {
        return;
    }
    if (0 == nqueries) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    if (NULL == (mine = r->extra = calloc(1, sizeof(*mine)))) {
        relay_finish(r, PMIX_ERR_NOMEM);
        return;
    }
    answer_locally(queries, nqueries, mine);
    relay_hold(r, mine->info, mine->ninfo, PMIX_INFO);
    if (0 == mine->foreign || NULL == server.host.query) {
        pmix_status_t rc = PMIx_Data_pack(NULL, &r->body, mine->info, (int32_t)mine->ninfo,
                                          PMIX_INFO);
        relay_finish(r, PMIX_SUCCESS != rc ? rc
                                           : query_outcome(mine->ninfo,
                                                           mine->foreign + mine->failed,
                                                           0 < mine->foreign
                                                               ? PMIX_ERR_NOT_SUPPORTED
                                                               : PMIX_ERR_NOT_FOUND));
        return;
    }
    relay_called(r, server.host.query(&peer->proc, queries, nqueries, query_answered, r));
}
