/*
 * slurmlike.c - a host that treats the server library as Slurm 22.05's
 * mpi/pmix_v4 plugin does (facts of Slurm's src/plugins/mpi/pmix):
 *  - client_connected returns PMIX_SUCCESS and never calls its callback;
 *    client_finalized calls its callback inside the call;
 *  - fence_nb answers inside the call, holding its collective lock, and
 *    the release function it passes takes that lock;
 *  - a default event handler ends the step on any event, and a rank that
 *    dies without PMIx_Finalize must reach it as PMIX_ERR_LOST_CONNECTION;
 *  - the job's nodes come only as PMIX_NODE_MAP and PMIX_PROC_MAP.
 * Besides, inside its first fence_nb (the progress thread, lock held) it
 * makes every non-blocking server call whose callback could run inline:
 * each callback takes the lock too. The lock is an error-checking mutex,
 * so a callback run inside the call is seen (EDEADLK) instead of hanging.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmix.h"
#include "pmix_tool.h"
#include "slurmlike.h"

static pthread_mutex_t coll_lock;
static volatile int inline_callbacks;   /* callbacks run inside a call */
static volatile int callbacks_run;      /* of the calls made in fence_nb */
static int callbacks_expected;
static volatile int lost_rank = -1;     /* source of PMIX_ERR_LOST_CONNECTION */
static volatile int other_events;

/* What every callback does first: take the lock its caller may hold. */
static void take_lock(void)
{
    int rc = pthread_mutex_lock(&coll_lock);
    if (EDEADLK == rc) {
        inline_callbacks++;
        return;
    }
    pthread_mutex_unlock(&coll_lock);
}

static pmix_status_t connected(const pmix_proc_t *proc, void *server_object,
                               pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_SUCCESS; /* and never calls back */
}

static pmix_status_t finalized(const pmix_proc_t *proc, void *server_object,
                               pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
    return PMIX_SUCCESS;
}

/* Not Slurm's (it has none), but a host's own push_stdin answering inline
 * is its right: the library must still not run the callback of the host's
 * PMIx_IOF_push inside that call. */
static pmix_status_t push_stdin(const pmix_proc_t *source, const pmix_proc_t targets[],
                                size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                                const pmix_byte_object_t *bo, pmix_op_cbfunc_t cbfunc,
                                void *cbdata)
{
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
    return PMIX_SUCCESS;
}

static void release(void *cbdata)
{
    take_lock();
    free(cbdata);
}

/* ---- Non-blocking calls made from inside fence_nb ----------------------- */

static void op_done(pmix_status_t status, void *cbdata)
{
    take_lock();
    callbacks_run++;
}

static void setup_done(pmix_status_t status, pmix_info_t info[], size_t ninfo,
                       void *provided_cbdata, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    op_done(status, NULL);
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
}

static void info_done(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                      pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    op_done(status, NULL);
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
}

static void dmodex_done(pmix_status_t status, char *data, size_t sz, void *cbdata)
{
    op_done(status, NULL);
}

static void handler_done(pmix_status_t status, size_t id, void *cbdata)
{
    op_done(status, NULL);
    PMIx_Deregister_event_handler(id, NULL, NULL);
}

static void ignore(size_t id, pmix_status_t status, const pmix_proc_t *source,
                   pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                   pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

/* Each call that returns PMIX_SUCCESS owes one callback. */
static void expect(pmix_status_t rc, const char *what)
{
    if (PMIX_SUCCESS == rc) {
        callbacks_expected++;
    } else {
        fprintf(stderr, "minihost -s: %s from fence_nb: %s\n", what, PMIx_Error_string(rc));
    }
}

static void calls_inside(const pmix_proc_t *procs)
{
    pmix_proc_t rank0;
    pmix_byte_object_t bo = {.bytes = "x", .size = 1};
    pmix_status_t code = PMIX_EVENT_JOB_END;

    PMIX_LOAD_PROCID(&rank0, procs[0].nspace, 0);
    expect(PMIx_server_register_client(&rank0, getuid(), getgid(), NULL, op_done, NULL),
           "register_client");
    expect(PMIx_server_setup_application(rank0.nspace, NULL, 0, setup_done, NULL),
           "setup_application");
    expect(PMIx_server_setup_local_support(rank0.nspace, NULL, 0, op_done, NULL),
           "setup_local_support");
    expect(PMIx_server_collect_inventory(NULL, 0, info_done, NULL), "collect_inventory");
    expect(PMIx_server_deliver_inventory(NULL, 0, NULL, 0, op_done, NULL), "deliver_inventory");
    expect(PMIx_server_IOF_deliver(&rank0, PMIX_FWD_STDOUT_CHANNEL, &bo, NULL, 0, op_done, NULL),
           "IOF_deliver");
    expect(PMIx_server_dmodex_request(&rank0, dmodex_done, NULL), "dmodex_request");
    expect(PMIx_IOF_push(&rank0, 1, &bo, NULL, 0, op_done, NULL), "IOF_push");
    expect(PMIx_Register_event_handler(&code, 1, NULL, 0, ignore, handler_done, NULL),
           "Register_event_handler");
}

/* Slurm's fence: the collective lock held across the answer. */
static pmix_status_t fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                              void *cbdata)
{
    static bool first = true;

    pthread_mutex_lock(&coll_lock);
    if (first && nprocs > 0) {
        first = false;
        calls_inside(procs);
    }
    cbfunc(PMIX_SUCCESS, data, ndata, cbdata, release, data);
    pthread_mutex_unlock(&coll_lock);
    return PMIX_SUCCESS;
}

void slurmlike_module(pmix_server_module_t *module)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&coll_lock, &attr);
    pthread_mutexattr_destroy(&attr);
    module->client_connected = connected;
    module->client_finalized = finalized;
    module->fence_nb = fence_nb;
    module->push_stdin = push_stdin;
}

/* Slurm's default handler kills the step on any event. */
static void step_handler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                         pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                         pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    if (PMIX_ERR_LOST_CONNECTION == status && NULL != source &&
        PMIX_CHECK_NSPACE(source->nspace, "minihost.job")) {
        lost_rank = (int)source->rank;
    } else if (PMIX_EVENT_JOB_END != status) {
        other_events++;
    }
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

/* A node map that cannot be read is refused, and the job is not there. */
static void bad_map(void)
{
    pmix_info_t info[2];
    pmix_proc_t wild;
    pmix_value_t *v = NULL;
    uint32_t size = 2;
    pmix_nspace_t name = "minihost.badmap";

    PMIx_Info_load(&info[0], PMIX_JOB_SIZE, &size, PMIX_UINT32);
    PMIx_Info_load(&info[1], PMIX_NODE_MAP, "pmix:n[2:1-", PMIX_STRING);
    pmix_status_t rc = PMIx_server_register_nspace(name, 1, info, 2, NULL, NULL);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIX_LOAD_PROCID(&wild, name, PMIX_RANK_WILDCARD);
    if (PMIX_ERR_BAD_PARAM != rc ||
        PMIX_ERR_NOT_FOUND != PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v)) {
        fprintf(stderr, "minihost -s: a malformed node map: %s\n", PMIx_Error_string(rc));
        exit(1);
    }
}

void slurmlike_start(void)
{
    bad_map();
    pmix_status_t rc = PMIx_Register_event_handler(NULL, 0, NULL, 0, step_handler, NULL, NULL);
    if (rc < 0) {
        fprintf(stderr, "minihost -s: default handler: %s\n", PMIx_Error_string(rc));
        exit(1);
    }
}

void slurmlike_maps(const char *host, uint32_t nranks, pmix_info_t info[2])
{
    char nodes[512], ranks[4096] = "";
    char *node_map = NULL, *proc_map = NULL;

    snprintf(nodes, sizeof(nodes), "%s,minihost-far", host);
    for (uint32_t r = 0; r + 1 < nranks; r++) {
        snprintf(ranks + strlen(ranks), sizeof(ranks) - strlen(ranks), r ? ",%u" : "%u", r);
    }
    snprintf(ranks + strlen(ranks), sizeof(ranks) - strlen(ranks), ";%u", nranks - 1);
    if (PMIX_SUCCESS != PMIx_generate_regex(nodes, &node_map) ||
        PMIX_SUCCESS != PMIx_generate_ppn(ranks, &proc_map)) {
        fprintf(stderr, "minihost -s: cannot encode the maps\n");
        exit(1);
    }
    PMIx_Info_load(&info[0], PMIX_NODE_MAP, node_map, PMIX_STRING);
    PMIx_Info_load(&info[1], PMIX_PROC_MAP, proc_map, PMIX_STRING);
    free(node_map);
    free(proc_map);
}

int slurmlike_verdict(uint32_t nranks)
{
    /* The lost connection is noticed on its own time: wait boundedly. */
    for (int i = 0; i < 1000 && (lost_rank < 0 || callbacks_run < callbacks_expected); i++) {
        usleep(10000);
    }
    int failed = 0;
    if (lost_rank != (int)nranks - 1) {
        fprintf(stderr, "minihost -s: no PMIX_ERR_LOST_CONNECTION from rank %u (got %d)\n",
                nranks - 1, lost_rank);
        failed = 1;
    }
    if (0 != inline_callbacks) {
        fprintf(stderr, "minihost -s: %d callbacks ran inside the host's own call\n",
                inline_callbacks);
        failed = 1;
    }
    if (0 == callbacks_expected || callbacks_run != callbacks_expected) {
        fprintf(stderr, "minihost -s: %d of %d callbacks of calls made in fence_nb ran\n",
                callbacks_run, callbacks_expected);
        failed = 1;
    }
    if (0 != other_events) {
        fprintf(stderr, "minihost -s: %d unexpected events\n", other_events);
        failed = 1;
    }
    return failed;
}
