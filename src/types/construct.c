/*
 * construct.c - drover_type_create_* and drover_type_dup: MPI's
 * constructors over declared types' validated trees.
 *
 * Design notes:
 *  - Each constructor builds the tree YAML would give for the same layout
 *    and declares it through types_declare_tree, so it is checked, laid
 *    out and registered exactly as a loaded type (and can be shown and
 *    written back as YAML).
 *  - contiguous is an array; subarray an array with a slice (Fortran
 *    order: its dimensions reversed, which is the same memory, and
 *    +order: fortran so it decodes as called); struct a tuple of its
 *    non-empty blocks (longer than 1: arrays) with MPI's bounds: lb the
 *    lowest byte of a block (+lb, extent.c), extent up to the highest
 *    rounded to the largest alignment, blocks at their displacement minus
 *    lb in memory; resized a tuple of the old type's elements (a struct's
 *    members, or the old type whole) moved by old lb - new lb in the new
 *    extent. Data outside [lb, lb + extent) cannot be part of a value in
 *    memory and is refused by the layout (a member outside buffersize).
 */
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "construct.h"
#include "typeset.h"
#include "types.h"

/* Builtin scalar ids and the scalar each stands for. */
static const struct {
    pmix_data_type_t id;
    const char *scalar;
} builtins[] = {
    {PMIX_INT8, "int8"},     {PMIX_INT16, "int16"},   {PMIX_INT32, "int32"},
    {PMIX_INT64, "int64"},   {PMIX_UINT8, "uint8"},   {PMIX_UINT16, "uint16"},
    {PMIX_UINT32, "uint32"}, {PMIX_UINT64, "uint64"}, {PMIX_FLOAT, "float"},
    {PMIX_DOUBLE, "double"}, {PMIX_BYTE, "byte"},     {PMIX_INT, "int"},
    {PMIX_UINT, "uint32"},   {PMIX_SIZE, "size_t"},
};
#define NBUILTINS (sizeof(builtins) / sizeof(builtins[0]))

pmix_data_type_t construct_scalar_id(const scalar_t *s)
{
    static const pmix_data_type_t sgn[] = {PMIX_INT8, PMIX_INT16, 0, PMIX_INT32, 0, 0, 0, PMIX_INT64};
    static const pmix_data_type_t uns[] = {PMIX_UINT8, PMIX_UINT16, 0, PMIX_UINT32, 0, 0, 0, PMIX_UINT64};
    switch (s->cls) {
    case SC_FLOAT:
        return 4 == s->size ? PMIX_FLOAT : PMIX_DOUBLE;
    case SC_BYTE:
        return PMIX_BYTE;
    case SC_SIGNED:
        return sgn[s->size - 1];
    default:
        return uns[s->size - 1];
    }
}

pmix_status_t construct_leaf(pmix_data_type_t id, tnode_t **out)
{
    *out = NULL;
    for (size_t i = 0; i < NBUILTINS; i++) {
        if (builtins[i].id == id) {
            tnode_t *n = tnode_new(TK_SCALAR, NULL);
            if (NULL == n) {
                return PMIX_ERR_NOMEM;
            }
            n->scalar = *scalar_find(builtins[i].scalar);
            *out = n;
            return PMIX_SUCCESS;
        }
    }
    const named_t *nt = types_by_id(id);
    if (NULL == nt) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    tnode_t *n = tnode_new(TK_REF, NULL);
    if (NULL == n || NULL == (n->name = strdup(nt->name))) {
        tnode_free(n);
        return PMIX_ERR_NOMEM;
    }
    *out = n;
    return PMIX_SUCCESS;
}

bool construct_old(pmix_data_type_t id, size_t *extent, size_t *align, int64_t *lb)
{
    tnode_t *leaf;
    if (PMIX_SUCCESS != construct_leaf(id, &leaf)) {
        return false;
    }
    bool ok = true;
    if (TK_SCALAR == leaf->kind) {
        *extent = *align = leaf->scalar.size;
        *lb = 0;
    } else {
        const named_t *nt = types_by_id(id);
        ok = !nt->relay && nt->root->laid;
        *extent = nt->root->size;
        *align = nt->root->align;
        *lb = ok ? types_lb(nt->root) : 0;
    }
    tnode_free(leaf);
    return ok;
}

bool construct_lb(tnode_t *t, int64_t lb)
{
    char text[24];
    snprintf(text, sizeof(text), "%lld", (long long)lb);
    return 0 == lb || tnode_add_attr(t, "lb", text);
}

tnode_t *construct_value(int64_t v)
{
    char text[32], *err = NULL;
    snprintf(text, sizeof(text), "%lld", (long long)v);
    tnode_t *n = tnode_new(TK_EXPR, NULL);
    if (NULL != n && NULL == (n->expr = expr_parse(text, &err))) {
        tnode_free(n);
        n = NULL;
    }
    free(err);
    return n;
}

bool construct_add(tnode_t *parent, tnode_t *child)
{
    char *err = NULL;
    bool ok = NULL != parent && NULL != child && tnode_append(parent, child, &err);
    if (!ok) {
        tnode_free(child);
    }
    free(err);
    return ok;
}

/* Declare root (consumed) as name; PMIX_ERR_NOMEM when root is NULL. */
static pmix_status_t declare(const char *name, tnode_t *root, pmix_data_type_t *newtype)
{
    if (NULL == root) {
        return PMIX_ERR_NOMEM;
    }
    return types_declare_tree(name, root, newtype, NULL);
}

tnode_t *construct_array(int ndims, const int sizes[], const int subsizes[], const int starts[],
                         tnode_t *leaf)
{
    tnode_t *a = tnode_new(TK_ARRAY, NULL);
    bool ok = NULL != a;
    for (int i = 0; ok && i < ndims; i++) {
        tnode_t *dim = tnode_new(TK_DIM, NULL);
        ok = construct_add(dim, construct_value(sizes[i])) &&
             (NULL == subsizes || (construct_add(dim, construct_value(subsizes[i])) &&
                                   construct_add(dim, construct_value(starts[i]))));
        if (!ok) {
            tnode_free(dim);
        } else {
            ok = construct_add(a, dim);   /* frees dim when refused */
        }
    }
    if (!ok || !construct_add(a, leaf)) {
        tnode_free(a);
        if (!ok) {
            tnode_free(leaf);
        }
        return NULL;
    }
    return a;
}

PMIX_EXPORT pmix_status_t drover_type_create_contiguous(const char *name, int count,
                                                        pmix_data_type_t old,
                                                        pmix_data_type_t *newtype)
{
    tnode_t *leaf;
    if (NULL == newtype || count < 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = construct_leaf(old, &leaf);
    return PMIX_SUCCESS != rc ? rc : declare(name, construct_array(1, &count, NULL, NULL, leaf), newtype);
}

PMIX_EXPORT pmix_status_t drover_type_create_subarray(const char *name, int ndims,
                                                      const int sizes[], const int subsizes[],
                                                      const int starts[], int order,
                                                      pmix_data_type_t old,
                                                      pmix_data_type_t *newtype)
{
    int dims[3][32];
    if (NULL == newtype || ndims < 1 || ndims > 32 || NULL == sizes || NULL == subsizes ||
        NULL == starts || (DROVER_ORDER_C != order && DROVER_ORDER_FORTRAN != order)) {
        return PMIX_ERR_BAD_PARAM;
    }
    bool fortran = DROVER_ORDER_FORTRAN == order;
    for (int i = 0; i < ndims; i++) {
        int at = fortran ? ndims - 1 - i : i;   /* Fortran's first index varies fastest */
        dims[0][at] = sizes[i];
        dims[1][at] = subsizes[i];
        dims[2][at] = starts[i];
    }
    tnode_t *leaf;
    pmix_status_t rc = construct_leaf(old, &leaf);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    tnode_t *a = construct_array(ndims, dims[0], dims[1], dims[2], leaf);
    if (NULL != a && fortran && !tnode_add_attr(a, "order", "fortran")) {
        tnode_free(a);
        a = NULL;
    }
    return declare(name, a, newtype);
}

bool construct_element(tnode_t *t, tnode_t *leaf, int64_t disp)
{
    tnode_t *m = tnode_new(TK_MEMBER, NULL);
    if (NULL == m) {
        tnode_free(leaf);
        return false;
    }
    /* construct_add frees what it refuses; m holds the rest. */
    if (!construct_add(m, leaf) || !construct_add(m, construct_value(disp))) {
        tnode_free(m);
        return false;
    }
    return construct_add(t, m);
}

/* Declare tuple t when it was built whole (ok), else free it. */
static pmix_status_t declare_tuple(const char *name, tnode_t *t, bool ok, pmix_data_type_t *newtype)
{
    if (!ok) {
        tnode_free(t);
        return PMIX_ERR_NOMEM;
    }
    return declare(name, t, newtype);
}

/* The bytes of a struct's block i: from *lo (its MPI displacement plus
 * its type's lb) for *bytes; false for a bad or unusable block. *rc says
 * which. */
static bool struct_block(const int bl[], const intptr_t disp[], const pmix_data_type_t types[],
                         int i, int64_t *lo, int64_t *bytes, size_t *align, pmix_status_t *rc)
{
    size_t ext;
    int64_t lb;
    *rc = PMIX_ERR_BAD_PARAM;
    if (bl[i] < 0) {
        return false;
    }
    if (!construct_old(types[i], &ext, align, &lb)) {
        *rc = PMIX_ERR_NOT_SUPPORTED;
        return false;
    }
    return !__builtin_mul_overflow((int64_t)bl[i], (int64_t)ext, bytes) &&
           !__builtin_add_overflow((int64_t)disp[i], lb, lo) && *lo <= INT64_MAX - *bytes;
}

PMIX_EXPORT pmix_status_t drover_type_create_struct(const char *name, int count,
                                                    const int blocklengths[],
                                                    const intptr_t displacements[],
                                                    const pmix_data_type_t types[],
                                                    pmix_data_type_t *newtype)
{
    if (NULL == newtype || count < 0 || count > TYPES_MAX_BLOCKS ||
        (0 < count && (NULL == blocklengths || NULL == displacements || NULL == types))) {
        return PMIX_ERR_BAD_PARAM;
    }
    int64_t lb = INT64_MAX, ub = INT64_MIN, lo, bytes, extent;
    size_t align = 1, a;
    pmix_status_t rc;
    for (int i = 0; i < count; i++) {
        if (!struct_block(blocklengths, displacements, types, i, &lo, &bytes, &a, &rc)) {
            return rc;
        }
        if (0 < bytes) {
            lb = lo < lb ? lo : lb;
            ub = lo + bytes > ub ? lo + bytes : ub;
            align = a > align ? a : align;
        }
    }
    if (lb > ub) {
        lb = ub = 0;   /* no data: MPI's empty type */
    }
    if (__builtin_sub_overflow(ub, lb, &extent) || extent > (int64_t)TYPES_MAX_SIZE) {
        return PMIX_ERR_BAD_PARAM;
    }
    tnode_t *t = tnode_new(TK_TUPLE, NULL);
    bool ok = construct_add(t, construct_value((extent + (int64_t)align - 1) / (int64_t)align *
                                               (int64_t)align)) &&
              construct_lb(t, lb);
    for (int i = 0; ok && i < count; i++) {
        tnode_t *leaf = NULL;
        struct_block(blocklengths, displacements, types, i, &lo, &bytes, &a, &rc);
        if (0 == bytes) {
            continue;
        }
        ok = PMIX_SUCCESS == construct_leaf(types[i], &leaf);
        if (ok && 1 < blocklengths[i]) {
            leaf = construct_array(1, &blocklengths[i], NULL, NULL, leaf);
        }
        ok = ok && construct_element(t, leaf, lo - lb);
    }
    return declare_tuple(name, t, ok, newtype);
}

PMIX_EXPORT pmix_status_t drover_type_create_resized(const char *name, pmix_data_type_t old,
                                                     intptr_t lb, intptr_t extent,
                                                     pmix_data_type_t *newtype)
{
    size_t ext, align;
    int64_t old_lb, shift;
    if (NULL == newtype || extent < 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!construct_old(old, &ext, &align, &old_lb)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (__builtin_sub_overflow(old_lb, (int64_t)lb, &shift)) {
        return PMIX_ERR_BAD_PARAM;
    }
    /* A struct's elements, so that its padding may fall outside the new
     * extent; any other type whole. Both moved to the new lb. */
    const named_t *nt = types_by_id(old);
    const tnode_t *r = NULL == nt ? NULL : nt->root;
    bool flat = NULL != r && (TK_STRUCT == r->kind || TK_RECORD == r->kind || TK_TUPLE == r->kind);
    tnode_t *t = tnode_new(TK_TUPLE, NULL), *leaf = NULL;
    bool ok = construct_add(t, construct_value(extent)) && construct_lb(t, lb);
    for (size_t i = 0; ok && flat && i < r->nchild; i++) {
        const tnode_t *m = r->child[i];
        ok = TK_MEMBER != m->kind ||
             construct_element(t, tnode_dup(m->child[0]), (int64_t)m->off + shift);
    }
    if (ok && !flat) {
        ok = PMIX_SUCCESS == construct_leaf(old, &leaf) && construct_element(t, leaf, shift);
    }
    return declare_tuple(name, t, ok, newtype);
}

PMIX_EXPORT pmix_status_t drover_type_create_pointer(const char *name, pmix_data_type_t old,
                                                     pmix_data_type_t *newtype)
{
    tnode_t *leaf;
    if (NULL == newtype) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = construct_leaf(old, &leaf);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    tnode_t *p = tnode_new(TK_POINTER, NULL);
    if (!construct_add(p, leaf)) {
        tnode_free(p);
        return PMIX_ERR_NOMEM;
    }
    return declare(name, p, newtype);
}

PMIX_EXPORT pmix_status_t drover_type_dup(const char *name, pmix_data_type_t old,
                                          pmix_data_type_t *newtype)
{
    tnode_t *leaf;
    if (NULL == newtype) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = construct_leaf(old, &leaf);
    return PMIX_SUCCESS != rc ? rc : declare(name, leaf, newtype);
}
