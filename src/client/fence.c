/*
 * fence.c - PMIx_Fence and PMIx_Fence_nb.
 *
 * Design notes:
 *  - The fence is one FENCE request; the server answers when every
 *    participant has arrived, with PMIX_COLLECT_DATA carrying all of
 *    their committed data, which goes into the local store before the
 *    caller is released: the gets that follow are local.
 *  - A singleton's fence over itself completes at once.
 */
#include <stdlib.h>

#include "client.h"
#include "pmix.h"

typedef struct fence_op {
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
    pmix_status_t status;
} fence_op_t;

/* Report to the caller, if one waits, and forget op. */
static void finish(fence_op_t *op, pmix_status_t status)
{
    if (NULL != op->cbfunc) {
        op->cbfunc(status, op->cbdata);
    }
    free(op);
}

static void answered(pmix_status_t status, pmix_data_buffer_t *reply, void *arg)
{
    fence_op_t *op = arg;
    if (PMIX_SUCCESS == status && NULL != reply && reply->unpack_ptr < reply->pack_ptr) {
        status = client_absorb_procdata(reply);
    }
    finish(op, status);
}

static void singleton_done(void *arg)
{
    fence_op_t *op = arg;
    finish(op, op->status);
}

/* A singleton can only fence with itself. */
static pmix_status_t singleton_check(const pmix_proc_t procs[], size_t nprocs)
{
    for (size_t i = 0; i < nprocs; i++) {
        if (!PMIX_CHECK_NSPACE(procs[i].nspace, client.me.nspace) ||
            (PMIX_RANK_WILDCARD != procs[i].rank && client.me.rank != procs[i].rank)) {
            return PMIX_ERR_BAD_PARAM;
        }
    }
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Fence_nb(const pmix_proc_t procs[], size_t nprocs,
                                        const pmix_info_t info[], size_t ninfo,
                                        pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t msg;
    fence_op_t *op;
    pmix_status_t rc;

    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if ((NULL == procs && 0 != nprocs) || (NULL == info && 0 != ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (op = calloc(1, sizeof(*op)))) {
        return PMIX_ERR_NOMEM;
    }
    op->cbfunc = cbfunc;
    op->cbdata = cbdata;
    if (client.singleton) {
        if (PMIX_SUCCESS != (rc = singleton_check(procs, nprocs)) ||
            PMIX_SUCCESS != (rc = conn_post(singleton_done, op))) {
            free(op);
        }
        return rc;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&msg);
    if (PMIX_SUCCESS == (rc = client_pack_commits(&msg)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)procs, (int32_t)nprocs,
                                             PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)info, (int32_t)ninfo,
                                             PMIX_INFO))) {
        rc = conn_request(PROTOCOL_FENCE, &msg, directive_timeout(info, ninfo), answered, op);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&msg);
    if (PMIX_SUCCESS != rc) {
        free(op);
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Fence(const pmix_proc_t procs[], size_t nprocs,
                                     const pmix_info_t info[], size_t ninfo)
{
    client_wait_t wait;

    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&wait);
    return client_wait_started(
        &wait, PMIx_Fence_nb(procs, nprocs, info, ninfo, client_wait_op_cb, &wait));
}
