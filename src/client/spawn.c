/*
 * spawn.c - PMIx_Spawn and PMIx_Spawn_nb: the host launches the
 * applications as a new namespace and answers with its name once every
 * process has started.
 *
 * An app that names no working directory (no cwd, no PMIX_WDIR in its
 * info or the job's) is sent with the caller's, as OpenPMIx does: the
 * children start where their parent is, not where the host happens to be.
 * The caller's apps are not changed.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"
#include "pmix.h"

typedef struct spawn_op {
    pmix_spawn_cbfunc_t cbfunc;
    void *cbdata;
} spawn_op_t;

static void answered(pmix_status_t status, pmix_data_buffer_t *reply, void *arg)
{
    spawn_op_t *op = arg;
    char *nspace = NULL;
    if (NULL != reply && PMIX_SUCCESS == status) {
        int32_t n = 1;
        status = PMIx_Data_unpack(NULL, reply, &nspace, &n, PMIX_STRING);
        if (PMIX_SUCCESS == status && NULL == nspace) {
            status = PMIX_ERR_UNPACK_FAILURE;
        }
    }
    if (NULL != op->cbfunc) {
        op->cbfunc(status, nspace, op->cbdata);
    }
    free(nspace);
    free(op);
}

static bool names_wdir(const pmix_info_t *info, size_t ninfo)
{
    for (size_t i = 0; NULL != info && i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_WDIR)) {
            return true;
        }
    }
    return false;
}

/* Pack the apps, each without a directory of its own given the caller's
 * (when it has one: otherwise the host decides). */
static pmix_status_t pack_apps(pmix_data_buffer_t *req, const pmix_info_t *job_info,
                               size_t ninfo, const pmix_app_t *apps, size_t napps)
{
    char cwd[PATH_MAX];
    bool have_cwd = !names_wdir(job_info, ninfo) && NULL != getcwd(cwd, sizeof(cwd));
    pmix_app_t *sent = malloc(napps * sizeof(*sent));
    pmix_status_t rc;

    if (NULL == sent) {
        return PMIX_ERR_NOMEM;
    }
    /* Shallow copies: only the pack reads them. */
    memcpy(sent, apps, napps * sizeof(*sent));
    for (size_t i = 0; have_cwd && i < napps; i++) {
        if ((NULL == sent[i].cwd || '\0' == sent[i].cwd[0]) &&
            !names_wdir(sent[i].info, sent[i].ninfo)) {
            sent[i].cwd = cwd;
        }
    }
    rc = PMIx_Data_pack(NULL, req, sent, (int32_t)napps, PMIX_APP);
    free(sent);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Spawn_nb(const pmix_info_t job_info[], size_t ninfo,
                                        const pmix_app_t apps[], size_t napps,
                                        pmix_spawn_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t req;
    spawn_op_t *op;
    pmix_status_t rc;

    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == apps || 0 == napps || (NULL == job_info && 0 != ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 0; i < napps; i++) {
        if (NULL == apps[i].cmd || apps[i].maxprocs < 1) {
            return PMIX_ERR_BAD_PARAM;
        }
    }
    if (client.singleton) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (NULL == (op = malloc(sizeof(*op)))) {
        return PMIX_ERR_NOMEM;
    }
    *op = (spawn_op_t){.cbfunc = cbfunc, .cbdata = cbdata};
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, (void *)job_info, (int32_t)ninfo,
                                             PMIX_INFO)) &&
        PMIX_SUCCESS == (rc = pack_apps(&req, job_info, ninfo, apps, napps))) {
        rc = conn_request(PROTOCOL_SPAWN, &req, directive_timeout(job_info, ninfo), answered, op);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    if (PMIX_SUCCESS != rc) {
        free(op);
    }
    return rc;
}

typedef struct spawn_wait {
    client_wait_t wait;
    char *nspace;                /* the caller's pmix_nspace_t, or NULL */
} spawn_wait_t;

static void spawned(pmix_status_t status, char nspace[], void *cbdata)
{
    spawn_wait_t *w = cbdata;
    if (PMIX_SUCCESS == status && NULL != w->nspace) {
        PMIX_LOAD_NSPACE(w->nspace, nspace);
    }
    client_wait_done(&w->wait, status);
}

PMIX_EXPORT pmix_status_t PMIx_Spawn(const pmix_info_t job_info[], size_t ninfo,
                                     const pmix_app_t apps[], size_t napps, pmix_nspace_t nspace)
{
    spawn_wait_t w = {.nspace = nspace};

    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&w.wait);
    return client_wait_started(&w.wait, PMIx_Spawn_nb(job_info, ninfo, apps, napps, spawned, &w));
}
