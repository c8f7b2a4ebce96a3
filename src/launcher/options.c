/*
 * options.c - the command line of `drover run`.
 *
 * Design notes:
 *  - One table lists every option: its spellings, its argument, its help
 *    line and the function that stores it. The parser and the help text
 *    are both driven by it, so adding an option is one line and one small
 *    setter.
 *  - Options come first; the first word that is not an option (or the word
 *    after "--") is the program, and everything after it belongs to the
 *    program, options-looking words included, up to a word ":".
 *  - Several apps (MPMD) as mpirun, prterun and hydra take them:
 *    `-n 2 a : -n 3 b args`. Each ':' starts an app with its own -n, -x and
 *    --wdir (the options marked per_app); the job's other options come
 *    before the first program. The apps become a jobfile_t, as a job file's
 *    would (ranks of app 0 first), and the first section's -x and --wdir
 *    are then app 0's alone.
 *  - --stop-in-init, --stop-on-exec and --stop-in-app take an optional
 *    "=RANKS" (a comma-separated list): only those ranks stop.
 *  - A job file instead of a program: --job FILE, or a single last word
 *    ending in .yml or .yaml (not after "--", which keeps it a program).
 *    Reading it is jobfile.c's.
 *  - Long options take their value as "--name value" or "--name=value";
 *    short ones as "-n value". The spellings mpirun users type (-np) are
 *    accepted as well.
 *  - Every mistake is reported as one line naming the offending word; the
 *    caller exits with LAUNCHER_EXIT_USAGE.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* Long enough for any job; keeps timer arithmetic far from overflow. */
#define MAX_SECONDS 1e7
#define DEFAULT_GRACE 5.0

/* Setters return 0, or -1 after printing why the value was refused. */
typedef int (*option_setter_t)(launcher_options_t *opts, const char *name, const char *value);

typedef struct option_spec {
    const char *names[3];   /* spellings, the first one shown first */
    const char *arg;        /* the argument's name in the help; NULL: a flag */
    option_setter_t set;    /* NULL: -h, handled by the parser */
    const char *help;
    bool per_app;           /* an app's own: may follow a ':' */
    bool value_optional;    /* the value only as --name=VALUE */
} option_spec_t;

static void complain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void complain(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, LAUNCHER_NAME ": ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (try '" LAUNCHER_NAME " -h')\n");
    va_end(ap);
}

bool options_ranks(const char *value, unsigned *nranks)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(value, &end, 10);
    if (!isdigit((unsigned char)value[0]) || '\0' != *end || 0 != errno || 0 == n ||
        n > OPTIONS_MAX_RANKS) {
        return false;
    }
    *nranks = (unsigned)n;
    return true;
}

static int set_nranks(launcher_options_t *opts, const char *name, const char *value)
{
    if (!options_ranks(value, &opts->nranks)) {
        complain("%s wants a number of ranks from 1 to %u, not '%s'", name, OPTIONS_MAX_RANKS,
                 value);
        return -1;
    }
    return 0;
}

bool options_seconds(const char *value, bool zero_ok, double *seconds)
{
    char *end;
    errno = 0;
    double s = strtod(value, &end);
    if (end == value || '\0' != *end || 0 != errno || !isfinite(s) || s < 0 ||
        s > MAX_SECONDS || (!zero_ok && 0 == s)) {
        return false;
    }
    *seconds = s;
    return true;
}

static int set_seconds(double *dest, const char *name, const char *value, bool zero_ok)
{
    if (!options_seconds(value, zero_ok, dest)) {
        complain("%s wants a number of seconds%s, not '%s'", name,
                 zero_ok ? "" : " above 0", value);
        return -1;
    }
    return 0;
}

static int set_timeout(launcher_options_t *opts, const char *name, const char *value)
{
    return set_seconds(&opts->timeout, name, value, false);
}

static int set_grace(launcher_options_t *opts, const char *name, const char *value)
{
    opts->grace_given = true;
    return set_seconds(&opts->grace, name, value, true);
}

bool options_variable_name(const char *s, size_t len)
{
    if (0 == len || isdigit((unsigned char)s[0])) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        if (!isalnum((unsigned char)s[i]) && '_' != s[i]) {
            return false;
        }
    }
    return true;
}

static int set_export(launcher_options_t *opts, const char *name, const char *value)
{
    const char *eq = strchr(value, '=');
    size_t len = NULL == eq ? strlen(value) : (size_t)(eq - value);
    if (!options_variable_name(value, len)) {
        complain("%s wants VAR or VAR=value with a valid variable name, not '%s'", name, value);
        return -1;
    }
    const char **grown = realloc(opts->exports, (opts->nexports + 1) * sizeof(*grown));
    if (NULL == grown) {
        complain("out of memory");
        return -1;
    }
    grown[opts->nexports++] = value;
    opts->exports = grown;
    return 0;
}

static int set_wdir(launcher_options_t *opts, const char *name, const char *value)
{
    if ('\0' == value[0]) {
        complain("%s wants a directory", name);
        return -1;
    }
    opts->wdir = value;
    return 0;
}

static int set_tag_output(launcher_options_t *opts, const char *name, const char *value)
{
    opts->tag_output = true;
    return 0;
}

static int set_oversubscribe(launcher_options_t *opts, const char *name, const char *value)
{
    opts->oversubscribe = true;
    return 0;
}

static int set_hwthreads(launcher_options_t *opts, const char *name, const char *value)
{
    opts->use_hwthreads = true;
    return 0;
}

static int set_daemon(launcher_options_t *opts, const char *name, const char *value)
{
    opts->daemon = true;
    return 0;
}

static int set_no_lib_path(launcher_options_t *opts, const char *name, const char *value)
{
    opts->no_lib_path = true;
    return 0;
}

size_t options_rank_list(const char *text, unsigned *ranks, size_t max)
{
    size_t n = 0;
    for (const char *at = text;; at++) {
        char *end;
        errno = 0;
        unsigned long rank = strtoul(at, &end, 10);
        if (!isdigit((unsigned char)at[0]) || 0 != errno || rank >= OPTIONS_MAX_RANKS ||
            (',' != *end && '\0' != *end)) {
            return 0;
        }
        if (NULL != ranks && n < max) {
            ranks[n] = (unsigned)rank;
        }
        n++;
        if ('\0' == *end) {
            return n;
        }
        at = end;
    }
}

/* --stop-in-init, --stop-on-exec and --stop-in-app (name is the spelling
 * given): every rank without a value, else the ranks listed. */
static int set_stop(launcher_options_t *opts, const char *name, const char *value)
{
    const char **dest = 0 == strcmp(name, "--stop-in-init")   ? &opts->stop_in_init
                        : 0 == strcmp(name, "--stop-on-exec") ? &opts->stop_on_exec
                                                              : &opts->stop_in_app;
    if (NULL != value && 0 == options_rank_list(value, NULL, 0)) {
        complain("%s wants a list of ranks such as 0,2,5, not '%s'", name, value);
        return -1;
    }
    *dest = NULL == value ? "" : value;
    return 0;
}

static int set_types(launcher_options_t *opts, const char *name, const char *value)
{
    opts->types = value;
    return 0;
}

static int set_job(launcher_options_t *opts, const char *name, const char *value)
{
    opts->job = value;
    return 0;
}

static int set_trace(launcher_options_t *opts, const char *name, const char *value)
{
    opts->trace = value;
    return 0;
}

/* The names policies are known by; a table so parsing and printing agree. */
static const struct {
    const char *name;
    launcher_policy_t policy;
    bool map;    /* valid for --map-by */
    bool bind;   /* valid for --bind-to */
} policies[] = {
    {"none", POLICY_NONE, false, true},
    {"slot", POLICY_SLOT, true, false},
    {"core", POLICY_CORE, true, true},
    {"hwthread", POLICY_HWTHREAD, true, true},
    {"numa", POLICY_NUMA, true, true},
    {"socket", POLICY_SOCKET, true, true},
};

#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

const char *options_policy_name(launcher_policy_t policy)
{
    for (size_t i = 0; i < NPOLICIES; i++) {
        if (policies[i].policy == policy) {
            return policies[i].name;
        }
    }
    return "default";
}

const char *options_policy(const char *value, bool map, launcher_policy_t *dest)
{
    for (size_t i = 0; i < NPOLICIES; i++) {
        if ((map ? policies[i].map : policies[i].bind) && 0 == strcmp(value, policies[i].name)) {
            *dest = policies[i].policy;
            return NULL;
        }
    }
    return map ? "slot, core, hwthread, numa or socket" : "none, core, hwthread, numa or socket";
}

static int set_policy(launcher_policy_t *dest, bool map, const char *name, const char *value)
{
    const char *wanted = options_policy(value, map, dest);
    if (NULL != wanted) {
        complain("%s wants %s, not '%s'", name, wanted, value);
        return -1;
    }
    return 0;
}

static int set_map_by(launcher_options_t *opts, const char *name, const char *value)
{
    return set_policy(&opts->map_by, true, name, value);
}

static int set_bind_to(launcher_options_t *opts, const char *name, const char *value)
{
    return set_policy(&opts->bind_to, false, name, value);
}

static const option_spec_t specs[] = {
    {{"-n", "-np", "--np"}, "N", set_nranks, "start N ranks (required)", true},
    {{"-x"}, "VAR[=value]", set_export,
     "set VAR in the ranks' environment (repeatable; without a value, drover's own)", true},
    {{"--wdir"}, "DIR", set_wdir, "run the ranks in DIR", true},
    {{"--tag-output"}, NULL, set_tag_output, "prefix every output line with \"[rank] \""},
    {{"--timeout"}, "SEC", set_timeout,
     "end the job after SEC seconds (exit status 124)"},
    {{"--grace"}, "SEC", set_grace,
     "seconds between SIGTERM and SIGKILL when ending a job (default 5)"},
    {{"--map-by"}, "POLICY", set_map_by,
     "spread ranks over slot (default), core, hwthread, numa or socket"},
    {{"--bind-to"}, "POLICY", set_bind_to,
     "bind each rank to none, core, hwthread, numa or socket (default: core,\n"
     "                            or none when oversubscribed)"},
    {{"--oversubscribe"}, NULL, set_oversubscribe, "allow more ranks than slots"},
    {{"--types"}, "FILE", set_types, "declare FILE's YAML datatypes in every rank"},
    {{"--job"}, "FILE", set_job,
     "run the YAML job file FILE (also: a last word ending in .yml or .yaml)"},
    {{"--trace"}, "FILE", set_trace, "write a timeline of the run to FILE (trace-event JSON)"},
    {{"--use-hwthread-cpus"}, NULL, set_hwthreads,
     "count hardware threads, not cores, as slots"},
    {{"--no-libpmix-path"}, NULL, set_no_lib_path,
     "do not put drover's libpmix.so.2 directory first on the ranks'\n"
     "                            LD_LIBRARY_PATH"},
    {{"--stop-in-init"}, "RANKS", set_stop,
     "stop every rank (or those listed: 0,2) in PMIx_Init\n"
     "                            until a debugger releases it", false, true},
    {{"--stop-on-exec"}, "RANKS", set_stop,
     "stop every rank (or those listed) at exec (state T)\n"
     "                            until a debugger releases it", false, true},
    {{"--stop-in-app"}, "RANKS", set_stop,
     "tell every rank (or those listed) to stop where it\n"
     "                            chooses until a debugger releases it", false, true},
    {{"--daemon"}, NULL, set_daemon,
     "run through the user's drover daemon (also DROVER_DAEMON=1)"},
    {{"-h", "--help"}, NULL, NULL, "show this help"},
};

#define NSPECS (sizeof(specs) / sizeof(specs[0]))

static const option_spec_t *find_spec(const char *name, size_t len)
{
    for (size_t i = 0; i < NSPECS; i++) {
        for (size_t j = 0; j < 3 && NULL != specs[i].names[j]; j++) {
            if (strlen(specs[i].names[j]) == len && 0 == strncmp(specs[i].names[j], name, len)) {
                return &specs[i];
            }
        }
    }
    return NULL;
}

static void print_help(void)
{
    printf("usage: drover run -n N [options] [--] program [arguments]\n"
           "       drover run -n N [options] program [arguments] : -n M [-x ..] [--wdir ..]\n"
           "                  program2 [arguments] [: ...]\n"
           "       drover run [options] job.yml\n\n"
           "Start N ranks of program on this node under drover's PMIx server and\n"
           "forward their output. The exit status is the first non-zero status of\n"
           "any rank (128+signal for a rank killed by a signal). Each ':' starts\n"
           "another app of the job with its own -n, -x and --wdir.\n\noptions:\n");
    for (size_t i = 0; i < NSPECS; i++) {
        char spelling[64];
        int len = 0;
        for (size_t j = 0; j < 3 && NULL != specs[i].names[j]; j++) {
            len += snprintf(spelling + len, sizeof(spelling) - (size_t)len, "%s%s",
                            0 == j ? "" : ", ", specs[i].names[j]);
        }
        if (NULL != specs[i].arg) {
            snprintf(spelling + len, sizeof(spelling) - (size_t)len,
                     specs[i].value_optional ? "[=%s]" : " %s", specs[i].arg);
        }
        printf("  %-25s %s\n", spelling, specs[i].help);
    }
}

/* The word names a job file: it ends in .yml or .yaml. */
static bool is_job_file(const char *word)
{
    size_t len = strlen(word);
    return (len > 4 && 0 == strcmp(word + len - 4, ".yml")) ||
           (len > 5 && 0 == strcmp(word + len - 5, ".yaml"));
}

/* The options at argv[*i] onward into opts, up to the first word that is
 * not one; "--" ends them too (*after_dashes). app > 0: the options
 * after the app's ':', only per_app ones. 0, OPTIONS_HELP, or -1 after a
 * message. */
static int parse_options(int argc, char **argv, int *i, launcher_options_t *opts, unsigned app,
                         bool *after_dashes)
{
    while (*i < argc) {
        const char *word = argv[*i];
        if (0 == strcmp(word, "--")) {
            *after_dashes = true;
            (*i)++;
            return 0;
        }
        if ('-' != word[0] || '\0' == word[1]) {
            return 0;
        }
        const char *inline_value = 0 == strncmp(word, "--", 2) ? strchr(word, '=') : NULL;
        size_t len = NULL == inline_value ? strlen(word) : (size_t)(inline_value - word);
        const option_spec_t *spec = find_spec(word, len);
        if (NULL == spec) {
            complain("unknown option '%.*s'", (int)len, word);
            return -1;
        }
        char name[32];
        snprintf(name, sizeof(name), "%.*s", (int)len, word);
        if (app > 0 && !spec->per_app) {
            complain("%s is the whole job's: give it before the first program, not after ':' "
                     "number %u (an app takes only -n, -x and --wdir)",
                     name, app);
            return -1;
        }
        if (NULL == spec->set) {
            print_help();
            return OPTIONS_HELP;
        }
        const char *value = NULL;
        if (NULL != spec->arg && NULL != inline_value) {
            value = inline_value + 1;
        } else if (NULL != spec->arg && spec->value_optional) {
            value = NULL;
        } else if (NULL != spec->arg && *i + 1 < argc) {
            value = argv[++*i];
        } else if (NULL != spec->arg) {
            complain("%s needs a value (%s)", name, spec->arg);
            return -1;
        } else if (NULL != inline_value) {
            complain("%s takes no value", name);
            return -1;
        }
        if (0 != spec->set(opts, name, value)) {
            return -1;
        }
        (*i)++;
    }
    return 0;
}

/* The words of one app: from argv[*i] up to the next ":" (or the end);
 * *i is left on the ":". */
static size_t app_words(int argc, char **argv, int *i)
{
    int first = *i;
    while (*i < argc && 0 != strcmp(argv[*i], ":")) {
        (*i)++;
    }
    return (size_t)(*i - first);
}

/* Add an app of the ':' syntax to jf: words (its program and arguments),
 * with the -n, -x and --wdir of section. 0, or -1 after a message. */
static int add_app(jobfile_t *jf, char *const *words, size_t nwords,
                   const launcher_options_t *section)
{
    jobfile_app_t *grown = realloc(jf->apps, (jf->napps + 1) * sizeof(*grown));
    if (NULL == grown) {
        complain("out of memory");
        return -1;
    }
    jf->apps = grown;
    jobfile_app_t *app = &jf->apps[jf->napps++];
    *app = (jobfile_app_t){.count = section->nranks};
    app->argv = calloc(nwords + 1, sizeof(*app->argv));
    app->env = calloc(1, sizeof(*app->env));
    bool ok = NULL != app->argv && NULL != app->env &&
              (NULL == section->wdir || NULL != (app->wdir = strdup(section->wdir)));
    for (size_t w = 0; ok && w < nwords; w++) {
        ok = NULL != (app->argv[w] = strdup(words[w]));
    }
    for (size_t x = 0; ok && x < section->nexports; x++) {
        /* -x VAR takes drover's own value, as launch_base_env does. */
        const char *e = section->exports[x], *eq = strchr(e, '=');
        char *var = NULL == eq ? strdup(e) : strndup(e, (size_t)(eq - e));
        const char *value = NULL == var ? NULL : NULL == eq ? getenv(var) : eq + 1;
        char **env = NULL == value ? app->env : launch_setenv(app->env, var, value);
        ok = NULL != var && NULL != env;
        app->env = NULL != env ? env : app->env;
        free(var);
    }
    if (!ok) {
        complain("out of memory");
    }
    return ok ? 0 : -1;
}

/* After app 0 (argv[*i] is ":"): the other apps, each "-n N [-x ..]
 * [--wdir DIR] [--] program [arguments]". Their apps and app 0's (the
 * first section's -n, -x and --wdir, which are then app 0's alone) make
 * opts->jobfile. 0, or -1 after a message. */
static int parse_apps(int argc, char **argv, int *i, char *const *first, size_t nfirst,
                      launcher_options_t *opts)
{
    jobfile_t *jf = calloc(1, sizeof(*jf));
    if (NULL == jf) {
        complain("out of memory");
        return -1;
    }
    opts->jobfile = jf;
    if (0 != add_app(jf, first, nfirst, opts)) {
        return -1;
    }
    unsigned long total = opts->nranks;
    while (*i < argc) {
        unsigned app = jf->napps;
        launcher_options_t section = {0};
        bool dashes = false;
        (*i)++; /* the ":" */
        int rc = parse_options(argc, argv, i, &section, app, &dashes);
        size_t nwords = 0 == rc ? app_words(argc, argv, i) : 0;
        if (0 == rc && 0 == nwords) {
            complain("the app after ':' number %u has no program", app);
            rc = -1;
        } else if (0 == rc && 0 == section.nranks) {
            complain("the app after ':' number %u needs its number of ranks (-n N)", app);
            rc = -1;
        } else if (0 == rc) {
            total += section.nranks;
            rc = add_app(jf, &argv[*i - (int)nwords], nwords, &section);
        }
        free(section.exports);
        if (0 != rc) {
            return -1;
        }
    }
    if (total > OPTIONS_MAX_RANKS) {
        complain("%lu ranks in all, more than %u", total, OPTIONS_MAX_RANKS);
        return -1;
    }
    opts->nranks = (unsigned)total;
    opts->argv = jf->apps[0].argv;
    free(opts->exports);
    opts->exports = NULL;
    opts->nexports = 0;
    opts->wdir = NULL;
    return 0;
}

int options_parse(int argc, char **argv, launcher_options_t *opts)
{
    *opts = (launcher_options_t){
        .grace = DEFAULT_GRACE,
        .map_by = POLICY_DEFAULT,
        .bind_to = POLICY_DEFAULT,
    };
    int i = 1;
    bool after_dashes = false;
    int rc = parse_options(argc, argv, &i, opts, 0, &after_dashes);
    if (OPTIONS_HELP == rc) {
        options_release(opts);
        return OPTIONS_HELP;
    }
    if (0 != rc) {
        goto fail;
    }
    if (NULL == opts->job && i == argc - 1 && !after_dashes && is_job_file(argv[i])) {
        opts->job = argv[i++];
    }
    if (NULL != opts->job) {
        if (i < argc) {
            complain("a job file takes no program ('%s')", argv[i]);
            goto fail;
        }
        return OPTIONS_RUN;
    }
    if (0 == opts->nranks) {
        complain("the number of ranks is required (-n N)");
        goto fail;
    }
    int first = i;
    size_t nfirst = app_words(argc, argv, &i);
    if (0 == nfirst) {
        complain(i < argc ? "no program before ':'" : "no program given");
        goto fail;
    }
    if (i < argc && 0 != parse_apps(argc, argv, &i, &argv[first], nfirst, opts)) {
        goto fail;
    }
    if (NULL == opts->jobfile) {
        opts->argv = argv + first;
    }
    return OPTIONS_RUN;

fail:
    options_release(opts);
    return OPTIONS_ERROR;
}

void options_release(launcher_options_t *opts)
{
    jobfile_free(opts->jobfile);
    opts->jobfile = NULL;
    free(opts->types_text);
    opts->types_text = NULL;
    free(opts->exports);
    opts->exports = NULL;
    opts->nexports = 0;
}

/* A job file's apps and the command line's (':') are one description;
 * freed here, where options_release needs it, as the command line is
 * parsed without the YAML reader (drover.c). */
void jobfile_free(jobfile_t *jf)
{
    if (NULL == jf) {
        return;
    }
    for (unsigned a = 0; NULL != jf->apps && a < jf->napps; a++) {
        launch_free_env(jf->apps[a].argv);
        launch_free_env(jf->apps[a].env);
        free(jf->apps[a].wdir);
    }
    free(jf->apps);
    free(jf->types);
    free(jf);
}
