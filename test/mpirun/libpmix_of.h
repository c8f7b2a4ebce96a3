/*
 * libpmix_of.h - which libpmix.so.2 a process has loaded, read from its
 * /proc/PID/maps: the mpirun tests prove with it that mpirun and the ranks
 * run drover's library, not the system's OpenPMIx.
 */
#ifndef MPIRUN_LIBPMIX_OF_H
#define MPIRUN_LIBPMIX_OF_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

/* Whether process pid has a libpmix.so.2 mapped from directory dir (and
 * none from anywhere else). *seen receives whether any was mapped. */
static bool libpmix_from(pid_t pid, const char *dir, bool *seen)
{
    char maps[64], line[4096];
    bool elsewhere = false;
    size_t dirlen = strlen(dir);

    *seen = false;
    snprintf(maps, sizeof(maps), "/proc/%ld/maps", (long)pid);
    FILE *f = fopen(maps, "r");
    if (NULL == f) {
        return false;
    }
    while (NULL != fgets(line, sizeof(line), f)) {
        char *path = strchr(line, '/');
        if (NULL == path || NULL == strstr(path, "/libpmix.so.2")) {
            continue;
        }
        *seen = true;
        elsewhere = elsewhere || 0 != strncmp(path, dir, dirlen) || '/' != path[dirlen];
    }
    fclose(f);
    return *seen && !elsewhere;
}

#endif /* MPIRUN_LIBPMIX_OF_H */
