/*
 * topology.c - the node's hwloc topology, loaded once per process.
 *
 * Loading skips I/O devices (PCI and friends): nothing in PMIx's locality
 * needs them and discovering them costs milliseconds.
 */
#include <pthread.h>

#include "topology.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static hwloc_topology_t topo;
static pmix_status_t load_status = PMIX_ERR_NOT_FOUND;

pmix_status_t topology_get(hwloc_topology_t *topology)
{
    pthread_mutex_lock(&lock);
    if (NULL == topo) {
        hwloc_topology_t t;
        load_status = PMIX_ERR_NOT_AVAILABLE;
        if (0 == hwloc_topology_init(&t)) {
            hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_NONE);
            if (0 == hwloc_topology_load(t)) {
                topo = t;
                load_status = PMIX_SUCCESS;
            } else {
                hwloc_topology_destroy(t);
            }
        }
    }
    *topology = topo;
    pmix_status_t rc = NULL == topo ? load_status : PMIX_SUCCESS;
    pthread_mutex_unlock(&lock);
    return rc;
}

void topology_adopt(hwloc_topology_t topology)
{
    pthread_mutex_lock(&lock);
    if (NULL == topo) {
        topo = topology;
    }
    pthread_mutex_unlock(&lock);
}
