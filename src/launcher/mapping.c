/*
 * mapping.c - where the ranks run: slots, --map-by and --bind-to, by hwloc.
 *
 * Design notes:
 *  - The topology is loaded once per run, without I/O devices. hwloc's
 *    plugins only discover devices (PCI, OpenCL, GL...) yet cost several
 *    milliseconds to dlopen, and its x86 backend pins drover to every CPU
 *    in turn to run cpuid although Linux's sysfs already describes the
 *    machine: both are left out, which takes loading from ~5 ms to under
 *    1 ms on a small node. A user's own HWLOC_PLUGINS_BLACKLIST wins.
 *    A daemon's standby run loads it before its job comes
 *    (mapping_preload); the run takes that one.
 *  - Slots are cores, or hardware threads with --use-hwthread-cpus. More
 *    ranks than slots is refused unless --oversubscribe.
 *  - Mapping is round robin: the p-th process on the node goes to map
 *    object p mod m, where the m map objects are those of the --map-by
 *    type ("slot" is the slot type). A spawned job continues where the
 *    processes already running end, so it takes the next free slots.
 *  - Binding: the k-th rank placed on map object M is bound to the
 *    (k mod c)-th of the c objects of the --bind-to type that overlap M.
 *    That one rule covers a smaller bind type (the cores inside a NUMA
 *    node, handed out in turn) and a larger one (the package containing a
 *    core, c = 1).
 *  - Default binding, as Open MPI's: the slot type while the job fits in
 *    the slots (or the map type for numa and socket), none when
 *    oversubscribed, where pinning several ranks to one core would
 *    serialise them.
 *  - An unbound rank's cpuset is every CPU the node allows; that is what
 *    its PMIX_CPUSET reports.
 *  - The child applies the binding itself, with sched_setaffinity on a
 *    mask computed here in the parent (hwloc calls are not safe between
 *    fork and exec in a threaded program).
 */
#include <stdio.h>
#include <stdlib.h>

#include <hwloc/glibc-sched.h>

#include "launcher.h"

/* hwloc's plugins, all device discovery. */
#define PLUGINS_NOT_NEEDED \
    "hwloc_pci,hwloc_opencl,hwloc_cuda,hwloc_nvml,hwloc_rsmi,hwloc_levelzero,hwloc_gl," \
    "hwloc_xml_libxml"

static pmix_status_t load_topology(hwloc_topology_t *topology)
{
    /* hwloc reads the variable when the first topology of the process is
     * initialised; it must not reach the ranks' environment. */
    bool set_env = NULL == getenv("HWLOC_PLUGINS_BLACKLIST");
    if (set_env) {
        setenv("HWLOC_PLUGINS_BLACKLIST", PLUGINS_NOT_NEEDED, 1);
    }
    int rc = hwloc_topology_init(topology);
    if (set_env) {
        unsetenv("HWLOC_PLUGINS_BLACKLIST");
    }
    if (0 != rc) {
        return PMIX_ERR_NOMEM;
    }
    hwloc_topology_set_io_types_filter(*topology, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_components(*topology, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
    /* Distances, memory attributes and CPU kinds say nothing about where a
     * rank goes, and reading them is a third of the load time. */
    hwloc_topology_set_flags(*topology, HWLOC_TOPOLOGY_FLAG_NO_DISTANCES |
                                            HWLOC_TOPOLOGY_FLAG_NO_MEMATTRS |
                                            HWLOC_TOPOLOGY_FLAG_NO_CPUKINDS);
    if (0 != hwloc_topology_load(*topology)) {
        hwloc_topology_destroy(*topology);
        return PMIX_ERROR;
    }
    return PMIX_SUCCESS;
}

/* The hwloc type behind a policy. Machines whose OS reports no cores or
 * packages get hardware threads or the whole machine instead. */
static hwloc_obj_type_t policy_type(hwloc_topology_t topology, launcher_policy_t policy,
                                    bool use_hwthreads)
{
    hwloc_obj_type_t type;
    switch (policy) {
    case POLICY_SLOT:
        type = use_hwthreads ? HWLOC_OBJ_PU : HWLOC_OBJ_CORE;
        break;
    case POLICY_HWTHREAD:
        type = HWLOC_OBJ_PU;
        break;
    case POLICY_NUMA:
        type = HWLOC_OBJ_NUMANODE;
        break;
    case POLICY_SOCKET:
        type = HWLOC_OBJ_PACKAGE;
        break;
    default:
        type = HWLOC_OBJ_CORE;
        break;
    }
    if (hwloc_get_nbobjs_by_type(topology, type) > 0) {
        return type;
    }
    return HWLOC_OBJ_CORE == type ? HWLOC_OBJ_PU : HWLOC_OBJ_MACHINE;
}

static launcher_policy_t default_binding(launcher_policy_t map_by, bool oversubscribed,
                                         bool use_hwthreads)
{
    if (oversubscribed) {
        return POLICY_NONE;
    }
    if (POLICY_NUMA == map_by || POLICY_SOCKET == map_by || POLICY_HWTHREAD == map_by) {
        return map_by;
    }
    return use_hwthreads ? POLICY_HWTHREAD : POLICY_CORE;
}

/* For each map object, the bind objects overlapping it, in topology order:
 * overlap[m * nbind .. m * nbind + count[m] - 1]. */
typedef struct overlap {
    hwloc_obj_t *objs;
    unsigned *count;
    unsigned nbind;
} overlap_t;

static int overlap_build(overlap_t *o, hwloc_topology_t topology, hwloc_obj_type_t map_type,
                         unsigned nmap, hwloc_obj_type_t bind_type)
{
    o->nbind = (unsigned)hwloc_get_nbobjs_by_type(topology, bind_type);
    o->objs = calloc((size_t)nmap * o->nbind, sizeof(*o->objs));
    o->count = calloc(nmap, sizeof(*o->count));
    if (NULL == o->objs || NULL == o->count) {
        free(o->objs);
        free(o->count);
        return -1;
    }
    for (unsigned m = 0; m < nmap; m++) {
        hwloc_obj_t mobj = hwloc_get_obj_by_type(topology, map_type, m);
        for (unsigned b = 0; b < o->nbind; b++) {
            hwloc_obj_t bobj = hwloc_get_obj_by_type(topology, bind_type, b);
            if (hwloc_bitmap_intersects(mobj->cpuset, bobj->cpuset)) {
                o->objs[(size_t)m * o->nbind + o->count[m]++] = bobj;
            }
        }
    }
    return 0;
}

static void overlap_free(overlap_t *o)
{
    free(o->objs);
    free(o->count);
}

/* Fill map->cpusets, the first process going to map object `first`.
 * Returns 0 or -1 when memory runs out. */
static int place(launcher_map_t *map, hwloc_topology_t topology, unsigned first,
                 bool use_hwthreads)
{
    hwloc_const_cpuset_t node = hwloc_get_root_obj(topology)->cpuset;
    hwloc_obj_type_t map_type = policy_type(topology, map->map_by, use_hwthreads);
    unsigned nmap = (unsigned)hwloc_get_nbobjs_by_type(topology, map_type);
    overlap_t overlap = {0};
    map->cpusets = calloc(map->nprocs, sizeof(*map->cpusets));
    if (NULL == map->cpusets) {
        goto fail;
    }
    if (POLICY_NONE != map->bind_to &&
        0 != overlap_build(&overlap, topology, map_type, nmap,
                           policy_type(topology, map->bind_to, use_hwthreads))) {
        goto fail;
    }
    for (unsigned p = 0; p < map->nprocs; p++) {
        unsigned m = (first + p) % nmap;
        unsigned k = (first + p) / nmap;   /* processes on m before this one */
        hwloc_const_cpuset_t where = node;
        if (POLICY_NONE != map->bind_to && overlap.count[m] > 0) {
            where = overlap.objs[(size_t)m * overlap.nbind + k % overlap.count[m]]->cpuset;
        }
        if (NULL == (map->cpusets[p] = hwloc_bitmap_dup(where))) {
            goto fail;
        }
    }
    overlap_free(&overlap);
    return 0;

fail:
    overlap_free(&overlap);
    return -1;
}

/* The topology a standby run loaded before its job came, for that job. */
static hwloc_topology_t preloaded;

int mapping_preload(void)
{
    return NULL != preloaded || PMIX_SUCCESS == load_topology(&preloaded) ? 0 : -1;
}

int mapping_load(launcher_topology_t *topo, bool use_hwthreads)
{
    if (NULL == topo->topology) {
        *topo = (launcher_topology_t){.topology = preloaded};
        preloaded = NULL;
    }
    if (NULL == topo->topology && PMIX_SUCCESS != load_topology(&topo->topology)) {
        fprintf(stderr, LAUNCHER_NAME ": cannot read this node's topology with hwloc\n");
        topo->topology = NULL;
        return LAUNCHER_EXIT_FAILURE;
    }
    topo->slot_type = policy_type(topo->topology, POLICY_SLOT, use_hwthreads);
    topo->slots = (unsigned)hwloc_get_nbobjs_by_type(topo->topology, topo->slot_type);
    if (0 == topo->slots) {
        topo->slots = 1;
    }
    return 0;
}

void mapping_unload(launcher_topology_t *topo)
{
    if (NULL != topo->topology) {
        hwloc_topology_destroy(topo->topology);
        topo->topology = NULL;
    }
}

pmix_status_t mapping_place(launcher_map_t *map, const launcher_topology_t *topo,
                            const launcher_options_t *opts, unsigned nprocs, unsigned running,
                            const char *what)
{
    *map = (launcher_map_t){.nprocs = nprocs};
    bool oversubscribed = (unsigned long)nprocs + running > topo->slots;
    if (oversubscribed && !opts->oversubscribe) {
        if (0 == running) {
            fprintf(stderr,
                    LAUNCHER_NAME ": %s: %u processes but only %u slots (%s) on this node; "
                                  "add --oversubscribe to run them anyway\n",
                    what, nprocs, topo->slots,
                    HWLOC_OBJ_PU == topo->slot_type ? "hardware threads" : "cores");
        } else {
            fprintf(stderr,
                    LAUNCHER_NAME ": %s: %u more processes beside %u running but only %u slots "
                                  "(%s) on this node; add --oversubscribe to allow it\n",
                    what, nprocs, running, topo->slots,
                    HWLOC_OBJ_PU == topo->slot_type ? "hardware threads" : "cores");
        }
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    map->oversubscribed = oversubscribed;
    map->map_by = POLICY_DEFAULT == opts->map_by ? POLICY_SLOT : opts->map_by;
    map->bind_to = POLICY_DEFAULT == opts->bind_to
                       ? default_binding(map->map_by, oversubscribed, opts->use_hwthreads)
                       : opts->bind_to;
    if (0 != place(map, topo->topology, running, opts->use_hwthreads)) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory while placing processes\n");
        mapping_release(map);
        return PMIX_ERR_NOMEM;
    }
    return PMIX_SUCCESS;
}

cpu_set_t *mapping_affinity(const launcher_map_t *map, const launcher_topology_t *topo,
                            unsigned p, size_t *size)
{
    if (POLICY_NONE == map->bind_to) {
        return NULL;
    }
    hwloc_const_cpuset_t complete = hwloc_get_root_obj(topo->topology)->complete_cpuset;
    int last = hwloc_bitmap_last(complete);
    size_t ncpus = last < 0 ? 1 : (size_t)last + 1;
    cpu_set_t *mask = CPU_ALLOC(ncpus);
    if (NULL == mask) {
        return NULL;
    }
    *size = CPU_ALLOC_SIZE(ncpus);
    hwloc_cpuset_to_glibc_sched_affinity(topo->topology, map->cpusets[p], mask, *size);
    return mask;
}

void mapping_release(launcher_map_t *map)
{
    if (NULL != map->cpusets) {
        for (unsigned p = 0; p < map->nprocs; p++) {
            hwloc_bitmap_free(map->cpusets[p]);
        }
        free(map->cpusets);
        map->cpusets = NULL;
    }
}
