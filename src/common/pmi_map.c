/*
 * pmi_map.c - PMI_process_mapping in hydra's vector format (see
 * pmi_map.h). One node of 4 ranks: "(vector,(0,1,4))"; ranks 0-3 on node
 * 0 and 4-7 on node 1: "(vector,(0,2,4))"; a cyclic layout needs one
 * triple per rank.
 */
#include <stdio.h>
#include <string.h>

#include "pmi_map.h"

/* Append ",(start,nnodes,per_node)". */
static bool add_block(char *out, size_t room, uint32_t start, uint32_t nnodes, uint32_t per_node)
{
    size_t used = strlen(out);
    int n = snprintf(out + used, room - used, ",(%u,%u,%u)", start, nnodes, per_node);
    return n > 0 && (size_t)n < room - used;
}

bool pmi_map_format(const uint32_t *nodeid, uint32_t n, char *out, size_t room)
{
    uint32_t start = 0, nnodes = 0, per_node = 0;

    if (0 == n || room < sizeof("(vector)")) {
        return false;
    }
    snprintf(out, room, "(vector");
    for (uint32_t r = 0; r < n;) {
        /* The run of ranks on nodeid[r]. */
        uint32_t run = 1;
        while (r + run < n && nodeid[r + run] == nodeid[r]) {
            run++;
        }
        if (nnodes > 0 && run == per_node && nodeid[r] == start + nnodes) {
            nnodes++;
        } else {
            if (nnodes > 0 && !add_block(out, room, start, nnodes, per_node)) {
                return false;
            }
            start = nodeid[r];
            nnodes = 1;
            per_node = run;
        }
        r += run;
    }
    if (!add_block(out, room, start, nnodes, per_node) || strlen(out) + 2 > room) {
        return false;
    }
    strcat(out, ")");
    return true;
}
