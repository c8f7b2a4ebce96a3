/*
 * connect.c - PMIx_Connect and PMIx_Disconnect (and their _nb forms):
 * collectives over the processes named, possibly of several namespaces.
 * Once connected, a process's gets of another namespace fetch that
 * namespace's registration from the server the first time (get.c).
 */
#include "client.h"
#include "pmix.h"

static pmix_status_t connect_like(uint16_t command, const pmix_proc_t procs[], size_t nprocs,
                                  const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                  void *cbdata)
{
    pmix_data_buffer_t req;
    pmix_status_t rc;

    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == procs || 0 == nprocs || (NULL == info && 0 != ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (client.singleton) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, (void *)procs, (int32_t)nprocs,
                                             PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, (void *)info, (int32_t)ninfo,
                                             PMIX_INFO))) {
        rc = client_request_op(command, &req, directive_timeout(info, ninfo), cbfunc, cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Connect_nb(const pmix_proc_t procs[], size_t nprocs,
                                          const pmix_info_t info[], size_t ninfo,
                                          pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return connect_like(PROTOCOL_CONNECT, procs, nprocs, info, ninfo, cbfunc, cbdata);
}

PMIX_EXPORT pmix_status_t PMIx_Disconnect_nb(const pmix_proc_t procs[], size_t nprocs,
                                             const pmix_info_t info[], size_t ninfo,
                                             pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return connect_like(PROTOCOL_DISCONNECT, procs, nprocs, info, ninfo, cbfunc, cbdata);
}

static pmix_status_t wait_for(uint16_t command, const pmix_proc_t procs[], size_t nprocs,
                              const pmix_info_t info[], size_t ninfo)
{
    client_wait_t wait;

    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&wait);
    return client_wait_started(
        &wait, connect_like(command, procs, nprocs, info, ninfo, client_wait_op_cb, &wait));
}

PMIX_EXPORT pmix_status_t PMIx_Connect(const pmix_proc_t procs[], size_t nprocs,
                                       const pmix_info_t info[], size_t ninfo)
{
    return wait_for(PROTOCOL_CONNECT, procs, nprocs, info, ninfo);
}

PMIX_EXPORT pmix_status_t PMIx_Disconnect(const pmix_proc_t procs[], size_t nprocs,
                                          const pmix_info_t info[], size_t ninfo)
{
    return wait_for(PROTOCOL_DISCONNECT, procs, nprocs, info, ninfo);
}
