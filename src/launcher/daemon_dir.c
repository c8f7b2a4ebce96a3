/*
 * daemon_dir.c - the daemon's per-user state directory.
 *
 * Design notes:
 *  - $XDG_RUNTIME_DIR/drover when XDG_RUNTIME_DIR is an absolute path,
 *    else /tmp/drover-<uid>. In /tmp anyone could have made that name
 *    first: the directory is opened with O_NOFOLLOW and checked through
 *    the fd (a directory, owned by this user, no group or other access),
 *    so a symbolic link or another user's directory is refused, never
 *    used or repaired. Once checked, nobody else can change what is in
 *    it, so the paths under it are safe to use.
 *  - Commands check it the same way before they connect: a daemon
 *    socket planted by someone else would otherwise receive the user's
 *    jobs and environment.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon.h"

int daemon_dir_join(char *buf, size_t size, const char *dir, const char *name)
{
    int n = snprintf(buf, size, "%s/%s", dir, name);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

static int state_path(char *path)
{
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    int n;
    if (NULL != xdg && '/' == xdg[0]) {
        n = snprintf(path, PATH_MAX, "%s/drover", xdg);
    } else {
        n = snprintf(path, PATH_MAX, "/tmp/drover-%u", (unsigned)geteuid());
    }
    return n < 0 || n >= PATH_MAX ? -1 : 0;
}

int daemon_dir_open(char *path, bool create, const char *who)
{
    if (0 != state_path(path)) {
        fprintf(stderr, "%s: the state directory's path is too long\n", who);
        return -1;
    }
    if (create && 0 != mkdir(path, 0700) && EEXIST != errno) {
        fprintf(stderr, "%s: cannot create %s: %s\n", who, path, strerror(errno));
        return -1;
    }
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (ENOENT == errno) {
            fprintf(stderr, "%s: not running (no %s)\n", who, path);
        } else {
            fprintf(stderr, "%s: cannot open %s: %s\n", who, path,
                    ELOOP == errno || ENOTDIR == errno ? "not a directory (a symbolic link?)"
                                                       : strerror(errno));
        }
        return -1;
    }
    struct stat st;
    const char *bad = NULL;
    if (0 != fstat(fd, &st)) {
        bad = strerror(errno);
    } else if (st.st_uid != geteuid()) {
        bad = "owned by another user";
    } else if (0 != (st.st_mode & 077)) {
        bad = "group or others have access to it";
    }
    if (NULL != bad) {
        fprintf(stderr, "%s: refusing %s: %s\n", who, path, bad);
        close(fd);
        return -1;
    }
    return fd;
}
