/*
 * client_topology.c - PMIx_Load_topology, PMIx_Get_cpuset,
 * PMIx_Parse_cpuset_string, PMIx_Get_relative_locality (against the
 * strings the server library generates) and PMIx_Compute_distances, with
 * their refusals. Run under minihost with one rank; the pure functions
 * are also checked before PMIx_Init.
 */
#include <string.h>

#include <hwloc.h>

#include "check.h"
#include "pmix_server.h"

pmix_proc_t me;
static volatile bool bad_callback;

static void never(pmix_status_t status, pmix_device_distance_t *dist, size_t ndist, void *cbdata,
                  pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    bad_callback = true;
}

static void cpusets(void)
{
    pmix_cpuset_t set = {.source = NULL, .bitmap = NULL};

    CHECK_RC(PMIx_Parse_cpuset_string("hwloc:0-1,3", &set), PMIX_SUCCESS, "parse");
    CHECK(0 == strcmp(set.source, "hwloc") && 3 == hwloc_bitmap_weight(set.bitmap) &&
              hwloc_bitmap_isset(set.bitmap, 3) && !hwloc_bitmap_isset(set.bitmap, 2),
          "parsed 0-1,3");
    PMIx_Cpuset_destruct(&set);
    CHECK(NULL == set.source && NULL == set.bitmap, "destructed");
    CHECK_RC(PMIx_Parse_cpuset_string("HWLOC:", &set), PMIX_SUCCESS, "empty set");
    CHECK(hwloc_bitmap_iszero(set.bitmap), "nothing in it");
    PMIx_Cpuset_destruct(&set);
    CHECK_RC(PMIx_Parse_cpuset_string("0-1", &set), PMIX_ERR_BAD_PARAM, "no source");
    CHECK_RC(PMIx_Parse_cpuset_string("other:0-1", &set), PMIX_ERR_NOT_SUPPORTED, "other source");
    CHECK_RC(PMIx_Parse_cpuset_string("hwloc:zero", &set), PMIX_ERR_BAD_PARAM, "not a list");
    CHECK_RC(PMIx_Parse_cpuset_string(NULL, &set), PMIX_ERR_BAD_PARAM, "NULL string");
    CHECK(NULL == set.source && NULL == set.bitmap, "failed parses leave it empty");

    CHECK_RC(PMIx_Get_cpuset(&set, PMIX_CPUBIND_PROCESS), PMIX_SUCCESS, "own binding");
    CHECK(!hwloc_bitmap_iszero(set.bitmap), "bound somewhere");
    PMIx_Cpuset_destruct(&set);
    CHECK_RC(PMIx_Get_cpuset(&set, PMIX_CPUBIND_THREAD), PMIX_SUCCESS, "thread binding");
    PMIx_Cpuset_destruct(&set);
    CHECK_RC(PMIx_Get_cpuset(&set, 9), PMIX_ERR_BAD_PARAM, "unknown envelope");
}

static void topology(void)
{
    pmix_topology_t topo = {.source = NULL, .topology = NULL};

    CHECK_RC(PMIx_Load_topology(&topo), PMIX_SUCCESS, "load");
    CHECK(0 == strcmp(topo.source, "hwloc") && NULL != topo.topology, "an hwloc topology");
    CHECK(hwloc_get_nbobjs_by_type(topo.topology, HWLOC_OBJ_PU) > 0, "with threads");
    PMIx_Topology_destruct(&topo);
    topo.source = "something-else";
    CHECK_RC(PMIx_Load_topology(&topo), PMIX_ERR_NOT_SUPPORTED, "another provider");
    CHECK_RC(PMIx_Load_topology(NULL), PMIX_ERR_BAD_PARAM, "NULL topology");
}

/* The locality string the server would give a process bound to PU pu. */
static char *locality_of(unsigned pu)
{
    pmix_cpuset_t set = {.source = "hwloc", .bitmap = hwloc_bitmap_alloc()};
    char *s = NULL;
    hwloc_bitmap_only(set.bitmap, pu);
    CHECK_RC(PMIx_server_generate_locality_string(&set, &s), PMIX_SUCCESS, "locality string");
    hwloc_bitmap_free(set.bitmap);
    return s;
}

static void locality(void)
{
    pmix_locality_t loc;
    char *a = locality_of(0), *b = locality_of(0);

    CHECK_RC(PMIx_Get_relative_locality(a, b, &loc), PMIX_SUCCESS, "same thread");
    CHECK((loc & PMIX_LOCALITY_SHARE_NODE) && (loc & PMIX_LOCALITY_SHARE_HWTHREAD) &&
              (loc & PMIX_LOCALITY_SHARE_CORE) && (loc & PMIX_LOCALITY_SHARE_PACKAGE),
          "everything shared: 0x%x (%s)", loc, a);
    free(a);
    free(b);
    CHECK_RC(PMIx_Get_relative_locality("SK0:L30:L20:L10:CR0:HT0:NM0",
                                        "hwloc:SK0:L30:L21:L11:CR1:HT2-3:NM0", &loc),
             PMIX_SUCCESS, "written strings");
    CHECK(loc == (PMIX_LOCALITY_SHARE_NODE | PMIX_LOCALITY_SHARE_PACKAGE |
                  PMIX_LOCALITY_SHARE_L3CACHE | PMIX_LOCALITY_SHARE_NUMA),
          "package, L3 and NUMA shared: 0x%x", loc);
    CHECK_RC(PMIx_Get_relative_locality("SK0", "SK1", &loc), PMIX_SUCCESS, "other package");
    CHECK(PMIX_LOCALITY_SHARE_NODE == loc, "only the node");
    CHECK_RC(PMIx_Get_relative_locality("", "", &loc), PMIX_SUCCESS, "unbound");
    CHECK(PMIX_LOCALITY_SHARE_NODE == loc, "unbound share the node");
    CHECK_RC(PMIx_Get_relative_locality("XX0", "SK0", &loc), PMIX_ERR_BAD_PARAM, "unknown level");
    CHECK_RC(PMIx_Get_relative_locality("SK0-", "SK0", &loc), PMIX_SUCCESS, "open range");
    CHECK_RC(PMIx_Get_relative_locality("SKx", "SK0", &loc), PMIX_ERR_BAD_PARAM, "bad list");
    CHECK_RC(PMIx_Get_relative_locality("SK0:SK1", "SK0", &loc), PMIX_ERR_BAD_PARAM,
             "level twice");
    CHECK_RC(PMIx_Get_relative_locality(NULL, "SK0", &loc), PMIX_ERR_BAD_PARAM, "NULL");
}

static void distances(void)
{
    pmix_device_distance_t *dist;
    size_t ndist;
    pmix_topology_t topo = {.source = "hwloc"};
    hwloc_topology_t full;
    pmix_info_t only;
    pmix_device_type_t net = PMIX_DEVTYPE_NETWORK;

    /* The library's topology has no I/O devices: nothing to measure. */
    CHECK_RC(PMIx_Compute_distances(NULL, NULL, NULL, 0, &dist, &ndist), PMIX_SUCCESS,
             "distances in the library's topology");
    CHECK(0 == ndist && NULL == dist, "no devices");

    /* One with devices, as a program loads it. */
    hwloc_topology_init(&full);
    hwloc_topology_set_io_types_filter(full, HWLOC_TYPE_FILTER_KEEP_ALL);
    hwloc_topology_load(full);
    topo.topology = full;
    CHECK_RC(PMIx_Compute_distances(&topo, NULL, NULL, 0, &dist, &ndist), PMIX_SUCCESS,
             "distances to all devices");
    size_t nnet = 0;
    for (size_t i = 0; i < ndist; i++) {
        CHECK(NULL != dist[i].uuid && NULL != dist[i].osname && 0 != dist[i].type &&
                  dist[i].mindist <= dist[i].maxdist,
              "device %zu described", i);
        nnet += PMIX_DEVTYPE_NETWORK == dist[i].type;
    }
    PMIX_DEVICE_DIST_FREE(dist, ndist);
    PMIX_INFO_LOAD(&only, PMIX_DEVICE_TYPE, &net, PMIX_DEVTYPE);
    CHECK_RC(PMIx_Compute_distances(&topo, NULL, &only, 1, &dist, &ndist), PMIX_SUCCESS,
             "distances to network devices");
    CHECK(nnet == ndist, "%zu network devices of %zu", ndist, nnet);
    for (size_t i = 0; i < ndist; i++) {
        CHECK(PMIX_DEVTYPE_NETWORK == dist[i].type, "only network devices");
    }
    PMIX_DEVICE_DIST_FREE(dist, ndist);
    PMIX_INFO_DESTRUCT(&only);
    printf("%s:%u: %zu devices, %zu network\n", me.nspace, me.rank, ndist, nnet);

    topo.source = "other";
    CHECK_RC(PMIx_Compute_distances(&topo, NULL, NULL, 0, &dist, &ndist),
             PMIX_ERR_NOT_SUPPORTED, "another provider");
    topo.source = "hwloc";
    CHECK_RC(PMIx_Compute_distances_nb(&topo, NULL, NULL, 0, NULL, NULL), PMIX_SUCCESS,
             "distances nobody waits for");
    topo.topology = NULL;
    CHECK_RC(PMIx_Compute_distances_nb(&topo, NULL, NULL, 0, never, NULL), PMIX_ERR_BAD_PARAM,
             "no topology in it");
    CHECK_RC(PMIx_Compute_distances(NULL, NULL, NULL, 0, NULL, NULL), PMIX_ERR_BAD_PARAM,
             "nowhere to put them");
    hwloc_topology_destroy(full);
}

int main(void)
{
    pmix_device_distance_t *dist;
    size_t ndist;

    /* The pure functions work before initialisation... */
    strcpy(me.nspace, "uninitialised");
    cpusets();
    locality();
    /* ... the calls that need the library's thread do not. */
    CHECK_RC(PMIx_Compute_distances(NULL, NULL, NULL, 0, &dist, &ndist), PMIX_ERR_INIT,
             "distances before init");
    CHECK_RC(PMIx_Init(&me, NULL, 0), PMIX_SUCCESS, "init");
    cpusets();
    topology();
    locality();
    distances();
    CHECK(!bad_callback, "a callback ran for a call that failed");
    CHECK_RC(PMIx_Finalize(NULL, 0), PMIX_SUCCESS, "finalize");
    printf("%s:%u: topology ok\n", me.nspace, me.rank);
    return 0;
}
