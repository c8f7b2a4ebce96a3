/*
 * topology.h - the node's hwloc topology, loaded once per process.
 * Private to the library.
 */
#ifndef DROVER_TOPOLOGY_H
#define DROVER_TOPOLOGY_H

#include <hwloc.h>

#include "pmix_common.h"

/* The topology, loaded (without I/O devices) at the first call, or the one
 * a host handed over with topology_adopt. Borrowed for the life of the
 * process (or until topology_adopt's owner frees it). */
pmix_status_t topology_get(hwloc_topology_t *topology);

/* Use the host's topology (PMIX_TOPOLOGY2 given to PMIx_server_init)
 * instead of loading one; it stays the host's. Ignored once one is in use. */
void topology_adopt(hwloc_topology_t topology);

#endif /* DROVER_TOPOLOGY_H */
