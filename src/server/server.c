/*
 * server.c - PMIx_server_init and PMIx_server_finalize: the server
 * library's progress thread and the way work reaches it.
 *
 * Design notes:
 *  - One progress thread runs a private libevent loop. Work from other
 *    threads (the host's calls, the host's callbacks) is queued under a
 *    mutex and the loop is woken through an eventfd, so libevent itself
 *    needs no locking.
 *  - Posted work always waits for the loop, even when it is posted from
 *    the progress thread itself: a host that calls back from inside a
 *    module function (Slurm answers fence_nb inline, holding a lock its
 *    release function takes) or makes a non-blocking call there gets its
 *    callback after it has returned, never inside its own call. Only a
 *    blocking call made in the progress thread (server_run_sync) runs at
 *    once: waiting for the loop there would deadlock.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "drover.h"
#include "eventq.h"
#include "heap_warm.h"
#include "pmix.h"
#include "role.h"
#include "server.h"
#include "server_entry.h"
#include "spin.h"
#include "topology.h"

server_state_t server;

/* Stopped when finalize has started: later posts are refused rather than
 * left to wait for a loop that is going away. */
static eventq_t posts = EVENTQ_INITIALIZER;
static struct event *wake_event;
static bool stopping;

bool server_in_thread(void)
{
    return server.initialized && pthread_equal(pthread_self(), server.thread);
}

static void run_posted(evutil_socket_t fd, short what, void *arg)
{
    eventq_run(&posts);
}

pmix_status_t server_post(void (*fn)(void *arg), void *arg)
{
    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    return eventq_post(&posts, fn, arg);
}

pmix_status_t server_entry_post(void (*fn)(void *arg), void *arg)
{
    return server_post(fn, arg);
}

typedef struct sync_call {
    pmix_status_t (*fn)(void *arg);
    void *arg;
    pmix_status_t status;
    bool done;
    pthread_mutex_t lock;
    pthread_cond_t cond;
} sync_call_t;

static void run_sync_call(void *p)
{
    sync_call_t *call = p;
    pmix_status_t status = call->fn(call->arg);
    pthread_mutex_lock(&call->lock);
    call->status = status;
    __atomic_store_n(&call->done, true, __ATOMIC_RELEASE);
    pthread_cond_signal(&call->cond);
    pthread_mutex_unlock(&call->lock);
}

static bool sync_call_done(void *arg)
{
    const sync_call_t *call = arg;
    return __atomic_load_n(&call->done, __ATOMIC_ACQUIRE);
}

pmix_status_t server_run_sync(pmix_status_t (*fn)(void *arg), void *arg)
{
    if (server_in_thread()) {
        return fn(arg);
    }
    sync_call_t call = {.fn = fn, .arg = arg, .lock = PTHREAD_MUTEX_INITIALIZER,
                        .cond = PTHREAD_COND_INITIALIZER};
    pmix_status_t rc = server_post(run_sync_call, &call);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    /* Most calls take microseconds, and the loop is often awake (it polls
     * before sleeping): a launch makes one such call per rank, and
     * sleeping here would cost a wake-up each. The lock is still taken
     * before the call is released, so its poster is done with it. */
    spin_until(sync_call_done, &call, SPIN_BEFORE_SLEEP_NS);
    pthread_mutex_lock(&call.lock);
    while (!call.done) {
        pthread_cond_wait(&call.cond, &call.lock);
    }
    pthread_mutex_unlock(&call.lock);
    pthread_cond_destroy(&call.cond);
    pthread_mutex_destroy(&call.lock);
    return call.status;
}

pmix_status_t server_run_named(pmix_status_t (*fn)(void *arg), const char *name, void *arg)
{
    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == name || '\0' == name[0]) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = server_run_sync(fn, arg);
    return PMIX_SUCCESS == rc ? PMIX_OPERATION_SUCCEEDED : rc;
}

/* One pass over the loop without waiting; true once the server stops. */
static bool progress_once(void *arg)
{
    event_base_loop(server.base, EVLOOP_NONBLOCK);
    return stopping;
}

/* What the thread's heap_warm touches: about what a small job's
 * registration takes, and under the default trim threshold, so it stays. */
#define THREAD_HEAP_WARM (96 * 1024)

static void *progress_thread(void *arg)
{
    /* Its arena and first pages now, not in the first registration, which
     * a host waits for before it launches. */
    heap_warm(THREAD_HEAP_WARM);
    while (!stopping) {
        event_base_loop(server.base, EVLOOP_ONCE);
        /* The other participants of a collective usually follow within
         * the window: catching them awake halves a fence's time. */
        spin_until(progress_once, NULL, SPIN_BEFORE_SLEEP_NS);
    }
    return NULL;
}

/* Read what PMIx_server_init's info says about us. */
static pmix_status_t read_init_info(const pmix_info_t *info, size_t ninfo)
{
    const char *tmpdir = NULL;

    PMIX_LOAD_PROCID(&server.me, NULL, 0);
    server.refusal_log = -1;
    for (size_t i = 0; i < ninfo; i++) {
        const pmix_value_t *v = &info[i].value;
        if (PMIX_CHECK_KEY(&info[i], PMIX_SERVER_TMPDIR) && PMIX_STRING == v->type) {
            tmpdir = v->data.string;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_SERVER_NSPACE) && PMIX_STRING == v->type) {
            PMIX_LOAD_NSPACE(server.me.nspace, v->data.string);
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_SERVER_RANK) && PMIX_PROC_RANK == v->type) {
            server.me.rank = v->data.rank;
        } else if (PMIX_CHECK_KEY(&info[i], DROVER_SERVER_CLIENT_PIDS)) {
            server.client_pids = PMIX_INFO_TRUE(&info[i]);
        } else if (PMIX_CHECK_KEY(&info[i], DROVER_SERVER_PMI_PROCS) &&
                   PMIX_UINT32 == v->type) {
            server.pmi_early = true;
            server.pmi_procs_early = v->data.uint32;
        } else if (PMIX_CHECK_KEY(&info[i], DROVER_SERVER_TRACE) && PMIX_POINTER == v->type &&
                   NULL != v->data.ptr) {
            server.trace = *(const drover_server_trace_t *)v->data.ptr;
        } else if (PMIX_CHECK_KEY(&info[i], DROVER_SERVER_GROUPS) && PMIX_POINTER == v->type &&
                   NULL != v->data.ptr) {
            server.groups = *(const drover_server_groups_t *)v->data.ptr;
        } else if (PMIX_CHECK_KEY(&info[i], DROVER_SERVER_INVITES_ACROSS)) {
            server.invites_across = PMIX_INFO_TRUE(&info[i]);
        } else if (PMIX_CHECK_KEY(&info[i], DROVER_SERVER_REFUSAL_LOG) && PMIX_INT == v->type) {
            server.refusal_log = v->data.integer;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_TOPOLOGY2) && PMIX_TOPO == v->type &&
                   NULL != v->data.topo && NULL != v->data.topo->topology &&
                   (NULL == v->data.topo->source ||
                    0 == strncmp(v->data.topo->source, "hwloc", 5))) {
            /* The host's topology, loaded once: borrowed until finalize. */
            topology_adopt(v->data.topo->topology);
        }
    }
    if ('\0' == server.me.nspace[0]) {
        snprintf(server.me.nspace, sizeof(server.me.nspace), "drover-server.%ld",
                 (long)getpid());
    }
    if (NULL == tmpdir && NULL == (tmpdir = getenv("TMPDIR"))) {
        tmpdir = "/tmp";
    }
    server.tmpdir = strdup(tmpdir);
    return NULL == server.tmpdir ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

static void release_state(void)
{
    if (NULL != wake_event) {
        event_free(wake_event);
        wake_event = NULL;
    }
    eventq_close(&posts);
    if (NULL != server.base) {
        event_base_free(server.base);
    }
    free(server.tmpdir);
    memset(&server, 0, sizeof(server));
}

PMIX_EXPORT pmix_status_t PMIx_server_init(pmix_server_module_t *module, pmix_info_t info[],
                                           size_t ninfo)
{
    pmix_status_t rc;

    if (NULL == info && 0 != ninfo) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = role_claim(ROLE_SERVER))) {
        return rc;
    }
    memset(&server, 0, sizeof(server));
    if (NULL != module) {
        server.host = *module;
    }
    stopping = false;
    if (PMIX_SUCCESS != (rc = read_init_info(info, ninfo))) {
        goto fail;
    }
    rc = PMIX_ERR_NOMEM;
    if (NULL == (server.base = event_base_new())) {
        goto fail;
    }
    if (PMIX_SUCCESS != (rc = eventq_open(&posts))) {
        goto fail;
    }
    rc = PMIX_ERR_NOMEM;
    wake_event = event_new(server.base, posts.fd, EV_READ | EV_PERSIST, run_posted, NULL);
    if (NULL == wake_event || 0 != event_add(wake_event, NULL)) {
        goto fail;
    }
    if (PMIX_SUCCESS != (rc = listener_start())) {
        goto fail;
    }
    /* Before the thread runs the loop the listener joins. */
    if (server.pmi_early) {
        if (PMIX_SUCCESS != (rc = pmi_port_open())) {
            goto fail_listening;
        }
        pmi_pairs_ahead(server.pmi_procs_early);
    }
    server.initialized = true;
    if (0 != pthread_create(&server.thread, NULL, progress_thread, NULL)) {
        server.initialized = false;
        rc = PMIX_ERR_OUT_OF_RESOURCE;
        goto fail_listening;
    }
    return PMIX_SUCCESS;

fail_listening:
    pmi_pairs_close();
    pmi_port_close();
    listener_stop();
fail:
    release_state();
    role_release(ROLE_SERVER);
    return rc;
}

static pmix_status_t shut_down(void *arg)
{
    eventq_stop(&posts);
    peer_close_all();
    collective_clear_all();
    data_clear_all();
    group_clear_all();
    iof_clear_all();
    nspace_clear_all();
    pset_clear_all();
    attrs_clear_all();
    credential_clear();
    pmi_pairs_close();
    pmi_port_close();
    listener_stop();
    store_clear(&server.data);
    stopping = true;
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_server_finalize(void)
{
    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    if (server_in_thread()) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    server_run_sync(shut_down, NULL);
    /* The loop may be idle in EVLOOP_ONCE: one more wake-up lets it see
     * the flag. */
    eventq_wake(&posts);
    pthread_join(server.thread, NULL);
    /* Work posted while the shutdown was queued is dropped (by
     * release_state's eventq_close). */
    release_state();
    client_forget_host();
    role_release(ROLE_SERVER);
    return PMIX_SUCCESS;
}
