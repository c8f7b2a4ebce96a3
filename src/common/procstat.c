/*
 * procstat.c - reading a process's state, parent and group from
 * /proc/<pid>/stat, for the server's check of who connects and the
 * launcher's sweep of a run's processes.
 *
 * Design notes:
 *  - The line is "pid (comm) state ppid pgrp ...": comm may hold spaces
 *    and parentheses, so the fields are read after its last ')'.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "procstat.h"

bool procstat_read(long pid, char *state, long *ppid, long *pgrp)
{
    char path[64], stat[512];
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    ssize_t n = read(fd, stat, sizeof(stat) - 1);
    close(fd);
    if (n <= 0) {
        return false;
    }
    stat[n] = '\0';
    const char *rest = strrchr(stat, ')');
    return NULL != rest && 3 == sscanf(rest + 1, " %c %ld %ld", state, ppid, pgrp);
}
