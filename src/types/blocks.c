/*
 * blocks.c - the block constructors of drover.h (vector, hvector, indexed,
 * hindexed, indexed_block, hindexed_block) and their decoding.
 *
 * Design notes:
 *  - Each builds the tree a struct of the same blocks would give: a tuple
 *    whose elements are the non-empty blocks (a block of one old element
 *    is that element, a longer one an array), with MPI's bounds: lb the
 *    lowest byte of a block (+lb, may be negative), extent up to the
 *    highest (no alignment padding, as Open MPI and MPICH), each block at
 *    its byte displacement + old lb - lb in memory. A call with no data
 *    is an empty type (size and extent 0) that holds one array of 0 old
 *    elements, so decoding still knows old. Declared through
 *    types_declare_tree, it is checked, laid out and registered as any
 *    type, so overlapping blocks are refused as overlapping record members.
 *  - The call itself is kept as the attribute +constructor ("vector 3 2 4",
 *    addresses after a ';'), so decoding gives the call and not the
 *    struct. Decoding recomputes the blocks from the attribute and
 *    decodes as the call only when they are the tree's elements exactly:
 *    an attribute written by hand that does not match decodes as STRUCT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "construct.h"
#include "typeset.h"
#include "types.h"

#define ATTR "constructor"

static const struct {
    int combiner;
    const char *name;
} calls[] = {
    {DROVER_COMBINER_VECTOR, "vector"},
    {DROVER_COMBINER_HVECTOR, "hvector"},
    {DROVER_COMBINER_INDEXED, "indexed"},
    {DROVER_COMBINER_HINDEXED, "hindexed"},
    {DROVER_COMBINER_INDEXED_BLOCK, "indexed_block"},
    {DROVER_COMBINER_HINDEXED_BLOCK, "hindexed_block"},
};
#define NCALLS (sizeof(calls) / sizeof(calls[0]))

/* How many integers and addresses a call of n blocks has (MPI's table). */
static void arity(int combiner, int n, int *ni, int *na)
{
    switch (combiner) {
    case DROVER_COMBINER_VECTOR:
        *ni = 3, *na = 0;
        break;
    case DROVER_COMBINER_HVECTOR:
        *ni = 2, *na = 1;
        break;
    case DROVER_COMBINER_INDEXED:
        *ni = 2 * n + 1, *na = 0;
        break;
    case DROVER_COMBINER_HINDEXED:
        *ni = n + 1, *na = n;
        break;
    case DROVER_COMBINER_INDEXED_BLOCK:
        *ni = n + 2, *na = 0;
        break;
    default:
        *ni = 2, *na = n;
        break;
    }
}

/* Block k of a call on an old type of extent ext: its byte displacement
 * and length in old elements; false on overflow. */
static bool block_at(const blocks_t *b, size_t ext, int k, int64_t *disp, int64_t *len)
{
    const int *i = b->ints;
    int n = i[0];
    int64_t units;
    bool bytes = false;
    switch (b->combiner) {
    case DROVER_COMBINER_VECTOR:
        *len = i[1];
        units = (int64_t)k * i[2];
        break;
    case DROVER_COMBINER_HVECTOR:
        *len = i[1];
        units = (int64_t)k * b->addrs[0];
        bytes = true;
        break;
    case DROVER_COMBINER_INDEXED:
        *len = i[1 + k];
        units = i[1 + n + k];
        break;
    case DROVER_COMBINER_HINDEXED:
        *len = i[1 + k];
        units = b->addrs[k];
        bytes = true;
        break;
    case DROVER_COMBINER_INDEXED_BLOCK:
        *len = i[1];
        units = i[2 + k];
        break;
    default:
        *len = i[1];
        units = b->addrs[k];
        bytes = true;
        break;
    }
    return bytes ? (*disp = units, true) : !__builtin_mul_overflow(units, (int64_t)ext, disp);
}

/* The id of a leaf node (a scalar or a reference), or 0. */
static pmix_data_type_t leaf_id(const tnode_t *n)
{
    if (TK_SCALAR == n->kind) {
        return construct_scalar_id(&n->scalar);
    }
    return TK_REF == n->kind && NULL != n->target ? n->target->id : 0;
}

/* Parse "name i0 i1 ... ; a0 a1 ..." into b (arrays allocated). */
static bool parse(const char *text, blocks_t *b)
{
    char name[32];
    int used = 0;
    if (1 != sscanf(text, "%31s%n", name, &used)) {
        return false;
    }
    b->combiner = 0;
    for (size_t i = 0; i < NCALLS; i++) {
        b->combiner = 0 == strcmp(calls[i].name, name) ? calls[i].combiner : b->combiner;
    }
    char *end;
    long n = strtol(text + used, &end, 10);
    if (0 == b->combiner || n < 0 || n > TYPES_MAX_BLOCKS) {
        return false;
    }
    arity(b->combiner, (int)n, &b->ni, &b->na);
    b->ints = calloc((size_t)b->ni, sizeof(*b->ints));
    b->addrs = calloc((size_t)b->na + 1, sizeof(*b->addrs));
    if (NULL == b->ints || NULL == b->addrs) {
        return false;
    }
    const char *p = text + used;
    for (int i = 0; i < b->ni; i++) {
        long v = strtol(p, &end, 10);
        if (end == p || v < INT32_MIN || v > INT32_MAX) {
            return false;
        }
        b->ints[i] = (int)v;
        p = end;
    }
    if (0 < b->na) {
        p += strspn(p, " ");
        if (';' != *p++) {
            return false;
        }
    }
    for (int i = 0; i < b->na; i++) {
        long long v = strtoll(p, &end, 10);
        if (end == p) {
            return false;
        }
        b->addrs[i] = (intptr_t)v;
        p = end;
    }
    return '\0' == p[strspn(p, " ")];
}

void blocks_free(blocks_t *b)
{
    free(b->ints);
    free(b->addrs);
    b->ints = NULL;
    b->addrs = NULL;
}

/* Whether element m of a block tuple is len old elements at offset off. */
static bool element_is(const tnode_t *m, pmix_data_type_t old, int64_t off, int64_t len)
{
    const tnode_t *t = m->child[0];
    if ((int64_t)m->off != off) {
        return false;
    }
    if (1 == len) {
        return leaf_id(t) == old;
    }
    return TK_ARRAY == t->kind && 2 == t->nchild && 1 == t->child[0]->nchild &&
           len == t->child[0]->n && leaf_id(t->child[1]) == old;
}

/* MPI's bounds of call b on an old type of extent ext and lower bound
 * old_lb: [*lb, *ub) over its non-empty blocks (0, 0 when none); false on
 * a bad length or overflow. */
static bool bounds(const blocks_t *b, size_t ext, int64_t old_lb, int64_t *lb, int64_t *ub)
{
    int64_t disp, len, bytes, lo;
    *lb = INT64_MAX;
    *ub = INT64_MIN;
    for (int k = 0; k < b->ints[0]; k++) {
        if (!block_at(b, ext, k, &disp, &len) || len < 0 ||
            __builtin_mul_overflow(len, (int64_t)ext, &bytes) ||
            __builtin_add_overflow(disp, old_lb, &lo) || lo > INT64_MAX - bytes) {
            return false;
        }
        if (0 < bytes) {
            *lb = lo < *lb ? lo : *lb;
            *ub = lo + bytes > *ub ? lo + bytes : *ub;
        }
    }
    if (*lb > *ub) {
        *lb = *ub = 0;
    }
    return !__builtin_sub_overflow(*ub, *lb, &bytes) && bytes <= (int64_t)TYPES_MAX_SIZE;
}

bool blocks_decode(const tnode_t *n, blocks_t *b)
{
    memset(b, 0, sizeof(*b));
    const char *text = tnode_attr(n, ATTR);
    if (TK_TUPLE != n->kind || !n->laid || NULL == text || n->nchild < 2 ||
        TK_EXPR != n->child[0]->kind || !parse(text, b)) {
        blocks_free(b);
        return false;
    }
    const tnode_t *first = n->child[1]->child[0];
    const tnode_t *leaf = TK_ARRAY == first->kind ? first->child[first->nchild - 1] : first;
    b->old = leaf_id(leaf);
    size_t ext = leaf->size, next = 1;
    int64_t old_lb = types_lb(leaf), lb, ub, disp, len;
    bool ok = 0 != b->old && bounds(b, ext, old_lb, &lb, &ub) && types_lb(n) == lb &&
              (int64_t)n->size == ub - lb;
    for (int k = 0; ok && k < b->ints[0]; k++) {
        block_at(b, ext, k, &disp, &len);
        if (0 < len && 0 < ext) {
            ok = next < n->nchild && element_is(n->child[next++], b->old, disp + old_lb - lb, len);
        }
    }
    /* No data: the one empty array that names old. */
    if (ok && 1 == next) {
        ok = element_is(n->child[next++], b->old, 0, 0);
    }
    if (!ok || next != n->nchild) {
        blocks_free(b);
        return false;
    }
    return true;
}

/* The +constructor text of b. */
static char *call_text(const blocks_t *b)
{
    size_t cap = 32 + 12 * (size_t)b->ni + 21 * (size_t)b->na, len = 0;
    char *s = malloc(cap);
    const char *name = "";
    for (size_t i = 0; i < NCALLS; i++) {
        name = calls[i].combiner == b->combiner ? calls[i].name : name;
    }
    if (NULL == s) {
        return NULL;
    }
    len += (size_t)snprintf(s, cap, "%s", name);
    for (int i = 0; i < b->ni; i++) {
        len += (size_t)snprintf(s + len, cap - len, " %d", b->ints[i]);
    }
    len += (size_t)snprintf(s + len, cap - len, "%s", 0 < b->na ? " ;" : "");
    for (int i = 0; i < b->na; i++) {
        len += (size_t)snprintf(s + len, cap - len, " %lld", (long long)b->addrs[i]);
    }
    return s;
}

/* Append a block of len old elements at offset off to tuple t. */
static bool add_block(tnode_t *t, pmix_data_type_t old, int64_t off, int64_t len)
{
    tnode_t *leaf = NULL;
    if (PMIX_SUCCESS != construct_leaf(old, &leaf)) {
        return false;
    }
    int n = (int)len;
    return construct_element(t, 1 == len ? leaf : construct_array(1, &n, NULL, NULL, leaf), off);
}

/* Check the call b and declare its tuple. */
static pmix_status_t create(const char *name, const blocks_t *b, pmix_data_type_t *newtype)
{
    int n = b->ints[0];
    size_t ext, align;
    int64_t old_lb, lb, ub, disp, len;
    if (NULL == newtype || n < 0 || n > TYPES_MAX_BLOCKS) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!construct_old(b->old, &ext, &align, &old_lb)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (!bounds(b, ext, old_lb, &lb, &ub)) {
        return PMIX_ERR_BAD_PARAM;
    }
    char *text = call_text(b);
    tnode_t *t = tnode_new(TK_TUPLE, NULL);
    bool ok = NULL != text && NULL != t && tnode_add_attr(t, ATTR, text) &&
              construct_add(t, construct_value(ub - lb)) && construct_lb(t, lb);
    for (int k = 0; ok && k < n; k++) {
        block_at(b, ext, k, &disp, &len);
        ok = 0 == len || 0 == ext || add_block(t, b->old, disp + old_lb - lb, len);
    }
    if (ok && 1 == t->nchild) {
        ok = add_block(t, b->old, 0, 0);
    }
    free(text);
    if (!ok) {
        tnode_free(t);
        return PMIX_ERR_NOMEM;
    }
    return types_declare_tree(name, t, newtype, NULL);
}

PMIX_EXPORT pmix_status_t drover_type_create_vector(const char *name, int count, int blocklength,
                                                    int stride, pmix_data_type_t old,
                                                    pmix_data_type_t *newtype)
{
    int ints[] = {count, blocklength, stride};
    blocks_t b = {DROVER_COMBINER_VECTOR, 3, 0, ints, NULL, old};
    return create(name, &b, newtype);
}

PMIX_EXPORT pmix_status_t drover_type_create_hvector(const char *name, int count, int blocklength,
                                                     intptr_t stride, pmix_data_type_t old,
                                                     pmix_data_type_t *newtype)
{
    int ints[] = {count, blocklength};
    blocks_t b = {DROVER_COMBINER_HVECTOR, 2, 1, ints, &stride, old};
    return create(name, &b, newtype);
}

/* ints = {count, first[count], second[count]} for the indexed calls. */
static pmix_status_t create_listed(const char *name, int combiner, int count, int head,
                                   const int first[], const int second[], const intptr_t addrs[],
                                   pmix_data_type_t old, pmix_data_type_t *newtype)
{
    if (count < 0 || count > TYPES_MAX_BLOCKS || NULL == newtype ||
        (0 < count && ((NULL == first && 0 > head) || (NULL == addrs && NULL == second)))) {
        return PMIX_ERR_BAD_PARAM;
    }
    blocks_t b = {combiner, 0, 0, NULL, (intptr_t *)addrs, old};
    arity(combiner, count, &b.ni, &b.na);
    int *ints = malloc(sizeof(int) * (size_t)b.ni);
    if (NULL == ints) {
        return PMIX_ERR_NOMEM;
    }
    ints[0] = count;
    int at = 1;
    if (0 > head) {
        memcpy(ints + at, 0 < count ? first : ints, sizeof(int) * (size_t)count);
        at += count;
    } else {
        ints[at++] = head;
    }
    if (NULL != second && 0 < count) {
        memcpy(ints + at, second, sizeof(int) * (size_t)count);
    }
    b.ints = ints;
    pmix_status_t rc = create(name, &b, newtype);
    free(ints);
    return rc;
}

PMIX_EXPORT pmix_status_t drover_type_create_indexed(const char *name, int count,
                                                     const int blocklengths[],
                                                     const int displacements[],
                                                     pmix_data_type_t old,
                                                     pmix_data_type_t *newtype)
{
    if (NULL == displacements && 0 < count) {
        return PMIX_ERR_BAD_PARAM;
    }
    return create_listed(name, DROVER_COMBINER_INDEXED, count, -1, blocklengths, displacements,
                         NULL, old, newtype);
}

PMIX_EXPORT pmix_status_t drover_type_create_hindexed(const char *name, int count,
                                                      const int blocklengths[],
                                                      const intptr_t displacements[],
                                                      pmix_data_type_t old,
                                                      pmix_data_type_t *newtype)
{
    return create_listed(name, DROVER_COMBINER_HINDEXED, count, -1, blocklengths, NULL,
                         displacements, old, newtype);
}

PMIX_EXPORT pmix_status_t drover_type_create_indexed_block(const char *name, int count,
                                                           int blocklength,
                                                           const int displacements[],
                                                           pmix_data_type_t old,
                                                           pmix_data_type_t *newtype)
{
    if ((NULL == displacements && 0 < count) || blocklength < 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    return create_listed(name, DROVER_COMBINER_INDEXED_BLOCK, count, blocklength, NULL,
                         displacements, NULL, old, newtype);
}

PMIX_EXPORT pmix_status_t drover_type_create_hindexed_block(const char *name, int count,
                                                            int blocklength,
                                                            const intptr_t displacements[],
                                                            pmix_data_type_t old,
                                                            pmix_data_type_t *newtype)
{
    if (blocklength < 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    return create_listed(name, DROVER_COMBINER_HINDEXED_BLOCK, count, blocklength, NULL, NULL,
                         displacements, old, newtype);
}
