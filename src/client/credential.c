/*
 * credential.c - PMIx_Get_credential and PMIx_Validate_credential (and
 * their _nb forms).
 *
 * The server issues and checks credentials: through its host's security
 * service when the host has one, else with the library's own "native"
 * credentials (src/server/credential.c), which only that server can
 * check. A process hands its credential to another process, which asks
 * the server whether it is genuine and whose it is. In the server's own
 * process the calls go straight to the server library; a singleton has no
 * one to vouch for it.
 */
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "pmix.h"
#include "role.h"
#include "server_entry.h"

typedef struct cred_request {
    pmix_credential_cbfunc_t cbfunc;
    void *cbdata;
} cred_request_t;

/* GET_CREDENTIAL's reply: PMIX_BYTE_OBJECT credential, PMIX_INFO[]. */
static void issued(pmix_status_t status, pmix_data_buffer_t *reply, void *arg)
{
    cred_request_t *r = arg;
    pmix_byte_object_t cred = {.bytes = NULL, .size = 0};
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    int32_t n = 1;

    if (PMIX_SUCCESS == status && NULL != reply) {
        pmix_status_t rc = PMIx_Data_unpack(NULL, reply, &cred, &n, PMIX_BYTE_OBJECT);
        if (PMIX_SUCCESS == rc) {
            rc = protocol_unpack_array(reply, PMIX_INFO, (void **)&info, &ninfo);
        }
        status = rc;
    }
    if (NULL != r->cbfunc) {
        r->cbfunc(status, PMIX_SUCCESS == status ? &cred : NULL, info, ninfo, r->cbdata);
    }
    PMIX_BYTE_OBJECT_DESTRUCT(&cred);
    protocol_free_array(info, ninfo, PMIX_INFO);
    free(r);
}

static pmix_status_t check_client(const pmix_info_t *info, size_t ninfo)
{
    pmix_status_t rc = client_can_ask();
    if (PMIX_SUCCESS == rc && NULL == info && 0 != ninfo) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Get_credential_nb(const pmix_info_t info[], size_t ninfo,
                                                 pmix_credential_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t req;
    cred_request_t *r;
    pmix_status_t rc;

    if (ROLE_SERVER == role_current()) {
        if (NULL == cbfunc || (NULL == info && 0 != ninfo)) {
            return PMIX_ERR_BAD_PARAM;
        }
        return server_entry_get_credential(info, ninfo, cbfunc, cbdata);
    }
    if (PMIX_SUCCESS != (rc = check_client(info, ninfo))) {
        return rc;
    }
    if (NULL == (r = malloc(sizeof(*r)))) {
        return PMIX_ERR_NOMEM;
    }
    *r = (cred_request_t){.cbfunc = cbfunc, .cbdata = cbdata};
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    rc = PMIx_Data_pack(NULL, &req, (void *)info, (int32_t)ninfo, PMIX_INFO);
    if (PMIX_SUCCESS == rc) {
        rc = conn_request(PROTOCOL_GET_CREDENTIAL, &req, directive_timeout(info, ninfo), issued, r);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    if (PMIX_SUCCESS != rc) {
        free(r);
    }
    return rc;
}

typedef struct cred_wait {
    client_wait_t wait;
    pmix_byte_object_t *credential;
} cred_wait_t;

static void keep_credential(pmix_status_t status, pmix_byte_object_t *credential,
                            pmix_info_t info[], size_t ninfo, void *cbdata)
{
    cred_wait_t *w = cbdata;
    if (PMIX_SUCCESS == status && NULL != credential && credential->size > 0) {
        w->credential->bytes = malloc(credential->size);
        if (NULL == w->credential->bytes) {
            status = PMIX_ERR_NOMEM;
        } else {
            memcpy(w->credential->bytes, credential->bytes, credential->size);
            w->credential->size = credential->size;
        }
    }
    client_wait_done(&w->wait, status);
}

PMIX_EXPORT pmix_status_t PMIx_Get_credential(const pmix_info_t info[], size_t ninfo,
                                              pmix_byte_object_t *credential)
{
    cred_wait_t w = {.credential = credential};

    if (NULL == credential) {
        return PMIX_ERR_BAD_PARAM;
    }
    credential->bytes = NULL;
    credential->size = 0;
    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&w.wait);
    pmix_status_t rc = client_wait_started(
        &w.wait, PMIx_Get_credential_nb(info, ninfo, keep_credential, &w));
    if (PMIX_SUCCESS != rc) {
        PMIX_BYTE_OBJECT_DESTRUCT(credential);
    }
    return rc;
}

typedef struct validation {
    pmix_validation_cbfunc_t cbfunc;
    void *cbdata;
} validation_t;

/* Adapts the info-array reply to a pmix_validation_cbfunc_t. */
static void validated(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                      pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    validation_t *v = cbdata;
    if (NULL != v->cbfunc) {
        v->cbfunc(status, info, ninfo, v->cbdata);
    }
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    free(v);
}

PMIX_EXPORT pmix_status_t PMIx_Validate_credential_nb(const pmix_byte_object_t *cred,
                                                      const pmix_info_t info[], size_t ninfo,
                                                      pmix_validation_cbfunc_t cbfunc,
                                                      void *cbdata)
{
    pmix_data_buffer_t req;
    validation_t *v;
    pmix_status_t rc;

    if (NULL == cred || (NULL == cred->bytes && 0 != cred->size)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (ROLE_SERVER == role_current()) {
        if (NULL == cbfunc || (NULL == info && 0 != ninfo)) {
            return PMIX_ERR_BAD_PARAM;
        }
        return server_entry_validate_credential(cred, info, ninfo, cbfunc, cbdata);
    }
    if (PMIX_SUCCESS != (rc = check_client(info, ninfo))) {
        return rc;
    }
    if (NULL == (v = malloc(sizeof(*v)))) {
        return PMIX_ERR_NOMEM;
    }
    *v = (validation_t){.cbfunc = cbfunc, .cbdata = cbdata};
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, (void *)cred, 1, PMIX_BYTE_OBJECT)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, (void *)info, (int32_t)ninfo,
                                             PMIX_INFO))) {
        rc = client_request_infos(PROTOCOL_VALIDATE_CREDENTIAL, &req,
                                  directive_timeout(info, ninfo), validated, v);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    if (PMIX_SUCCESS != rc) {
        free(v);
    }
    return rc;
}

static void keep_validation(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata)
{
    client_results_cb(status, info, ninfo, cbdata, NULL, NULL);
}

PMIX_EXPORT pmix_status_t PMIx_Validate_credential(const pmix_byte_object_t *cred,
                                                   const pmix_info_t info[], size_t ninfo,
                                                   pmix_info_t **results, size_t *nresults)
{
    client_results_t res;
    pmix_status_t rc = client_results_start(&res, results, nresults);

    return PMIX_SUCCESS != rc ? rc : client_wait_results(
        &res, PMIx_Validate_credential_nb(cred, info, ninfo, keep_validation, &res), results,
        nresults);
}
