/*
 * host.c - the pmix_server_module_t drover gives the server library.
 *
 * Design notes:
 *  - The library calls these functions from its own progress thread, and
 *    everything they touch (jobs, processes, the publish store) belongs
 *    to the main thread. So each function copies its arguments (they are
 *    borrowed only for the call) into a request, queues it and wakes the
 *    loop through a pipe; the main thread runs the request and calls the
 *    library's callback from there. The library accepts callbacks from
 *    any thread.
 *  - Exceptions, answered at once in the library's thread because they
 *    need no state: fence_nb (on one node every participant is local, so
 *    the combined data is the data given: a copy is handed back with a
 *    release function) and notify_event (nothing beyond this node to
 *    reach), but for what the run passes on: a debugger's events, and
 *    in a daemon's job the events for other jobs' processes
 *    (daemon_events.c).
 *  - connect and disconnect, and group construct and destruct, come after
 *    the library has gathered the run's own participants; in a daemon's
 *    job, those of the other jobs named meet through the daemon
 *    (pubsub_daemon.c), whose answer brings their job descriptions (and a
 *    group's context id and every run's endpoint data).
 *  - What job control and process monitoring do is control.c's; this file
 *    only carries the requests to it.
 *  - In a daemon's job, the library tells of every change of a group's
 *    members (DROVER_SERVER_GROUPS), which goes to the daemon
 *    (daemon_groups.c) and keeps the other jobs' namespaces a group names
 *    registered (foreign.c).
 *  - Waiting for the library (register_nspace, register_client,
 *    deregister_nspace) happens in the main thread with host_op_t, a
 *    counted condition: the library's thread never waits for the main one,
 *    so that cannot deadlock.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon.h"
#include "directive.h"
#include "launcher.h"
#include "spin.h"
#include "drover.h"
#include "pmix.h"
#include "pmix_server.h"

/* How long the main thread waits for the library before giving up. */
#define OP_TIMEOUT_SECONDS 60

typedef struct request request_t;
typedef void (*request_fn_t)(launcher_t *run, request_t *r);

/* One queued module call: its copied arguments and its callback. */
struct request {
    request_t *next;
    request_fn_t handle;
    pmix_proc_t proc;
    pmix_proc_t *procs;
    size_t nprocs;
    pmix_info_t *info;
    size_t ninfo;
    char **keys;
    pmix_query_t *queries;
    size_t nqueries;
    pmix_app_t *apps;
    size_t napps;
    size_t ndirs;          /* log: the last ndirs of info are directives */
    int status;
    char *msg;
    pmix_op_cbfunc_t op_cb;
    pmix_info_cbfunc_t info_cb;
    pmix_lookup_cbfunc_t lookup_cb;
    pmix_spawn_cbfunc_t spawn_cb;
    pmix_modex_cbfunc_t modex_cb;
    void *cbdata;
};

static launcher_t *host_run;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static request_t *queue_head;
static request_t **queue_tail = &queue_head;
static int wake_fds[2] = {-1, -1};
static struct event *wake_event;

/* ---- copies of borrowed arguments ------------------------------------- */

void *host_copy_array(const void *src, size_t n, pmix_data_type_t type)
{
    pmix_data_array_t borrowed = {.type = type, .size = n, .array = (void *)src};
    pmix_data_array_t *copy = NULL;
    void *items;

    if (0 == n || NULL == src ||
        PMIX_SUCCESS != PMIx_Data_copy((void **)&copy, &borrowed, PMIX_DATA_ARRAY)) {
        return NULL;
    }
    items = copy->array;
    free(copy);
    return items;
}

static pmix_info_t *copy_info(const pmix_info_t *src, size_t n)
{
    return host_copy_array(src, n, PMIX_INFO);
}

/* NULL stays NULL; anything else is copied, NULL on failure. */
static char **copy_argv(char *const *argv)
{
    return NULL == argv ? NULL : launch_copy_env(argv);
}

static request_t *request_new(request_fn_t handle, const pmix_proc_t *proc, void *cbdata)
{
    request_t *r = calloc(1, sizeof(*r));
    if (NULL != r) {
        r->handle = handle;
        if (NULL != proc) {
            r->proc = *proc;
        }
        r->cbdata = cbdata;
    }
    return r;
}

static void request_free(request_t *r)
{
    free(r->procs);
    if (NULL != r->info) {
        PMIX_INFO_FREE(r->info, r->ninfo);
    }
    PMIX_ARGV_FREE(r->keys);
    if (NULL != r->queries) {
        PMIX_QUERY_FREE(r->queries, r->nqueries);
    }
    if (NULL != r->apps) {
        PMIX_APP_FREE(r->apps, r->napps);
    }
    free(r->msg);
    free(r);
}

/* Hand r to the main thread. PMIX_SUCCESS: its callback will run. */
static pmix_status_t enqueue(request_t *r)
{
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    pthread_mutex_lock(&queue_lock);
    bool was_empty = NULL == queue_head;
    *queue_tail = r;
    queue_tail = &r->next;
    pthread_mutex_unlock(&queue_lock);
    if (was_empty) {
        char byte = 0;
        (void)!write(wake_fds[1], &byte, 1);
    }
    return PMIX_SUCCESS;
}

static void drain(evutil_socket_t fd, short what, void *arg)
{
    char bytes[64];
    while (read(fd, bytes, sizeof(bytes)) > 0) {
    }
    pthread_mutex_lock(&queue_lock);
    request_t *list = queue_head;
    queue_head = NULL;
    queue_tail = &queue_head;
    pthread_mutex_unlock(&queue_lock);
    while (NULL != list) {
        request_t *r = list;
        list = r->next;
        r->handle(host_run, r);
        request_free(r);
    }
    run_check_done(host_run);
}

/* ---- waiting for the library ----------------------------------------- */

struct host_op {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    unsigned done;   /* changed under lock, read atomically while polled */
    unsigned wanted; /* 0 until host_op_wait says how many it waits for */
    pmix_status_t status;
};

host_op_t *host_op_begin(void)
{
    host_op_t *op = calloc(1, sizeof(*op));
    if (NULL != op) {
        pthread_mutex_init(&op->lock, NULL);
        pthread_cond_init(&op->cond, NULL);
    }
    return op;
}

void host_op_cbfunc(pmix_status_t status, void *cbdata)
{
    host_op_t *op = cbdata;
    pthread_mutex_lock(&op->lock);
    unsigned done = __atomic_add_fetch(&op->done, 1, __ATOMIC_RELEASE);
    if (PMIX_SUCCESS != status && PMIX_SUCCESS == op->status) {
        op->status = status;
    }
    /* Only the answer that completes the wait wakes the waiter: a job's
     * reaped processes, deregistered one by one, woke the run once each,
     * switching it in and out against the library's thread. */
    if (op->wanted > 0 && done >= op->wanted) {
        pthread_cond_signal(&op->cond);
    }
    pthread_mutex_unlock(&op->lock);
}

static bool op_complete(void *arg)
{
    host_op_t *op = arg;
    return __atomic_load_n(&op->done, __ATOMIC_ACQUIRE) >= op->wanted;
}

pmix_status_t host_op_wait(host_op_t *op, unsigned ncalls)
{
    if (NULL == op) {
        return PMIX_ERR_NOMEM;
    }
    pthread_mutex_lock(&op->lock);
    op->wanted = ncalls;
    pthread_mutex_unlock(&op->lock);
    /* The library's thread is usually at it on the other core and answers
     * within microseconds: polling first spares the wake-up from sleep
     * (0.03 ms of an 8-rank launch, which waits for its registration just
     * before the forks). */
    if (ncalls > 0) {
        spin_until(op_complete, op, SPIN_BEFORE_SLEEP_NS);
    }
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += OP_TIMEOUT_SECONDS;
    pthread_mutex_lock(&op->lock);
    int rc = 0;
    while (op->done < ncalls && 0 == rc) {
        rc = pthread_cond_timedwait(&op->cond, &op->lock, &deadline);
    }
    pmix_status_t status = op->status;
    pthread_mutex_unlock(&op->lock);
    if (0 != rc) {
        /* The library may still call back: the op must stay allocated. */
        return PMIX_ERR_TIMEOUT;
    }
    pthread_mutex_destroy(&op->lock);
    pthread_cond_destroy(&op->cond);
    free(op);
    return status;
}

pmix_status_t host_register_nspace(const char *nspace, int nlocal, pmix_info_t *info,
                                   size_t ninfo)
{
    host_op_t *op = host_op_begin();
    pmix_status_t rc = NULL == op ? PMIX_ERR_NOMEM
                                  : PMIx_server_register_nspace(nspace, nlocal, info, ninfo,
                                                                host_op_cbfunc, op);
    if (PMIX_SUCCESS == rc) {
        rc = host_op_wait(op, 1);
    } else if (NULL != op) {
        host_op_wait(op, 0);
    }
    return PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc;
}

/* ---- client lifecycle ------------------------------------------------- */

/* Answer an op request; the library may pass no callback. */
static void reply(request_t *r, pmix_status_t status)
{
    if (NULL != r->op_cb) {
        r->op_cb(status, r->cbdata);
    }
}

static void handle_connected(launcher_t *run, request_t *r)
{
    launcher_proc_t *p = job_find_proc(run, &r->proc, NULL);
    if (NULL != p) {
        p->connected = true;
    }
    reply(r, NULL != p ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND);
}

static pmix_status_t client_connected2(const pmix_proc_t *proc, void *server_object,
                                       pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                       void *cbdata)
{
    request_t *r = request_new(handle_connected, proc, cbdata);
    if (NULL != r) {
        r->op_cb = cbfunc;
    }
    return enqueue(r);
}

static pmix_status_t client_connected(const pmix_proc_t *proc, void *server_object,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return client_connected2(proc, server_object, NULL, 0, cbfunc, cbdata);
}

static void handle_finalized(launcher_t *run, request_t *r)
{
    launcher_proc_t *p = job_find_proc(run, &r->proc, NULL);
    if (NULL != p) {
        p->finalized = true;
    }
    reply(r, PMIX_SUCCESS);
}

static pmix_status_t client_finalized(const pmix_proc_t *proc, void *server_object,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    request_t *r = request_new(handle_finalized, proc, cbdata);
    if (NULL != r) {
        r->op_cb = cbfunc;
    }
    return enqueue(r);
}

static void signal_target(launcher_t *run, launcher_proc_t *p, int sig)
{
    job_signal_proc(run, p, sig);
}

static void handle_abort(launcher_t *run, request_t *r)
{
    launcher_job_t *job;
    launcher_proc_t *p = job_find_proc(run, &r->proc, &job);
    char who[PMIX_MAX_NSLEN + 64];
    if (NULL != p && 0 == job->index) {
        snprintf(who, sizeof(who), "rank %u (pid %d)", r->proc.rank, (int)p->pid);
    } else {
        snprintf(who, sizeof(who), "rank %u of %s (pid %d)", r->proc.rank, r->proc.nspace,
                 NULL != p ? (int)p->pid : 0);
    }
    const char *msg = NULL != r->msg && '\0' != r->msg[0] ? r->msg : "(no message)";
    if (0 == r->nprocs) {
        if (NULL != p) {
            p->requested_end = true;
        }
        job_fail(run, r->status, LAUNCHER_NAME ": %s called PMIx_Abort with status %d: %s", who,
                 r->status, msg);
    } else {
        fprintf(stderr, LAUNCHER_NAME ": %s called PMIx_Abort with status %d on %zu processes: %s\n",
                who, r->status, r->nprocs, msg);
        if (!run->status_fixed && 0 != r->status) {
            run->status_fixed = true;
            run->status = r->status;
        }
        control_for_each(run, r->procs, r->nprocs, signal_target, SIGTERM);
    }
    reply(r, PMIX_SUCCESS);
}

static pmix_status_t abort_fn(const pmix_proc_t *proc, void *server_object, int status,
                              const char msg[], pmix_proc_t procs[], size_t nprocs,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    request_t *r = request_new(handle_abort, proc, cbdata);
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    r->op_cb = cbfunc;
    r->status = status;
    r->msg = NULL != msg ? strdup(msg) : NULL;
    if (nprocs > 0 && NULL != procs) {
        r->procs = malloc(nprocs * sizeof(*procs));
        if (NULL == r->procs) {
            request_free(r);
            return PMIX_ERR_NOMEM;
        }
        memcpy(r->procs, procs, nprocs * sizeof(*procs));
        r->nprocs = nprocs;
    }
    return enqueue(r);
}

/* ---- collectives: answered in the library's thread -------------------- */

static void release_data(void *cbdata)
{
    free(cbdata);
}

/* data is ours (the library hands it over): it goes straight back. */
static pmix_status_t fence_nb(const pmix_proc_t procs[], size_t nprocs,
                              const pmix_info_t info[], size_t ninfo, char *data, size_t ndata,
                              pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    cbfunc(PMIX_SUCCESS, data, ndata, cbdata, release_data, data);
    return PMIX_SUCCESS;
}

static void handle_direct_modex(launcher_t *run, request_t *r)
{
    pubsub_modex(run->pubsub, &r->proc, r->modex_cb, r->cbdata);
}

/* The data of a process the server does not know: in a daemon's job, one
 * of another job of the daemon (after a PMIx_Connect with it). */
static pmix_status_t direct_modex(const pmix_proc_t *proc, const pmix_info_t info[],
                                  size_t ninfo, pmix_modex_cbfunc_t cbfunc, void *cbdata)
{
    request_t *r = request_new(handle_direct_modex, proc, cbdata);
    if (NULL != r) {
        r->modex_cb = cbfunc;
    }
    return enqueue(r);
}

/* ---- publish / lookup / unpublish ------------------------------------- */

static void handle_publish(launcher_t *run, request_t *r)
{
    pubsub_publish(run->pubsub, &r->proc, r->info, r->ninfo, r->op_cb, r->cbdata);
}

static void handle_unpublish(launcher_t *run, request_t *r)
{
    pubsub_unpublish(run->pubsub, &r->proc, r->keys, r->info, r->ninfo, r->op_cb, r->cbdata);
}

static void handle_lookup(launcher_t *run, request_t *r)
{
    pubsub_lookup(run->pubsub, &r->proc, r->keys, r->info, r->ninfo, r->lookup_cb, r->cbdata);
}

/* A request carrying proc, keys (may be NULL) and info. */
static request_t *data_request(request_fn_t handle, const pmix_proc_t *proc, char **keys,
                               const pmix_info_t info[], size_t ninfo, void *cbdata)
{
    request_t *r = request_new(handle, proc, cbdata);
    if (NULL == r) {
        return NULL;
    }
    r->keys = copy_argv(keys);
    r->info = copy_info(info, ninfo);
    r->ninfo = NULL != r->info ? ninfo : 0;
    if ((NULL != keys && NULL == r->keys) || (ninfo > 0 && NULL == r->info)) {
        request_free(r);
        return NULL;
    }
    return r;
}

/* ---- connect and disconnect ------------------------------------------- */

/* The run's jobs among r's processes, into a new array (*nmine of
 * them; NULL when memory runs out); whether other jobs' are there too. */
static launcher_job_t **jobs_among(launcher_t *run, const request_t *r, size_t *nmine,
                                   bool *others)
{
    launcher_job_t **mine = calloc(r->nprocs, sizeof(*mine));
    *nmine = 0;
    *others = false;
    for (size_t i = 0; NULL != mine && i < r->nprocs; i++) {
        launcher_job_t *job = job_find(run, r->procs[i].nspace);
        if (NULL == job) {
            *others = true;
        } else if (0 == *nmine || mine[*nmine - 1] != job) {
            /* The server sorted the list: a job's entries are together. */
            mine[(*nmine)++] = job;
        }
    }
    return mine;
}

/* The server has gathered every participant of this run (its namespaces
 * are all registered there) before calling the host: what is left is the
 * other jobs'. A daemon's job meets them through the daemon; elsewhere a
 * namespace the run does not know is nobody's. */
static void connect_jobs(launcher_t *run, request_t *r, bool disconnect)
{
    size_t nmine;
    bool others;
    launcher_job_t **mine = jobs_among(run, r, &nmine, &others);
    if (NULL == mine) {
        reply(r, PMIX_ERR_NOMEM);
    } else if (!others) {
        reply(r, PMIX_SUCCESS);
    } else {
        pubsub_connect(run->pubsub, r->procs, r->nprocs, mine, nmine,
                       directive_timeout(r->info, r->ninfo), disconnect, r->op_cb, r->cbdata);
    }
    free(mine);
}

static void handle_connect(launcher_t *run, request_t *r)
{
    connect_jobs(run, r, false);
}

static void handle_disconnect(launcher_t *run, request_t *r)
{
    connect_jobs(run, r, true);
}

static pmix_status_t connect_request(request_fn_t handle, const pmix_proc_t procs[],
                                     size_t nprocs, const pmix_info_t info[], size_t ninfo,
                                     pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (0 == nprocs || NULL == procs) {
        return PMIX_ERR_BAD_PARAM;
    }
    request_t *r = data_request(handle, NULL, NULL, info, ninfo, cbdata);
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    r->op_cb = cbfunc;
    if (NULL == (r->procs = host_copy_array(procs, nprocs, PMIX_PROC))) {
        request_free(r);
        return PMIX_ERR_NOMEM;
    }
    r->nprocs = nprocs;
    return enqueue(r);
}

static pmix_status_t connect_fn(const pmix_proc_t procs[], size_t nprocs,
                                const pmix_info_t info[], size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                void *cbdata)
{
    return connect_request(handle_connect, procs, nprocs, info, ninfo, cbfunc, cbdata);
}

static pmix_status_t disconnect_fn(const pmix_proc_t procs[], size_t nprocs,
                                   const pmix_info_t info[], size_t ninfo,
                                   pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return connect_request(handle_disconnect, procs, nprocs, info, ninfo, cbfunc, cbdata);
}

/* ---- groups across jobs ----------------------------------------------- */

/* As for a connect, the server has gathered the run's own members: a
 * group of the run's jobs alone is complete (the library numbers its
 * context id: it was asked only for that); one with other jobs' is
 * met through the daemon (pubsub_group_op). */
static void group_jobs(launcher_t *run, request_t *r, bool destruct)
{
    size_t nmine;
    bool others;
    launcher_job_t **mine = jobs_among(run, r, &nmine, &others);
    if (NULL == mine) {
        r->info_cb(PMIX_ERR_NOMEM, NULL, 0, r->cbdata, NULL, NULL);
    } else if (!others) {
        r->info_cb(PMIX_SUCCESS, NULL, 0, r->cbdata, NULL, NULL);
    } else {
        pubsub_group_op(run->pubsub, destruct, r->msg, r->procs, r->nprocs, mine, nmine, r->info,
                        r->ninfo, r->info_cb, r->cbdata);
    }
    free(mine);
}

static void handle_group_construct(launcher_t *run, request_t *r)
{
    group_jobs(run, r, false);
}

static void handle_group_destruct(launcher_t *run, request_t *r)
{
    group_jobs(run, r, true);
}

static pmix_status_t group_fn(pmix_group_operation_t op, char grp[], const pmix_proc_t procs[],
                              size_t nprocs, const pmix_info_t directives[], size_t ndirs,
                              pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    /* The library asks for nothing else. */
    if ((PMIX_GROUP_CONSTRUCT != op && PMIX_GROUP_DESTRUCT != op) || 0 == nprocs ||
        NULL == procs || NULL == grp) {
        return PMIX_ERR_BAD_PARAM;
    }
    request_t *r = data_request(
        PMIX_GROUP_CONSTRUCT == op ? handle_group_construct : handle_group_destruct, NULL, NULL,
        directives, ndirs, cbdata);
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    r->info_cb = cbfunc;
    if (NULL == (r->procs = host_copy_array(procs, nprocs, PMIX_PROC)) ||
        NULL == (r->msg = strdup(grp))) {
        request_free(r);
        return PMIX_ERR_NOMEM;
    }
    r->nprocs = nprocs;
    return enqueue(r);
}

/* ---- groups of a daemon's job ---------------------------------------- */

static void handle_group(launcher_t *run, request_t *r)
{
    pubsub_group(run->pubsub, r->msg, r->procs, r->nprocs);
    daemon_client_group(r->msg, r->procs, r->nprocs);
}

/* DROVER_SERVER_GROUPS, in the library's thread: a group of the run's
 * server has these members now (none: it is gone). */
static void group_changed(const char *name, const pmix_proc_t *members, size_t nmembers,
                          void *arg)
{
    request_t *r = request_new(handle_group, NULL, NULL);
    if (NULL == r || NULL == (r->msg = strdup(name)) ||
        (nmembers > 0 && NULL == (r->procs = host_copy_array(members, nmembers, PMIX_PROC)))) {
        if (NULL != r) {
            request_free(r);
        }
        fprintf(stderr, LAUNCHER_NAME ": out of memory: group %s not passed on\n", name);
        return;
    }
    r->nprocs = nmembers;
    enqueue(r);
}

static drover_server_groups_t groups_hook = {.changed = group_changed};

/* ---- debugger events -------------------------------------------------- */

static void handle_release(launcher_t *run, request_t *r)
{
    debug_release(run, r->info, r->ninfo);
    reply(r, PMIX_SUCCESS);
}

static void handle_ready(launcher_t *run, request_t *r)
{
    daemon_client_ready(&r->proc, r->info, r->ninfo);
    reply(r, PMIX_SUCCESS);
}

static void handle_event(launcher_t *run, request_t *r)
{
    daemon_client_event(r->status, &r->proc, r->info, r->ninfo);
    reply(r, PMIX_SUCCESS);
}

/* Every process of the run is this server's own client: the library has
 * delivered the event already. A debugger's release also continues the
 * processes held at exec; a rank ready for a debugger is for the
 * daemon's tools too when the run is a daemon's job; and in a daemon's
 * job, a custom range may name other jobs' processes. */
static request_fn_t passed_on(pmix_status_t code, pmix_data_range_t range)
{
    if (PMIX_DEBUGGER_RELEASE == code) {
        return handle_release;
    }
    if (PMIX_READY_FOR_DEBUG == code) {
        return handle_ready;
    }
    return PMIX_RANGE_CUSTOM == range && 0 != daemon_client_job() ? handle_event : NULL;
}

static pmix_status_t notify_event(pmix_status_t code, const pmix_proc_t *source,
                                  pmix_data_range_t range, pmix_info_t info[], size_t ninfo,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    request_fn_t handle = passed_on(code, range);
    request_t *r = NULL == handle ? NULL : data_request(handle, source, NULL, info, ninfo, cbdata);
    if (NULL != r) {
        r->status = code;
        r->op_cb = cbfunc;
        return enqueue(r);
    }
    cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

static pmix_status_t publish(const pmix_proc_t *proc, const pmix_info_t info[], size_t ninfo,
                             pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    request_t *r = data_request(handle_publish, proc, NULL, info, ninfo, cbdata);
    if (NULL != r) {
        r->op_cb = cbfunc;
    }
    return enqueue(r);
}

static pmix_status_t unpublish(const pmix_proc_t *proc, char **keys, const pmix_info_t info[],
                               size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    request_t *r = data_request(handle_unpublish, proc, keys, info, ninfo, cbdata);
    if (NULL != r) {
        r->op_cb = cbfunc;
    }
    return enqueue(r);
}

static pmix_status_t lookup(const pmix_proc_t *proc, char **keys, const pmix_info_t info[],
                            size_t ninfo, pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    if (NULL == keys || NULL == keys[0]) {
        return PMIX_ERR_BAD_PARAM;
    }
    request_t *r = data_request(handle_lookup, proc, keys, info, ninfo, cbdata);
    if (NULL != r) {
        r->lookup_cb = cbfunc;
    }
    return enqueue(r);
}

/* ---- spawn and query -------------------------------------------------- */

static void handle_spawn(launcher_t *run, request_t *r)
{
    spawn_job(run, &r->proc, r->info, r->ninfo, r->apps, r->napps, r->spawn_cb, r->cbdata);
}

static pmix_status_t spawn(const pmix_proc_t *proc, const pmix_info_t job_info[], size_t ninfo,
                           const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc,
                           void *cbdata)
{
    if (0 == napps || NULL == apps) {
        return PMIX_ERR_BAD_PARAM;
    }
    request_t *r = data_request(handle_spawn, proc, NULL, job_info, ninfo, cbdata);
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    r->spawn_cb = cbfunc;
    if (NULL == (r->apps = host_copy_array(apps, napps, PMIX_APP))) {
        request_free(r);
        return PMIX_ERR_NOMEM;
    }
    r->napps = napps;
    return enqueue(r);
}

static void handle_query(launcher_t *run, request_t *r)
{
    query_answer(run, &r->proc, r->queries, r->nqueries, r->info_cb, r->cbdata);
}

static pmix_status_t query(pmix_proc_t *proct, pmix_query_t *queries, size_t nqueries,
                           pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    if (0 == nqueries || NULL == queries) {
        return PMIX_ERR_BAD_PARAM;
    }
    request_t *r = request_new(handle_query, proct, cbdata);
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    r->info_cb = cbfunc;
    if (NULL == (r->queries = host_copy_array(queries, nqueries, PMIX_QUERY))) {
        request_free(r);
        return PMIX_ERR_NOMEM;
    }
    r->nqueries = nqueries;
    return enqueue(r);
}

/* ---- log and job control ---------------------------------------------- */

static void handle_log(launcher_t *run, request_t *r)
{
    size_t handled = 0;
    int priority = LOG_INFO;
    size_t ndata = r->ninfo - r->ndirs;
    for (size_t i = ndata; i < r->ninfo; i++) {
        const pmix_info_t *d = &r->info[i];
        if (PMIX_CHECK_KEY(d, PMIX_LOG_SYSLOG_PRI) && PMIX_INT == d->value.type) {
            priority = d->value.data.integer;
        }
    }
    for (size_t i = 0; i < ndata; i++) {
        const pmix_info_t *d = &r->info[i];
        if (PMIX_STRING != d->value.type || NULL == d->value.data.string) {
            continue;
        }
        const char *text = d->value.data.string;
        if (PMIX_CHECK_KEY(d, PMIX_LOG_STDERR) || PMIX_CHECK_KEY(d, PMIX_LOG_STDOUT)) {
            iof_message(run->iof, NULL, PMIX_CHECK_KEY(d, PMIX_LOG_STDOUT) ? 1 : 2, text);
            handled++;
        } else if (PMIX_CHECK_KEY(d, PMIX_LOG_SYSLOG) || PMIX_CHECK_KEY(d, PMIX_LOG_LOCAL_SYSLOG) ||
                   PMIX_CHECK_KEY(d, PMIX_LOG_GLOBAL_SYSLOG)) {
            syslog(priority, "%s rank %u: %s", r->proc.nspace, r->proc.rank, text);
            handled++;
        }
    }
    reply(r, handled > 0 ? PMIX_SUCCESS : PMIX_ERR_NOT_SUPPORTED);
}

static void log_fn(const pmix_proc_t *client, const pmix_info_t data[], size_t ndata,
                   const pmix_info_t directives[], size_t ndirs, pmix_op_cbfunc_t cbfunc,
                   void *cbdata)
{
    request_t *r = request_new(handle_log, client, cbdata);
    pmix_status_t rc = PMIX_ERR_NOMEM;
    if (NULL != r && ndata + ndirs > 0) {
        /* Data and directives travel in one array, directives last. */
        PMIX_INFO_CREATE(r->info, ndata + ndirs);
        if (NULL != r->info) {
            for (size_t i = 0; i < ndata; i++) {
                PMIX_INFO_XFER(&r->info[i], &data[i]);
            }
            for (size_t i = 0; i < ndirs; i++) {
                PMIX_INFO_XFER(&r->info[ndata + i], &directives[i]);
            }
            r->ninfo = ndata + ndirs;
            r->ndirs = ndirs;
            r->op_cb = cbfunc;
            rc = enqueue(r);
            r = NULL;
        }
    } else if (NULL != r) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (NULL != r) {
        request_free(r);
    }
    if (PMIX_SUCCESS != rc && NULL != cbfunc) {
        cbfunc(rc, cbdata);
    }
}

static void handle_job_control(launcher_t *run, request_t *r)
{
    r->info_cb(control_job(run, &r->proc, r->procs, r->nprocs, r->info, r->ninfo), NULL, 0,
               r->cbdata, NULL, NULL);
}

static pmix_status_t job_control(const pmix_proc_t *requestor, const pmix_proc_t targets[],
                                 size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                                 pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    request_t *r = data_request(handle_job_control, requestor, NULL, directives, ndirs, cbdata);
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    r->info_cb = cbfunc;
    if (ntargets > 0 && NULL != targets) {
        r->procs = malloc(ntargets * sizeof(*targets));
        if (NULL == r->procs) {
            request_free(r);
            return PMIX_ERR_NOMEM;
        }
        memcpy(r->procs, targets, ntargets * sizeof(*targets));
        r->nprocs = ntargets;
    }
    return enqueue(r);
}

/* The monitor travels as the first info, the directives after it. */
static void handle_monitor(launcher_t *run, request_t *r)
{
    r->info_cb(control_monitor(run, &r->proc, &r->info[0], r->status, r->info + 1, r->ninfo - 1),
               NULL, 0, r->cbdata, NULL, NULL);
}

static pmix_status_t monitor(const pmix_proc_t *requestor, const pmix_info_t *monitor,
                             pmix_status_t error, const pmix_info_t directives[], size_t ndirs,
                             pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    request_t *r = request_new(handle_monitor, requestor, cbdata);
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    PMIX_INFO_CREATE(r->info, ndirs + 1);
    if (NULL == r->info) {
        request_free(r);
        return PMIX_ERR_NOMEM;
    }
    r->ninfo = ndirs + 1;
    PMIX_INFO_XFER(&r->info[0], monitor);
    for (size_t i = 0; i < ndirs; i++) {
        PMIX_INFO_XFER(&r->info[i + 1], &directives[i]);
    }
    r->status = error;
    r->info_cb = cbfunc;
    return enqueue(r);
}

/* ---- events raised by drover ------------------------------------------ */

typedef struct notification {
    pmix_info_t *info;
    size_t ninfo;
} notification_t;

static void notified(pmix_status_t status, void *cbdata)
{
    notification_t *n = cbdata;
    PMIX_INFO_FREE(n->info, n->ninfo);
    free(n);
}

pmix_status_t host_raise(launcher_t *run, pmix_status_t code, const pmix_proc_t *source,
                         pmix_data_range_t range, pmix_info_t *info, size_t ninfo)
{
    notification_t *n = run->server_up ? calloc(1, sizeof(*n)) : NULL;
    if (NULL == n) {
        PMIX_INFO_FREE(info, ninfo);
        return run->server_up ? PMIX_ERR_NOMEM : PMIX_ERR_INIT;
    }
    *n = (notification_t){.info = info, .ninfo = ninfo};
    pmix_status_t rc = PMIx_Notify_event(code, source, range, info, ninfo, notified, n);
    if (PMIX_SUCCESS != rc) {
        notified(rc, n);
    }
    return rc;
}

void host_notify(launcher_t *run, pmix_status_t code, const pmix_proc_t *proc, int exit_code)
{
    pmix_info_t *info;

    PMIX_INFO_CREATE(info, 2);
    if (NULL == info) {
        return;
    }
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_AFFECTED_PROC, proc, PMIX_PROC);
    if (PMIX_EVENT_JOB_END == code) {
        pmix_status_t term = 0 == exit_code ? PMIX_SUCCESS : PMIX_ERROR;
        PMIX_INFO_LOAD(&info[1], PMIX_JOB_TERM_STATUS, &term, PMIX_STATUS);
    } else {
        PMIX_INFO_LOAD(&info[1], PMIX_EXIT_CODE, &exit_code, PMIX_INT);
    }
    host_raise(run, code, proc, PMIX_RANGE_SESSION, info, 2);
}

/* ---- start and stop --------------------------------------------------- */

static pmix_server_module_t module = {
    .client_connected = client_connected,
    .client_finalized = client_finalized,
    .abort = abort_fn,
    .fence_nb = fence_nb,
    .publish = publish,
    .lookup = lookup,
    .unpublish = unpublish,
    .spawn = spawn,
    .connect = connect_fn,
    .group = group_fn,
    .disconnect = disconnect_fn,
    .notify_event = notify_event,
    .query = query,
    .log = log_fn,
    .job_control = job_control,
    .monitor = monitor,
    .client_connected2 = client_connected2,
};

/* The server's trace hook: what it saw goes to the run's trace, if it has
 * one by then (a standby's run starts its server before it knows). */
static void trace_forward(const drover_trace_event_t *ev, void *arg)
{
    trace_t *t = __atomic_load_n(&((launcher_t *)arg)->trace, __ATOMIC_ACQUIRE);
    if (NULL != t) {
        trace_server_event(t, ev);
    }
}

pmix_status_t host_start(launcher_t *run, const host_setup_t *setup)
{
    host_run = run;
    /* Only a daemon's job has other jobs to ask about processes it does not
     * know: elsewhere the server answers "not found" at once. */
    module.direct_modex = setup->daemon_job ? direct_modex : NULL;
    if (0 != pipe2(wake_fds, O_CLOEXEC | O_NONBLOCK)) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    wake_event = event_new(run->base, wake_fds[0], EV_READ | EV_PERSIST, drain, NULL);
    if (NULL == wake_event || 0 != event_add(wake_event, NULL)) {
        host_stop(run);
        return PMIX_ERR_NOMEM;
    }
    /* The library shares drover's topology rather than loading its own:
     * the value points at it (loading the value would copy it). */
    pmix_topology_t topology = {.source = "hwloc", .topology = run->topo.topology};
    pmix_info_t info[8];
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, setup->tmpdir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, setup->tmpdir, PMIX_STRING);
    PMIX_INFO_CONSTRUCT(&info[2]);
    PMIX_LOAD_KEY(info[2].key, PMIX_TOPOLOGY2);
    info[2].value.type = PMIX_TOPO;
    info[2].value.data.topo = &topology;
    /* drover forks every client: only that process may claim its rank. */
    bool yes = true;
    PMIX_INFO_LOAD(&info[3], DROVER_SERVER_CLIENT_PIDS, &yes, PMIX_BOOL);
    /* Every rank is set up for PMI (job.c): the port and the first
     * ranks' socket pairs are made now, not in the launch (a standby's
     * server is started ahead). */
    uint32_t pmi_procs = setup->pmi_procs;
    PMIX_INFO_LOAD(&info[4], DROVER_SERVER_PMI_PROCS, &pmi_procs, PMIX_UINT32);
    size_t ninfo = 5;
    static drover_server_trace_t trace_hook = {.record = trace_forward};
    if (setup->traced) {
        trace_hook.arg = run;
        PMIX_INFO_LOAD(&info[ninfo++], DROVER_SERVER_TRACE, &trace_hook, PMIX_POINTER);
    }
    /* A daemon's job shows its groups to the daemon's tools, and its
     * events and groups reach the other jobs' (daemon_events.c,
     * daemon_connect.c): its ranks may invite theirs. */
    if (setup->daemon_job) {
        PMIX_INFO_LOAD(&info[ninfo++], DROVER_SERVER_GROUPS, &groups_hook, PMIX_POINTER);
        PMIX_INFO_LOAD(&info[ninfo++], DROVER_SERVER_INVITES_ACROSS, &yes, PMIX_BOOL);
    }
    pmix_status_t rc = PMIx_server_init(&module, info, ninfo);
    for (size_t i = 0; i < 2; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, LAUNCHER_NAME ": cannot start the PMIx server: %s\n",
                PMIx_Error_string(rc));
        host_stop(run);
        return rc;
    }
    run->server_up = true;
    return PMIX_SUCCESS;
}

void host_flush(launcher_t *run)
{
    if (NULL != wake_event) {
        drain(wake_fds[0], EV_READ, NULL);
    }
}

void host_stop(launcher_t *run)
{
    control_stop();
    if (run->server_up) {
        PMIx_server_finalize();
        run->server_up = false;
    }
    /* Whatever arrived since host_flush is dropped unanswered: the library
     * that would take the answers is gone, and so are the clients. */
    pthread_mutex_lock(&queue_lock);
    request_t *list = queue_head;
    queue_head = NULL;
    queue_tail = &queue_head;
    pthread_mutex_unlock(&queue_lock);
    while (NULL != list) {
        request_t *r = list;
        list = r->next;
        request_free(r);
    }
    if (NULL != wake_event) {
        event_free(wake_event);
        wake_event = NULL;
    }
    for (int i = 0; i < 2; i++) {
        if (wake_fds[i] >= 0) {
            close(wake_fds[i]);
            wake_fds[i] = -1;
        }
    }
}
