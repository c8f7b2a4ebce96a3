/*
 * drover.c - entry point of the drover executable.
 *
 * Design notes:
 *  - `drover run --daemon` (or with DROVER_DAEMON=1) only checks its
 *    command line and hands the job to the daemon: that is served here,
 *    with the C library alone (options.c, daemon_run.c). Loading the PMIx
 *    library, libevent, hwloc and libyaml first took 0.8 ms, a tenth of
 *    such a launch of 8 ranks.
 *  - Every other command is in the drover-cli module (commands.c). So is
 *    a run through the daemon from a job file (read with libyaml), and the
 *    daemon's own runs, which are full runs. The module is the one beside
 *    the executable (the build tree, or a copy of both), else the one in
 *    drover's private library directory, else whichever the dynamic
 *    linker finds (LD_LIBRARY_PATH: a staged installation). Not through
 *    the executable's RUNPATH: under ASan, dlopen is called from the
 *    sanitizer's library, whose RUNPATH would be searched instead.
 *  - The module is loaded with lazy binding, as the libraries of an
 *    executable are (RTLD_NOW would bind every call of libpmix, libevent
 *    and hwloc up front: 0.3 ms more for each command), and never
 *    unloaded: its threads and handlers live until the process ends. A
 *    daemon's standby binds them all up front: it has the time while it
 *    waits, and its job would otherwise bind a symbol at each first call
 *    (0.1 ms of CPU before its ranks start).
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "daemon.h"
#include "launcher.h"

#define CLI_MODULE "drover-cli.so"

/* `drover run` through the daemon, if that is what argv asks (argv[0] is
 * "run"): true with *status, the command's exit status. A mistake on the
 * command line is said here, as the module would. */
static bool handed_over(int argc, char **argv, int *status)
{
    if (NULL != getenv(DAEMON_STANDBY_ENV) || NULL != getenv(DAEMON_JOB_ENV)) {
        return false;
    }
    launcher_options_t opts;
    int parsed = options_parse(argc, argv, &opts);
    if (OPTIONS_RUN != parsed) {
        *status = OPTIONS_HELP == parsed ? 0 : LAUNCHER_EXIT_USAGE;
        return true;
    }
    bool daemon = NULL == opts.job && daemon_run_wanted(opts.daemon);
    options_release(&opts);
    if (daemon) {
        *status = daemon_run(argc, argv);
    }
    return daemon;
}

/* dir/CLI_MODULE into path (PATH_MAX bytes) if that file exists. */
static bool module_in(char *path, const char *dir)
{
    int n = snprintf(path, PATH_MAX, "%s/" CLI_MODULE, dir);
    return n > 0 && n < PATH_MAX && 0 == access(path, F_OK);
}

static void *load_module(void)
{
    char dir[PATH_MAX], path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
    char *slash = NULL;
    if (n > 0) {
        dir[n] = '\0';
        slash = strrchr(dir, '/');
    }
    if (NULL != slash) {
        *slash = '\0';
    }
    bool found = (NULL != slash && module_in(path, dir)) || module_in(path, DROVER_CLI_INSTALL_DIR);
    const char *where = found ? path : CLI_MODULE;
    int binding = NULL != getenv(DAEMON_STANDBY_ENV) ? RTLD_NOW : RTLD_LAZY;
    void *module = dlopen(where, binding | RTLD_LOCAL);
    if (NULL == module) {
        fprintf(stderr, "drover: cannot load %s: %s\n", where, dlerror());
    }
    return module;
}

static int cli(int argc, char **argv)
{
    void *module = load_module();
    if (NULL == module) {
        return LAUNCHER_EXIT_FAILURE;
    }
    int (*cli_main)(int, char **);
    *(void **)&cli_main = dlsym(module, "drover_cli_main");
    if (NULL == cli_main) {
        fprintf(stderr, "drover: " CLI_MODULE " is not drover's: %s\n", dlerror());
        return LAUNCHER_EXIT_FAILURE;
    }
    return cli_main(argc, argv);
}

int main(int argc, char **argv)
{
    int status;
    if (argc >= 2 && 0 == strcmp(argv[1], "run") && handed_over(argc - 1, argv + 1, &status)) {
        return status;
    }
    return cli(argc, argv);
}
