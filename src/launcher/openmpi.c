/*
 * openmpi.c - what an Open MPI 4.1 process needs in its environment to run
 * as a rank of a drover job.
 *
 * Design notes:
 *  - Open MPI takes a process that no launcher it knows started for a
 *    singleton and forks a daemon of its own. Its schizo framework makes
 *    that call: the orte component says "singleton" whenever no mpirun
 *    daemon is named, and the slurm, flux and jsm components speak for
 *    their resource managers, inside which drover may well run (slurm's
 *    says "singleton" too inside an allocation but outside a job step).
 *    With all four left out (OMPI_MCA_schizo=^orte,slurm,flux,jsm) nothing
 *    decides, and the runtime picks ess/pmi by priority: it takes the PMIx
 *    server named by the PMIX_* variables as its runtime. That is one
 *    ordinary MCA setting, where the alternatives would impersonate Slurm
 *    or Flux.
 *  - On an oversubscribed node mpirun tells the ranks so
 *    (OMPI_MCA_mpi_oversubscribe=1), which makes them yield the CPU while
 *    they wait instead of spinning; spinning ranks starve the ones they
 *    wait for. drover does the same for a job placed on more processes
 *    than slots.
 *  - Every rank of a drover run is on this node, where Open MPI's ob1 PML
 *    (with the vader shared-memory BTL) is the transport it selects
 *    anyway. Left to choose, each rank first opens the cm PML, which loads
 *    the network MTLs' libraries (libpsm2's constructor alone spins for
 *    about 200 ms) only to find no fabric: OMPI_MCA_pml=ob1 skips that.
 *  - Open MPI's shared-memory transport (btl/vader) backs its segments
 *    with files named after its own job id, in /dev/shm. It asks the PMIx
 *    server to remove them when the job ends, which drover's server does,
 *    unless drover itself is killed. In a directory with the session's
 *    shared-memory prefix, the anchor removes them then too.
 *  - A value the user set (in drover's environment or with -x) wins.
 */
#include "launcher.h"

static char **set_default(char **env, const char *name, const char *value)
{
    if (NULL == env || NULL != launch_getenv(env, name)) {
        return env;
    }
    char **grown = launch_setenv(env, name, value);
    if (NULL == grown) {
        launch_free_env(env);
    }
    return grown;
}

char *openmpi_shm_dir(const launcher_session_t *s)
{
    return session_shm_mkdir(s, "openmpi");
}

char **openmpi_env(char **env, const launcher_map_t *map, const char *shm_dir)
{
    env = set_default(env, "OMPI_MCA_schizo", "^orte,slurm,flux,jsm");
    env = set_default(env, "OMPI_MCA_pml", "ob1");
    if (NULL != shm_dir) {
        env = set_default(env, "OMPI_MCA_btl_vader_backing_directory", shm_dir);
    }
    if (map->oversubscribed) {
        env = set_default(env, "OMPI_MCA_mpi_oversubscribe", "1");
    }
    return env;
}
