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
 *    program, options-looking words included.
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

#include "launcher.h"

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

/* --stop-in-init, --stop-on-exec and --stop-in-app (name is the spelling
 * given, without a value). */
static int set_stop(launcher_options_t *opts, const char *name, const char *value)
{
    bool *flag = 0 == strcmp(name, "--stop-in-init")   ? &opts->stop_in_init
                 : 0 == strcmp(name, "--stop-on-exec") ? &opts->stop_on_exec
                                                       : &opts->stop_in_app;
    *flag = true;
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
    {{"-n", "-np", "--np"}, "N", set_nranks, "start N ranks (required)"},
    {{"-x"}, "VAR[=value]", set_export,
     "set VAR in the ranks' environment (repeatable; without a value, drover's own)"},
    {{"--wdir"}, "DIR", set_wdir, "run the ranks in DIR"},
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
    {{"--use-hwthread-cpus"}, NULL, set_hwthreads,
     "count hardware threads, not cores, as slots"},
    {{"--no-libpmix-path"}, NULL, set_no_lib_path,
     "do not put drover's libpmix.so.2 directory first on the ranks'\n"
     "                            LD_LIBRARY_PATH"},
    {{"--stop-in-init"}, NULL, set_stop,
     "stop every rank in PMIx_Init until a debugger releases it"},
    {{"--stop-on-exec"}, NULL, set_stop,
     "stop every rank at exec (state T) until a debugger releases it"},
    {{"--stop-in-app"}, NULL, set_stop,
     "tell the ranks to stop where they choose until a debugger releases them"},
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
           "       drover run [options] job.yml\n\n"
           "Start N ranks of program on this node under drover's PMIx server and\n"
           "forward their output. The exit status is the first non-zero status of\n"
           "any rank (128+signal for a rank killed by a signal).\n\noptions:\n");
    for (size_t i = 0; i < NSPECS; i++) {
        char spelling[64];
        int len = 0;
        for (size_t j = 0; j < 3 && NULL != specs[i].names[j]; j++) {
            len += snprintf(spelling + len, sizeof(spelling) - (size_t)len, "%s%s",
                            0 == j ? "" : ", ", specs[i].names[j]);
        }
        if (NULL != specs[i].arg) {
            snprintf(spelling + len, sizeof(spelling) - (size_t)len, " %s", specs[i].arg);
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

int options_parse(int argc, char **argv, launcher_options_t *opts)
{
    *opts = (launcher_options_t){
        .grace = DEFAULT_GRACE,
        .map_by = POLICY_DEFAULT,
        .bind_to = POLICY_DEFAULT,
    };
    int i = 1;
    bool after_dashes = false;
    while (i < argc) {
        const char *word = argv[i];
        if (0 == strcmp(word, "--")) {
            after_dashes = true;
            i++;
            break;
        }
        if ('-' != word[0] || '\0' == word[1]) {
            break;
        }
        const char *inline_value = 0 == strncmp(word, "--", 2) ? strchr(word, '=') : NULL;
        size_t len = NULL == inline_value ? strlen(word) : (size_t)(inline_value - word);
        const option_spec_t *spec = find_spec(word, len);
        if (NULL == spec) {
            complain("unknown option '%.*s'", (int)len, word);
            goto fail;
        }
        char name[32];
        snprintf(name, sizeof(name), "%.*s", (int)len, word);
        if (NULL == spec->set) {
            print_help();
            options_release(opts);
            return OPTIONS_HELP;
        }
        const char *value = NULL;
        if (NULL != spec->arg) {
            if (NULL != inline_value) {
                value = inline_value + 1;
            } else if (i + 1 < argc) {
                value = argv[++i];
            } else {
                complain("%s needs a value (%s)", name, spec->arg);
                goto fail;
            }
        } else if (NULL != inline_value) {
            complain("%s takes no value", name);
            goto fail;
        }
        if (0 != spec->set(opts, name, value)) {
            goto fail;
        }
        i++;
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
    if (i >= argc) {
        complain("no program given");
        goto fail;
    }
    opts->argv = argv + i;
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
