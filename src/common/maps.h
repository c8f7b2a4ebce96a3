/*
 * maps.h - the compact node and rank maps of PMIX_NODE_MAP and
 * PMIX_PROC_MAP: PMIx_generate_regex and PMIx_generate_ppn write them,
 * the functions here read them back. Private to the library.
 *
 * Format (docs/protocol.md, "Node and rank maps"): "pmix:" then
 *  - node map: comma-separated items, each a name or a run of names that
 *    differ only in one number, "prefix[width:ranges]suffix" (width 0: no
 *    zero padding; ranges like "1-4,7");
 *  - rank map: one range list per node, ';' between nodes, in node-map
 *    order.
 * A value without the "pmix:" prefix is read as a plain list ("a,b" /
 * "0,1;2,3"), and OpenPMIx's "raw:" rank maps are accepted as plain lists.
 */
#ifndef DROVER_MAPS_H
#define DROVER_MAPS_H

#include <stddef.h>

#include "pmix_common.h"

/* The keys a job's maps are kept under once registered: clients read them
 * (PMIx_Resolve_peers/_nodes), but PMIx_Get of PMIX_NODE_MAP or
 * PMIX_PROC_MAP finds nothing, as with OpenPMIx, which expands the maps
 * instead of keeping them. */
#define MAPS_NODE_MAP_KEY "drover.node_map"
#define MAPS_PROC_MAP_KEY "drover.proc_map"

/* The node names of a node map, in order: a NULL-terminated array the
 * caller frees with PMIX_ARGV_FREE. */
pmix_status_t maps_parse_nodes(const char *map, char ***names);

/* The ranks on the node_index-th node of a rank map: *ranks is a new
 * array (free()), NULL when the node has none. PMIX_ERR_NOT_FOUND when
 * the map has fewer nodes. */
pmix_status_t maps_node_ranks(const char *map, size_t node_index, pmix_rank_t **ranks,
                              size_t *n);

#endif /* DROVER_MAPS_H */
