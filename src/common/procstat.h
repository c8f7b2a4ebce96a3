/*
 * procstat.h - what /proc/<pid>/stat says of a process (see procstat.c).
 */
#ifndef DROVER_PROCSTAT_H
#define DROVER_PROCSTAT_H

#include <stdbool.h>
#include <stdint.h>

/* The state letter, parent and process group of process pid, from
 * /proc/<pid>/stat. False when the process is gone or the file unreadable. */
bool procstat_read(long pid, char *state, long *ppid, long *pgrp);

/* Where the kernel keeps this process's arguments and environment (what
 * /proc/<pid>/cmdline and environ show): arg_start, arg_end, env_start,
 * env_end. False when it does not say. */
bool procstat_arg_env_bounds(uintptr_t bounds[4]);

#endif /* DROVER_PROCSTAT_H */
