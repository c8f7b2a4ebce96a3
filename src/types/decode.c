/*
 * decode.c - drover_type_get_envelope and drover_type_get_contents: any
 * registered type as the MPI constructor call that builds it.
 *
 * Design notes:
 *  - Builtin and C-registered types are NAMED. A declared type decodes
 *    from its tree as declared, not optimised: a [5][10] array is a
 *    SUBARRAY even though a CONTIGUOUS of 50 has the same layout.
 *  - MPI hands back new handles for the derived types inside a type; here
 *    an unnamed part (a struct's array member, an array's struct element)
 *    is declared as a type of its own, "<type>/<index>", the first time it
 *    is decoded, and that id is remembered in the part's node. A named
 *    part comes back as its own id, a scalar as the builtin id of its class
 *    and size. A mutex makes the first decode of a part happen once.
 *  - A struct, record or tuple whose bounds (+lb, size) are not the
 *    natural ones of its elements (lb their lowest byte, extent up to the
 *    highest rounded to the largest alignment, as drover_type_create_struct
 *    makes them) is RESIZED around the STRUCT of those elements, declared
 *    as "<type>/natural". Displacements are offset + lb - the element's
 *    lb (extent.c).
 *  - An array with +order: fortran is the SUBARRAY call in Fortran order
 *    that made it: its dimensions reversed.
 *  - A tuple a block constructor made decodes as that call (blocks.c).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "blocks.h"
#include "construct.h"
#include "typeset.h"
#include "types.h"

static pthread_mutex_t parts_lock = PTHREAD_MUTEX_INITIALIZER;

/* The declared type behind id, or NULL for a NAMED one; *rc says why not
 * usable otherwise. */
static const named_t *declared(pmix_data_type_t id, pmix_status_t *rc)
{
    *rc = NULL == bfrops_lookup(id) ? PMIX_ERR_UNKNOWN_DATA_TYPE : PMIX_SUCCESS;
    const named_t *nt = PMIX_SUCCESS == *rc ? types_by_id(id) : NULL;
    if (NULL != nt && (nt->relay || !nt->root->laid)) {
        *rc = PMIX_ERR_NOT_AVAILABLE;   /* a relay has no layout to decode */
    }
    return nt;
}

static size_t nmembers(const tnode_t *n)
{
    size_t k = 0;
    for (size_t i = 0; i < n->nchild; i++) {
        k += TK_MEMBER == n->child[i]->kind;
    }
    return k;
}

/* A struct, record or tuple whose bounds differ from its elements'
 * natural ones (not known before layout). */
static bool resized(const tnode_t *n)
{
    if (!n->laid) {
        return false;
    }
    size_t lo = SIZE_MAX, hi = 0, align = 1;
    for (size_t i = 0; i < n->nchild; i++) {
        const tnode_t *m = n->child[i];
        if (TK_MEMBER == m->kind && 0 < m->size) {
            lo = m->off < lo ? m->off : lo;
            hi = m->off + m->size > hi ? m->off + m->size : hi;
            align = m->child[0]->align > align ? m->child[0]->align : align;
        }
    }
    lo = lo > hi ? 0 : lo;
    return 0 != lo || n->size != (hi - lo + align - 1) / align * align;
}

static bool sliced(const tnode_t *n)
{
    const char *order = tnode_attr(n, "order");
    if (NULL != order && 0 == strcmp(order, "fortran")) {
        return true;
    }
    for (size_t i = 0; i + 1 < n->nchild; i++) {
        if (1 < n->child[i]->nchild) {
            return true;
        }
    }
    return 2 != n->nchild;
}

/* The MPI displacement of member m of n. */
static intptr_t disp_of(const tnode_t *n, const tnode_t *m)
{
    return (intptr_t)((int64_t)m->off + types_lb(n) - types_lb(m->child[0]));
}

int decode_combiner(const tnode_t *n)
{
    switch (n->kind) {
    case TK_SCALAR:
    case TK_REF:
        return DROVER_COMBINER_DUP;
    case TK_POINTER:
        return DROVER_COMBINER_POINTER;
    case TK_ARRAY:
        return sliced(n) ? DROVER_COMBINER_SUBARRAY : DROVER_COMBINER_CONTIGUOUS;
    default: {
        blocks_t b;
        if (blocks_decode(n, &b)) {
            blocks_free(&b);
            return b.combiner;
        }
        return resized(n) ? DROVER_COMBINER_RESIZED : DROVER_COMBINER_STRUCT;
    }
    }
}

PMIX_EXPORT pmix_status_t drover_type_get_envelope(pmix_data_type_t type, int *num_integers,
                                                   int *num_addresses, int *num_datatypes,
                                                   int *combiner)
{
    pmix_status_t rc;
    if (NULL == num_integers || NULL == num_addresses || NULL == num_datatypes || NULL == combiner) {
        return PMIX_ERR_BAD_PARAM;
    }
    const named_t *nt = declared(type, &rc);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    int ni = 0, na = 0, nd = 0, c = DROVER_COMBINER_NAMED;
    if (NULL != nt) {
        const tnode_t *n = nt->root;
        c = decode_combiner(n);
        int d = (int)n->nchild - 1, k = (int)nmembers(n);
        switch (c) {
        case DROVER_COMBINER_CONTIGUOUS:
            ni = nd = 1;
            break;
        case DROVER_COMBINER_SUBARRAY:
            ni = 3 * d + 2;
            nd = 1;
            break;
        case DROVER_COMBINER_STRUCT:
            ni = k + 1;
            na = nd = k;
            break;
        case DROVER_COMBINER_RESIZED:
            na = 2;
            nd = 1;
            break;
        case DROVER_COMBINER_POINTER:
        case DROVER_COMBINER_DUP:
            nd = 1;
            break;
        default: {
            blocks_t b;
            blocks_decode(n, &b);
            ni = b.ni;
            na = b.na;
            nd = 1;
            blocks_free(&b);
            break;
        }
            nd = 1;
            break;
        }
    }
    *num_integers = ni;
    *num_addresses = na;
    *num_datatypes = nd;
    *combiner = c;
    return PMIX_SUCCESS;
}

/* The id of a part of nt: builtin for a scalar, its own for a named type,
 * a type of its own for anything else (parts_lock held). */
static pmix_status_t part_id(const named_t *nt, tnode_t *n, size_t index, pmix_data_type_t *id)
{
    char name[512];
    if (TK_SCALAR == n->kind) {
        *id = construct_scalar_id(&n->scalar);
        return PMIX_SUCCESS;
    }
    if (TK_REF == n->kind) {
        return drover_type_lookup(n->target->name, id);
    }
    if (0 == n->anon) {
        snprintf(name, sizeof(name), "%s/%zu", nt->name, index);
        tnode_t *copy = tnode_dup(n);
        if (NULL == copy) {
            return PMIX_ERR_NOMEM;
        }
        pmix_status_t rc = types_declare_tree(name, copy, &n->anon, NULL);
        if (PMIX_SUCCESS != rc) {
            n->anon = 0;
            return rc;
        }
        /* Before anything can refer to it: types built on it are signed as
         * if the part were inline, as in nt. */
        ((named_t *)types_by_id(n->anon))->part = true;
    }
    *id = n->anon;
    return PMIX_SUCCESS;
}

/* The STRUCT of a resized record's elements, declared once. */
static pmix_status_t natural_id(const named_t *nt, tnode_t *n, pmix_data_type_t *id)
{
    if (0 == n->anon) {
        size_t k = nmembers(n);
        int *bl = calloc(k, sizeof(*bl));
        intptr_t *disp = calloc(k, sizeof(*disp));
        pmix_data_type_t *types = calloc(k, sizeof(*types));
        pmix_status_t rc = NULL == bl || NULL == disp || NULL == types ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
        for (size_t i = 0, j = 0; PMIX_SUCCESS == rc && i < n->nchild; i++) {
            if (TK_MEMBER == n->child[i]->kind) {
                bl[j] = 1;
                disp[j] = disp_of(n, n->child[i]);
                rc = part_id(nt, n->child[i]->child[0], i, &types[j++]);
            }
        }
        char name[512];
        snprintf(name, sizeof(name), "%s/natural", nt->name);
        if (PMIX_SUCCESS == rc) {
            rc = drover_type_create_struct(name, (int)k, bl, disp, types, &n->anon);
        }
        free(bl);
        free(disp);
        free(types);
        if (PMIX_SUCCESS != rc) {
            n->anon = 0;
            return rc;
        }
    }
    *id = n->anon;
    return PMIX_SUCCESS;
}

static pmix_status_t contents(const named_t *nt, int ints[], intptr_t addrs[],
                              pmix_data_type_t types[])
{
    tnode_t *n = nt->root;
    switch (decode_combiner(n)) {
    case DROVER_COMBINER_CONTIGUOUS:
        ints[0] = (int)n->child[0]->n;
        return part_id(nt, n->child[1], 0, &types[0]);
    case DROVER_COMBINER_SUBARRAY: {
        int d = (int)n->nchild - 1;
        const char *order = tnode_attr(n, "order");
        bool fortran = NULL != order && 0 == strcmp(order, "fortran");
        ints[0] = d;
        for (int i = 0; i < d; i++) {
            const tnode_t *dim = n->child[fortran ? d - 1 - i : i];
            ints[1 + i] = (int)dim->n;
            ints[1 + d + i] = (int)dim->sub;
            ints[1 + 2 * d + i] = (int)dim->start;
        }
        ints[1 + 3 * d] = fortran ? DROVER_ORDER_FORTRAN : DROVER_ORDER_C;
        return part_id(nt, n->child[d], 0, &types[0]);
    }
    case DROVER_COMBINER_STRUCT: {
        pmix_status_t rc = PMIX_SUCCESS;
        int k = 0;
        for (size_t i = 0; PMIX_SUCCESS == rc && i < n->nchild; i++) {
            tnode_t *m = n->child[i];
            if (TK_MEMBER == m->kind) {
                ints[1 + k] = 1;
                addrs[k] = disp_of(n, m);
                rc = part_id(nt, m->child[0], i, &types[k]);
                k++;
            }
        }
        ints[0] = k;
        return rc;
    }
    case DROVER_COMBINER_RESIZED:
        addrs[0] = (intptr_t)types_lb(n);
        addrs[1] = (intptr_t)n->size;
        return natural_id(nt, n, &types[0]);
    case DROVER_COMBINER_POINTER:
    case DROVER_COMBINER_DUP:
        return part_id(nt, TK_POINTER == n->kind ? n->child[0] : n, 0, &types[0]);
    default: {
        blocks_t b;
        if (!blocks_decode(n, &b)) {
            return PMIX_ERR_NOMEM;   /* it decoded a moment ago: only memory can fail */
        }
        memcpy(ints, b.ints, sizeof(int) * (size_t)b.ni);
        if (0 < b.na) {
            memcpy(addrs, b.addrs, sizeof(intptr_t) * (size_t)b.na);
        }
        types[0] = b.old;
        blocks_free(&b);
        return PMIX_SUCCESS;
    }
    }
}

PMIX_EXPORT pmix_status_t drover_type_get_contents(pmix_data_type_t type, int max_integers,
                                                   int max_addresses, int max_datatypes,
                                                   int integers[], intptr_t addresses[],
                                                   pmix_data_type_t datatypes[])
{
    int ni, na, nd, c;
    pmix_status_t rc = drover_type_get_envelope(type, &ni, &na, &nd, &c);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (DROVER_COMBINER_NAMED == c || max_integers < ni || max_addresses < na ||
        max_datatypes < nd || (0 < ni && NULL == integers) || (0 < na && NULL == addresses) ||
        (0 < nd && NULL == datatypes)) {
        return PMIX_ERR_BAD_PARAM;
    }
    const named_t *nt = declared(type, &rc);
    pthread_mutex_lock(&parts_lock);
    rc = contents(nt, integers, addresses, datatypes);
    pthread_mutex_unlock(&parts_lock);
    return rc;
}
