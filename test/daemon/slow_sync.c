/*
 * slow_sync.c - a slow disk for the daemon-slow-disk test: preloaded, it
 * makes every fdatasync wait SLOW_SYNC_SECONDS (default 2) first, as a
 * disk busy with other writes can; with SLOW_SYNC_LOG set, it appends
 * when each was called (CLOCK_REALTIME, ns, as `date +%s%N`) to that file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void log_call(const char *path)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    char line[32];
    int n =
        snprintf(line, sizeof(line), "%lld\n", (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) {
        (void)!write(fd, line, (size_t)n);
        close(fd);
    }
}

int fdatasync(int fd)
{
    const char *seconds = getenv("SLOW_SYNC_SECONDS");
    const char *log = getenv("SLOW_SYNC_LOG");
    if (NULL != log) {
        log_call(log);
    }
    struct timespec wait = {NULL != seconds ? atoi(seconds) : 2, 0};
    nanosleep(&wait, NULL);
    return (int)syscall(SYS_fdatasync, fd);
}
