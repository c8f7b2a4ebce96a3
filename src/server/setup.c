/*
 * setup.c - the server calls that prepare a node for a job and move data
 * the library does not interpret: PMIx_server_setup_application,
 * _setup_local_support, _IOF_deliver, _collect_inventory,
 * _deliver_inventory, _register_resources, _deregister_resources.
 *
 * Design notes:
 *  - drover has no fabric or security plugins, so setting up an
 *    application produces no data and local support needs none; the
 *    callbacks still run (from the progress thread), since hosts such as
 *    Open MPI's daemons wait for them before launching.
 *  - Output delivered by the host goes to the clients and tools that
 *    asked for it; drover's clients do not pull I/O, so there is no one
 *    to deliver to and the data is consumed.
 *  - The inventory of a node is its hostname and its number of hardware
 *    threads (as PMIX_NUM_SLOTS).
 *  - Resources outside any job have no place in drover's store yet: those
 *    calls say so (PMIX_ERR_NOT_SUPPORTED).
 */
#include <stdlib.h>
#include <unistd.h>

#include "pmix.h"
#include "server.h"
#include "topology.h"

typedef struct callback_op {
    void *fn;
    void *cbdata;
} callback_op_t;

static pmix_status_t post_callback(void (*run)(void *), void *fn, void *cbdata)
{
    callback_op_t *op = malloc(sizeof(*op));
    pmix_status_t rc;

    if (!server.initialized) {
        free(op);
        return PMIX_ERR_INIT;
    }
    if (NULL == op) {
        return PMIX_ERR_NOMEM;
    }
    *op = (callback_op_t){.fn = fn, .cbdata = cbdata};
    if (PMIX_SUCCESS != (rc = server_post(run, op))) {
        free(op);
    }
    return rc;
}

static void run_op_cb(void *arg)
{
    callback_op_t *op = arg;
    ((pmix_op_cbfunc_t)op->fn)(PMIX_SUCCESS, op->cbdata);
    free(op);
}

/* Nothing to release: the setup data is empty. */
static void setup_data_done(pmix_status_t status, void *cbdata)
{
}

static void run_setup_cb(void *arg)
{
    callback_op_t *op = arg;
    ((pmix_setup_application_cbfunc_t)op->fn)(PMIX_SUCCESS, NULL, 0, op->cbdata, setup_data_done,
                                               NULL);
    free(op);
}

PMIX_EXPORT pmix_status_t PMIx_server_setup_application(const pmix_nspace_t nspace,
                                                        pmix_info_t info[], size_t ninfo,
                                                        pmix_setup_application_cbfunc_t cbfunc,
                                                        void *cbdata)
{
    if (NULL == nspace || NULL == cbfunc || (NULL == info && 0 != ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    return post_callback(run_setup_cb, (void *)cbfunc, cbdata);
}

/* A call that has nothing to do: completes through cbfunc, or at once. */
static pmix_status_t nothing_to_do(pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == cbfunc) {
        return PMIX_OPERATION_SUCCEEDED;
    }
    return post_callback(run_op_cb, (void *)cbfunc, cbdata);
}

PMIX_EXPORT pmix_status_t PMIx_server_setup_local_support(const pmix_nspace_t nspace,
                                                          pmix_info_t info[], size_t ninfo,
                                                          pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (NULL == nspace || (NULL == info && 0 != ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    return nothing_to_do(cbfunc, cbdata);
}

PMIX_EXPORT pmix_status_t PMIx_server_IOF_deliver(const pmix_proc_t *source,
                                                  pmix_iof_channel_t channel,
                                                  const pmix_byte_object_t *bo,
                                                  const pmix_info_t info[], size_t ninfo,
                                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (NULL == source || NULL == bo || (NULL == info && 0 != ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    return nothing_to_do(cbfunc, cbdata);
}

PMIX_EXPORT pmix_status_t PMIx_server_deliver_inventory(pmix_info_t info[], size_t ninfo,
                                                        pmix_info_t directives[], size_t ndirs,
                                                        pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if ((NULL == info && 0 != ninfo) || (NULL == directives && 0 != ndirs)) {
        return PMIX_ERR_BAD_PARAM;
    }
    return nothing_to_do(cbfunc, cbdata);
}

static void release_inventory(void *cbdata)
{
    pmix_info_t *info = cbdata;
    PMIX_INFO_FREE(info, 2);
}

static void run_inventory_cb(void *arg)
{
    callback_op_t *op = arg;
    pmix_info_cbfunc_t cbfunc = (pmix_info_cbfunc_t)op->fn;
    char host[256] = "";
    hwloc_topology_t topo;
    pmix_info_t *info;
    pmix_status_t rc = topology_get(&topo);

    PMIX_INFO_CREATE(info, 2);
    if (PMIX_SUCCESS != rc || NULL == info) {
        PMIX_INFO_FREE(info, 2);
        cbfunc(PMIX_SUCCESS != rc ? rc : PMIX_ERR_NOMEM, NULL, 0, op->cbdata, NULL, NULL);
        free(op);
        return;
    }
    gethostname(host, sizeof(host) - 1);
    uint32_t npus = (uint32_t)hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    PMIx_Info_load(&info[0], PMIX_HOSTNAME, host, PMIX_STRING);
    PMIx_Info_load(&info[1], PMIX_NUM_SLOTS, &npus, PMIX_UINT32);
    cbfunc(PMIX_SUCCESS, info, 2, op->cbdata, release_inventory, info);
    free(op);
}

PMIX_EXPORT pmix_status_t PMIx_server_collect_inventory(pmix_info_t directives[], size_t ndirs,
                                                        pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    if (NULL == cbfunc || (NULL == directives && 0 != ndirs)) {
        return PMIX_ERR_BAD_PARAM;
    }
    return post_callback(run_inventory_cb, (void *)cbfunc, cbdata);
}

PMIX_EXPORT pmix_status_t PMIx_server_register_resources(pmix_info_t info[], size_t ninfo,
                                                         pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}

PMIX_EXPORT pmix_status_t PMIx_server_deregister_resources(pmix_info_t info[], size_t ninfo,
                                                           pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_ERR_NOT_SUPPORTED;
}
