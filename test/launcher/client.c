/*
 * client.c - a PMIx client the launcher tests start under `drover run`.
 *
 * `client MODE [args]`: each mode exercises one launcher behaviour and
 * prints "ok - ..." / "not ok - ..." lines; the exit status is 0 only when
 * every check passed (or what the mode is about: an exit code, an abort).
 * Modes that must not finish on their own sleep until killed.
 */
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sched.h>
#include <unistd.h>

#include "pmix.h"

static pmix_proc_t me;
static int failures;

static void check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void check(bool ok, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    printf("%s - rank %u: %s\n", ok ? "ok" : "not ok", me.rank, text);
    fflush(stdout);
    failures += !ok;
}

static void init(void)
{
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (PMIX_SUCCESS != rc) {
        printf("not ok - PMIx_Init: %s\n", PMIx_Error_string(rc));
        exit(3);
    }
}

static int finish(void)
{
    pmix_status_t rc = PMIx_Finalize(NULL, 0);
    check(PMIX_SUCCESS == rc, "PMIx_Finalize");
    return failures > 0 ? 1 : 0;
}

/* PMIx_Get of key about (nspace, rank) that must have type; returns the
 * value (caller frees) or NULL after a failed check. */
static pmix_value_t *get_typed(const char *nspace, pmix_rank_t rank, const char *key,
                               pmix_data_type_t type)
{
    pmix_proc_t who;
    PMIX_LOAD_PROCID(&who, nspace, rank);
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(&who, key, NULL, 0, &v);
    if (PMIX_SUCCESS != rc) {
        check(false, "get %s: %s", key, PMIx_Error_string(rc));
        return NULL;
    }
    if (v->type != type) {
        check(false, "get %s: type %s, expected %s", key, PMIx_Data_type_string(v->type),
              PMIx_Data_type_string(type));
        PMIX_VALUE_RELEASE(v);
        return NULL;
    }
    return v;
}

static void expect_u32(pmix_rank_t rank, const char *key, uint32_t want)
{
    pmix_value_t *v = get_typed(me.nspace, rank, key, PMIX_UINT32);
    if (NULL != v) {
        check(want == v->data.uint32, "%s = %u (want %u)", key, v->data.uint32, want);
        PMIX_VALUE_RELEASE(v);
    }
}

static void expect_u16(const char *key, uint16_t want)
{
    pmix_value_t *v = get_typed(me.nspace, me.rank, key, PMIX_UINT16);
    if (NULL != v) {
        check(want == v->data.uint16, "%s = %u (want %u)", key, v->data.uint16, want);
        PMIX_VALUE_RELEASE(v);
    }
}

static void expect_rank(pmix_rank_t rank, const char *key, pmix_rank_t want)
{
    pmix_value_t *v = get_typed(me.nspace, rank, key, PMIX_PROC_RANK);
    if (NULL != v) {
        check(want == v->data.rank, "%s = %u (want %u)", key, v->data.rank, want);
        PMIX_VALUE_RELEASE(v);
    }
}

/* A string key; returns it (caller frees) for further checks. */
static char *expect_string(pmix_rank_t rank, const char *key)
{
    pmix_value_t *v = get_typed(me.nspace, rank, key, PMIX_STRING);
    char *s = NULL;
    if (NULL != v) {
        s = strdup(v->data.string);
        check(NULL != s && '\0' != s[0], "%s = '%s'", key, s);
        PMIX_VALUE_RELEASE(v);
    }
    return s;
}

static void expect_bool(pmix_rank_t rank, const char *key, bool want)
{
    pmix_value_t *v = get_typed(me.nspace, rank, key, PMIX_BOOL);
    if (NULL != v) {
        check(want == v->data.flag, "%s = %d", key, v->data.flag);
        PMIX_VALUE_RELEASE(v);
    }
}

/* Keys a server may consume rather than store (OpenPMIx turns the maps
 * into its own tables, and PMIX_RANK names a proc-data array): if present,
 * they must have their type. */
static void optional_type(pmix_rank_t rank, const char *key, pmix_data_type_t type)
{
    pmix_proc_t who;
    PMIX_LOAD_PROCID(&who, me.nspace, rank);
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(&who, key, NULL, 0, &v);
    check(PMIX_ERR_NOT_FOUND == rc || (PMIX_SUCCESS == rc && type == v->type),
          "%s absent or of type %s", key, PMIx_Data_type_string(type));
    if (PMIX_SUCCESS == rc) {
        PMIX_VALUE_RELEASE(v);
    }
}

static bool is_dir(const char *path)
{
    struct stat st;
    return NULL != path && 0 == stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Every key issue 3 lists, with its type; size is -n, spawned as given. */
static int mode_info(int argc, char **argv)
{
    init();
    uint32_t size = (uint32_t)atoi(argv[2]);
    bool spawned = argc > 3 && 0 == strcmp(argv[3], "spawned");
    expect_u32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, size);
    expect_u32(PMIX_RANK_WILDCARD, PMIX_LOCAL_SIZE, size);
    pmix_value_t *v = get_typed(me.nspace, PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE, PMIX_UINT32);
    check(NULL != v && v->data.uint32 >= size, "univ size >= job size");
    PMIX_VALUE_RELEASE(v);
    v = get_typed(me.nspace, PMIX_RANK_WILDCARD, PMIX_MAX_PROCS, PMIX_UINT32);
    check(NULL != v && v->data.uint32 >= size, "max procs >= job size");
    PMIX_VALUE_RELEASE(v);
    v = get_typed(me.nspace, PMIX_RANK_WILDCARD, PMIX_NODE_SIZE, PMIX_UINT32);
    check(NULL != v && v->data.uint32 >= size, "node size >= job size");
    PMIX_VALUE_RELEASE(v);
    expect_u32(PMIX_RANK_WILDCARD, PMIX_NUM_NODES, 1);
    expect_u32(me.rank, PMIX_APPNUM, 0);
    expect_u32(PMIX_RANK_WILDCARD, PMIX_APP_SIZE, size);
    expect_rank(PMIX_RANK_WILDCARD, PMIX_APPLDR, 0);
    expect_rank(PMIX_RANK_WILDCARD, PMIX_LOCALLDR, 0);
    optional_type(me.rank, PMIX_RANK, PMIX_PROC_RANK);
    expect_rank(me.rank, PMIX_APP_RANK, me.rank);
    v = get_typed(me.nspace, me.rank, PMIX_GLOBAL_RANK, PMIX_PROC_RANK);
    check(NULL != v && v->data.rank >= me.rank, "global rank >= rank");
    PMIX_VALUE_RELEASE(v);
    expect_u16(PMIX_LOCAL_RANK, (uint16_t)me.rank);
    v = get_typed(me.nspace, me.rank, PMIX_NODE_RANK, PMIX_UINT16);
    check(NULL != v && v->data.uint16 >= me.rank, "node rank >= rank");
    PMIX_VALUE_RELEASE(v);
    expect_u32(me.rank, PMIX_NODEID, 0);
    char *s = expect_string(PMIX_RANK_WILDCARD, PMIX_JOBID);
    check(NULL != s && 0 == strcmp(s, me.nspace), "jobid is the namespace");
    free(s);
    char *peers = expect_string(PMIX_RANK_WILDCARD, PMIX_LOCAL_PEERS);
    char want[4096] = "";
    for (uint32_t r = 0; r < size && r < 300; r++) {
        snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%u", r ? "," : "", r);
    }
    check(NULL != peers && 0 == strcmp(peers, want), "local peers are 0..%u", size - 1);
    free(peers);
    char host[256] = "";
    gethostname(host, sizeof(host) - 1);
    s = expect_string(me.rank, PMIX_HOSTNAME);
    check(NULL != s && 0 == strcmp(s, host), "hostname is this host's");
    free(s);
    optional_type(PMIX_RANK_WILDCARD, PMIX_NODE_MAP, PMIX_STRING);
    optional_type(PMIX_RANK_WILDCARD, PMIX_PROC_MAP, PMIX_STRING);
    free(expect_string(PMIX_RANK_WILDCARD, PMIX_NODE_LIST));
    char *tmpdir = expect_string(PMIX_RANK_WILDCARD, PMIX_TMPDIR);
    char *nsdir = expect_string(PMIX_RANK_WILDCARD, PMIX_NSDIR);
    char *procdir = expect_string(me.rank, PMIX_PROCDIR);
    check(is_dir(tmpdir) && is_dir(nsdir) && is_dir(procdir), "session directories exist");
    check(NULL != nsdir && NULL != tmpdir && 0 == strncmp(nsdir, tmpdir, strlen(tmpdir)),
          "nsdir is inside tmpdir");
    const char *env_tmp = getenv("TMPDIR");
    check(NULL != tmpdir && NULL != env_tmp && 0 == strncmp(tmpdir, env_tmp, strlen(env_tmp)),
          "tmpdir is under $TMPDIR");
    free(tmpdir);
    free(nsdir);
    free(procdir);
    expect_bool(PMIX_RANK_WILDCARD, PMIX_TDIR_RMCLEAN, true);
    expect_bool(PMIX_RANK_WILDCARD, PMIX_SPAWNED, spawned);
    free(expect_string(me.rank, PMIX_LOCALITY_STRING));
    char *cpuset = expect_string(me.rank, PMIX_CPUSET);
    free(cpuset);
    if (spawned) {
        pmix_proc_t who;
        PMIX_LOAD_PROCID(&who, me.nspace, PMIX_RANK_WILDCARD);
        pmix_value_t *p = NULL;
        pmix_status_t rc = PMIx_Get(&who, PMIX_PARENT_ID, NULL, 0, &p);
        check(PMIX_SUCCESS == rc && PMIX_PROC == p->type, "parent id is a proc");
        if (PMIX_SUCCESS == rc) {
            printf("parent %s.%u\n", p->data.proc->nspace, p->data.proc->rank);
            PMIX_VALUE_RELEASE(p);
        }
        /* The parent's working directory, which its spawn sent. */
        char cwd[4096];
        const char *dir = getenv("DROVER_SPAWN_CWD");
        check(NULL != dir && NULL != getcwd(cwd, sizeof(cwd)) && 0 == strcmp(cwd, dir),
              "started in the parent's working directory %s", NULL != dir ? dir : "(unset)");
    }
    /* The peers' locality strings, as Open MPI reads them. */
    for (uint32_t r = 0; r < size && r < 4; r++) {
        free(expect_string(r, PMIX_LOCALITY_STRING));
    }
    return finish();
}

/* `univ N`: PMIX_UNIV_SIZE and PMIX_MAX_PROCS are N (the test runs more
 * ranks than slots, so N is the job size). */
static int mode_univ(int argc, char **argv)
{
    init();
    uint32_t n = (uint32_t)atoi(argv[2]);
    expect_u32(PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE, n);
    expect_u32(PMIX_RANK_WILDCARD, PMIX_MAX_PROCS, n);
    return finish();
}

/* `app NAME VAR...`: one line "rank R app NAME appnum A size S wdir W
 * VAR=value..." (value "-" when unset), from PMIx_Get and the process. */
static int mode_app(int argc, char **argv)
{
    init();
    pmix_value_t *num = get_typed(me.nspace, me.rank, PMIX_APPNUM, PMIX_UINT32);
    pmix_value_t *size = get_typed(me.nspace, me.rank, PMIX_APP_SIZE, PMIX_UINT32);
    char cwd[4096], line[8192];
    int len = snprintf(line, sizeof(line), "rank %u app %s appnum %d size %d wdir %s", me.rank,
                       argv[2], NULL == num ? -1 : (int)num->data.uint32,
                       NULL == size ? -1 : (int)size->data.uint32,
                       NULL == getcwd(cwd, sizeof(cwd)) ? "?" : cwd);
    for (int i = 3; i < argc && len > 0 && (size_t)len < sizeof(line); i++) {
        const char *v = getenv(argv[i]);
        len += snprintf(line + len, sizeof(line) - (size_t)len, " %s=%s", argv[i],
                        NULL == v ? "-" : v);
    }
    printf("%s\n", line);
    if (NULL != num) {
        PMIX_VALUE_RELEASE(num);
    }
    if (NULL != size) {
        PMIX_VALUE_RELEASE(size);
    }
    return finish();
}

/* Print the binding this process got: "cpus N". */
static int mode_binding(int argc, char **argv)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof(set), &set);
    printf("cpus %d\n", CPU_COUNT(&set));
    return 0;
}

/* Put, commit, fence with data, read every peer's key. */
static int mode_fence(int argc, char **argv)
{
    init();
    char value[64];
    snprintf(value, sizeof(value), "from rank %u", me.rank);
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, value, PMIX_STRING);
    check(PMIX_SUCCESS == PMIx_Put(PMIX_GLOBAL, "test.key", &v), "put");
    PMIX_VALUE_DESTRUCT(&v);
    check(PMIX_SUCCESS == PMIx_Commit(), "commit");
    pmix_info_t collect;
    bool yes = true;
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(NULL, 0, &collect, 1);
    PMIX_INFO_DESTRUCT(&collect);
    check(PMIX_SUCCESS == rc, "fence with data: %s", PMIx_Error_string(rc));
    pmix_value_t *job_size = get_typed(me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, PMIX_UINT32);
    uint32_t n = NULL != job_size ? job_size->data.uint32 : 0;
    PMIX_VALUE_RELEASE(job_size);
    unsigned good = 0;
    for (uint32_t r = 0; r < n; r++) {
        pmix_value_t *got = get_typed(me.nspace, r, "test.key", PMIX_STRING);
        snprintf(value, sizeof(value), "from rank %u", r);
        good += NULL != got && 0 == strcmp(got->data.string, value);
        PMIX_VALUE_RELEASE(got);
    }
    check(good == n && n > 0, "read the keys of all %u ranks", n);
    rc = PMIx_Fence(NULL, 0, NULL, 0);
    check(PMIX_SUCCESS == rc, "fence without data");
    return finish();
}

/* Rank `victim` dies by SIGKILL before the fence the others wait in. */
static int mode_fence_kill(int argc, char **argv)
{
    init();
    if (me.rank == (pmix_rank_t)atoi(argv[2])) {
        sleep(1);
        raise(SIGKILL);
    }
    pmix_status_t rc = PMIx_Fence(NULL, 0, NULL, 0);
    printf("rank %u: fence returned %s\n", me.rank, PMIx_Error_string(rc));
    pause();
    return 0;
}

/* Rank 1 ends (status 0) without ever calling PMIx_Init. Rank 0 asks for
 * a key rank 1 would have posted once it has surely gone: the answer is
 * "not found" at once, not a wait (PMIX_TIMEOUT only bounds a failure). */
static int mode_gone(int argc, char **argv)
{
    if (0 == strcmp(getenv("PMIX_RANK"), "1")) {
        return 0;
    }
    init();
    sleep(1);
    pmix_proc_t one;
    PMIX_LOAD_PROCID(&one, me.nspace, 1);
    pmix_info_t timeout;
    int seconds = 5;
    PMIX_INFO_LOAD(&timeout, PMIX_TIMEOUT, &seconds, PMIX_INT);
    pmix_value_t *v = NULL;
    pmix_status_t rc = PMIx_Get(&one, "test.key", &timeout, 1, &v);
    PMIX_INFO_DESTRUCT(&timeout);
    check(PMIX_ERR_NOT_FOUND == rc, "get of a key of a rank that ended unconnected: %s",
          PMIx_Error_string(rc));
    if (NULL != v) {
        PMIX_VALUE_RELEASE(v);
    }
    return finish();
}

/* The last rank exits with the given code; the others wait in a fence. */
static int mode_exit(int argc, char **argv)
{
    init();
    pmix_value_t *v = get_typed(me.nspace, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, PMIX_UINT32);
    if (me.rank + 1 == v->data.uint32) {
        exit(atoi(argv[2]));
    }
    PMIx_Fence(NULL, 0, NULL, 0);
    pause();
    return 0;
}

static int mode_abort(int argc, char **argv)
{
    init();
    if (0 == me.rank) {
        sleep(1);
        PMIx_Abort(atoi(argv[2]), "the test asked for it", NULL, 0);
        printf("not ok - PMIx_Abort returned\n");
        return 99;
    }
    pause();
    return 0;
}

static pthread_mutex_t release_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t release_cond = PTHREAD_COND_INITIALIZER;
static bool app_released;

static void on_app_release(size_t id, pmix_status_t status, const pmix_proc_t *source,
                           pmix_info_t info[], size_t ninfo, pmix_info_t results[],
                           size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                           void *cbdata)
{
    pthread_mutex_lock(&release_lock);
    app_released = true;
    pthread_cond_signal(&release_cond);
    pthread_mutex_unlock(&release_lock);
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

/* Whether the job's PMIX_DEBUG_STOP_IN_APP names this rank (true or its
 * rank, the forms the debugger test gives). */
static bool stop_in_app(void)
{
    pmix_proc_t job;
    pmix_info_t optional;
    pmix_value_t *v = NULL;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&optional, PMIX_OPTIONAL, NULL, PMIX_BOOL);
    if (PMIX_SUCCESS != PMIx_Get(&job, PMIX_DEBUG_STOP_IN_APP, &optional, 1, &v)) {
        return false;
    }
    bool named = (PMIX_BOOL == v->type && v->data.flag) ||
                 (PMIX_PROC_RANK == v->type &&
                  (PMIX_RANK_WILDCARD == v->data.rank || me.rank == v->data.rank));
    PMIX_VALUE_RELEASE(v);
    return named;
}

/* For the debugger test: lines before and after PMIx_Init; with the
 * stop-in-app directive, announce a breakpoint of its own and wait for the
 * debugger's release, as an application does. */
static int mode_debug(int argc, char **argv)
{
    printf("before-init %s\n", getenv("PMIX_RANK"));
    init();
    printf("after-init %s %u\n", me.nspace, me.rank);
    if (stop_in_app()) {
        pmix_status_t code = PMIX_DEBUGGER_RELEASE;
        pmix_info_t bkpt;
        check(PMIx_Register_event_handler(&code, 1, NULL, 0, on_app_release, NULL, NULL) >= 0,
              "register for the release");
        PMIX_INFO_LOAD(&bkpt, PMIX_BREAKPOINT, "app", PMIX_STRING);
        check(PMIX_SUCCESS == PMIx_Notify_event(PMIX_READY_FOR_DEBUG, &me, PMIX_RANGE_RM, &bkpt,
                                                1, NULL, NULL),
              "announce the breakpoint");
        PMIX_INFO_DESTRUCT(&bkpt);
        pthread_mutex_lock(&release_lock);
        while (!app_released) {
            pthread_cond_wait(&release_cond, &release_lock);
        }
        pthread_mutex_unlock(&release_lock);
        printf("released %s %u\n", me.nspace, me.rank);
    }
    return finish();
}

/* Sleep forever, catching nothing (or ignoring SIGTERM with "stubborn"). */
static __attribute__((noreturn)) int mode_sleep(int argc, char **argv)
{
    if (argc > 2 && 0 == strcmp(argv[2], "stubborn")) {
        signal(SIGTERM, SIG_IGN);
        signal(SIGINT, SIG_IGN);
    }
    if (argc > 3) {
        /* Leave something behind, like a segment a crashed rank forgets. */
        char path[512];
        snprintf(path, sizeof(path), "/dev/shm/%s.test", getenv("PMIX_NAMESPACE"));
        FILE *f = fopen(path, "w");
        if (NULL != f) {
            fclose(f);
        }
    }
    printf("sleeping\n");
    fflush(stdout);
    for (;;) {
        pause();
    }
}


static pmix_status_t publish_one(const char *key, const char *value, pmix_persistence_t persist,
                                 pmix_data_range_t range)
{
    pmix_info_t info[3];
    PMIX_INFO_LOAD(&info[0], key, value, PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_PERSISTENCE, &persist, PMIX_PERSIST);
    PMIX_INFO_LOAD(&info[2], PMIX_RANGE, &range, PMIX_DATA_RANGE);
    pmix_status_t rc = PMIx_Publish(info, 3);
    for (int i = 0; i < 3; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    return rc;
}

/* Look key up, waiting up to `timeout` s when wait; returns the status and
 * the value found in *value (caller frees). */
/* With wait, the lookup waits up to timeout seconds, given as an int or
 * (ttype PMIX_UINT32) as a uint32. */
static pmix_status_t lookup_one(const char *key, bool wait, int timeout, pmix_data_type_t ttype,
                                char **value)
{
    pmix_pdata_t pdata;
    PMIX_PDATA_CONSTRUCT(&pdata);
    PMIX_LOAD_KEY(pdata.key, key);
    pmix_info_t info[2];
    int nwait = 0;
    uint32_t utimeout = (uint32_t)timeout;
    PMIX_INFO_LOAD(&info[0], PMIX_WAIT, &nwait, PMIX_INT);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, PMIX_UINT32 == ttype ? (void *)&utimeout : &timeout,
                   ttype);
    pmix_status_t rc = PMIx_Lookup(&pdata, 1, wait ? info : NULL, wait ? 2 : 0);
    *value = NULL;
    if (PMIX_SUCCESS == rc && PMIX_STRING == pdata.value.type) {
        *value = strdup(pdata.value.data.string);
    }
    PMIX_PDATA_DESTRUCT(&pdata);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    return rc;
}

/* Rank 0 publishes after a pause; rank 1 waits for it. First-read data
 * goes after one lookup; duplicates are refused; timeouts expire. */
static int mode_publish(int argc, char **argv)
{
    init();
    char *value = NULL;
    pmix_status_t rc;
    if (0 == me.rank) {
        rc = publish_one("svc.late", "v-late", PMIX_PERSIST_SESSION, PMIX_RANGE_SESSION);
        check(PMIX_SUCCESS == rc, "publish svc.late");
        rc = publish_one("svc.late", "again", PMIX_PERSIST_SESSION, PMIX_RANGE_SESSION);
        check(PMIX_SUCCESS != rc, "publishing svc.late twice is refused (%s)",
              PMIx_Error_string(rc));
        rc = publish_one("svc.once", "v-once", PMIX_PERSIST_FIRST_READ, PMIX_RANGE_SESSION);
        check(PMIX_SUCCESS == rc, "publish svc.once (first read)");
        rc = publish_one("svc.mine", "v-mine", PMIX_PERSIST_SESSION, PMIX_RANGE_PROC_LOCAL);
        check(PMIX_SUCCESS == rc, "publish svc.mine (proc-local)");
        rc = lookup_one("svc.mine", false, 0, PMIX_INT, &value);
        check(PMIX_SUCCESS == rc && NULL != value && 0 == strcmp(value, "v-mine"),
              "the publisher sees its proc-local data");
        free(value);
    } else if (1 == me.rank) {
        rc = lookup_one("svc.late", true, 20, PMIX_INT, &value);
        check(PMIX_SUCCESS == rc && NULL != value && 0 == strcmp(value, "v-late"),
              "a waiting lookup gets data published later (%s)", PMIx_Error_string(rc));
        free(value);
        rc = lookup_one("svc.once", true, 20, PMIX_INT, &value);
        check(PMIX_SUCCESS == rc && NULL != value, "first-read data found once");
        free(value);
        rc = lookup_one("svc.once", false, 0, PMIX_INT, &value);
        check(PMIX_ERR_NOT_FOUND == rc, "and gone after (%s)", PMIx_Error_string(rc));
        rc = lookup_one("svc.mine", false, 0, PMIX_INT, &value);
        check(PMIX_ERR_NOT_FOUND == rc, "another's proc-local data is invisible");
        rc = lookup_one("svc.never", true, 1, PMIX_INT, &value);
        check(PMIX_SUCCESS != rc && NULL == value, "a lookup that waits for nothing times out (%s)",
              PMIx_Error_string(rc));
        rc = lookup_one("svc.never", true, 1, PMIX_UINT32, &value);
        check(PMIX_ERR_TIMEOUT == rc && NULL == value, "so does one with a uint32 timeout (%s)",
              PMIx_Error_string(rc));
    }
    PMIx_Fence(NULL, 0, NULL, 0);
    if (0 == me.rank) {
        char *keys[] = {"svc.late", NULL};
        rc = PMIx_Unpublish(keys, NULL, 0);
        check(PMIX_SUCCESS == rc, "unpublish svc.late");
        rc = lookup_one("svc.late", false, 0, PMIX_INT, &value);
        check(PMIX_ERR_NOT_FOUND == rc, "unpublished data is gone");
    }
    return finish();
}

/* Spawn `n` copies of this program in info mode; the parent checks the
 * namespace it got. The children print their own checks. */
static int mode_spawn(int argc, char **argv)
{
    init();
    int n = atoi(argv[2]);
    if (0 == me.rank) {
        pmix_app_t app;
        PMIX_APP_CONSTRUCT(&app);
        char count[16];
        snprintf(count, sizeof(count), "%d", n);
        char *child_argv[] = {argv[0], "info", count, "spawned", NULL};
        app.cmd = strdup(argv[0]);
        app.argv = child_argv;
        app.maxprocs = n;
        /* The app names no directory: the children start in the one the
         * parent is in, not in drover's. */
        char *env[] = {"DROVER_SPAWN_TEST=from-parent", "DROVER_SPAWN_CWD=/", NULL};
        app.env = env;
        check(0 == chdir("/"), "parent moved to /");
        pmix_nspace_t child;
        pmix_status_t rc = PMIx_Spawn(NULL, 0, &app, 1, child);
        check(PMIX_SUCCESS == rc, "spawn %d: %s", n, PMIx_Error_string(rc));
        check(0 != strcmp(child, me.nspace), "the children got a namespace of their own: %s",
              child);
        printf("parent %s.%u\n", me.nspace, me.rank);
        app.argv = NULL;
        app.env = NULL;
        free(app.cmd);
        app.cmd = strdup("drover-no-such-program");
        rc = PMIx_Spawn(NULL, 0, &app, 1, child);
        check(PMIX_SUCCESS != rc, "spawning a missing program fails (%s)", PMIx_Error_string(rc));
        free(app.cmd);
    }
    return finish();
}

static pmix_status_t query_one(const char *key, const char *nspace, pmix_info_t **results,
                               size_t *nresults)
{
    pmix_query_t q;
    PMIX_QUERY_CONSTRUCT(&q);
    char *keys[] = {(char *)key, NULL};
    q.keys = keys;
    pmix_info_t qual;
    if (NULL != nspace) {
        PMIX_INFO_LOAD(&qual, PMIX_NSPACE, nspace, PMIX_STRING);
        q.qualifiers = &qual;
        q.nqual = 1;
    }
    pmix_status_t rc = PMIx_Query_info(&q, 1, results, nresults);
    if (NULL != nspace) {
        PMIX_INFO_DESTRUCT(&qual);
    }
    return rc;
}

/* PMIX_QUERY_NAMESPACE_INFO: one entry per live job, an info array of
 * its namespace and command line, read as OpenPMIx's tool example does. */
static void query_namespace_info(const char *program)
{
    pmix_info_t *res = NULL;
    size_t n = 0;
    bool mine = false;
    pmix_status_t rc = query_one(PMIX_QUERY_NAMESPACE_INFO, NULL, &res, &n);
    const pmix_data_array_t *jobs = PMIX_SUCCESS == rc && 1 == n &&
                                            PMIX_CHECK_KEY(&res[0], PMIX_QUERY_NAMESPACE_INFO) &&
                                            PMIX_DATA_ARRAY == res[0].value.type
                                        ? res[0].value.data.darray
                                        : NULL;
    for (size_t j = 0; NULL != jobs && PMIX_INFO == jobs->type && j < jobs->size; j++) {
        const pmix_info_t *job = &((pmix_info_t *)jobs->array)[j];
        const pmix_data_array_t *pair = job->value.data.darray;
        const pmix_info_t *f = PMIX_DATA_ARRAY == job->value.type && 2 == pair->size
                                   ? pair->array
                                   : NULL;
        mine |= NULL != f && PMIX_CHECK_KEY(&f[0], PMIX_NSPACE) &&
                0 == strcmp(f[0].value.data.string, me.nspace) &&
                PMIX_CHECK_KEY(&f[1], PMIX_CMD_LINE) &&
                0 == strncmp(f[1].value.data.string, program, strlen(program)) &&
                NULL != strstr(f[1].value.data.string, " query ");
    }
    check(mine, "namespace info has my namespace and command line (%s)",
          PMIx_Error_string(rc));
    PMIX_INFO_FREE(res, n);
}

/* The spawn and debugger support lists, and the ABI versions answered by
 * the library itself, alone and among keys the host answers. */
static void query_support(void)
{
    pmix_query_t q;
    pmix_info_t *res = NULL;
    size_t n = 0;
    char *keys[] = {PMIX_QUERY_SPAWN_SUPPORT, PMIX_QUERY_STABLE_ABI_VERSION,
                    PMIX_QUERY_DEBUG_SUPPORT, PMIX_QUERY_PROVISIONAL_ABI_VERSION, NULL};
    PMIX_QUERY_CONSTRUCT(&q);
    q.keys = keys;
    pmix_status_t rc = PMIx_Query_info(&q, 1, &res, &n);
    const pmix_info_t *spawn = NULL, *debug = NULL, *stable = NULL, *prov = NULL;
    for (size_t i = 0; PMIX_SUCCESS == rc && i < n; i++) {
        const pmix_info_t **which = PMIX_CHECK_KEY(&res[i], PMIX_QUERY_SPAWN_SUPPORT) ? &spawn
                                    : PMIX_CHECK_KEY(&res[i], PMIX_QUERY_DEBUG_SUPPORT) ? &debug
                                    : PMIX_CHECK_KEY(&res[i], PMIX_QUERY_STABLE_ABI_VERSION) ? &stable
                                                                                           : &prov;
        *which = PMIX_STRING == res[i].value.type ? &res[i] : NULL;
    }
    check(4 == n && NULL != spawn && NULL != strstr(spawn->value.data.string, PMIX_WDIR),
          "spawn support lists %s (%s)", PMIX_WDIR, PMIx_Error_string(rc));
    check(NULL != debug && NULL != strstr(debug->value.data.string, PMIX_DEBUG_STOP_IN_INIT) &&
              NULL != strstr(debug->value.data.string, PMIX_DEBUG_STOP_ON_EXEC),
          "debug support lists the stop directives");
    check(NULL != stable && 0 == strcmp(stable->value.data.string, "0.0") && NULL != prov &&
              0 == strcmp(prov->value.data.string, "0.0"),
          "ABI versions answered by the library among host keys");
    PMIX_INFO_FREE(res, n);
    keys[0] = PMIX_QUERY_STABLE_ABI_VERSION;
    keys[1] = NULL;
    rc = PMIx_Query_info(&q, 1, &res, &n);
    check(PMIX_SUCCESS == rc && 1 == n && 0 == strcmp(res[0].value.data.string, "0.0"),
          "stable ABI version alone (%s)", PMIx_Error_string(rc));
    PMIX_INFO_FREE(res, n);
}

/* Namespaces, job status, process tables and job size. */
static int mode_query(int argc, char **argv)
{
    init();
    pmix_info_t *res = NULL;
    size_t n = 0;
    pmix_status_t rc = query_one(PMIX_QUERY_NAMESPACES, NULL, &res, &n);
    check(PMIX_SUCCESS == rc && 1 == n && PMIX_STRING == res[0].value.type &&
              NULL != strstr(res[0].value.data.string, me.nspace),
          "namespaces include mine (%s)", PMIx_Error_string(rc));
    PMIX_INFO_FREE(res, n);
    rc = query_one(PMIX_QUERY_JOB_STATUS, me.nspace, &res, &n);
    check(PMIX_SUCCESS == rc && 1 == n, "job status answered (%s)", PMIx_Error_string(rc));
    PMIX_INFO_FREE(res, n);
    const char *tables[] = {PMIX_QUERY_PROC_TABLE, PMIX_QUERY_LOCAL_PROC_TABLE};
    for (int t = 0; t < 2; t++) {
        rc = query_one(tables[t], me.nspace, &res, &n);
        bool ok = PMIX_SUCCESS == rc && 1 == n && PMIX_DATA_ARRAY == res[0].value.type &&
                  PMIX_PROC_INFO == res[0].value.data.darray->type;
        size_t size = ok ? res[0].value.data.darray->size : 0;
        const pmix_proc_info_t *pi = ok ? res[0].value.data.darray->array : NULL;
        check(ok && size == (size_t)atoi(argv[2]) && pi[me.rank].pid == getpid() &&
                  pi[me.rank].proc.rank == me.rank,
              "%s lists every process with its pid (%s)", tables[t], PMIx_Error_string(rc));
        PMIX_INFO_FREE(res, n);
    }
    rc = query_one(PMIX_QUERY_NUM_PSETS, NULL, &res, &n);
    check(PMIX_SUCCESS == rc && 1 == n, "number of process sets answered");
    PMIX_INFO_FREE(res, n);
    rc = query_one("drover.no.such.query", NULL, &res, &n);
    check(PMIX_SUCCESS != rc, "an unknown query is not answered (%s)", PMIx_Error_string(rc));
    query_namespace_info(argv[0]);
    query_support();
    return finish();
}

/* PMIx_Log to drover's stdout and stderr. */
static int mode_log(int argc, char **argv)
{
    init();
    pmix_info_t data[2];
    char text[64];
    snprintf(text, sizeof(text), "logged to stderr by rank %u", me.rank);
    PMIX_INFO_LOAD(&data[0], PMIX_LOG_STDERR, text, PMIX_STRING);
    pmix_status_t rc = PMIx_Log(data, 1, NULL, 0);
    check(PMIX_SUCCESS == rc, "log to stderr (%s)", PMIx_Error_string(rc));
    snprintf(text, sizeof(text), "logged to stdout by rank %u", me.rank);
    PMIX_INFO_LOAD(&data[1], PMIX_LOG_STDOUT, text, PMIX_STRING);
    rc = PMIx_Log(&data[1], 1, NULL, 0);
    check(PMIX_SUCCESS == rc, "log to stdout (%s)", PMIx_Error_string(rc));
    PMIX_INFO_DESTRUCT(&data[0]);
    PMIX_INFO_DESTRUCT(&data[1]);
    return finish();
}

/* Rank 0 signals rank 1, marks the job preemptible, has rank 1
 * checkpoint by event and by signal, then kills it, all through
 * PMIx_Job_control. */
static volatile sig_atomic_t got_usr1, got_usr2, got_alrm;
static void on_usr(int sig)
{
    if (SIGUSR1 == sig) {
        got_usr1 = 1;
    } else if (SIGUSR2 == sig) {
        got_usr2 = 1;
    } else {
        got_alrm = 1;
    }
}

static void on_checkpoint(size_t id, pmix_status_t status, const pmix_proc_t *source,
                          pmix_info_t info[], size_t ninfo, pmix_info_t *results,
                          size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                          void *cbdata)
{
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_JOB_CTRL_CHECKPOINT) &&
            PMIX_STRING == info[i].value.type) {
            printf("rank %u got checkpoint %s from rank %u\n", me.rank,
                   info[i].value.data.string, source->rank);
            fflush(stdout);
        }
    }
    cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static void control_one(pmix_proc_t *target, pmix_info_t *d, size_t n, const char *what)
{
    pmix_status_t rc = PMIx_Job_control(target, NULL == target ? 0 : 1, d, n, NULL, NULL);
    check(PMIX_SUCCESS == rc, "%s (%s)", what, PMIx_Error_string(rc));
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&d[i]);
    }
}

static void preemptible(void)
{
    pmix_info_t d, *res = NULL;
    size_t n = 0;
    PMIX_INFO_LOAD(&d, PMIX_JOB_CTRL_PREEMPTIBLE, NULL, PMIX_BOOL);
    control_one(NULL, &d, 1, "mark my job preemptible");
    pmix_status_t rc = query_one(PMIX_JOB_CTRL_PREEMPTIBLE, me.nspace, &res, &n);
    check(PMIX_SUCCESS == rc && 1 == n && PMIX_BOOL == res[0].value.type &&
              res[0].value.data.flag,
          "the job is queried preemptible (%s)", PMIx_Error_string(rc));
    PMIX_INFO_FREE(res, n);
}

static int mode_jobctl(int argc, char **argv)
{
    pmix_status_t code = PMIX_JCTRL_CHECKPOINT;
    signal(SIGUSR1, on_usr);
    signal(SIGUSR2, on_usr);
    signal(SIGALRM, on_usr);
    init();
    check(PMIx_Register_event_handler(&code, 1, NULL, 0, on_checkpoint, NULL, NULL) >= 0,
          "checkpoint handler");
    /* Rank 1 has its handlers before rank 0 can signal it. */
    PMIx_Fence(NULL, 0, NULL, 0);
    if (0 == me.rank) {
        pmix_proc_t target;
        PMIX_LOAD_PROCID(&target, me.nspace, 1);
        pmix_info_t d[2];
        int sig = SIGUSR1;
        PMIX_INFO_LOAD(&d[0], PMIX_JOB_CTRL_SIGNAL, &sig, PMIX_INT);
        control_one(&target, d, 1, "signal rank 1");
        preemptible();
        PMIX_INFO_LOAD(&d[0], PMIX_JOB_CTRL_CHECKPOINT, "ck-event", PMIX_STRING);
        control_one(&target, d, 1, "checkpoint rank 1 by event");
        sig = SIGUSR2;
        PMIX_INFO_LOAD(&d[0], PMIX_JOB_CTRL_CHECKPOINT, "ck-signal", PMIX_STRING);
        PMIX_INFO_LOAD(&d[1], PMIX_JOB_CTRL_CHECKPOINT_SIGNAL, &sig, PMIX_INT);
        control_one(&target, d, 2, "checkpoint rank 1 by SIGUSR2");
        /* The job says how it checkpoints; a request naming no method
         * then uses that. */
        pmix_info_t method;
        pmix_data_array_t methods = {.type = PMIX_INFO, .size = 1, .array = &method};
        sig = SIGALRM;
        PMIX_INFO_LOAD(&method, PMIX_JOB_CTRL_CHECKPOINT_SIGNAL, &sig, PMIX_INT);
        PMIX_INFO_LOAD(&d[0], PMIX_JOB_CTRL_CHECKPOINT_METHOD, &methods, PMIX_DATA_ARRAY);
        control_one(NULL, d, 1, "declare the job's checkpoint signal");
        PMIX_INFO_LOAD(&d[0], PMIX_JOB_CTRL_CHECKPOINT, "ck-declared", PMIX_STRING);
        control_one(&target, d, 1, "checkpoint rank 1 as the job declared");
        sleep(1);
        PMIX_INFO_LOAD(&d[0], PMIX_JOB_CTRL_KILL, NULL, PMIX_BOOL);
        control_one(&target, d, 1, "kill rank 1");
        return finish();
    }
    for (bool told1 = false, told2 = false, told3 = false;;) {
        if (got_usr1 && !told1) {
            printf("rank 1 got SIGUSR1\n");
            told1 = true;
        }
        if (got_usr2 && !told2) {
            printf("rank 1 got SIGUSR2\n");
            told2 = true;
        }
        if (got_alrm && !told3) {
            printf("rank 1 got SIGALRM\n");
            told3 = true;
        }
        fflush(stdout);
        usleep(50 * 1000); /* the signal may interrupt another thread */
    }
}

/* Heartbeats: rank 1 has drover watch it (1 s, one drop allowed), beats
 * for a while, then stops. "fail": drover ends the job. "app"
 * (PMIX_MONITOR_APP_CONTROL): rank 0 gets PMIX_MONITOR_HEARTBEAT_ALERT
 * about rank 1 and kills it itself. */
static volatile sig_atomic_t alerted;
static volatile pmix_rank_t alerted_about = PMIX_RANK_UNDEF;

static void on_alert(size_t id, pmix_status_t status, const pmix_proc_t *source,
                     pmix_info_t info[], size_t ninfo, pmix_info_t *results, size_t nresults,
                     pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_AFFECTED_PROC)) {
            alerted_about = info[i].value.data.proc->rank;
        }
    }
    alerted = PMIX_MONITOR_HEARTBEAT_ALERT == status;
    cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

static void watch_me(bool app_control)
{
    pmix_info_t mon, dirs[3];
    uint32_t period = 1, drops = 1;
    PMIX_INFO_LOAD(&mon, PMIX_MONITOR_HEARTBEAT, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&dirs[0], PMIX_MONITOR_HEARTBEAT_TIME, &period, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[1], PMIX_MONITOR_HEARTBEAT_DROPS, &drops, PMIX_UINT32);
    PMIX_INFO_LOAD(&dirs[2], PMIX_MONITOR_APP_CONTROL, &app_control, PMIX_BOOL);
    pmix_status_t rc = PMIx_Process_monitor(&mon, PMIX_MONITOR_HEARTBEAT_ALERT, dirs, 3, NULL,
                                            NULL);
    check(PMIX_SUCCESS == rc, "heartbeat monitor registered (%s)", PMIx_Error_string(rc));
    /* A second watch, named, then cancelled by its name. */
    pmix_info_t named[2], cancel;
    PMIX_INFO_LOAD(&named[0], PMIX_MONITOR_HEARTBEAT_TIME, &period, PMIX_UINT32);
    PMIX_INFO_LOAD(&named[1], PMIX_MONITOR_ID, "extra", PMIX_STRING);
    rc = PMIx_Process_monitor(&mon, PMIX_MONITOR_HEARTBEAT_ALERT, named, 2, NULL, NULL);
    check(PMIX_SUCCESS == rc, "a named watch (%s)", PMIx_Error_string(rc));
    PMIX_INFO_LOAD(&cancel, PMIX_MONITOR_CANCEL, "extra", PMIX_STRING);
    rc = PMIx_Process_monitor(&cancel, PMIX_SUCCESS, NULL, 0, NULL, NULL);
    check(PMIX_SUCCESS == rc, "cancelled by its id (%s)", PMIx_Error_string(rc));
    rc = PMIx_Process_monitor(&cancel, PMIX_SUCCESS, NULL, 0, NULL, NULL);
    check(PMIX_ERR_NOT_FOUND == rc, "cancelled once only (%s)", PMIx_Error_string(rc));
    PMIX_INFO_DESTRUCT(&named[1]);
    PMIX_INFO_DESTRUCT(&cancel);
    /* A process has at most 64 watches. */
    PMIX_INFO_LOAD(&named[1], PMIX_MONITOR_ID, "many", PMIX_STRING);
    int added = 0;
    while (added < 100 && PMIX_SUCCESS == PMIx_Process_monitor(&mon, PMIX_SUCCESS, named, 2,
                                                               NULL, NULL)) {
        added++;
    }
    check(63 == added, "64 watches at most (%d more)", added);
    PMIX_INFO_LOAD(&cancel, PMIX_MONITOR_CANCEL, "many", PMIX_STRING);
    rc = PMIx_Process_monitor(&cancel, PMIX_SUCCESS, NULL, 0, NULL, NULL);
    check(PMIX_SUCCESS == rc, "all cancelled by their id (%s)", PMIx_Error_string(rc));
    PMIX_INFO_DESTRUCT(&named[1]);
    PMIX_INFO_DESTRUCT(&cancel);
    period = 0;
    PMIX_INFO_LOAD(&dirs[0], PMIX_MONITOR_HEARTBEAT_TIME, &period, PMIX_UINT32);
    rc = PMIx_Process_monitor(&mon, PMIX_MONITOR_HEARTBEAT_ALERT, dirs, 1, NULL, NULL);
    check(PMIX_ERR_BAD_PARAM == rc, "a heartbeat period of 0 is refused (%s)",
          PMIx_Error_string(rc));
}

static int mode_heartbeat(int argc, char **argv)
{
    bool app = 0 == strcmp(argv[2], "app");
    pmix_status_t code = PMIX_MONITOR_HEARTBEAT_ALERT;
    init();
    check(PMIx_Register_event_handler(&code, 1, NULL, 0, on_alert, NULL, NULL) >= 0,
          "alert handler");
    PMIx_Fence(NULL, 0, NULL, 0);
    if (1 == me.rank) {
        watch_me(app);
        for (int i = 0; i < 8; i++) {
            PMIx_Heartbeat();
            usleep(250 * 1000);
        }
        check(!alerted, "no alert while beating");
        printf("rank 1 stops beating\n");
        fflush(stdout);
        for (;;) {
            pause();
        }
    }
    if (!app) {
        for (;;) {
            pause(); /* until drover ends the job */
        }
    }
    for (int i = 0; i < 300 && !alerted; i++) {
        usleep(100 * 1000);
    }
    check(alerted && 1 == alerted_about, "PMIX_MONITOR_HEARTBEAT_ALERT about rank 1");
    pmix_proc_t target;
    pmix_info_t kill;
    PMIX_LOAD_PROCID(&target, me.nspace, 1);
    PMIX_INFO_LOAD(&kill, PMIX_JOB_CTRL_KILL, NULL, PMIX_BOOL);
    pmix_status_t rc = PMIx_Job_control(&target, 1, &kill, 1, NULL, NULL);
    check(PMIX_SUCCESS == rc, "the application ends the silent rank (%s)", PMIx_Error_string(rc));
    return finish();
}

/* Whether the file at path appeared within 60 s. */
static bool appeared(const char *path)
{
    for (int i = 0; i < 6000 && 0 != access(path, F_OK); i++) {
        usleep(10000);
    }
    return 0 == access(path, F_OK);
}

/* Whether the file dir/name appeared within 60 s. */
static bool appeared_in(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return appeared(path);
}

/* Every rank constructs the groups "stay" and "go" of the whole job, waits
 * for the file argv[2]/destruct, destructs "go" and sleeps, "stay"
 * standing, until killed (daemon_tool.c watches them from the daemon). */
static __attribute__((noreturn)) int mode_groups(int argc, char **argv)
{
    static const char *const names[] = {"stay", "go"};
    pmix_proc_t all;
    init();
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    for (int i = 0; i < 2; i++) {
        pmix_info_t *results = NULL;
        size_t n = 0;
        pmix_status_t rc = PMIx_Group_construct(names[i], &all, 1, NULL, 0, &results, &n);
        check(PMIX_SUCCESS == rc, "PMIx_Group_construct %s (%s)", names[i], PMIx_Error_string(rc));
        if (NULL != results) {
            PMIX_INFO_FREE(results, n);
        }
    }
    check(appeared_in(argv[2], "destruct"), "told to destruct \"go\"");
    pmix_status_t rc = PMIx_Group_destruct("go", NULL, 0);
    check(PMIX_SUCCESS == rc, "PMIx_Group_destruct go (%s)", PMIx_Error_string(rc));
    for (;;) {
        pause();
    }
}

/* Rank 0 first starts a process of its own that claims rank 1 (same user,
 * the job's environment) before rank 1 connects: the server must refuse it.
 * Rank 1 waits for the file argv[2], which rank 0 then makes; both then
 * fence as in "fence". */
static int mode_impostor(int argc, char **argv)
{
    const char *go = argv[2];
    const char *rank = getenv("PMIX_RANK");
    if (NULL != rank && 0 == strcmp(rank, "0")) {
        pid_t pid = fork();
        if (0 == pid) {
            setenv("PMIX_RANK", "1", 1);
            pmix_proc_t who;
            pmix_status_t rc = PMIx_Init(&who, NULL, 0);
            printf("impostor: PMIx_Init as rank 1: %s\n", PMIx_Error_string(rc));
            _exit(PMIX_SUCCESS == rc ? 1 : 0);
        }
        int status = -1;
        check(pid > 0 && pid == waitpid(pid, &status, 0) && WIFEXITED(status) &&
                  0 == WEXITSTATUS(status),
              "a process of the same user claiming rank 1 first is refused");
        FILE *f = fopen(go, "w");
        if (NULL != f) {
            fclose(f);
        }
    } else {
        appeared(go);
    }
    return mode_fence(argc, argv);
}

static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    int nargs;
} table[] = {
    {"info", mode_info, 1},
    {"binding", mode_binding, 0},
    {"app", mode_app, 1},
    {"univ", mode_univ, 1},
    {"fence", mode_fence, 0},
    {"fence-kill", mode_fence_kill, 1},
    {"exit", mode_exit, 1},
    {"gone", mode_gone, 0},
    {"abort", mode_abort, 1},
    {"sleep", mode_sleep, 0},
    {"publish", mode_publish, 0},
    {"spawn", mode_spawn, 1},
    {"query", mode_query, 1},
    {"log", mode_log, 0},
    {"jobctl", mode_jobctl, 0},
    {"heartbeat", mode_heartbeat, 1},
    {"impostor", mode_impostor, 1},
    {"debug", mode_debug, 0},
    {"groups", mode_groups, 1},
};

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (size_t i = 0; argc > 1 && i < sizeof(table) / sizeof(table[0]); i++) {
        if (0 == strcmp(argv[1], table[i].name) && argc >= 2 + table[i].nargs) {
            return table[i].fn(argc, argv);
        }
    }
    fprintf(stderr, "usage: client MODE [args]\n");
    return 2;
}
