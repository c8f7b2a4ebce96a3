/*
 * daemon_pmix.c - the daemon's PMIx server: PMIx tools (drover's own
 * commands among them) connect to it to spawn, query, control and watch
 * the daemon's jobs.
 *
 * Design notes:
 *  - The server library listens in a drover-server.* directory of the
 *    state directory (mode 0700: the user's alone; every connection's
 *    peer credentials are checked too, another uid is refused). The
 *    daemon writes the rendezvous an OpenPMIx system server writes,
 *    pmix.sys.<host> (URI, version, pid, uid:gid, time, one a line), into
 *    the state directory rather than the shared /tmp, so that a tool of
 *    this user never reads one another user made (client/tool.c).
 *  - The library calls the module below in its progress thread; the jobs
 *    are the daemon's main thread's. Each call copies what it needs and
 *    posts a closure to the main loop (eventq), which answers through the
 *    library's callback, as host.c does for a run.
 *  - A spawn is a job like a submitted one: a `drover run` child in the
 *    daemon's environment, each app one section of the run's command
 *    line (daemon_spawn.c), so that ranks of app 0 come first and each
 *    rank gets its app's PMIX_APPNUM. drover's own `submit`
 *    passes the run's arguments as they were typed (DROVER_SPAWN_RUN_ARGS)
 *    and its whole environment. The reply is the job's namespace
 *    "<daemon's namespace>.<id>".
 *  - Queries about jobs are answered here: namespaces, job status, the
 *    process table (the ranks the run reported), the exit status
 *    (PMIX_EXIT_CODE), and drover's own keys for `ps` and `output`. Other
 *    keys of a query naming a running job go to its run (daemon_relay.c:
 *    its size, time left, marks...); the library answers process sets,
 *    groups and attributes itself, so those are left out here: the
 *    daemon's own, and its jobs' groups (daemon_groups.c).
 *  - Job control: KILL, TERMINATE and SIGNAL go to the job's run as
 *    signals, which it passes on to its ranks (daemon_jobs.c); any other
 *    directive (PAUSE, RESUME, CHECKPOINT, PREEMPTIBLE...) goes to the
 *    run on its control socket (daemon_relay.c), which carries it out
 *    with control.c, and the run's status is the answer.
 *  - Debugging: a spawn's PMIX_DEBUG_STOP_IN_INIT, _ON_EXEC or _IN_APP
 *    is the run's --stop-* option (daemon_spawn.c), so the run's debug.c
 *    stops the ranks it names. The run passes each PMIX_READY_FOR_DEBUG on (daemon_jobs.c's
 *    control socket), which is raised here for the tools. A tool's
 *    PMIX_DEBUGGER_RELEASE naming a job (custom range or affected procs;
 *    every job when it names none) reaches the host's notify_event and
 *    goes to the run (daemon_jobs_release), which releases the ranks as
 *    its own server's tool would.
 *  - A job's end is the event PMIX_EVENT_JOB_END (affected proc: the
 *    job's namespace, PMIX_JOB_TERM_STATUS, PMIX_EXIT_CODE), and when it
 *    failed also PMIX_ERR_JOB_NON_ZERO_TERM or _ABORTED_BY_SIG.
 *  - A submitted job's output is delivered with PMIx_server_IOF_deliver
 *    from its true source, the rank (its run frames it by rank,
 *    daemon_output.c; a job its ranks spawned has the namespace
 *    "<daemon's namespace>.<id>-<index>"), on its own channel, to the
 *    tools that pulled it or spawned with PMIX_FWD_STDOUT/STDERR; what the
 *    run says itself comes from the job's wildcard rank.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon.h"
#include "directive.h"
#include "drover.h"
#include "eventq.h"
#include "launcher.h"
#include "pmix.h"
#include "pmix_server.h"
#include "statedir.h"

extern char **environ;

static struct {
    daemon_pmix_host_t host;
    eventq_t posts;
    struct event *wake;
    struct event_base *base;
    bool up;
    bool stopping; /* spawns are refused */
    char rendezvous[300]; /* the file's name in the state directory */
    pmix_proc_t me;
} dp = {.posts = EVENTQ_INITIALIZER};

/* ---- the main thread's side --------------------------------------------- */

/* One module call carried to the main thread. */
typedef struct call {
    void (*handle)(struct call *c);
    pmix_proc_t requestor;
    pmix_info_t *info;
    size_t ninfo;
    pmix_app_t *apps;
    size_t napps;
    pmix_query_t *queries;
    size_t nqueries;
    pmix_proc_t *procs;
    size_t nprocs;
    pmix_spawn_cbfunc_t spawn_cb;
    pmix_info_cbfunc_t info_cb;
    void *cbdata;
} call_t;

static void call_free(call_t *c)
{
    if (NULL != c->info) {
        PMIX_INFO_FREE(c->info, c->ninfo);
    }
    if (NULL != c->apps) {
        PMIX_APP_FREE(c->apps, c->napps);
    }
    if (NULL != c->queries) {
        PMIX_QUERY_FREE(c->queries, c->nqueries);
    }
    free(c->procs);
    free(c);
}

static void run_call(void *arg)
{
    call_t *c = arg;
    c->handle(c);
    call_free(c);
}

static void on_wake(evutil_socket_t fd, short what, void *arg)
{
    eventq_run(&dp.posts);
}

static call_t *call_new(void (*handle)(call_t *c), const pmix_proc_t *requestor,
                        const pmix_info_t *info, size_t ninfo, void *cbdata)
{
    call_t *c = calloc(1, sizeof(*c));
    if (NULL == c) {
        return NULL;
    }
    c->handle = handle;
    c->cbdata = cbdata;
    if (NULL != requestor) {
        c->requestor = *requestor;
    }
    if (ninfo > 0 && NULL == (c->info = host_copy_array(info, ninfo, PMIX_INFO))) {
        free(c);
        return NULL;
    }
    c->ninfo = ninfo;
    return c;
}

/* c with a copy of n items of type at src in *slot (*count = n), or
 * NULL (c freed) when the copy fails. */
static call_t *with_copy(call_t *c, void **slot, size_t *count, const void *src, size_t n,
                         pmix_data_type_t type)
{
    *count = n;
    if (NULL == (*slot = host_copy_array(src, n, type))) {
        call_free(c);
        return NULL;
    }
    return c;
}

static pmix_status_t post(call_t *c)
{
    if (NULL == c) {
        return PMIX_ERR_NOMEM;
    }
    pmix_status_t rc = eventq_post(&dp.posts, run_call, c);
    if (PMIX_SUCCESS != rc) {
        call_free(c);
    }
    return rc;
}

/* ---- spawn ---------------------------------------------------------------- */

/* The strings of a PMIX_DATA_ARRAY of PMIX_STRING (borrowed), or NULL. */
static char **string_array(const pmix_value_t *v, size_t *n)
{
    if (NULL == v || PMIX_DATA_ARRAY != v->type || NULL == v->data.darray ||
        PMIX_STRING != v->data.darray->type) {
        return NULL;
    }
    *n = v->data.darray->size;
    return v->data.darray->array;
}

static void handle_spawn(call_t *c)
{
    const pmix_value_t *v = directive_find(c->info, c->ninfo, DROVER_SPAWN_RUN_ARGS);
    size_t ngiven = 0;
    char **given = string_array(v, &ngiven);
    const char *dir = daemon_spawn_dir(&c->apps[0]), *cwd = NULL != dir ? dir : "/";
    const char *why = "out of memory";
    static char *none[] = {NULL};
    /* drover's own submit gives the run's whole environment too. */
    char *const *env = NULL == given ? environ : NULL != c->apps[0].env ? c->apps[0].env : none;
    unsigned id = 0;
    char **args = NULL;
    size_t nargs = 0;

    if (dp.stopping) {
        /* A stopping daemon starts nothing more. */
        c->spawn_cb(PMIX_ERR_NOT_AVAILABLE, NULL, c->cbdata);
        return;
    }
    pmix_status_t rc =
        daemon_spawn_args(c->info, c->ninfo, c->apps, c->napps, given, ngiven, &args, &nargs);
    if (PMIX_SUCCESS == rc) {
        id = daemon_jobs_submit(dp.host.jobs, cwd, args, nargs, env, NULL, &why);
        dp.host.spawned(dp.host.arg, id, why);
        rc = 0 == id ? PMIX_ERR_OUT_OF_RESOURCE : PMIX_SUCCESS;
    }
    launch_free_env(args);
    c->spawn_cb(rc, 0 == id ? NULL : (char *)daemon_jobs_nspace(dp.host.jobs, id), c->cbdata);
}

static pmix_status_t spawn(const pmix_proc_t *proc, const pmix_info_t job_info[], size_t ninfo,
                           const pmix_app_t apps[], size_t napps, pmix_spawn_cbfunc_t cbfunc,
                           void *cbdata)
{
    if (0 == napps || NULL == apps) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t a = 0; a < napps; a++) {
        if (NULL == apps[a].cmd || apps[a].maxprocs < 1) {
            return PMIX_ERR_BAD_PARAM;
        }
    }
    call_t *c = call_new(handle_spawn, proc, job_info, ninfo, cbdata);
    if (NULL == c) {
        return PMIX_ERR_NOMEM;
    }
    c->spawn_cb = cbfunc;
    return post(with_copy(c, (void **)&c->apps, &c->napps, apps, napps, PMIX_APP));
}

/* ---- queries --------------------------------------------------------------- */

typedef struct results {
    pmix_info_t *info;
    size_t n;
} results_t;

static void release_results(void *cbdata)
{
    results_t *r = cbdata;
    if (NULL != r->info) {
        PMIX_INFO_FREE(r->info, r->n);
    }
    free(r);
}

/* The namespaces of the jobs queued or running, comma-separated. */
static char *namespaces(void)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (NULL == out) {
        return NULL;
    }
    bool first = true;
    for (unsigned id = 1; id <= daemon_jobs_count(dp.host.jobs); id++) {
        if (JOB_ENDED != daemon_jobs_state(dp.host.jobs, id)) {
            fprintf(out, "%s%s", first ? "" : ",", daemon_jobs_nspace(dp.host.jobs, id));
            first = false;
        }
    }
    if (0 != fclose(out)) {
        free(text);
        return NULL;
    }
    return text;
}

static pmix_status_t proc_table(unsigned id, pmix_value_t *out)
{
    unsigned n;
    const daemon_proc_t *procs = daemon_jobs_procs(dp.host.jobs, id, &n);
    int status = daemon_jobs_status(dp.host.jobs, id);
    char host[256] = "localhost";
    pmix_proc_info_t *table;
    pmix_data_array_t array = {.type = PMIX_PROC_INFO, .size = n};

    gethostname(host, sizeof(host) - 1);
    host[sizeof(host) - 1] = '\0';
    PMIX_PROC_INFO_CREATE(table, n > 0 ? n : 1);
    if (NULL == table) {
        return PMIX_ERR_NOMEM;
    }
    for (unsigned r = 0; r < n; r++) {
        PMIX_LOAD_PROCID(&table[r].proc, daemon_jobs_nspace(dp.host.jobs, id), r);
        table[r].hostname = strdup(host);
        table[r].executable_name = strdup(NULL != procs[r].program ? procs[r].program : "");
        table[r].pid = procs[r].pid;
        table[r].exit_code = status > 0 ? status : 0;
        table[r].state = status < 0    ? PMIX_PROC_STATE_RUNNING
                         : 0 == status ? PMIX_PROC_STATE_TERMINATED
                                       : PMIX_PROC_STATE_TERM_NON_ZERO;
    }
    array.array = table;
    pmix_status_t rc = PMIx_Value_load(out, &array, PMIX_DATA_ARRAY);
    PMIX_PROC_INFO_FREE(table, n > 0 ? n : 1);
    return rc;
}

/* One key about the daemon or job id (0: none named). */
static pmix_status_t answer(const char *key, unsigned id, pmix_value_t *out)
{
    daemon_job_state_t state = daemon_jobs_state(dp.host.jobs, id);
    if (0 == strcmp(key, PMIX_QUERY_NAMESPACES)) {
        char *s = namespaces();
        pmix_status_t rc = NULL == s ? PMIX_ERR_NOMEM : PMIx_Value_load(out, s, PMIX_STRING);
        free(s);
        return rc;
    }
    if (0 == strcmp(key, DROVER_QUERY_JOBS) || 0 == strcmp(key, DROVER_QUERY_JOBS_JSON)) {
        char *table = daemon_jobs_table(dp.host.jobs, 0 == strcmp(key, DROVER_QUERY_JOBS_JSON));
        pmix_status_t rc =
            NULL == table ? PMIX_ERR_NOMEM : PMIx_Value_load(out, table, PMIX_STRING);
        free(table);
        return rc;
    }
    if (0 == strcmp(key, PMIX_QUERY_DEBUG_SUPPORT)) {
        return PMIx_Value_load(
            out, PMIX_DEBUG_STOP_IN_INIT "," PMIX_DEBUG_STOP_ON_EXEC "," PMIX_DEBUG_STOP_IN_APP,
            PMIX_STRING);
    }
    if (JOB_NONE == state) {
        return PMIX_ERR_NOT_FOUND;
    }
    if (0 == strcmp(key, PMIX_QUERY_JOB_STATUS)) {
        pmix_job_state_t js = JOB_QUEUED == state    ? PMIX_JOB_STATE_AWAITING_ALLOC
                              : JOB_RUNNING == state ? PMIX_JOB_STATE_RUNNING
                              : 0 == daemon_jobs_status(dp.host.jobs, id)
                                  ? PMIX_JOB_STATE_TERMINATED
                                  : PMIX_JOB_STATE_TERMINATED_WITH_ERROR;
        return PMIx_Value_load(out, &js, PMIX_JOB_STATE);
    }
    if (0 == strcmp(key, PMIX_QUERY_PROC_TABLE) || 0 == strcmp(key, PMIX_QUERY_LOCAL_PROC_TABLE)) {
        /* Every rank runs on this node. */
        return proc_table(id, out);
    }
    if (0 == strcmp(key, PMIX_EXIT_CODE)) {
        int status = daemon_jobs_status(dp.host.jobs, id);
        return status < 0 ? PMIX_ERR_NOT_AVAILABLE : PMIx_Value_load(out, &status, PMIX_INT);
    }
    if (0 == strcmp(key, DROVER_QUERY_OUTPUT)) {
        char path[PATH_MAX];
        int n = snprintf(path, sizeof(path), "%s/" DAEMON_JOBS "/%u", dp.host.dir, id);
        if (!daemon_jobs_has_output(dp.host.jobs, id) || n < 0 || (size_t)n >= sizeof(path)) {
            return PMIX_ERR_NOT_AVAILABLE;
        }
        return PMIx_Value_load(out, path, PMIX_STRING);
    }
    return PMIX_ERR_NOT_SUPPORTED;
}

/* The job a query names with PMIX_NSPACE: its id, 0 for none or an
 * unknown one. */
static unsigned query_job(const pmix_query_t *q)
{
    for (size_t i = 0; i < q->nqual; i++) {
        const pmix_info_t *qual = &q->qualifiers[i];
        if (PMIX_CHECK_KEY(qual, PMIX_NSPACE) && PMIX_STRING == qual->value.type &&
            NULL != qual->value.data.string) {
            return daemon_jobs_find(dp.host.jobs, qual->value.data.string);
        }
    }
    return 0;
}

/* A tool's request waiting for the answers of jobs' runs
 * (daemon_relay.c): queries gather results, job control the first
 * failure. */
typedef struct gathering {
    size_t waiting; /* answers still to come, and 1 while asking */
    pmix_status_t status; /* job control: the first failure */
    results_t *res; /* queries: the results so far */
    size_t asked; /* queries: the keys asked */
    pmix_info_cbfunc_t cb;
    void *cbdata;
} gathering_t;

static gathering_t *gathering_new(const call_t *c)
{
    gathering_t *g = calloc(1, sizeof(*g));
    if (NULL != g) {
        *g = (gathering_t){.waiting = 1, .cb = c->info_cb, .cbdata = c->cbdata};
    }
    return g;
}

/* One answer (or the asking) is done; the last one answers the tool. */
static void gathered(gathering_t *g)
{
    if (--g->waiting > 0) {
        return;
    }
    if (NULL == g->res) {
        g->cb(g->status, NULL, 0, g->cbdata, NULL, NULL);
    } else if (0 == g->res->n) {
        release_results(g->res);
        g->cb(PMIX_ERR_NOT_FOUND, NULL, 0, g->cbdata, NULL, NULL);
    } else {
        g->cb(g->res->n < g->asked ? PMIX_ERR_PARTIAL_SUCCESS : PMIX_SUCCESS, g->res->info,
              g->res->n, g->cbdata, release_results, g->res);
    }
    free(g);
}

/* A run's results for keys the daemon passed on. */
static void query_relayed(pmix_status_t status, const pmix_info_t *info, size_t ninfo, void *arg)
{
    gathering_t *g = arg;
    for (size_t i = 0; i < ninfo && g->res->n < g->asked; i++) {
        if (PMIX_SUCCESS == PMIx_Info_xfer(&g->res->info[g->res->n], &info[i])) {
            g->res->n++;
        }
    }
    gathered(g);
}

/* Pass the keys of q the daemon does not know (keys, n of them) to the
 * run of the job q names. */
static void relay_keys(gathering_t *g, unsigned id, const pmix_query_t *q, char **keys, size_t n)
{
    if (0 == n || JOB_RUNNING != daemon_jobs_state(dp.host.jobs, id)) {
        return;
    }
    pmix_query_t fwd = {.keys = keys, .qualifiers = q->qualifiers, .nqual = q->nqual};
    keys[n] = NULL;
    if (PMIX_SUCCESS == daemon_relay_query(dp.host.jobs, dp.base, id, &fwd, query_relayed, g)) {
        g->waiting++;
    }
}

/* Whether the server library answers key itself (server/query.c): the
 * daemon's process sets, groups (its jobs' among them), attributes and
 * URI. The host is asked
 * every key all the same; it leaves these out, so that each key has one
 * result. */
static bool library_key(const char *key)
{
    static const char *const keys[] = {PMIX_QUERY_NUM_PSETS,         PMIX_QUERY_PSET_NAMES,
                                       PMIX_QUERY_PSET_MEMBERSHIP,   PMIX_QUERY_NUM_GROUPS,
                                       PMIX_QUERY_GROUP_NAMES,       PMIX_QUERY_GROUP_MEMBERSHIP,
                                       PMIX_QUERY_ATTRIBUTE_SUPPORT, PMIX_SERVER_URI};
    for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
        if (0 == strcmp(key, keys[i])) {
            return true;
        }
    }
    return false;
}

static void handle_query(call_t *c)
{
    gathering_t *g = gathering_new(c);
    for (size_t q = 0; NULL != g && q < c->nqueries; q++) {
        for (size_t k = 0; NULL != c->queries[q].keys && NULL != c->queries[q].keys[k]; k++) {
            g->asked += !library_key(c->queries[q].keys[k]);
        }
    }
    char **unknown = NULL == g ? NULL : calloc(g->asked + 1, sizeof(*unknown));
    if (NULL == unknown || NULL == (g->res = calloc(1, sizeof(*g->res))) ||
        (g->asked > 0 && NULL == (g->res->info = calloc(g->asked, sizeof(*g->res->info))))) {
        free(unknown);
        if (NULL != g) {
            free(g->res);
        }
        free(g);
        c->info_cb(PMIX_ERR_NOMEM, NULL, 0, c->cbdata, NULL, NULL);
        return;
    }
    results_t *res = g->res;
    for (size_t q = 0; q < c->nqueries; q++) {
        unsigned id = query_job(&c->queries[q]);
        size_t nunknown = 0;
        for (size_t k = 0; NULL != c->queries[q].keys && NULL != c->queries[q].keys[k]; k++) {
            if (library_key(c->queries[q].keys[k])) {
                continue;
            }
            pmix_info_t *out = &res->info[res->n];
            PMIX_INFO_CONSTRUCT(out);
            PMIX_LOAD_KEY(out->key, c->queries[q].keys[k]);
            pmix_status_t rc = answer(c->queries[q].keys[k], id, &out->value);
            if (PMIX_SUCCESS == rc) {
                res->n++;
                continue;
            }
            PMIX_INFO_DESTRUCT(out);
            if (PMIX_ERR_NOT_SUPPORTED == rc) {
                unknown[nunknown++] = c->queries[q].keys[k];
            }
        }
        /* What only the job's run knows (its size, process sets...). */
        relay_keys(g, id, &c->queries[q], unknown, nunknown);
    }
    free(unknown);
    gathered(g);
}

static pmix_status_t query(pmix_proc_t *proct, pmix_query_t *queries, size_t nqueries,
                           pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    if (0 == nqueries || NULL == queries) {
        return PMIX_ERR_BAD_PARAM;
    }
    call_t *c = call_new(handle_query, proct, NULL, 0, cbdata);
    if (NULL == c) {
        return PMIX_ERR_NOMEM;
    }
    c->info_cb = cbfunc;
    return post(with_copy(c, (void **)&c->queries, &c->nqueries, queries, nqueries, PMIX_QUERY));
}

/* ---- job control -------------------------------------------------------------- */

/* The signal the directives ask for: 0 when none, -1 when invalid. */
static int control_signal(const pmix_info_t *dirs, size_t ndirs)
{
    int sig = 0;
    for (size_t i = 0; i < ndirs; i++) {
        const pmix_info_t *d = &dirs[i];
        if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_KILL) && PMIX_INFO_TRUE(d)) {
            sig = SIGKILL;
        } else if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_TERMINATE) && PMIX_INFO_TRUE(d)) {
            sig = SIGTERM;
        } else if (PMIX_CHECK_KEY(d, PMIX_JOB_CTRL_SIGNAL)) {
            int64_t n;
            if (PMIX_SUCCESS != directive_integer(&d->value, &n) || n <= 0 || n >= NSIG) {
                return -1;
            }
            sig = (int)n;
        }
    }
    return sig;
}

/* Whether the directives are only kill, terminate and signal, which the
 * daemon carries out itself by signalling the jobs' runs (queued jobs
 * included). */
static bool signals_only(const pmix_info_t *dirs, size_t ndirs)
{
    for (size_t i = 0; i < ndirs; i++) {
        if (!PMIX_CHECK_KEY(&dirs[i], PMIX_JOB_CTRL_KILL) &&
            !PMIX_CHECK_KEY(&dirs[i], PMIX_JOB_CTRL_TERMINATE) &&
            !PMIX_CHECK_KEY(&dirs[i], PMIX_JOB_CTRL_SIGNAL)) {
            return false;
        }
    }
    return true;
}

static void signal_jobs(call_t *c)
{
    int sig = control_signal(c->info, c->ninfo);
    pmix_status_t rc = sig < 0 || 0 == c->nprocs ? PMIX_ERR_BAD_PARAM
                       : 0 == sig                ? PMIX_ERR_NOT_SUPPORTED
                                                 : PMIX_SUCCESS;
    for (size_t i = 0; PMIX_SUCCESS == rc && i < c->nprocs; i++) {
        unsigned id = daemon_jobs_find(dp.host.jobs, c->procs[i].nspace);
        const char *why;
        if (0 == id) {
            rc = PMIX_ERR_NOT_FOUND;
        } else if (0 != daemon_jobs_signal(dp.host.jobs, id, sig, &why)) {
            rc = JOB_ENDED == daemon_jobs_state(dp.host.jobs, id) ? PMIX_ERR_NOT_AVAILABLE
                                                                  : PMIX_ERROR;
        }
    }
    c->info_cb(rc, NULL, 0, c->cbdata, NULL, NULL);
}

static void control_relayed(pmix_status_t status, const pmix_info_t *info, size_t ninfo, void *arg)
{
    gathering_t *g = arg;
    if (PMIX_SUCCESS == g->status) {
        g->status = status;
    }
    gathered(g);
}

/* Other directives (pause, resume, checkpoint, preemptible...) go to
 * each target's run, which carries them out with control.c and answers
 * its status; the first failure is the tool's answer. */
static void relay_control(call_t *c)
{
    gathering_t *g = 0 == c->nprocs ? NULL : gathering_new(c);
    if (NULL == g) {
        c->info_cb(0 == c->nprocs ? PMIX_ERR_BAD_PARAM : PMIX_ERR_NOMEM, NULL, 0, c->cbdata, NULL,
                   NULL);
        return;
    }
    for (size_t i = 0; i < c->nprocs && PMIX_SUCCESS == g->status; i++) {
        unsigned id = daemon_jobs_find(dp.host.jobs, c->procs[i].nspace);
        daemon_job_state_t state = daemon_jobs_state(dp.host.jobs, id);
        g->status = JOB_NONE == state ? PMIX_ERR_NOT_FOUND
                    : JOB_RUNNING != state
                        ? PMIX_ERR_NOT_AVAILABLE
                        : daemon_relay_control(dp.host.jobs, dp.base, id, &c->procs[i], 1, c->info,
                                               c->ninfo, control_relayed, g);
        g->waiting += PMIX_SUCCESS == g->status;
    }
    gathered(g);
}

static void handle_job_control(call_t *c)
{
    if (signals_only(c->info, c->ninfo)) {
        signal_jobs(c);
    } else {
        relay_control(c);
    }
}

static pmix_status_t job_control(const pmix_proc_t *requestor, const pmix_proc_t targets[],
                                 size_t ntargets, const pmix_info_t directives[], size_t ndirs,
                                 pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    call_t *c = call_new(handle_job_control, requestor, directives, ndirs, cbdata);
    if (NULL != c) {
        c->info_cb = cbfunc;
        if (ntargets > 0 && NULL != targets) {
            if (NULL == (c->procs = malloc(ntargets * sizeof(*targets)))) {
                call_free(c);
                return PMIX_ERR_NOMEM;
            }
            memcpy(c->procs, targets, ntargets * sizeof(*targets));
            c->nprocs = ntargets;
        }
    }
    return post(c);
}

/* The jobs an event is about: its custom range, else its affected
 * process(es). */
static const pmix_proc_t *event_targets(const pmix_info_t *info, size_t ninfo, size_t *n)
{
    static const char *const keys[] = {PMIX_EVENT_CUSTOM_RANGE, PMIX_EVENT_AFFECTED_PROCS,
                                       PMIX_EVENT_AFFECTED_PROC};
    for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++) {
        const pmix_value_t *v = directive_find(info, ninfo, keys[k]);
        if (NULL != v && PMIX_PROC == v->type && NULL != v->data.proc) {
            *n = 1;
            return v->data.proc;
        }
        if (NULL != v && PMIX_DATA_ARRAY == v->type && NULL != v->data.darray &&
            PMIX_PROC == v->data.darray->type) {
            *n = v->data.darray->size;
            return v->data.darray->array;
        }
    }
    *n = 0;
    return NULL;
}

static void handle_release(call_t *c)
{
    char rank[16];
    for (size_t i = 0; i < c->nprocs; i++) {
        unsigned id = daemon_jobs_find(dp.host.jobs, c->procs[i].nspace);
        if (PMIX_RANK_WILDCARD == c->procs[i].rank) {
            strcpy(rank, "*");
        } else {
            snprintf(rank, sizeof(rank), "%u", c->procs[i].rank);
        }
        if (0 != id) {
            daemon_jobs_release(dp.host.jobs, id, rank);
        }
    }
    /* Naming none, it is for every held process. */
    for (unsigned id = 1; 0 == c->nprocs && JOB_NONE != daemon_jobs_state(dp.host.jobs, id); id++) {
        daemon_jobs_release(dp.host.jobs, id, "*");
    }
}

/* Tools' events: a debugger's release goes to the runs of the jobs it
 * names (their ranks wait for it); nothing else reaches beyond the
 * tools, which the library has served. */
static pmix_status_t notify_event(pmix_status_t code, const pmix_proc_t *source,
                                  pmix_data_range_t range, pmix_info_t info[], size_t ninfo,
                                  pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    size_t n;
    const pmix_proc_t *targets = event_targets(info, ninfo, &n);
    call_t *c =
        PMIX_DEBUGGER_RELEASE == code ? call_new(handle_release, source, NULL, 0, NULL) : NULL;
    if (NULL != c && 0 == n) {
        post(c);
    } else if (NULL != c && NULL != (c->procs = malloc(n * sizeof(*targets)))) {
        memcpy(c->procs, targets, n * sizeof(*targets));
        c->nprocs = n;
        post(c);
    } else if (NULL != c) {
        call_free(c);
    }
    cbfunc(PMIX_SUCCESS, cbdata);
    return PMIX_SUCCESS;
}

static pmix_server_module_t module = {
    .spawn = spawn,
    .query = query,
    .job_control = job_control,
    .notify_event = notify_event,
};

/* ---- events and output ------------------------------------------------------- */

static void info_free(pmix_status_t status, void *cbdata)
{
    pmix_info_t *info = cbdata;
    PMIX_INFO_FREE(info, 3);
}

static void raise_event(pmix_status_t code, const char *nspace, int status)
{
    pmix_proc_t job;
    pmix_info_t *info;
    pmix_status_t term = 0 == status    ? PMIX_SUCCESS
                         : status > 128 ? PMIX_ERR_JOB_ABORTED_BY_SIG
                                        : PMIX_ERR_JOB_NON_ZERO_TERM;

    PMIX_LOAD_PROCID(&job, nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_CREATE(info, 3);
    if (NULL == info) {
        return;
    }
    PMIX_INFO_LOAD(&info[0], PMIX_EVENT_AFFECTED_PROC, &job, PMIX_PROC);
    PMIX_INFO_LOAD(&info[1], PMIX_JOB_TERM_STATUS, &term, PMIX_STATUS);
    PMIX_INFO_LOAD(&info[2], PMIX_EXIT_CODE, &status, PMIX_INT);
    if (PMIX_SUCCESS !=
        PMIx_Notify_event(code, &dp.me, PMIX_RANGE_SESSION, info, 3, info_free, info)) {
        PMIX_INFO_FREE(info, 3);
    }
}

void daemon_pmix_job_ready(unsigned id, unsigned rank, const char *breakpoint)
{
    const char *nspace = daemon_jobs_nspace(dp.host.jobs, id);
    pmix_proc_t proc;
    pmix_info_t *info;
    if (!dp.up || NULL == nspace) {
        return;
    }
    PMIX_LOAD_PROCID(&proc, nspace, rank);
    PMIX_INFO_CREATE(info, 3);
    if (NULL == info) {
        return;
    }
    PMIX_INFO_LOAD(&info[0], PMIX_BREAKPOINT, breakpoint, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_EVENT_NON_DEFAULT, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[2], PMIX_EVENT_AFFECTED_PROC, &proc, PMIX_PROC);
    /* The server passes it to every tool (server/notify.c). */
    if (PMIX_SUCCESS !=
        PMIx_Notify_event(PMIX_READY_FOR_DEBUG, &proc, PMIX_RANGE_RM, info, 3, info_free, info)) {
        PMIX_INFO_FREE(info, 3);
    }
}

void daemon_pmix_job_ended(unsigned id, int status)
{
    const char *nspace = daemon_jobs_nspace(dp.host.jobs, id);
    if (!dp.up || NULL == nspace) {
        return;
    }
    daemon_relay_job_ended(id);
    daemon_groups_job_ended(id);
    raise_event(PMIX_EVENT_JOB_END, nspace, status);
    if (0 != status) {
        raise_event(status > 128 ? PMIX_ERR_JOB_ABORTED_BY_SIG : PMIX_ERR_JOB_NON_ZERO_TERM, nspace,
                    status);
    }
}

static void delivered(pmix_status_t status, void *cbdata)
{
    pmix_byte_object_t *bo = cbdata;
    PMIX_BYTE_OBJECT_FREE(bo, 1);
}

/* Where a piece of job id's output comes from: the job's namespace
 * ("...-0") or, for a job its ranks spawned, "...-<index>"; the rank, or
 * the wildcard for what the run wrote itself. False for no such job. */
static bool output_source(unsigned id, const daemon_output_piece_t *piece, pmix_proc_t *source)
{
    const char *nspace = daemon_jobs_nspace(dp.host.jobs, id);
    char name[PMIX_MAX_NSLEN + 16];
    if (NULL == nspace) {
        return false;
    }
    snprintf(name, sizeof(name), "%.*s%u", (int)strlen(nspace) - 1, nspace, piece->job);
    PMIX_LOAD_PROCID(source, name,
                     DAEMON_OUTPUT_RUN == piece->rank ? PMIX_RANK_WILDCARD : piece->rank);
    return true;
}

void daemon_pmix_output(unsigned id, const daemon_output_piece_t *piece)
{
    pmix_byte_object_t *bo;
    pmix_proc_t source;

    if (!dp.up || 0 == piece->len || !output_source(id, piece, &source)) {
        return;
    }
    PMIX_BYTE_OBJECT_CREATE(bo, 1);
    if (NULL == bo || NULL == (bo->bytes = malloc(piece->len))) {
        free(bo);
        return;
    }
    memcpy(bo->bytes, piece->bytes, piece->len);
    bo->size = piece->len;
    if (PMIX_SUCCESS !=
        PMIx_server_IOF_deliver(&source,
                                1 == piece->fd ? PMIX_FWD_STDOUT_CHANNEL : PMIX_FWD_STDERR_CHANNEL,
                                bo, NULL, 0, delivered, bo)) {
        PMIX_BYTE_OBJECT_FREE(bo, 1);
    }
}

/* ---- start and stop ------------------------------------------------------------ */

/* pmix.sys.<host> in the state directory, written whole under another
 * name first so that a tool never reads half of it. 0 or -1. */
static int write_rendezvous(int dirfd, const char *uri)
{
    char tmp[320], *text = NULL;
    time_t now = time(NULL);
    if (0 != statedir_system_name(dp.rendezvous, sizeof(dp.rendezvous))) {
        return -1;
    }
    snprintf(tmp, sizeof(tmp), ".%s.new", dp.rendezvous);
    int n = asprintf(&text, "%s\n4.2.2\n%d\n%u:%u\n%s", uri, (int)getpid(), (unsigned)geteuid(),
                     (unsigned)getegid(), ctime(&now));
    int fd = n < 0
                 ? -1
                 : openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    int rc = fd >= 0 && n == write(fd, text, (size_t)n) ? 0 : -1;
    if (fd >= 0) {
        close(fd);
    }
    free(n < 0 ? NULL : text);
    if (0 == rc) {
        rc = renameat(dirfd, tmp, dirfd, dp.rendezvous);
    }
    if (0 != rc) {
        unlinkat(dirfd, tmp, 0);
        dp.rendezvous[0] = '\0';
    }
    return rc;
}

int daemon_pmix_start(const daemon_pmix_host_t *host, struct event_base *base, int dirfd,
                      const char *nspace)
{
    pmix_info_t info[4];
    pmix_rank_t rank = 0;

    dp.host = *host;
    dp.base = base;
    PMIX_LOAD_PROCID(&dp.me, nspace, rank);
    if (PMIX_SUCCESS != eventq_open(&dp.posts) ||
        NULL == (dp.wake = event_new(base, dp.posts.fd, EV_READ | EV_PERSIST, on_wake, NULL)) ||
        0 != event_add(dp.wake, NULL)) {
        fprintf(stderr, DAEMON_NAME ": cannot set up the PMIx server's queue\n");
        return -1;
    }
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_TMPDIR, host->dir, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_SERVER_NSPACE, nspace, PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_RANK, &rank, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&info[3], DROVER_SERVER_REFUSAL_LOG, &host->logfd, PMIX_INT);
    pmix_status_t rc = PMIx_server_init(&module, info, 4);
    for (size_t i = 0; i < 4; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, DAEMON_NAME ": cannot start the PMIx server: %s\n", PMIx_Error_string(rc));
        return -1;
    }
    dp.up = true;
    pmix_value_t *uri = NULL;
    pmix_proc_t me = dp.me;
    rc = PMIx_Get(&me, PMIX_SERVER_URI, NULL, 0, &uri);
    if (PMIX_SUCCESS != rc || PMIX_STRING != uri->type ||
        0 != write_rendezvous(dirfd, uri->data.string)) {
        fprintf(stderr, DAEMON_NAME ": cannot write the PMIx rendezvous in %s\n", host->dir);
        if (NULL != uri) {
            PMIX_VALUE_RELEASE(uri);
        }
        return -1;
    }
    PMIX_VALUE_RELEASE(uri);
    return 0;
}

void daemon_pmix_refuse_spawns(void)
{
    dp.stopping = true;
}

void daemon_pmix_stop(int dirfd)
{
    if ('\0' != dp.rendezvous[0]) {
        unlinkat(dirfd, dp.rendezvous, 0);
        dp.rendezvous[0] = '\0';
    }
    if (dp.up) {
        /* Tools waiting for a run get their answer while they can. */
        daemon_relay_cancel();
        daemon_groups_forget();
        PMIx_server_finalize();
        dp.up = false;
    }
    /* What the library posted and the loop never ran is dropped. */
    eventq_close(&dp.posts);
    if (NULL != dp.wake) {
        event_free(dp.wake);
        dp.wake = NULL;
    }
}
