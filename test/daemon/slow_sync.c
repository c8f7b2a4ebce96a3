/*
 * slow_sync.c - a slow disk for the daemon-slow-disk test: preloaded, it
 * makes every fdatasync wait SLOW_SYNC_SECONDS (default 2) first, as a
 * disk busy with other writes can.
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int fdatasync(int fd)
{
    const char *seconds = getenv("SLOW_SYNC_SECONDS");
    struct timespec wait = {NULL != seconds ? atoi(seconds) : 2, 0};
    nanosleep(&wait, NULL);
    return (int)syscall(SYS_fdatasync, fd);
}
