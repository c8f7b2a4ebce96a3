/*
 * query.c - PMIx_Query_info answers about the run's jobs and processes.
 *
 * Design notes:
 *  - The library answers what it knows itself (server URI, attribute
 *    support); everything about jobs and processes is the host's, so it is
 *    answered here from the job table: the namespaces alive, a job's state
 *    and size, the process table (pmix_proc_info_t per process, including
 *    the exit code of ended ones), process sets and groups (drover defines
 *    none), the time --timeout leaves, whether a job was marked
 *    preemptible (PMIX_JOB_CTRL_PREEMPTIBLE), each live job's namespace and
 *    command line (PMIX_QUERY_NAMESPACE_INFO), and the spawn and debugger
 *    attributes drover honours (PMIX_QUERY_SPAWN_SUPPORT: those spawn.c
 *    reads; PMIX_QUERY_DEBUG_SUPPORT: the stop directives).
 *  - A query names its job with the PMIX_NSPACE qualifier; without it, the
 *    requester's own job is meant.
 *  - Every key of every query gets one result info named by that key. All
 *    answered: PMIX_SUCCESS; some: PMIX_QUERY_PARTIAL_SUCCESS; none:
 *    PMIX_ERR_NOT_FOUND. The results are freed by the release callback.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launcher.h"
#include "pmix.h"

typedef struct results {
    pmix_info_t *info;
    size_t n, cap;
} results_t;

static pmix_info_t *next_result(results_t *res, const char *key)
{
    if (res->n == res->cap) {
        size_t cap = 0 == res->cap ? 8 : 2 * res->cap;
        pmix_info_t *grown = realloc(res->info, cap * sizeof(*grown));
        if (NULL == grown) {
            return NULL;
        }
        res->info = grown;
        res->cap = cap;
    }
    pmix_info_t *i = &res->info[res->n++];
    PMIX_INFO_CONSTRUCT(i);
    PMIX_LOAD_KEY(i->key, key);
    return i;
}

static void release_results(void *cbdata)
{
    results_t *res = cbdata;
    if (NULL != res->info) {
        PMIX_INFO_FREE(res->info, res->n);
    }
    free(res);
}

static pmix_proc_state_t proc_state(const launcher_proc_t *p)
{
    if (p->alive) {
        return p->connected ? PMIX_PROC_STATE_CONNECTED : PMIX_PROC_STATE_RUNNING;
    }
    if (0 == p->pid) {
        return PMIX_PROC_STATE_PREPPED;
    }
    if (p->exit_code > 128 && !p->requested_end) {
        return PMIX_PROC_STATE_ABORTED_BY_SIG;
    }
    if (p->requested_end) {
        return PMIX_PROC_STATE_KILLED_BY_CMD;
    }
    return 0 == p->exit_code ? PMIX_PROC_STATE_TERMINATED : PMIX_PROC_STATE_TERM_NON_ZERO;
}

/* Append job's processes to table at *n. */
static bool fill_table(const launcher_job_t *job, pmix_proc_info_t *table, size_t *n)
{
    for (unsigned r = 0; r < job->nprocs; r++) {
        const launcher_proc_t *p = &job->procs[r];
        pmix_proc_info_t *pi = &table[(*n)++];
        PMIX_LOAD_PROCID(&pi->proc, job->nspace, r);
        pi->hostname = strdup(job->run->hostname);
        pi->executable_name = strdup(job->apps[p->app].program);
        pi->pid = p->pid;
        pi->exit_code = p->exit_code;
        pi->state = proc_state(p);
        if (NULL == pi->hostname || NULL == pi->executable_name) {
            return false;
        }
    }
    return true;
}

static bool proc_table(pmix_info_t *out, const launcher_job_t *job)
{
    pmix_data_array_t *array = calloc(1, sizeof(*array));
    pmix_proc_info_t *table = calloc(job->nprocs > 0 ? job->nprocs : 1, sizeof(*table));
    if (NULL == array || NULL == table) {
        free(array);
        free(table);
        return false;
    }
    array->type = PMIX_PROC_INFO;
    array->array = table;
    out->value.type = PMIX_DATA_ARRAY;
    out->value.data.darray = array;
    /* Counted as filled so that a failure half way frees what was made. */
    bool ok = fill_table(job, table, &array->size);
    return ok;
}

static char *namespaces(const launcher_t *run)
{
    size_t len = 1;
    for (unsigned j = 0; j < run->njobs; j++) {
        len += strlen(run->jobs[j]->nspace) + 1;
    }
    char *s = calloc(1, len);
    for (unsigned j = 0; NULL != s && j < run->njobs; j++) {
        if (run->jobs[j]->state < PMIX_JOB_STATE_TERMINATED) {
            if ('\0' != s[0]) {
                strcat(s, ",");
            }
            strcat(s, run->jobs[j]->nspace);
        }
    }
    return s;
}

/* The spawn attributes spawn.c honours, as PMIX_QUERY_SPAWN_SUPPORT
 * lists them (keys, comma-separated). The debugger attributes it honours
 * (debug.c; no debugger daemons). */
#define SPAWN_SUPPORT PMIX_WDIR "," PMIX_NOTIFY_COMPLETION "," PMIX_TIMEOUT
#define DEBUG_SUPPORT PMIX_DEBUG_STOP_IN_INIT "," PMIX_DEBUG_STOP_IN_APP "," PMIX_DEBUG_STOP_ON_EXEC

/* A job's command line: each app's argv joined by spaces, apps separated
 * by " : " as on drover's own command line. NULL when out of memory. */
static char *command_line(const launcher_job_t *job)
{
    size_t len = 1;
    for (unsigned a = 0; a < job->napps; a++) {
        for (char **arg = job->apps[a].argv; NULL != arg && NULL != *arg; arg++) {
            len += strlen(*arg) + 3;
        }
    }
    char *line = calloc(1, len);
    for (unsigned a = 0; NULL != line && a < job->napps; a++) {
        for (char **arg = job->apps[a].argv; NULL != arg && NULL != *arg; arg++) {
            strcat(line, arg != job->apps[a].argv ? " " : 0 < a ? " : " : "");
            strcat(line, *arg);
        }
    }
    return line;
}

/* PMIX_QUERY_NAMESPACE_INFO: one PMIX_QUERY_NAMESPACE_INFO info per live
 * job, each an info array of its PMIX_NSPACE and PMIX_CMD_LINE, as
 * OpenPMIx's tool example reads it. */
static bool namespace_info(const launcher_t *run, pmix_info_t *out)
{
    void *list = PMIx_Info_list_start();
    pmix_status_t rc = NULL == list ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    for (unsigned j = 0; PMIX_SUCCESS == rc && j < run->njobs; j++) {
        const launcher_job_t *job = run->jobs[j];
        if (job->state >= PMIX_JOB_STATE_TERMINATED) {
            continue;
        }
        pmix_info_t pair[2];
        pmix_data_array_t array = {.type = PMIX_INFO, .size = 2, .array = pair};
        char *cmd = command_line(job);
        if (NULL == cmd) {
            rc = PMIX_ERR_NOMEM;
            break;
        }
        PMIX_INFO_LOAD(&pair[0], PMIX_NSPACE, job->nspace, PMIX_STRING);
        PMIX_INFO_LOAD(&pair[1], PMIX_CMD_LINE, cmd, PMIX_STRING);
        rc = PMIx_Info_list_add(list, PMIX_QUERY_NAMESPACE_INFO, &array, PMIX_DATA_ARRAY);
        PMIX_INFO_DESTRUCT(&pair[0]);
        PMIX_INFO_DESTRUCT(&pair[1]);
        free(cmd);
    }
    pmix_data_array_t all = {.type = PMIX_INFO, .size = 0, .array = NULL};
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Info_list_convert(list, &all);
    }
    if (NULL != list) {
        PMIx_Info_list_release(list);
    }
    if (PMIX_SUCCESS == rc || PMIX_ERR_EMPTY == rc) {
        rc = PMIx_Value_load(&out->value, &all, PMIX_DATA_ARRAY);
    }
    PMIX_DATA_ARRAY_DESTRUCT(&all);
    return PMIX_SUCCESS == rc;
}

/* Answer one key into out. Returns false when drover has no answer. */
static bool answer(launcher_t *run, const char *key, const launcher_job_t *job,
                   pmix_info_t *out)
{
    if (0 == strcmp(key, PMIX_QUERY_NAMESPACES)) {
        char *s = namespaces(run);
        if (NULL == s) {
            return false;
        }
        PMIX_VALUE_LOAD(&out->value, s, PMIX_STRING);
        free(s);
        return true;
    }
    if (0 == strcmp(key, PMIX_QUERY_NAMESPACE_INFO)) {
        return namespace_info(run, out);
    }
    if (0 == strcmp(key, PMIX_QUERY_SPAWN_SUPPORT) || 0 == strcmp(key, PMIX_QUERY_DEBUG_SUPPORT)) {
        PMIX_VALUE_LOAD(&out->value,
                        0 == strcmp(key, PMIX_QUERY_SPAWN_SUPPORT) ? SPAWN_SUPPORT : DEBUG_SUPPORT,
                        PMIX_STRING);
        return true;
    }
    if (0 == strcmp(key, PMIX_QUERY_NUM_PSETS) || 0 == strcmp(key, PMIX_QUERY_NUM_GROUPS)) {
        size_t none = 0;
        PMIX_VALUE_LOAD(&out->value, &none, PMIX_SIZE);
        return true;
    }
    if (0 == strcmp(key, PMIX_QUERY_PSET_NAMES)) {
        PMIX_VALUE_LOAD(&out->value, "", PMIX_STRING);
        return true;
    }
    if (0 == strcmp(key, PMIX_TIME_REMAINING) && run->opts->timeout > 0) {
        double left = run->opts->timeout - (run_now() - run->started);
        uint32_t seconds = left > 0 ? (uint32_t)left : 0;
        PMIX_VALUE_LOAD(&out->value, &seconds, PMIX_UINT32);
        return true;
    }
    if (NULL == job) {
        return false;
    }
    if (0 == strcmp(key, PMIX_JOB_CTRL_PREEMPTIBLE)) {
        bool preemptible = job->preemptible;
        PMIX_VALUE_LOAD(&out->value, &preemptible, PMIX_BOOL);
        return true;
    }
    if (0 == strcmp(key, PMIX_QUERY_JOB_STATUS)) {
        pmix_job_state_t state = job->state;
        PMIX_VALUE_LOAD(&out->value, &state, PMIX_JOB_STATE);
        return true;
    }
    if (0 == strcmp(key, PMIX_JOB_SIZE) || 0 == strcmp(key, PMIX_LOCAL_SIZE)) {
        uint32_t size = job->nprocs;
        PMIX_VALUE_LOAD(&out->value, &size, PMIX_UINT32);
        return true;
    }
    if (0 == strcmp(key, PMIX_QUERY_PROC_TABLE) || 0 == strcmp(key, PMIX_QUERY_LOCAL_PROC_TABLE)) {
        /* Every process is local: both tables are the same. */
        return proc_table(out, job);
    }
    return false;
}

void query_answer(launcher_t *run, const pmix_proc_t *requester, const pmix_query_t *queries,
                  size_t nqueries, pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    results_t *res = calloc(1, sizeof(*res));
    if (NULL == res) {
        cbfunc(PMIX_ERR_NOMEM, NULL, 0, cbdata, NULL, NULL);
        return;
    }
    size_t asked = 0, answered = 0;
    for (size_t q = 0; q < nqueries; q++) {
        const launcher_job_t *job = NULL;
        bool named = false;
        for (size_t i = 0; i < queries[q].nqual; i++) {
            const pmix_info_t *qual = &queries[q].qualifiers[i];
            if (PMIX_CHECK_KEY(qual, PMIX_NSPACE) && PMIX_STRING == qual->value.type) {
                job = job_find(run, qual->value.data.string);
                named = true;
            }
        }
        if (!named) {
            job = job_find(run, requester->nspace);
        }
        for (size_t k = 0; NULL != queries[q].keys && NULL != queries[q].keys[k]; k++) {
            asked++;
            pmix_info_t *out = next_result(res, queries[q].keys[k]);
            if (NULL == out) {
                break;
            }
            if (answer(run, queries[q].keys[k], job, out)) {
                answered++;
            } else {
                PMIX_INFO_DESTRUCT(out);
                res->n--;
            }
        }
    }
    pmix_status_t rc = 0 == answered        ? PMIX_ERR_NOT_FOUND
                       : answered < asked   ? PMIX_QUERY_PARTIAL_SUCCESS
                                            : PMIX_SUCCESS;
    if (0 == res->n) {
        release_results(res);
        cbfunc(rc, NULL, 0, cbdata, NULL, NULL);
        return;
    }
    cbfunc(rc, res->info, res->n, cbdata, release_results, res);
}
