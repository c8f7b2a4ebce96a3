/*
 * jobfile.c - YAML job files: `drover run job.yml`, `drover submit job.yml`.
 *
 * Design notes:
 *  - The file is read with the datatypes' YAML reader (types/ydoc.c), so a
 *    job file gets the limits a --types file gets against hostile input
 *    (nesting, alias bombs, size, one document), and the same located
 *    messages (types/diag.c): FILE:LINE:COL: error: KEY.PATH: message.
 *  - Every mistake of the file is collected and printed, one line each;
 *    any of them starts nothing.
 *  - The keys are the long options' names, and the command line wins: the
 *    file fills only what the command line left unset.
 *  - Relative paths in the file (types, wdir) are relative to the file's
 *    directory, so a job file works from anywhere.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "launcher.h"
#include "ydoc.h"

/* Settings of the job as a whole; unset ones stay as the command line
 * left them. */
typedef struct settings {
    double timeout;
    double grace;
    bool has_timeout;
    bool has_grace;
    launcher_policy_t map_by;
    launcher_policy_t bind_to;
    bool oversubscribe;
    bool use_hwthreads;
    bool tag_output;
    bool no_lib_path;
    char *wdir;
    char **env;
} settings_t;

typedef struct reader {
    diags_t d;
    path_t path;
    const char *dir; /* the file's directory with its '/', or "" */
    bool oom;
} reader_t;

static const char *const job_keys[] = {
    "apps",
    "env",
    "wdir",
    "timeout",
    "grace",
    "map-by",
    "bind-to",
    "oversubscribe",
    "use-hwthread-cpus",
    "tag-output",
    "no-libpmix-path",
    "types",
};
static const char *const app_keys[] = {"program", "args", "count", "env", "wdir"};

#define NKEYS(a) (sizeof(a) / sizeof((a)[0]))

static void err(reader_t *r, const ynode_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void err(reader_t *r, const ynode_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diags_verror(&r->d, &at->span, r->path.s, fmt, ap);
    va_end(ap);
}

static const char *kind_name(const ynode_t *v)
{
    return YN_MAP == v->kind ? "a mapping" : YN_SEQ == v->kind ? "a list" : "a value";
}

/* The text of a scalar, or NULL after a message wanting what. */
static const char *scalar(reader_t *r, const ynode_t *v, const char *what)
{
    if (YN_SCALAR != v->kind) {
        err(r, v, "wants %s, not %s", what, kind_name(v));
        return NULL;
    }
    return v->text;
}

static bool want(reader_t *r, const ynode_t *v, ykind_t kind, const char *what)
{
    if (v->kind != kind) {
        err(r, v, "wants %s, not %s", what, kind_name(v));
        return false;
    }
    return true;
}

static void boolean(reader_t *r, const ynode_t *v, bool *dest)
{
    const char *t = scalar(r, v, "true or false");
    if (NULL == t) {
        return;
    }
    if (0 == strcmp(t, "true") || 0 == strcmp(t, "True") || 0 == strcmp(t, "TRUE")) {
        *dest = true;
    } else if (0 == strcmp(t, "false") || 0 == strcmp(t, "False") || 0 == strcmp(t, "FALSE")) {
        *dest = false;
    } else {
        err(r, v, "wants true or false, not '%s'", t);
    }
}

static void seconds(reader_t *r, const ynode_t *v, bool zero_ok, double *dest, bool *given)
{
    const char *t = scalar(r, v, "a number of seconds");
    if (NULL == t) {
        return;
    }
    if (!options_seconds(t, zero_ok, dest)) {
        err(r, v, "wants a number of seconds%s, not '%s'", zero_ok ? "" : " above 0", t);
        return;
    }
    *given = true;
}

static void policy(reader_t *r, const ynode_t *v, bool map, launcher_policy_t *dest)
{
    const char *t = scalar(r, v, "a policy");
    const char *wanted = NULL == t ? NULL : options_policy(t, map, dest);
    if (NULL != wanted) {
        err(r, v, "wants %s, not '%s'", wanted, t);
    }
}

static char *dup_or_oom(reader_t *r, const char *s)
{
    char *copy = strdup(s);
    r->oom |= NULL == copy;
    return copy;
}

/* A path of the file, relative ones made relative to its directory. */
static void path_value(reader_t *r, const ynode_t *v, const char *what, char **dest)
{
    const char *t = scalar(r, v, what);
    if (NULL == t) {
        return;
    }
    if ('\0' == t[0]) {
        err(r, v, "wants %s, not an empty value", what);
        return;
    }
    free(*dest);
    if (asprintf(dest, "%s%s", '/' == t[0] ? "" : r->dir, t) < 0) {
        *dest = NULL;
        r->oom = true;
    }
}

/* A working directory: a path that must name a directory. */
static void directory(reader_t *r, const ynode_t *v, char **dest)
{
    path_value(r, v, "a directory", dest);
    struct stat st;
    if (NULL == *dest) {
        return;
    }
    if (0 != stat(*dest, &st)) {
        err(r, v, "%s: %s", *dest, ENOENT == errno ? "no such directory" : strerror(errno));
    } else if (!S_ISDIR(st.st_mode)) {
        err(r, v, "%s: not a directory", *dest);
    }
}

/* env: NAME: value entries set on top of *env. */
static void environment(reader_t *r, const ynode_t *v, char ***env)
{
    if (!want(r, v, YN_MAP, "a mapping of variables to values")) {
        return;
    }
    for (size_t i = 0; i + 1 < v->n; i += 2) {
        const ynode_t *k = v->items[i], *val = v->items[i + 1];
        size_t mark = path_push(&r->path, ".%s", k->text);
        const char *text = scalar(r, val, "a value");
        if (!options_variable_name(k->text, strlen(k->text))) {
            err(r, k, "'%s' is not a valid variable name", k->text);
        } else if (NULL != text && NULL != *env) {
            char **grown = launch_setenv(*env, k->text, text);
            r->oom |= NULL == grown;
            *env = NULL == grown ? *env : grown;
        }
        path_pop(&r->path, mark);
    }
}

/* args: a list of values after the program, into argv[1...]. */
static void arguments(reader_t *r, const ynode_t *v, char ***argv)
{
    if (!want(r, v, YN_SEQ, "a list of arguments") || NULL != (*argv)[1]) {
        return;
    }
    char **grown = realloc(*argv, (v->n + 2) * sizeof(*grown));
    if (NULL == grown) {
        r->oom = true;
        return;
    }
    *argv = grown;
    grown[1] = NULL;
    for (size_t i = 0; i < v->n; i++) {
        size_t mark = path_push(&r->path, "[%zu]", i);
        const char *text = scalar(r, v->items[i], "an argument");
        /* A wrong one is kept as "" (nothing runs): argv stays whole. */
        grown[i + 1] = dup_or_oom(r, NULL == text ? "" : text);
        path_pop(&r->path, mark);
        if (NULL == grown[i + 1]) {
            return;
        }
        grown[i + 2] = NULL;
    }
}

/* Walk a mapping: fn gets each known key's value, an unknown key is an
 * error suggesting the closest valid one. */
typedef void (*key_fn)(reader_t *r, const char *key, const ynode_t *value, void *arg);

static void walk(reader_t *r, const ynode_t *map, const char *what, const char *const *keys,
                 size_t nkeys, key_fn fn, void *arg)
{
    for (size_t i = 0; i + 1 < map->n; i += 2) {
        const ynode_t *k = map->items[i];
        size_t mark = path_push(&r->path, "%s%s", 0 == r->path.len ? "" : ".", k->text);
        bool known = false;
        for (size_t j = 0; j < nkeys && !known; j++) {
            known = 0 == strcmp(k->text, keys[j]);
        }
        if (known) {
            fn(r, k->text, map->items[i + 1], arg);
        } else {
            diags_unknown_key(&r->d, false, &k->span, r->path.s, what, k->text, keys, nkeys);
        }
        path_pop(&r->path, mark);
    }
}

typedef struct app_read {
    jobfile_app_t *app;
    char **env; /* the app's own variables */
} app_read_t;

static void app_key(reader_t *r, const char *key, const ynode_t *v, void *arg)
{
    app_read_t *a = arg;
    if (0 == strcmp(key, "program")) {
        /* argv[0] is never NULL, so that argv is freed whole. */
        const char *t = scalar(r, v, "a program");
        if (NULL != t && '\0' == t[0]) {
            err(r, v, "wants a program, not an empty value");
        } else if (NULL != t) {
            char *program = dup_or_oom(r, t);
            if (NULL != program) {
                free(a->app->argv[0]);
                a->app->argv[0] = program;
            }
        }
    } else if (0 == strcmp(key, "args")) {
        arguments(r, v, &a->app->argv);
    } else if (0 == strcmp(key, "count")) {
        const char *t = scalar(r, v, "a number of ranks");
        if (NULL != t && !options_ranks(t, &a->app->count)) {
            err(r, v, "wants a number of ranks from 1 to %u, not '%s'", OPTIONS_MAX_RANKS, t);
        }
    } else if (0 == strcmp(key, "env")) {
        environment(r, v, &a->env);
    } else {
        directory(r, v, &a->app->wdir);
    }
}

/* One app: its program is required, its count 1 by default. */
static void read_app(reader_t *r, const ynode_t *v, jobfile_app_t *app, char ***own_env)
{
    app->count = 1;
    app->argv = calloc(2, sizeof(*app->argv));
    *own_env = calloc(1, sizeof(**own_env));
    if (NULL == app->argv || NULL == *own_env || NULL == (app->argv[0] = strdup(""))) {
        r->oom = true;
        return;
    }
    if (!want(r, v, YN_MAP, "an app: a mapping with program, args, count, env, wdir")) {
        return;
    }
    app_read_t a = {app, *own_env};
    walk(r, v, "an app", app_keys, NKEYS(app_keys), app_key, &a);
    *own_env = a.env;
    if ('\0' == app->argv[0][0]) {
        err(r, v, "an app needs a program");
    }
}

typedef struct job_read {
    settings_t *s;
    jobfile_t *jf;
    char ***app_env; /* per app: its own variables */
    const ynode_t *apps;
} job_read_t;

static void read_apps(reader_t *r, const ynode_t *v, job_read_t *j)
{
    if (!want(r, v, YN_SEQ, "a list of apps") || NULL != j->jf->apps) {
        return;
    }
    if (0 == v->n) {
        err(r, v, "wants at least one app");
        return;
    }
    j->jf->apps = calloc(v->n, sizeof(*j->jf->apps));
    j->app_env = calloc(v->n, sizeof(*j->app_env));
    if (NULL == j->jf->apps || NULL == j->app_env) {
        r->oom = true;
        return;
    }
    j->jf->napps = (unsigned)v->n;
    for (size_t i = 0; i < v->n; i++) {
        size_t mark = path_push(&r->path, "[%zu]", i);
        read_app(r, v->items[i], &j->jf->apps[i], &j->app_env[i]);
        path_pop(&r->path, mark);
    }
}

static void job_key(reader_t *r, const char *key, const ynode_t *v, void *arg)
{
    job_read_t *j = arg;
    settings_t *s = j->s;
    if (0 == strcmp(key, "apps")) {
        j->apps = v;
        read_apps(r, v, j);
    } else if (0 == strcmp(key, "env")) {
        environment(r, v, &s->env);
    } else if (0 == strcmp(key, "wdir")) {
        directory(r, v, &s->wdir);
    } else if (0 == strcmp(key, "timeout")) {
        seconds(r, v, false, &s->timeout, &s->has_timeout);
    } else if (0 == strcmp(key, "grace")) {
        seconds(r, v, true, &s->grace, &s->has_grace);
    } else if (0 == strcmp(key, "map-by") || 0 == strcmp(key, "bind-to")) {
        policy(r, v, 'm' == key[0], 'm' == key[0] ? &s->map_by : &s->bind_to);
    } else if (0 == strcmp(key, "oversubscribe")) {
        boolean(r, v, &s->oversubscribe);
    } else if (0 == strcmp(key, "use-hwthread-cpus")) {
        boolean(r, v, &s->use_hwthreads);
    } else if (0 == strcmp(key, "tag-output")) {
        boolean(r, v, &s->tag_output);
    } else if (0 == strcmp(key, "no-libpmix-path")) {
        boolean(r, v, &s->no_lib_path);
    } else {
        path_value(r, v, "a file", &j->jf->types);
    }
}

/* Each app's environment: the job's variables, then its own on top. */
static void merge_env(reader_t *r, const settings_t *s, jobfile_t *jf, char ***app_env)
{
    for (unsigned a = 0; a < jf->napps; a++) {
        jf->apps[a].env = launch_copy_env(s->env);
        for (char **e = app_env[a]; NULL != jf->apps[a].env && NULL != e && NULL != *e; e++) {
            char *eq = strchr(*e, '=');
            *eq = '\0';
            char **grown = launch_setenv(jf->apps[a].env, *e, eq + 1);
            *eq = '=';
            if (NULL == grown) {
                break;
            }
            jf->apps[a].env = grown;
        }
        r->oom |= NULL == jf->apps[a].env;
        if (NULL == jf->apps[a].wdir && NULL != s->wdir) {
            jf->apps[a].wdir = dup_or_oom(r, s->wdir);
        }
    }
}

/* Each app's count, -n's (cli_count) when given; a job has at most
 * OPTIONS_MAX_RANKS ranks, as on the command line. */
static void count_ranks(reader_t *r, const ynode_t *apps, jobfile_t *jf, unsigned cli_count)
{
    uint64_t total = 0;
    for (unsigned a = 0; a < jf->napps; a++) {
        jf->apps[a].count = 0 != cli_count ? cli_count : jf->apps[a].count;
        total += jf->apps[a].count;
    }
    if (total > OPTIONS_MAX_RANKS) {
        size_t mark = path_push(&r->path, "apps");
        err(r, apps, "%" PRIu64 " ranks in all, more than %u", total, OPTIONS_MAX_RANKS);
        path_pop(&r->path, mark);
    }
}

/* Read and check the whole file into jf and s. */
static void read_file(reader_t *r, const char *file, const char *text, size_t len,
                      unsigned cli_count, jobfile_t *jf, settings_t *s)
{
    ydoc_t doc = YDOC_INIT;
    job_read_t j = {s, jf, NULL, NULL};
    if (ydoc_parse(&doc, file, text, len, &r->d)) {
        const ynode_t *root = doc.root;
        if (NULL == root || YN_MAP != root->kind) {
            span_t start = {file, 1, 1};
            diags_error(&r->d, NULL == root ? &start : &root->span, NULL,
                        "a job file is a mapping with apps: and the job's settings");
        } else {
            walk(r, root, "a job", job_keys, NKEYS(job_keys), job_key, &j);
            if (NULL == j.apps) {
                diags_error(&r->d, &root->span, NULL, "a job file needs apps:");
            }
        }
    }
    if (0 == r->d.nerrors && !r->oom) {
        count_ranks(r, j.apps, jf, cli_count);
        merge_env(r, s, jf, j.app_env);
    }
    for (unsigned a = 0; NULL != j.app_env && a < jf->napps; a++) {
        launch_free_env(j.app_env[a]);
    }
    free(j.app_env);
    ydoc_free(&doc);
}

/* What the command line left unset comes from the file. */
static void apply(launcher_options_t *opts, const settings_t *s, jobfile_t *jf)
{
    opts->timeout = 0 == opts->timeout && s->has_timeout ? s->timeout : opts->timeout;
    opts->grace = !opts->grace_given && s->has_grace ? s->grace : opts->grace;
    opts->map_by = POLICY_DEFAULT == opts->map_by ? s->map_by : opts->map_by;
    opts->bind_to = POLICY_DEFAULT == opts->bind_to ? s->bind_to : opts->bind_to;
    opts->oversubscribe |= s->oversubscribe;
    opts->use_hwthreads |= s->use_hwthreads;
    opts->tag_output |= s->tag_output;
    opts->no_lib_path |= s->no_lib_path;
    if (NULL == opts->types) {
        opts->types = jf->types;
    }
    unsigned total = 0;
    for (unsigned a = 0; a < jf->napps; a++) {
        total += jf->apps[a].count;
    }
    opts->nranks = total;
    opts->argv = jf->apps[0].argv;
}

int jobfile_apply(launcher_options_t *opts)
{
    size_t len = 0;
    char *text = launch_read_text(opts->job, &len);
    if (NULL == text) {
        fprintf(stderr, LAUNCHER_NAME ": %s: cannot read it as a job file (a text file)\n",
                opts->job);
        return LAUNCHER_EXIT_FAILURE;
    }
    const char *slash = strrchr(opts->job, '/');
    char *dir = strndup(opts->job, NULL == slash ? 0 : (size_t)(slash - opts->job + 1));
    reader_t *r = calloc(1, sizeof(*r));
    jobfile_t *jf = calloc(1, sizeof(*jf));
    settings_t s = {.map_by = POLICY_DEFAULT, .bind_to = POLICY_DEFAULT};
    s.env = calloc(1, sizeof(*s.env));
    int status = LAUNCHER_EXIT_FAILURE;
    if (NULL == dir || NULL == r || NULL == jf || NULL == s.env) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        goto out;
    }
    r->dir = dir;
    read_file(r, opts->job, text, len, opts->nranks, jf, &s);
    char *lines = diags_text(&r->d);
    if (NULL != lines) {
        fputs(lines, stderr);
        free(lines);
    }
    if (r->oom || r->d.oom) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
    } else if (0 == r->d.nerrors) {
        apply(opts, &s, jf);
        opts->jobfile = jf;
        jf = NULL;
        status = 0;
    }
out:
    if (NULL != r) {
        diags_clear(&r->d);
    }
    free(r);
    jobfile_free(jf);
    launch_free_env(s.env);
    free(s.wdir);
    free(dir);
    free(text);
    return status;
}
