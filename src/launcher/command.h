/*
 * command.h - the subcommands of the drover executable.
 *
 * Each subcommand lives in its own file and exports one const record; the
 * table in commands.c lists them, so adding a command touches nothing else.
 */
#ifndef DROVER_LAUNCHER_COMMAND_H
#define DROVER_LAUNCHER_COMMAND_H

typedef struct drover_command {
    const char *name;
    const char *usage;    /* arguments, shown by `drover help` */
    const char *summary;  /* one line */
    /* argv[0] is the subcommand's name. Returns the process exit status. */
    int (*run)(int argc, char **argv);
} drover_command_t;

extern const drover_command_t command_info;
extern const drover_command_t command_run;
extern const drover_command_t command_caf;
extern const drover_command_t command_daemon;
extern const drover_command_t command_submit;
extern const drover_command_t command_ps;
extern const drover_command_t command_wait;
extern const drover_command_t command_kill;
extern const drover_command_t command_output;
extern const drover_command_t command_types;
extern const drover_command_t command_trace;

#endif /* DROVER_LAUNCHER_COMMAND_H */
