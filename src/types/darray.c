/*
 * darray.c - drover_type_create_darray, MPI's distributed array, and its
 * decoding.
 *
 * Design notes:
 *  - The type is one rank's share of a gsizes[] array of old elements
 *    dealt over a psizes[] grid of processes, each dimension BLOCK,
 *    CYCLIC(darg) or NONE; the rank's grid coordinates are row-major
 *    whatever the array's order, as MPI has them.
 *  - It is built as the block constructors build theirs (blocks.c): a
 *    tuple whose elements are the runs of consecutive owned elements in
 *    memory order (C or Fortran), which is MPI's type map order, with the
 *    whole global array as buffersize (MPI's extent; lb 0). The call is
 *    kept as the attribute +constructor "darray" followed by the 4d+4
 *    integers of get_contents; decoding recomputes the runs and decodes as
 *    DARRAY only when they are the tuple's elements exactly.
 *  - A share of no element is, as MPI's, an empty type of the whole
 *    array's extent: its tuple keeps an array of 0 old elements to say
 *    which old type, as the block constructors' do. One of more than
 *    TYPES_MAX_BLOCKS runs (CYCLIC(1) over a large array makes one per
 *    element) is refused with PMIX_ERR_NOT_SUPPORTED, and so is an old
 *    type whose lb is not 0 (MPI's darray has lb 0 whatever old's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "construct.h"
#include "darray.h"
#include "typeset.h"
#include "types.h"

#define ATTR "constructor"
#define CALL "darray"
#define MAX_DIMS 32

/* A call's integers, in get_contents order. */
typedef struct call {
    int size, rank, d;
    const int *gsizes, *distribs, *dargs, *psizes;
    int order;
} call_t;

typedef struct seg {
    int64_t start, len; /* in old elements */
} seg_t;

/* The runs of a share, in old elements, neighbours merged. */
typedef struct runs {
    seg_t *seg;
    size_t n, cap;
} runs_t;

static call_t call_of(const int *ints)
{
    int d = ints[2];
    return (call_t){ints[0],          ints[1],        d, ints + 3, ints + 3 + d, ints + 3 + 2 * d,
                    ints + 3 + 3 * d, ints[3 + 4 * d]};
}

/* The call's arguments make sense as MPI defines them. */
static bool valid(const call_t *c)
{
    int64_t procs = 1;
    if (c->size < 1 || c->rank < 0 || c->rank >= c->size || c->d < 1 || c->d > MAX_DIMS ||
        (DROVER_ORDER_C != c->order && DROVER_ORDER_FORTRAN != c->order)) {
        return false;
    }
    for (int i = 0; i < c->d; i++) {
        int g = c->gsizes[i], p = c->psizes[i], darg = c->dargs[i];
        if (g < 1 || p < 1 || (DROVER_DISTRIBUTE_DFLT_DARG != darg && darg < 1)) {
            return false;
        }
        switch (c->distribs[i]) {
        case DROVER_DISTRIBUTE_NONE:
            if (1 != p) {
                return false;
            }
            break;
        case DROVER_DISTRIBUTE_BLOCK:
            /* A given block must cover the dimension over the processes. */
            if (DROVER_DISTRIBUTE_DFLT_DARG != darg && (int64_t)darg * p < g) {
                return false;
            }
            break;
        case DROVER_DISTRIBUTE_CYCLIC:
            break;
        default:
            return false;
        }
        procs *= p;
        if (procs > c->size) {
            return false;
        }
    }
    return procs == c->size;
}

/* Append a run, merged with the last one when it follows it; false past
 * TYPES_MAX_BLOCKS runs or when memory runs out (*nomem). */
static bool push(runs_t *r, int64_t start, int64_t len, bool *nomem)
{
    if (0 < r->n && r->seg[r->n - 1].start + r->seg[r->n - 1].len == start) {
        r->seg[r->n - 1].len += len;
        return true;
    }
    if (r->n == TYPES_MAX_BLOCKS) {
        return false;
    }
    if (r->n == r->cap) {
        size_t cap = 0 == r->cap ? 16 : 2 * r->cap;
        seg_t *s = realloc(r->seg, cap * sizeof(*s));
        if (NULL == s) {
            *nomem = true;
            return false;
        }
        r->seg = s;
        r->cap = cap;
    }
    r->seg[r->n++] = (seg_t){start, len};
    return true;
}

/* The runs of dimension i that grid coordinate k owns; false when they
 * are too many or memory runs out (*nomem). */
static bool share_of(const call_t *c, int i, int k, runs_t *out, bool *nomem)
{
    int64_t g = c->gsizes[i], p = c->psizes[i], darg = c->dargs[i];
    int64_t block = g, step = g; /* NONE: everything, once */
    if (DROVER_DISTRIBUTE_BLOCK == c->distribs[i]) {
        block = DROVER_DISTRIBUTE_DFLT_DARG == darg ? (g + p - 1) / p : darg;
    } else if (DROVER_DISTRIBUTE_CYCLIC == c->distribs[i]) {
        block = DROVER_DISTRIBUTE_DFLT_DARG == darg ? 1 : darg;
        step = block * p;
    }
    for (int64_t at = k * block; at < g; at += step) {
        if (!push(out, at, at + block < g ? block : g - at, nomem)) {
            return false;
        }
    }
    return true;
}

typedef struct walk {
    int dim[MAX_DIMS]; /* dimensions from the slowest in memory */
    int64_t stride[MAX_DIMS]; /* of each dimension, in old elements */
    runs_t share[MAX_DIMS]; /* what the rank owns of each dimension */
    runs_t out;
    bool nomem;
} walk_t;

/* The runs of dimensions j.. at element base, in memory order. */
static bool walk(walk_t *w, int j, int d, int64_t base)
{
    const runs_t *s = &w->share[w->dim[j]];
    int64_t stride = w->stride[w->dim[j]];
    for (size_t k = 0; k < s->n; k++) {
        if (j == d - 1) {
            if (!push(&w->out, base + s->seg[k].start, s->seg[k].len, &w->nomem)) {
                return false;
            }
            continue;
        }
        for (int64_t i = s->seg[k].start; i < s->seg[k].start + s->seg[k].len; i++) {
            if (!walk(w, j + 1, d, base + i * stride)) {
                return false;
            }
        }
    }
    return true;
}

/* The runs of call c's share on an old type of extent ext (none when it
 * owns nothing), and the extent of the whole array in bytes.
 * PMIX_ERR_BAD_PARAM for a call MPI refuses or an array past
 * TYPES_MAX_SIZE; PMIX_ERR_NOT_SUPPORTED for too many runs. On success
 * the caller frees out->seg. */
static pmix_status_t runs_of(const call_t *c, size_t ext, runs_t *out, int64_t *extent)
{
    int64_t total = (int64_t)ext;
    if (!valid(c)) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (int i = 0; i < c->d; i++) {
        if (__builtin_mul_overflow(total, (int64_t)c->gsizes[i], &total) ||
            total > (int64_t)TYPES_MAX_SIZE) {
            return PMIX_ERR_BAD_PARAM;
        }
    }
    walk_t *w = calloc(1, sizeof(*w));
    if (NULL == w) {
        return PMIX_ERR_NOMEM;
    }
    int coord[MAX_DIMS];
    for (int i = c->d - 1, rest = c->rank; i >= 0; i--) {
        coord[i] = rest % c->psizes[i]; /* row-major: the last varies fastest */
        rest /= c->psizes[i];
    }
    int64_t stride = 1;
    for (int j = c->d - 1; j >= 0; j--) {
        int i = DROVER_ORDER_C == c->order ? j : c->d - 1 - j;
        w->dim[j] = i;
        w->stride[i] = stride;
        stride *= c->gsizes[i];
    }
    bool ok = true;
    for (int i = 0; ok && i < c->d; i++) {
        ok = share_of(c, i, coord[i], &w->share[i], &w->nomem);
    }
    ok = ok && walk(w, 0, c->d, 0);
    pmix_status_t rc = w->nomem ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    if (PMIX_SUCCESS == rc && !ok) {
        rc = PMIX_ERR_NOT_SUPPORTED;
    }
    for (int i = 0; i < c->d; i++) {
        free(w->share[i].seg);
    }
    if (PMIX_SUCCESS == rc) {
        *out = w->out;
        *extent = total;
    } else {
        free(w->out.seg);
    }
    free(w);
    return rc;
}

/* Integers of a call of at most MAX_DIMS dimensions. */
#define MAX_INTS (4 * MAX_DIMS + 4)

/* The +constructor text of a call: "darray" and its integers. */
static char *call_text(const int *ints, int ni)
{
    size_t cap = sizeof(CALL) + 12 * (size_t)ni, len;
    char *s = malloc(cap);
    if (NULL == s) {
        return NULL;
    }
    len = (size_t)snprintf(s, cap, "%s", CALL);
    for (int i = 0; i < ni; i++) {
        len += (size_t)snprintf(s + len, cap - len, " %d", ints[i]);
    }
    return s;
}

/* The integers of a darray call's text; false when it is not one. */
static bool parse(const char *text, int ints[MAX_INTS], int *ni)
{
    size_t n = strlen(CALL);
    if (0 != strncmp(text, CALL, n)) {
        return false;
    }
    const char *p = text + n;
    char *end;
    *ni = 0;
    while ('\0' != p[strspn(p, " ")]) {
        long v = strtol(p, &end, 10);
        if (end == p || ' ' != *p || v < INT32_MIN || v > INT32_MAX || MAX_INTS == *ni) {
            return false;
        }
        ints[(*ni)++] = (int)v;
        p = end;
    }
    return 3 <= *ni && 1 <= ints[2] && ints[2] <= MAX_DIMS && *ni == 4 * ints[2] + 4;
}

PMIX_EXPORT pmix_status_t drover_type_create_darray(const char *name, int size, int rank, int ndims,
                                                    const int gsizes[], const int distribs[],
                                                    const int dargs[], const int psizes[],
                                                    int order, pmix_data_type_t old,
                                                    pmix_data_type_t *newtype)
{
    if (NULL == newtype || ndims < 1 || ndims > MAX_DIMS || NULL == gsizes || NULL == distribs ||
        NULL == dargs || NULL == psizes) {
        return PMIX_ERR_BAD_PARAM;
    }
    int ints[MAX_INTS], ni = 4 * ndims + 4;
    const int *parts[] = {gsizes, distribs, dargs, psizes};
    ints[0] = size;
    ints[1] = rank;
    ints[2] = ndims;
    for (int k = 0; k < 4; k++) {
        memcpy(ints + 3 + k * ndims, parts[k], sizeof(int) * (size_t)ndims);
    }
    ints[ni - 1] = order;
    call_t c = call_of(ints);
    if (!valid(&c)) {
        return PMIX_ERR_BAD_PARAM;
    }
    size_t ext, align;
    int64_t old_lb;
    if (!construct_old(old, &ext, &align, &old_lb) || 0 != old_lb) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    runs_t r = {0};
    int64_t extent;
    pmix_status_t rc = runs_of(&c, ext, &r, &extent);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    char *text = call_text(ints, ni);
    tnode_t *t = tnode_new(TK_TUPLE, NULL);
    bool ok = NULL != text && NULL != t && tnode_add_attr(t, ATTR, text) &&
              construct_add(t, construct_value(extent));
    for (size_t k = 0; ok && k < r.n; k++) {
        ok = blocks_add(t, old, r.seg[k].start * (int64_t)ext, r.seg[k].len);
    }
    if (ok && 0 == r.n) {
        ok = blocks_add(t, old, 0, 0); /* owns nothing: says which old type */
    }
    free(text);
    free(r.seg);
    if (!ok) {
        tnode_free(t);
        return PMIX_ERR_NOMEM;
    }
    return types_declare_tree(name, t, newtype, NULL);
}

bool darray_decode(const tnode_t *n, blocks_t *b)
{
    const char *text = tnode_attr(n, ATTR);
    int ints[MAX_INTS], ni;
    memset(b, 0, sizeof(*b));
    if (TK_TUPLE != n->kind || !n->laid || NULL == text || n->nchild < 2 ||
        TK_EXPR != n->child[0]->kind || !parse(text, ints, &ni)) {
        return false;
    }
    const tnode_t *leaf = blocks_first_leaf(n);
    pmix_data_type_t old = blocks_leaf_id(leaf);
    size_t ext = leaf->size;
    call_t c = call_of(ints);
    runs_t r = {0};
    int64_t extent;
    if (0 == old || 0 != types_lb(leaf) || 0 != types_lb(n) ||
        PMIX_SUCCESS != runs_of(&c, ext, &r, &extent)) {
        return false;
    }
    bool ok = (0 == r.n ? 1 : r.n) == n->nchild - 1 && (int64_t)n->size == extent;
    for (size_t k = 0; ok && k < r.n; k++) {
        ok = blocks_element_is(n->child[k + 1], old, r.seg[k].start * (int64_t)ext, r.seg[k].len);
    }
    ok = ok && (0 != r.n || blocks_element_is(n->child[1], old, 0, 0));
    free(r.seg);
    if (ok && NULL != (b->ints = malloc(sizeof(int) * (size_t)ni))) {
        memcpy(b->ints, ints, sizeof(int) * (size_t)ni);
        *b = (blocks_t){DROVER_COMBINER_DARRAY, ni, 0, b->ints, NULL, old};
        return true;
    }
    return false;
}
