/*
 * group.c - process groups on the server: GROUP_CONSTRUCT,
 * GROUP_DESTRUCT and GROUP_LEAVE, the groups this server knows, and the
 * queries about them (PMIX_QUERY_NUM_GROUPS, PMIX_QUERY_GROUP_NAMES,
 * PMIX_QUERY_GROUP_MEMBERSHIP). Invitations are in invite.c.
 *
 * Design notes:
 *  - Construct and destruct are collectives over the members, gathered by
 *    collective.c under the group's name. Once the local members are in,
 *    the host's group function runs it across nodes (and assigns the
 *    context id); without one, or for a group whose members all run here
 *    (PMIX_GROUP_LOCAL_ONLY says so outright), the server completes it
 *    itself and numbers context ids from its own counter.
 *  - Members named by a wildcard rank are expanded to explicit ranks when
 *    the job's size is known here, so that one member can leave or fail
 *    without taking its whole namespace along.
 *  - Every member receives the same results: PMIX_GROUP_CONTEXT_ID first
 *    (programs read it from results[0], as OpenPMIx's examples do) when
 *    one was asked for or the host assigned one, PMIX_GROUP_ID,
 *    PMIX_GROUP_MEMBERSHIP (a PMIX_PROC array), plus whatever else the
 *    host returned. After the results, a group with a context id carries
 *    what each member gave in PMIX_GROUP_INFO (its PMIX_PROC, then
 *    PMIX_INFO[]): the members store it qualified by that id, so a
 *    PMIx_Get of, say, PMIX_GROUP_LOCAL_CID with a PMIX_GROUP_CONTEXT_ID
 *    qualifier finds it, as with OpenPMIx. What the local members gave
 *    goes to the host's group function as PMIX_GROUP_ENDPT_DATA (a byte
 *    object); a host that returns PMIX_GROUP_ENDPT_DATA (every server's,
 *    gathered) has its members get that instead of the local part alone.
 *    With PMIX_GROUP_OPTIONAL, members that went away before joining are
 *    left out instead of failing the construct.
 *  - A member that leaves is removed and the others hear of it
 *    (PMIX_GROUP_LEFT); one that dies without leaving is removed too, and
 *    with PMIX_GROUP_NOTIFY_TERMINATION the others get
 *    PMIX_GROUP_MEMBER_FAILED. Group events go to non-default handlers
 *    only, as PMIx's do; members beyond this node hear them through the
 *    host's notify_event. Such an event the host passes in (a member
 *    elsewhere left or failed) takes that member out of this server's
 *    record as well, so that every server gathers the same members for
 *    the destruct.
 *  - A host may know of groups built elsewhere (drover_server_define_group:
 *    the drover daemon shows its jobs' groups to its tools so), which
 *    only the queries see; and may watch the members of every group
 *    change (DROVER_SERVER_GROUPS: a daemon's job tells the daemon).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "directive.h"
#include "pmix.h"
#include "server.h"

typedef struct group {
    char *name;
    pmix_proc_t *members;        /* sorted */
    size_t nmembers;
    size_t context_id;           /* SIZE_MAX: none */
    bool notify_termination;
    bool local;                  /* completed here: so is its destruct */
    bool defined;                /* by the host: drover_server_define_group */
    struct group *next;
} group_t;

static group_t *groups;
static size_t ngroups;
static size_t next_context_id = 1;

static group_t **find(const char *name)
{
    group_t **g = &groups;
    while (NULL != *g && 0 != strcmp((*g)->name, name)) {
        g = &(*g)->next;
    }
    return g;
}

bool group_exists(const char *name)
{
    return NULL != *find(name);
}

static void free_group(group_t *g)
{
    free(g->name);
    free(g->members);
    free(g);
}

/* Tell the host's DROVER_SERVER_GROUPS watch the group's members now
 * (none: it is gone). */
static void tell_host(const char *name, const pmix_proc_t *members, size_t nmembers)
{
    if (NULL != server.groups.changed) {
        server.groups.changed(name, members, nmembers, server.groups.arg);
    }
}

static void drop(group_t **where)
{
    group_t *g = *where;
    *where = g->next;
    ngroups--;
    tell_host(g->name, NULL, 0);
    free_group(g);
}

/* The size of a job registered here, 0 when unknown. */
static uint32_t job_size(const char *nspace)
{
    store_ns_t *ns = store_ns(&server.data, nspace, false);
    const pmix_value_t *v = NULL == ns ? NULL
                                       : store_lookup(ns, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, NULL);
    return NULL != v && PMIX_UINT32 == v->type ? v->data.uint32 : 0;
}

pmix_status_t group_expand(const pmix_proc_t *procs, size_t n, pmix_proc_t **out, size_t *nout)
{
    size_t total = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t size = PMIX_RANK_WILDCARD == procs[i].rank ? job_size(procs[i].nspace) : 0;
        total += 0 == size ? 1 : size;
    }
    if (NULL == (*out = calloc(total + 1, sizeof(**out)))) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t size = PMIX_RANK_WILDCARD == procs[i].rank ? job_size(procs[i].nspace) : 0;
        if (0 == size) {
            (*out)[k++] = procs[i];
        }
        for (uint32_t r = 0; r < size; r++) {
            PMIX_LOAD_PROCID(&(*out)[k++], procs[i].nspace, r);
        }
    }
    *nout = collective_normalise(*out, k);
    return PMIX_SUCCESS;
}

bool group_all_local(const pmix_proc_t *procs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const server_nspace_t *ns = nspace_find(procs[i].nspace);
        if (NULL == ns) {
            return false;
        }
        if (PMIX_RANK_WILDCARD == procs[i].rank) {
            uint32_t size = job_size(procs[i].nspace);
            if (0 == size || nspace_local_count(&procs[i]) < size) {
                return false;
            }
        } else if (!nspace_is_local(ns, procs[i].rank)) {
            return false;
        }
    }
    return true;
}

static void host_notified(pmix_status_t status, void *cbdata)
{
}

void group_announce(pmix_status_t code, const pmix_proc_t *source, const char *name,
                    const pmix_proc_t *targets, size_t ntargets, const pmix_info_t *extra,
                    size_t nextra)
{
    pmix_info_t *info;
    size_t n = 0;
    pmix_data_array_t range = {.type = PMIX_PROC, .size = ntargets, .array = (void *)targets};

    if (0 == ntargets) {
        return;
    }
    PMIX_INFO_CREATE(info, 3 + nextra);
    if (NULL == info) {
        return;
    }
    PMIx_Info_load(&info[n++], PMIX_EVENT_CUSTOM_RANGE, &range, PMIX_DATA_ARRAY);
    PMIx_Info_load(&info[n++], PMIX_EVENT_NON_DEFAULT, NULL, PMIX_BOOL);
    PMIx_Info_load(&info[n++], PMIX_GROUP_ID, name, PMIX_STRING);
    for (size_t i = 0; i < nextra; i++) {
        PMIx_Info_xfer(&info[n++], &extra[i]);
    }
    notify_deliver(code, source, PMIX_RANGE_CUSTOM, info, n, NULL);
    if (NULL != server.host.notify_event && !group_all_local(targets, ntargets)) {
        server.host.notify_event(code, source, PMIX_RANGE_CUSTOM, info, n, host_notified, NULL);
    }
    PMIX_INFO_FREE(info, 3 + nextra);
}

void group_announce_made(const pmix_proc_t *leader, const char *name, const pmix_proc_t *members,
                         size_t nmembers, size_t context_id)
{
    pmix_info_t extra[2];
    size_t nextra = 0;
    pmix_data_array_t array = {.type = PMIX_PROC, .size = nmembers, .array = (void *)members};
    PMIX_INFO_LOAD(&extra[nextra++], PMIX_GROUP_MEMBERSHIP, &array, PMIX_DATA_ARRAY);
    if (SIZE_MAX != context_id) {
        PMIX_INFO_LOAD(&extra[nextra++], PMIX_GROUP_CONTEXT_ID, &context_id, PMIX_SIZE);
    }
    group_announce(PMIX_GROUP_CONSTRUCT_COMPLETE, leader, name, members, nmembers, extra, nextra);
    for (size_t i = 0; i < nextra; i++) {
        PMIX_INFO_DESTRUCT(&extra[i]);
    }
}

pmix_status_t group_pack_results(pmix_data_buffer_t *body, const char *name,
                                 const pmix_proc_t *members, size_t nmembers, size_t context_id,
                                 const pmix_info_t *extra, size_t nextra)
{
    pmix_info_t *info;
    size_t n = 0;
    pmix_data_array_t array = {.type = PMIX_PROC, .size = nmembers, .array = (void *)members};
    pmix_status_t rc;

    PMIX_INFO_CREATE(info, 3 + nextra);
    if (NULL == info) {
        return PMIX_ERR_NOMEM;
    }
    if (SIZE_MAX != context_id) {
        PMIx_Info_load(&info[n++], PMIX_GROUP_CONTEXT_ID, &context_id, PMIX_SIZE);
    }
    PMIx_Info_load(&info[n++], PMIX_GROUP_ID, name, PMIX_STRING);
    PMIx_Info_load(&info[n++], PMIX_GROUP_MEMBERSHIP, &array, PMIX_DATA_ARRAY);
    for (size_t i = 0; i < nextra; i++) {
        if (!PMIX_CHECK_KEY(&extra[i], PMIX_GROUP_ID) &&
            !PMIX_CHECK_KEY(&extra[i], PMIX_GROUP_MEMBERSHIP) &&
            !PMIX_CHECK_KEY(&extra[i], PMIX_GROUP_CONTEXT_ID) &&
            !PMIX_CHECK_KEY(&extra[i], PMIX_GROUP_ENDPT_DATA)) {
            PMIx_Info_xfer(&info[n++], &extra[i]);
        }
    }
    rc = PMIx_Data_pack(NULL, body, info, (int32_t)n, PMIX_INFO);
    PMIX_INFO_FREE(info, 3 + nextra);
    return rc;
}

pmix_status_t group_record(const char *name, pmix_proc_t *members, size_t nmembers,
                           size_t context_id, bool notify_termination, bool local)
{
    group_t *g;

    if (NULL != *find(name)) {
        free(members);
        return PMIX_ERR_EXISTS;
    }
    if (NULL == (g = calloc(1, sizeof(*g))) || NULL == (g->name = strdup(name))) {
        free(g);
        free(members);
        return PMIX_ERR_NOMEM;
    }
    g->members = members;
    g->nmembers = nmembers;
    g->context_id = context_id;
    g->notify_termination = notify_termination;
    g->local = local;
    g->next = groups;
    groups = g;
    ngroups++;
    tell_host(g->name, g->members, g->nmembers);
    return PMIX_SUCCESS;
}

size_t group_new_context_id(void)
{
    return next_context_id++;
}

/* ---- GROUP_CONSTRUCT ------------------------------------------------------ */

/* The value of a size-like result the host returned, if any. */
static bool host_size(const pmix_info_t *info, size_t ninfo, const char *key, size_t *out)
{
    const pmix_value_t *v = directive_find(info, ninfo, key);
    int64_t n;

    if (NULL == v || PMIX_SUCCESS != directive_integer(v, &n) || n < 0) {
        return false;
    }
    *out = (size_t)n;
    return true;
}

/* The members of a completed construct: as the host says, or the
 * participants less (PMIX_GROUP_OPTIONAL) those lost before joining. */
static pmix_status_t final_members(const collective_t *c, const pmix_info_t *host, size_t nhost,
                                   pmix_proc_t **out, size_t *nout)
{
    for (size_t i = 0; i < nhost; i++) {
        const pmix_value_t *v = &host[i].value;
        if (PMIX_CHECK_KEY(&host[i], PMIX_GROUP_MEMBERSHIP) && PMIX_DATA_ARRAY == v->type &&
            NULL != v->data.darray && PMIX_PROC == v->data.darray->type) {
            return group_expand(v->data.darray->array, v->data.darray->size, out, nout);
        }
    }
    pmix_status_t rc = group_expand(c->procs, c->nprocs, out, nout);
    if (PMIX_SUCCESS != rc || !c->optional) {
        return rc;
    }
    size_t k = 0;
    for (size_t i = 0; i < *nout; i++) {
        const pmix_proc_t *p = &(*out)[i];
        bool joined = false, lost = nspace_rank_gone(nspace_find(p->nspace), p->rank);
        for (size_t m = 0; m < c->nmembers && !joined; m++) {
            joined = PMIX_CHECK_PROCID(&c->members[m].proc, p);
        }
        if (joined || !lost) {
            (*out)[k++] = *p;
        }
    }
    *nout = k;
    return PMIX_SUCCESS;
}

/* What the members gave (PMIX_GROUP_INFO), after the results: every
 * server's as the host returned them (PMIX_GROUP_ENDPT_DATA), or this
 * one's. */
static pmix_status_t append_given(pmix_data_buffer_t *body, collective_t *c,
                                  const pmix_info_t *host, size_t nhost)
{
    bool from_host = false;
    pmix_status_t rc = PMIX_SUCCESS;
    for (size_t i = 0; i < nhost && PMIX_SUCCESS == rc; i++) {
        const pmix_value_t *v = &host[i].value;
        if (!PMIX_CHECK_KEY(&host[i], PMIX_GROUP_ENDPT_DATA) || PMIX_BYTE_OBJECT != v->type) {
            continue;
        }
        from_host = true;
        if (0 == v->data.bo.size) {
            continue;
        }
        pmix_data_buffer_t part;
        PMIX_DATA_BUFFER_CONSTRUCT(&part);
        rc = PMIx_Data_embed(&part, &v->data.bo);
        if (PMIX_SUCCESS == rc) {
            rc = PMIx_Data_copy_payload(body, &part);
        }
        PMIX_DATA_BUFFER_DESTRUCT(&part);
    }
    if (!from_host && c->blob.pack_ptr > c->blob.unpack_ptr) {
        rc = PMIx_Data_copy_payload(body, &c->blob);
    }
    return rc;
}

static void construct_done(collective_t *c, pmix_status_t status, const pmix_info_t *host,
                           size_t nhost, bool local)
{
    pmix_data_buffer_t body;
    pmix_proc_t *members = NULL;
    size_t nmembers = 0, context_id = SIZE_MAX;

    PMIX_DATA_BUFFER_CONSTRUCT(&body);
    if (PMIX_SUCCESS == status) {
        status = final_members(c, host, nhost, &members, &nmembers);
    }
    if (PMIX_SUCCESS == status && !host_size(host, nhost, PMIX_GROUP_CONTEXT_ID, &context_id) &&
        directive_flag(c->info, c->ninfo, PMIX_GROUP_ASSIGN_CONTEXT_ID)) {
        context_id = group_new_context_id();
    }
    if (PMIX_SUCCESS == status) {
        status = group_pack_results(&body, c->name, members, nmembers, context_id, host, nhost);
    }
    if (PMIX_SUCCESS == status && SIZE_MAX != context_id) {
        status = append_given(&body, c, host, nhost);
    }
    if (PMIX_SUCCESS == status && c->invited) {
        /* Made by invitation: the leader's server tells every member. */
        group_announce_made(&c->leader, c->name, members, nmembers, context_id);
    }
    if (PMIX_SUCCESS == status) {
        bool notify = directive_flag(c->info, c->ninfo, PMIX_GROUP_NOTIFY_TERMINATION);
        status = group_record(c->name, members, nmembers, context_id, notify, local);
        members = NULL;
    }
    free(members);
    collective_finish(c, status, PMIX_SUCCESS == status ? &body : NULL);
    PMIX_DATA_BUFFER_DESTRUCT(&body);
}

static void destruct_done(collective_t *c, pmix_status_t status, const pmix_info_t *host,
                          size_t nhost, bool local)
{
    group_t **g = find(c->name);
    if (PMIX_SUCCESS == status && NULL != *g) {
        drop(g);
    }
    collective_finish(c, status, NULL);
}

typedef struct group_op {
    collective_t *c;
    void (*done)(collective_t *c, pmix_status_t status, const pmix_info_t *host, size_t nhost,
                 bool local);
    pmix_status_t status;
    pmix_info_t *info;           /* a copy of the host's results */
    size_t ninfo;
    pmix_info_t *given;          /* what the host was given instead of */
    size_t ngiven;               /* c->info: it and the endpoint data */
} group_op_t;

static void op_free(group_op_t *op)
{
    PMIX_INFO_FREE(op->info, op->ninfo);
    PMIX_INFO_FREE(op->given, op->ngiven);
    free(op);
}

static void host_answered_in_thread(void *arg)
{
    group_op_t *op = arg;
    if (collective_host_answered(op->c)) {
        op->done(op->c, op->status, op->info, op->ninfo, false);
    }
    op_free(op);
}

/* The host's pmix_info_cbfunc_t (any thread): the results are copied,
 * since the host may release them as soon as this returns. */
static void host_answered(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                          pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    group_op_t *op = cbdata;
    op->status = status;
    if (PMIX_SUCCESS == status && ninfo > 0) {
        PMIX_INFO_CREATE(op->info, ninfo);
        if (NULL == op->info) {
            op->status = PMIX_ERR_NOMEM;
        } else {
            op->ninfo = ninfo;
            for (size_t i = 0; i < ninfo; i++) {
                PMIx_Info_xfer(&op->info[i], &info[i]);
            }
        }
    }
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    if (PMIX_SUCCESS != server_post(host_answered_in_thread, op)) {
        op_free(op);
    }
}

/* The directives of construct c and, for the host to pass between
 * servers, what its local members gave (PMIX_GROUP_ENDPT_DATA), into
 * op->given; nothing when they gave nothing. */
static pmix_status_t give_endpoints(group_op_t *op, const collective_t *c)
{
    size_t size = c->blob.pack_ptr - c->blob.unpack_ptr;
    if (0 == size) {
        return PMIX_SUCCESS;
    }
    PMIX_INFO_CREATE(op->given, c->ninfo + 1);
    if (NULL == op->given) {
        return PMIX_ERR_NOMEM;
    }
    op->ngiven = c->ninfo + 1;
    for (size_t i = 0; i < c->ninfo; i++) {
        PMIx_Info_xfer(&op->given[i], &c->info[i]);
    }
    pmix_byte_object_t bo = {.bytes = c->blob.unpack_ptr, .size = size};
    return PMIx_Info_load(&op->given[c->ninfo], PMIX_GROUP_ENDPT_DATA, &bo, PMIX_BYTE_OBJECT);
}

/* Every local member is in (or, optional, lost): run it across nodes
 * through the host, or here. */
static void start(collective_t *c)
{
    bool construct = COLLECTIVE_GROUP_CONSTRUCT == c->kind;
    void (*done)(collective_t *, pmix_status_t, const pmix_info_t *, size_t, bool) =
        construct ? construct_done : destruct_done;
    const group_t *g = construct ? NULL : *find(c->name);
    bool here = group_all_local(c->procs, c->nprocs);
    bool local = construct ? directive_flag(c->info, c->ninfo, PMIX_GROUP_LOCAL_ONLY) || here
                           : NULL == g || g->local;
    group_op_t *op;
    pmix_status_t rc;

    c->ready = NULL;
    if (construct && NULL != server.host.group && here &&
        directive_flag(c->info, c->ninfo, PMIX_GROUP_ASSIGN_CONTEXT_ID) &&
        !directive_flag(c->info, c->ninfo, PMIX_GROUP_LOCAL_ONLY)) {
        /* Only the host can make the id unique beyond this node. */
        local = false;
    }
    if (local) {
        done(c, PMIX_SUCCESS, NULL, 0, true);
        return;
    }
    if (NULL == server.host.group) {
        done(c, PMIX_ERR_NOT_SUPPORTED, NULL, 0, false);
        return;
    }
    if (NULL == (op = calloc(1, sizeof(*op)))) {
        done(c, PMIX_ERR_NOMEM, NULL, 0, false);
        return;
    }
    op->c = c;
    op->done = done;
    if (construct && PMIX_SUCCESS != (rc = give_endpoints(op, c))) {
        op_free(op);
        done(c, rc, NULL, 0, false);
        return;
    }
    c->at_host = true;
    rc = server.host.group(construct ? PMIX_GROUP_CONSTRUCT : PMIX_GROUP_DESTRUCT, c->name,
                           c->procs, c->nprocs, NULL == op->given ? c->info : op->given,
                           NULL == op->given ? c->ninfo : op->ngiven, host_answered, op);
    if (PMIX_SUCCESS != rc) {
        c->at_host = false;
        op_free(op);
        done(c, PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc, NULL, 0, false);
    }
}

/* Valid group names: non-empty, at most PMIX_MAX_NSLEN bytes. */
static bool valid_name(const char *name)
{
    return NULL != name && '\0' != name[0] && strnlen(name, PMIX_MAX_NSLEN + 1) <= PMIX_MAX_NSLEN;
}

pmix_status_t group_pack_given(pmix_data_buffer_t *out, const pmix_proc_t *proc,
                               const pmix_info_t *info, size_t ninfo)
{
    for (size_t i = 0; i < ninfo; i++) {
        const pmix_data_array_t *a = info[i].value.data.darray;
        if (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_INFO) && PMIX_DATA_ARRAY == info[i].value.type &&
            NULL != a && PMIX_INFO == a->type && a->size > 0 && a->size <= INT32_MAX) {
            pmix_status_t rc = PMIx_Data_pack(NULL, out, (void *)proc, 1, PMIX_PROC);
            return PMIX_SUCCESS != rc ? rc
                                      : PMIx_Data_pack(NULL, out, a->array, (int32_t)a->size,
                                                       PMIX_INFO);
        }
    }
    return PMIX_SUCCESS;
}

/* Contribute peer's request (tag, answered as command) to the construct
 * or destruct collective of name over procs with directives info (both
 * taken over), with what the contributors gave, packed (given, may be
 * empty); leader, when not NULL, led the invitation that made the group. */
static void contribute(collective_kind_t kind, server_peer_t *peer, uint32_t tag, uint16_t command,
                       const char *name, pmix_proc_t *procs, size_t nprocs, pmix_info_t *info,
                       size_t ninfo, const pmix_data_buffer_t *given, const pmix_proc_t *leader)
{
    collective_t *c = NULL;
    bool complete = false;
    pmix_status_t rc = collective_join_named(kind, name, peer, tag, procs, nprocs, info, ninfo, &c,
                                             &complete);
    if (PMIX_SUCCESS != rc) {
        peer_reply(peer, command, tag, rc, NULL);
        return;
    }
    if (NULL == c) {
        return; /* a participant was lost: failed, and answered (as the kind's) */
    }
    c->members[c->nmembers - 1].command = command;
    if (NULL != leader) {
        c->invited = true;
        c->leader = *leader;
    }
    if (given->pack_ptr > given->unpack_ptr &&
        PMIX_SUCCESS != (rc = PMIx_Data_copy_payload(&c->blob, (pmix_data_buffer_t *)given))) {
        collective_finish(c, rc, NULL); /* answers this peer too */
        return;
    }
    c->ready = start;
    if (complete) {
        start(c);
    }
}

void group_construct_invited(server_peer_t *peer, uint32_t tag, uint16_t command, const char *name,
                             const pmix_proc_t *members, size_t nmembers, bool assign_context,
                             const pmix_data_buffer_t *given, const pmix_proc_t *leader)
{
    pmix_proc_t *procs = malloc(nmembers * sizeof(*procs));
    pmix_info_t *info = NULL;
    size_t ninfo = assign_context ? 1 : 0;
    if (assign_context) {
        PMIX_INFO_CREATE(info, 1);
    }
    if (NULL == procs || (assign_context && NULL == info)) {
        free(procs);
        PMIX_INFO_FREE(info, ninfo);
        peer_reply(peer, command, tag, PMIX_ERR_NOMEM, NULL);
        return;
    }
    memcpy(procs, members, nmembers * sizeof(*procs));
    if (assign_context) {
        PMIX_INFO_LOAD(&info[0], PMIX_GROUP_ASSIGN_CONTEXT_ID, &assign_context, PMIX_BOOL);
    }
    contribute(COLLECTIVE_GROUP_CONSTRUCT, peer, tag, command, name, procs, nmembers, info, ninfo,
               given, leader);
}

/* GROUP_CONSTRUCT: PMIX_STRING name, PMIX_PROC[] members, PMIX_INFO[]
 * directives; reply PMIX_INFO[] results. */
void group_construct_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    char *name = NULL;
    pmix_proc_t *procs = NULL;
    pmix_info_t *info = NULL;
    size_t nprocs = 0, ninfo = 0;
    int32_t n = 1;
    pmix_status_t rc;

    if (PMIX_SUCCESS == (rc = PMIx_Data_unpack(NULL, payload, &name, &n, PMIX_STRING)) &&
        PMIX_SUCCESS == (rc = protocol_unpack_array(payload, PMIX_PROC, (void **)&procs,
                                                    &nprocs)) &&
        PMIX_SUCCESS == (rc = protocol_unpack_array(payload, PMIX_INFO, (void **)&info,
                                                    &ninfo))) {
        rc = !valid_name(name) || 0 == nprocs ? PMIX_ERR_BAD_PARAM
             : group_exists(name)             ? PMIX_ERR_EXISTS
                                              : PMIX_SUCCESS;
    }
    if (PMIX_SUCCESS != rc) {
        peer_reply(peer, PROTOCOL_GROUP_CONSTRUCT, tag, rc, NULL);
        free(procs);
        protocol_free_array(info, ninfo, PMIX_INFO);
    } else {
        /* Packed now: the collective takes the directives over. */
        pmix_data_buffer_t given;
        PMIX_DATA_BUFFER_CONSTRUCT(&given);
        rc = group_pack_given(&given, &peer->proc, info, ninfo);
        if (PMIX_SUCCESS == rc) {
            contribute(COLLECTIVE_GROUP_CONSTRUCT, peer, tag, PROTOCOL_GROUP_CONSTRUCT, name, procs,
                       nprocs, info, ninfo, &given, NULL);
        } else {
            peer_reply(peer, PROTOCOL_GROUP_CONSTRUCT, tag, rc, NULL);
            free(procs);
            protocol_free_array(info, ninfo, PMIX_INFO);
        }
        PMIX_DATA_BUFFER_DESTRUCT(&given);
    }
    free(name);
}

/* Find the group named in a request and check the caller belongs to it. */
static pmix_status_t member_of(pmix_data_buffer_t *payload, const server_peer_t *peer,
                               char **name, group_t ***g, pmix_info_t **info, size_t *ninfo)
{
    int32_t n = 1;
    pmix_status_t rc = PMIx_Data_unpack(NULL, payload, name, &n, PMIX_STRING);

    *info = NULL;
    *ninfo = 0;
    if (PMIX_SUCCESS != rc ||
        PMIX_SUCCESS != (rc = protocol_unpack_array(payload, PMIX_INFO, (void **)info, ninfo))) {
        return rc;
    }
    if (!valid_name(*name)) {
        return PMIX_ERR_BAD_PARAM;
    }
    *g = find(*name);
    if (NULL == **g) {
        return PMIX_ERR_NOT_FOUND;
    }
    return collective_includes((**g)->members, (**g)->nmembers, &peer->proc) ? PMIX_SUCCESS
                                                                  : PMIX_ERR_BAD_PARAM;
}

/* GROUP_DESTRUCT: PMIX_STRING name, PMIX_INFO[] directives. */
void group_destruct_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    char *name = NULL;
    group_t **g = NULL;
    pmix_info_t *info;
    size_t ninfo;
    pmix_proc_t *procs;
    pmix_status_t rc = member_of(payload, peer, &name, &g, &info, &ninfo);

    if (PMIX_SUCCESS == rc && NULL == (procs = malloc((*g)->nmembers * sizeof(*procs)))) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != rc) {
        peer_reply(peer, PROTOCOL_GROUP_DESTRUCT, tag, rc, NULL);
        protocol_free_array(info, ninfo, PMIX_INFO);
    } else {
        memcpy(procs, (*g)->members, (*g)->nmembers * sizeof(*procs));
        pmix_data_buffer_t none;
        PMIX_DATA_BUFFER_CONSTRUCT(&none);
        contribute(COLLECTIVE_GROUP_DESTRUCT, peer, tag, PROTOCOL_GROUP_DESTRUCT, name, procs,
                   (*g)->nmembers, info, ninfo, &none, NULL);
    }
    free(name);
}

/* Take proc out of *g, telling the others with code (and proc as the
 * affected process); an emptied group goes. */
static void remove_member(group_t **g, const pmix_proc_t *proc, pmix_status_t code)
{
    group_t *grp = *g;
    size_t k = 0;
    pmix_info_t affected;

    for (size_t i = 0; i < grp->nmembers; i++) {
        if (!PMIX_CHECK_PROCID(&grp->members[i], proc)) {
            grp->members[k++] = grp->members[i];
        }
    }
    grp->nmembers = k;
    if (k > 0) {
        tell_host(grp->name, grp->members, k);
    }
    if (PMIX_SUCCESS != code) {
        PMIX_INFO_LOAD(&affected, PMIX_EVENT_AFFECTED_PROC, proc, PMIX_PROC);
        group_announce(code, proc, grp->name, grp->members, grp->nmembers, &affected, 1);
        PMIX_INFO_DESTRUCT(&affected);
    }
    if (0 == grp->nmembers) {
        drop(g);
    }
}

/* GROUP_LEAVE: PMIX_STRING name, PMIX_INFO[] directives. Answered once
 * the other members have been told. */
void group_leave_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    char *name = NULL;
    group_t **g = NULL;
    pmix_info_t *info;
    size_t ninfo;
    pmix_status_t rc = member_of(payload, peer, &name, &g, &info, &ninfo);

    if (PMIX_SUCCESS == rc) {
        /* A member named only through a wildcard cannot leave alone. */
        bool explicit = false;
        for (size_t i = 0; i < (*g)->nmembers && !explicit; i++) {
            explicit = PMIX_CHECK_PROCID(&(*g)->members[i], &peer->proc) &&
                       PMIX_RANK_WILDCARD != (*g)->members[i].rank;
        }
        rc = explicit ? PMIX_SUCCESS : PMIX_ERR_NOT_SUPPORTED;
    }
    if (PMIX_SUCCESS == rc) {
        remove_member(g, &peer->proc, PMIX_GROUP_LEFT);
    }
    peer_reply(peer, PROTOCOL_GROUP_LEAVE, tag, rc, NULL);
    protocol_free_array(info, ninfo, PMIX_INFO);
    free(name);
}

void group_client_gone(server_client_t *client)
{
    group_t **g = &groups;
    while (NULL != *g) {
        group_t *grp = *g;
        bool member = false;
        for (size_t i = 0; i < grp->nmembers && !member; i++) {
            member = PMIX_CHECK_PROCID(&grp->members[i], &client->proc) &&
                     PMIX_RANK_WILDCARD != grp->members[i].rank;
        }
        if (member) {
            remove_member(g, &client->proc,
                          grp->notify_termination ? PMIX_GROUP_MEMBER_FAILED : PMIX_SUCCESS);
        }
        if (*g == grp) {
            g = &grp->next;
        }
    }
    invite_client_gone(client);
}

void group_heard(pmix_status_t code, const pmix_info_t *info, size_t ninfo)
{
    const pmix_value_t *id = directive_find(info, ninfo, PMIX_GROUP_ID);
    const pmix_value_t *who = directive_find(info, ninfo, PMIX_EVENT_AFFECTED_PROC);
    if ((PMIX_GROUP_LEFT != code && PMIX_GROUP_MEMBER_FAILED != code) || NULL == id ||
        PMIX_STRING != id->type || NULL == id->data.string || NULL == who ||
        PMIX_PROC != who->type || NULL == who->data.proc) {
        return;
    }
    group_t **g = find(id->data.string);
    /* Only a member another server had: this one's own clients leave and
     * fail here, and tell the others so. */
    if (NULL == *g || (*g)->defined || group_all_local(who->data.proc, 1)) {
        return;
    }
    for (size_t i = 0; i < (*g)->nmembers; i++) {
        if (PMIX_CHECK_PROCID(&(*g)->members[i], who->data.proc) &&
            PMIX_RANK_WILDCARD != (*g)->members[i].rank) {
            /* The event itself is what the members here hear. */
            remove_member(g, who->data.proc, PMIX_SUCCESS);
            return;
        }
    }
}

void group_clear_all(void)
{
    /* The server ends: nobody is told. */
    while (NULL != groups) {
        group_t *g = groups;
        groups = g->next;
        free_group(g);
    }
    ngroups = 0;
    next_context_id = 1;
    invite_clear_all();
}

/* ---- Groups the host defines ---------------------------------------------- */

typedef struct define_op {
    const char *name;
    const pmix_proc_t *members;
    size_t nmembers;
} define_op_t;

static pmix_status_t do_define(void *arg)
{
    const define_op_t *op = arg;
    pmix_proc_t *members;
    size_t n;

    if (group_exists(op->name)) {
        return PMIX_ERR_EXISTS;
    }
    pmix_status_t rc = group_expand(op->members, op->nmembers, &members, &n);
    if (PMIX_SUCCESS == rc) {
        rc = group_record(op->name, members, n, SIZE_MAX, false, true);
    }
    if (PMIX_SUCCESS == rc) {
        (*find(op->name))->defined = true;
    }
    return rc;
}

static pmix_status_t do_delete(void *arg)
{
    group_t **g = find(arg);

    if (NULL == *g || !(*g)->defined) {
        return PMIX_ERR_NOT_FOUND;
    }
    drop(g);
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t drover_server_define_group(const pmix_proc_t *members, size_t nmembers,
                                                     const char *name)
{
    define_op_t op = {.name = name, .members = members, .nmembers = nmembers};
    if (NULL == members || 0 == nmembers) {
        return PMIX_ERR_BAD_PARAM;
    }
    return server_run_named(do_define, name, &op);
}

PMIX_EXPORT pmix_status_t drover_server_delete_group(const char *name)
{
    return server_run_named(do_delete, name, (void *)name);
}

/* ---- Queries -------------------------------------------------------------- */

static const char *queried_group(const pmix_query_t *q)
{
    for (size_t i = 0; i < q->nqual; i++) {
        if (PMIX_CHECK_KEY(&q->qualifiers[i], PMIX_GROUP_ID) &&
            PMIX_STRING == q->qualifiers[i].value.type) {
            return q->qualifiers[i].value.data.string;
        }
    }
    return NULL;
}

bool group_query(const char *key, const pmix_query_t *q, pmix_info_t *result, pmix_status_t *rc)
{
    if (0 == strcmp(key, PMIX_QUERY_NUM_GROUPS)) {
        *rc = PMIx_Info_load(result, key, &ngroups, PMIX_SIZE);
    } else if (0 == strcmp(key, PMIX_QUERY_GROUP_NAMES)) {
        char **names = calloc(ngroups + 1, sizeof(*names));
        size_t n = 0;
        for (const group_t *g = groups; NULL != names && NULL != g; g = g->next) {
            names[n++] = g->name;
        }
        pmix_data_array_t array = {.type = PMIX_STRING, .size = n, .array = names};
        *rc = NULL == names ? PMIX_ERR_NOMEM
                            : PMIx_Info_load(result, key, &array, PMIX_DATA_ARRAY);
        free(names);
    } else if (0 == strcmp(key, PMIX_QUERY_GROUP_MEMBERSHIP)) {
        const char *name = queried_group(q);
        const group_t *g = NULL == name ? NULL : *find(name);
        if (NULL == g) {
            *rc = NULL == name ? PMIX_ERR_BAD_PARAM : PMIX_ERR_NOT_FOUND;
        } else {
            pmix_data_array_t array = {.type = PMIX_PROC, .size = g->nmembers,
                                       .array = g->members};
            *rc = PMIx_Info_load(result, key, &array, PMIX_DATA_ARRAY);
        }
    } else {
        return false;
    }
    return true;
}
