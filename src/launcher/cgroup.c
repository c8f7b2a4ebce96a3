/*
 * cgroup.c - a cgroup (v2) holding the processes of a run, where drover
 * may make one.
 *
 * Design notes:
 *  - A process that leaves the process group (setsid) and clears its
 *    environment of the run's label is still in the cgroup its parent was
 *    in, and so are its children: when drover can make a cgroup below its
 *    own (root, or a subtree delegated to its user), every process joins
 *    it before exec, and the anchor and drover end whatever is in it
 *    (cgroup.kill: atomic even against a process forking meanwhile).
 *  - Where none can be made (no cgroup2 mount, no permission), nothing
 *    else changes: the process group and the run's label still find the
 *    processes (session.c). Inside a Slurm job none is made: the step's
 *    own cgroup holds the processes, and Slurm removes it at the end.
 *  - The cgroup is removed through the descriptor of its parent kept from
 *    its creation, once nothing is left in it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "launcher.h"

/* The cgroup2 mount point into dir (mount root "/" only). */
static bool find_mount(char *dir, size_t size)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (NULL == f) {
        return false;
    }
    char line[4096];
    bool found = false;
    while (!found && NULL != fgets(line, sizeof(line), f)) {
        char root[PATH_MAX], point[PATH_MAX];
        const char *sep = strstr(line, " - ");
        found = NULL != sep && 0 == strncmp(sep + 3, "cgroup2 ", 8) &&
                2 == sscanf(line, "%*s %*s %*s %4095s %4095s", root, point) &&
                0 == strcmp(root, "/") && (int)size > snprintf(dir, size, "%s", point);
    }
    fclose(f);
    return found;
}

/* The cgroup (v2) drover is in, relative to the mount, into path. */
static bool find_own(char *path, size_t size)
{
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (NULL == f) {
        return false;
    }
    char line[PATH_MAX + 8];
    bool found = false;
    while (!found && NULL != fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        found = 0 == strncmp(line, "0::/", 4) && (int)size > snprintf(path, size, "%s", line + 3);
    }
    fclose(f);
    return found;
}

void cgroup_create(launcher_cgroup_t *cg)
{
    *cg = (launcher_cgroup_t){.parent_fd = -1, .dir_fd = -1, .procs_fd = -1};
    char mount[PATH_MAX], own[PATH_MAX], parent[2 * PATH_MAX];
    uint64_t random;
    /* A Slurm job step is a cgroup that Slurm empties and removes itself,
     * which a cgroup of ours inside would keep it from doing. */
    if (NULL != getenv("SLURM_JOB_ID") || !find_mount(mount, sizeof(mount)) || !find_own(own, sizeof(own)) ||
        (int)sizeof(parent) <= snprintf(parent, sizeof(parent), "%s%s", mount, own) ||
        sizeof(random) != getrandom(&random, sizeof(random), 0)) {
        return;
    }
    snprintf(cg->name, sizeof(cg->name), "drover-%d.%016" PRIx64, (int)getpid(), random);
    cg->parent_fd = open(parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (cg->parent_fd < 0 || 0 != mkdirat(cg->parent_fd, cg->name, 0755)) {
        cgroup_remove(cg);
        return;
    }
    cg->dir_fd = openat(cg->parent_fd, cg->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (cg->dir_fd < 0) {
        unlinkat(cg->parent_fd, cg->name, AT_REMOVEDIR);
    }
    cg->procs_fd = cg->dir_fd < 0 ? -1 : openat(cg->dir_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
    /* drover itself stays out: only its children join, before exec. */
    if (cg->procs_fd < 0) {
        cgroup_remove(cg);
    }
}

unsigned cgroup_signal(const launcher_cgroup_t *cg, int sig)
{
    if (cg->dir_fd < 0) {
        return 0;
    }
    if (SIGKILL == sig) {
        /* At once, forks in flight included (Linux 5.14 and later). */
        int kill_fd = openat(cg->dir_fd, "cgroup.kill", O_WRONLY | O_CLOEXEC);
        if (kill_fd >= 0) {
            (void)!write(kill_fd, "1", 1);
            close(kill_fd);
        }
    }
    int fd = openat(cg->dir_fd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
    if (NULL == f) {
        if (fd >= 0) {
            close(fd);
        }
        return 0;
    }
    unsigned found = 0;
    long pid;
    while (1 == fscanf(f, "%ld", &pid)) {
        found++;
        kill((pid_t)pid, sig);
    }
    fclose(f);
    return found;
}

void cgroup_remove(launcher_cgroup_t *cg)
{
    if (cg->dir_fd >= 0) {
        /* What is killed leaves the cgroup only once it has exited, which
         * a large process on a loaded machine may take seconds to do. */
        for (int round = 0; round < 1000 && cgroup_signal(cg, SIGKILL) > 0; round++) {
            nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
        }
        unlinkat(cg->parent_fd, cg->name, AT_REMOVEDIR);
    }
    int fds[] = {cg->parent_fd, cg->dir_fd, cg->procs_fd};
    for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
        if (fds[i] >= 0) {
            close(fds[i]);
        }
    }
    *cg = (launcher_cgroup_t){.parent_fd = -1, .dir_fd = -1, .procs_fd = -1};
}
