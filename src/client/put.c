/*
 * put.c - PMIx_Put, PMIx_Commit and PMIx_Store_internal.
 *
 * Design notes:
 *  - A put is visible to the process's own PMIx_Get at once and waits in
 *    the pending map of its scope until PMIx_Commit sends all of them in
 *    one COMMIT message; putting a key again replaces the waiting value.
 *  - PMIX_INTERNAL data never leaves the process.
 *  - A key the standard defines must carry the type the standard gives it
 *    (the attribute registry knows): a mistyped put is refused with
 *    PMIX_ERR_TYPE_MISMATCH rather than confusing its readers later.
 */
#include <stdlib.h>
#include <string.h>

#include "attributes.h"
#include "client.h"
#include "pmix.h"

static int scope_slot(pmix_scope_t scope)
{
    switch (scope) {
    case PMIX_LOCAL:
        return 0;
    case PMIX_REMOTE:
        return 1;
    case PMIX_GLOBAL:
        return 2;
    default:
        return -1;
    }
}

static pmix_status_t check_key_value(const char *key, const pmix_value_t *val)
{
    if (NULL == key || NULL == val || '\0' == key[0] || strnlen(key, PMIX_MAX_KEYLEN + 1) >
                                                             PMIX_MAX_KEYLEN) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = attributes_check_type(key, val->type);
    return PMIX_ERR_NOT_FOUND == rc ? PMIX_SUCCESS : rc;
}

PMIX_EXPORT pmix_status_t PMIx_Put(pmix_scope_t scope, const char key[], pmix_value_t *val)
{
    int slot = scope_slot(scope);
    pmix_status_t rc;

    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if ((slot < 0 && PMIX_INTERNAL != scope) ||
        PMIX_SUCCESS != (rc = check_key_value(key, val))) {
        return slot < 0 && PMIX_INTERNAL != scope ? PMIX_ERR_BAD_PARAM : rc;
    }
    pthread_mutex_lock(&client.lock);
    store_ns_t *ns = store_ns(&client.store, client.me.nspace, true);
    hashmap_t *mine = NULL == ns ? NULL : store_keys(ns, STORE_PROC, client.me.rank, true);
    rc = NULL == mine ? PMIX_ERR_NOMEM : store_set(mine, key, val, 0);
    if (PMIX_SUCCESS == rc && slot >= 0) {
        rc = store_set(&client.pending[slot], key, val, 0);
    }
    pthread_mutex_unlock(&client.lock);
    return rc;
}

/* Pack the pending puts of one scope as a PMIX_INFO group. */
static pmix_status_t pack_pending(pmix_data_buffer_t *buf, const hashmap_t *pending)
{
    pmix_info_t *info;
    size_t ninfo;
    pmix_status_t rc = store_export(pending, 0, &info, &ninfo);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Data_pack(NULL, buf, info, (int32_t)ninfo, PMIX_INFO);
        PMIX_INFO_FREE(info, ninfo);
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Commit(void)
{
    pmix_data_buffer_t msg;
    pmix_status_t rc = PMIX_SUCCESS;

    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&msg);
    pthread_mutex_lock(&client.lock);
    if (client.singleton) {
        /* Nobody to send to: the data is already visible locally. */
        for (int s = 0; s < 3; s++) {
            hashmap_clear(&client.pending[s], store_value_free);
        }
        pthread_mutex_unlock(&client.lock);
        return PMIX_SUCCESS;
    }
    for (int s = 0; s < 3 && PMIX_SUCCESS == rc; s++) {
        rc = pack_pending(&msg, &client.pending[s]);
    }
    if (PMIX_SUCCESS == rc) {
        /* Sent under the lock, so two commits cannot overtake each other
         * and the count always matches what was sent. */
        rc = conn_send(PROTOCOL_COMMIT, &msg);
    }
    if (PMIX_SUCCESS == rc) {
        client.commits++;
    }
    if (PMIX_SUCCESS == rc) {
        for (int s = 0; s < 3; s++) {
            hashmap_clear(&client.pending[s], store_value_free);
        }
    }
    pthread_mutex_unlock(&client.lock);
    PMIX_DATA_BUFFER_DESTRUCT(&msg);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Store_internal(const pmix_proc_t *proc, const char key[],
                                              pmix_value_t *val)
{
    pmix_status_t rc;

    if (!client_local_ready()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == proc || PMIX_SUCCESS != (rc = check_key_value(key, val))) {
        return NULL == proc ? PMIX_ERR_BAD_PARAM : rc;
    }
    pthread_mutex_lock(&client.lock);
    store_ns_t *ns = store_ns(&client.store, proc->nspace, true);
    hashmap_t *keys = NULL == ns ? NULL : store_keys(ns, STORE_PROC, proc->rank, true);
    rc = NULL == keys ? PMIX_ERR_NOMEM : store_set(keys, key, val, 0);
    pthread_mutex_unlock(&client.lock);
    return rc;
}

pmix_status_t client_pack_commits(pmix_data_buffer_t *msg)
{
    pthread_mutex_lock(&client.lock);
    uint32_t commits = client.commits;
    pthread_mutex_unlock(&client.lock);
    return PMIx_Data_pack(NULL, msg, &commits, 1, PMIX_UINT32);
}
