/*
 * client_group.c - process groups with 4 ranks: construct (with context
 * ids), membership as results, queries and PMIx_Get, leave with its
 * event, destruct, invitations (accepted from an event handler, accepted
 * before the invitation arrives, declined), two groups of the same
 * members, timeouts, bad arguments, and PMIX_GROUP_OPTIONAL with a rank
 * that finalizes instead of joining (and a construct without it, which
 * fails). Run by minihost as "client_group
 * full" (the host assigns context ids from 1000) and "client_group bare"
 * (the server completes local groups itself, ids from 1).
 */
#include <string.h>

#include "check.h"

pmix_proc_t me;
static bool full;
static volatile bool left_seen, invited_handled, completed_seen, joined_nb;
static volatile int accepted_seen, declined_seen;
static pmix_info_t *join_results;
static size_t njoin_results;

static void fence(void)
{
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "fence");
}

/* The members in results, checked against the ranks expected. */
static void check_members(const pmix_info_t *results, size_t nresults, const char *name,
                          const pmix_rank_t *ranks, size_t n)
{
    const pmix_value_t *id = find_info(results, nresults, PMIX_GROUP_ID);
    const pmix_value_t *m = find_info(results, nresults, PMIX_GROUP_MEMBERSHIP);
    CHECK(NULL != id && 0 == strcmp(id->data.string, name), "group id of %s", name);
    CHECK(NULL != m && PMIX_DATA_ARRAY == m->type && PMIX_PROC == m->data.darray->type &&
              n == m->data.darray->size,
          "%zu members of %s", n, name);
    const pmix_proc_t *procs = m->data.darray->array;
    for (size_t i = 0; i < n; i++) {
        CHECK(PMIX_CHECK_NSPACE(procs[i].nspace, me.nspace) && procs[i].rank == ranks[i],
              "member %zu of %s is rank %u", i, name, procs[i].rank);
    }
}

static size_t context_id(const pmix_info_t *results, size_t nresults)
{
    const pmix_value_t *ctx = find_info(results, nresults, PMIX_GROUP_CONTEXT_ID);
    CHECK(NULL != ctx && PMIX_SIZE == ctx->type, "context id");
    return ctx->data.size;
}

static pmix_status_t query_one(const char *key, const char *grp, pmix_info_t **results,
                               size_t *nresults)
{
    pmix_query_t q;
    pmix_info_t qual;
    pmix_status_t rc;
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, key);
    if (NULL != grp) {
        PMIX_INFO_LOAD(&qual, PMIX_GROUP_ID, grp, PMIX_STRING);
        q.qualifiers = &qual;
        q.nqual = 1;
    }
    rc = PMIx_Query_info(&q, 1, results, nresults);
    if (NULL != grp) {
        PMIX_INFO_DESTRUCT(&qual);
    }
    q.qualifiers = NULL;
    q.nqual = 0;
    PMIX_QUERY_DESTRUCT(&q);
    return rc;
}

/* Whether my PMIX_GROUP_NAMES holds grp. */
static bool in_my_groups(const char *grp)
{
    pmix_value_t *v;
    bool found = false;
    if (PMIX_SUCCESS != PMIx_Get(&me, PMIX_GROUP_NAMES, NULL, 0, &v)) {
        return false;
    }
    CHECK(PMIX_DATA_ARRAY == v->type && PMIX_STRING == v->data.darray->type, "group names type");
    for (size_t i = 0; i < v->data.darray->size; i++) {
        found = found || 0 == strcmp(((char **)v->data.darray->array)[i], grp);
    }
    PMIX_VALUE_RELEASE(v);
    return found;
}

static void handler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                    pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata);

/* What each rank gave the group (PMIX_GROUP_INFO) is found by every
 * member with a PMIX_GROUP_CONTEXT_ID qualifier, as OpenPMIx's
 * group_lcl_cid example expects. */
static void check_local_cids(size_t ctx, pmix_rank_t nranks)
{
    pmix_info_t qual;
    pmix_proc_t peer;
    pmix_value_t *v;

    PMIX_INFO_LOAD(&qual, PMIX_GROUP_CONTEXT_ID, &ctx, PMIX_SIZE);
    PMIX_INFO_SET_QUALIFIER(&qual);
    for (pmix_rank_t r = 0; r < nranks; r++) {
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        CHECK_RC(PMIx_Get(&peer, PMIX_GROUP_LOCAL_CID, &qual, 1, &v), PMIX_SUCCESS,
                 "local cid of a member");
        CHECK(PMIX_SIZE == v->type && 1234 + r == v->data.size, "local cid of rank %u", r);
        PMIX_VALUE_RELEASE(v);
    }
    ctx++;
    PMIX_INFO_LOAD(&qual, PMIX_GROUP_CONTEXT_ID, &ctx, PMIX_SIZE);
    PMIX_INFO_SET_QUALIFIER(&qual);
    CHECK_RC(PMIx_Get(&me, PMIX_GROUP_LOCAL_CID, &qual, 1, &v), PMIX_ERR_NOT_FOUND,
             "local cid of another context id");
}

/* PMIX_GROUP_INFO holding this rank's PMIX_GROUP_LOCAL_CID, 1234 + rank. */
static void give_local_cid(pmix_info_t *out)
{
    pmix_info_t mine;
    size_t lcid = 1234 + me.rank;
    pmix_data_array_t given = {.type = PMIX_INFO, .size = 1, .array = &mine};
    PMIX_INFO_LOAD(&mine, PMIX_GROUP_LOCAL_CID, &lcid, PMIX_SIZE);
    PMIX_INFO_LOAD(out, PMIX_GROUP_INFO, &given, PMIX_DATA_ARRAY);
}

static void construct_all(void)
{
    pmix_proc_t all;
    pmix_info_t ask[2], *results;
    size_t nresults;
    const pmix_rank_t ranks[] = {0, 1, 2, 3};

    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&ask[0], PMIX_GROUP_ASSIGN_CONTEXT_ID, NULL, PMIX_BOOL);
    give_local_cid(&ask[1]);
    CHECK_RC(PMIx_Group_construct("g.all", &all, 1, ask, 2, &results, &nresults), PMIX_SUCCESS,
             "construct g.all");
    PMIX_INFO_DESTRUCT(&ask[0]);
    PMIX_INFO_DESTRUCT(&ask[1]);
    check_members(results, nresults, "g.all", ranks, 4);
    CHECK(context_id(results, nresults) == (full ? 1000 : 1), "context id %zu",
          context_id(results, nresults));
    CHECK(PMIX_CHECK_KEY(&results[0], PMIX_GROUP_CONTEXT_ID), "context id is the first result");
    check_local_cids(context_id(results, nresults), 4);
    PMIX_INFO_FREE(results, nresults);
    CHECK(in_my_groups("g.all"), "g.all among my groups");

    CHECK_RC(query_one(PMIX_QUERY_GROUP_NAMES, NULL, &results, &nresults), PMIX_SUCCESS,
             "group names");
    pmix_data_array_t *names = results[0].value.data.darray;
    CHECK(PMIX_STRING == names->type && 1 == names->size &&
              0 == strcmp(((char **)names->array)[0], "g.all"),
          "one group named g.all");
    /* No one builds more until everyone has looked. */
    fence();
    PMIX_INFO_FREE(results, nresults);
    CHECK_RC(query_one(PMIX_QUERY_GROUP_MEMBERSHIP, "g.all", &results, &nresults), PMIX_SUCCESS,
             "membership query");
    CHECK(4 == results[0].value.data.darray->size, "4 members queried");
    PMIX_INFO_FREE(results, nresults);
    CHECK_RC(query_one(PMIX_QUERY_GROUP_MEMBERSHIP, "g.none", &results, &nresults),
             PMIX_ERR_NOT_FOUND, "membership of an unknown group");
}

/* Two groups of the same members are told apart by name; two pairs build
 * theirs at the same time. */
static void pairs(void)
{
    pmix_proc_t pair[2];
    pmix_info_t *results;
    size_t nresults;
    pmix_rank_t base = me.rank % 2;
    const pmix_rank_t ranks[] = {base, base + 2};
    const char *names[2][2] = {{"g.even", "g.even2"}, {"g.odd", "g.odd2"}};

    PMIX_LOAD_PROCID(&pair[0], me.nspace, base + 2);
    PMIX_LOAD_PROCID(&pair[1], me.nspace, base);
    for (int i = 0; i < 2; i++) {
        CHECK_RC(PMIx_Group_construct(names[base][i], pair, 2, NULL, 0, &results, &nresults),
                 PMIX_SUCCESS, names[base][i]);
        check_members(results, nresults, names[base][i], ranks, 2);
        CHECK(NULL == find_info(results, nresults, PMIX_GROUP_CONTEXT_ID),
              "no context id unless asked");
        PMIX_INFO_FREE(results, nresults);
    }
    CHECK_RC(PMIx_Group_destruct(names[base][1], NULL, 0), PMIX_SUCCESS, "destruct pair");
    CHECK(!in_my_groups(names[base][1]) && in_my_groups(names[base][0]), "pair names");
    CHECK_RC(PMIx_Group_leave(names[base][0], NULL, 0), PMIX_SUCCESS, "leave pair");
}

static void leave_and_destruct(void)
{
    pmix_info_t *results;
    size_t nresults;

    fence();
    if (3 == me.rank) {
        CHECK_RC(PMIx_Group_leave("g.all", NULL, 0), PMIX_SUCCESS, "rank 3 leaves");
        CHECK(!in_my_groups("g.all"), "left group forgotten");
        CHECK_RC(PMIx_Group_leave("g.all", NULL, 0), PMIX_ERR_BAD_PARAM, "leave twice");
    } else {
        CHECK(wait_for(&left_seen, 10), "PMIX_GROUP_LEFT event");
    }
    fence();
    CHECK_RC(query_one(PMIX_QUERY_GROUP_MEMBERSHIP, "g.all", &results, &nresults), PMIX_SUCCESS,
             "membership after leave");
    CHECK(3 == results[0].value.data.darray->size, "3 members after the leave");
    PMIX_INFO_FREE(results, nresults);
    if (3 == me.rank) {
        CHECK_RC(PMIx_Group_destruct("g.all", NULL, 0), PMIX_ERR_BAD_PARAM,
                 "destruct by a non-member");
    }
    fence();
    if (3 != me.rank) {
        CHECK_RC(PMIx_Group_destruct("g.all", NULL, 0), PMIX_SUCCESS, "destruct g.all");
        CHECK(!in_my_groups("g.all"), "destructed group forgotten");
    }
    fence();
    CHECK_RC(query_one(PMIX_QUERY_GROUP_MEMBERSHIP, "g.all", &results, &nresults),
             PMIX_ERR_NOT_FOUND, "membership of a destructed group");
}

static void join_done(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                      pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    if (PMIX_SUCCESS == status) {
        PMIX_INFO_CREATE(join_results, ninfo);
        for (size_t i = 0; i < ninfo; i++) {
            PMIx_Info_xfer(&join_results[i], &info[i]);
        }
        njoin_results = ninfo;
    }
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    joined_nb = true;
}

static void handler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                    pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    const pmix_value_t *grp = find_info(info, ninfo, PMIX_GROUP_ID);
    if (NULL != grp) {
        const char *name = grp->data.string;
        if (PMIX_GROUP_LEFT == status && 0 == strcmp(name, "g.all") && 3 == source->rank) {
            left_seen = true;
        } else if (PMIX_GROUP_INVITED == status && 0 == strcmp(name, "g.inv") &&
                   0 == source->rank && 1 == me.rank) {
            /* Answer from the handler itself: the non-blocking form. */
            pmix_info_t given;
            give_local_cid(&given);
            invited_handled = PMIX_SUCCESS == PMIx_Group_join_nb(name, source, PMIX_GROUP_ACCEPT,
                                                                 &given, 1, join_done, NULL);
            PMIX_INFO_DESTRUCT(&given);
        } else if (PMIX_GROUP_INVITE_ACCEPTED == status) {
            accepted_seen++;
        } else if (PMIX_GROUP_INVITE_DECLINED == status && 3 == source->rank) {
            declined_seen++;
        } else if (PMIX_GROUP_CONSTRUCT_COMPLETE == status && 0 == strcmp(name, "g.inv")) {
            completed_seen = true;
        }
    }
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void invitation(void)
{
    pmix_proc_t invited[3], leader;
    pmix_info_t ask[2], *results;
    size_t nresults;
    const pmix_rank_t ranks[] = {0, 1, 2};
    size_t ctx;

    PMIX_LOAD_PROCID(&leader, me.nspace, 0);
    /* Invitations stay among the server's own processes: one of a
     * namespace this server does not run is refused at once, either way. */
    pmix_proc_t far;
    PMIX_LOAD_PROCID(&far, "elsewhere", 0);
    if (0 == me.rank) {
        CHECK_RC(PMIx_Group_invite("g.far", &far, 1, NULL, 0, &results, &nresults),
                 PMIX_ERR_NOT_SUPPORTED, "invite of another server's process");
    } else if (3 == me.rank) {
        CHECK_RC(PMIx_Group_join("g.far", &far, PMIX_GROUP_ACCEPT, NULL, 0, &results, &nresults),
                 PMIX_ERR_NOT_SUPPORTED, "join of another server's leader");
    }
    if (0 == me.rank) {
        for (pmix_rank_t r = 1; r < 4; r++) {
            PMIX_LOAD_PROCID(&invited[r - 1], me.nspace, r);
        }
        PMIX_INFO_LOAD(&ask[0], PMIX_GROUP_ASSIGN_CONTEXT_ID, NULL, PMIX_BOOL);
        give_local_cid(&ask[1]);
        CHECK_RC(PMIx_Group_invite("g.inv", invited, 3, ask, 2, &results, &nresults),
                 PMIX_SUCCESS, "invite");
        PMIX_INFO_DESTRUCT(&ask[0]);
        PMIX_INFO_DESTRUCT(&ask[1]);
        check_members(results, nresults, "g.inv", ranks, 3);
        ctx = context_id(results, nresults);
        PMIX_INFO_FREE(results, nresults);
        CHECK(wait_for(&completed_seen, 10), "construct complete event at the leader");
        struct timespec settle = {.tv_nsec = 200 * 1000 * 1000};
        for (int i = 0; i < 50 && (2 != accepted_seen || 1 != declined_seen); i++) {
            nanosleep(&settle, NULL);
        }
        CHECK(2 == accepted_seen && 1 == declined_seen, "answers seen: %d accepted, %d declined",
              accepted_seen, declined_seen);
        CHECK(in_my_groups("g.inv"), "leader in g.inv");
        CHECK_RC(PMIx_Group_invite("g.inv", invited, 3, NULL, 0, &results, &nresults),
                 PMIX_ERR_EXISTS, "invite to an existing group");
    } else if (1 == me.rank) {
        CHECK(wait_for(&joined_nb, 10), "non-blocking join completed");
        CHECK(invited_handled, "join from the handler");
        check_members(join_results, njoin_results, "g.inv", ranks, 3);
        ctx = context_id(join_results, njoin_results);
        PMIX_INFO_FREE(join_results, njoin_results);
        CHECK(wait_for(&completed_seen, 10), "construct complete event at a member");
    } else if (2 == me.rank) {
        /* Accepting before the invitation may even have arrived. */
        give_local_cid(&ask[0]);
        CHECK_RC(PMIx_Group_join("g.inv", &leader, PMIX_GROUP_ACCEPT, ask, 1, &results,
                                 &nresults),
                 PMIX_SUCCESS, "blocking join");
        PMIX_INFO_DESTRUCT(&ask[0]);
        check_members(results, nresults, "g.inv", ranks, 3);
        ctx = context_id(results, nresults);
        PMIX_INFO_FREE(results, nresults);
    } else {
        CHECK_RC(PMIx_Group_join("g.inv", NULL, PMIX_GROUP_DECLINE, NULL, 0, &results,
                                 &nresults),
                 PMIX_SUCCESS, "decline");
        CHECK(NULL == results && 0 == nresults, "a decline has no results");
        CHECK(!in_my_groups("g.inv"), "declined group not mine");
    }
    if (3 != me.rank) {
        check_local_cids(ctx, 3);
        pmix_value_t val, *got;
        pmix_proc_t peer;
        PMIX_VALUE_LOAD(&val, &ctx, PMIX_SIZE);
        CHECK_RC(PMIx_Put(PMIX_LOCAL, "test.ctx", &val), PMIX_SUCCESS, "put ctx");
        CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "commit");
        fence();
        for (pmix_rank_t r = 0; r < 3; r++) {
            PMIX_LOAD_PROCID(&peer, me.nspace, r);
            CHECK_RC(PMIx_Get(&peer, "test.ctx", NULL, 0, &got), PMIX_SUCCESS, "ctx of peer");
            CHECK(got->data.size == ctx, "all members share context id %zu", ctx);
            PMIX_VALUE_RELEASE(got);
        }
    } else {
        fence();
    }
}

static void timeouts_and_errors(void)
{
    pmix_proc_t pair[2];
    pmix_info_t tmo, *results;
    size_t nresults;
    int secs = 1;
    char toolong[PMIX_MAX_NSLEN + 2];

    PMIX_LOAD_PROCID(&pair[0], me.nspace, 0);
    PMIX_LOAD_PROCID(&pair[1], me.nspace, 1);
    PMIX_INFO_LOAD(&tmo, PMIX_TIMEOUT, &secs, PMIX_INT);
    if (0 == me.rank) {
        CHECK_RC(PMIx_Group_construct("g.never", pair, 2, &tmo, 1, &results, &nresults),
                 PMIX_ERR_TIMEOUT, "construct nobody else joins");
        CHECK_RC(PMIx_Group_invite("g.ignored", &pair[1], 1, &tmo, 1, &results, &nresults),
                 PMIX_ERR_TIMEOUT, "invitation nobody answers");
        CHECK(!in_my_groups("g.never") && !in_my_groups("g.ignored"), "failed groups not mine");
    }
    PMIX_INFO_DESTRUCT(&tmo);
    memset(toolong, 'x', sizeof(toolong) - 1);
    toolong[sizeof(toolong) - 1] = '\0';
    CHECK_RC(PMIx_Group_construct(NULL, pair, 2, NULL, 0, &results, &nresults),
             PMIX_ERR_BAD_PARAM, "NULL name");
    CHECK_RC(PMIx_Group_construct(toolong, pair, 2, NULL, 0, &results, &nresults),
             PMIX_ERR_BAD_PARAM, "name too long");
    CHECK_RC(PMIx_Group_join(toolong, NULL, PMIX_GROUP_DECLINE, NULL, 0, &results, &nresults),
             PMIX_ERR_BAD_PARAM, "join with a name too long");
    CHECK_RC(PMIx_Group_construct("g.x", NULL, 0, NULL, 0, &results, &nresults),
             PMIX_ERR_BAD_PARAM, "no members");
    CHECK_RC(PMIx_Group_destruct("g.unknown", NULL, 0), PMIX_ERR_NOT_FOUND, "destruct unknown");
    CHECK_RC(PMIx_Group_leave("g.unknown", NULL, 0), PMIX_ERR_NOT_FOUND, "leave unknown");
    CHECK_RC(PMIx_Group_join("g.x", NULL, (pmix_group_opt_t)7, NULL, 0, &results, &nresults),
             PMIX_ERR_BAD_PARAM, "join with a bad option");
    /* As in OpenPMIx, a NULL callback is a request nobody waits for. */
    CHECK_RC(PMIx_Group_destruct_nb("g.x", NULL, 0, NULL, NULL), PMIX_SUCCESS,
             "destruct without callback");
    CHECK_RC(PMIx_Group_join_nb("g.nobody", NULL, PMIX_GROUP_DECLINE, NULL, 0, NULL, NULL),
             PMIX_SUCCESS, "join without callback");
    fence();
}

#define GO_FINALIZE (PMIX_EXTERNAL_ERR_BASE - 201)

static volatile bool go_finalize, opt_done;
static pmix_status_t opt_status;

static void go(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
               size_t ninfo, pmix_info_t results[], size_t nresults,
               pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    go_finalize = true;
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void opt_built(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                      pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    const pmix_rank_t ranks[] = {0, 1, 2};
    opt_status = status;
    if (PMIX_SUCCESS == status) {
        check_members(info, ninfo, "g.opt", ranks, 3);
    }
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
    opt_done = true;
}

/* Rank 3 finalizes instead of joining: with PMIX_GROUP_OPTIONAL the others
 * form their groups without it, whether it goes while they wait (g.opt:
 * rank 0 tells it to once its own contribution is in) or has gone, and
 * been deregistered, before they start (g.opt2, most likely). */
static void optional_member(void)
{
    pmix_proc_t all;
    pmix_info_t opt, *results;
    size_t nresults;
    pmix_status_t code = GO_FINALIZE;
    const pmix_rank_t ranks[] = {0, 1, 2};
    struct timespec later = {.tv_nsec = 500 * 1000 * 1000};

    if (3 == me.rank) {
        CHECK(PMIx_Register_event_handler(&code, 1, NULL, 0, go, NULL, NULL) >= 0, "go handler");
        fence();
        CHECK(wait_for(&go_finalize, 20), "told to finalize");
        return;
    }
    fence();
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&opt, PMIX_GROUP_OPTIONAL, NULL, PMIX_BOOL);
    CHECK_RC(PMIx_Group_construct_nb("g.opt", &all, 1, &opt, 1, opt_built, NULL), PMIX_SUCCESS,
             "optional construct");
    if (0 == me.rank) {
        CHECK_RC(PMIx_Notify_event(GO_FINALIZE, NULL, PMIX_RANGE_NAMESPACE, NULL, 0, NULL, NULL),
                 PMIX_SUCCESS, "tell rank 3");
    }
    CHECK(wait_for(&opt_done, 20), "optional construct completes");
    CHECK_RC(opt_status, PMIX_SUCCESS, "optional construct");
    nanosleep(&later, NULL);
    CHECK_RC(PMIx_Group_construct("g.opt2", &all, 1, &opt, 1, &results, &nresults), PMIX_SUCCESS,
             "optional construct after the departure");
    check_members(results, nresults, "g.opt2", ranks, 3);
    PMIX_INFO_FREE(results, nresults);
    PMIX_INFO_DESTRUCT(&opt);
    /* Without PMIX_GROUP_OPTIONAL, each contribution fails at once. */
    results = NULL;
    CHECK_RC(PMIx_Group_construct("g.lost", &all, 1, NULL, 0, &results, &nresults),
             PMIX_ERR_PROC_TERM_WO_SYNC, "construct naming a rank gone");
    CHECK_RC(PMIx_Group_destruct("g.opt", NULL, 0), PMIX_SUCCESS, "destruct g.opt");
    CHECK_RC(PMIx_Group_destruct("g.opt2", NULL, 0), PMIX_SUCCESS, "destruct g.opt2");
}

int main(int argc, char **argv)
{
    pmix_status_t codes[] = {PMIX_GROUP_LEFT, PMIX_GROUP_INVITED, PMIX_GROUP_INVITE_ACCEPTED,
                             PMIX_GROUP_INVITE_DECLINED, PMIX_GROUP_CONSTRUCT_COMPLETE};

    full = argc > 1 && 0 == strcmp(argv[1], "full");
    CHECK_RC(PMIx_Init(&me, NULL, 0), PMIX_SUCCESS, "init");
    CHECK(PMIx_Register_event_handler(codes, 5, NULL, 0, handler, NULL, NULL) >= 0, "handler");
    CHECK(!in_my_groups("g.all"), "no groups yet");
    construct_all();
    pairs();
    leave_and_destruct();
    invitation();
    timeouts_and_errors();
    optional_member();
    CHECK_RC(PMIx_Finalize(NULL, 0), PMIX_SUCCESS, "finalize");
    CHECK_RC(PMIx_Group_construct("g.late", &me, 1, NULL, 0, NULL, NULL), PMIX_ERR_INIT,
             "after finalize");
    printf("%s:%u: groups ok (%s host)\n", me.nspace, me.rank, full ? "full" : "bare");
    return 0;
}
