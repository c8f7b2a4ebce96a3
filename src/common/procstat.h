/*
 * procstat.h - what /proc/<pid>/stat says of a process (see procstat.c).
 */
#ifndef DROVER_PROCSTAT_H
#define DROVER_PROCSTAT_H

#include <stdbool.h>

/* The state letter, parent and process group of process pid, from
 * /proc/<pid>/stat. False when the process is gone or the file unreadable. */
bool procstat_read(long pid, char *state, long *ppid, long *pgrp);

#endif /* DROVER_PROCSTAT_H */
