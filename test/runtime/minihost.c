/*
 * minihost.c - a minimal PMIx host for testing the server library without
 * the launcher: registers one job of N ranks on this node, forks the
 * ranks with the environment PMIx_server_setup_fork gives, answers fences
 * locally, and exits with the first non-zero status of a rank (or of the
 * tool).
 *
 * usage: minihost [-b | -s] [-p] [-t tool] N program [args...]
 *   -b       bare host: only fence, abort, connect and disconnect, so the
 *            library's own fallbacks are exercised (native credentials,
 *            local groups, no tool_connected...)
 *   -s       Slurm-like host (slurmlike.c): the last rank must leave
 *            without PMIx_Finalize, and the host checks it heard of that
 *            and that no callback ran inside its own calls
 *   -p       also serve each rank PMI over an inherited PMI_FD
 *            (drover_server_setup_pmi), as drover run does, after checking
 *            that a batch naming an unknown process fails cleanly
 *   -t tool  also run tool with only the server's URI in its environment
 *            (no namespace or rank) and the line "tool input" on its stdin;
 *            the server is finalized once the ranks are done, and the tool
 *            must cope with losing it
 *
 * Otherwise the host offers every module function the API tests need:
 * allocate, monitor, fabric, credentials, I/O forwarding (it captures each
 * rank's stdout and stderr, echoes them and hands them to
 * PMIx_server_IOF_deliver; pushed stdin is written to the rank's stdin),
 * groups (context ids from 1000), tools (namespace "minihost.tools") and
 * queries (PMIX_QUERY_NAMESPACES) and job control (defining and deleting
 * process sets on request, see job_control). It also defines the process set
 * "minihost.all" of every rank and registers attributes for "allocate".
 * A reacquisition of an allocation is left unanswered until the ranks end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "drover.h"
#include "minihost.h"
#include "pmix.h"
#include "pmix_server.h"
#include "slurmlike.h"

extern char **environ;

static pmix_nspace_t nspace = "minihost.job";
static volatile int abort_status = 0;
static uint32_t nranks;
static int *stdin_fds;               /* per rank; -1 once closed */
static pthread_mutex_t stdin_lock = PTHREAD_MUTEX_INITIALIZER;

static void release_data(void *cbdata)
{
    free(cbdata);
}

/* data is ours (the library hands it over): it goes straight back. */
static pmix_status_t fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                              void *cbdata)
{
    cbfunc(PMIX_SUCCESS, data, ndata, cbdata, release_data, data);
    return PMIX_SUCCESS;
}

static pmix_status_t do_abort(const pmix_proc_t *proc, void *server_object, int status,
                              const char msg[], pmix_proc_t procs[], size_t nprocs,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    fprintf(stderr, "minihost: rank %u aborted with %d: %s\n", proc->rank, status, msg);
    abort_status = status;
    kill(0, SIGTERM);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t connect_fn(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_OPERATION_SUCCEEDED;
}

/* ---- Module functions of the full host ---------------------------------- */

/* Answer an info callback with one (key, string) pair. */
static void answer_string(pmix_info_cbfunc_t cbfunc, void *cbdata, const char *key,
                          const char *value)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, key, value, PMIX_STRING);
    cbfunc(PMIX_SUCCESS, &info, 1, cbdata, NULL, NULL);
    PMIX_INFO_DESTRUCT(&info);
}

/* Reacquisitions of an allocation the host leaves unanswered until it
 * ends, so the client's PMIX_TIMEOUT must end them (client_get). */
#define MAX_HELD 8
static struct {
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
} held[MAX_HELD];
static size_t nheld;
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;

static pmix_status_t allocate(const pmix_proc_t *client, pmix_alloc_directive_t directive,
                              const pmix_info_t data[], size_t ndata, pmix_info_cbfunc_t cbfunc,
                              void *cbdata)
{
    if (PMIX_ALLOC_REAQUIRE == directive) {
        pthread_mutex_lock(&held_lock);
        bool room = nheld < MAX_HELD;
        if (room) {
            held[nheld].cbfunc = cbfunc;
            held[nheld++].cbdata = cbdata;
        }
        pthread_mutex_unlock(&held_lock);
        return room ? PMIX_SUCCESS : PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (PMIX_ALLOC_NEW != directive) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    answer_string(cbfunc, cbdata, PMIX_ALLOC_ID, "minihost-alloc-1");
    return PMIX_SUCCESS;
}

static pmix_status_t monitor(const pmix_proc_t *requestor, const pmix_info_t *mon,
                             pmix_status_t error, const pmix_info_t directives[], size_t ndirs,
                             pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    if (!PMIX_CHECK_KEY(mon, PMIX_MONITOR_HEARTBEAT) && !PMIX_CHECK_KEY(mon, PMIX_SEND_HEARTBEAT)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    answer_string(cbfunc, cbdata, PMIX_MONITOR_ID, "minihost-monitor");
    return PMIX_SUCCESS;
}

static pmix_status_t fabric(const pmix_proc_t *requestor, pmix_fabric_operation_t op,
                            const pmix_info_t directives[], size_t ndirs,
                            pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    static size_t updates;
    size_t index = 7;
    size_t planes = PMIX_FABRIC_UPDATE_INFO == op ? ++updates : 0;
    pmix_info_t info[2];

    PMIX_INFO_LOAD(&info[0], PMIX_FABRIC_INDEX, &index, PMIX_SIZE);
    PMIX_INFO_LOAD(&info[1], PMIX_FABRIC_NUM_DEVICES, &planes, PMIX_SIZE);
    cbfunc(PMIX_SUCCESS, info, 2, cbdata, NULL, NULL);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    return PMIX_SUCCESS;
}

static pmix_status_t get_credential(const pmix_proc_t *proc, const pmix_info_t directives[],
                                    size_t ndirs, pmix_credential_cbfunc_t cbfunc, void *cbdata)
{
    char text[64];
    pmix_byte_object_t cred = {.bytes = text};
    pmix_info_t type;

    cred.size = (size_t)snprintf(text, sizeof(text), "minihost-cred:%u", proc->rank);
    PMIX_INFO_LOAD(&type, PMIX_CRED_TYPE, "minihost", PMIX_STRING);
    cbfunc(PMIX_SUCCESS, &cred, &type, 1, cbdata);
    PMIX_INFO_DESTRUCT(&type);
    return PMIX_SUCCESS;
}

static pmix_status_t validate_credential(const pmix_proc_t *proc, const pmix_byte_object_t *cred,
                                         const pmix_info_t directives[], size_t ndirs,
                                         pmix_validation_cbfunc_t cbfunc, void *cbdata)
{
    pmix_info_t type;
    if (cred->size < 14 || 0 != memcmp(cred->bytes, "minihost-cred:", 14)) {
        cbfunc(PMIX_ERR_INVALID_CRED, NULL, 0, cbdata);
        return PMIX_SUCCESS;
    }
    PMIX_INFO_LOAD(&type, PMIX_CRED_TYPE, "minihost", PMIX_STRING);
    cbfunc(PMIX_SUCCESS, &type, 1, cbdata);
    PMIX_INFO_DESTRUCT(&type);
    return PMIX_SUCCESS;
}

static pmix_status_t iof_pull(const pmix_proc_t procs[], size_t nprocs,
                              const pmix_info_t directives[], size_t ndirs,
                              pmix_iof_channel_t channels, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    /* Every rank's output is delivered anyway. */
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t push_stdin(const pmix_proc_t *source, const pmix_proc_t targets[],
                                size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                                const pmix_byte_object_t *bo, pmix_op_cbfunc_t cbfunc,
                                void *cbdata)
{
    bool complete = false;
    for (size_t i = 0; i < ndirs; i++) {
        complete = complete || PMIX_CHECK_KEY(&directives[i], PMIX_IOF_COMPLETE);
    }
    pthread_mutex_lock(&stdin_lock);
    for (size_t t = 0; t < ntargets; t++) {
        for (uint32_t r = 0; r < nranks; r++) {
            if (!PMIX_CHECK_NSPACE(targets[t].nspace, nspace) || stdin_fds[r] < 0 ||
                (PMIX_RANK_WILDCARD != targets[t].rank && targets[t].rank != r)) {
                continue;
            }
            if (NULL != bo && bo->size > 0 && write(stdin_fds[r], bo->bytes, bo->size) < 0) {
                perror("minihost: stdin");
            }
            if (complete) {
                close(stdin_fds[r]);
                stdin_fds[r] = -1;
            }
        }
    }
    pthread_mutex_unlock(&stdin_lock);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t group(pmix_group_operation_t op, char grp[], const pmix_proc_t procs[],
                           size_t nprocs, const pmix_info_t directives[], size_t ndirs,
                           pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    static size_t next_id = 1000;
    pmix_info_t results[2];
    const pmix_info_t *given = NULL;
    bool wanted = false;

    for (size_t i = 0; i < ndirs; i++) {
        if (PMIX_CHECK_KEY(&directives[i], PMIX_GROUP_ASSIGN_CONTEXT_ID)) {
            wanted = PMIX_INFO_TRUE(&directives[i]);
        } else if (PMIX_CHECK_KEY(&directives[i], PMIX_GROUP_ENDPT_DATA)) {
            given = &directives[i];
        }
    }
    if (PMIX_GROUP_CONSTRUCT != op || !wanted) {
        return PMIX_OPERATION_SUCCEEDED;
    }
    /* As a host across nodes would: the endpoint data of every server
     * (here, the one) goes back with the context id. */
    size_t id = next_id++, n = 0;
    PMIX_INFO_LOAD(&results[n++], PMIX_GROUP_CONTEXT_ID, &id, PMIX_SIZE);
    if (NULL != given) {
        PMIX_INFO_XFER(&results[n++], given);
    }
    cbfunc(PMIX_SUCCESS, results, n, cbdata, NULL, NULL);
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&results[i]);
    }
    return PMIX_SUCCESS;
}

static void tool_connected(pmix_info_t *info, size_t ninfo, pmix_tool_connection_cbfunc_t cbfunc,
                           void *cbdata)
{
    static pmix_rank_t next_rank;
    pmix_proc_t proc;
    bool has_uid = false;

    for (size_t i = 0; i < ninfo; i++) {
        has_uid = has_uid || PMIX_CHECK_KEY(&info[i], PMIX_USERID);
    }
    PMIX_LOAD_PROCID(&proc, "minihost.tools", next_rank++);
    cbfunc(has_uid ? PMIX_SUCCESS : PMIX_ERR_BAD_PARAM, &proc, cbdata);
}

static pmix_status_t query(pmix_proc_t *proct, pmix_query_t *queries, size_t nqueries,
                           pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    for (size_t q = 0; q < nqueries; q++) {
        for (size_t k = 0; NULL != queries[q].keys[k]; k++) {
            if (0 == strcmp(queries[q].keys[k], PMIX_QUERY_NAMESPACES)) {
                answer_string(cbfunc, cbdata, PMIX_QUERY_NAMESPACES, nspace);
                return PMIX_SUCCESS;
            }
        }
    }
    return PMIX_ERR_NOT_FOUND;
}

/* Job control directives "minihost.pset.define" and "minihost.pset.delete"
 * (a set name) define a process set of the requestor, or delete one: the
 * tests' way to make the host change its sets while clients watch. */
static pmix_status_t job_control(const pmix_proc_t *requestor, const pmix_proc_t targets[],
                                 size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                                 pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pmix_status_t rc = PMIX_ERR_NOT_SUPPORTED;
    for (size_t i = 0; i < ndirs; i++) {
        if (PMIX_STRING != directives[i].value.type) {
            continue;
        }
        if (PMIX_CHECK_KEY(&directives[i], "minihost.pset.define")) {
            rc = PMIx_server_define_process_set(requestor, 1, directives[i].value.data.string);
        } else if (PMIX_CHECK_KEY(&directives[i], "minihost.pset.delete")) {
            rc = PMIx_server_delete_process_set(directives[i].value.data.string);
        }
    }
    return rc;
}

/* ---- The host's own calls ------------------------------------------------ */

/* The calls a server process makes for itself: a credential of its own
 * (the host's kind, or native), validated; device distances. Any mismatch
 * fails the run. */
static void self_check(bool bare)
{
    pmix_byte_object_t cred, forged = {.bytes = "forged", .size = 6};
    pmix_info_t *results;
    size_t nresults;
    pmix_device_distance_t *dist;
    size_t ndist;
    pmix_status_t rc;

    if (PMIX_SUCCESS != (rc = PMIx_Get_credential(NULL, 0, &cred)) ||
        PMIX_SUCCESS != (rc = PMIx_Validate_credential(&cred, NULL, 0, &results, &nresults))) {
        fprintf(stderr, "minihost: own credential: %s\n", PMIx_Error_string(rc));
        exit(1);
    }
    bool native = false;
    for (size_t i = 0; i < nresults; i++) {
        native = native || (PMIX_CHECK_KEY(&results[i], PMIX_CRED_TYPE) &&
                            0 == strcmp(results[i].value.data.string, "native"));
    }
    PMIX_INFO_FREE(results, nresults);
    PMIX_BYTE_OBJECT_DESTRUCT(&cred);
    if (native != bare ||
        PMIX_ERR_INVALID_CRED != PMIx_Validate_credential(&forged, NULL, 0, NULL, NULL)) {
        fprintf(stderr, "minihost: credential kind or forgery not as expected\n");
        exit(1);
    }
    if (PMIX_SUCCESS != (rc = PMIx_Compute_distances(NULL, NULL, NULL, 0, &dist, &ndist)) ||
        0 != ndist) {
        fprintf(stderr, "minihost: distances: %s\n", PMIx_Error_string(rc));
        exit(1);
    }
}

static volatile int handler_registered = -1;   /* its id once the callback ran */

static void registered(pmix_status_t status, size_t id, void *cbdata)
{
    handler_registered = PMIX_SUCCESS == status ? (int)id : -2;
}

static void no_event(size_t id, pmix_status_t status, const pmix_proc_t *source,
                     pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
    }
}

static void host_fail(const char *what, pmix_status_t rc)
{
    fprintf(stderr, "minihost: %s: %s\n", what, PMIx_Error_string(rc));
    exit(1);
}

/* Wait (boundedly) until a callback has set *flag >= 0. */
static void wait_for(volatile int *flag, const char *what)
{
    for (int i = 0; i < 5000 && *flag < 0; i++) {
        usleep(1000);
    }
    if (*flag < 0) {
        host_fail(what, -2 == *flag ? PMIX_ERROR : PMIX_ERR_TIMEOUT);
    }
}

static volatile int app_set_up = -1, local_support_set_up = -1;

static void application_ready(pmix_status_t status, pmix_info_t info[], size_t ninfo,
                              void *provided_cbdata, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    app_set_up = PMIX_SUCCESS == status ? 1 : -2;
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, cbdata);
    }
}

static void local_support_ready(pmix_status_t status, void *cbdata)
{
    local_support_set_up = PMIX_SUCCESS == status ? 1 : -2;
}

/* What a host such as Open MPI's mpirun does beside serving: register an
 * event handler and wait for its callback, keep data of its own with
 * PMIx_Store_internal and read it back with PMIx_Get, and have the
 * application and the node's support set up (it waits for both). */
static void host_local_calls(void)
{
    pmix_proc_t self;
    pmix_value_t val, *got = NULL;
    pmix_status_t rc;

    rc = PMIx_Register_event_handler(NULL, 0, NULL, 0, no_event, registered, NULL);
    if (PMIX_SUCCESS != rc) {
        host_fail("register a handler", rc);
    }
    wait_for(&handler_registered, "handler registration callback");
    PMIX_LOAD_PROCID(&self, "minihost.self", 0);
    PMIX_VALUE_LOAD(&val, "contact", PMIX_STRING);
    if (PMIX_SUCCESS != (rc = PMIx_Store_internal(&self, "minihost.uri", &val))) {
        host_fail("store internal", rc);
    }
    PMIX_VALUE_DESTRUCT(&val);
    rc = PMIx_Get(&self, "minihost.uri", NULL, 0, &got);
    if (PMIX_SUCCESS != rc || PMIX_STRING != got->type || 0 != strcmp(got->data.string, "contact")) {
        host_fail("read back what was stored", PMIX_SUCCESS == rc ? PMIX_ERR_BAD_PARAM : rc);
    }
    PMIX_VALUE_RELEASE(got);
    if (PMIX_ERR_NOT_FOUND != (rc = PMIx_Get(&self, "minihost.none", NULL, 0, &got))) {
        host_fail("get of a key never stored", rc);
    }
    if (PMIX_SUCCESS != (rc = PMIx_Deregister_event_handler((size_t)handler_registered, NULL,
                                                            NULL))) {
        host_fail("deregister the handler", rc);
    }
    if (PMIX_SUCCESS != (rc = PMIx_server_setup_application(nspace, NULL, 0, application_ready,
                                                            NULL))) {
        host_fail("set up the application", rc);
    }
    wait_for(&app_set_up, "application set-up callback");
    if (PMIX_SUCCESS != (rc = PMIx_server_setup_local_support(nspace, NULL, 0,
                                                              local_support_ready, NULL))) {
        host_fail("set up local support", rc);
    }
    wait_for(&local_support_set_up, "local support callback");
}

/* ---- The job ------------------------------------------------------------- */

static void add_node(pmix_info_t *into, uint32_t id, const char *host, uint32_t size)
{
    pmix_info_t node[3];
    PMIx_Info_load(&node[0], PMIX_NODEID, &id, PMIX_UINT32);
    PMIx_Info_load(&node[1], PMIX_HOSTNAME, host, PMIX_STRING);
    PMIx_Info_load(&node[2], PMIX_NODE_SIZE, &size, PMIX_UINT32);
    pmix_data_array_t da = {.type = PMIX_INFO, .size = 3, .array = node};
    PMIx_Info_load(into, PMIX_NODE_INFO_ARRAY, &da, PMIX_DATA_ARRAY);
    for (int i = 0; i < 3; i++) {
        PMIX_INFO_DESTRUCT(&node[i]);
    }
}

static pmix_status_t register_job(uint32_t n, const char *host, bool slurm)
{
    char peers[4096] = "";
    for (uint32_t r = 0; r < n; r++) {
        snprintf(peers + strlen(peers), sizeof(peers) - strlen(peers), r ? ",%u" : "%u", r);
    }
    size_t ninfo = 9 + n + (slurm ? 2 : 0), k = 0;
    pmix_info_t *info;
    PMIX_INFO_CREATE(info, ninfo);
    uint32_t zero = 0;
    /* Keys no standard defines, as real hosts (Open MPI's mpirun) add
     * them: clients must read them back (client_basic). */
    PMIx_Info_load(&info[k++], "vendor.job.flavor", "plain", PMIX_STRING);
    PMIx_Info_load(&info[k++], PMIX_JOB_SIZE, &n, PMIX_UINT32);
    PMIx_Info_load(&info[k++], PMIX_LOCAL_SIZE, &n, PMIX_UINT32);
    PMIx_Info_load(&info[k++], PMIX_UNIV_SIZE, &n, PMIX_UINT32);
    PMIx_Info_load(&info[k++], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    PMIx_Info_load(&info[k++], PMIX_APPNUM, &zero, PMIX_UINT32);
    PMIx_Info_load(&info[k++], PMIX_HOSTNAME, host, PMIX_STRING);
    if (slurm) {
        slurmlike_maps(host, n, &info[k]);
        k += 2;
    }
    /* This node, and another one without ranks, each with a node size the
     * job level lacks: a PMIx_Get names them by PMIX_HOSTNAME or
     * PMIX_NODEID (client_get). */
    add_node(&info[k++], 0, host, n);
    add_node(&info[k++], 1, MINIHOST_OTHER_NODE, MINIHOST_OTHER_NODE_SIZE);
    for (uint32_t r = 0; r < n; r++) {
        pmix_info_t *pd;
        PMIX_INFO_CREATE(pd, 4);
        uint16_t lr = (uint16_t)r;
        uint64_t weight = 10 * (uint64_t)r;
        PMIx_Info_load(&pd[0], PMIX_RANK, &r, PMIX_PROC_RANK);
        PMIx_Info_load(&pd[1], PMIX_LOCAL_RANK, &lr, PMIX_UINT16);
        PMIx_Info_load(&pd[2], PMIX_HOSTNAME, host, PMIX_STRING);
        PMIx_Info_load(&pd[3], "vendor.proc.weight", &weight, PMIX_UINT64);
        pmix_data_array_t da = {.type = PMIX_INFO, .size = 4, .array = pd};
        PMIx_Info_load(&info[k++], PMIX_PROC_DATA, &da, PMIX_DATA_ARRAY);
        PMIX_INFO_FREE(pd, 4);
    }
    pmix_status_t rc = PMIx_server_register_nspace(nspace, (int)n, info, ninfo, NULL, NULL);
    PMIX_INFO_FREE(info, ninfo);
    return PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc;
}

/* The host reads back what it registered (PMIx_Get in a server). */
static void host_reads_job(uint32_t n)
{
    pmix_proc_t wild, last;
    pmix_value_t *v = NULL;
    pmix_status_t rc;

    PMIX_LOAD_PROCID(&wild, nspace, PMIX_RANK_WILDCARD);
    PMIX_LOAD_PROCID(&last, nspace, n - 1);
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
    if (PMIX_SUCCESS != rc || PMIX_UINT32 != v->type || n != v->data.uint32) {
        host_fail("read back the job size", PMIX_SUCCESS == rc ? PMIX_ERR_BAD_PARAM : rc);
    }
    PMIX_VALUE_RELEASE(v);
    rc = PMIx_Get(&last, PMIX_LOCAL_RANK, NULL, 0, &v);
    if (PMIX_SUCCESS != rc || PMIX_UINT16 != v->type || n - 1 != v->data.uint16) {
        host_fail("read back a local rank", PMIX_SUCCESS == rc ? PMIX_ERR_BAD_PARAM : rc);
    }
    PMIX_VALUE_RELEASE(v);
    if (PMIX_ERR_NOT_FOUND != (rc = PMIx_Get(&last, "minihost.none", NULL, 0, &v))) {
        host_fail("get of a key never registered", rc);
    }
}

typedef struct rank_io {
    pid_t pid;
    int out[2];                  /* stdout and stderr pipes, read ends; -1: closed */
} rank_io_t;

static bool with_pmi;

static pid_t spawn(char **argv, char **env, int in, int out, int err, int pmi_fd)
{
    pid_t pid = fork();
    if (0 == pid) {
        signal(SIGTERM, SIG_DFL);
        if (pmi_fd >= 0) {
            fcntl(pmi_fd, F_SETFD, 0); /* PMI_FD, kept across exec */
        }
        if (in >= 0) {
            dup2(in, STDIN_FILENO);
        }
        if (out >= 0) {
            dup2(out, STDOUT_FILENO);
            dup2(err, STDERR_FILENO);
        }
        execve(argv[0], argv, env);
        _exit(127);
    }
    return pid;
}

static char **copy_environ(void)
{
    char **env = NULL;
    pmix_status_t rc;
    for (char **e = environ; *e; e++) {
        PMIX_ARGV_APPEND(rc, env, *e);
    }
    (void)rc;
    return env;
}

/* PMIx_server_setup_fork replaces what the environment had of its
 * variables, in place, keeps the rest, and sets each name once. */
static void check_setup_fork(void)
{
    char *given[] = {"A=1", "PMIX_RANK=99", "PMIX_SERVER_URI=old", "PMIX_OTHER=kept", NULL};
    char **env = NULL;
    pmix_status_t rc;
    for (char **e = given; NULL != *e; e++) {
        PMIX_ARGV_APPEND(rc, env, *e);
    }
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, nspace, 3);
    rc = PMIx_server_setup_fork(&proc, &env);
    size_t n = 0, ranks = 0, uris = 0;
    for (; NULL != env && NULL != env[n]; n++) {
        ranks += 0 == strncmp(env[n], "PMIX_RANK=", 10);
        uris += 0 == strncmp(env[n], "PMIX_SERVER_URI=", 16);
    }
    if (PMIX_SUCCESS != rc || 14 != n || 0 != strcmp(env[0], "A=1") ||
        0 != strcmp(env[1], "PMIX_RANK=3") || 0 == strcmp(env[2], "PMIX_SERVER_URI=old") ||
        0 != strcmp(env[3], "PMIX_OTHER=kept") || 1 != ranks || 1 != uris) {
        fprintf(stderr, "minihost: PMIx_server_setup_fork made a wrong environment (%zu)\n", n);
        PMIx_server_finalize();
        exit(1);
    }
    PMIX_ARGV_FREE(env);
}

/* Descriptors this process has open. */
static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    while (NULL != d && NULL != readdir(d)) {
        n++;
    }
    if (NULL != d) {
        closedir(d);
    }
    return n;
}

/* The answer to a PMI batch made without waiting. */
typedef struct pmi_answer {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    pmix_status_t status;
} pmi_answer_t;

static void pmi_answered(pmix_status_t status, void *cbdata)
{
    pmi_answer_t *a = cbdata;
    pthread_mutex_lock(&a->lock);
    a->status = status;
    a->done = true;
    pthread_cond_signal(&a->cond);
    pthread_mutex_unlock(&a->lock);
}

/* A batch of PMI connections naming procs[0], a process the server does
 * not know, waited for or not. */
static pmix_status_t pmi_batch(const pmix_proc_t *procs, char ***envs, int *fds, bool nb)
{
    if (!nb) {
        return drover_server_setup_pmi_procs(procs, 2, envs, fds);
    }
    pmi_answer_t a = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};
    pmix_status_t rc = drover_server_setup_pmi_procs_nb(procs, 2, envs, fds, pmi_answered, &a);
    pthread_mutex_lock(&a.lock);
    while (PMIX_SUCCESS == rc && !a.done) {
        pthread_cond_wait(&a.cond, &a.lock);
    }
    pthread_mutex_unlock(&a.lock);
    return PMIX_SUCCESS == rc ? a.status : rc;
}

/* A batch of PMI connections naming a process the server does not know
 * fails whole, with nothing left open, whether waited for or called back
 * (which needs a callback). */
static void check_pmi_refusal(void)
{
    pmix_proc_t procs[2];
    PMIX_LOAD_PROCID(&procs[0], "minihost.unknown", 0);
    PMIX_LOAD_PROCID(&procs[1], nspace, 0);
    for (int nb = 0; nb < 2; nb++) {
        char **envs[2] = {copy_environ(), copy_environ()};
        int fds[2] = {-2, -2}, before = count_fds();
        pmix_status_t rc = pmi_batch(procs, envs, fds, nb);
        if (PMIX_ERR_NOT_FOUND != rc || -1 != fds[0] || -1 != fds[1] || count_fds() != before) {
            fprintf(stderr, "minihost: a PMI batch%s with an unknown process: %s, fds %d %d\n",
                    nb ? " called back" : "", PMIx_Error_string(rc), fds[0], fds[1]);
            PMIx_server_finalize(); /* its directory goes */
            exit(1);
        }
        PMIX_ARGV_FREE(envs[0]);
        PMIX_ARGV_FREE(envs[1]);
    }
    int fds[2];
    char **envs[2] = {NULL, NULL};
    if (PMIX_ERR_BAD_PARAM != drover_server_setup_pmi_procs_nb(procs, 2, envs, fds, NULL, NULL)) {
        fprintf(stderr, "minihost: a PMI batch without its callback was taken\n");
        PMIx_server_finalize();
        exit(1);
    }
}

/* Launch rank r with pipes for its stdin, stdout and stderr. */
static void launch(uint32_t r, char **argv, rank_io_t *io)
{
    pmix_proc_t proc;
    int in[2], out[2], err[2];
    char **env = copy_environ();

    int pmi_fd = -1;
    PMIX_LOAD_PROCID(&proc, nspace, r);
    PMIx_server_setup_fork(&proc, &env);
    if (with_pmi && PMIX_SUCCESS != drover_server_setup_pmi(&proc, &env, &pmi_fd)) {
        fprintf(stderr, "minihost: drover_server_setup_pmi failed\n");
        exit(1);
    }
    if (0 != pipe2(in, O_CLOEXEC) || 0 != pipe2(out, O_CLOEXEC) || 0 != pipe2(err, O_CLOEXEC)) {
        perror("minihost: pipe");
        exit(1);
    }
    io->pid = spawn(argv, env, in[0], out[1], err[1], pmi_fd);
    if (pmi_fd >= 0) {
        close(pmi_fd);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    stdin_fds[r] = in[1];
    io->out[0] = out[0];
    io->out[1] = err[0];
    PMIX_ARGV_FREE(env);
}

/* A tool: the environment without a client's identity, plus the URI. */
static pid_t launch_tool(char *tool)
{
    pmix_proc_t proc;
    char **env = copy_environ(), *argv[] = {tool, NULL};
    PMIX_LOAD_PROCID(&proc, nspace, 0);
    PMIx_server_setup_fork(&proc, &env);
    size_t k = 0;
    for (size_t i = 0; NULL != env[i]; i++) {
        if (0 == strncmp(env[i], "PMIX_NAMESPACE=", 15) || 0 == strncmp(env[i], "PMIX_RANK=", 10)) {
            free(env[i]);
        } else {
            env[k++] = env[i];
        }
    }
    env[k] = NULL;
    /* Its stdin holds one line, for it to forward (PMIX_IOF_PUSH_STDIN). */
    int in[2];
    if (0 != pipe2(in, O_CLOEXEC) || 11 != write(in[1], "tool input\n", 11)) {
        perror("minihost: tool stdin");
        exit(1);
    }
    close(in[1]);
    pid_t pid = spawn(argv, env, in[0], -1, -1, -1);
    close(in[0]);
    PMIX_ARGV_FREE(env);
    return pid;
}

/* Echo and deliver what rank r wrote on fd (channel); false at its end. */
static bool forward(uint32_t r, int fd, pmix_iof_channel_t channel)
{
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && EINTR == errno) {
        return true;
    }
    if (n <= 0) {
        return false;
    }
    if (write(PMIX_FWD_STDOUT_CHANNEL == channel ? STDOUT_FILENO : STDERR_FILENO, buf,
              (size_t)n) < 0) {
        perror("minihost: echo");
    }
    pmix_proc_t proc;
    pmix_byte_object_t bo = {.bytes = buf, .size = (size_t)n};
    PMIX_LOAD_PROCID(&proc, nspace, r);
    PMIx_server_IOF_deliver(&proc, channel, &bo, NULL, 0, NULL, NULL);
    return true;
}

/* Forward output and reap ranks until all have exited and said all. */
static int run(rank_io_t *io, uint32_t n, bool slurm)
{
    int result = 0;
    uint32_t running = n;
    struct pollfd *fds = calloc(2 * n, sizeof(*fds));

    while (running > 0) {
        for (uint32_t r = 0; r < n; r++) {
            for (int c = 0; c < 2; c++) {
                fds[2 * r + c] = (struct pollfd){.fd = io[r].out[c], .events = POLLIN};
            }
        }
        if (poll(fds, 2 * n, 100) > 0) {
            for (uint32_t i = 0; i < 2 * n; i++) {
                if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP)) &&
                    !forward(i / 2, fds[i].fd,
                             i % 2 ? PMIX_FWD_STDERR_CHANNEL : PMIX_FWD_STDOUT_CHANNEL)) {
                    close(fds[i].fd);
                    io[i / 2].out[i % 2] = -1;
                }
            }
        }
        int status;
        for (uint32_t r = 0; r < n; r++) {
            if (0 == io[r].pid || io[r].pid != waitpid(io[r].pid, &status, WNOHANG)) {
                continue;
            }
            /* Its output first: what it wrote before exiting. */
            for (int c = 0; c < 2; c++) {
                pmix_iof_channel_t channel = c ? PMIX_FWD_STDERR_CHANNEL : PMIX_FWD_STDOUT_CHANNEL;
                while (io[r].out[c] >= 0 && forward(r, io[r].out[c], channel)) {
                }
                if (io[r].out[c] >= 0) {
                    close(io[r].out[c]);
                    io[r].out[c] = -1;
                }
            }
            pmix_proc_t proc;
            PMIX_LOAD_PROCID(&proc, nspace, r);
            if (!slurm) {
                /* Slurm leaves them to the step's end: a rank lost
                 * without finalizing must still be reported. */
                PMIx_server_deregister_client(&proc, NULL, NULL);
            }
            io[r].pid = 0;
            running--;
            int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            if (0 == result && 0 != code) {
                /* A failed rank fails the test: the others may be waiting
                 * for it, so end them. */
                result = code;
                for (uint32_t o = 0; o < n; o++) {
                    if (0 != io[o].pid) {
                        kill(io[o].pid, SIGTERM);
                    }
                }
            }
        }
    }
    free(fds);
    return result;
}

int main(int argc, char **argv)
{
    bool bare = false, slurm = false;
    char *tool = NULL;
    int opt;

    while ((opt = getopt(argc, argv, "+bpst:")) != -1) {
        if ('b' == opt) {
            bare = true;
            setenv("MINIHOST_BARE", "1", 1); /* for the tests to know */
        } else if ('s' == opt) {
            slurm = true;
        } else if ('p' == opt) {
            with_pmi = true;
        } else if ('t' == opt) {
            tool = optarg;
        } else {
            return 2;
        }
    }
    if (argc - optind < 2) {
        fprintf(stderr, "usage: minihost [-b | -s] [-p] [-t tool] N program [args...]\n");
        return 2;
    }
    nranks = (uint32_t)atoi(argv[optind]);
    pmix_server_module_t module = {.fence_nb = fence_nb, .abort = do_abort,
                                   .connect = connect_fn, .disconnect = connect_fn};
    if (slurm) {
        slurmlike_module(&module);
    } else if (!bare) {
        module.allocate = allocate;
        module.monitor = monitor;
        module.fabric = fabric;
        module.get_credential = get_credential;
        module.validate_credential = validate_credential;
        module.iof_pull = iof_pull;
        module.push_stdin = push_stdin;
        module.group = group;
        module.tool_connected = tool_connected;
        module.query = query;
        module.job_control = job_control;
    }
    pmix_status_t rc = PMIx_server_init(&module, NULL, 0);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "minihost: server init failed: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    signal(SIGTERM, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    self_check(bare || slurm);
    host_local_calls();
    if (slurm) {
        slurmlike_start();
    }
    char host[256];
    gethostname(host, sizeof(host));
    if (PMIX_SUCCESS != (rc = register_job(nranks, host, slurm))) {
        fprintf(stderr, "minihost: register_nspace: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    host_reads_job(nranks);
    pmix_proc_t *all = calloc(nranks, sizeof(*all));
    for (uint32_t r = 0; r < nranks; r++) {
        PMIX_LOAD_PROCID(&all[r], nspace, r);
        PMIx_server_register_client(&all[r], getuid(), getgid(), NULL, NULL, NULL);
    }
    PMIx_server_define_process_set(all, nranks, "minihost.all");
    free(all);
    if (!bare) {
        char *attrs[] = {"PMIX_ALLOC_NUM_NODES", "PMIX_ALLOC_TIME", NULL};
        PMIx_Register_attributes("allocate", attrs);
    }
    rank_io_t *io = calloc(nranks, sizeof(*io));
    stdin_fds = calloc(nranks, sizeof(*stdin_fds));
    check_setup_fork();
    if (with_pmi) {
        check_pmi_refusal();
    }
    for (uint32_t r = 0; r < nranks; r++) {
        launch(r, argv + optind + 1, &io[r]);
    }
    char me[32];
    snprintf(me, sizeof(me), "%ld", (long)getpid());
    setenv("MINIHOST_PID", me, 1); /* a tool finds the server by its pid */
    pid_t tool_pid = NULL == tool ? 0 : launch_tool(tool);
    int result = run(io, nranks, slurm);
    if (slurm && 0 == result) {
        result = slurmlike_verdict(nranks);
    }
    pthread_mutex_lock(&stdin_lock);
    for (uint32_t r = 0; r < nranks; r++) {
        if (stdin_fds[r] >= 0) {
            close(stdin_fds[r]);
            stdin_fds[r] = -1;
        }
    }
    pthread_mutex_unlock(&stdin_lock);
    for (size_t i = 0; i < nheld; i++) {
        held[i].cbfunc(PMIX_ERR_TIMEOUT, NULL, 0, held[i].cbdata, NULL, NULL);
    }
    PMIx_server_deregister_nspace(nspace, NULL, NULL);
    PMIx_server_finalize();
    if (0 != tool_pid) {
        int status;
        while (waitpid(tool_pid, &status, 0) < 0 && EINTR == errno) {
        }
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (0 == result && 0 != code) {
            result = code;
        }
    }
    free(io);
    free(stdin_fds);
    return 0 != abort_status ? abort_status : result;
}
