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
 *  - Invitations are kept by the leader's server, so they stay among its
 *    own processes: an INVITE naming another server's process, or a JOIN
 *    naming another server's leader, is PMIX_ERR_NOT_SUPPORTED at once
 *    rather than an answer that would never come.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "pmix.h"
#include "server.h"

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
    if (inv->assign_context) {
        context_id = group_new_context_id();
    }
    if (NULL == (members = malloc((inv->ninvited + 1) * sizeof(*members)))) {
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
    PMIX_DATA_BUFFER_CONSTRUCT(&body);
    rc = group_pack_results(&body, inv->name, members, n, context_id, NULL, 0);
    if (PMIX_SUCCESS == rc && SIZE_MAX != context_id &&
        inv->given.pack_ptr > inv->given.unpack_ptr) {
        rc = PMIx_Data_copy_payload(&body, &inv->given);
    }
    if (PMIX_SUCCESS == rc) {
        pmix_info_t extra[2];
        size_t nextra = 0;
        pmix_data_array_t array = {.type = PMIX_PROC, .size = n, .array = members};
        PMIX_INFO_LOAD(&extra[nextra++], PMIX_GROUP_MEMBERSHIP, &array, PMIX_DATA_ARRAY);
        if (SIZE_MAX != context_id) {
            PMIX_INFO_LOAD(&extra[nextra++], PMIX_GROUP_CONTEXT_ID, &context_id, PMIX_SIZE);
        }
        group_announce(PMIX_GROUP_CONSTRUCT_COMPLETE, &inv->leader, inv->name, members, n, extra,
                       nextra);
        for (size_t i = 0; i < nextra; i++) {
            PMIX_INFO_DESTRUCT(&extra[i]);
        }
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
    end_invite(arg, PMIX_ERR_TIMEOUT, PMIX_GROUP_CONSTRUCT_ABORT, NULL);
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
        if (!group_all_local(&inv->invited[i], 1)) {
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
    /* Answers that came first. */
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
    for (join_t **p = &early; NULL != *p; p = &(*p)->next) {
        if (*p == j) {
            *p = j->next;
            break;
        }
    }
    answer_join(j, PMIX_ERR_TIMEOUT, NULL);
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
    if (NULL == j->name || '\0' == j->name[0] || 1 < nleader) {
        rc = PMIX_ERR_BAD_PARAM;
        goto fail;
    }
    if (1 == nleader && !group_all_local(leader, 1)) {
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
    while (NULL != early) {
        join_t *j = early;
        early = j->next;
        free_join(j);
    }
}
