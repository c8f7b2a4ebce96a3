/*
 * limits.c - the open files a run needs, against RLIMIT_NOFILE.
 *
 * Design notes:
 *  - Each process costs drover up to FDS_PER_PROC descriptors while it
 *    runs: the read ends of its stdout and stderr pipes and its two
 *    connections to the server (the main one, and the direct one its
 *    blocking calls open). drover's own (listener, libevent, the anchor's
 *    pipe, hwloc, stdio...) stay under FDS_OWN.
 *  - The soft limit is raised to the hard one (the common soft default of
 *    1024 is a quarter of what 256 processes take); the ranks inherit the
 *    raised limit, as under mpirun.
 *  - A job that cannot fit even so is refused in one line before anything
 *    starts: out of descriptors, the server could only leave the last
 *    processes waiting for a connection.
 *  - The kernel grows a process's descriptor table by doubling it, and in a
 *    process with threads each growth waits for an RCU grace period: 10 to
 *    40 ms here, which an 8-rank launch crossing descriptor 64 paid once.
 *    So the table is grown to what the first job's launch takes while
 *    drover has a single thread (limits_reserve), when that is free.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "launcher.h"

#define FDS_PER_PROC 4
#define FDS_OWN 64
/* While a job launches: its stdout and stderr pipes and its PMI socket
 * pair, both ends each. */
#define FDS_AT_LAUNCH 6
/* At most this large a table ahead of need (a few hundred KB). */
#define RESERVE_MAX 16384

pmix_status_t limits_fit(unsigned nprocs, unsigned running)
{
    struct rlimit rl;
    if (0 != getrlimit(RLIMIT_NOFILE, &rl)) {
        return PMIX_SUCCESS; /* nothing known to check against */
    }
    if (rl.rlim_cur < rl.rlim_max) {
        struct rlimit raised = {rl.rlim_max, rl.rlim_max};
        if (0 == setrlimit(RLIMIT_NOFILE, &raised)) {
            rl.rlim_cur = rl.rlim_max;
        }
    }
    unsigned long long total = (unsigned long long)nprocs + running;
    unsigned long long need = total * FDS_PER_PROC + FDS_OWN;
    if (RLIM_INFINITY == rl.rlim_cur || need <= rl.rlim_cur) {
        return PMIX_SUCCESS;
    }
    fprintf(stderr, LAUNCHER_NAME ": %llu ranks need about %llu open files, the limit is %llu "
            "(ulimit -n)\n", total, need, (unsigned long long)rl.rlim_cur);
    return PMIX_ERR_OUT_OF_RESOURCE;
}

void limits_reserve(unsigned nprocs)
{
    struct rlimit rl;
    unsigned long long top = (unsigned long long)nprocs * FDS_AT_LAUNCH + FDS_OWN;
    if (0 == getrlimit(RLIMIT_NOFILE, &rl) && RLIM_INFINITY != rl.rlim_cur && top >= rl.rlim_cur) {
        top = rl.rlim_cur - 1;
    }
    /* Taking descriptor top makes the table that large; it stays so. A
     * huge job grows it further later. */
    int fd = fcntl(0, F_DUPFD_CLOEXEC, (int)(top < RESERVE_MAX ? top : RESERVE_MAX));
    if (fd >= 0) {
        close(fd);
    }
}
