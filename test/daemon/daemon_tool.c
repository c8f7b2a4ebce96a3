/*
 * daemon_tool.c - a PMIx tool built against OpenPMIx's own headers (no
 * drover header), run with drover's libpmix.so.2, talking to the drover
 * daemon as a debugger or a job manager would (daemon_tools.sh):
 *
 *   daemon_tool connect system|first|pid PID|uri URI|file PATH
 *       PMIx_tool_init with PMIX_CONNECT_TO_SYSTEM, _SYSTEM_FIRST,
 *       PMIX_SERVER_PIDINFO, PMIX_SERVER_URI or PMIX_TOOL_ATTACHMENT_FILE;
 *       prints "server NSPACE" (exit 0) or the failure (exit 1).
 *   daemon_tool attach
 *       PMIx_tool_init alone (PMIX_TOOL_DO_NOT_CONNECT), then
 *       PMIx_tool_attach_to_server with PMIX_CONNECT_TO_SYSTEM, a query
 *       through it, and PMIx_tool_disconnect: prints "attached NSPACE".
 *   daemon_tool spawn TEXT
 *       spawns `sh -c 'echo TEXT; exit 3'` with PMIX_FWD_STDOUT (the output
 *       arrives on this tool's stdout) and waits for its PMIX_EVENT_JOB_END:
 *       prints "ended NSPACE term TERM exit CODE".
 *   daemon_tool pull TEXT
 *       the same without forwarding: the output comes by PMIx_IOF_pull.
 *   daemon_tool latepull TEXT
 *       the same, pulled only once the job has ended: the server kept the
 *       output nobody had pulled yet.
 *   daemon_tool control
 *       spawns two ranks of sleep, queries namespaces, job status, the
 *       process table (pids alive), the local one and the process sets,
 *       kills the job with PMIx_Job_control and checks the job-end event
 *       and that the ranks are gone.
 *   daemon_tool debug HELLO init|exec
 *       spawns two ranks of the PMIx program HELLO with
 *       PMIX_DEBUG_STOP_IN_INIT (or _ON_EXEC): both announce
 *       PMIX_READY_FOR_DEBUG to this tool and wait in PMIx_Init (running,
 *       pids in the process table, no output; at exec: stopped) until the
 *       tool sends PMIX_DEBUGGER_RELEASE to the job; then they run to the
 *       end.
 *   daemon_tool mpmd CLIENT
 *       spawns one job of two apps (one PMIx_Spawn, napps 2): one rank of
 *       `CLIENT app first X` with X=zero, two of `env CLIENT app second X`
 *       with X=one (PMIX_MAPBY ":OVERSUBSCRIBE"), and checks from the
 *       process table and the pulled output each rank's program, appnum,
 *       app size and environment.
 *   daemon_tool stoprank CLIENT
 *       spawns two ranks of `CLIENT app r` with PMIX_DEBUG_STOP_IN_INIT
 *       naming rank 1 (a pmix_rank_t): only rank 1 announces
 *       PMIX_READY_FOR_DEBUG and waits; rank 0 runs to its end; the job's
 *       run answers a query meanwhile; the release of the job lets rank 1
 *       run and the job end with 0.
 *   daemon_tool pause
 *       spawns two ranks of `sleep 2`, pauses the job (PMIX_JOB_CTRL_PAUSE):
 *       both ranks stopped (state T), then resumes it: running again, the
 *       job ends with 0.
 *   daemon_tool queries
 *       marks a running job preemptible (PMIx_Job_control, carried out by
 *       its run), queries it for keys the daemon answers, keys its run
 *       answers (PMIX_JOB_SIZE, PMIX_JOB_CTRL_PREEMPTIBLE) and an unknown
 *       one (PMIX_ERR_PARTIAL_SUCCESS), every key issue 13 lists
 *       (PMIX_SUCCESS), and unknown keys alone (PMIX_ERR_NOT_FOUND).
 *   daemon_tool groups CLIENT DIR
 *       spawns two ranks of `CLIENT groups DIR`, which construct the
 *       groups "stay" and "go": the daemon shows each as a process set and
 *       a group named "<job's namespace>/<name>" with ranks 0 and 1 (names,
 *       counts, membership) and raises PMIX_PROCESS_SET_DEFINE; once the
 *       ranks destruct go (told by the file DIR/destruct), go is gone
 *       (PMIX_PROCESS_SET_DELETE), stay stays; once the job is killed
 *       (its run first, which tells the daemon nothing), stay is gone
 *       too.
 *   daemon_tool iof DIR RANK|all out|both NPROCS CMD [ARGS...]
 *       spawns NPROCS ranks of CMD and pulls the stdout (out) or stdout
 *       and stderr (both) of RANK, or of every rank (all), of its
 *       namespace; once pulled it creates DIR/go (the ranks may wait for
 *       it). Each piece is appended to DIR/<source rank>.out or .err, by
 *       the source and channel it came with (a piece of another namespace
 *       goes to DIR/foreign), until the job has ended and its output
 *       stopped coming. (These two spawn with PMIX_MAPBY ":OVERSUBSCRIBE",
 *       for more ranks than the node has cores.)
 *   daemon_tool fwd NPROCS CMD [ARGS...]
 *       spawns NPROCS ranks of CMD with PMIX_FWD_STDOUT alone: their
 *       stdout comes on this tool's stdout, their stderr nowhere.
 * Every check prints one line "ok - ..." or "not ok - ..."; the exit
 * status is 1 if any failed.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmix_tool.h>

static int failures;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static bool ended;
static pmix_status_t term = -1;
static int exit_code = -1;
static char ended_ns[PMIX_MAX_NSLEN + 1];
static char pulled[4096];

static void check(bool ok, const char *what)
{
    printf("%s - %s\n", ok ? "ok" : "not ok", what);
    fflush(stdout);
    failures += !ok;
}

static void on_job_end(size_t id, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC)) {
            PMIX_LOAD_NSPACE(ended_ns, info[i].value.data.proc->nspace);
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_JOB_TERM_STATUS)) {
            term = info[i].value.data.status;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_EXIT_CODE)) {
            exit_code = info[i].value.data.integer;
        }
    }
    ended = true;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

static void registered(pmix_status_t status, size_t id, void *cbdata)
{
    *(pmix_status_t *)cbdata = status;
}

/* Register handler for code (named so in the check's line). */
static void watch(pmix_status_t code, pmix_notification_fn_t handler, const char *name)
{
    pmix_status_t rc = -1;
    char what[96];
    PMIx_Register_event_handler(&code, 1, NULL, 0, handler, registered, &rc);
    for (int i = 0; i < 500 && -1 == rc; i++) {
        usleep(10000);
    }
    snprintf(what, sizeof(what), "a handler for %s is registered", name);
    check(PMIX_SUCCESS == rc, what);
}

static void watch_job_end(void)
{
    watch(PMIX_EVENT_JOB_END, on_job_end, "PMIX_EVENT_JOB_END");
}

/* Wait (20 s at most) for the job-end event of nspace. */
static bool wait_end(const char *nspace)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 20;
    pthread_mutex_lock(&lock);
    while (!ended && 0 == pthread_cond_timedwait(&cond, &lock, &deadline)) {
    }
    bool ok = ended && 0 == strcmp(ended_ns, nspace);
    pthread_mutex_unlock(&lock);
    return ok;
}

static int connect_by(int argc, char **argv)
{
    pmix_info_t info;
    pmix_proc_t me;
    bool yes = true;
    pid_t pid;

    if (0 == strcmp(argv[2], "system")) {
        PMIX_INFO_LOAD(&info, PMIX_CONNECT_TO_SYSTEM, &yes, PMIX_BOOL);
    } else if (0 == strcmp(argv[2], "first")) {
        PMIX_INFO_LOAD(&info, PMIX_CONNECT_SYSTEM_FIRST, &yes, PMIX_BOOL);
    } else if (0 == strcmp(argv[2], "pid") && argc > 3) {
        pid = (pid_t)atoi(argv[3]);
        PMIX_INFO_LOAD(&info, PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    } else if (0 == strcmp(argv[2], "uri") && argc > 3) {
        PMIX_INFO_LOAD(&info, PMIX_SERVER_URI, argv[3], PMIX_STRING);
    } else if (0 == strcmp(argv[2], "file") && argc > 3) {
        PMIX_INFO_LOAD(&info, PMIX_TOOL_ATTACHMENT_FILE, argv[3], PMIX_STRING);
    } else {
        fprintf(stderr, "daemon_tool: unknown way '%s'\n", argv[2]);
        return 2;
    }
    pmix_status_t rc = PMIx_tool_init(&me, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (PMIX_SUCCESS != rc) {
        printf("failed %s\n", PMIx_Error_string(rc));
        return 1;
    }
    pmix_proc_t *servers = NULL;
    size_t n = 0;
    rc = PMIx_tool_get_servers(&servers, &n);
    printf("server %s\n", PMIX_SUCCESS == rc && 1 == n ? servers[0].nspace : "?");
    if (NULL != servers) {
        PMIX_PROC_FREE(servers, n);
    }
    PMIx_tool_finalize();
    return 0;
}

static int attach(void)
{
    pmix_info_t info;
    pmix_proc_t me, server;
    bool yes = true;

    PMIX_INFO_LOAD(&info, PMIX_TOOL_DO_NOT_CONNECT, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_tool_init(&me, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    check(PMIX_SUCCESS == rc, "PMIx_tool_init without a server");
    PMIX_INFO_LOAD(&info, PMIX_CONNECT_TO_SYSTEM, &yes, PMIX_BOOL);
    rc = PMIx_tool_attach_to_server(&me, &server, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    check(PMIX_SUCCESS == rc, "PMIx_tool_attach_to_server with PMIX_CONNECT_TO_SYSTEM");
    if (PMIX_SUCCESS == rc) {
        pmix_query_t q;
        pmix_info_t *res = NULL;
        size_t n = 0;
        char *keys[] = {PMIX_QUERY_NAMESPACES, NULL};
        PMIX_QUERY_CONSTRUCT(&q);
        q.keys = keys;
        check(PMIX_SUCCESS == PMIx_Query_info(&q, 1, &res, &n), "... a query goes to it");
        if (NULL != res) {
            PMIX_INFO_FREE(res, n);
        }
        printf("attached %s\n", server.nspace);
        check(PMIX_SUCCESS == PMIx_tool_disconnect(&server), "PMIx_tool_disconnect from it");
    }
    PMIx_tool_finalize();
    return failures > 0;
}

static pmix_status_t spawn(const char *cmd, int nprocs, char **argv, bool forward,
                           pmix_nspace_t nspace)
{
    pmix_app_t app;
    pmix_info_t fwd;
    bool yes = true;

    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(cmd);
    app.argv = pmix_argv_copy(argv);
    app.maxprocs = nprocs;
    PMIX_INFO_LOAD(&fwd, PMIX_FWD_STDOUT, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Spawn(forward ? &fwd : NULL, forward ? 1 : 0, &app, 1, nspace);
    PMIX_INFO_DESTRUCT(&fwd);
    PMIX_APP_DESTRUCT(&app);
    return rc;
}

static void init_system(void)
{
    pmix_info_t info;
    pmix_proc_t me;
    bool yes = true;
    PMIX_INFO_LOAD(&info, PMIX_CONNECT_TO_SYSTEM, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_tool_init(&me, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (PMIX_SUCCESS != rc) {
        printf("not ok - PMIx_tool_init: %s\n", PMIx_Error_string(rc));
        exit(1);
    }
}

static void received(size_t id, pmix_iof_channel_t channel, pmix_proc_t *source,
                     pmix_byte_object_t *payload, pmix_info_t info[], size_t ninfo)
{
    pthread_mutex_lock(&lock);
    size_t len = strlen(pulled);
    if (len + payload->size < sizeof(pulled)) {
        memcpy(pulled + len, payload->bytes, payload->size);
        pulled[len + payload->size] = '\0';
    }
    pthread_mutex_unlock(&lock);
}

/* How run_job gets the job's output. */
typedef enum {
    FORWARDED,
    PULLED,
    PULLED_LATE
} output_way_t;

/* Pull the job's stdout into pulled. Whether the pull was taken. */
static bool pull(const char *nspace)
{
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, nspace, PMIX_RANK_WILDCARD);
    pmix_status_t rc =
        PMIx_IOF_pull(&job, 1, NULL, 0, PMIX_FWD_STDOUT_CHANNEL, received, NULL, NULL);
    check(rc >= 0, "PMIx_IOF_pull of its stdout");
    return rc >= 0;
}

/* spawn/pull/latepull: a job that writes TEXT and exits 3. */
static int run_job(const char *text, output_way_t way)
{
    char script[512];
    pmix_nspace_t nspace;
    snprintf(script, sizeof(script), "%secho %s; exit 3", PULLED == way ? "sleep 1; " : "", text);
    char *argv[] = {"sh", "-c", script, NULL};

    init_system();
    watch_job_end();
    pmix_status_t rc = spawn("sh", 1, argv, FORWARDED == way, nspace);
    check(PMIX_SUCCESS == rc, "PMIx_Spawn through the daemon");
    if (PMIX_SUCCESS == rc && PULLED == way && !pull(nspace)) {
        rc = PMIX_ERROR;
    }
    check(PMIX_SUCCESS == rc && wait_end(nspace), "its PMIX_EVENT_JOB_END arrives");
    /* The job wrote before anyone pulled: the server kept it. */
    if (PMIX_SUCCESS == rc && PULLED_LATE == way && pull(nspace)) {
        for (int tries = 0; tries < 100 && '\0' == pulled[0]; tries++) {
            usleep(50000);
        }
    }
    pthread_mutex_lock(&lock);
    printf("ended %s term %s exit %d\n", ended_ns,
           PMIX_ERR_JOB_NON_ZERO_TERM == term ? "non-zero" : PMIx_Error_string(term), exit_code);
    if (FORWARDED != way) {
        printf("pulled %s", pulled);
    }
    pthread_mutex_unlock(&lock);
    PMIx_tool_finalize();
    return failures > 0;
}

/* Query the keys (comma-separated), qualified by qual = value when value
 * is not NULL. */
static pmix_status_t query_by(const char *key, const char *qual, const char *value,
                              pmix_info_t **results, size_t *n)
{
    pmix_query_t q;
    PMIX_QUERY_CONSTRUCT(&q);
    q.keys = pmix_argv_split(key, ',');
    if (NULL != value) {
        PMIX_QUERY_QUALIFIERS_CREATE(&q, 1);
        PMIX_INFO_LOAD(&q.qualifiers[0], qual, value, PMIX_STRING);
    }
    pmix_status_t rc = PMIx_Query_info(&q, 1, results, n);
    PMIX_QUERY_DESTRUCT(&q);
    return rc;
}

static pmix_status_t query(const char *key, const char *nspace, pmix_info_t **results, size_t *n)
{
    return query_by(key, PMIX_NSPACE, nspace, results, n);
}

/* The process table (key: PMIX_QUERY_PROC_TABLE or _LOCAL_PROC_TABLE) of
 * nspace once its n ranks are in it, in order, with their hosts: their
 * pids and, when programs is not NULL, their programs. */
static bool table_of(const char *key, const char *nspace, size_t n, pid_t *pids,
                     char (*programs)[256])
{
    for (int tries = 0; tries < 200; tries++) {
        pmix_info_t *res = NULL;
        size_t nres = 0;
        bool got = false;
        if (PMIX_SUCCESS == query(key, nspace, &res, &nres) && 1 == nres &&
            PMIX_DATA_ARRAY == res[0].value.type && n == res[0].value.data.darray->size) {
            const pmix_proc_info_t *t = res[0].value.data.darray->array;
            got = true;
            for (size_t r = 0; r < n; r++) {
                got &= t[r].pid > 0 && r == t[r].proc.rank &&
                       0 == strcmp(t[r].proc.nspace, nspace) && NULL != t[r].hostname;
                pids[r] = t[r].pid;
                if (NULL != programs) {
                    snprintf(programs[r], sizeof(programs[r]), "%s",
                             NULL != t[r].executable_name ? t[r].executable_name : "");
                }
            }
        }
        if (NULL != res) {
            PMIX_INFO_FREE(res, nres);
        }
        if (got) {
            return true;
        }
        usleep(50000);
    }
    return false;
}

/* The process table of nspace once both ranks are in it: their pids. */
static bool proc_table(const char *key, const char *nspace, pid_t pids[2])
{
    return table_of(key, nspace, 2, pids, NULL);
}

/* Whether process pid was started with PMIX_NAMESPACE=nspace. */
static bool in_namespace(pid_t pid, const char *nspace)
{
    char path[64], env[65536], want[PMIX_MAX_NSLEN + 32];
    snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
    snprintf(want, sizeof(want), "PMIX_NAMESPACE=%s", nspace);
    FILE *f = fopen(path, "r");
    size_t n = NULL == f ? 0 : fread(env, 1, sizeof(env) - 1, f);
    if (NULL != f) {
        fclose(f);
    }
    for (size_t at = 0; at < n; at += strlen(env + at) + 1) {
        if (0 == strcmp(env + at, want)) {
            return true;
        }
    }
    return false;
}

static void sent(pmix_status_t status, void *cbdata)
{
    *(pmix_status_t *)cbdata = status;
}

/* The PMIX_READY_FOR_DEBUG events seen: their process and breakpoint. */
static struct {
    pmix_proc_t proc;
    char breakpoint[32];
} readies[8];
static size_t nready;

static void on_ready(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                     size_t ninfo, pmix_info_t *results, size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    pthread_mutex_lock(&lock);
    if (nready < sizeof(readies) / sizeof(readies[0])) {
        readies[nready].proc = *source;
        for (size_t i = 0; i < ninfo; i++) {
            if (PMIX_CHECK_KEY(&info[i], PMIX_BREAKPOINT) && PMIX_STRING == info[i].value.type) {
                snprintf(readies[nready].breakpoint, sizeof(readies[nready].breakpoint), "%s",
                         info[i].value.data.string);
            }
        }
        nready++;
    }
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

/* Wait (20 s at most) for ranks 0 and 1 of nspace to be ready at
 * breakpoint. */
static bool wait_ready(const char *nspace, const char *breakpoint)
{
    struct timespec deadline;
    unsigned seen = 0;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 20;
    pthread_mutex_lock(&lock);
    do {
        seen = 0;
        for (size_t i = 0; i < nready; i++) {
            if (PMIX_CHECK_NSPACE(readies[i].proc.nspace, nspace) && readies[i].proc.rank < 2 &&
                0 == strcmp(readies[i].breakpoint, breakpoint)) {
                seen |= 1u << readies[i].proc.rank;
            }
        }
    } while (3 != seen && 0 == pthread_cond_timedwait(&cond, &lock, &deadline));
    pthread_mutex_unlock(&lock);
    return 3 == seen;
}

/* Whether process pid is stopped (state T). */
static bool stopped(pid_t pid)
{
    char path[64], state = '?';
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (NULL != f) {
        if (1 != fscanf(f, "%*d (%*[^)]) %c", &state)) {
            state = '?';
        }
        fclose(f);
    }
    return 'T' == state;
}

/* where: "init" (PMIX_DEBUG_STOP_IN_INIT) or "exec" (_ON_EXEC). */
static int debug(const char *hello, const char *where)
{
    bool exec = 0 == strcmp(where, "exec");
    const char *key = exec ? PMIX_DEBUG_STOP_ON_EXEC : PMIX_DEBUG_STOP_IN_INIT;
    const char *breakpoint = exec ? "exec" : "pmix-init";
    pmix_status_t rc;
    pmix_nspace_t nspace;
    pmix_app_t app;
    pmix_info_t stop;
    pid_t pids[2] = {0, 0};
    bool yes = true;
    char what[128];

    init_system();
    watch_job_end();
    watch(PMIX_READY_FOR_DEBUG, on_ready, "PMIX_READY_FOR_DEBUG");
    pmix_info_t *res = NULL;
    size_t n = 0;
    rc = query(PMIX_QUERY_DEBUG_SUPPORT, NULL, &res, &n);
    snprintf(what, sizeof(what), "PMIX_QUERY_DEBUG_SUPPORT names %s", key);
    check(PMIX_SUCCESS == rc && 1 == n && PMIX_STRING == res[0].value.type &&
              NULL != strstr(res[0].value.data.string, key),
          what);
    if (NULL != res) {
        PMIX_INFO_FREE(res, n);
    }
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(hello);
    app.maxprocs = 2;
    PMIX_INFO_LOAD(&stop, key, &yes, PMIX_BOOL);
    rc = PMIx_Spawn(&stop, 1, &app, 1, nspace);
    PMIX_INFO_DESTRUCT(&stop);
    PMIX_APP_DESTRUCT(&app);
    snprintf(what, sizeof(what), "PMIx_Spawn of two ranks with %s", key);
    check(PMIX_SUCCESS == rc, what);
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_IOF_pull(&job, 1, NULL, 0, PMIX_FWD_STDOUT_CHANNEL, received, NULL, NULL);
    check(rc >= 0, "PMIx_IOF_pull of its stdout");
    snprintf(what, sizeof(what), "both ranks announce PMIX_READY_FOR_DEBUG at \"%s\" to the tool",
             breakpoint);
    check(wait_ready(nspace, breakpoint), what);
    check(proc_table(PMIX_QUERY_PROC_TABLE, nspace, pids), "its ranks are in the process table");
    usleep(300000);
    pthread_mutex_lock(&lock);
    check(!ended && '\0' == pulled[0] && 0 == kill(pids[0], 0) && 0 == kill(pids[1], 0) &&
              (!exec || (stopped(pids[0]) && stopped(pids[1]))),
          exec ? "... stopped (T) at exec, silent" : "... alive and silent: waiting in PMIx_Init");
    pthread_mutex_unlock(&lock);

    pmix_info_t range;
    pmix_data_array_t procs = {.type = PMIX_PROC, .size = 1, .array = &job};
    pmix_status_t done = -1;
    PMIX_INFO_LOAD(&range, PMIX_EVENT_CUSTOM_RANGE, &procs, PMIX_DATA_ARRAY);
    rc = PMIx_Notify_event(PMIX_DEBUGGER_RELEASE, NULL, PMIX_RANGE_CUSTOM, &range, 1, sent, &done);
    PMIX_INFO_DESTRUCT(&range);
    check(PMIX_SUCCESS == rc || PMIX_OPERATION_SUCCEEDED == rc,
          "PMIX_DEBUGGER_RELEASE sent to the job");
    check(wait_end(nspace), "... it runs to its end");
    pthread_mutex_lock(&lock);
    check(0 == exit_code && NULL != strstr(pulled, "rank 0 of 2") &&
              NULL != strstr(pulled, "rank 1 of 2"),
          "... with status 0, both ranks having said hello");
    pthread_mutex_unlock(&lock);
    PMIx_tool_finalize();
    return failures > 0;
}

static int control(void)
{
    pmix_nspace_t nspace;
    char *argv[] = {"sleep", "60", NULL};
    pmix_info_t *res = NULL;
    size_t n = 0;
    pid_t pids[2] = {0, 0};

    init_system();
    watch_job_end();
    pmix_status_t rc = spawn("sleep", 2, argv, false, nspace);
    check(PMIX_SUCCESS == rc, "PMIx_Spawn of two ranks of sleep");
    rc = query(PMIX_QUERY_NAMESPACES, NULL, &res, &n);
    check(PMIX_SUCCESS == rc && 1 == n && PMIX_STRING == res[0].value.type &&
              NULL != strstr(res[0].value.data.string, nspace),
          "PMIX_QUERY_NAMESPACES lists the job");
    PMIX_INFO_FREE(res, n);
    check(proc_table(PMIX_QUERY_PROC_TABLE, nspace, pids) && 0 == kill(pids[0], 0) &&
              0 == kill(pids[1], 0),
          "PMIX_QUERY_PROC_TABLE: both ranks, with the pids of live processes");
    check(proc_table(PMIX_QUERY_LOCAL_PROC_TABLE, nspace, pids), "... the local one too");
    check(in_namespace(pids[0], nspace) && in_namespace(pids[1], nspace),
          "... and the ranks' own namespace is the job's");
    rc = query(PMIX_QUERY_JOB_STATUS, nspace, &res, &n);
    check(PMIX_SUCCESS == rc && 1 == n && PMIX_JOB_STATE == res[0].value.type &&
              PMIX_JOB_STATE_RUNNING == res[0].value.data.state,
          "PMIX_QUERY_JOB_STATUS: running");
    PMIX_INFO_FREE(res, n);
    rc = query(PMIX_QUERY_NUM_PSETS "," PMIX_QUERY_PSET_NAMES, NULL, &res, &n);
    check(PMIX_SUCCESS == rc && 2 == n, "PMIX_QUERY_NUM_PSETS and PMIX_QUERY_PSET_NAMES answer");
    PMIX_INFO_FREE(res, n);
    rc = query(PMIX_QUERY_JOB_STATUS, "no-such-job", &res, &n);
    check(PMIX_SUCCESS != rc, "an unknown namespace gets no job status");
    if (NULL != res) {
        PMIX_INFO_FREE(res, n);
    }

    pmix_proc_t job;
    pmix_info_t kill_it;
    bool yes = true;
    PMIX_LOAD_PROCID(&job, nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&kill_it, PMIX_JOB_CTRL_KILL, &yes, PMIX_BOOL);
    res = NULL;
    n = 0;
    rc = PMIx_Job_control(&job, 1, &kill_it, 1, &res, &n);
    check(PMIX_SUCCESS == rc, "PMIx_Job_control kills the job");
    check(wait_end(nspace), "... its PMIX_EVENT_JOB_END arrives");
    pthread_mutex_lock(&lock);
    check(PMIX_ERR_JOB_ABORTED_BY_SIG == term && 128 + SIGKILL == exit_code,
          "... with PMIX_JOB_TERM_STATUS aborted by signal and PMIX_EXIT_CODE 137");
    pthread_mutex_unlock(&lock);
    bool gone = false;
    for (int i = 0; i < 100 && !gone; i++) {
        gone = 0 != kill(pids[0], 0) && 0 != kill(pids[1], 0);
        usleep(50000);
    }
    check(gone, "... and its ranks are gone");
    rc = query(PMIX_QUERY_JOB_STATUS, nspace, &res, &n);
    check(PMIX_SUCCESS == rc && 1 == n &&
              PMIX_JOB_STATE_TERMINATED_WITH_ERROR == res[0].value.data.state,
          "PMIX_QUERY_JOB_STATUS: terminated with error");
    PMIX_INFO_FREE(res, n);
    rc = PMIx_Job_control(&job, 1, &kill_it, 1, &res, &n);
    check(PMIX_SUCCESS != rc, "an ended job cannot be controlled");
    PMIx_tool_finalize();
    return failures > 0;
}

/* Whether pulled holds line (under the lock). */
static bool said(const char *line)
{
    pthread_mutex_lock(&lock);
    bool yes = NULL != strstr(pulled, line);
    pthread_mutex_unlock(&lock);
    return yes;
}

static int mpmd(const char *client)
{
    pmix_app_t apps[2];
    pmix_info_t map;
    pmix_nspace_t nspace;
    pid_t pids[3];
    char programs[3][256];
    char *first[] = {(char *)client, "app", "first", "X", NULL};
    char *second[] = {"env", (char *)client, "app", "second", "X", NULL};
    char *zero[] = {"X=zero", NULL}, *one[] = {"X=one", NULL};

    init_system();
    watch_job_end();
    PMIX_APP_CONSTRUCT(&apps[0]);
    PMIX_APP_CONSTRUCT(&apps[1]);
    apps[0].cmd = strdup(client);
    apps[0].argv = pmix_argv_copy(first);
    apps[0].env = pmix_argv_copy(zero);
    apps[0].maxprocs = 1;
    apps[1].cmd = strdup("env");
    apps[1].argv = pmix_argv_copy(second);
    apps[1].env = pmix_argv_copy(one);
    apps[1].maxprocs = 2;
    PMIX_INFO_LOAD(&map, PMIX_MAPBY, ":OVERSUBSCRIBE", PMIX_STRING);
    pmix_status_t rc = PMIx_Spawn(&map, 1, apps, 2, nspace);
    PMIX_INFO_DESTRUCT(&map);
    PMIX_APP_DESTRUCT(&apps[0]);
    PMIX_APP_DESTRUCT(&apps[1]);
    check(PMIX_SUCCESS == rc, "PMIx_Spawn of two apps (1 + 2 ranks) through the daemon");
    if (PMIX_SUCCESS != rc) {
        PMIx_tool_finalize();
        return 1;
    }
    pull(nspace);
    bool listed = table_of(PMIX_QUERY_PROC_TABLE, nspace, 3, pids, programs);
    check(listed, "one job of three ranks in the process table");
    check(listed && NULL != strstr(programs[0], "client") && NULL != strstr(programs[1], "env") &&
              NULL != strstr(programs[2], "env"),
          "... rank 0 runs app 0's program, ranks 1 and 2 app 1's (env)");
    check(wait_end(nspace) && 0 == exit_code, "... the job ends with status 0");
    usleep(200000);
    check(said("rank 0 app first appnum 0 size 1 wdir "), "rank 0: PMIX_APPNUM 0, app size 1");
    check(said("rank 1 app second appnum 1 size 2 wdir ") &&
              said("rank 2 app second appnum 1 size 2 wdir "),
          "ranks 1 and 2: PMIX_APPNUM 1, app size 2");
    pthread_mutex_lock(&lock);
    int ones = 0;
    for (const char *at = pulled; NULL != (at = strstr(at, " X=one\n")); at++) {
        ones++;
    }
    check(2 == ones && NULL != strstr(pulled, " X=zero\n"),
          "... each app with its own environment (X=zero once, X=one twice)");
    pthread_mutex_unlock(&lock);
    printf("pulled %s", pulled);
    PMIx_tool_finalize();
    return failures > 0;
}

/* Whether rank of nspace announced READY_FOR_DEBUG. */
static bool ready(const char *nspace, pmix_rank_t rank)
{
    bool yes = false;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nready; i++) {
        yes |= PMIX_CHECK_NSPACE(readies[i].proc.nspace, nspace) && readies[i].proc.rank == rank;
    }
    pthread_mutex_unlock(&lock);
    return yes;
}

static int stop_rank(const char *client)
{
    pmix_app_t app;
    pmix_info_t stop;
    pmix_nspace_t nspace;
    pmix_rank_t one = 1;
    char *argv[] = {(char *)client, "app", "r", NULL};

    init_system();
    watch_job_end();
    watch(PMIX_READY_FOR_DEBUG, on_ready, "PMIX_READY_FOR_DEBUG");
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(client);
    app.argv = pmix_argv_copy(argv);
    app.maxprocs = 2;
    PMIX_INFO_LOAD(&stop, PMIX_DEBUG_STOP_IN_INIT, &one, PMIX_PROC_RANK);
    pmix_status_t rc = PMIx_Spawn(&stop, 1, &app, 1, nspace);
    PMIX_INFO_DESTRUCT(&stop);
    PMIX_APP_DESTRUCT(&app);
    check(PMIX_SUCCESS == rc, "PMIx_Spawn with PMIX_DEBUG_STOP_IN_INIT naming rank 1");
    if (PMIX_SUCCESS != rc) {
        PMIx_tool_finalize();
        return 1;
    }
    pull(nspace);
    bool waited = false;
    for (int i = 0; i < 400 && !(waited = ready(nspace, 1) && said("rank 0 app r")); i++) {
        usleep(50000);
    }
    check(waited, "rank 1 announces READY_FOR_DEBUG, rank 0 runs on and says its line");
    usleep(300000);
    pthread_mutex_lock(&lock);
    check(!ended && NULL == strstr(pulled, "rank 1 app r"), "... rank 1 waits, silent");
    pthread_mutex_unlock(&lock);
    check(!ready(nspace, 0), "... rank 0 never announced READY_FOR_DEBUG");
    pmix_info_t *res = NULL;
    size_t n = 0;
    rc = query(PMIX_JOB_SIZE, nspace, &res, &n);
    check(PMIX_SUCCESS == rc && 1 == n && PMIX_UINT32 == res[0].value.type &&
              2 == res[0].value.data.uint32,
          "PMIX_JOB_SIZE meanwhile, from the job's run: 2");
    if (NULL != res) {
        PMIX_INFO_FREE(res, n);
    }
    pmix_proc_t job;
    pmix_info_t range;
    pmix_status_t done = -1;
    PMIX_LOAD_PROCID(&job, nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&range, PMIX_EVENT_CUSTOM_RANGE, &job, PMIX_PROC);
    rc = PMIx_Notify_event(PMIX_DEBUGGER_RELEASE, NULL, PMIX_RANGE_CUSTOM, &range, 1, sent, &done);
    PMIX_INFO_DESTRUCT(&range);
    check(PMIX_SUCCESS == rc || PMIX_OPERATION_SUCCEEDED == rc, "PMIX_DEBUGGER_RELEASE sent");
    check(wait_end(nspace) && 0 == exit_code, "... the job ends with status 0");
    usleep(200000);
    check(said("rank 1 app r"), "... rank 1 having run");
    PMIx_tool_finalize();
    return failures > 0;
}

/* Whether both pids are stopped (state T), or both are not. */
static bool both_stopped(const pid_t pids[2], bool yes)
{
    for (int i = 0; i < 100; i++) {
        if (stopped(pids[0]) == yes && stopped(pids[1]) == yes) {
            return true;
        }
        usleep(20000);
    }
    return false;
}

static pmix_status_t control_one(const char *nspace, const char *directive)
{
    pmix_proc_t job;
    pmix_info_t dir;
    pmix_info_t *res = NULL;
    size_t n = 0;
    bool yes = true;
    PMIX_LOAD_PROCID(&job, nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&dir, directive, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Job_control(&job, 1, &dir, 1, &res, &n);
    PMIX_INFO_DESTRUCT(&dir);
    if (NULL != res) {
        PMIX_INFO_FREE(res, n);
    }
    return rc;
}

/* Connect, watch job ends and spawn two ranks of `sleep seconds`: their
 * namespace and pids. */
static void start_sleeps(const char *seconds, pmix_nspace_t nspace, pid_t pids[2])
{
    char *argv[] = {"sleep", (char *)seconds, NULL};
    init_system();
    watch_job_end();
    check(PMIX_SUCCESS == spawn("sleep", 2, argv, false, nspace), "PMIx_Spawn of two sleeps");
    check(proc_table(PMIX_QUERY_PROC_TABLE, nspace, pids), "... both in the process table");
}

static int pause_resume(void)
{
    pmix_nspace_t nspace;
    pid_t pids[2] = {0, 0};

    start_sleeps("2", nspace, pids);
    check(PMIX_SUCCESS == control_one(nspace, PMIX_JOB_CTRL_PAUSE),
          "PMIx_Job_control PMIX_JOB_CTRL_PAUSE: PMIX_SUCCESS");
    check(both_stopped(pids, true), "... both ranks stopped (state T)");
    usleep(2500000);
    check(both_stopped(pids, true), "... and still stopped after their 2 s");
    pthread_mutex_lock(&lock);
    check(!ended, "... the job has not ended");
    pthread_mutex_unlock(&lock);
    check(PMIX_SUCCESS == control_one(nspace, PMIX_JOB_CTRL_RESUME),
          "PMIx_Job_control PMIX_JOB_CTRL_RESUME: PMIX_SUCCESS");
    check(both_stopped(pids, false) || (0 != kill(pids[0], 0) && 0 != kill(pids[1], 0)),
          "... both ranks run again");
    check(wait_end(nspace) && 0 == exit_code, "... and the job ends with status 0");
    check(PMIX_SUCCESS != control_one(nspace, PMIX_JOB_CTRL_PAUSE),
          "an ended job cannot be paused");
    PMIx_tool_finalize();
    return failures > 0;
}

/* The uint32 result named key among res, or -1. */
static long u32_result(const pmix_info_t *res, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++) {
        if (PMIX_CHECK_KEY(&res[i], key)) {
            return PMIX_UINT32 == res[i].value.type ? (long)res[i].value.data.uint32 : -1;
        }
    }
    return -1;
}

static int queries(void)
{
    pmix_nspace_t nspace;
    pid_t pids[2];
    pmix_info_t *res = NULL;
    size_t n = 0;

    start_sleeps("30", nspace, pids);
    check(PMIX_SUCCESS == control_one(nspace, PMIX_JOB_CTRL_PREEMPTIBLE),
          "PMIx_Job_control PMIX_JOB_CTRL_PREEMPTIBLE, carried out by the job's run");
    pmix_status_t rc = query(PMIX_QUERY_JOB_STATUS "," PMIX_JOB_SIZE "," PMIX_JOB_CTRL_PREEMPTIBLE
                                                   ",drover.test.no-such-key",
                             nspace, &res, &n);
    check(PMIX_ERR_PARTIAL_SUCCESS == rc && 3 == n,
          "known, run-answered and unknown keys: PMIX_ERR_PARTIAL_SUCCESS, three results");
    check(2 == u32_result(res, n, PMIX_JOB_SIZE), "... PMIX_JOB_SIZE 2, from the job's run");
    bool preemptible = false;
    for (size_t i = 0; i < n; i++) {
        preemptible |= PMIX_CHECK_KEY(&res[i], PMIX_JOB_CTRL_PREEMPTIBLE) &&
                       PMIX_BOOL == res[i].value.type && res[i].value.data.flag;
    }
    check(preemptible, "... PMIX_JOB_CTRL_PREEMPTIBLE true, as the run was told");
    PMIX_INFO_FREE(res, n);
    rc = query(PMIX_QUERY_NAMESPACES "," PMIX_QUERY_JOB_STATUS "," PMIX_QUERY_PROC_TABLE
                                     "," PMIX_QUERY_LOCAL_PROC_TABLE "," PMIX_QUERY_NUM_PSETS
                                     "," PMIX_QUERY_PSET_NAMES,
               nspace, &res, &n);
    check(PMIX_SUCCESS == rc && 6 == n,
          "every query key issue 13 lists, at once: PMIX_SUCCESS, six results");
    if (NULL != res) {
        PMIX_INFO_FREE(res, n);
    }
    res = NULL;
    rc = query("drover.test.no-such-key,drover.test.nor-this", nspace, &res, &n);
    check(PMIX_ERR_NOT_FOUND == rc && NULL == res, "unknown keys alone: PMIX_ERR_NOT_FOUND");
    check(PMIX_SUCCESS == control_one(nspace, PMIX_JOB_CTRL_KILL), "the job is killed");
    check(wait_end(nspace), "... and ends");
    PMIx_tool_finalize();
    return failures > 0;
}

/* ---- a job's groups, seen from the daemon -------------------------------- */

/* The process-set events seen, a line each: "define NAME MEMBERS" or
 * "delete NAME". */
static char set_events[4096];

static void on_set(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                   size_t ninfo, pmix_info_t *results, size_t nresults,
                   pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    const char *name = "?";
    size_t members = 0;
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_PSET_NAME) && PMIX_STRING == info[i].value.type) {
            name = info[i].value.data.string;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_PSET_MEMBERS) &&
                   PMIX_DATA_ARRAY == info[i].value.type) {
            members = info[i].value.data.darray->size;
        }
    }
    pthread_mutex_lock(&lock);
    size_t len = strlen(set_events);
    if (PMIX_PROCESS_SET_DEFINE == status) {
        snprintf(set_events + len, sizeof(set_events) - len, "define %s %zu\n", name, members);
    } else {
        snprintf(set_events + len, sizeof(set_events) - len, "delete %s\n", name);
    }
    pthread_mutex_unlock(&lock);
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

static bool set_event(const char *line)
{
    pthread_mutex_lock(&lock);
    bool seen = NULL != strstr(set_events, line);
    pthread_mutex_unlock(&lock);
    return seen;
}

/* Whether a list of names (a comma-separated string, or an array of
 * strings) holds name. */
static bool names_hold(const pmix_value_t *v, const char *name)
{
    size_t len = strlen(name);
    if (PMIX_STRING == v->type) {
        for (const char *at = v->data.string; NULL != at; at = strchr(at, ',')) {
            at += ',' == *at;
            if (0 == strncmp(at, name, len) && (',' == at[len] || '\0' == at[len])) {
                return true;
            }
        }
    } else if (PMIX_DATA_ARRAY == v->type && PMIX_STRING == v->data.darray->type) {
        char **names = v->data.darray->array;
        for (size_t i = 0; i < v->data.darray->size; i++) {
            if (0 == strcmp(names[i], name)) {
                return true;
            }
        }
    }
    return false;
}

/* Whether the list of names key answers holds name. */
static bool listed(const char *key, const char *name)
{
    pmix_info_t *res = NULL;
    size_t n = 0;
    bool yes = PMIX_SUCCESS == query_by(key, NULL, NULL, &res, &n) && 1 == n &&
               names_hold(&res[0].value, name);
    if (NULL != res) {
        PMIX_INFO_FREE(res, n);
    }
    return yes;
}

/* The members of name by key (qualified by qual), when they are ranks 0
 * and 1 of nspace: PMIX_SUCCESS; else the query's status, or
 * PMIX_ERR_BAD_PARAM for other members. */
static pmix_status_t members_of(const char *key, const char *qual, const char *name,
                                const char *nspace)
{
    pmix_info_t *res = NULL;
    size_t n = 0;
    pmix_status_t rc = query_by(key, qual, name, &res, &n);
    if (PMIX_SUCCESS == rc) {
        const pmix_data_array_t *a = 1 == n && PMIX_DATA_ARRAY == res[0].value.type
                                         ? res[0].value.data.darray
                                         : NULL;
        const pmix_proc_t *p = NULL != a && PMIX_PROC == a->type ? a->array : NULL;
        bool ours = NULL != p && 2 == a->size;
        for (size_t i = 0; ours && i < 2; i++) {
            ours = PMIX_CHECK_NSPACE(p[i].nspace, nspace) && i == p[i].rank;
        }
        rc = ours ? PMIX_SUCCESS : PMIX_ERR_BAD_PARAM;
    }
    if (NULL != res) {
        PMIX_INFO_FREE(res, n);
    }
    return rc;
}

/* Whether the daemon shows name (nspace's) as a process set and as a
 * group of ranks 0 and 1, or (shown false) as neither. */
static bool showing(const char *name, const char *nspace, bool shown)
{
    pmix_status_t want = shown ? PMIX_SUCCESS : PMIX_ERR_NOT_FOUND;
    return shown == listed(PMIX_QUERY_PSET_NAMES, name) &&
           shown == listed(PMIX_QUERY_GROUP_NAMES, name) &&
           want == members_of(PMIX_QUERY_PSET_MEMBERSHIP, PMIX_PSET_NAME, name, nspace) &&
           want == members_of(PMIX_QUERY_GROUP_MEMBERSHIP, PMIX_GROUP_ID, name, nspace);
}

/* The same, once (20 s at most). */
static bool comes_to(const char *name, const char *nspace, bool shown)
{
    for (int i = 0; i < 400; i++) {
        if (showing(name, nspace, shown)) {
            return true;
        }
        usleep(50000);
    }
    return false;
}

/* The number key (PMIX_QUERY_NUM_PSETS, _NUM_GROUPS) answers, or -1. */
static long count_of(const char *key)
{
    pmix_info_t *res = NULL;
    size_t n = 0;
    long count = -1;
    if (PMIX_SUCCESS == query_by(key, NULL, NULL, &res, &n) && 1 == n &&
        PMIX_SIZE == res[0].value.type) {
        count = (long)res[0].value.data.size;
    }
    if (NULL != res) {
        PMIX_INFO_FREE(res, n);
    }
    return count;
}

/* Create the file dir/name, which the job's ranks wait for. */
static void tell(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (NULL != f) {
        fclose(f);
    }
}

static int groups(const char *client, const char *dir)
{
    pmix_nspace_t nspace;
    char stay[PMIX_MAX_NSLEN + 8], go[PMIX_MAX_NSLEN + 8], line[PMIX_MAX_NSLEN + 32];
    char *argv[] = {(char *)client, "groups", (char *)dir, NULL};

    init_system();
    watch_job_end();
    watch(PMIX_PROCESS_SET_DEFINE, on_set, "PMIX_PROCESS_SET_DEFINE");
    watch(PMIX_PROCESS_SET_DELETE, on_set, "PMIX_PROCESS_SET_DELETE");
    check(PMIX_SUCCESS == spawn(client, 2, argv, false, nspace),
          "PMIx_Spawn of two ranks that construct the groups stay and go");
    snprintf(stay, sizeof(stay), "%s/stay", nspace);
    snprintf(go, sizeof(go), "%s/go", nspace);
    check(comes_to(stay, nspace, true) && comes_to(go, nspace, true),
          "the daemon shows them, named <job's namespace>/stay and /go, as process sets and as "
          "groups (names, and members: ranks 0 and 1)");
    check(2 == count_of(PMIX_QUERY_NUM_PSETS) && 2 == count_of(PMIX_QUERY_NUM_GROUPS),
          "... PMIX_QUERY_NUM_PSETS and _NUM_GROUPS count them: 2 each");
    snprintf(line, sizeof(line), "define %s 2\n", go);
    check(set_event(line), "... and the tool got PMIX_PROCESS_SET_DEFINE for go, of 2 members");
    tell(dir, "destruct");
    check(comes_to(go, nspace, false) && showing(stay, nspace, true),
          "after the ranks' PMIx_Group_destruct of go, it is gone from both lists (membership "
          "queries: not found), stay is still there");
    check(1 == count_of(PMIX_QUERY_NUM_PSETS) && 1 == count_of(PMIX_QUERY_NUM_GROUPS),
          "... 1 process set, 1 group");
    snprintf(line, sizeof(line), "delete %s\n", go);
    check(set_event(line), "... and the tool got PMIX_PROCESS_SET_DELETE for go");
    check(PMIX_SUCCESS == control_one(nspace, PMIX_JOB_CTRL_KILL),
          "the job is killed (its run by SIGKILL: it tells nothing more)");
    check(wait_end(nspace), "... and ends");
    check(comes_to(stay, nspace, false) && 0 == count_of(PMIX_QUERY_NUM_PSETS) &&
              0 == count_of(PMIX_QUERY_NUM_GROUPS),
          "... and stay, never destructed, is gone with it: no process set, no group");
    PMIx_tool_finalize();
    return failures > 0;
}

/* ---- output by rank (daemon_output.sh) ---------------------------------- */

static struct {
    const char *dir;
    pmix_nspace_t nspace;
    struct timespec last; /* when the last piece came */
} by_rank;

static void append_to(const char *name, const pmix_byte_object_t *payload)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", by_rank.dir, name);
    FILE *f = fopen(path, "a");
    if (NULL != f) {
        fwrite(payload->bytes, 1, payload->size, f);
        fclose(f);
    }
}

static void received_by_rank(size_t id, pmix_iof_channel_t channel, pmix_proc_t *source,
                             pmix_byte_object_t *payload, pmix_info_t info[], size_t ninfo)
{
    char name[64];
    pthread_mutex_lock(&lock);
    if (!PMIX_CHECK_NSPACE(source->nspace, by_rank.nspace)) {
        snprintf(name, sizeof(name), "foreign");
    } else if (PMIX_RANK_WILDCARD == source->rank) {
        snprintf(name, sizeof(name), "all.%s", PMIX_FWD_STDOUT_CHANNEL == channel ? "out" : "err");
    } else {
        snprintf(name, sizeof(name), "%u.%s", source->rank,
                 PMIX_FWD_STDOUT_CHANNEL == channel ? "out" : "err");
    }
    append_to(name, payload);
    clock_gettime(CLOCK_MONOTONIC, &by_rank.last);
    pthread_mutex_unlock(&lock);
}

/* Wait until no piece has come for half a second (10 s at most): what
 * the job wrote last may come after its end. */
static void wait_quiet(void)
{
    for (int i = 0; i < 100; i++) {
        struct timespec now;
        usleep(100000);
        clock_gettime(CLOCK_MONOTONIC, &now);
        pthread_mutex_lock(&lock);
        double quiet = (double)(now.tv_sec - by_rank.last.tv_sec) +
                       (double)(now.tv_nsec - by_rank.last.tv_nsec) * 1e-9;
        pthread_mutex_unlock(&lock);
        if (quiet > 0.5) {
            return;
        }
    }
}

/* Spawn nprocs ranks of argv, more than the node may have cores
 * (PMIX_MAPBY ":OVERSUBSCRIBE"); with forward, PMIX_FWD_STDOUT. */
static pmix_status_t spawn_ranks(int nprocs, char **argv, bool forward, pmix_nspace_t nspace)
{
    pmix_info_t info[2];
    pmix_app_t app;
    bool yes = true;
    PMIX_INFO_LOAD(&info[0], PMIX_MAPBY, ":OVERSUBSCRIBE", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_FWD_STDOUT, &yes, PMIX_BOOL);
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(argv[0]);
    app.argv = pmix_argv_copy(argv);
    app.maxprocs = nprocs;
    pmix_status_t rc = PMIx_Spawn(info, forward ? 2 : 1, &app, 1, nspace);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIX_APP_DESTRUCT(&app);
    return rc;
}

static int iof_by_rank(int argc, char **argv)
{
    const char *rank = argv[3], *channels = argv[4];
    int nprocs = atoi(argv[5]);
    pmix_proc_t job;
    char go[4096];

    by_rank.dir = argv[2];
    init_system();
    watch_job_end();
    pmix_status_t rc = spawn_ranks(nprocs, argv + 6, false, by_rank.nspace);
    check(PMIX_SUCCESS == rc, "PMIx_Spawn of the job");
    PMIX_LOAD_PROCID(&job, by_rank.nspace,
                     0 == strcmp(rank, "all") ? PMIX_RANK_WILDCARD : (pmix_rank_t)atoi(rank));
    clock_gettime(CLOCK_MONOTONIC, &by_rank.last);
    rc = PMIx_IOF_pull(&job, 1, NULL, 0,
                       PMIX_FWD_STDOUT_CHANNEL |
                           (0 == strcmp(channels, "both") ? PMIX_FWD_STDERR_CHANNEL : 0),
                       received_by_rank, NULL, NULL);
    check(rc >= 0, "PMIx_IOF_pull of the job's output");
    snprintf(go, sizeof(go), "%s/go", by_rank.dir);
    FILE *f = fopen(go, "w");
    if (NULL != f) {
        fclose(f);
    }
    check(wait_end(by_rank.nspace), "its PMIX_EVENT_JOB_END arrives");
    wait_quiet();
    PMIx_tool_finalize();
    return failures > 0;
}

static int forwarded(int argc, char **argv)
{
    pmix_nspace_t nspace;
    init_system();
    watch_job_end();
    check(PMIX_SUCCESS == spawn_ranks(atoi(argv[2]), argv + 3, true, nspace),
          "PMIx_Spawn with PMIX_FWD_STDOUT");
    check(wait_end(nspace), "its PMIX_EVENT_JOB_END arrives");
    clock_gettime(CLOCK_MONOTONIC, &by_rank.last);
    wait_quiet();
    PMIx_tool_finalize();
    return failures > 0;
}

int main(int argc, char **argv)
{
    if (argc > 2 && 0 == strcmp(argv[1], "mpmd")) {
        return mpmd(argv[2]);
    }
    if (argc > 2 && 0 == strcmp(argv[1], "stoprank")) {
        return stop_rank(argv[2]);
    }
    if (argc > 1 && 0 == strcmp(argv[1], "pause")) {
        return pause_resume();
    }
    if (argc > 1 && 0 == strcmp(argv[1], "queries")) {
        return queries();
    }
    if (argc > 3 && 0 == strcmp(argv[1], "groups")) {
        return groups(argv[2], argv[3]);
    }
    if (argc > 2 && 0 == strcmp(argv[1], "connect")) {
        return connect_by(argc, argv);
    }
    if (argc > 2 && 0 == strcmp(argv[1], "spawn")) {
        return run_job(argv[2], FORWARDED);
    }
    if (argc > 2 && 0 == strcmp(argv[1], "pull")) {
        return run_job(argv[2], PULLED);
    }
    if (argc > 2 && 0 == strcmp(argv[1], "latepull")) {
        return run_job(argv[2], PULLED_LATE);
    }
    if (argc > 3 && 0 == strcmp(argv[1], "debug")) {
        return debug(argv[2], argv[3]);
    }
    if (argc > 1 && 0 == strcmp(argv[1], "attach")) {
        return attach();
    }
    if (argc > 1 && 0 == strcmp(argv[1], "control")) {
        return control();
    }
    if (argc > 6 && 0 == strcmp(argv[1], "iof")) {
        return iof_by_rank(argc, argv);
    }
    if (argc > 3 && 0 == strcmp(argv[1], "fwd")) {
        return forwarded(argc, argv);
    }
    fprintf(stderr,
            "usage: daemon_tool connect|attach|spawn|pull|latepull|control|debug|mpmd|stoprank|"
            "pause|queries|groups|iof|fwd ...\n");
    return 2;
}
