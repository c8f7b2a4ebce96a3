/*
 * typemap.c - drover_type_get_typemap: every basic element of a type and
 * its byte displacement, as MPI's type map.
 *
 * Design notes:
 *  - A walk of the laid-out tree in memory order of declaration: members
 *    at their offsets (plus the type's lb, extent.c), an array's selected elements in C order, a
 *    reference through its target. Scalars give the builtin id of their
 *    class and size (as decoding does), a pointer PMIX_POINTER.
 *  - The walk counts every entry and stores the first max, so a caller
 *    can ask for the count first (max 0) and then for the whole map.
 */
#include "bfrops.h"
#include "construct.h"
#include "rows.h"
#include "types.h"

typedef struct walk {
    size_t max, count;
    int64_t lb;                  /* the type's: displacements are offset + lb */
    pmix_data_type_t *basics;
    intptr_t *disps;
} walk_t;

static void emit(walk_t *w, pmix_data_type_t id, size_t off)
{
    if (w->count < w->max) {
        w->basics[w->count] = id;
        w->disps[w->count] = (intptr_t)off + (intptr_t)w->lb;
    }
    w->count++;
}

static void walk(walk_t *w, const tnode_t *n, size_t off);

typedef struct row_ctx {
    walk_t *w;
    size_t base;
} row_ctx_t;

static int map_row(void *arg, const tnode_t *sub, size_t off, size_t count)
{
    row_ctx_t *c = arg;
    for (size_t k = 0; k < count; k++) {
        walk(c->w, sub, c->base + off + k * sub->size);
    }
    return 0;
}

static void walk(walk_t *w, const tnode_t *n, size_t off)
{
    switch (n->kind) {
    case TK_SCALAR:
        emit(w, construct_scalar_id(&n->scalar), off);
        return;
    case TK_POINTER:
        emit(w, PMIX_POINTER, off);
        return;
    case TK_REF:
        walk(w, n->target->root, off);
        return;
    case TK_ARRAY: {
        row_ctx_t c = {w, off};
        each_run(n, map_row, &c);
        return;
    }
    default:
        for (size_t i = 0; i < n->nchild; i++) {
            const tnode_t *m = n->child[i];
            if (TK_MEMBER == m->kind) {
                walk(w, m->child[0], off + m->off);
            }
        }
        return;
    }
}

PMIX_EXPORT pmix_status_t drover_type_get_typemap(pmix_data_type_t type, size_t max,
                                                  pmix_data_type_t basics[],
                                                  intptr_t displacements[], size_t *count)
{
    if (NULL == count || (0 < max && (NULL == basics || NULL == displacements))) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == bfrops_lookup(type)) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    const named_t *nt = types_by_id(type);
    if (NULL != nt && (nt->relay || !nt->root->laid)) {
        return PMIX_ERR_NOT_AVAILABLE;
    }
    walk_t w = {max, 0, NULL == nt ? 0 : types_lb(nt->root), basics, displacements};
    if (NULL == nt) {
        emit(&w, type, 0);
    } else {
        walk(&w, nt->root, 0);
    }
    *count = w.count;
    return PMIX_SUCCESS;
}
