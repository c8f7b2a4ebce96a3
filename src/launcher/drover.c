/*
 * drover.c - entry point of the drover executable.
 *
 * Design notes:
 *  - `drover run --daemon` (or with DROVER_DAEMON=1) only checks its
 *    command line and hands the job to the daemon: that is served here,
 *    with the C library alone (options.c, daemon_run.c). Loading the PMIx
 *    library, libevent, hwloc and libyaml first took 0.8 ms, a tenth of
 *    such a launch of 8 ranks.
 *  - The build links this executable statically against musl when it
 *    finds musl-gcc (src/launcher/meson.build): a process of it starts
 *    with no dynamic loader and without glibc's start-up, which probes
 *    the processor with 43 CPUID instructions, each trapped by a
 *    hypervisor (5.4 us in this VM). A program that returns at once
 *    starts and ends in 0.15 ms so, 0.6 ms with glibc's loader: 0.45 ms
 *    that nothing overlaps before the job is asked for.
 *  - Every other command is the drover-cli program (commands.c), which
 *    this one executes with the same arguments (argv[0] too: ps shows the
 *    command as typed). So is a run through the daemon from a job file
 *    (read with libyaml). The daemon's own runs are drover-cli's children
 *    and execute it directly.
 *  - drover-cli is the one beside this executable (the build tree, or a
 *    copy of both), else the one where the installation put it relative
 *    to this executable (a staged or moved installation), else the one
 *    in drover's private library directory.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon.h"
#include "options.h"

#define CLI_PROGRAM "drover-cli"

/* `drover run` through the daemon, if that is what argv asks (argv[0] is
 * "run"): true with *status, the command's exit status. A mistake on the
 * command line is said here, as drover-cli would. */
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

/* dir/rel/CLI_PROGRAM (rel may be "") into path (PATH_MAX bytes), if
 * that file is executable. */
static bool cli_in(char *path, const char *dir, const char *rel)
{
    int n = snprintf(path, PATH_MAX, "%s/%s%s" CLI_PROGRAM, dir, rel, '\0' == *rel ? "" : "/");
    return n > 0 && n < PATH_MAX && 0 == access(path, X_OK);
}

static int cli(char **argv)
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
    bool found =
        (NULL != slash && (cli_in(path, dir, "") || cli_in(path, dir, DROVER_CLI_FROM_BINDIR))) ||
        cli_in(path, DROVER_CLI_INSTALL_DIR, "");
    if (!found) {
        fprintf(stderr, "drover: cannot find " CLI_PROGRAM " (beside %s, or in %s)\n",
                NULL != slash ? dir : "this executable", DROVER_CLI_INSTALL_DIR);
        return LAUNCHER_EXIT_FAILURE;
    }
    execv(path, argv);
    fprintf(stderr, "drover: cannot execute %s: %s\n", path, strerror(errno));
    return LAUNCHER_EXIT_FAILURE;
}

int main(int argc, char **argv)
{
    int status;
    if (argc >= 2 && 0 == strcmp(argv[1], "run") && handed_over(argc - 1, argv + 1, &status)) {
        return status;
    }
    return cli(argv);
}
