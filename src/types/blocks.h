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

/* The parts the other constructors of block tuples share (darray.c). */
/* Append a block of len old elements at offset off to tuple t. */
bool blocks_add(tnode_t *t, pmix_data_type_t old, int64_t off, int64_t len);
/* Whether element m of a block tuple is len old elements at offset off. */
bool blocks_element_is(const tnode_t *m, pmix_data_type_t old, int64_t off, int64_t len);
/* The id of a leaf node (a scalar or a reference), or 0. */
pmix_data_type_t blocks_leaf_id(const tnode_t *n);
/* The old type's node in block tuple n (at least one element): its first
 * element, or that element's element when it is an array. */
const tnode_t *blocks_first_leaf(const tnode_t *n);

#endif /* DROVER_TYPES_BLOCKS_H */
