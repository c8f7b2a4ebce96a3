/*
 * extent.c - size, bounds and signature of a registered type, after MPI's
 * MPI_Type_size, MPI_Type_get_extent and MPI_Type_get_true_extent.
 *
 * Design notes:
 *  - An element is [lb, lb + extent) relative to its origin, and its
 *    bytes in memory are exactly that span: lb is the +lb attribute of a
 *    struct, record or tuple (the constructors set it to MPI's lowest
 *    displacement, which may be negative), an array's element's lb, 0
 *    otherwise; the extent is the element's size. Offsets in the tree are
 *    from the start of memory, so MPI's displacement is offset + lb.
 *  - size counts the bytes the type's data occupies in the element (a
 *    slice's selected elements, members without padding, a pointer's 8
 *    bytes); true_lb and true_extent span the first to the last of those
 *    bytes. Builtin and C-registered types are their own bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "types.h"

int64_t types_lb(const tnode_t *n)
{
    for (;;) {
        if (TK_REF == n->kind) {
            n = n->target->root;
        } else if (TK_ARRAY == n->kind) {
            n = n->child[n->nchild - 1];
        } else {
            break;
        }
    }
    bool bounded = TK_STRUCT == n->kind || TK_RECORD == n->kind || TK_TUPLE == n->kind;
    const char *v = bounded ? tnode_attr(n, "lb") : NULL;
    return NULL == v ? 0 : strtoll(v, NULL, 10);
}

typedef struct data {
    size_t size;       /* data bytes */
    size_t lo, hi;     /* first and one past the last data byte; lo > hi: none */
} data_t;

static data_t data_of(const tnode_t *n);

static void widen(data_t *d, const data_t *part, size_t off)
{
    d->size += part->size;
    if (part->lo < part->hi) {
        d->lo = off + part->lo < d->lo ? off + part->lo : d->lo;
        d->hi = off + part->hi > d->hi ? off + part->hi : d->hi;
    }
}

static data_t array_data(const tnode_t *n)
{
    size_t ndims = n->nchild - 1, count = 1, first = 0, last = 0, stride = 1;
    data_t sub = data_of(n->child[ndims]);
    for (size_t i = ndims; i-- > 0;) {
        const tnode_t *dim = n->child[i];
        count *= (size_t)dim->sub;
        first += (size_t)dim->start * stride;
        last += (size_t)(dim->start + dim->sub - 1) * stride;
        stride *= (size_t)dim->n;
    }
    data_t d = {0, SIZE_MAX, 0};
    if (0 == count) {
        return d;
    }
    size_t esize = n->child[ndims]->size;
    d.size = count * sub.size;
    if (sub.lo < sub.hi) {
        d.lo = first * esize + sub.lo;
        d.hi = last * esize + sub.hi;
    }
    return d;
}

static data_t data_of(const tnode_t *n)
{
    while (TK_REF == n->kind) {
        n = n->target->root;
    }
    data_t d = {0, SIZE_MAX, 0};
    switch (n->kind) {
    case TK_SCALAR:
    case TK_POINTER:
        return (data_t){n->size, 0, n->size};
    case TK_ARRAY:
        return array_data(n);
    default:
        for (size_t i = 0; i < n->nchild; i++) {
            const tnode_t *m = n->child[i];
            if (TK_MEMBER == m->kind) {
                data_t part = data_of(m->child[0]);
                widen(&d, &part, m->off);
            }
        }
        return d;
    }
}

/* The data of a registered type; PMIX_ERR_UNKNOWN_DATA_TYPE otherwise. */
static pmix_status_t lookup(pmix_data_type_t type, data_t *d, size_t *extent)
{
    const drover_datatype_t *t = bfrops_lookup(type);
    if (NULL == t) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    const named_t *nt = types_by_id(type);
    if (NULL != nt && (nt->relay || !nt->root->laid)) {
        return PMIX_ERR_NOT_AVAILABLE;
    }
    *d = NULL == nt ? (data_t){t->size, 0, t->size} : data_of(nt->root);
    *extent = t->size;
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t drover_type_size(pmix_data_type_t type, size_t *size)
{
    data_t d;
    size_t extent;
    if (NULL == size) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = lookup(type, &d, &extent);
    if (PMIX_SUCCESS == rc) {
        *size = d.size;
    }
    return rc;
}

PMIX_EXPORT pmix_status_t drover_type_get_extent(pmix_data_type_t type, intptr_t *lb,
                                                 intptr_t *extent)
{
    data_t d;
    size_t ext;
    if (NULL == lb || NULL == extent) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = lookup(type, &d, &ext);
    if (PMIX_SUCCESS == rc) {
        const named_t *nt = types_by_id(type);
        *lb = NULL == nt ? 0 : (intptr_t)types_lb(nt->root);
        *extent = (intptr_t)ext;
    }
    return rc;
}

PMIX_EXPORT pmix_status_t drover_type_get_true_extent(pmix_data_type_t type, intptr_t *true_lb,
                                                      intptr_t *true_extent)
{
    data_t d;
    size_t ext;
    if (NULL == true_lb || NULL == true_extent) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = lookup(type, &d, &ext);
    if (PMIX_SUCCESS == rc) {
        const named_t *nt = types_by_id(type);
        intptr_t lb = NULL == nt ? 0 : (intptr_t)types_lb(nt->root);
        *true_lb = d.lo < d.hi ? (intptr_t)d.lo + lb : 0;
        *true_extent = d.lo < d.hi ? (intptr_t)(d.hi - d.lo) : 0;
    }
    return rc;
}

PMIX_EXPORT pmix_status_t drover_type_signature(pmix_data_type_t type, char **signature,
                                                uint64_t *fingerprint)
{
    if (NULL == signature || NULL == fingerprint) {
        return PMIX_ERR_BAD_PARAM;
    }
    const named_t *nt = types_by_id(type);
    if (NULL == nt) {
        return NULL == bfrops_lookup(type) ? PMIX_ERR_UNKNOWN_DATA_TYPE : PMIX_ERR_NOT_SUPPORTED;
    }
    *signature = strdup(nt->signature);
    if (NULL == *signature) {
        return PMIX_ERR_NOMEM;
    }
    *fingerprint = nt->fingerprint;
    return PMIX_SUCCESS;
}
