/*
 * rows.c - the rows of an array's selection (rows.h), for the walks of
 * generic.c, plan.c and typemap.c.
 */
#include "rows.h"

static int rows_from(const tnode_t *arr, size_t dim, size_t base, run_fn_t fn, void *ctx)
{
    size_t ndims = arr->nchild - 1;
    const tnode_t *sub = arr->child[ndims];
    const tnode_t *d = arr->child[dim];
    size_t stride = sub->size;
    for (size_t k = dim + 1; k < ndims; k++) {
        stride *= (size_t)arr->child[k]->n;
    }
    if (dim + 1 == ndims) {
        return 0 == d->sub ? 0 : fn(ctx, sub, base + (size_t)d->start * stride, (size_t)d->sub);
    }
    for (int64_t i = d->start; i < d->start + d->sub; i++) {
        int rc = rows_from(arr, dim + 1, base + (size_t)i * stride, fn, ctx);
        if (0 != rc) {
            return rc;
        }
    }
    return 0;
}

int each_run(const tnode_t *arr, run_fn_t fn, void *ctx)
{
    return rows_from(arr, 0, 0, fn, ctx);
}
