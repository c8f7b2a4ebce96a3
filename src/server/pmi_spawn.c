/*
 * pmi_spawn.c - spawn requests from PMI clients (PMI-1's mcmd=spawn,
 * PMI-2's spawn), and the keys they "preput" into the new job.
 *
 * Design notes:
 *  - A PMI spawn becomes one PMIx SPAWN request; its apps carry the info
 *    keys MPI_Comm_spawn passes through PMI: wdir (the working
 *    directory), path (where to find the program, as hydra prepends it)
 *    and host/hosts (PMIX_HOST).
 *  - The new processes are told they were spawned with PMI_SPAWNED=1, as
 *    hydra tells them.
 *  - Preput keys (MPICH's PARENT_ROOT_PORT_NAME) must be in the new job's
 *    key-value space before its first process asks. They travel in the
 *    apps' environment (DROVER_PMI_PREPUT_<n>=key=value), which the host
 *    hands back through drover_server_setup_pmi for every new process
 *    before it starts: there they are stored as job-level data of the new
 *    job, where pmi_job_attr finds them. No state waits in the server
 *    between the request and the launch. The variables stay in the
 *    environment, where drover's libpmi reads them (src/pmi).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmi.h"
#include "pmix.h"

#define PREPUT_ENV "DROVER_PMI_PREPUT_"

struct pmi_spawn {
    pmix_app_t *apps;
    size_t napps;
    char **preput;               /* "key=value" entries, NULL-terminated */
};

pmi_spawn_t *pmi_spawn_new(void)
{
    return calloc(1, sizeof(pmi_spawn_t));
}

void pmi_spawn_free(pmi_spawn_t *s)
{
    if (NULL == s) {
        return;
    }
    if (NULL != s->apps) {
        PMIX_APP_FREE(s->apps, s->napps);
    }
    PMIX_ARGV_FREE(s->preput);
    free(s);
}

size_t pmi_spawn_count(const pmi_spawn_t *s)
{
    return s->napps;
}

pmix_status_t pmi_spawn_preput(pmi_spawn_t *s, const char *key, const char *value)
{
    char *entry;
    pmix_status_t rc;

    if ('\0' == key[0] || NULL != strchr(key, '=') || strlen(key) > PMIX_MAX_KEYLEN) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (asprintf(&entry, "%s=%s", key, value) < 0) {
        return PMIX_ERR_NOMEM;
    }
    PMIX_ARGV_APPEND(rc, s->preput, entry);
    free(entry);
    return rc;
}

/* Apply one of MPI_Comm_spawn's info keys to app. */
static pmix_status_t apply_info(pmix_app_t *app, const char *key, const char *value)
{
    if (0 == strcmp(key, "wdir")) {
        free(app->cwd);
        app->cwd = strdup(value);
        return NULL == app->cwd ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    }
    if (0 == strcmp(key, "path") && NULL == strchr(app->cmd, '/')) {
        char *cmd;
        if (asprintf(&cmd, "%s/%s", value, app->cmd) < 0) {
            return PMIX_ERR_NOMEM;
        }
        free(app->cmd);
        app->cmd = cmd;
        return PMIX_SUCCESS;
    }
    if (0 == strcmp(key, "host") || 0 == strcmp(key, "hosts")) {
        pmix_info_t *grown = realloc(app->info, (app->ninfo + 1) * sizeof(*grown));
        if (NULL == grown) {
            return PMIX_ERR_NOMEM;
        }
        app->info = grown;
        PMIX_INFO_LOAD(&app->info[app->ninfo], PMIX_HOST, value, PMIX_STRING);
        app->ninfo++;
        return PMIX_SUCCESS;
    }
    return PMIX_SUCCESS; /* hydra ignores the others too */
}

pmix_status_t pmi_spawn_app(pmi_spawn_t *s, const char *cmd, long maxprocs,
                            const char *const *args, size_t nargs, const char *const *keys,
                            const char *const *values, size_t ninfo)
{
    pmix_status_t rc = PMIX_SUCCESS;

    if ('\0' == cmd[0] || maxprocs < 1 || maxprocs > INT_MAX) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_app_t *grown = realloc(s->apps, (s->napps + 1) * sizeof(*grown));
    if (NULL == grown) {
        return PMIX_ERR_NOMEM;
    }
    s->apps = grown;
    pmix_app_t *app = &s->apps[s->napps++];
    PMIX_APP_CONSTRUCT(app);
    app->maxprocs = (int)maxprocs;
    if (NULL == (app->cmd = strdup(cmd))) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < ninfo && PMIX_SUCCESS == rc; i++) {
        rc = apply_info(app, keys[i], values[i]);
    }
    /* argv[0] is the program as it will be found. */
    if (PMIX_SUCCESS == rc) {
        PMIX_ARGV_APPEND(rc, app->argv, app->cmd);
    }
    for (size_t i = 0; i < nargs && PMIX_SUCCESS == rc; i++) {
        PMIX_ARGV_APPEND(rc, app->argv, args[i]);
    }
    if (PMIX_SUCCESS == rc) {
        PMIX_SETENV(rc, "PMI_SPAWNED", "1", &app->env);
    }
    return rc;
}

void pmi_spawn_start(server_peer_t *peer, pmi_spawn_t *s, pmi_done_t done)
{
    pmix_data_buffer_t buf;
    pmix_status_t rc = PMIX_SUCCESS;

    /* The preputs go with every app. */
    for (size_t a = 0; a < s->napps && PMIX_SUCCESS == rc; a++) {
        for (size_t i = 0; NULL != s->preput && NULL != s->preput[i] && PMIX_SUCCESS == rc; i++) {
            char name[64];
            snprintf(name, sizeof(name), PREPUT_ENV "%zu", i);
            PMIX_SETENV(rc, name, s->preput[i], &s->apps[a].env);
        }
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    if (PMIX_SUCCESS == rc && 0 == s->napps) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS == rc &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &buf, NULL, 0, PMIX_INFO))) {
        rc = PMIx_Data_pack(NULL, &buf, s->apps, (int32_t)s->napps, PMIX_APP);
    }
    pmi_spawn_free(s);
    pmi_request(peer, PROTOCOL_SPAWN, &buf, rc, done);
}

pmix_status_t pmi_spawn_jobid(pmix_data_buffer_t *body, char **nspace)
{
    int32_t n = 1;
    *nspace = NULL;
    if (NULL == body) {
        return PMIX_ERR_NOT_FOUND;
    }
    pmix_status_t rc = PMIx_Data_unpack(NULL, body, nspace, &n, PMIX_STRING);
    if (PMIX_SUCCESS == rc && NULL == *nspace) {
        rc = PMIX_ERR_NOT_FOUND;
    }
    return rc;
}

pmix_status_t pmi_spawn_take_preputs(const char *nspace, char *const *env)
{
    store_ns_t *ns = NULL;
    hashmap_t *keys = NULL;

    for (size_t i = 0; NULL != env[i]; i++) {
        const char *e = env[i];
        const char *pair = 0 == strncmp(e, PREPUT_ENV, sizeof(PREPUT_ENV) - 1) ? strchr(e, '=')
                                                                               : NULL;
        const char *eq = NULL == pair ? NULL : strchr(pair + 1, '=');
        char key[PMIX_MAX_KEYLEN + 1];
        if (NULL == eq || eq == pair + 1 || eq - pair - 1 > PMIX_MAX_KEYLEN) {
            continue;
        }
        if (NULL == keys &&
            (NULL == (ns = store_ns(&server.data, nspace, true)) ||
             NULL == (keys = store_keys(ns, STORE_PROC, PMIX_RANK_WILDCARD, true)))) {
            return PMIX_ERR_NOMEM;
        }
        snprintf(key, sizeof(key), "%.*s", (int)(eq - pair - 1), pair + 1);
        pmix_value_t v = {.type = PMIX_STRING, .data.string = (char *)eq + 1};
        pmix_status_t rc = store_set(keys, key, &v, SCOPE_LOCAL | SCOPE_REMOTE);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

const char *pmi_spawn_preput_value(const char *nspace, const char *key)
{
    store_ns_t *ns = store_ns(&server.data, nspace, false);
    const hashmap_t *keys =
        NULL == ns ? NULL : store_keys(ns, STORE_PROC, PMIX_RANK_WILDCARD, false);
    const hashmap_entry_t *e = NULL == keys ? NULL : hashmap_find_str(keys, key);
    const pmix_value_t *v = NULL == e ? NULL : e->value;

    /* Registration data carries no scope flags: only preputs have them. */
    return NULL != v && 0 != e->flags && PMIX_STRING == v->type ? v->data.string : NULL;
}
