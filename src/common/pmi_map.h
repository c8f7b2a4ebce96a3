/*
 * pmi_map.h - PMI_process_mapping, the job attribute through which MPICH
 * learns which ranks share a node, in hydra's format. Private; shared by
 * the PMI wire server and the PMI client libraries.
 */
#ifndef DROVER_PMI_MAP_H
#define DROVER_PMI_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Write the mapping of n ranks, rank r on node nodeid[r], into out (room
 * bytes): "(vector," then one "(first node,nodes,ranks per node)" triple
 * per stretch of ranks laid out in equal blocks on consecutive nodes, then
 * ")". False when n is 0 or it does not fit. */
bool pmi_map_format(const uint32_t *nodeid, uint32_t n, char *out, size_t room);

#endif /* DROVER_PMI_MAP_H */
