/*
 * procstat.c - reading a process's state, parent and group from
 * /proc/<pid>/stat, for the server's check of who connects and the
 * launcher's sweep of a run's processes; and where the kernel keeps a
 * process's arguments and environment, for a standby run that shows its
 * job's as its own.
 *
 * Design notes:
 *  - The line is "pid (comm) state ppid pgrp ...": comm may hold spaces
 *    and parentheses, so the fields are read after its last ')'.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procstat.h"

/* Field 48 of the line (arg_start; 1 is the pid). */
#define FIELD_ARG_START 48

/* The fields after comm (the 3rd on) of /proc/<pid>/stat, into stat
 * (size bytes), or NULL. */
static const char *fields_after_comm(long pid, char *stat, size_t size)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return NULL;
    }
    ssize_t n = read(fd, stat, size - 1);
    close(fd);
    if (n <= 0) {
        return NULL;
    }
    stat[n] = '\0';
    const char *rest = strrchr(stat, ')');
    return NULL == rest ? NULL : rest + 1;
}

bool procstat_read(long pid, char *state, long *ppid, long *pgrp)
{
    char stat[512];
    const char *rest = fields_after_comm(pid, stat, sizeof(stat));
    return NULL != rest && 3 == sscanf(rest, " %c %ld %ld", state, ppid, pgrp);
}

bool procstat_arg_env_bounds(uintptr_t bounds[4])
{
    /* 52 fields of at most 20 digits: the whole line fits, and a line
     * cut short (no newline) is not read. */
    char stat[2048];
    const char *p = fields_after_comm((long)getpid(), stat, sizeof(stat));
    if (NULL != p && NULL == strchr(p, '\n')) {
        return false;
    }
    /* Past fields 3 to 47, each a space then the field. */
    for (int field = 3; NULL != p && field < FIELD_ARG_START; field++) {
        p = strchr(p + 1, ' ');
    }
    for (int i = 0; i < 4; i++) {
        char *end;
        if (NULL == p || ' ' != *p) {
            return false;
        }
        bounds[i] = (uintptr_t)strtoull(p + 1, &end, 10);
        p = end;
    }
    /* Zero when the kernel would not tell (no access to the process). */
    return 0 != bounds[0] && bounds[0] < bounds[1] && bounds[1] <= bounds[2] &&
           bounds[2] <= bounds[3];
}
