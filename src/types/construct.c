/*
 * construct.c - drover_type_create_* and drover_type_dup: MPI's
 * constructors over declared types' validated trees.
 *
 * Design notes:
 *  - Each constructor builds the tree YAML would give for the same layout
 *    and declares it through types_declare_tree, so it is checked, laid
 *    out and registered exactly as a loaded type (and can be shown and
 *    written back as YAML).
 *  - contiguous is an array; subarray an array with a slice; struct a
 *    tuple with a displacement per element and the natural extent as its
 *    buffersize (blocks longer than 1 become arrays); resized a tuple with
 *    the old struct's elements and the new extent; pointer a pointer; dup
 *    a reference. What the tree cannot hold (Fortran order, negative
 *    displacements or lb, other old types) is refused, never approximated.
 */
#include <stdlib.h>
#include <string.h>

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
    tnode_t *leaf;
    if (NULL == newtype || ndims < 1 || ndims > 32 || NULL == sizes || NULL == subsizes ||
        NULL == starts) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (DROVER_ORDER_C != order) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    pmix_status_t rc = construct_leaf(old, &leaf);
    return PMIX_SUCCESS != rc ? rc
                              : declare(name, construct_array(ndims, sizes, subsizes, starts, leaf), newtype);
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

/* Size and alignment of a type a struct may hold. */
static bool size_of(pmix_data_type_t id, size_t *size, size_t *align)
{
    tnode_t *leaf;
    if (PMIX_SUCCESS != construct_leaf(id, &leaf)) {
        return false;
    }
    if (TK_SCALAR == leaf->kind) {
        *size = *align = leaf->scalar.size;
    } else {
        const named_t *nt = types_by_id(id);
        *size = nt->root->size;
        *align = nt->root->align;
    }
    tnode_free(leaf);
    return true;
}

PMIX_EXPORT pmix_status_t drover_type_create_struct(const char *name, int count,
                                                    const int blocklengths[],
                                                    const intptr_t displacements[],
                                                    const pmix_data_type_t types[],
                                                    pmix_data_type_t *newtype)
{
    if (NULL == newtype || count < 1 || NULL == blocklengths || NULL == displacements ||
        NULL == types) {
        return PMIX_ERR_BAD_PARAM;
    }
    size_t end = 0, align = 1;
    for (int i = 0; i < count; i++) {
        size_t size, a;
        if (blocklengths[i] < 1) {
            return PMIX_ERR_BAD_PARAM;
        }
        if (displacements[i] < 0 || !size_of(types[i], &size, &a)) {
            return PMIX_ERR_NOT_SUPPORTED;
        }
        size_t last = (size_t)displacements[i] + (size_t)blocklengths[i] * size;
        end = last > end ? last : end;
        align = a > align ? a : align;
    }
    tnode_t *t = tnode_new(TK_TUPLE, NULL);
    bool ok = construct_add(t, construct_value((int64_t)((end + align - 1) / align * align)));
    for (int i = 0; ok && i < count; i++) {
        tnode_t *leaf = NULL;
        ok = PMIX_SUCCESS == construct_leaf(types[i], &leaf);
        if (ok && 1 < blocklengths[i]) {
            leaf = construct_array(1, &blocklengths[i], NULL, NULL, leaf);
        }
        ok = ok && construct_element(t, leaf, displacements[i]);
    }
    return declare_tuple(name, t, ok, newtype);
}

PMIX_EXPORT pmix_status_t drover_type_create_resized(const char *name, pmix_data_type_t old,
                                                     intptr_t lb, intptr_t extent,
                                                     pmix_data_type_t *newtype)
{
    const named_t *nt = types_by_id(old);
    if (NULL == newtype || extent < 1) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 != lb || NULL == nt || (TK_STRUCT != nt->root->kind && TK_RECORD != nt->root->kind &&
                                  TK_TUPLE != nt->root->kind)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    /* The old struct's elements at their offsets, in the new extent. */
    tnode_t *t = tnode_new(TK_TUPLE, NULL);
    bool ok = construct_add(t, construct_value(extent));
    for (size_t i = 0; ok && i < nt->root->nchild; i++) {
        const tnode_t *m = nt->root->child[i];
        ok = TK_MEMBER != m->kind || construct_element(t, tnode_dup(m->child[0]), (int64_t)m->off);
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
