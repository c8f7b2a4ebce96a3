/*
 * byref.c - coindexed access through reference chains: get_by_ref,
 * send_by_ref, sendget_by_ref and is_present.
 *
 * gfortran describes a designator such as y(3)[2]%c(1:3, 2) as a chain of
 * references: components (with a token offset when allocatable or a
 * pointer), arrays with a descriptor, and arrays without one (fixed-size
 * components, indexed in elements). The chain is walked in the target
 * image's memory; allocatable components are followed through the base
 * addresses stored there, which are valid in every image (see caf.h). The
 * walk yields the list of element addresses in array element order plus the
 * shape of the one part reference that has rank, and the copy engine then
 * moves the elements.
 */
#include <stdlib.h>
#include <string.h>

#include "caf.h"

typedef struct walk {
    char **list;
    size_t n, cap;
    int rank;
    ptrdiff_t extent[CAF_MAX_DIM];
    bool shaped;
    bool unallocated; /* an allocatable component on the way is not allocated */
    bool bad;         /* a reference this runtime cannot follow */
} walk_t;

static int push(walk_t *w, char *p)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        char **grown = realloc(w->list, cap * sizeof(*grown));
        if (NULL == grown) {
            w->bad = true;
            return -1;
        }
        w->list = grown;
        w->cap = cap;
    }
    w->list[w->n++] = p;
    return 0;
}

static ptrdiff_t vector_entry(const void *vec, int kind, size_t i)
{
    switch (kind) {
    case 1: return ((const int8_t *)vec)[i];
    case 2: return ((const int16_t *)vec)[i];
    case 4: return ((const int32_t *)vec)[i];
    default: return (ptrdiff_t)((const int64_t *)vec)[i];
    }
}

/* One dimension of an array reference: the element offsets it selects. */
typedef struct dimsel {
    ptrdiff_t start, step, count; /* offsets start + k * step, in elements */
    const void *vec;              /* or vector entries, converted by lb/stride */
    int vec_kind;
    ptrdiff_t lb, stride;
    bool single;
} dimsel_t;

static ptrdiff_t sel_offset(const dimsel_t *s, ptrdiff_t k)
{
    if (NULL != s->vec) {
        return (vector_entry(s->vec, s->vec_kind, (size_t)k) - s->lb) * s->stride;
    }
    return s->start + k * s->step;
}

static ptrdiff_t span_count(ptrdiff_t from, ptrdiff_t to, ptrdiff_t step)
{
    if (0 == step) {
        return 0;
    }
    ptrdiff_t n = (to - from) / step + 1;
    return n > 0 ? n : 0;
}

/* Fills sel[] for an array reference; returns the number of dimensions. */
static int select_dims(walk_t *w, const caf_ref_t *ref, const caf_desc_t *desc, dimsel_t *sel)
{
    bool fixed = CAF_REF_STATIC_ARRAY == ref->type;
    int d;
    for (d = 0; d < CAF_MAX_DIM && CAF_ARR_NONE != ref->u.a.mode[d]; d++) {
        const typeof(ref->u.a.dim[0]) *rd = &ref->u.a.dim[d];
        ptrdiff_t lb = 0, ub = 0, stride = 1;
        if (!fixed) {
            if (NULL == desc || d >= desc->dtype.rank) {
                w->bad = true;
                return -1;
            }
            lb = desc->dim[d].lbound;
            ub = desc->dim[d].ubound;
            stride = desc->dim[d].stride;
        }
        dimsel_t *s = &sel[d];
        memset(s, 0, sizeof(*s));
        ptrdiff_t from, to, step = rd->s.stride;
        switch (ref->u.a.mode[d]) {
        case CAF_ARR_VECTOR:
            s->vec = rd->v.vector;
            s->vec_kind = rd->v.kind;
            s->lb = lb;
            s->stride = stride;
            s->count = (ptrdiff_t)rd->v.nvec;
            continue;
        case CAF_ARR_FULL:
            /* Fixed-size arrays spell their extent out in the reference;
             * for others gfortran gives only the stride (x(::2), x(::-1)). */
            if (fixed) {
                from = rd->s.start, to = rd->s.end;
            } else if (step < 0) {
                from = ub, to = lb;
            } else {
                from = lb, to = ub;
            }
            break;
        case CAF_ARR_RANGE:
            from = rd->s.start, to = rd->s.end;
            break;
        case CAF_ARR_SINGLE:
            from = to = rd->s.start, step = 1;
            s->single = true;
            break;
        case CAF_ARR_OPEN_END:
            from = rd->s.start, to = ub;
            break;
        case CAF_ARR_OPEN_START:
            from = lb, to = rd->s.end;
            break;
        default:
            w->bad = true;
            return -1;
        }
        s->count = span_count(from, to, step);
        s->start = (from - lb) * stride;
        s->step = step * stride;
    }
    return d;
}

static int walk(walk_t *w, const caf_ref_t *ref, char *mem, const caf_desc_t *desc);

static int walk_array(walk_t *w, const caf_ref_t *ref, char *mem, const caf_desc_t *desc)
{
    dimsel_t sel[CAF_MAX_DIM];
    int rank = select_dims(w, ref, desc, sel);
    if (rank < 0) {
        return -1;
    }
    if (!w->shaped) {
        for (int d = 0; d < rank; d++) {
            if (!sel[d].single) {
                w->extent[w->rank++] = sel[d].count;
                w->shaped = true;
            }
        }
    }
    ptrdiff_t idx[CAF_MAX_DIM] = {0};
    for (int d = 0; d < rank; d++) {
        if (0 == sel[d].count) {
            return 0;
        }
    }
    for (;;) {
        ptrdiff_t off = 0;
        for (int d = 0; d < rank; d++) {
            off += sel_offset(&sel[d], idx[d]);
        }
        if (0 != walk(w, ref->next, mem + off * (ptrdiff_t)ref->item_size, NULL)) {
            return -1;
        }
        int d = 0;
        while (d < rank && ++idx[d] == sel[d].count) {
            idx[d++] = 0;
        }
        if (d == rank) {
            return 0;
        }
    }
}

static int walk(walk_t *w, const caf_ref_t *ref, char *mem, const caf_desc_t *desc)
{
    if (NULL == ref) {
        return push(w, mem);
    }
    switch (ref->type) {
    case CAF_REF_COMPONENT:
        if (0 != ref->u.c.caf_token_offset) {
            /* An allocatable component: a descriptor or a pointer, whose
             * first word is the data's address either way. */
            char *slot = mem + ref->u.c.offset;
            char *data = *(char **)slot;
            if (NULL == data) {
                w->unallocated = true;
                return -1;
            }
            return walk(w, ref->next, data, (const caf_desc_t *)slot);
        }
        return walk(w, ref->next, mem + ref->u.c.offset, NULL);
    case CAF_REF_ARRAY:
    case CAF_REF_STATIC_ARRAY:
        return walk_array(w, ref, mem, desc);
    default:
        w->bad = true;
        return -1;
    }
}

static size_t leaf_size(const caf_ref_t *ref)
{
    while (NULL != ref->next) {
        ref = ref->next;
    }
    return ref->item_size;
}

/* Walks `refs` on image `image`; on failure reports through stat. */
static int walk_image(walk_t *w, caf_token_t token, int image, const caf_ref_t *refs, int *stat)
{
    memset(w, 0, sizeof(*w));
    int rank = caf_rank_of(image);
    if (CAF_STAT_FAILED_IMAGE == atomic_load(&caf_ctl(rank)->status)) {
        caf_error(stat, NULL, 0, CAF_STAT_FAILED_IMAGE, "image %d has failed", rank + 1);
        return -1;
    }
    caf_tok_t *tok = token;
    /* The coarray's own descriptor has the same bounds on every image. */
    if (0 == walk(w, refs, caf_token_mem(token, rank), tok->desc) && 0 == push(w, NULL)) {
        w->n--; /* the list is never empty, so it always marks a list view */
        return 0;
    }
    if (w->unallocated) {
        caf_error(stat, NULL, 0, 1, "an allocatable component is not allocated on image %d",
                  rank + 1);
    } else {
        caf_error(stat, NULL, 0, 1, "cannot follow a coarray reference on image %d", rank + 1);
    }
    free(w->list);
    return -1;
}

static void list_view(caf_view_t *view, walk_t *w)
{
    memset(view, 0, sizeof(*view));
    view->list = w->list;
    view->nlist = w->n;
}

/* Gives an unallocated or differently shaped reallocatable destination the
 * walked shape, bounds starting at 1. */
static int reshape(caf_desc_t *dst, const walk_t *w)
{
    int rank = dst->dtype.rank;
    bool fits = NULL != dst->base_addr && (rank == w->rank || 0 == rank);
    for (int d = 0; fits && d < rank; d++) {
        fits = dst->dim[d].ubound - dst->dim[d].lbound + 1 == w->extent[d];
    }
    if (fits) {
        return 0;
    }
    if (rank != w->rank && 0 != rank) {
        return -1;
    }
    void *mem = malloc((w->n ? w->n : 1) * dst->dtype.elem_len);
    if (NULL == mem) {
        return -1;
    }
    free(dst->base_addr);
    dst->base_addr = mem;
    ptrdiff_t stride = 1, offset = 0;
    for (int d = 0; d < rank; d++) {
        dst->dim[d] = (caf_dim_t){.stride = stride, .lbound = 1, .ubound = w->extent[d]};
        offset -= stride;
        stride *= w->extent[d];
    }
    dst->offset = (size_t)offset;
    return 0;
}

CAF_EXPORT void _gfortran_caf_get_by_ref(caf_token_t token, int image, caf_desc_t *dst,
                                         caf_ref_t *refs, int dst_kind, int src_kind,
                                         bool may_require_tmp, bool dst_reallocatable, int *stat,
                                         int src_type)
{
    caf_ok(stat);
    walk_t w;
    if (0 != walk_image(&w, token, image, refs, stat)) {
        return;
    }
    if (dst_reallocatable && 0 != reshape(dst, &w)) {
        caf_error(stat, NULL, 0, 1, "cannot allocate the destination of a coindexed reference");
    } else {
        caf_view_t sv, dv;
        list_view(&sv, &w);
        caf_view_desc(&dv, dst, dst->base_addr, NULL);
        caf_elem_t st = {.type = src_type, .kind = src_kind, .size = leaf_size(refs)};
        if (0 != caf_copy(&dv, caf_elem_of(dst, dst_kind), &sv, st, may_require_tmp)) {
            caf_error(stat, NULL, 0, 1, "coindexed reference: %zu elements do not fit into %zu",
                      w.n, caf_view_count(&dv));
        }
    }
    free(w.list);
}

CAF_EXPORT void _gfortran_caf_send_by_ref(caf_token_t token, int image, caf_desc_t *src,
                                          caf_ref_t *refs, int dst_kind, int src_kind,
                                          bool may_require_tmp, bool dst_reallocatable, int *stat,
                                          int dst_type)
{
    caf_ok(stat);
    walk_t w;
    if (0 != walk_image(&w, token, image, refs, stat)) {
        return;
    }
    caf_view_t sv, dv;
    list_view(&dv, &w);
    caf_view_desc(&sv, src, src->base_addr, NULL);
    caf_elem_t dt = {.type = dst_type, .kind = dst_kind, .size = leaf_size(refs)};
    if (0 != caf_copy(&dv, dt, &sv, caf_elem_of(src, src_kind), may_require_tmp)) {
        caf_error(stat, NULL, 0, 1, "coindexed assignment: %zu elements do not fit into %zu",
                  caf_view_count(&sv), w.n);
    }
    free(w.list);
}

CAF_EXPORT void _gfortran_caf_sendget_by_ref(caf_token_t dst_token, int dst_image,
                                             caf_ref_t *dst_refs, caf_token_t src_token,
                                             int src_image, caf_ref_t *src_refs, int dst_kind,
                                             int src_kind, bool may_require_tmp, int *dst_stat,
                                             int *src_stat, int dst_type, int src_type)
{
    caf_ok(dst_stat);
    caf_ok(src_stat);
    walk_t dw, sw;
    if (0 != walk_image(&sw, src_token, src_image, src_refs, src_stat)) {
        return;
    }
    if (0 != walk_image(&dw, dst_token, dst_image, dst_refs, dst_stat)) {
        free(sw.list);
        return;
    }
    caf_view_t sv, dv;
    list_view(&sv, &sw);
    list_view(&dv, &dw);
    caf_elem_t st = {.type = src_type, .kind = src_kind, .size = leaf_size(src_refs)};
    caf_elem_t dt = {.type = dst_type, .kind = dst_kind, .size = leaf_size(dst_refs)};
    if (0 != caf_copy(&dv, dt, &sv, st, may_require_tmp)) {
        caf_error(dst_stat, NULL, 0, 1, "coindexed assignment: %zu elements do not fit into %zu",
                  sw.n, dw.n);
    }
    free(sw.list);
    free(dw.list);
}

CAF_EXPORT int _gfortran_caf_is_present(caf_token_t token, int image, caf_ref_t *refs)
{
    walk_t w;
    memset(&w, 0, sizeof(w));
    int rank = caf_rank_of(image);
    caf_tok_t *tok = token;
    int rc = walk(&w, refs, caf_token_mem(token, rank), tok->desc);
    free(w.list);
    if (0 != rc && !w.unallocated) {
        caf_fatal("cannot follow a coarray reference on image %d", rank + 1);
    }
    return 0 == rc;
}
