/*
 * drover.c - entry point of the drover executable.
 *
 * Design notes:
 *  - `drover run --daemon` (or with DROVER_DAEMON=1) only checks its
 *    command line and hands the job to the daemon: that is served here,
 *    with the C library alone (options.c, daemon_run.c). Loading the PMIx
 *    library, libevent, hwloc and libyaml first took 0.8 ms, a tenth of
 *    such a launch of 8 ranks.
 *  - Every other command is in the drover-cli module (commands.c), loaded
 *    from the executable's RUNPATH (its build directory, or drover's
 *    private library directory once installed). So is a run through the
 *    daemon from a job file (read with libyaml), and the daemon's own runs,
 *    which are full runs.
 *  - The module is loaded with lazy binding, as the libraries of an
 *    executable are (RTLD_NOW would bind every call of libpmix, libevent
 *    and hwloc up front: 0.3 ms more for each command), and never
 *    unloaded: its threads and handlers live until the process ends.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int cli(int argc, char **argv)
{
    void *module = dlopen(CLI_MODULE, RTLD_LAZY | RTLD_LOCAL);
    if (NULL == module) {
        fprintf(stderr, "drover: cannot load " CLI_MODULE ": %s\n", dlerror());
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
