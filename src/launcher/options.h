/*
 * options.h - the command line of `drover run`, and what reads it with
 *   the C library alone.
 *
 * The drover executable (drover.c) checks a `drover run --daemon` command
 * line and hands the job over without the PMIx library, libevent or hwloc,
 * and may be built against another C library than the rest (musl, static:
 * src/launcher/meson.build says why); so this header and the files it
 * declares (options.c, launch_env.c) need nothing but the C library.
 * launcher.h includes it for the rest of `drover run`.
 */
#ifndef DROVER_LAUNCHER_OPTIONS_H
#define DROVER_LAUNCHER_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

/* The prefix of every message drover run prints about itself. */
#define LAUNCHER_NAME "drover run"

/* Exit statuses of drover run itself, beside the ranks' own. */
#define LAUNCHER_EXIT_FAILURE 1      /* the launch itself failed */
#define LAUNCHER_EXIT_USAGE 2        /* bad command line */
#define LAUNCHER_EXIT_TIMEOUT 124    /* --timeout expired (as timeout(1)) */
#define LAUNCHER_EXIT_NOEXEC 126     /* the program cannot be executed */
#define LAUNCHER_EXIT_NOTFOUND 127   /* the program does not exist */

/* ---- options.c -------------------------------------------------------- */

/* Mapping and binding policies: which hwloc objects processes are spread
 * over (--map-by) and which object each is confined to (--bind-to). */
typedef enum {
    POLICY_NONE,     /* --bind-to only: no binding */
    POLICY_SLOT,     /* --map-by only: a core, or a hardware thread with
                      * --use-hwthread-cpus */
    POLICY_CORE,
    POLICY_HWTHREAD,
    POLICY_NUMA,
    POLICY_SOCKET,
    POLICY_DEFAULT,  /* not given on the command line */
} launcher_policy_t;

typedef struct launcher_options {
    unsigned nranks;
    char **argv;              /* program and arguments; borrowed from main */
    const char **exports;     /* -x VAR[=value], in order; the array is
                               * options.c's, the strings main's */
    size_t nexports;
    const char *wdir;         /* NULL: drover's own working directory */
    bool tag_output;
    double timeout;           /* seconds; 0: none */
    double grace;             /* seconds from SIGTERM to SIGKILL */
    launcher_policy_t map_by;
    launcher_policy_t bind_to;
    bool oversubscribe;
    bool use_hwthreads;
    bool no_lib_path;         /* leave LD_LIBRARY_PATH alone */
    bool daemon;              /* --daemon: run through the daemon */
    const char *stop_in_init; /* --stop-in-init, --stop-on-exec, */
    const char *stop_on_exec; /* --stop-in-app: debugger directives */
    const char *stop_in_app;  /* (debug.c); NULL: not given, "": every
                               * rank, else the ranks listed ("0,2") */
    const char *types;        /* --types FILE, or NULL */
    const char *trace;        /* --trace FILE, or NULL */
    char *types_text;         /* its text, checked before anything starts */
    const char *job;          /* the job file, or NULL (see jobfile.c) */
    bool grace_given;         /* --grace was on the command line */
    struct jobfile *jobfile;  /* what jobfile_apply read, or the apps of
                               * the ':' syntax (options.c); owned */
} launcher_options_t;

/* Outcome of options_parse. */
enum { OPTIONS_RUN, OPTIONS_HELP, OPTIONS_ERROR };

/* Fill opts from argv (argv[0] is "run"). OPTIONS_HELP: usage was printed
 * to stdout; OPTIONS_ERROR: a one-line message was printed to stderr. On
 * OPTIONS_RUN the caller releases opts with options_release. */
int options_parse(int argc, char **argv, launcher_options_t *opts);

/* Free what options_parse allocated. Accepts a zeroed struct. */
void options_release(launcher_options_t *opts);

/* The command-line name of a policy ("core", "none", ...). Static. */
const char *options_policy_name(launcher_policy_t policy);

/* LOCAL_RANK and NODE_RANK are uint16 in PMIx and every rank is local. */
#define OPTIONS_MAX_RANKS 65535u

/* The checks of the option values, shared with the job file: a number of
 * ranks, seconds (above 0 unless zero_ok), a variable name of len bytes.
 * False when the text is not acceptable. */
bool options_ranks(const char *text, unsigned *nranks);
bool options_seconds(const char *text, bool zero_ok, double *seconds);
bool options_variable_name(const char *s, size_t len);

/* The ranks of a list such as "0,2,5" (each below OPTIONS_MAX_RANKS):
 * how many there are, 0 when text is not such a list. The first max of
 * them go to ranks (which may be NULL). */
size_t options_rank_list(const char *text, unsigned *ranks, size_t max);

/* A --map-by (map) or --bind-to policy: NULL, or the names it wants. */
const char *options_policy(const char *text, bool map, launcher_policy_t *policy);

/* ---- jobfile.c -------------------------------------------------------- */

/* One app of a job file. */
typedef struct jobfile_app {
    char **argv;       /* program and arguments */
    unsigned count;    /* its ranks */
    char **env;        /* NAME=value: the job's env, then the app's */
    char *wdir;        /* NULL: --wdir, else drover's working directory */
} jobfile_app_t;

typedef struct jobfile {
    jobfile_app_t *apps;
    unsigned napps;
    char *types;       /* types: resolved against the file's directory */
} jobfile_t;

/* Read the job file opts->job into opts->jobfile and take from it every
 * setting the command line did not give (-n N sets every app's count).
 * Returns 0, or LAUNCHER_EXIT_FAILURE after one line per mistake on
 * stderr: FILE:LINE:COL: error: KEY.PATH: message. */
int jobfile_apply(launcher_options_t *opts);

/* Accepts NULL. */
void jobfile_free(jobfile_t *jf);

/* ---- launch_env.c ----------------------------------------------------- */

/* Set name=value in env (replacing name's old value), in place: returns
 * env, perhaps moved (it may be reallocated, so only the result is to be
 * used). NULL when memory runs out; env is then unchanged and still the
 * caller's. */
char **launch_setenv(char **env, const char *name, const char *value);
/* The value env gives name, or NULL. */
const char *launch_getenv(char *const *env, const char *name);
char **launch_copy_env(char *const *env);
void launch_free_env(char **env);
/* The entries of env (NULL: none). */
size_t launch_env_count(char *const *env);

#endif /* DROVER_LAUNCHER_OPTIONS_H */
