/*
 * host_get.c - PMIx_Get made by the host, for what the library holds
 * rather than what the host stored itself: the jobs it registered and the
 * data their processes committed (hosts built for OpenPMIx read job
 * information back this way), and the server's own URI (PMIX_SERVER_URI
 * of the server's identity), as OpenPMIx servers keep it.
 */
#include <string.h>

#include "pmix.h"
#include "server.h"
#include "server_entry.h"

typedef struct host_get {
    const pmix_proc_t *proc;
    const char *key;
    const store_scope_t *scope;
    pmix_value_t *result;
} host_get_t;

static pmix_status_t look_up(void *arg)
{
    host_get_t *g = arg;
    if (0 == strcmp(g->key, PMIX_SERVER_URI) && PMIX_CHECK_PROCID(g->proc, &server.me)) {
        pmix_value_t uri = {.type = PMIX_STRING, .data.string = server.uri};
        return PMIx_Data_copy((void **)&g->result, &uri, PMIX_VALUE);
    }
    store_ns_t *ns = store_ns(&server.data, g->proc->nspace, false);
    const pmix_value_t *v =
        NULL == ns ? NULL : store_lookup(ns, g->proc->rank, g->key, g->scope);
    return NULL == v ? PMIX_ERR_NOT_FOUND
                     : PMIx_Data_copy((void **)&g->result, (void *)v, PMIX_VALUE);
}

pmix_status_t server_entry_get(const pmix_proc_t *proc, const char *key,
                               const store_scope_t *scope, pmix_value_t **value)
{
    host_get_t g = {.proc = proc, .key = key, .scope = scope, .result = NULL};
    pmix_status_t rc = server.initialized ? server_run_sync(look_up, &g) : PMIX_ERR_INIT;
    *value = g.result;
    return rc;
}
