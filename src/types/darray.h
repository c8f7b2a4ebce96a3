/*
 * darray.h - MPI's distributed array constructor, as decoding needs it.
 */
#ifndef DROVER_TYPES_DARRAY_H
#define DROVER_TYPES_DARRAY_H

#include "blocks.h"

/* The call drover_type_create_darray made n with, in MPI's get_contents
 * layout (b->ints: size, rank, ndims, gsizes, distribs, dargs, psizes,
 * order; no addresses), when n is exactly the tuple that call builds
 * (*b then owns b->ints: blocks_free); false otherwise. */
bool darray_decode(const tnode_t *n, blocks_t *b);

#endif /* DROVER_TYPES_DARRAY_H */
