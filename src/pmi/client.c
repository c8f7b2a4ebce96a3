/*
 * client.c - the PMI operations on drover's PMIx client (see client.h).
 *
 * Design notes:
 *  - A PMI key-value space is a job's: put is PMIx_Put with global scope,
 *    commit PMIx_Commit, barrier a fence collecting data, and get a
 *    PMIx_Get of the key from whichever process put it (PMIX_RANK_UNDEF),
 *    immediate, since a PMI get does not wait.
 *  - The job attributes MPICH asks for by PMI name are made from PMIx's
 *    (PMI_process_mapping from every rank's PMIX_NODEID).
 *  - Node attributes are keys "pmi.node.<name>" put with local scope and
 *    committed at once, so the job's other processes on the node see them
 *    without a fence; a waiting get is a PMIx_Get that waits.
 *  - Keys a spawner preputs reach the new job in its environment
 *    (DROVER_PMI_PREPUT_<n>=key=value), the same way for processes that
 *    speak the PMI wire to drover's server, which stores them for them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "pmi_map.h"

#define NODE_PREFIX "pmi.node."
#define PREPUT_ENV "DROVER_PMI_PREPUT_"

extern char **environ;

static pmix_proc_t me;
static bool initialized;

/* PMIx statuses as PMI codes. */
static int code(pmix_status_t rc)
{
    switch (rc) {
    case PMIX_SUCCESS:
        return PMIC_SUCCESS;
    case PMIX_ERR_INIT:
        return PMIC_ERR_INIT;
    case PMIX_ERR_NOMEM:
        return PMIC_ERR_NOMEM;
    case PMIX_ERR_BAD_PARAM:
        return PMIC_ERR_INVALID_ARG;
    case PMIX_ERR_NOT_FOUND:
        return PMIC_ERR_INVALID_KEY;
    default:
        return PMIC_FAIL;
    }
}

int pmic_init(int *spawned)
{
    pmix_status_t rc = PMIX_SUCCESS;

    if (!initialized) {
        rc = PMIx_Init(&me, NULL, 0);
        initialized = PMIX_SUCCESS == rc;
    }
    if (PMIX_SUCCESS == rc && NULL != spawned) {
        pmix_proc_t job;
        pmix_value_t *v = NULL;
        PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
        *spawned = PMIX_SUCCESS == PMIx_Get(&job, PMIX_SPAWNED, NULL, 0, &v) &&
                   PMIX_BOOL == v->type && v->data.flag;
        if (NULL != v) {
            PMIX_VALUE_RELEASE(v);
        }
    }
    return code(rc);
}

bool pmic_initialized(void)
{
    return initialized;
}

int pmic_finalize(void)
{
    if (!initialized) {
        return PMIC_ERR_INIT;
    }
    initialized = false;
    return code(PMIx_Finalize(NULL, 0));
}

const pmix_proc_t *pmic_me(void)
{
    return &me;
}

static int get_u32(pmix_rank_t rank, const char *key, uint32_t *value)
{
    pmix_proc_t who;
    pmix_value_t *v = NULL;

    if (!initialized) {
        return PMIC_ERR_INIT;
    }
    if (NULL == value) {
        return PMIC_ERR_INVALID_ARG;
    }
    PMIX_LOAD_PROCID(&who, me.nspace, rank);
    pmix_status_t rc = PMIx_Get(&who, key, NULL, 0, &v);
    if (PMIX_SUCCESS == rc) {
        PMIX_VALUE_GET_NUMBER(rc, v, *value, uint32_t);
        PMIX_VALUE_RELEASE(v);
    }
    return code(rc);
}

/* An attribute as an int, out may be NULL (PMIC_ERR_INVALID_ARG). */
static int get_int(pmix_rank_t rank, const char *key, int *out)
{
    uint32_t n;
    int rc = NULL == out ? PMIC_ERR_INVALID_ARG : get_u32(rank, key, &n);
    if (PMIC_SUCCESS == rc) {
        *out = (int)n;
    }
    return rc;
}

int pmic_job_int(const char *key, int *value)
{
    return get_int(PMIX_RANK_WILDCARD, key, value);
}

int pmic_appnum(int *appnum)
{
    int rc = get_int(me.rank, PMIX_APPNUM, appnum);
    /* Some hosts (Open MPI's orted) give no appnum: theirs is the only
     * app. */
    if (PMIC_ERR_INVALID_KEY == rc) {
        *appnum = 0;
        rc = PMIC_SUCCESS;
    }
    return rc;
}

int pmic_rank(int *rank)
{
    if (!initialized) {
        return PMIC_ERR_INIT;
    }
    if (NULL == rank) {
        return PMIC_ERR_INVALID_ARG;
    }
    *rank = (int)me.rank;
    return PMIC_SUCCESS;
}

int pmic_copy(char *out, int room, const char *s)
{
    if (NULL == out || room <= 0) {
        return PMIC_ERR_INVALID_ARG;
    }
    if (strlen(s) >= (size_t)room) {
        return PMIC_ERR_INVALID_LENGTH;
    }
    strcpy(out, s);
    return PMIC_SUCCESS;
}

static int put_scoped(pmix_scope_t scope, const char *key, const char *value)
{
    pmix_value_t v;

    if (!initialized) {
        return PMIC_ERR_INIT;
    }
    if (NULL == key || NULL == value || '\0' == key[0] || strlen(key) > PMIX_MAX_KEYLEN) {
        return PMIC_ERR_INVALID_ARG;
    }
    if (strlen(value) > PMIC_MAX_VALLEN) {
        return PMIC_ERR_INVALID_VAL_LENGTH;
    }
    v.type = PMIX_STRING;
    v.data.string = (char *)value;
    return code(PMIx_Put(scope, key, &v));
}

int pmic_put(const char *key, const char *value)
{
    return put_scoped(PMIX_GLOBAL, key, value);
}

int pmic_commit(void)
{
    return initialized ? code(PMIx_Commit()) : PMIC_ERR_INIT;
}

int pmic_fence(void)
{
    pmix_info_t info;
    bool collect = true;

    if (!initialized) {
        return PMIC_ERR_INIT;
    }
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(NULL, 0, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    return code(rc);
}

/* A string value of key, from any process of nspace; wait or not. */
static int get_string(const char *nspace, const char *key, bool wait, char **value)
{
    pmix_proc_t who;
    pmix_info_t info;
    pmix_value_t *v = NULL;
    bool immediate = true;

    PMIX_LOAD_PROCID(&who, NULL != nspace && '\0' != nspace[0] ? nspace : me.nspace,
                     PMIX_RANK_UNDEF);
    PMIX_INFO_LOAD(&info, PMIX_IMMEDIATE, &immediate, PMIX_BOOL);
    pmix_status_t rc = PMIx_Get(&who, key, wait ? NULL : &info, wait ? 0 : 1, &v);
    PMIX_INFO_DESTRUCT(&info);
    if (PMIX_SUCCESS != rc) {
        return PMIX_ERR_NOT_FOUND == rc ? PMIC_ERR_INVALID_KEY : code(rc);
    }
    int result = PMIC_ERR_INVALID_KEY;
    if (PMIX_STRING == v->type && NULL != v->data.string) {
        *value = strdup(v->data.string);
        result = NULL == *value ? PMIC_ERR_NOMEM : PMIC_SUCCESS;
    }
    PMIX_VALUE_RELEASE(v);
    return result;
}

static int process_mapping(char **value)
{
    uint32_t size;
    int rc = get_u32(PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, &size);
    if (PMIC_SUCCESS != rc) {
        return rc;
    }
    uint32_t *nodes = calloc(size > 0 ? size : 1, sizeof(*nodes));
    char *s = malloc(PMIC_MAX_VALLEN);
    rc = NULL == nodes || NULL == s ? PMIC_ERR_NOMEM : PMIC_SUCCESS;
    for (uint32_t r = 0; r < size && PMIC_SUCCESS == rc; r++) {
        rc = get_u32(r, PMIX_NODEID, &nodes[r]);
    }
    if (PMIC_SUCCESS == rc && !pmi_map_format(nodes, size, s, PMIC_MAX_VALLEN)) {
        rc = PMIC_ERR_INVALID_KEY;
    }
    free(nodes);
    if (PMIC_SUCCESS != rc) {
        free(s);
        return rc;
    }
    *value = s;
    return PMIC_SUCCESS;
}

/* A key the spawner preput, from the environment. */
static int preput(const char *key, char **value)
{
    size_t klen = strlen(key);
    for (char **e = environ; NULL != e && NULL != *e; e++) {
        const char *pair = 0 == strncmp(*e, PREPUT_ENV, sizeof(PREPUT_ENV) - 1) ? strchr(*e, '=')
                                                                                : NULL;
        if (NULL != pair && 0 == strncmp(pair + 1, key, klen) && '=' == pair[1 + klen]) {
            *value = strdup(pair + 2 + klen);
            return NULL == *value ? PMIC_ERR_NOMEM : PMIC_SUCCESS;
        }
    }
    return PMIC_ERR_INVALID_KEY;
}

int pmic_get(const char *nspace, const char *key, char **value)
{
    uint32_t n = 0;
    int rc;

    if (!initialized) {
        return PMIC_ERR_INIT;
    }
    if (NULL == key || NULL == value || '\0' == key[0] || strlen(key) > PMIX_MAX_KEYLEN) {
        return PMIC_ERR_INVALID_ARG;
    }
    *value = NULL;
    if (0 == strcmp(key, "PMI_process_mapping")) {
        return process_mapping(value);
    }
    if (0 == strcmp(key, "universeSize") || 0 == strcmp(key, "appnum")) {
        int a = 0;
        rc = 'u' == key[0] ? get_u32(PMIX_RANK_WILDCARD, PMIX_UNIV_SIZE, &n) : pmic_appnum(&a);
        n = 'u' == key[0] ? n : (uint32_t)a;
        if (PMIC_SUCCESS == rc && asprintf(value, "%u", n) < 0) {
            rc = PMIC_ERR_NOMEM;
        }
        return rc;
    }
    if (PMIC_SUCCESS == preput(key, value)) {
        return PMIC_SUCCESS;
    }
    return get_string(nspace, key, false, value);
}

static int node_key(const char *name, char key[PMIX_MAX_KEYLEN + 1])
{
    if (NULL == name || '\0' == name[0] ||
        strlen(name) + sizeof(NODE_PREFIX) - 1 > PMIX_MAX_KEYLEN) {
        return PMIC_ERR_INVALID_ARG;
    }
    snprintf(key, PMIX_MAX_KEYLEN + 1, NODE_PREFIX "%s", name);
    return PMIC_SUCCESS;
}

int pmic_node_put(const char *name, const char *value)
{
    char key[PMIX_MAX_KEYLEN + 1];
    int rc = node_key(name, key);
    if (PMIC_SUCCESS == rc) {
        rc = put_scoped(PMIX_LOCAL, key, value);
    }
    return PMIC_SUCCESS == rc ? pmic_commit() : rc;
}

int pmic_node_get(const char *name, bool wait, char **value)
{
    char key[PMIX_MAX_KEYLEN + 1];
    int rc = node_key(name, key);

    if (!initialized) {
        return PMIC_ERR_INIT;
    }
    return PMIC_SUCCESS == rc ? get_string(NULL, key, wait, value) : rc;
}

int pmic_publish(const char *service, const char *port)
{
    pmix_info_t info;

    if (!initialized) {
        return PMIC_ERR_INIT;
    }
    if (NULL == service || NULL == port || '\0' == service[0] ||
        strlen(service) > PMIX_MAX_KEYLEN) {
        return PMIC_ERR_INVALID_ARG;
    }
    PMIX_INFO_LOAD(&info, service, port, PMIX_STRING);
    pmix_status_t rc = PMIx_Publish(&info, 1);
    PMIX_INFO_DESTRUCT(&info);
    return code(rc);
}

int pmic_lookup(const char *service, char **port)
{
    pmix_pdata_t pdata;

    if (!initialized) {
        return PMIC_ERR_INIT;
    }
    if (NULL == service || '\0' == service[0] || strlen(service) > PMIX_MAX_KEYLEN) {
        return PMIC_ERR_INVALID_ARG;
    }
    PMIX_PDATA_CONSTRUCT(&pdata);
    PMIX_LOAD_KEY(pdata.key, service);
    pmix_status_t rc = PMIx_Lookup(&pdata, 1, NULL, 0);
    int result = code(rc);
    if (PMIX_SUCCESS == rc) {
        result = PMIC_FAIL;
        if (PMIX_STRING == pdata.value.type && NULL != pdata.value.data.string) {
            *port = strdup(pdata.value.data.string);
            result = NULL == *port ? PMIC_ERR_NOMEM : PMIC_SUCCESS;
        }
    }
    PMIX_PDATA_DESTRUCT(&pdata);
    return result;
}

int pmic_unpublish(const char *service)
{
    char *keys[2] = {(char *)service, NULL};

    if (!initialized) {
        return PMIC_ERR_INIT;
    }
    if (NULL == service || '\0' == service[0]) {
        return PMIC_ERR_INVALID_ARG;
    }
    return code(PMIx_Unpublish(keys, NULL, 0));
}

int pmic_abort(int status, const char *msg)
{
    if (!initialized) {
        return PMIC_ERR_INIT;
    }
    return code(PMIx_Abort(status, NULL != msg ? msg : "PMI_Abort", NULL, 0));
}

/* Fill app a of a spawn. */
static pmix_status_t fill_app(pmix_app_t *app, const char *cmd, const char *const *args,
                              int maxprocs, int ninfo, const char *const *keys,
                              const char *const *values, int npreput,
                              const char *const *preput_keys, const char *const *preput_values)
{
    pmix_status_t rc = PMIX_SUCCESS;

    if (NULL == cmd || maxprocs < 1) {
        return PMIX_ERR_BAD_PARAM;
    }
    app->maxprocs = maxprocs;
    if (NULL == (app->cmd = strdup(cmd))) {
        return PMIX_ERR_NOMEM;
    }
    PMIX_ARGV_APPEND(rc, app->argv, cmd);
    for (size_t i = 0; NULL != args && NULL != args[i] && PMIX_SUCCESS == rc; i++) {
        PMIX_ARGV_APPEND(rc, app->argv, args[i]);
    }
    for (int i = 0; i < ninfo && PMIX_SUCCESS == rc; i++) {
        /* MPI_Comm_spawn's info keys, in PMIx's words. */
        if (0 == strcmp(keys[i], "wdir")) {
            free(app->cwd);
            app->cwd = strdup(values[i]);
            rc = NULL == app->cwd ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
        } else if (0 == strcmp(keys[i], "host") || 0 == strcmp(keys[i], "hosts")) {
            pmix_info_t *grown = realloc(app->info, (app->ninfo + 1) * sizeof(*grown));
            if (NULL == grown) {
                return PMIX_ERR_NOMEM;
            }
            app->info = grown;
            PMIX_INFO_LOAD(&app->info[app->ninfo++], PMIX_HOST, values[i], PMIX_STRING);
        } else if (0 == strcmp(keys[i], "path") && NULL == strchr(cmd, '/')) {
            char *full;
            if (asprintf(&full, "%s/%s", values[i], cmd) < 0) {
                return PMIX_ERR_NOMEM;
            }
            free(app->cmd);
            app->cmd = full;
        }
    }
    if (PMIX_SUCCESS == rc) {
        PMIX_SETENV(rc, "PMI_SPAWNED", "1", &app->env);
    }
    for (int i = 0; i < npreput && PMIX_SUCCESS == rc; i++) {
        char name[64], *pair;
        snprintf(name, sizeof(name), PREPUT_ENV "%d", i);
        if (asprintf(&pair, "%s=%s", preput_keys[i], preput_values[i]) < 0) {
            return PMIX_ERR_NOMEM;
        }
        PMIX_SETENV(rc, name, pair, &app->env);
        free(pair);
    }
    return rc;
}

int pmic_spawn(int count, const char *const *cmds, const char *const *const *args,
               const int *maxprocs, const int *ninfo, const char *const *const *info_keys,
               const char *const *const *info_values, int npreput,
               const char *const *preput_keys, const char *const *preput_values, char *nspace)
{
    pmix_app_t *apps;
    pmix_nspace_t child;
    pmix_status_t rc = PMIX_SUCCESS;

    if (!initialized) {
        return PMIC_ERR_INIT;
    }
    if (count < 1 || NULL == cmds || NULL == maxprocs || npreput < 0) {
        return PMIC_ERR_INVALID_ARG;
    }
    for (int i = 0; i < npreput; i++) {
        if (NULL == preput_keys[i] || NULL == preput_values[i] || '\0' == preput_keys[i][0] ||
            NULL != strchr(preput_keys[i], '=')) {
            return PMIC_ERR_INVALID_ARG;
        }
    }
    PMIX_APP_CREATE(apps, count);
    if (NULL == apps) {
        return PMIC_ERR_NOMEM;
    }
    for (int a = 0; a < count && PMIX_SUCCESS == rc; a++) {
        int n = NULL != ninfo ? ninfo[a] : 0;
        rc = fill_app(&apps[a], cmds[a], NULL != args ? args[a] : NULL, maxprocs[a], n,
                      n > 0 ? info_keys[a] : NULL, n > 0 ? info_values[a] : NULL, npreput,
                      preput_keys, preput_values);
    }
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Spawn(NULL, 0, apps, (size_t)count, child);
    }
    PMIX_APP_FREE(apps, count);
    if (PMIX_SUCCESS == rc && NULL != nspace) {
        PMIX_LOAD_NSPACE(nspace, child);
    }
    return code(rc);
}
