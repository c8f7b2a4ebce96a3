/*
 * slurm.c - `drover run` inside a Slurm allocation of several nodes
 * (salloc -N 2, sbatch -N 2): the job goes to `srun --mpi=pmix`, as Open
 * MPI's mpirun hands it to its Slurm launcher, so that it spans the
 * allocation's nodes with slurmstepd as the PMIx server on each.
 *
 * Design notes:
 *  - An allocation is SLURM_JOB_ID without SLURM_STEP_ID (inside a step,
 *    drover runs on its own node, as ever) and SLURM_JOB_NUM_NODES above
 *    one; DROVER_SLURM=0 keeps the run local.
 *  - drover execs srun: srun's output, signal handling and exit status are
 *    those of the job. The options that mean the same to srun are passed
 *    on (-n, -x, --wdir, --oversubscribe, --tag-output); the others
 *    (placement, binding, --timeout) have no srun equivalent drover could
 *    vouch for and are refused in one line rather than dropped.
 *  - The ranks use the PMIx library of the nodes (the one slurmstepd
 *    serves with), so drover's library directory is not put first on
 *    their path.
 *  - A coarray program built by `drover caf` is refused: its images share
 *    memory, so they all run on one node.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launcher.h"

extern char **environ;

unsigned slurm_allocation_nodes(void)
{
    const char *job = getenv("SLURM_JOB_ID"), *nodes = getenv("SLURM_JOB_NUM_NODES");
    const char *wanted = getenv("DROVER_SLURM");
    char *end;

    if (NULL == job || NULL != getenv("SLURM_STEP_ID") || NULL == nodes ||
        (NULL != wanted && 0 == strcmp(wanted, "0"))) {
        return 0;
    }
    unsigned long n = strtoul(nodes, &end, 10);
    return end == nodes || '\0' != *end || n > 1000000 ? 0 : (unsigned)n;
}

/* Whether the program at path links libcaf_drover (its name is in the
 * dynamic section's strings). */
static bool links_caf(const char *path)
{
    static const char name[] = "libcaf_drover.so";
    struct stat st;
    bool found = false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0 || 0 != fstat(fd, &st) || st.st_size <= 0) {
        if (fd >= 0) {
            close(fd);
        }
        return false;
    }
    void *image = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (MAP_FAILED != image) {
        found = NULL != memmem(image, (size_t)st.st_size, name, sizeof(name) - 1);
        munmap(image, (size_t)st.st_size);
    }
    return found;
}

/* The option srun cannot take, or NULL. */
static const char *unmappable(const launcher_options_t *opts)
{
    if (opts->timeout > 0) {
        return "--timeout";
    }
    if (NULL != opts->trace) {
        return "--trace";
    }
    if (POLICY_DEFAULT != opts->map_by) {
        return "--map-by";
    }
    if (POLICY_DEFAULT != opts->bind_to) {
        return "--bind-to";
    }
    return opts->use_hwthreads ? "--use-hwthread-cpus" : NULL;
}

/* -x VAR=value: srun passes drover's whole environment on. */
static int export_values(const launcher_options_t *opts)
{
    for (size_t i = 0; i < opts->nexports; i++) {
        const char *eq = strchr(opts->exports[i], '=');
        char *name = NULL == eq ? NULL : strndup(opts->exports[i], (size_t)(eq - opts->exports[i]));
        int rc = NULL == eq ? 0 : NULL == name ? -1 : setenv(name, eq + 1, 1);
        free(name);
        if (0 != rc) {
            return -1;
        }
    }
    return 0;
}

int slurm_run(const launcher_options_t *opts, unsigned nodes)
{
    const char *bad = unmappable(opts), *why;
    char *program = NULL, ntasks[32], *chdir_opt = NULL;
    int rc = launch_resolve(opts->argv[0], environ, opts->wdir, &program, &why);

    if (0 != rc) {
        fprintf(stderr, LAUNCHER_NAME ": cannot run '%s': %s\n", opts->argv[0], why);
        return rc;
    }
    bool caf = links_caf(program);
    free(program);
    if (caf) {
        fprintf(stderr,
                LAUNCHER_NAME ": '%s' is a coarray program: its images share memory on one "
                              "node, and this Slurm allocation has %u nodes (use salloc -N 1)\n",
                opts->argv[0], nodes);
        return LAUNCHER_EXIT_USAGE;
    }
    if (NULL != bad) {
        fprintf(stderr, LAUNCHER_NAME ": %s is not supported across the %u nodes of a Slurm "
                        "allocation (DROVER_SLURM=0 runs on this node only)\n", bad, nodes);
        return LAUNCHER_EXIT_USAGE;
    }
    if (0 != export_values(opts)) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        return LAUNCHER_EXIT_FAILURE;
    }
    snprintf(ntasks, sizeof(ntasks), "--ntasks=%u", opts->nranks);
    size_t nargs = 0;
    while (NULL != opts->argv[nargs]) {
        nargs++;
    }
    const char **argv = calloc(nargs + 9, sizeof(*argv));
    if (NULL == argv ||
        (NULL != opts->wdir && asprintf(&chdir_opt, "--chdir=%s", opts->wdir) < 0)) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        free(argv);
        return LAUNCHER_EXIT_FAILURE;
    }
    size_t k = 0;
    argv[k++] = "srun";
    argv[k++] = "--mpi=pmix";
    argv[k++] = ntasks;
    argv[k++] = "--kill-on-bad-exit=1"; /* a failed rank ends the job, as with drover */
    if (NULL != chdir_opt) {
        argv[k++] = chdir_opt;
    }
    if (opts->oversubscribe) {
        argv[k++] = "--overcommit";
    }
    if (opts->tag_output) {
        argv[k++] = "--label";
    }
    argv[k++] = "--";
    memcpy(&argv[k], opts->argv, nargs * sizeof(*argv));
    execvp("srun", (char **)argv);
    int err = errno;
    fprintf(stderr, LAUNCHER_NAME ": cannot run srun for this %u-node Slurm allocation: %s\n",
            nodes, strerror(err));
    free(chdir_opt);
    free(argv);
    return ENOENT == err ? LAUNCHER_EXIT_NOTFOUND : LAUNCHER_EXIT_NOEXEC;
}
