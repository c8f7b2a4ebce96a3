/*
 * client.c - a PMIx client the launcher tests start under `drover run`.
 *
 * `client MODE [args]`: each mode exercises one launcher behaviour and
 * prints "ok - ..." / "not ok - ..." lines; the exit status is 0 only when
 * every check passed (or what the mode is about: an exit code, an abort).
 * Modes that must not finish on their own sleep until killed.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    }
    /* The peers' locality strings, as Open MPI reads them. */
    for (uint32_t r = 0; r < size && r < 4; r++) {
        free(expect_string(r, PMIX_LOCALITY_STRING));
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
        char *env[] = {"DROVER_SPAWN_TEST=from-parent", NULL};
        app.env = env;
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

/* Rank 0 signals, then kills, rank 1 through PMIx_Job_control. */
static volatile sig_atomic_t got_usr1;
static void on_usr1(int sig)
{
    got_usr1 = 1;
}

static int mode_jobctl(int argc, char **argv)
{
    signal(SIGUSR1, on_usr1);
    init();
    /* Rank 1 has its handler before rank 0 can signal it. */
    PMIx_Fence(NULL, 0, NULL, 0);
    if (0 == me.rank) {
        pmix_proc_t target;
        PMIX_LOAD_PROCID(&target, me.nspace, 1);
        pmix_info_t d;
        int sig = SIGUSR1;
        PMIX_INFO_LOAD(&d, PMIX_JOB_CTRL_SIGNAL, &sig, PMIX_INT);
        pmix_status_t rc = PMIx_Job_control(&target, 1, &d, 1, NULL, NULL);
        check(PMIX_SUCCESS == rc, "signal rank 1 (%s)", PMIx_Error_string(rc));
        PMIX_INFO_DESTRUCT(&d);
        sleep(1);
        PMIX_INFO_LOAD(&d, PMIX_JOB_CTRL_KILL, NULL, PMIX_BOOL);
        rc = PMIx_Job_control(&target, 1, &d, 1, NULL, NULL);
        check(PMIX_SUCCESS == rc, "kill rank 1 (%s)", PMIx_Error_string(rc));
        PMIX_INFO_DESTRUCT(&d);
        return finish();
    }
    while (!got_usr1) {
        pause();
    }
    printf("rank 1 got SIGUSR1\n");
    for (;;) {
        pause();
    }
}

static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    int nargs;
} table[] = {
    {"info", mode_info, 1},
    {"binding", mode_binding, 0},
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
