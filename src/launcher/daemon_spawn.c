/*
 * daemon_spawn.c - the `drover run` command line of a PMIx tool's spawn
 *                  through the daemon.
 *
 * Design notes:
 *  - A spawn is one job, a `drover run` child of the daemon: each app is
 *    one section of the run's command line, `-n N [--wdir DIR] [-x
 *    NAME=value...] -- argv`, ':' between them (launcher.md: several
 *    apps), so that the ranks of app 0 come first and each rank gets its
 *    app's PMIX_APPNUM, environment and working directory. The job's
 *    environment stays the daemon's: an app's env entries are its -x.
 *  - The debugger directives (PMIX_DEBUG_STOP_IN_INIT, _ON_EXEC,
 *    _IN_APP) become the run's --stop-* options: true (or a wildcard)
 *    for every rank, a rank, a process or an array of either as
 *    --stop-*=RANKS (a process by its rank: the tool cannot know the
 *    job's namespace before the reply).
 *  - PRRTE's PMIX_MAPBY modifier ":OVERSUBSCRIBE" is --oversubscribe.
 *  - drover's own `submit` gives the run's arguments as typed
 *    (DROVER_SPAWN_RUN_ARGS): they follow the options above unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "directive.h"
#include "launcher.h"
#include "pmix.h"

/* A growing list of the run's arguments (owned strings). */
typedef struct words {
    char **w;
    size_t n, cap;
    bool oom;
} words_t;

static void add_word(words_t *w, char *owned)
{
    if (w->n + 2 > w->cap) {
        size_t cap = 0 == w->cap ? 16 : 2 * w->cap;
        char **grown = realloc(w->w, cap * sizeof(*grown));
        if (NULL == grown) {
            w->oom = true;
            free(owned);
            return;
        }
        w->w = grown;
        w->cap = cap;
    }
    w->oom |= NULL == owned;
    if (NULL != owned) {
        w->w[w->n++] = owned;
        w->w[w->n] = NULL;
    }
}

const char *daemon_spawn_dir(const pmix_app_t *app)
{
    const pmix_value_t *wd = directive_find(app->info, app->ninfo, PMIX_WDIR);
    return NULL != app->cwd && '\0' != app->cwd[0]                            ? app->cwd
           : NULL != wd && PMIX_STRING == wd->type && NULL != wd->data.string ? wd->data.string
                                                                              : NULL;
}

/* One app's section of the run's arguments: -n N [--wdir DIR] [-x
 * NAME=value...] -- argv (docs/launcher.md, several apps). An env entry
 * that -x cannot set is PMIX_ERR_BAD_PARAM. */
static pmix_status_t app_args(const pmix_app_t *app, words_t *w)
{
    char count[16];
    snprintf(count, sizeof(count), "%d", app->maxprocs);
    add_word(w, strdup("-n"));
    add_word(w, strdup(count));
    if (NULL != daemon_spawn_dir(app)) {
        add_word(w, strdup("--wdir"));
        add_word(w, strdup(daemon_spawn_dir(app)));
    }
    for (size_t e = 0; NULL != app->env && NULL != app->env[e]; e++) {
        const char *eq = strchr(app->env[e], '=');
        if (NULL == eq || !options_variable_name(app->env[e], (size_t)(eq - app->env[e]))) {
            return PMIX_ERR_BAD_PARAM;
        }
        add_word(w, strdup("-x"));
        add_word(w, strdup(app->env[e]));
    }
    add_word(w, strdup("--"));
    if (NULL == app->argv || NULL == app->argv[0]) {
        add_word(w, strdup(app->cmd));
    }
    for (size_t i = 0; NULL != app->argv && NULL != app->argv[i]; i++) {
        add_word(w, strdup(app->argv[i]));
    }
    return w->oom ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

/* The rank the i-th item of a directive's value names (type PMIX_PROC or
 * PMIX_PROC_RANK; a an array of them or NULL). */
static pmix_rank_t nth_rank(const pmix_value_t *v, const pmix_data_array_t *a,
                            pmix_data_type_t type, size_t i)
{
    if (PMIX_PROC == type) {
        return (NULL != a ? &((const pmix_proc_t *)a->array)[i] : v->data.proc)->rank;
    }
    return NULL != a ? ((const pmix_rank_t *)a->array)[i] : v->data.rank;
}

/* The ranks a debugger directive's value names, as the run's --stop-*
 * option takes them: "" for every rank (true, a wildcard), "=0,2" for
 * ranks, processes or arrays of either; NULL for none (false). A process
 * is taken by its rank: the tool cannot know the job's namespace yet. */
static pmix_status_t stop_ranks(const pmix_value_t *v, char **text)
{
    const pmix_data_array_t *a = PMIX_DATA_ARRAY == v->type ? v->data.darray : NULL;
    pmix_data_type_t type = NULL != a ? a->type : v->type;
    size_t n = NULL != a ? a->size : 1, size = 0;
    bool all = PMIX_BOOL == v->type && v->data.flag;
    *text = NULL;
    if (PMIX_BOOL == v->type || 0 == n) {
        *text = all ? strdup("") : NULL;
        return all && NULL == *text ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    }
    if ((PMIX_PROC != type && PMIX_PROC_RANK != type) || (NULL != a && NULL == a->array) ||
        (PMIX_PROC == v->type && NULL == v->data.proc)) {
        return PMIX_ERR_BAD_PARAM;
    }
    FILE *out = open_memstream(text, &size);
    pmix_status_t rc = NULL == out ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    for (size_t i = 0; PMIX_SUCCESS == rc && i < n; i++) {
        pmix_rank_t rank = nth_rank(v, a, type, i);
        all |= PMIX_RANK_WILDCARD == rank;
        if (!all && rank >= OPTIONS_MAX_RANKS) {
            rc = PMIX_ERR_BAD_PARAM;
        } else {
            fprintf(out, "%s%u", 0 == i ? "=" : ",", rank);
        }
    }
    if (NULL != out && 0 != fclose(out) && PMIX_SUCCESS == rc) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != rc || all) {
        free(*text);
        *text = PMIX_SUCCESS == rc ? strdup("") : NULL;
    }
    return PMIX_SUCCESS == rc && NULL == *text ? PMIX_ERR_NOMEM : rc;
}

/* The run's options for a spawn's debugger directives (PMIX_DEBUG_STOP_
 * IN_INIT, _ON_EXEC, _IN_APP: true, a rank, processes), added to w:
 * --stop-in-init, or --stop-in-init=RANKS for some ranks only. */
static pmix_status_t debug_options(const pmix_info_t *info, size_t ninfo, words_t *w)
{
    static const struct {
        const char *key;
        const char *option;
    } map[] = {{PMIX_DEBUG_STOP_IN_INIT, "--stop-in-init"},
               {PMIX_DEBUG_STOP_ON_EXEC, "--stop-on-exec"},
               {PMIX_DEBUG_STOP_IN_APP, "--stop-in-app"}};
    for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++) {
        const pmix_value_t *v = directive_find(info, ninfo, map[k].key);
        char *ranks = NULL, *option = NULL;
        pmix_status_t rc = NULL == v ? PMIX_SUCCESS : stop_ranks(v, &ranks);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
        if (NULL != ranks) {
            add_word(w, asprintf(&option, "%s%s", map[k].option, ranks) < 0 ? NULL : option);
        }
        free(ranks);
    }
    return w->oom ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

pmix_status_t daemon_spawn_args(const pmix_info_t *info, size_t ninfo, const pmix_app_t *apps,
                                size_t napps, char *const *given, size_t ngiven, char ***args,
                                size_t *nargs)
{
    const pmix_value_t *map = directive_find(info, ninfo, PMIX_MAPBY);
    words_t words = {0}, *w = &words;
    pmix_status_t rc = debug_options(info, ninfo, w);
    if (NULL != map && PMIX_STRING == map->type && NULL != map->data.string &&
        NULL != strcasestr(map->data.string, "OVERSUBSCRIBE")) {
        /* PRRTE's way of asking for it: ":OVERSUBSCRIBE" in PMIX_MAPBY. */
        add_word(w, strdup("--oversubscribe"));
    }
    for (size_t i = 0; PMIX_SUCCESS == rc && NULL != given && i < ngiven; i++) {
        add_word(w, strdup(given[i]));
    }
    for (size_t a = 0; PMIX_SUCCESS == rc && NULL == given && a < napps; a++) {
        if (a > 0) {
            add_word(w, strdup(":"));
        }
        rc = app_args(&apps[a], w);
    }
    rc = PMIX_SUCCESS == rc && w->oom ? PMIX_ERR_NOMEM : rc;
    if (PMIX_SUCCESS != rc) {
        launch_free_env(words.w);
        return rc;
    }
    *args = words.w;
    *nargs = words.n;
    return PMIX_SUCCESS;
}
