/*
 * daemon_dir.c - the daemon's per-user state directory.
 *
 * Design notes:
 *  - Where it is and how it is checked is common/statedir.c's (a tool
 *    finds the daemon's rendezvous there too): a symbolic link or another
 *    user's directory is refused, never used or repaired. Once checked,
 *    nobody else can change what is in it, so the paths under it are safe
 *    to use.
 *  - Commands check it the same way before they connect: a daemon
 *    socket planted by someone else would otherwise receive the user's
 *    jobs and environment.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon.h"
#include "rmtree.h"
#include "statedir.h"

int daemon_dir_join(char *buf, size_t size, const char *dir, const char *name)
{
    int n = snprintf(buf, size, "%s/%s", dir, name);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

int daemon_dir_open(char *path, bool create, const char *who)
{
    const char *why;
    if (0 != statedir_path(path, PATH_MAX)) {
        fprintf(stderr, "%s: the state directory's path is too long\n", who);
        return -1;
    }
    if (create && 0 != mkdir(path, 0700) && EEXIST != errno) {
        fprintf(stderr, "%s: cannot create %s: %s\n", who, path, strerror(errno));
        return -1;
    }
    int fd = statedir_open(path, &why);
    if (fd < 0 && ENOENT == errno) {
        fprintf(stderr, "%s: not running (no %s)\n", who, path);
    } else if (fd < 0 && EPERM == errno) {
        fprintf(stderr, "%s: refusing %s: %s\n", who, path, why);
    } else if (fd < 0) {
        fprintf(stderr, "%s: cannot open %s: %s\n", who, path, why);
    }
    return fd;
}

void daemon_dir_remove_if(int dirfd, const char *sub, bool (*doomed)(void *arg, const char *name),
                          void *arg)
{
    int fd = openat(dirfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *dir = fd < 0 ? NULL : fdopendir(fd);
    struct dirent *e;
    if (NULL == dir) {
        if (fd >= 0) {
            close(fd);
        }
        return;
    }
    while (NULL != (e = readdir(dir))) {
        if (0 != strcmp(e->d_name, ".") && 0 != strcmp(e->d_name, "..") &&
            doomed(arg, e->d_name)) {
            rmtree_at(fd, e->d_name, geteuid(), true);
        }
    }
    closedir(dir);
}
