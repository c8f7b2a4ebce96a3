/*
 * rows.h - walking the selected elements of an array node one row (the
 * innermost dimension's selected run) at a time, in C order.
 */
#ifndef DROVER_TYPES_ROWS_H
#define DROVER_TYPES_ROWS_H

#include "tnode.h"

/* count elements of sub starting at byte off from the array's start.
 * Returns nonzero to stop the walk. */
typedef int (*run_fn_t)(void *ctx, const tnode_t *sub, size_t off, size_t count);

/* Call fn for each row of the laid-out array arr; the first nonzero
 * return of fn stops the walk and is returned. */
int each_run(const tnode_t *arr, run_fn_t fn, void *ctx);

#endif /* DROVER_TYPES_ROWS_H */
