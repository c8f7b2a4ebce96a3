/*
 * blocks.h - the block constructors' calls (vector ... hindexed_block),
 * as decoding needs them.
 */
#ifndef DROVER_TYPES_BLOCKS_H
#define DROVER_TYPES_BLOCKS_H

#include "layout.h"

/* Most blocks one call may make: each is an element of the tuple. */
#define TYPES_MAX_BLOCKS 65536

/* One call of a block constructor, in MPI's get_contents layout. */
typedef struct blocks {
    int combiner;             /* DROVER_COMBINER_VECTOR ... */
    int ni, na;               /* integers and addresses */
    int *ints;
    intptr_t *addrs;
    pmix_data_type_t old;
} blocks_t;

/* The call a block constructor made n with, when n is exactly the tuple
 * that call builds (*b then owns arrays: blocks_free); false otherwise. */
bool blocks_decode(const tnode_t *n, blocks_t *b);
void blocks_free(blocks_t *b);

#endif /* DROVER_TYPES_BLOCKS_H */
