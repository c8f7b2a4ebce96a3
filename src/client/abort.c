/*
 * abort.c - PMIx_Abort.
 *
 * The server's host ends the processes named (the whole namespace when
 * none are) with status; the call returns once the host has acted, which
 * may be never for the caller itself. A singleton has no one to ask: it
 * prints the message and returns, and the caller exits.
 */
#include <stdio.h>

#include "client.h"
#include "pmix.h"

PMIX_EXPORT pmix_status_t PMIx_Abort(int status, const char msg[], pmix_proc_t procs[],
                                     size_t nprocs)
{
    pmix_data_buffer_t req;
    pmix_status_t rc;
    const char *text = NULL == msg ? "" : msg;

    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == procs && 0 != nprocs) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (client.singleton) {
        fprintf(stderr, "%s\n", text);
        return PMIX_SUCCESS;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&req);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, &status, 1, PMIX_STATUS)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, &text, 1, PMIX_STRING)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &req, procs, (int32_t)nprocs, PMIX_PROC))) {
        rc = conn_call(PROTOCOL_ABORT, &req, 0, NULL);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&req);
    return rc;
}
