/*
 * client_events.c - event handlers: registration callbacks, the order of
 * the chain (code-specific before default), PMIX_EVENT_ACTION_COMPLETE
 * ending it, PMIX_RANGE_PROC_LOCAL events, events from peers in the
 * namespace range, the return object, and deregistration.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmix.h"

#define MY_EVENT (PMIX_EXTERNAL_ERR_BASE - 7)
#define LOCAL_EVENT (PMIX_EXTERNAL_ERR_BASE - 8)

static pmix_proc_t me;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char trace[256];
static int from_peers;
static int cookie = 42;
static bool object_ok;
static bool specific_seen[64];   /* by source rank, for MY_EVENT */
static bool out_of_order;

#define CHECK(cond, ...)                                       \
    do {                                                       \
        if (!(cond)) {                                         \
            fprintf(stderr, "rank %u: ", me.rank);             \
            fprintf(stderr, __VA_ARGS__);                      \
            fprintf(stderr, "\n");                             \
            exit(1);                                           \
        }                                                      \
    } while (0)

static void note(const char *what)
{
    pthread_mutex_lock(&lock);
    strncat(trace, what, sizeof(trace) - strlen(trace) - 1);
    pthread_mutex_unlock(&lock);
}

static void specific(size_t id, pmix_status_t status, const pmix_proc_t *source,
                     pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    if (MY_EVENT == status) {
        pthread_mutex_lock(&lock);
        from_peers += source->rank != me.rank;
        specific_seen[source->rank % 64] = true;
        pthread_mutex_unlock(&lock);
    }
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_RETURN_OBJECT) &&
            info[i].value.data.ptr == &cookie) {
            object_ok = true;
        }
    }
    note("S");
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void deflt(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                  size_t ninfo, pmix_info_t *results, size_t nresults,
                  pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    if (MY_EVENT == status && !specific_seen[source->rank % 64]) {
        out_of_order = true;
    }
    note("D");
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void stopper(size_t id, pmix_status_t status, const pmix_proc_t *source,
                    pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    note("X");
    cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    pmix_status_t status;
    size_t id;
} reg_t;

static void registered(pmix_status_t status, size_t refid, void *cbdata)
{
    reg_t *r = cbdata;
    pthread_mutex_lock(&r->lock);
    r->status = status;
    r->id = refid;
    r->done = true;
    pthread_cond_signal(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

static size_t register_with_callback(pmix_status_t *codes, size_t ncodes, pmix_info_t *info,
                                     size_t ninfo, pmix_notification_fn_t fn)
{
    reg_t r = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, 0, 0};
    pmix_status_t rc = PMIx_Register_event_handler(codes, ncodes, info, ninfo, fn, registered, &r);
    CHECK(PMIX_SUCCESS == rc, "register: %s", PMIx_Error_string(rc));
    pthread_mutex_lock(&r.lock);
    while (!r.done) {
        pthread_cond_wait(&r.cond, &r.lock);
    }
    pthread_mutex_unlock(&r.lock);
    CHECK(PMIX_SUCCESS == r.status, "registration callback: %s", PMIx_Error_string(r.status));
    return r.id;
}

static void deregistered(pmix_status_t status, void *cbdata)
{
    reg_t *r = cbdata;
    registered(status, 0, r);
}

/* The _nb form of deregistration of an unknown reference still calls back
 * (with the status): programs wait for the callback whatever happened. */
static void deregister_unknown(size_t ref)
{
    reg_t r = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, 0, 0};
    pmix_status_t rc = PMIx_Deregister_event_handler(ref, deregistered, &r);
    CHECK(PMIX_SUCCESS == rc, "deregister unknown, with a callback: %s", PMIx_Error_string(rc));
    pthread_mutex_lock(&r.lock);
    while (!r.done) {
        pthread_cond_wait(&r.cond, &r.lock);
    }
    pthread_mutex_unlock(&r.lock);
    CHECK(PMIX_ERR_NOT_FOUND == r.status, "deregister callback: %s",
          PMIx_Error_string(r.status));
}

/* Wait until the trace holds the expected letters (events may run their
 * chains interleaved, so only the multiset is compared). */
static bool same_letters(const char *a, const char *b)
{
    int count[256] = {0};
    for (; '\0' != *a; a++) {
        count[(unsigned char)*a]++;
    }
    for (; '\0' != *b; b++) {
        count[(unsigned char)*b]--;
    }
    for (int i = 0; i < 256; i++) {
        if (0 != count[i]) {
            return false;
        }
    }
    return true;
}

static void wait_trace(const char *expected)
{
    for (int i = 0; i < 500; i++) {
        pthread_mutex_lock(&lock);
        bool same = same_letters(trace, expected);
        pthread_mutex_unlock(&lock);
        if (same) {
            return;
        }
        usleep(10000);
    }
    CHECK(false, "handlers ran as '%s', expected '%s'", trace, expected);
}

int main(void)
{
    pmix_status_t rc;
    pmix_status_t code = MY_EVENT, local = LOCAL_EVENT;
    pmix_info_t obj;

    CHECK(PMIX_SUCCESS == PMIx_Init(&me, NULL, 0), "init");
    PMIx_Info_load(&obj, PMIX_EVENT_RETURN_OBJECT, &cookie, PMIX_POINTER);
    size_t d = register_with_callback(NULL, 0, NULL, 0, deflt);
    size_t s = register_with_callback(&code, 1, &obj, 1, specific);
    /* The blocking form returns the id. */
    rc = PMIx_Register_event_handler(&local, 1, NULL, 0, stopper, NULL, NULL);
    CHECK(rc >= 0, "blocking registration: %s", PMIx_Error_string(rc));
    size_t x = (size_t)rc;

    /* A local event: the code-specific stopper ends the chain. */
    rc = PMIx_Notify_event(LOCAL_EVENT, &me, PMIX_RANGE_PROC_LOCAL, NULL, 0, NULL, NULL);
    CHECK(PMIX_SUCCESS == rc, "local notify: %s", PMIx_Error_string(rc));
    wait_trace("X");

    /* Everyone tells the namespace; each sees the others' events, the
     * specific handler before the default one for each. */
    CHECK(PMIX_SUCCESS == PMIx_Fence(NULL, 0, NULL, 0), "fence 1");
    pthread_mutex_lock(&lock);
    trace[0] = '\0';
    pthread_mutex_unlock(&lock);
    CHECK(PMIX_SUCCESS == PMIx_Fence(NULL, 0, NULL, 0), "fence 2");
    rc = PMIx_Notify_event(MY_EVENT, &me, PMIX_RANGE_NAMESPACE, NULL, 0, NULL, NULL);
    CHECK(PMIX_SUCCESS == rc, "notify: %s", PMIx_Error_string(rc));
    pmix_value_t *v;
    pmix_proc_t wild;
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    CHECK(PMIX_SUCCESS == PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v), "job size");
    uint32_t size = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    char expected[64] = "";
    for (uint32_t i = 1; i < size; i++) {
        strcat(expected, "SD");
    }
    wait_trace(expected);
    CHECK(from_peers == (int)size - 1, "events from %d peers, expected %u", from_peers, size - 1);
    CHECK(object_ok, "the return object did not come back");
    CHECK(!out_of_order, "a default handler ran before the code-specific one");

    /* After deregistration the handler no longer runs. */
    CHECK(PMIX_SUCCESS == PMIx_Deregister_event_handler(x, NULL, NULL), "deregister");
    CHECK(PMIX_ERR_NOT_FOUND == PMIx_Deregister_event_handler(x, NULL, NULL), "deregister twice");
    deregister_unknown(x);
    pthread_mutex_lock(&lock);
    trace[0] = '\0';
    pthread_mutex_unlock(&lock);
    rc = PMIx_Notify_event(LOCAL_EVENT, &me, PMIX_RANGE_PROC_LOCAL, NULL, 0, NULL, NULL);
    wait_trace("D");
    PMIx_Deregister_event_handler(d, NULL, NULL);
    PMIx_Deregister_event_handler(s, NULL, NULL);
    CHECK(PMIX_SUCCESS == PMIx_Fence(NULL, 0, NULL, 0), "fence 3");
    PMIx_Finalize(NULL, 0);
    printf("rank %u: events ok\n", me.rank);
    return 0;
}
