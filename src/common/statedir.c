/*
 * statedir.c - the user's drover state directory.
 *
 * Design notes:
 *  - $XDG_RUNTIME_DIR/drover, else /tmp/drover-<uid>. In /tmp anyone
 *    could have made that name first: the directory is opened with
 *    O_NOFOLLOW and checked through the fd (a directory, owned by this
 *    user, no group or other access), so a symbolic link or another
 *    user's directory is refused, never used. Once checked, nobody else
 *    can change what is in it.
 *  - The daemon (src/launcher/daemon*.c) makes and uses it; a tool reads
 *    the daemon's system-server rendezvous from it (src/client/tool.c).
 *    Both call the same checks, so a tool never follows a file another
 *    user planted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "statedir.h"

int statedir_path(char *path, size_t size)
{
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    int n;

    if (NULL != xdg && '/' == xdg[0]) {
        n = snprintf(path, size, "%s/drover", xdg);
    } else {
        n = snprintf(path, size, "/tmp/drover-%u", (unsigned)geteuid());
    }
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

int statedir_open(const char *path, const char **why)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

    if (fd < 0) {
        *why = ENOENT == errno                      ? "no such directory"
               : ELOOP == errno || ENOTDIR == errno ? "not a directory (a symbolic link?)"
                                                    : strerror(errno);
        return -1;
    }
    *why = NULL;
    if (0 != fstat(fd, &st)) {
        *why = strerror(errno);
    } else if (st.st_uid != geteuid()) {
        *why = "owned by another user";
    } else if (0 != (st.st_mode & 077)) {
        *why = "group or others have access to it";
    }
    if (NULL != *why) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    return fd;
}

int statedir_system_name(char *name, size_t size)
{
    char host[256] = "localhost";
    int n;

    gethostname(host, sizeof(host) - 1);
    host[sizeof(host) - 1] = '\0';
    n = snprintf(name, size, STATEDIR_SYSTEM_PREFIX "%s", host);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}
