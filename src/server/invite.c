/*
 * invite.c - groups built by invitation: GROUP_INVITE from the leader,
 * GROUP_JOIN from each invited process.
 *
 * Design notes:
 *  - The leader's INVITE makes an invitation: the invited processes get a
 *    PMIX_GROUP_INVITED event (source: the leader, PMIX_GROUP_ID: the
 *    name) and answer with JOIN, accepting or declining. The leader hears
 *    each answer as a PMIX_GROUP_INVITE_ACCEPTED or _DECLINED event, and
 *    PMIX_GROUP_INVITE_FAILED for an invited process that dies first.
 *  - When every invited process has answered (or died), the group is made
 *    of the leader and those who accepted: it is recorded (group.c), the
 *    leader's INVITE and the accepting JOINs are answered with the same
 *    results as a construct (with what the leader and those who accepted
 *    gave in PMIX_GROUP_INFO, as group.c says), and the members get
 *    PMIX_GROUP_CONSTRUCT_COMPLETE. A decline is answered at once.
 *  - A JOIN may arrive before its invitation (a process that knows it will
 *    be invited need not wait for the event); it is held until the
 *    invitation comes, or its own PMIX_TIMEOUT passes.
 *  - PMIX_TIMEOUT on the invitation abandons it when it expires: the
 *    leader gets PMIX_ERR_TIMEOUT and those who accepted
 *    PMIX_GROUP_CONSTRUCT_ABORT. So does the leader's death (the invited
 *    processes then get PMIX_GROUP_LEADER_FAILED).
 *  - Invitations are kept by the leader's server. Another server's
 *    processes may be invited where the host passes events between
 *    servers and runs constructs across them (DROVER_SERVER_INVITES_ACROSS,
 *    the drover daemon's jobs); elsewhere such an INVITE, or a JOIN naming
 *    another server's leader, is PMIX_ERR_NOT_SUPPORTED at once rather
 *    than an answer that would never come.
 *  - Across servers, events carry it all. The invited process's server
 *    sends its JOIN's answer to the leader as the event the leader hears
 *    (which its server reads too: invite_heard), and holds an acceptance.
 *    Once all have answered, the leader's server tells the acceptors'
 *    servers to make the group (INVITE_MAKE_GROUP, with the members), and
 *    each server hands what it holds (the leader's INVITE, the JOINs) to
 *    one construct of the group over all members (group.c), which the
 *    host runs across them, giving a context id unique across them; its
 *    results answer those requests, and the leader's server tells every
 *    member it is made. An abandoned invitation ends the held JOINs
 *    (PMIX_GROUP_LEADER_FAILED, PMIX_GROUP_CONSTRUCT_ABORT), and an
 *    acceptor that ends first is PMIX_GROUP_INVITE_FAILED to the leader.
 *    An answer may come before its invitation (HEARD_EARLY_MAX are kept).
 *    A server also notes the invitations other servers' leaders send its
 *    processes (INVITED_HERE_MAX at most): one that ends before it
 *    answers is PMIX_GROUP_INVITE_FAILED to the leader, as here. A JOIN
 *    must name another server's leader.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "directive.h"
#include "pmix.h"
#include "server.h"

/* From the leader's server to the acceptors': every invited process has
 * answered, make the group (PMIX_GROUP_MEMBERSHIP, and
 * PMIX_GROUP_ASSIGN_CONTEXT_ID if asked for). drover's servers' own code,
 * below those PMIx defines; the server it reaches consumes it. */
#define INVITE_MAKE_GROUP (PMIX_EXTERNAL_ERR_BASE - 1700)

/* Answers from other servers kept until their invitation is made here. */
#define HEARD_EARLY_MAX 256
/* Invitations of other servers' leaders to processes here, noted until
 * they answer. */
#define INVITED_HERE_MAX 1024

typedef enum { PENDING, ACCEPTED, DECLINED, FAILED } answer_t;

/* A JOIN request: held while its invitation is incomplete or absent. */
typedef struct join {
    server_peer_t *peer;         /* a reference */
    uint32_t tag;
    pmix_proc_t proc;
    char *name;
    bool has_leader;
    pmix_proc_t leader;
    bool accept;
    pmix_data_buffer_t given;    /* its PMIX_GROUP_INFO (group_pack_given) */
    struct event *timer;         /* an early join's PMIX_TIMEOUT */
    struct join *next;
} join_t;

typedef struct invite {
    char *name;
    server_peer_t *peer;         /* the leader's INVITE, a reference */
    uint32_t tag;
    pmix_proc_t leader;
    pmix_proc_t *invited;
    uint8_t *answers;            /* answer_t of each */
    size_t ninvited;
    join_t *accepted;            /* JOINs waiting for the group */
    bool assign_context;
    pmix_data_buffer_t given;    /* the leader's and acceptors' PMIX_GROUP_INFO */
    struct event *timer;
    struct invite *next;
} invite_t;

static invite_t *invites;
static join_t *early;            /* JOINs whose invitation has not come */
static join_t *across;           /* JOINs accepted here for another
                                  * server's leader, until it says */

/* An answer from another server to an invitation not made here yet. */
typedef struct heard {
    char *name;
    pmix_proc_t from;
    pmix_status_t code;
    struct heard *next;
} heard_t;

static heard_t *heard_early;
static size_t nheard_early;

/* A process here invited by another server's leader, until it answers. */
typedef struct invited_here {
    char *name;
    pmix_proc_t leader;
    pmix_proc_t proc;
    struct invited_here *next;
} invited_here_t;

static invited_here_t *invited_here;
static size_t ninvited_here;

/* Forget the invitations noted for name from leader: to proc alone, or
 * (proc NULL) to all. */
static void forget_invited(const char *name, const pmix_proc_t *leader, const pmix_proc_t *proc)
{
    for (invited_here_t **p = &invited_here; NULL != *p;) {
        invited_here_t *i = *p;
        if (0 == strcmp(i->name, name) && PMIX_CHECK_PROCID(&i->leader, leader) &&
            (NULL == proc || PMIX_CHECK_PROCID(&i->proc, proc))) {
            *p = i->next;
            ninvited_here--;
            free(i->name);
            free(i);
        } else {
            p = &i->next;
        }
    }
}

/* Note the processes here that leader's invitation name reaches (its
 * PMIX_EVENT_CUSTOM_RANGE). */
static void note_invited(const char *name, const pmix_proc_t *leader, const pmix_info_t *info,
                         size_t ninfo)
{
    const pmix_value_t *range = directive_find(info, ninfo, PMIX_EVENT_CUSTOM_RANGE);
    if (NULL == range || PMIX_DATA_ARRAY != range->type || NULL == range->data.darray ||
        PMIX_PROC != range->data.darray->type) {
        return;
    }
    const pmix_proc_t *procs = range->data.darray->array;
    for (size_t k = 0; k < range->data.darray->size && ninvited_here < INVITED_HERE_MAX; k++) {
        if (PMIX_RANK_WILDCARD == procs[k].rank || !group_all_local(&procs[k], 1)) {
            continue;
        }
        invited_here_t *i = calloc(1, sizeof(*i));
        if (NULL == i || NULL == (i->name = strdup(name))) {
            free(i);
            return;
        }
        forget_invited(name, leader, &procs[k]);
        i->leader = *leader;
        i->proc = procs[k];
        i->next = invited_here;
        invited_here = i;
        ninvited_here++;
    }
}

static struct event *arm(int seconds, void (*fn)(evutil_socket_t, short, void *), void *arg)
{
    struct timeval tv = {.tv_sec = seconds};
    struct event *ev = 0 < seconds ? evtimer_new(server.base, fn, arg) : NULL;
    if (NULL != ev) {
        evtimer_add(ev, &tv);
    }
    return ev;
}

static void free_join(join_t *j)
{
    if (NULL != j->timer) {
        event_free(j->timer);
    }
    peer_release(j->peer);
    PMIX_DATA_BUFFER_DESTRUCT(&j->given);
    free(j->name);
    free(j);
}

/* Answer a JOIN (body: results, may be NULL) and free it. */
static void answer_join(join_t *j, pmix_status_t status, const pmix_data_buffer_t *body)
{
    peer_reply(j->peer, PROTOCOL_GROUP_JOIN, j->tag, status, body);
    free_join(j);
}

/* Take j out of *list. */
static void unlink_join(join_t **list, const join_t *j)
{
    for (; NULL != *list; list = &(*list)->next) {
        if (*list == j) {
            *list = j->next;
            return;
        }
    }
}

static void unlink_invite(invite_t *inv)
{
    for (invite_t **p = &invites; NULL != *p; p = &(*p)->next) {
        if (*p == inv) {
            *p = inv->next;
            return;
        }
    }
}

/* Forget inv, answering the leader with status (unless it is gone) and
 * those who accepted with join_status; body (results) may be NULL. */
static void end_invite(invite_t *inv, pmix_status_t status, pmix_status_t join_status,
                       const pmix_data_buffer_t *body)
{
    unlink_invite(inv);
    if (NULL != inv->peer) {
        peer_reply(inv->peer, PROTOCOL_GROUP_INVITE, inv->tag, status, body);
        peer_release(inv->peer);
    }
    while (NULL != inv->accepted) {
        join_t *j = inv->accepted;
        inv->accepted = j->next;
        answer_join(j, join_status, body);
    }
    if (NULL != inv->timer) {
        event_free(inv->timer);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&inv->given);
    free(inv->name);
    free(inv->invited);
    free(inv->answers);
    free(inv);
}

/* The processes of other servers that accepted inv, into *out (caller
 * frees): how many. */
static size_t accepted_across(const invite_t *inv, pmix_proc_t **out)
{
    size_t n = 0;
    *out = malloc((inv->ninvited + 1) * sizeof(**out));
    for (size_t i = 0; NULL != *out && i < inv->ninvited; i++) {
        if (ACCEPTED == inv->answers[i] && !group_all_local(&inv->invited[i], 1)) {
            (*out)[n++] = inv->invited[i];
        }
    }
    return n;
}

/* inv is abandoned: the other servers end the JOINs they hold for it. */
static void abort_across(const invite_t *inv)
{
    pmix_proc_t *targets;
    size_t n = accepted_across(inv, &targets);
    group_announce(PMIX_GROUP_CONSTRUCT_ABORT, &inv->leader, inv->name, targets, n, NULL, 0);
    free(targets);
}

/* Some who accepted inv are other servers' processes: their servers are
 * told to make the group, and this one hands the leader's INVITE and the
 * JOINs it holds to the construct of members (design notes). */
static void complete_across(invite_t *inv, const pmix_proc_t *members, size_t nmembers,
                            pmix_proc_t *targets, size_t ntargets)
{
    pmix_info_t extra[2];
    size_t nextra = 0;
    pmix_data_array_t array = {.type = PMIX_PROC, .size = nmembers, .array = (void *)members};
    PMIX_INFO_LOAD(&extra[nextra++], PMIX_GROUP_MEMBERSHIP, &array, PMIX_DATA_ARRAY);
    if (inv->assign_context) {
        PMIX_INFO_LOAD(&extra[nextra++], PMIX_GROUP_ASSIGN_CONTEXT_ID, &inv->assign_context,
                       PMIX_BOOL);
    }
    group_announce(INVITE_MAKE_GROUP, &inv->leader, inv->name, targets, ntargets, extra, nextra);
    for (size_t i = 0; i < nextra; i++) {
        PMIX_INFO_DESTRUCT(&extra[i]);
    }
    group_construct_invited(inv->peer, inv->tag, PROTOCOL_GROUP_INVITE, inv->name, members,
                            nmembers, inv->assign_context, &inv->given, &inv->leader);
    peer_release(inv->peer);
    inv->peer = NULL;
    pmix_data_buffer_t none;
    PMIX_DATA_BUFFER_CONSTRUCT(&none);
    while (NULL != inv->accepted) {
        join_t *j = inv->accepted;
        inv->accepted = j->next;
        group_construct_invited(j->peer, j->tag, PROTOCOL_GROUP_JOIN, inv->name, members, nmembers,
                                inv->assign_context, &none, NULL);
        free_join(j);
    }
    /* Nothing left to answer here: the construct does. */
    end_invite(inv, PMIX_SUCCESS, PMIX_SUCCESS, NULL);
}

/* Everyone has answered: make the group of the leader and those who
 * accepted. */
static void maybe_complete(invite_t *inv)
{
    pmix_data_buffer_t body;
    pmix_proc_t *members;
    size_t n = 0, context_id = SIZE_MAX;
    pmix_status_t rc;

    for (size_t i = 0; i < inv->ninvited; i++) {
        if (PENDING == inv->answers[i]) {
            return;
        }
    }
    if (NULL == (members = malloc((inv->ninvited + 1) * sizeof(*members)))) {
        abort_across(inv);
        end_invite(inv, PMIX_ERR_NOMEM, PMIX_GROUP_CONSTRUCT_ABORT, NULL);
        return;
    }
    members[n++] = inv->leader;
    for (size_t i = 0; i < inv->ninvited; i++) {
        if (ACCEPTED == inv->answers[i]) {
            members[n++] = inv->invited[i];
        }
    }
    n = collective_normalise(members, n);
    pmix_proc_t *targets;
    size_t ntargets = accepted_across(inv, &targets);
    if (NULL == targets || ntargets > 0) {
        if (NULL == targets) {
            end_invite(inv, PMIX_ERR_NOMEM, PMIX_GROUP_CONSTRUCT_ABORT, NULL);
        } else {
            complete_across(inv, members, n, targets, ntargets);
        }
        free(targets);
        free(members);
        return;
    }
    free(targets);
    if (inv->assign_context) {
        context_id = group_new_context_id();
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&body);
    rc = group_pack_results(&body, inv->name, members, n, context_id, NULL, 0);
    if (PMIX_SUCCESS == rc && SIZE_MAX != context_id &&
        inv->given.pack_ptr > inv->given.unpack_ptr) {
        rc = PMIx_Data_copy_payload(&body, &inv->given);
    }
    if (PMIX_SUCCESS == rc) {
        group_announce_made(&inv->leader, inv->name, members, n, context_id);
        rc = group_record(inv->name, members, n, context_id, false, true);
        members = NULL;
    }
    free(members);
    end_invite(inv, rc, PMIX_SUCCESS == rc ? PMIX_SUCCESS : PMIX_GROUP_CONSTRUCT_ABORT,
               PMIX_SUCCESS == rc ? &body : NULL);
    PMIX_DATA_BUFFER_DESTRUCT(&body);
}

static void invite_expired(evutil_socket_t fd, short what, void *arg)
{
    abort_across(arg);
    end_invite(arg, PMIX_ERR_TIMEOUT, PMIX_GROUP_CONSTRUCT_ABORT, NULL);
}

/* What another server said of its invited process from (the event the
 * leader hears, delivered by the host's path). */
static void record_across(invite_t *inv, const pmix_proc_t *from, pmix_status_t code)
{
    for (size_t i = 0; i < inv->ninvited; i++) {
        if (!PMIX_CHECK_PROCID(&inv->invited[i], from)) {
            continue;
        }
        if (PMIX_GROUP_INVITE_FAILED == code && DECLINED != inv->answers[i]) {
            inv->answers[i] = FAILED;
        } else if (PENDING == inv->answers[i]) {
            inv->answers[i] = PMIX_GROUP_INVITE_ACCEPTED == code ? ACCEPTED : DECLINED;
        }
        return;
    }
}

/* Record j's answer to inv; j is answered now or held for the group.
 * The caller then sees whether the group is complete. */
static void apply(invite_t *inv, join_t *j)
{
    size_t i = 0;
    while (i < inv->ninvited && !PMIX_CHECK_PROCID(&inv->invited[i], &j->proc)) {
        i++;
    }
    if (i == inv->ninvited || PENDING != inv->answers[i]) {
        answer_join(j, i == inv->ninvited ? PMIX_ERR_NOT_FOUND : PMIX_ERR_EXISTS, NULL);
        return;
    }
    pmix_status_t rc = j->accept && j->given.pack_ptr > j->given.unpack_ptr
                           ? PMIx_Data_copy_payload(&inv->given, &j->given)
                           : PMIX_SUCCESS;
    if (PMIX_SUCCESS != rc) {
        answer_join(j, rc, NULL); /* its answer is still awaited */
        return;
    }
    inv->answers[i] = j->accept ? ACCEPTED : DECLINED;
    group_announce(j->accept ? PMIX_GROUP_INVITE_ACCEPTED : PMIX_GROUP_INVITE_DECLINED, &j->proc,
                   inv->name, &inv->leader, 1, NULL, 0);
    if (j->accept) {
        if (NULL != j->timer) {
            event_free(j->timer);
            j->timer = NULL;
        }
        j->next = inv->accepted;
        inv->accepted = j;
    } else {
        answer_join(j, PMIX_SUCCESS, NULL);
    }
}

static bool meant_for(const join_t *j, const invite_t *inv)
{
    return 0 == strcmp(j->name, inv->name) &&
           (!j->has_leader || PMIX_CHECK_PROCID(&j->leader, &inv->leader));
}

/* GROUP_INVITE: PMIX_STRING name, PMIX_PROC[] invited, PMIX_INFO[]
 * directives; reply PMIX_INFO[] results once everyone has answered. */
void group_invite_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    char *name = NULL;
    pmix_proc_t *procs = NULL;
    pmix_info_t *info = NULL;
    size_t nprocs = 0, ninfo = 0;
    invite_t *inv = NULL;
    int32_t n = 1;
    pmix_status_t rc;

    if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &name, &n, PMIX_STRING)) ||
        PMIX_SUCCESS != (rc = protocol_unpack_array(payload, PMIX_PROC, (void **)&procs,
                                                    &nprocs)) ||
        PMIX_SUCCESS != (rc = protocol_unpack_array(payload, PMIX_INFO, (void **)&info,
                                                    &ninfo))) {
        goto done;
    }
    rc = PMIX_ERR_BAD_PARAM;
    if (NULL == name || '\0' == name[0] || strnlen(name, PMIX_MAX_NSLEN + 1) > PMIX_MAX_NSLEN ||
        0 == nprocs) {
        goto done;
    }
    rc = PMIX_ERR_EXISTS;
    if (group_exists(name)) {
        goto done;
    }
    for (invite_t *other = invites; NULL != other; other = other->next) {
        if (0 == strcmp(other->name, name)) {
            goto done;
        }
    }
    rc = PMIX_ERR_NOMEM;
    if (NULL == (inv = calloc(1, sizeof(*inv)))) {
        goto done;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&inv->given);
    if (PMIX_SUCCESS != group_expand(procs, nprocs, &inv->invited, &inv->ninvited) ||
        NULL == (inv->answers = calloc(inv->ninvited + 1, 1)) ||
        PMIX_SUCCESS != (rc = group_pack_given(&inv->given, &peer->proc, info, ninfo))) {
        goto done;
    }
    /* The leader does not invite itself; every other member must be a
     * process, not a whole job of unknown size. */
    size_t k = 0;
    for (size_t i = 0; i < inv->ninvited; i++) {
        if (PMIX_RANK_WILDCARD == inv->invited[i].rank) {
            rc = PMIX_ERR_BAD_PARAM;
            goto done;
        }
        if (!server.invites_across && !group_all_local(&inv->invited[i], 1)) {
            rc = PMIX_ERR_NOT_SUPPORTED;
            goto done;
        }
        if (!PMIX_CHECK_PROCID(&inv->invited[i], &peer->proc)) {
            inv->invited[k++] = inv->invited[i];
        }
    }
    inv->ninvited = k;
    inv->name = name;
    name = NULL;
    inv->peer = peer;
    inv->tag = tag;
    inv->leader = peer->proc;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_ASSIGN_CONTEXT_ID)) {
            inv->assign_context = PMIX_INFO_TRUE(&info[i]);
        }
    }
    inv->timer = arm(directive_timeout(info, ninfo), invite_expired, inv);
    peer_retain(peer);
    inv->next = invites;
    invites = inv;
    group_announce(PMIX_GROUP_INVITED, &inv->leader, inv->name, inv->invited, inv->ninvited,
                   NULL, 0);
    /* Answers that came first, from here and from other servers. */
    for (heard_t **h = &heard_early; NULL != *h;) {
        heard_t *found = *h;
        if (0 == strcmp(found->name, inv->name)) {
            *h = found->next;
            nheard_early--;
            record_across(inv, &found->from, found->code);
            free(found->name);
            free(found);
        } else {
            h = &found->next;
        }
    }
    for (join_t **j = &early; NULL != *j;) {
        join_t *found = *j;
        if (meant_for(found, inv)) {
            *j = found->next;
            apply(inv, found);
        } else {
            j = &found->next;
        }
    }
    maybe_complete(inv);
    inv = NULL;
    rc = PMIX_SUCCESS;
done:
    if (PMIX_SUCCESS != rc) {
        peer_reply(peer, PROTOCOL_GROUP_INVITE, tag, rc, NULL);
        if (NULL != inv) {
            PMIX_DATA_BUFFER_DESTRUCT(&inv->given);
            free(inv->invited);
            free(inv->answers);
            free(inv);
        }
    }
    free(name);
    free(procs);
    protocol_free_array(info, ninfo, PMIX_INFO);
}

static void early_expired(evutil_socket_t fd, short what, void *arg)
{
    join_t *j = arg;
    unlink_join(&early, j);
    answer_join(j, PMIX_ERR_TIMEOUT, NULL);
}

/* A JOIN held for another server's leader waited PMIX_TIMEOUT: it gives
 * up, which the leader's server takes as the process gone. */
static void across_expired(evutil_socket_t fd, short what, void *arg)
{
    join_t *j = arg;
    pmix_info_t affected;
    unlink_join(&across, j);
    PMIX_INFO_LOAD(&affected, PMIX_EVENT_AFFECTED_PROC, &j->proc, PMIX_PROC);
    group_announce(PMIX_GROUP_INVITE_FAILED, &j->proc, j->name, &j->leader, 1, &affected, 1);
    PMIX_INFO_DESTRUCT(&affected);
    answer_join(j, PMIX_ERR_TIMEOUT, NULL);
}

/* A JOIN of another server's leader: its answer goes there as the event
 * the leader hears; an acceptance is held until that server says. */
static void join_across(join_t *j, int timeout)
{
    forget_invited(j->name, &j->leader, &j->proc);
    group_announce(j->accept ? PMIX_GROUP_INVITE_ACCEPTED : PMIX_GROUP_INVITE_DECLINED, &j->proc,
                   j->name, &j->leader, 1, NULL, 0);
    if (!j->accept) {
        answer_join(j, PMIX_SUCCESS, NULL);
        return;
    }
    j->timer = arm(timeout, across_expired, j);
    j->next = across;
    across = j;
}

/* GROUP_JOIN: PMIX_STRING name, PMIX_PROC[] leader (none or one),
 * PMIX_BOOL accept, PMIX_INFO[] directives; reply PMIX_INFO[] results
 * (accepting, once the group is complete) or nothing (declining). */
void group_join_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    pmix_proc_t *leader = NULL;
    pmix_info_t *info = NULL;
    size_t nleader = 0, ninfo = 0;
    join_t *j = calloc(1, sizeof(*j));
    int32_t n = 1;
    pmix_status_t rc = NULL == j ? PMIX_ERR_NOMEM : PMIX_SUCCESS;

    if (NULL != j) {
        PMIX_DATA_BUFFER_CONSTRUCT(&j->given);
    }
    if (PMIX_SUCCESS != rc ||
        PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &j->name, &n, PMIX_STRING)) ||
        PMIX_SUCCESS != (rc = protocol_unpack_array(payload, PMIX_PROC, (void **)&leader,
                                                    &nleader)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, payload, &j->accept, &n, PMIX_BOOL)) ||
        PMIX_SUCCESS != (rc = protocol_unpack_array(payload, PMIX_INFO, (void **)&info,
                                                    &ninfo))) {
        goto fail;
    }
    if (NULL == j->name || '\0' == j->name[0] ||
        strnlen(j->name, PMIX_MAX_NSLEN + 1) > PMIX_MAX_NSLEN || 1 < nleader) {
        rc = PMIX_ERR_BAD_PARAM;
        goto fail;
    }
    bool remote = 1 == nleader && !group_all_local(leader, 1);
    if (remote && !server.invites_across) {
        rc = PMIX_ERR_NOT_SUPPORTED;
        goto fail;
    }
    if (j->accept && PMIX_SUCCESS != (rc = group_pack_given(&j->given, &peer->proc, info, ninfo))) {
        goto fail;
    }
    j->peer = peer;
    j->tag = tag;
    j->proc = peer->proc;
    j->has_leader = 1 == nleader;
    if (j->has_leader) {
        j->leader = leader[0];
    }
    peer_retain(peer);
    free(leader);
    if (remote) {
        join_across(j, directive_timeout(info, ninfo));
        protocol_free_array(info, ninfo, PMIX_INFO);
        return;
    }
    invite_t *inv = invites;
    while (NULL != inv && !meant_for(j, inv)) {
        inv = inv->next;
    }
    if (NULL != inv) {
        apply(inv, j);
        maybe_complete(inv);
    } else {
        j->timer = arm(directive_timeout(info, ninfo), early_expired, j);
        j->next = early;
        early = j;
    }
    protocol_free_array(info, ninfo, PMIX_INFO);
    return;
fail:
    peer_reply(peer, PROTOCOL_GROUP_JOIN, tag, rc, NULL);
    if (NULL != j) {
        PMIX_DATA_BUFFER_DESTRUCT(&j->given);
        free(j->name);
        free(j);
    }
    free(leader);
    protocol_free_array(info, ninfo, PMIX_INFO);
}

/* Another server's process from answered the invitation name: recorded
 * on the invitation, or kept until it is made here. */
static void heard_answer(const char *name, const pmix_proc_t *from, pmix_status_t code)
{
    for (invite_t *inv = invites; NULL != inv; inv = inv->next) {
        if (0 == strcmp(inv->name, name)) {
            record_across(inv, from, code);
            maybe_complete(inv);
            return;
        }
    }
    heard_t *h = nheard_early < HEARD_EARLY_MAX ? calloc(1, sizeof(*h)) : NULL;
    if (NULL == h || NULL == (h->name = strdup(name))) {
        free(h);
        return;
    }
    h->from = *from;
    h->code = code;
    h->next = heard_early;
    heard_early = h;
    nheard_early++;
}

/* The JOINs held here for the invitation name of leader (another
 * server's) are handed to the group's construct (make) or answered with
 * PMIX_GROUP_CONSTRUCT_ABORT. Whether there were any. */
static bool end_across(const char *name, const pmix_proc_t *leader, bool make,
                       const pmix_info_t *info, size_t ninfo)
{
    const pmix_value_t *m = directive_find(info, ninfo, PMIX_GROUP_MEMBERSHIP);
    const pmix_data_array_t *members = NULL != m && PMIX_DATA_ARRAY == m->type ? m->data.darray
                                                                                : NULL;
    bool assign = directive_flag(info, ninfo, PMIX_GROUP_ASSIGN_CONTEXT_ID), any = false;
    if (make && (NULL == members || PMIX_PROC != members->type || 0 == members->size)) {
        return false;
    }
    for (join_t **p = &across; NULL != *p;) {
        join_t *j = *p;
        if (0 != strcmp(j->name, name) || !PMIX_CHECK_PROCID(&j->leader, leader)) {
            p = &j->next;
            continue;
        }
        *p = j->next;
        any = true;
        if (make) {
            group_construct_invited(j->peer, j->tag, PROTOCOL_GROUP_JOIN, name, members->array,
                                    members->size, assign, &j->given, NULL);
            free_join(j);
        } else {
            answer_join(j, PMIX_GROUP_CONSTRUCT_ABORT, NULL);
        }
    }
    return any;
}

bool invite_heard(pmix_status_t code, const pmix_proc_t *source, const pmix_info_t *info,
                  size_t ninfo)
{
    const pmix_value_t *id = directive_find(info, ninfo, PMIX_GROUP_ID);
    if (!server.invites_across || NULL == id || PMIX_STRING != id->type ||
        NULL == id->data.string || group_all_local(source, 1)) {
        return false;
    }
    const char *name = id->data.string;
    switch (code) {
    case PMIX_GROUP_INVITED:
        note_invited(name, source, info, ninfo);
        return false;
    case PMIX_GROUP_INVITE_ACCEPTED:
    case PMIX_GROUP_INVITE_DECLINED:
    case PMIX_GROUP_INVITE_FAILED:
        heard_answer(name, source, code);
        return false;
    case PMIX_GROUP_LEADER_FAILED:
        forget_invited(name, source, NULL);
        (void)end_across(name, source, false, info, ninfo);
        return false;
    case PMIX_GROUP_CONSTRUCT_ABORT:
        forget_invited(name, source, NULL);
        /* The acceptors hear it as their JOIN's answer. */
        return end_across(name, source, false, info, ninfo);
    case INVITE_MAKE_GROUP:
        forget_invited(name, source, NULL);
        (void)end_across(name, source, true, info, ninfo);
        return true;
    default:
        return false;
    }
}

/* Drop the held JOINs in *list made by proc (gone: no one to answer). */
static void drop_joins_of(join_t **list, const pmix_proc_t *proc)
{
    while (NULL != *list) {
        join_t *j = *list;
        if (PMIX_CHECK_PROCID(&j->proc, proc)) {
            *list = j->next;
            free_join(j);
        } else {
            list = &j->next;
        }
    }
}

void invite_client_gone(server_client_t *client)
{
    const pmix_proc_t *gone = &client->proc;
    pmix_info_t affected;

    drop_joins_of(&early, gone);
    PMIX_INFO_LOAD(&affected, PMIX_EVENT_AFFECTED_PROC, gone, PMIX_PROC);
    /* Invited by another server's leader, not answered: it is told. */
    for (invited_here_t **p = &invited_here; NULL != *p;) {
        invited_here_t *i = *p;
        if (PMIX_CHECK_PROCID(&i->proc, gone)) {
            *p = i->next;
            ninvited_here--;
            group_announce(PMIX_GROUP_INVITE_FAILED, gone, i->name, &i->leader, 1, &affected, 1);
            free(i->name);
            free(i);
        } else {
            p = &i->next;
        }
    }
    /* An acceptor of another server's invitation: its leader is told. */
    for (join_t **p = &across; NULL != *p;) {
        join_t *j = *p;
        if (PMIX_CHECK_PROCID(&j->proc, gone)) {
            *p = j->next;
            group_announce(PMIX_GROUP_INVITE_FAILED, gone, j->name, &j->leader, 1, &affected, 1);
            free_join(j);
        } else {
            p = &j->next;
        }
    }
    invite_t *inv = invites;
    while (NULL != inv) {
        invite_t *next = inv->next;
        if (PMIX_CHECK_PROCID(&inv->leader, gone)) {
            group_announce(PMIX_GROUP_LEADER_FAILED, gone, inv->name, inv->invited, inv->ninvited,
                           &affected, 1);
            peer_release(inv->peer);
            inv->peer = NULL;
            end_invite(inv, PMIX_ERR_PROC_TERM_WO_SYNC, PMIX_GROUP_CONSTRUCT_ABORT, NULL);
        } else {
            bool failed = false;
            drop_joins_of(&inv->accepted, gone);
            for (size_t i = 0; i < inv->ninvited; i++) {
                if (PMIX_CHECK_PROCID(&inv->invited[i], gone) && DECLINED != inv->answers[i] &&
                    FAILED != inv->answers[i]) {
                    inv->answers[i] = FAILED;
                    failed = true;
                }
            }
            if (failed) {
                group_announce(PMIX_GROUP_INVITE_FAILED, gone, inv->name, &inv->leader, 1,
                               &affected, 1);
                maybe_complete(inv);
            }
        }
        inv = next;
    }
    PMIX_INFO_DESTRUCT(&affected);
}

void invite_clear_all(void)
{
    while (NULL != invites) {
        end_invite(invites, PMIX_ERR_LOST_CONNECTION, PMIX_ERR_LOST_CONNECTION, NULL);
    }
    join_t **lists[] = {&early, &across};
    for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
        while (NULL != *lists[i]) {
            join_t *j = *lists[i];
            *lists[i] = j->next;
            free_join(j);
        }
    }
    while (NULL != heard_early) {
        heard_t *h = heard_early;
        heard_early = h->next;
        free(h->name);
        free(h);
    }
    nheard_early = 0;
    while (NULL != invited_here) {
        invited_here_t *i = invited_here;
        invited_here = i->next;
        free(i->name);
        free(i);
    }
    ninvited_here = 0;
}
