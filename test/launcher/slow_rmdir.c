/*
 * slow_rmdir.c - a slow cgroup removal for the launcher-teardown test:
 * preloaded, it makes removing a directory named drover-* below a cgroup2
 * mount wait SLOW_RMDIR_SECONDS (default 2) first, having created the
 * file SLOW_RMDIR_MARK, so that the test can SIGKILL drover while its
 * teardown waits there.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <linux/magic.h>

int unlinkat(int dirfd, const char *name, int flags)
{
    struct statfs fs;
    if (0 != (flags & AT_REMOVEDIR) && 0 == strncmp(name, "drover-", 7) &&
        0 == fstatfs(dirfd, &fs) && CGROUP2_SUPER_MAGIC == fs.f_type) {
        const char *mark = getenv("SLOW_RMDIR_MARK");
        int fd = NULL != mark ? open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0600) : -1;
        if (fd >= 0) {
            close(fd);
        }
        const char *seconds = getenv("SLOW_RMDIR_SECONDS");
        struct timespec wait = {NULL != seconds ? atoi(seconds) : 2, 0};
        nanosleep(&wait, NULL);
    }
    return (int)syscall(SYS_unlinkat, dirfd, name, flags);
}
