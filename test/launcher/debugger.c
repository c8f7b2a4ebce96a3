/*
 * debugger.c - a debugger's side of the PMIx debugging protocol, built
 * against OpenPMIx's own headers and run against drover's libpmix.so.2.
 * It attaches as a tool to a running `drover run` (PMIX_SERVER_PIDINFO):
 *
 *   debugger PID init|rank|exec|app   spawn 2 ranks of `$CLIENT debug`
 *                                     stopped in PMIx_Init (all, or rank 1
 *                                     only), at exec or in the application;
 *                                     check they announce PMIX_READY_FOR_DEBUG
 *                                     and wait, release them, see them end
 *   debugger PID release              send PMIX_DEBUGGER_RELEASE to every
 *                                     process of the run
 *
 * $OUT is drover's stdout, where the ranks print "after-init NS RANK" and
 * "released NS RANK". Prints "ok"/"not ok" lines; exit 0 if all passed.
 */
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pmix_tool.h>

#define NRANKS 2

static int failures;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static char job[PMIX_MAX_NSLEN + 1];   /* the spawned job, once known */
static pmix_proc_t ready[16];          /* READY_FOR_DEBUG sources */
static char breakpoint[16][32];
static size_t nready;
static char ended[PMIX_MAX_NSLEN + 1];

static void check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void check(bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s - ", ok ? "ok" : "not ok");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    failures += !ok;
}

static void on_ready(size_t id, pmix_status_t status, const pmix_proc_t *source,
                     pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    pthread_mutex_lock(&lock);
    if (nready < 16) {
        ready[nready] = *source;
        breakpoint[nready][0] = '\0';
        for (size_t i = 0; i < ninfo; i++) {
            if (PMIX_CHECK_KEY(&info[i], PMIX_BREAKPOINT) && PMIX_STRING == info[i].value.type) {
                snprintf(breakpoint[nready], sizeof(breakpoint[0]), "%s",
                         info[i].value.data.string);
            }
        }
        nready++;
    }
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void on_end(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                   size_t ninfo, pmix_info_t results[], size_t nresults,
                   pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    pthread_mutex_lock(&lock);
    snprintf(ended, sizeof(ended), "%s", source->nspace);
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

/* The announcements from the spawned job so far (lock held). */
static size_t ready_from_job(void)
{
    size_t n = 0;
    for (size_t i = 0; i < nready; i++) {
        n += PMIX_CHECK_NSPACE(ready[i].nspace, job);
    }
    return n;
}

static bool wait_until(bool (*done)(void), int seconds)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += seconds;
    pthread_mutex_lock(&lock);
    bool ok = done();
    while (!ok && 0 == pthread_cond_timedwait(&cond, &lock, &until)) {
        ok = done();
    }
    ok = done();
    pthread_mutex_unlock(&lock);
    return ok;
}

static size_t expected_ready;
static bool all_ready(void)
{
    return ready_from_job() >= expected_ready;
}

static bool job_ended(void)
{
    return PMIX_CHECK_NSPACE(ended, job);
}

/* Whether drover's output has the line "WHAT JOB RANK". */
static bool printed(const char *what, pmix_rank_t rank)
{
    char line[512], want[512];
    bool found = false;
    FILE *f = fopen(getenv("OUT"), "r");
    snprintf(want, sizeof(want), "%s %s %u", what, job, rank);
    while (NULL != f && !found && NULL != fgets(line, sizeof(line), f)) {
        found = NULL != strstr(line, want);
    }
    if (NULL != f) {
        fclose(f);
    }
    return found;
}

static bool appears(const char *what, pmix_rank_t rank)
{
    for (int i = 0; i < 400 && !printed(what, rank); i++) {
        usleep(25000);
    }
    return printed(what, rank);
}

/* The state letter of /proc/PID/stat ('S', 'T', ...), or '?'. */
static char proc_state(pid_t pid)
{
    char path[64], text[512];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    size_t n = NULL == f ? 0 : fread(text, 1, sizeof(text) - 1, f);
    if (NULL != f) {
        fclose(f);
    }
    text[n] = '\0';
    const char *paren = strrchr(text, ')');
    return NULL != paren && ' ' == paren[1] ? paren[2] : '?';
}

/* The pids of the job's ranks, from PMIX_QUERY_PROC_TABLE. */
static bool proc_table(pid_t pids[NRANKS])
{
    pmix_query_t q;
    pmix_info_t *res = NULL;
    size_t n = 0;
    pmix_status_t rc;
    bool ok = false;
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_PROC_TABLE);
    PMIX_QUERY_QUALIFIERS_CREATE(&q, 1);
    PMIX_INFO_LOAD(&q.qualifiers[0], PMIX_NSPACE, job, PMIX_STRING);
    rc = PMIx_Query_info(&q, 1, &res, &n);
    if (PMIX_SUCCESS == rc && 1 == n && PMIX_DATA_ARRAY == res[0].value.type &&
        NRANKS == res[0].value.data.darray->size) {
        pmix_proc_info_t *table = res[0].value.data.darray->array;
        for (size_t i = 0; i < NRANKS; i++) {
            pids[table[i].proc.rank % NRANKS] = table[i].pid;
        }
        ok = true;
    }
    check(ok, "the process table of %s (%s)", job, PMIx_Error_string(rc));
    PMIX_INFO_FREE(res, n);
    PMIX_QUERY_DESTRUCT(&q);
    return ok;
}

static bool sent;
static bool was_sent(void)
{
    return sent;
}

static void on_sent(pmix_status_t status, void *cbdata)
{
    pthread_mutex_lock(&lock);
    sent = true;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
}

/* Send PMIX_DEBUGGER_RELEASE and wait until the server has it. */
static void send_release(pmix_data_range_t range, pmix_info_t *info, size_t ninfo,
                         const char *what)
{
    sent = false;
    pmix_status_t rc =
        PMIx_Notify_event(PMIX_DEBUGGER_RELEASE, NULL, range, info, ninfo, on_sent, NULL);
    check(PMIX_SUCCESS == rc && wait_until(was_sent, 10), "release %s (%s)", what,
          PMIx_Error_string(rc));
}

static void release(pmix_rank_t rank)
{
    pmix_proc_t target;
    pmix_info_t range;
    PMIX_LOAD_PROCID(&target, job, rank);
    PMIX_INFO_LOAD(&range, PMIX_EVENT_CUSTOM_RANGE, &target, PMIX_PROC);
    send_release(PMIX_RANGE_CUSTOM, &range, 1, PMIX_RANK_WILDCARD == rank ? "the job" : "a rank");
    PMIX_INFO_DESTRUCT(&range);
}

/* Spawn the ranks with key naming stop_rank (WILDCARD: true), or with a
 * value of a type no debugger directive has (bad). */
static pmix_status_t spawn(const char *key, pmix_rank_t stop_rank, bool bad)
{
    pmix_app_t app;
    pmix_info_t info[2];
    bool all = true;
    PMIX_APP_CONSTRUCT(&app);
    app.cmd = strdup(getenv("CLIENT"));
    pmix_status_t rc;
    PMIX_ARGV_APPEND(rc, app.argv, app.cmd);
    PMIX_ARGV_APPEND(rc, app.argv, "debug");
    app.maxprocs = NRANKS;
    if (bad) {
        PMIX_INFO_LOAD(&info[0], key, "all", PMIX_STRING);
    } else if (PMIX_RANK_WILDCARD == stop_rank) {
        PMIX_INFO_LOAD(&info[0], key, &all, PMIX_BOOL);
    } else {
        PMIX_INFO_LOAD(&info[0], key, &stop_rank, PMIX_PROC_RANK);
    }
    PMIX_INFO_LOAD(&info[1], PMIX_NOTIFY_COMPLETION, &all, PMIX_BOOL);
    rc = PMIx_Spawn(info, 2, &app, 1, job);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIX_APP_DESTRUCT(&app);
    return rc;
}

/* One scenario: which directive, which rank it names (WILDCARD: all), the
 * breakpoint announced, the state of a waiting rank and the line it
 * prints once released. */
static void scenario(const char *key, pmix_rank_t stop_rank, const char *bkpt, char state,
                     const char *after)
{
    pid_t pids[NRANKS] = {0};
    pmix_status_t rc = spawn(key, stop_rank, false);
    check(PMIX_SUCCESS == rc, "spawn with %s (%s): %s", key, PMIx_Error_string(rc), job);
    if (PMIX_SUCCESS != rc) {
        return;
    }
    expected_ready = PMIX_RANK_WILDCARD == stop_rank ? NRANKS : 1;
    check(wait_until(all_ready, 10), "%zu rank(s) announce PMIX_READY_FOR_DEBUG",
          expected_ready);
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nready; i++) {
        if (PMIX_CHECK_NSPACE(ready[i].nspace, job)) {
            check((PMIX_RANK_WILDCARD == stop_rank || ready[i].rank == stop_rank) &&
                      0 == strcmp(breakpoint[i], bkpt),
                  "ready: rank %u at breakpoint '%s'", ready[i].rank, breakpoint[i]);
        }
    }
    pthread_mutex_unlock(&lock);
    if (!proc_table(pids)) {
        return;
    }
    if (PMIX_RANK_WILDCARD != stop_rank) {
        check(appears(after, 1 - stop_rank), "the rank not named runs on");
    }
    /* Time to run on, were they not held. */
    usleep(300000);
    for (pmix_rank_t r = 0; r < NRANKS; r++) {
        if (PMIX_RANK_WILDCARD == stop_rank || r == stop_rank) {
            char s = proc_state(pids[r]);
            check(s == state && !printed(after, r), "rank %u (pid %d) waits: state %c", r,
                  (int)pids[r], s);
        }
    }
    if ('T' == state) {
        /* A debugger may continue a process itself, or ask the launcher. */
        release(0);
        check(0 == kill(pids[1], SIGCONT), "SIGCONT to rank 1");
    } else {
        release(PMIX_RANK_WILDCARD == stop_rank ? PMIX_RANK_WILDCARD : stop_rank);
    }
    for (pmix_rank_t r = 0; r < NRANKS; r++) {
        check(appears(after, r), "rank %u released: '%s' printed", r, after);
    }
    check(wait_until(job_ended, 10), "the job ends");
}

static int attach(const char *pid_text)
{
    pmix_proc_t me;
    pmix_info_t info;
    pid_t pid = (pid_t)atoi(pid_text);
    PMIX_INFO_LOAD(&info, PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
    pmix_status_t rc = PMIx_tool_init(&me, &info, 1);
    check(PMIX_SUCCESS == rc, "attach to drover run (pid %d): %s", (int)pid,
          PMIx_Error_string(rc));
    return PMIX_SUCCESS == rc ? 0 : 1;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 3 || NULL == getenv("OUT") || NULL == getenv("CLIENT")) {
        fprintf(stderr, "usage: debugger PID MODE... (with OUT, CLIENT)\n");
        return 2;
    }
    if (0 != attach(argv[1])) {
        return 1;
    }
    pmix_status_t ready_code = PMIX_READY_FOR_DEBUG, end_code = PMIX_EVENT_JOB_END;
    check(PMIx_Register_event_handler(&ready_code, 1, NULL, 0, on_ready, NULL, NULL) >= 0 &&
              PMIx_Register_event_handler(&end_code, 1, NULL, 0, on_end, NULL, NULL) >= 0,
          "register the handlers");
    for (int a = 2; a < argc; a++) {
        const char *mode = argv[a];
        if (0 == strcmp(mode, "release")) {
            send_release(PMIX_RANGE_SESSION, NULL, 0, "everything");
        } else if (0 == strcmp(mode, "bad")) {
            pmix_status_t rc = spawn(PMIX_DEBUG_STOP_ON_EXEC, 0, true);
            check(PMIX_ERR_BAD_PARAM == rc, "a directive of a wrong type is refused (%s)",
                  PMIx_Error_string(rc));
        } else if (0 == strcmp(mode, "init")) {
            scenario(PMIX_DEBUG_STOP_IN_INIT, PMIX_RANK_WILDCARD, "pmix-init", 'S', "after-init");
        } else if (0 == strcmp(mode, "rank")) {
            scenario(PMIX_DEBUG_STOP_IN_INIT, 1, "pmix-init", 'S', "after-init");
        } else if (0 == strcmp(mode, "exec")) {
            scenario(PMIX_DEBUG_STOP_ON_EXEC, PMIX_RANK_WILDCARD, "exec", 'T', "after-init");
        } else if (0 == strcmp(mode, "app")) {
            scenario(PMIX_DEBUG_STOP_IN_APP, PMIX_RANK_WILDCARD, "app", 'S', "released");
        } else {
            check(false, "unknown mode %s", mode);
        }
    }
    PMIx_tool_finalize();
    return failures > 0 ? 1 : 0;
}
