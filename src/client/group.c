/*
 * group.c - process groups: PMIx_Group_construct, _destruct, _invite,
 * _join and _leave, blocking and _nb.
 *
 * Design notes:
 *  - The server does the work (src/server/group.c, invite.c): construct
 *    and destruct are collectives over the members; an invitation is
 *    answered by the invited processes' joins. Every member of a new
 *    group gets the same results: PMIX_GROUP_ID, PMIX_GROUP_MEMBERSHIP
 *    and, when asked for (PMIX_GROUP_ASSIGN_CONTEXT_ID),
 *    PMIX_GROUP_CONTEXT_ID (first, where programs look for it).
 *  - What each member gave in PMIX_GROUP_INFO follows the results of a
 *    group with a context id; it is stored under each member, qualified
 *    by the id (store_group_key), for PMIx_Get with a
 *    PMIX_GROUP_CONTEXT_ID qualifier.
 *  - The groups a process belongs to are kept in its store as its own
 *    PMIX_GROUP_NAMES (a PMIX_STRING array), so PMIx_Get answers it
 *    locally; the server answers PMIX_QUERY_GROUP_NAMES and
 *    PMIX_QUERY_GROUP_MEMBERSHIP for any group.
 *  - A blocking join waits until the group is complete, so an invited
 *    process calls PMIx_Group_join_nb from its PMIX_GROUP_INVITED handler,
 *    or the blocking form from any other thread (it may even answer
 *    before the invitation arrives).
 */
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "pmix.h"

typedef enum { NAMES_KEEP, NAMES_ADD, NAMES_REMOVE } names_change_t;

typedef struct group_op {
    char name[PMIX_MAX_NSLEN + 1];
    names_change_t change;       /* applied to PMIX_GROUP_NAMES on success */
    pmix_info_cbfunc_t cbfunc;   /* the caller's: results ... */
    pmix_op_cbfunc_t opfunc;     /* ... or only a status */
    void *cbdata;
    pmix_info_t *info;           /* the results, until released */
    size_t ninfo;
} group_op_t;

/* Add name to, or remove it from, this process's PMIX_GROUP_NAMES. */
static void update_names(const char *name, names_change_t change)
{
    pthread_mutex_lock(&client.lock);
    store_ns_t *ns = store_ns(&client.store, client.me.nspace, true);
    hashmap_t *keys = NULL == ns ? NULL : store_keys(ns, STORE_PROC, client.me.rank, true);
    const pmix_value_t *old = NULL == keys ? NULL : store_get(keys, PMIX_GROUP_NAMES);
    const pmix_data_array_t *had = NULL != old && PMIX_DATA_ARRAY == old->type &&
                                           NULL != old->data.darray &&
                                           PMIX_STRING == old->data.darray->type
                                       ? old->data.darray
                                       : NULL;
    size_t nhad = NULL == had ? 0 : had->size, n = 0;
    char **names = NULL == keys ? NULL : calloc(nhad + 2, sizeof(*names));

    if (NULL != names) {
        for (size_t i = 0; i < nhad; i++) {
            char *other = ((char **)had->array)[i];
            if (NULL != other && 0 != strcmp(other, name)) {
                names[n++] = other;
            }
        }
        if (NAMES_ADD == change) {
            names[n++] = (char *)name;
        }
        pmix_data_array_t array = {.type = PMIX_STRING, .size = n, .array = names};
        pmix_value_t value = {.type = PMIX_DATA_ARRAY, .data.darray = &array};
        /* store_set copies the array before the old value goes. */
        store_set(keys, PMIX_GROUP_NAMES, &value, 0);
        free(names);
    }
    pthread_mutex_unlock(&client.lock);
}

/* Store what the members gave in PMIX_GROUP_INFO (the rest of reply: a
 * PMIX_PROC and PMIX_INFO[] per member), qualified by context_id. */
static pmix_status_t absorb_group_info(pmix_data_buffer_t *reply, size_t context_id)
{
    pmix_status_t rc = PMIX_SUCCESS;
    char key[PMIX_MAX_KEYLEN + 1];

    while (PMIX_SUCCESS == rc && reply->unpack_ptr < reply->pack_ptr) {
        pmix_proc_t proc;
        pmix_info_t *info = NULL;
        size_t ninfo = 0;
        int32_t n = 1;
        if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, reply, &proc, &n, PMIX_PROC)) ||
            PMIX_SUCCESS !=
                (rc = protocol_unpack_array(reply, PMIX_INFO, (void **)&info, &ninfo))) {
            break;
        }
        pthread_mutex_lock(&client.lock);
        store_ns_t *ns = store_ns(&client.store, proc.nspace, true);
        hashmap_t *keys = NULL == ns ? NULL : store_keys(ns, STORE_PROC, proc.rank, true);
        rc = NULL == keys ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
        for (size_t i = 0; PMIX_SUCCESS == rc && i < ninfo; i++) {
            if (store_group_key(key, info[i].key, context_id)) {
                rc = store_set(keys, key, &info[i].value, 0);
            }
        }
        pthread_mutex_unlock(&client.lock);
        protocol_free_array(info, ninfo, PMIX_INFO);
    }
    return rc;
}

static void release_results(void *cbdata)
{
    group_op_t *op = cbdata;
    protocol_free_array(op->info, op->ninfo, PMIX_INFO);
    free(op);
}

/* The server's answer: PMIX_INFO[] results (none for a decline), then,
 * for a group with a context id, what the members gave it. */
static void group_answered(pmix_status_t status, pmix_data_buffer_t *reply, void *arg)
{
    group_op_t *op = arg;
    const pmix_info_t *ctx = NULL;

    if (NULL != reply && reply->unpack_ptr < reply->pack_ptr && PMIX_SUCCESS == status) {
        status = protocol_unpack_array(reply, PMIX_INFO, (void **)&op->info, &op->ninfo);
    }
    for (size_t i = 0; i < op->ninfo && NULL == ctx; i++) {
        if (PMIX_CHECK_KEY(&op->info[i], PMIX_GROUP_CONTEXT_ID) &&
            PMIX_SIZE == op->info[i].value.type) {
            ctx = &op->info[i];
        }
    }
    if (PMIX_SUCCESS == status && NULL != ctx) {
        status = absorb_group_info(reply, ctx->value.data.size);
    }
    if (PMIX_SUCCESS == status && NAMES_KEEP != op->change) {
        update_names(op->name, op->change);
    }
    if (NULL != op->cbfunc) {
        op->cbfunc(status, op->info, op->ninfo, op->cbdata, release_results, op);
        return;
    }
    if (NULL != op->opfunc) {
        op->opfunc(status, op->cbdata);
    }
    release_results(op);
}

/* Send a group request (msg, already packed) answered with infos. */
static pmix_status_t send_group(uint16_t command, const pmix_data_buffer_t *msg, int timeout,
                                const char *name, names_change_t change,
                                pmix_info_cbfunc_t cbfunc, pmix_op_cbfunc_t opfunc, void *cbdata)
{
    group_op_t *op = calloc(1, sizeof(*op));
    pmix_status_t rc;

    if (NULL == op) {
        return PMIX_ERR_NOMEM;
    }
    *op = (group_op_t){.change = change, .cbfunc = cbfunc, .opfunc = opfunc, .cbdata = cbdata};
    PMIX_LOAD_NSPACE(op->name, name);
    if (PMIX_SUCCESS != (rc = conn_request(command, msg, timeout, group_answered, op))) {
        free(op);
    }
    return rc;
}

/* The checks every group call makes. */
static pmix_status_t check(const char *grp, const pmix_info_t *info, size_t ninfo)
{
    pmix_status_t rc = client_can_ask();
    if (PMIX_SUCCESS == rc &&
        (NULL == grp || '\0' == grp[0] || strnlen(grp, PMIX_MAX_NSLEN + 1) > PMIX_MAX_NSLEN ||
         (NULL == info && 0 != ninfo))) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    return rc;
}

/* GROUP_CONSTRUCT and GROUP_INVITE: name, procs, directives. */
static pmix_status_t name_procs(uint16_t command, const char grp[], const pmix_proc_t procs[],
                                size_t nprocs, const pmix_info_t info[], size_t ninfo,
                                pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t msg;
    pmix_status_t rc = check(grp, info, ninfo);

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL == procs || 0 == nprocs) {
        return PMIX_ERR_BAD_PARAM;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&msg);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)&grp, 1, PMIX_STRING)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)procs, (int32_t)nprocs,
                                             PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)info, (int32_t)ninfo,
                                             PMIX_INFO))) {
        rc = send_group(command, &msg, directive_timeout(info, ninfo), grp, NAMES_ADD, cbfunc,
                        NULL, cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&msg);
    return rc;
}

/* GROUP_DESTRUCT and GROUP_LEAVE: name, directives. */
static pmix_status_t name_only(uint16_t command, const char grp[], const pmix_info_t info[],
                               size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t msg;
    pmix_status_t rc = check(grp, info, ninfo);

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&msg);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)&grp, 1, PMIX_STRING)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)info, (int32_t)ninfo,
                                             PMIX_INFO))) {
        rc = send_group(command, &msg, directive_timeout(info, ninfo), grp, NAMES_REMOVE, NULL,
                        cbfunc, cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&msg);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Group_construct_nb(const char grp[], const pmix_proc_t procs[],
                                                  size_t nprocs, const pmix_info_t info[],
                                                  size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                                  void *cbdata)
{
    return name_procs(PROTOCOL_GROUP_CONSTRUCT, grp, procs, nprocs, info, ninfo, cbfunc, cbdata);
}

PMIX_EXPORT pmix_status_t PMIx_Group_invite_nb(const char grp[], const pmix_proc_t procs[],
                                               size_t nprocs, const pmix_info_t info[],
                                               size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                               void *cbdata)
{
    return name_procs(PROTOCOL_GROUP_INVITE, grp, procs, nprocs, info, ninfo, cbfunc, cbdata);
}

PMIX_EXPORT pmix_status_t PMIx_Group_join_nb(const char grp[], const pmix_proc_t *leader,
                                             pmix_group_opt_t opt, const pmix_info_t info[],
                                             size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                             void *cbdata)
{
    pmix_data_buffer_t msg;
    bool accept = PMIX_GROUP_ACCEPT == opt;
    pmix_status_t rc = check(grp, info, ninfo);

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (PMIX_GROUP_ACCEPT != opt && PMIX_GROUP_DECLINE != opt) {
        return PMIX_ERR_BAD_PARAM;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&msg);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)&grp, 1, PMIX_STRING)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)leader, NULL == leader ? 0 : 1,
                                             PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, &accept, 1, PMIX_BOOL)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)info, (int32_t)ninfo,
                                             PMIX_INFO))) {
        rc = send_group(PROTOCOL_GROUP_JOIN, &msg, directive_timeout(info, ninfo), grp,
                        accept ? NAMES_ADD : NAMES_KEEP, cbfunc, NULL, cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&msg);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Group_destruct_nb(const char grp[], const pmix_info_t info[],
                                                 size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                                 void *cbdata)
{
    return name_only(PROTOCOL_GROUP_DESTRUCT, grp, info, ninfo, cbfunc, cbdata);
}

PMIX_EXPORT pmix_status_t PMIx_Group_leave_nb(const char grp[], const pmix_info_t info[],
                                              size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return name_only(PROTOCOL_GROUP_LEAVE, grp, info, ninfo, cbfunc, cbdata);
}

/* ---- Blocking forms ----------------------------------------------------- */

PMIX_EXPORT pmix_status_t PMIx_Group_construct(const char grp[], const pmix_proc_t procs[],
                                               size_t nprocs, const pmix_info_t directives[],
                                               size_t ndirs, pmix_info_t **results,
                                               size_t *nresults)
{
    client_results_t res;
    pmix_status_t rc = client_results_start(&res, results, nresults);

    return PMIX_SUCCESS != rc ? rc : client_wait_results(
        &res, PMIx_Group_construct_nb(grp, procs, nprocs, directives, ndirs, client_results_cb,
                                      &res),
        results, nresults);
}

PMIX_EXPORT pmix_status_t PMIx_Group_invite(const char grp[], const pmix_proc_t procs[],
                                            size_t nprocs, const pmix_info_t info[], size_t ninfo,
                                            pmix_info_t **results, size_t *nresults)
{
    client_results_t res;
    pmix_status_t rc = client_results_start(&res, results, nresults);

    return PMIX_SUCCESS != rc ? rc : client_wait_results(
        &res, PMIx_Group_invite_nb(grp, procs, nprocs, info, ninfo, client_results_cb, &res),
        results, nresults);
}

PMIX_EXPORT pmix_status_t PMIx_Group_join(const char grp[], const pmix_proc_t *leader,
                                          pmix_group_opt_t opt, const pmix_info_t info[],
                                          size_t ninfo, pmix_info_t **results, size_t *nresults)
{
    client_results_t res;
    pmix_status_t rc = client_results_start(&res, results, nresults);

    return PMIX_SUCCESS != rc ? rc : client_wait_results(
        &res, PMIx_Group_join_nb(grp, leader, opt, info, ninfo, client_results_cb, &res),
        results, nresults);
}

static pmix_status_t wait_name_only(uint16_t command, const char grp[], const pmix_info_t info[],
                                    size_t ninfo)
{
    client_wait_t wait;

    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&wait);
    return client_wait_started(&wait,
                               name_only(command, grp, info, ninfo, client_wait_op_cb, &wait));
}

PMIX_EXPORT pmix_status_t PMIx_Group_destruct(const char grp[], const pmix_info_t info[],
                                              size_t ninfo)
{
    return wait_name_only(PROTOCOL_GROUP_DESTRUCT, grp, info, ninfo);
}

PMIX_EXPORT pmix_status_t PMIx_Group_leave(const char grp[], const pmix_info_t info[],
                                           size_t ninfo)
{
    return wait_name_only(PROTOCOL_GROUP_LEAVE, grp, info, ninfo);
}
