/*
 * store_client.c - a PMIx client for the daemon's store tests: one
 * publish, lookup or unpublish per run, its outcome on stdout.
 *
 *   store-client publish KEY VALUE PERSIST [RANGE] [HOLD]
 *       rank 0 publishes KEY=VALUE (a string) with PERSIST (indef,
 *       first_read, proc, app, session) and RANGE (session, global,
 *       namespace; default: none given), says "published" or "publish
 *       failed: STATUS" and ends; the other ranks say "holding" and stay
 *       HOLD seconds (default 0), so that the job outlives rank 0.
 *   store-client lookup KEY [WAIT]
 *       prints "KEY=VALUE (from NSPACE rank R)", or "not found: STATUS"
 *       (exit 1); with WAIT, waits up to WAIT seconds for a publish.
 *   store-client expose KEY VALUE HOLD
 *       rank 0 puts KEY=VALUE (PMIX_GLOBAL) and commits, publishes its
 *       namespace as "svc.nspace", says "exposed" and stays HOLD seconds
 *       (never connecting).
 *   store-client connect NSPACE
 *       connects with the job NSPACE (PMIX_TIMEOUT 10) and prints
 *       "connect: STATUS".
 *   store-client group NSPACE
 *       constructs the group "probe" with the job NSPACE (PMIX_TIMEOUT
 *       10) and prints "group: STATUS".
 *   store-client unpublish KEY [VALUE]
 *       publishes KEY (indef, VALUE or "soon gone"), then unpublishes it:
 *       prints "unpublished" or "unpublish failed: STATUS" (exit 1).
 *   store-client meet MINE THEIRS[,THEIRS...] DELAY TIMEOUT
 *       every rank commits "meet.greeting" ("hello from rank R"); rank 0
 *       publishes its namespace as MINE; every rank looks each THEIRS up
 *       (waiting), sleeps DELAY seconds, then connects with those jobs
 *       (up to 3; PMIX_TIMEOUT TIMEOUT, 0: none) and prints one line:
 *       "rank R: connected after S s; size N; host H; appnum A; peers P;
 *       says G; disconnected" (of the first other job: its
 *       PMIX_JOB_SIZE, the PMIX_HOSTNAME, PMIX_APPNUM and greeting of its
 *       last rank, its PMIX_LOCAL_PEERS), or "rank R: connect failed
 *       after S s: STATUS". It exits 0 either way: a rank that failed
 *       would end the others before they say how they did.
 *   store-client part MINE THEIRS
 *       a job of 4: rank 0 publishes the namespace as MINE, every rank
 *       looks THEIRS up; then, with that job (running the same), every
 *       rank connects twice, disconnects once, constructs the group
 *       "bridge" of both jobs (PMIX_GROUP_LOCAL_ONLY: each run builds
 *       it), disconnects again and destructs the group. One rank reads
 *       the other job's PMIX_JOB_SIZE at each step (a rank keeps what it
 *       read): rank 0 after the connects, 1 after the first disconnect,
 *       2 after the second (the group still names the other job), 3
 *       after the destruct; each prints "rank R after WHEN: size N" or
 *       "rank R after WHEN: STATUS".
 *   store-client span MINE THEIRS
 *       rank 0 publishes the namespace as MINE, every rank looks THEIRS
 *       up; then, with that job (running the same), every rank constructs
 *       the group "span" of both jobs (a context id asked for; each rank
 *       giving "span.says" = "hello from NSPACE rank R" in
 *       PMIX_GROUP_INFO; PMIX_TIMEOUT 20), reads rank 0 of the other job's
 *       greeting (qualified by the context id) and the other job's
 *       PMIX_JOB_SIZE, and destructs the group: "rank R: context C;
 *       members M; their size S; their rank 0 says G; destructed", or
 *       "rank R: span failed: STATUS" (exit 1).
 *   store-client leave MINE THEIRS stay|go
 *       as span, with the group "leaving" (PMIX_GROUP_NOTIFY_TERMINATION,
 *       no context id), every rank listening for PMIX_GROUP_LEFT and
 *       PMIX_GROUP_MEMBER_FAILED. In the job told "go", rank 1 leaves the
 *       group ("rank 1: left") and rank 0, once it has heard that, says
 *       "rank 0: heard rank 1 leave" and ends without leaving. In the job
 *       told "stay", each rank waits for both events (up to 20 s) and
 *       destructs the group: "rank R: their rank 1 left; their rank 0
 *       failed; destructed", or "rank R: leave failed: WHAT" (exit 1).
 *   store-client poke KEY send|receive
 *       a job of 1. "receive" listens for the event POKE, publishes its
 *       namespace as KEY and waits for the event (up to 20 s): "poked by
 *       NSPACE rank R: WORD" (its source, and its "poke.word"), or "not
 *       poked" (exit 1). "send" looks KEY up and raises POKE with
 *       "poke.word" = "hello", its range (PMIX_EVENT_CUSTOM_RANGE) that
 *       job's rank 0: "poke: STATUS".
 *   store-client invite MINE THEIRS MODE [DELAY]
 *       a job of 2; rank 0 publishes the namespace as MINE, every rank
 *       looks THEIRS up. In the job told "lead", rank 0 invites its rank 1
 *       and both ranks of THEIRS to the group "invited" (a context id
 *       asked for, PMIX_TIMEOUT 20), listening for the answers; it prints
 *       "leader: context C; members M; accepted A; declined D" (the
 *       answers heard within 5 s), DELAY seconds (default 0) after its
 *       lookup. Every invited rank waits for
 *       PMIX_GROUP_INVITED (up to 20 s; "answer-early": not at all, its
 *       leader being rank 0 of THEIRS) and joins, naming its source as
 *       the leader: rank 1 of "answer" declines ("rank 1: declined"), the
 *       others accept ("rank R: joined; context C; members M"). The
 *       members then destruct the group and add "; destructed"; a failure
 *       prints "rank R: invite failed: WHAT" (exit 1). "lead-short"
 *       invites THEIRS alone, with PMIX_TIMEOUT 3, and expects that to
 *       expire ("leader: timed out"), THEIRS being "answer-some": its rank
 *       0 accepts, and its JOIN must end with PMIX_GROUP_CONSTRUCT_ABORT
 *       ("rank 0: aborted"); its rank 1 never answers ("rank 1: silent").
 *       "lead-quit" invites THEIRS alone (PMIX_TIMEOUT 20), without
 *       waiting, and ends 1 s later ("leader: quit"): to THEIRS, being
 *       "answer-some", as "lead-short" is. "lead-two" invites THEIRS
 *       alone (PMIX_TIMEOUT 20), THEIRS being "answer-gone", whose rank 0
 *       accepts and whose rank 1 ends once invited ("rank 1: gone"): the
 *       leader says "leader: context C; members 2; accepted 1; failed 1;
 *       destructed" (PMIX_GROUP_INVITE_FAILED heard within 5 s).
 *   store-client family DELAY
 *       the job spawns a job of 2 (store-client family-child DELAY):
 *       both connect, the child's ranks DELAY seconds late; rank 0 of
 *       the parent prints "family connected after S s; child size N;
 *       disconnected", or "family failed: STATUS" (exit 1).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pmix.h"

static int publish(const pmix_proc_t *me, int argc, char **argv)
{
    static const char *const names[] = {"indef", "first_read", "proc", "app", "session"};
    pmix_persistence_t persist = PMIX_PERSIST_INVALID;
    for (pmix_persistence_t p = 0; p < 5; p++) {
        if (0 == strcmp(argv[4], names[p])) {
            persist = p;
        }
    }
    if (PMIX_PERSIST_INVALID == persist) {
        fprintf(stderr, "store-client: unknown persistence %s\n", argv[4]);
        return 2;
    }
    if (0 != me->rank) {
        printf("holding\n");
        fflush(stdout);
        sleep(argc > 6 ? (unsigned)atoi(argv[6]) : 0);
        return 0;
    }
    pmix_info_t info[3];
    size_t n = 0;
    PMIX_INFO_LOAD(&info[n], argv[2], argv[3], PMIX_STRING);
    n++;
    PMIX_INFO_LOAD(&info[n], PMIX_PERSISTENCE, &persist, PMIX_PERSIST);
    n++;
    if (argc > 5 && 0 != strcmp(argv[5], "none")) {
        pmix_data_range_t range = 0 == strcmp(argv[5], "global")      ? PMIX_RANGE_GLOBAL
                                  : 0 == strcmp(argv[5], "namespace") ? PMIX_RANGE_NAMESPACE
                                                                      : PMIX_RANGE_SESSION;
        PMIX_INFO_LOAD(&info[n], PMIX_RANGE, &range, PMIX_DATA_RANGE);
        n++;
    }
    pmix_status_t rc = PMIx_Publish(info, n);
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    if (PMIX_SUCCESS != rc) {
        printf("publish failed: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    printf("published\n");
    return 0;
}

static int lookup(int argc, char **argv)
{
    pmix_pdata_t pdata;
    PMIX_PDATA_CONSTRUCT(&pdata);
    PMIX_LOAD_KEY(pdata.key, argv[2]);
    pmix_info_t info[2];
    bool wait = true;
    int timeout = argc > 3 ? atoi(argv[3]) : 0;
    PMIX_INFO_LOAD(&info[0], PMIX_WAIT, &wait, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
    pmix_status_t rc = PMIx_Lookup(&pdata, 1, argc > 3 ? info : NULL, argc > 3 ? 2 : 0);
    int status = 0;
    if (PMIX_SUCCESS == rc && PMIX_STRING == pdata.value.type) {
        printf("%s=%s (from %s rank %u)\n", argv[2], pdata.value.data.string, pdata.proc.nspace,
               pdata.proc.rank);
    } else {
        printf("not found: %s\n", PMIx_Error_string(rc));
        status = 1;
    }
    PMIX_PDATA_DESTRUCT(&pdata);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    return status;
}

static int unpublish(int argc, char **argv)
{
    char *keys[] = {argv[2], NULL};
    pmix_persistence_t persist = PMIX_PERSIST_INDEF;
    pmix_info_t info[2];
    PMIX_INFO_LOAD(&info[0], argv[2], argc > 3 ? argv[3] : "soon gone", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_PERSISTENCE, &persist, PMIX_PERSIST);
    pmix_status_t rc = PMIx_Publish(info, 2);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Unpublish(keys, NULL, 0);
    }
    if (PMIX_SUCCESS != rc) {
        printf("unpublish failed: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    printf("unpublished\n");
    return 0;
}

static int expose(const pmix_proc_t *me, char **argv)
{
    pmix_value_t value = {.type = PMIX_STRING, .data.string = argv[3]};
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, argv[2], &value);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Commit();
    }
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, "svc.nspace", me->nspace, PMIX_STRING);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Publish(&info, 1);
    }
    PMIX_INFO_DESTRUCT(&info);
    printf("%s %s\n", PMIX_SUCCESS == rc ? "exposed" : "expose failed:", PMIx_Error_string(rc));
    fflush(stdout);
    sleep((unsigned)atoi(argv[4]));
    return PMIX_SUCCESS == rc ? 0 : 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The other job's namespace, published as key: waits up to 20 s. */
static pmix_status_t look_up_nspace(const char *key, pmix_nspace_t nspace)
{
    pmix_pdata_t pdata;
    PMIX_PDATA_CONSTRUCT(&pdata);
    PMIX_LOAD_KEY(pdata.key, key);
    pmix_info_t wait[2];
    bool yes = true;
    int timeout = 20;
    PMIX_INFO_LOAD(&wait[0], PMIX_WAIT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&wait[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
    pmix_status_t rc = PMIx_Lookup(&pdata, 1, wait, 2);
    if (PMIX_SUCCESS == rc && PMIX_STRING != pdata.value.type) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    } else if (PMIX_SUCCESS == rc) {
        PMIX_LOAD_NSPACE(nspace, pdata.value.data.string);
    }
    PMIX_PDATA_DESTRUCT(&pdata);
    PMIX_INFO_DESTRUCT(&wait[0]);
    PMIX_INFO_DESTRUCT(&wait[1]);
    return rc;
}

/* What a process may PMIx_Get of another job it is connected with. */
static pmix_status_t describe_other(const pmix_nspace_t nspace, char *text, size_t size)
{
    pmix_proc_t job, last;
    pmix_value_t *vsize = NULL, *host = NULL, *appnum = NULL, *peers = NULL, *greeting = NULL;
    PMIX_LOAD_PROCID(&job, nspace, PMIX_RANK_WILDCARD);
    pmix_status_t rc = PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &vsize);
    if (PMIX_SUCCESS == rc && PMIX_UINT32 == vsize->type && vsize->data.uint32 > 0) {
        PMIX_LOAD_PROCID(&last, nspace, vsize->data.uint32 - 1);
        rc = PMIx_Get(&last, PMIX_HOSTNAME, NULL, 0, &host);
        if (PMIX_SUCCESS == rc) {
            rc = PMIx_Get(&last, PMIX_APPNUM, NULL, 0, &appnum);
        }
        if (PMIX_SUCCESS == rc) {
            rc = PMIx_Get(&job, PMIX_LOCAL_PEERS, NULL, 0, &peers);
        }
        if (PMIX_SUCCESS == rc) {
            rc = PMIx_Get(&last, "meet.greeting", NULL, 0, &greeting);
        }
    } else if (PMIX_SUCCESS == rc) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    }
    if (PMIX_SUCCESS == rc && (PMIX_STRING != host->type || PMIX_UINT32 != appnum->type ||
                               PMIX_STRING != peers->type || PMIX_STRING != greeting->type)) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    }
    if (PMIX_SUCCESS == rc) {
        snprintf(text, size, "size %u; host %s; appnum %u; peers %s; says %s", vsize->data.uint32,
                 host->data.string, appnum->data.uint32, peers->data.string, greeting->data.string);
    }
    pmix_value_t *values[] = {vsize, host, appnum, peers, greeting};
    for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
        if (NULL != values[i]) {
            PMIX_VALUE_RELEASE(values[i]);
        }
    }
    return rc;
}

#define MEET_MAX_JOBS 4

static int meet(const pmix_proc_t *me, char **argv)
{
    pmix_info_t info;
    pmix_proc_t procs[MEET_MAX_JOBS];
    pmix_nspace_t theirs[MEET_MAX_JOBS];
    size_t njobs = 1;
    char about[512] = "", hello[64];
    snprintf(hello, sizeof(hello), "hello from rank %u", me->rank);
    pmix_value_t greeting = {.type = PMIX_STRING, .data.string = hello};
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, "meet.greeting", &greeting);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Commit();
    }
    PMIX_INFO_LOAD(&info, argv[2], me->nspace, PMIX_STRING);
    if (PMIX_SUCCESS == rc && 0 == me->rank) {
        rc = PMIx_Publish(&info, 1);
    }
    PMIX_INFO_DESTRUCT(&info);
    PMIX_LOAD_PROCID(&procs[0], me->nspace, PMIX_RANK_WILDCARD);
    for (char *key = strtok(argv[3], ","); PMIX_SUCCESS == rc && NULL != key;
         key = strtok(NULL, ",")) {
        if (MEET_MAX_JOBS == njobs) {
            rc = PMIX_ERR_BAD_PARAM;
        } else if (PMIX_SUCCESS == (rc = look_up_nspace(key, theirs[njobs]))) {
            PMIX_LOAD_PROCID(&procs[njobs], theirs[njobs], PMIX_RANK_WILDCARD);
            njobs++;
        }
    }
    sleep((unsigned)atoi(argv[4]));
    int timeout = atoi(argv[5]);
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout, PMIX_INT);
    double start = now();
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Connect(procs, njobs, timeout > 0 ? &info : NULL, timeout > 0 ? 1 : 0);
    }
    double waited = now() - start;
    PMIX_INFO_DESTRUCT(&info);
    if (PMIX_SUCCESS == rc) {
        rc = describe_other(theirs[1], about, sizeof(about));
    }
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Disconnect(procs, njobs, NULL, 0);
    }
    if (PMIX_SUCCESS != rc) {
        printf("rank %u: connect failed after %.1f s: %s\n", me->rank, waited,
               PMIx_Error_string(rc));
        return 0;
    }
    printf("rank %u: connected after %.1f s; %s; disconnected\n", me->rank, waited, about);
    return 0;
}

static int connect_to(const pmix_proc_t *me, char **argv)
{
    pmix_proc_t procs[2];
    pmix_info_t info;
    int timeout = 10;
    PMIX_LOAD_PROCID(&procs[0], me->nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&procs[1], argv[2], PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout, PMIX_INT);
    bool group = 0 == strcmp(argv[1], "group");
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    pmix_status_t rc = group
                           ? PMIx_Group_construct("probe", procs, 2, &info, 1, &results, &nresults)
                           : PMIx_Connect(procs, 2, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (NULL != results) {
        PMIX_INFO_FREE(results, nresults);
    }
    printf("%s: %s\n", argv[1], PMIx_Error_string(rc));
    return PMIX_SUCCESS == rc ? 0 : 1;
}

/* Rank who reads the other job's size, after when. */
static void say_size(const pmix_proc_t *me, pmix_rank_t who, const char *when,
                     const pmix_proc_t *other)
{
    pmix_value_t *size = NULL;
    if (me->rank != who) {
        return;
    }
    pmix_status_t rc = PMIx_Get(other, PMIX_JOB_SIZE, NULL, 0, &size);
    if (PMIX_SUCCESS == rc && PMIX_UINT32 == size->type) {
        printf("rank %u after %s: size %u\n", me->rank, when, size->data.uint32);
    } else {
        printf("rank %u after %s: %s\n", me->rank, when, PMIx_Error_string(rc));
    }
    if (NULL != size) {
        PMIX_VALUE_RELEASE(size);
    }
}

static int part(const pmix_proc_t *me, char **argv)
{
    pmix_proc_t procs[2];
    pmix_nspace_t theirs;
    pmix_info_t info;
    pmix_info_t *results = NULL;
    size_t nresults = 0;
    bool yes = true;
    PMIX_INFO_LOAD(&info, argv[2], me->nspace, PMIX_STRING);
    pmix_status_t rc = 0 == me->rank ? PMIx_Publish(&info, 1) : PMIX_SUCCESS;
    PMIX_INFO_DESTRUCT(&info);
    if (PMIX_SUCCESS == rc) {
        rc = look_up_nspace(argv[3], theirs);
    }
    PMIX_LOAD_PROCID(&procs[0], me->nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&procs[1], theirs, PMIX_RANK_WILDCARD);
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = PMIx_Connect(procs, 2, NULL, 0)) &&
        PMIX_SUCCESS == (rc = PMIx_Connect(procs, 2, NULL, 0))) {
        say_size(me, 0, "two connects", &procs[1]);
        rc = PMIx_Disconnect(procs, 2, NULL, 0);
    }
    if (PMIX_SUCCESS == rc) {
        say_size(me, 1, "one disconnect", &procs[1]);
        PMIX_INFO_LOAD(&info, PMIX_GROUP_LOCAL_ONLY, &yes, PMIX_BOOL);
        rc = PMIx_Group_construct("bridge", procs, 2, &info, 1, &results, &nresults);
        PMIX_INFO_DESTRUCT(&info);
    }
    if (NULL != results) {
        PMIX_INFO_FREE(results, nresults);
    }
    if (PMIX_SUCCESS == rc && PMIX_SUCCESS == (rc = PMIx_Disconnect(procs, 2, NULL, 0))) {
        say_size(me, 2, "two disconnects and the group", &procs[1]);
        rc = PMIx_Group_destruct("bridge", NULL, 0);
    }
    if (PMIX_SUCCESS == rc) {
        /* The run hears of the destruct just after the ranks. */
        sleep(1);
        say_size(me, 3, "the destruct", &procs[1]);
    } else {
        printf("rank %u: part failed: %s\n", me->rank, PMIx_Error_string(rc));
    }
    return PMIX_SUCCESS == rc ? 0 : 1;
}

/* What rank 0 of job gave the group of context id ctx (span.says), into
 * text (size bytes). */
static pmix_status_t their_greeting(const char *job, size_t ctx, char *text, size_t size)
{
    pmix_proc_t rank0;
    pmix_info_t qual;
    pmix_value_t *v = NULL;
    PMIX_LOAD_PROCID(&rank0, job, 0);
    PMIX_INFO_LOAD(&qual, PMIX_GROUP_CONTEXT_ID, &ctx, PMIX_SIZE);
    PMIX_INFO_SET_QUALIFIER(&qual);
    pmix_status_t rc = PMIx_Get(&rank0, "span.says", &qual, 1, &v);
    PMIX_INFO_DESTRUCT(&qual);
    if (PMIX_SUCCESS == rc && PMIX_STRING != v->type) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    }
    if (PMIX_SUCCESS == rc) {
        snprintf(text, size, "%s", v->data.string);
    }
    if (NULL != v) {
        PMIX_VALUE_RELEASE(v);
    }
    return rc;
}

/* The group of this job and another: its context id and membership, what
 * the other's rank 0 gave it, the other's size. */
static int span(const pmix_proc_t *me, char **argv)
{
    pmix_proc_t procs[2];
    pmix_nspace_t theirs;
    pmix_info_t info[3], given;
    pmix_info_t *results = NULL;
    size_t nresults = 0, ctx = 0, members = 0;
    pmix_value_t *size = NULL;
    char says[PMIX_MAX_NSLEN + 64], heard[PMIX_MAX_NSLEN + 64] = "";
    bool yes = true;
    int timeout = 20;
    PMIX_INFO_LOAD(&info[0], argv[2], me->nspace, PMIX_STRING);
    pmix_status_t rc = 0 == me->rank ? PMIx_Publish(&info[0], 1) : PMIX_SUCCESS;
    PMIX_INFO_DESTRUCT(&info[0]);
    if (PMIX_SUCCESS == rc) {
        rc = look_up_nspace(argv[3], theirs);
    }
    PMIX_LOAD_PROCID(&procs[0], me->nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&procs[1], theirs, PMIX_RANK_WILDCARD);
    snprintf(says, sizeof(says), "hello from %s rank %u", me->nspace, me->rank);
    PMIX_INFO_LOAD(&given, "span.says", says, PMIX_STRING);
    pmix_data_array_t array = {.type = PMIX_INFO, .size = 1, .array = &given};
    PMIX_INFO_LOAD(&info[0], PMIX_GROUP_ASSIGN_CONTEXT_ID, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_GROUP_INFO, &array, PMIX_DATA_ARRAY);
    PMIX_INFO_LOAD(&info[2], PMIX_TIMEOUT, &timeout, PMIX_INT);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Group_construct("span", procs, 2, info, 3, &results, &nresults);
    }
    for (size_t i = 0; i < 3; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    PMIX_INFO_DESTRUCT(&given);
    for (size_t i = 0; PMIX_SUCCESS == rc && i < nresults; i++) {
        if (PMIX_CHECK_KEY(&results[i], PMIX_GROUP_CONTEXT_ID)) {
            ctx = results[i].value.data.size;
        } else if (PMIX_CHECK_KEY(&results[i], PMIX_GROUP_MEMBERSHIP)) {
            members = results[i].value.data.darray->size;
        }
    }
    if (NULL != results) {
        PMIX_INFO_FREE(results, nresults);
    }
    if (PMIX_SUCCESS == rc) {
        rc = their_greeting(theirs, ctx, heard, sizeof(heard));
    }
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Get(&procs[1], PMIX_JOB_SIZE, NULL, 0, &size);
    }
    if (PMIX_SUCCESS == rc && PMIX_UINT32 != size->type) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    }
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Group_destruct("span", NULL, 0);
    }
    if (PMIX_SUCCESS == rc) {
        printf("rank %u: context %zu; members %zu; their size %u; their rank 0 says %s; "
               "destructed\n",
               me->rank, ctx, members, size->data.uint32, heard);
    } else {
        printf("rank %u: span failed: %s\n", me->rank, PMIx_Error_string(rc));
    }
    if (NULL != size) {
        PMIX_VALUE_RELEASE(size);
    }
    return PMIX_SUCCESS == rc ? 0 : 1;
}

/* What a rank heard of the group "leaving" (from the handler's thread). */
static pthread_mutex_t heard_lock = PTHREAD_MUTEX_INITIALIZER;
static pmix_proc_t left, failed;
static bool heard_left, heard_failed;

static void leaving_event(size_t id, pmix_status_t status, const pmix_proc_t *source,
                          pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                          pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    const pmix_proc_t *affected = NULL;
    bool ours = false;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC) && PMIX_PROC == info[i].value.type) {
            affected = info[i].value.data.proc;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_ID) && PMIX_STRING == info[i].value.type) {
            ours = 0 == strcmp(info[i].value.data.string, "leaving");
        }
    }
    pthread_mutex_lock(&heard_lock);
    if (ours && NULL != affected && PMIX_GROUP_LEFT == status) {
        left = *affected;
        heard_left = true;
    } else if (ours && NULL != affected && PMIX_GROUP_MEMBER_FAILED == status) {
        failed = *affected;
        heard_failed = true;
    }
    pthread_mutex_unlock(&heard_lock);
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

/* Whether what is wanted was heard within 20 s. */
static bool heard(bool want_failed)
{
    for (int i = 0; i < 2000; i++) {
        pthread_mutex_lock(&heard_lock);
        bool done = heard_left && (heard_failed || !want_failed);
        pthread_mutex_unlock(&heard_lock);
        if (done) {
            return true;
        }
        usleep(10000);
    }
    return false;
}

/* A member of a group of two jobs leaves, another ends: the other job's
 * members hear both and destruct the group without them. */
static int leave(const pmix_proc_t *me, char **argv)
{
    pmix_status_t codes[] = {PMIX_GROUP_LEFT, PMIX_GROUP_MEMBER_FAILED};
    pmix_proc_t procs[2];
    pmix_nspace_t theirs;
    pmix_info_t info[2];
    bool go = 0 == strcmp(argv[4], "go"), yes = true;
    int timeout = 20;
    const char *what = "register";
    pmix_status_t rc = PMIx_Register_event_handler(codes, 2, NULL, 0, leaving_event, NULL, NULL);
    rc = rc >= 0 ? PMIX_SUCCESS : rc;
    PMIX_INFO_LOAD(&info[0], argv[2], me->nspace, PMIX_STRING);
    if (PMIX_SUCCESS == rc && 0 == me->rank) {
        what = "publish";
        rc = PMIx_Publish(&info[0], 1);
    }
    PMIX_INFO_DESTRUCT(&info[0]);
    if (PMIX_SUCCESS == rc) {
        what = "lookup";
        rc = look_up_nspace(argv[3], theirs);
    }
    PMIX_LOAD_PROCID(&procs[0], me->nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&procs[1], theirs, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&info[0], PMIX_GROUP_NOTIFY_TERMINATION, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
    if (PMIX_SUCCESS == rc) {
        what = "construct";
        rc = PMIx_Group_construct("leaving", procs, 2, info, 2, NULL, NULL);
    }
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    if (PMIX_SUCCESS != rc) {
        printf("rank %u: leave failed: %s %s\n", me->rank, what, PMIx_Error_string(rc));
        return 1;
    }
    if (go && 1 == me->rank) {
        rc = PMIx_Group_leave("leaving", NULL, 0);
        printf("rank 1: %s\n", PMIX_SUCCESS == rc ? "left" : PMIx_Error_string(rc));
        return PMIX_SUCCESS == rc ? 0 : 1;
    }
    pmix_proc_t their1, their0, mine1;
    PMIX_LOAD_PROCID(&their1, theirs, 1);
    PMIX_LOAD_PROCID(&their0, theirs, 0);
    PMIX_LOAD_PROCID(&mine1, me->nspace, 1);
    if (go) {
        bool ok = heard(false) && PMIX_CHECK_PROCID(&left, &mine1);
        printf("rank 0: %s\n", ok ? "heard rank 1 leave" : "did not hear rank 1 leave");
        return ok ? 0 : 1;
    }
    if (!heard(true)) {
        printf("rank %u: leave failed: heard%s%s\n", me->rank, heard_left ? " the leave" : "",
               heard_failed ? " the failure" : "");
        return 1;
    }
    if (!PMIX_CHECK_PROCID(&left, &their1) || !PMIX_CHECK_PROCID(&failed, &their0)) {
        printf("rank %u: leave failed: %s:%u left, %s:%u failed\n", me->rank, left.nspace,
               left.rank, failed.nspace, failed.rank);
        return 1;
    }
    rc = PMIx_Group_destruct("leaving", NULL, 0);
    if (PMIX_SUCCESS != rc) {
        printf("rank %u: leave failed: destruct %s\n", me->rank, PMIx_Error_string(rc));
        return 1;
    }
    printf("rank %u: their rank 1 left; their rank 0 failed; destructed\n", me->rank);
    return 0;
}

/* A code of the application's own, below PMIx's. */
#define POKE (PMIX_EXTERNAL_ERR_BASE - 42)

static pmix_proc_t poker;
static char poke_word[64];
static bool poked;

static void poke_event(size_t id, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    pthread_mutex_lock(&heard_lock);
    poker = *source;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], "poke.word") && PMIX_STRING == info[i].value.type) {
            snprintf(poke_word, sizeof(poke_word), "%s", info[i].value.data.string);
        }
    }
    poked = true;
    pthread_mutex_unlock(&heard_lock);
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

/* An event of the application's, from a process of one job to one of
 * another. */
static int poke(const pmix_proc_t *me, char **argv)
{
    pmix_info_t info[2];
    pmix_proc_t target;
    pmix_status_t code = POKE;
    if (0 == strcmp(argv[3], "send")) {
        pmix_status_t rc = look_up_nspace(argv[2], target.nspace);
        target.rank = 0;
        PMIX_INFO_LOAD(&info[0], PMIX_EVENT_CUSTOM_RANGE, &target, PMIX_PROC);
        PMIX_INFO_LOAD(&info[1], "poke.word", "hello", PMIX_STRING);
        if (PMIX_SUCCESS == rc) {
            rc = PMIx_Notify_event(POKE, NULL, PMIX_RANGE_CUSTOM, info, 2, NULL, NULL);
        }
        PMIX_INFO_DESTRUCT(&info[0]);
        PMIX_INFO_DESTRUCT(&info[1]);
        printf("poke: %s\n", PMIx_Error_string(rc));
        return PMIX_SUCCESS == rc ? 0 : 1;
    }
    pmix_status_t rc = PMIx_Register_event_handler(&code, 1, NULL, 0, poke_event, NULL, NULL);
    PMIX_INFO_LOAD(&info[0], argv[2], me->nspace, PMIX_STRING);
    if (rc >= 0) {
        rc = PMIx_Publish(&info[0], 1);
    }
    PMIX_INFO_DESTRUCT(&info[0]);
    for (int i = 0; PMIX_SUCCESS == rc && i < 2000; i++) {
        pthread_mutex_lock(&heard_lock);
        bool done = poked;
        pthread_mutex_unlock(&heard_lock);
        if (done) {
            printf("poked by %s rank %u: %s\n", poker.nspace, poker.rank, poke_word);
            return 0;
        }
        usleep(10000);
    }
    printf("not poked\n");
    return 1;
}

/* What a rank heard of the invitation "invited" (from the handler). */
static pmix_proc_t inviter;
static bool invited;
static int accepted, declined, failed_answers, answers_expected = 3;

static void invite_event(size_t id, pmix_status_t status, const pmix_proc_t *source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                         pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    pthread_mutex_lock(&heard_lock);
    if (PMIX_GROUP_INVITED == status) {
        inviter = *source;
        invited = true;
    } else if (PMIX_GROUP_INVITE_ACCEPTED == status) {
        accepted++;
    } else if (PMIX_GROUP_INVITE_DECLINED == status) {
        declined++;
    } else if (PMIX_GROUP_INVITE_FAILED == status) {
        failed_answers++;
    }
    pthread_mutex_unlock(&heard_lock);
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

/* Wait up to ms for the condition on what the handler heard. */
static bool heard_within(int ms, bool (*done)(void))
{
    for (int waited = 0; waited < ms; waited += 10) {
        pthread_mutex_lock(&heard_lock);
        bool yes = done();
        pthread_mutex_unlock(&heard_lock);
        if (yes) {
            return true;
        }
        usleep(10000);
    }
    return false;
}

static bool was_invited(void)
{
    return invited;
}

static bool all_answered(void)
{
    return accepted + declined + failed_answers >= answers_expected;
}

/* The context id and the number of members among a group's results. */
static void group_results(pmix_info_t *results, size_t n, size_t *ctx, size_t *members)
{
    for (size_t i = 0; i < n; i++) {
        if (PMIX_CHECK_KEY(&results[i], PMIX_GROUP_CONTEXT_ID)) {
            *ctx = results[i].value.data.size;
        } else if (PMIX_CHECK_KEY(&results[i], PMIX_GROUP_MEMBERSHIP)) {
            *members = results[i].value.data.darray->size;
        }
    }
    if (NULL != results) {
        PMIX_INFO_FREE(results, n);
    }
}

/* "WHO: WHAT" when rc is the status a test expects, else that it failed:
 * the exit status. */
static int expected(pmix_status_t rc, pmix_status_t want, const char *who, const char *what)
{
    if (rc == want) {
        printf("%s: %s\n", who, what);
        return 0;
    }
    printf("%s: invite failed: %s\n", who, PMIx_Error_string(rc));
    return 1;
}

/* A group made by invitation, its leader in one job, invited processes in
 * both. */
static int invite(const pmix_proc_t *me, char **argv)
{
    pmix_status_t codes[] = {PMIX_GROUP_INVITED, PMIX_GROUP_INVITE_ACCEPTED,
                             PMIX_GROUP_INVITE_DECLINED, PMIX_GROUP_INVITE_FAILED};
    pmix_info_t info[2];
    pmix_info_t *results = NULL;
    size_t nresults = 0, ctx = 0, members = 0;
    pmix_nspace_t theirs;
    bool lead = 0 == strncmp(argv[4], "lead", 4), yes = true;
    bool short_lived = 0 == strcmp(argv[4], "lead-short");
    bool quits = 0 == strcmp(argv[4], "lead-quit"), two = 0 == strcmp(argv[4], "lead-two");
    bool gone = 0 == strcmp(argv[4], "answer-gone");
    bool early = 0 == strcmp(argv[4], "answer-early"), some = 0 == strcmp(argv[4], "answer-some");
    int timeout = 20, short_timeout = 3;
    pmix_status_t rc = PMIx_Register_event_handler(codes, 4, NULL, 0, invite_event, NULL, NULL);
    /* Every rank listens before its job's name is out: none misses the
     * invitation. */
    rc = rc < 0 ? rc : PMIx_Fence(NULL, 0, NULL, 0);
    PMIX_INFO_LOAD(&info[0], argv[2], me->nspace, PMIX_STRING);
    if (PMIX_SUCCESS == rc && 0 == me->rank) {
        rc = PMIx_Publish(&info[0], 1);
    }
    PMIX_INFO_DESTRUCT(&info[0]);
    if (PMIX_SUCCESS == rc) {
        rc = look_up_nspace(argv[3], theirs);
    }
    if (PMIX_SUCCESS == rc && lead && 0 == me->rank) {
        pmix_proc_t procs[3];
        sleep(NULL != argv[5] ? (unsigned)atoi(argv[5]) : 0);
        PMIX_LOAD_PROCID(&procs[0], theirs, 0);
        PMIX_LOAD_PROCID(&procs[1], theirs, 1);
        PMIX_LOAD_PROCID(&procs[2], me->nspace, 1);
        PMIX_INFO_LOAD(&info[0], PMIX_GROUP_ASSIGN_CONTEXT_ID, &yes, PMIX_BOOL);
        PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, short_lived ? &short_timeout : &timeout, PMIX_INT);
        if (quits) {
            /* Gone before anyone answers: the invitation ends with it. */
            rc = PMIx_Group_invite_nb("invited", procs, 2, info, 2, NULL, NULL);
            PMIX_INFO_DESTRUCT(&info[0]);
            PMIX_INFO_DESTRUCT(&info[1]);
            sleep(1);
            return expected(rc, PMIX_SUCCESS, "leader", "quit");
        }
        answers_expected = short_lived || two ? 2 : 3;
        rc = PMIx_Group_invite("invited", procs, (size_t)answers_expected, info, 2, &results,
                               &nresults);
        PMIX_INFO_DESTRUCT(&info[0]);
        PMIX_INFO_DESTRUCT(&info[1]);
        group_results(results, nresults, &ctx, &members);
        if (short_lived) {
            return expected(rc, PMIX_ERR_TIMEOUT, "leader", "timed out");
        }
        (void)heard_within(5000, all_answered);
        if (PMIX_SUCCESS == rc) {
            rc = PMIx_Group_destruct("invited", NULL, 0);
        }
        if (PMIX_SUCCESS == rc && two) {
            printf("leader: context %zu; members %zu; accepted %d; failed %d; destructed\n", ctx,
                   members, accepted, failed_answers);
        } else if (PMIX_SUCCESS == rc) {
            printf("leader: context %zu; members %zu; accepted %d; declined %d; destructed\n", ctx,
                   members, accepted, declined);
        }
    } else if (PMIX_SUCCESS == rc && gone && 1 == me->rank) {
        rc = heard_within(20000, was_invited) ? PMIX_SUCCESS : PMIX_ERR_TIMEOUT;
        if (PMIX_SUCCESS == rc) {
            printf("rank 1: gone\n");
        }
    } else if (PMIX_SUCCESS == rc && some && 1 == me->rank) {
        rc = heard_within(20000, was_invited) ? PMIX_SUCCESS : PMIX_ERR_TIMEOUT;
        if (PMIX_SUCCESS == rc) {
            sleep(5);
            printf("rank 1: silent\n");
        }
    } else if (PMIX_SUCCESS == rc) {
        bool decline = !lead && !some && 1 == me->rank;
        if (early) {
            PMIX_LOAD_PROCID(&inviter, theirs, 0);
        }
        rc = early || heard_within(20000, was_invited) ? PMIX_SUCCESS : PMIX_ERR_TIMEOUT;
        if (PMIX_SUCCESS == rc) {
            PMIX_INFO_LOAD(&info[0], PMIX_TIMEOUT, &timeout, PMIX_INT);
            rc = PMIx_Group_join("invited", &inviter,
                                 decline ? PMIX_GROUP_DECLINE : PMIX_GROUP_ACCEPT, info, 1,
                                 &results, &nresults);
            PMIX_INFO_DESTRUCT(&info[0]);
        }
        group_results(results, nresults, &ctx, &members);
        if (some) {
            return expected(rc, PMIX_GROUP_CONSTRUCT_ABORT, "rank 0", "aborted");
        }
        if (PMIX_SUCCESS == rc && decline) {
            printf("rank %u: declined\n", me->rank);
            return 0;
        }
        if (PMIX_SUCCESS == rc) {
            rc = PMIx_Group_destruct("invited", NULL, 0);
        }
        if (PMIX_SUCCESS == rc) {
            printf("rank %u: joined; context %zu; members %zu; destructed\n", me->rank, ctx,
                   members);
        }
    }
    if (PMIX_SUCCESS != rc) {
        printf("rank %u: invite failed: %s\n", me->rank, PMIx_Error_string(rc));
    }
    return PMIX_SUCCESS == rc ? 0 : 1;
}

/* Connect the parent's job and the child's; the child comes late. */
static pmix_status_t connect_family(const char *parent, const char *child, unsigned delay)
{
    pmix_proc_t procs[2];
    PMIX_LOAD_PROCID(&procs[0], parent, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&procs[1], child, PMIX_RANK_WILDCARD);
    sleep(delay);
    pmix_status_t rc = PMIx_Connect(procs, 2, NULL, 0);
    return PMIX_SUCCESS == rc ? PMIx_Disconnect(procs, 2, NULL, 0) : rc;
}

static int family(const pmix_proc_t *me, char **argv)
{
    pmix_app_t app;
    pmix_nspace_t child;
    pmix_value_t *size = NULL;
    char *args[] = {argv[0], "family-child", argv[2], NULL};
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = argv[0];
    app.argv = args;
    app.maxprocs = 2;
    pmix_status_t rc = PMIx_Spawn(NULL, 0, &app, 1, child);
    app.cmd = NULL;
    app.argv = NULL;
    PMIX_APP_DESTRUCT(&app);
    double start = now();
    if (PMIX_SUCCESS == rc) {
        rc = connect_family(me->nspace, child, 0);
    }
    double waited = now() - start;
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, child, PMIX_RANK_WILDCARD);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &size);
    }
    if (PMIX_SUCCESS == rc && PMIX_UINT32 != size->type) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    }
    if (PMIX_SUCCESS != rc) {
        printf("family failed: %s\n", PMIx_Error_string(rc));
    } else if (0 == me->rank) {
        printf("family connected after %.1f s; child size %u; disconnected\n", waited,
               size->data.uint32);
    }
    if (NULL != size) {
        PMIX_VALUE_RELEASE(size);
    }
    return PMIX_SUCCESS == rc ? 0 : 1;
}

static int family_child(const pmix_proc_t *me, char **argv)
{
    pmix_proc_t myjob;
    pmix_value_t *parent = NULL;
    PMIX_LOAD_PROCID(&myjob, me->nspace, PMIX_RANK_WILDCARD);
    pmix_status_t rc = PMIx_Get(&myjob, PMIX_PARENT_ID, NULL, 0, &parent);
    if (PMIX_SUCCESS == rc && PMIX_PROC != parent->type) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    }
    if (PMIX_SUCCESS == rc) {
        rc = connect_family(parent->data.proc->nspace, me->nspace, (unsigned)atoi(argv[2]));
    }
    if (NULL != parent) {
        PMIX_VALUE_RELEASE(parent);
    }
    if (PMIX_SUCCESS != rc) {
        printf("family child failed: %s\n", PMIx_Error_string(rc));
    }
    return PMIX_SUCCESS == rc ? 0 : 1;
}

int main(int argc, char **argv)
{
    pmix_proc_t me;
    if (argc < 3 || PMIX_SUCCESS != PMIx_Init(&me, NULL, 0)) {
        fprintf(stderr, "usage: store-client publish|lookup|unpublish|meet|part|span|leave|poke|"
                        "invite|family ... (under drover)\n");
        return 2;
    }
    int status = 2;
    if (0 == strcmp(argv[1], "publish") && argc >= 5) {
        status = publish(&me, argc, argv);
    } else if (0 == strcmp(argv[1], "lookup")) {
        status = lookup(argc, argv);
    } else if (0 == strcmp(argv[1], "expose") && argc >= 5) {
        status = expose(&me, argv);
    } else if (0 == strcmp(argv[1], "connect") || 0 == strcmp(argv[1], "group")) {
        status = connect_to(&me, argv);
    } else if (0 == strcmp(argv[1], "unpublish")) {
        status = unpublish(argc, argv);
    } else if (0 == strcmp(argv[1], "meet") && argc >= 6) {
        status = meet(&me, argv);
    } else if (0 == strcmp(argv[1], "part") && argc >= 4) {
        status = part(&me, argv);
    } else if (0 == strcmp(argv[1], "span") && argc >= 4) {
        status = span(&me, argv);
    } else if (0 == strcmp(argv[1], "leave") && argc >= 5) {
        status = leave(&me, argv);
    } else if (0 == strcmp(argv[1], "poke") && argc >= 4) {
        status = poke(&me, argv);
    } else if (0 == strcmp(argv[1], "invite") && argc >= 5) {
        status = invite(&me, argv);
    } else if (0 == strcmp(argv[1], "family")) {
        status = family(&me, argv);
    } else if (0 == strcmp(argv[1], "family-child")) {
        status = family_child(&me, argv);
    }
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return status;
}
