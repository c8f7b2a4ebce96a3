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
 */
#include <stdio.h>
#include <sys/resource.h>

#include "launcher.h"

#define FDS_PER_PROC 4
#define FDS_OWN 64

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
