/*
 * commands.c - the drover-cli program: picks the drover command's
 *   subcommand (drover.c executes it for every command but a run through
 *   the daemon).
 */
#include <stdio.h>
#include <string.h>

#include "command.h"

static const drover_command_t *const commands[] = {
    &command_run,
    &command_info,
    &command_caf,
    &command_daemon,
    &command_submit,
    &command_ps,
    &command_wait,
    &command_kill,
    &command_output,
    &command_types,
    &command_trace,
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
    fprintf(out, "usage: drover <command> [arguments]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++) {
        fprintf(out, "  %-6s %-28s %s\n", commands[i]->name, commands[i]->usage,
                commands[i]->summary);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (0 == strcmp(argv[1], "help") || 0 == strcmp(argv[1], "--help") ||
        0 == strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (0 == strcmp(argv[1], commands[i]->name)) {
            return commands[i]->run(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "drover: unknown command '%s' (try 'drover help')\n", argv[1]);
    return 2;
}
