/*
 * view.c - walking array sections element by element, and the copy engine
 * every transfer and collective goes through.
 *
 * A view is either a strided array (a descriptor's dimensions, some of them
 * possibly vector subscripts) or an explicit list of element addresses (what
 * reference chains produce). Views are walked in array element order with an
 * odometer that updates the address incrementally, so a strided section
 * costs an addition per element. Contiguous same-type copies become one
 * memmove.
 */
#include <stdlib.h>
#include <string.h>

#include "caf.h"

caf_elem_t caf_elem_of(const caf_desc_t *desc, int kind)
{
    return (caf_elem_t){.type = desc->dtype.type, .kind = kind, .size = desc->dtype.elem_len};
}

void caf_view_desc(caf_view_t *view, const caf_desc_t *desc, char *base,
                   const caf_vector_t *vector)
{
    memset(view, 0, sizeof(*view));
    view->base = base;
    view->rank = desc->dtype.rank;
    ptrdiff_t elem = (ptrdiff_t)desc->dtype.elem_len;
    for (int d = 0; d < view->rank; d++) {
        const caf_dim_t *dim = &desc->dim[d];
        ptrdiff_t extent = dim->ubound - dim->lbound + 1;
        view->extent[d] = extent > 0 ? extent : 0;
        view->stride[d] = dim->stride * elem;
        if (NULL == vector) {
            continue;
        }
        /* With vector subscripts the descriptor addresses the whole array:
         * each dimension is either a vector of indices or a triplet, both
         * in the array's index space. */
        if (vector[d].nvec > 0) {
            view->extent[d] = (ptrdiff_t)vector[d].nvec;
            view->vec[d] = vector[d].u.v.vector;
            view->vec_kind[d] = vector[d].u.v.kind;
            view->vec_lb[d] = dim->lbound;
        } else {
            ptrdiff_t lo = vector[d].u.triplet.lower_bound, hi = vector[d].u.triplet.upper_bound;
            ptrdiff_t step = vector[d].u.triplet.stride ? vector[d].u.triplet.stride : 1;
            extent = (hi - lo) / step + 1;
            view->extent[d] = extent > 0 ? extent : 0;
            view->base += (lo - dim->lbound) * dim->stride * elem;
            view->stride[d] = step * dim->stride * elem;
        }
    }
}

void caf_view_flat(caf_view_t *view, char *base, size_t count, size_t size)
{
    memset(view, 0, sizeof(*view));
    view->base = base;
    view->rank = 1;
    view->extent[0] = (ptrdiff_t)count;
    view->stride[0] = (ptrdiff_t)size;
}

size_t caf_view_count(const caf_view_t *view)
{
    if (view->list) {
        return view->nlist;
    }
    size_t n = 1;
    for (int d = 0; d < view->rank; d++) {
        n *= (size_t)view->extent[d];
    }
    return n;
}

static bool contiguous(const caf_view_t *view, size_t size)
{
    if (view->list) {
        return false;
    }
    ptrdiff_t expect = (ptrdiff_t)size;
    for (int d = 0; d < view->rank; d++) {
        if (view->vec[d]) {
            return false;
        }
        if (view->extent[d] > 1 && view->stride[d] != expect) {
            return false;
        }
        expect *= view->extent[d];
    }
    return true;
}

static ptrdiff_t vector_entry(const void *vec, int kind, ptrdiff_t i)
{
    switch (kind) {
    case 1: return ((const int8_t *)vec)[i];
    case 2: return ((const int16_t *)vec)[i];
    case 4: return ((const int32_t *)vec)[i];
    default: return (ptrdiff_t)((const int64_t *)vec)[i];
    }
}

typedef struct cursor {
    const caf_view_t *view;
    ptrdiff_t idx[CAF_MAX_DIM];
    ptrdiff_t off[CAF_MAX_DIM];
    char *p;
    size_t k; /* elements visited, for lists */
} cursor_t;

static ptrdiff_t dim_offset(const caf_view_t *v, int d, ptrdiff_t i)
{
    if (v->vec[d]) {
        return (vector_entry(v->vec[d], v->vec_kind[d], i) - v->vec_lb[d]) * v->stride[d];
    }
    return i * v->stride[d];
}

static void cursor_start(cursor_t *c, const caf_view_t *view)
{
    c->view = view;
    c->k = 0;
    if (view->list) {
        c->p = view->nlist ? view->list[0] : NULL;
        return;
    }
    c->p = view->base;
    for (int d = 0; d < view->rank; d++) {
        c->idx[d] = 0;
        c->off[d] = dim_offset(view, d, 0);
        c->p += c->off[d];
    }
}

static void cursor_next(cursor_t *c)
{
    const caf_view_t *v = c->view;
    if (v->list) {
        c->k++;
        c->p = c->k < v->nlist ? v->list[c->k] : NULL;
        return;
    }
    for (int d = 0; d < v->rank; d++) {
        ptrdiff_t i = c->idx[d] + 1 < v->extent[d] ? c->idx[d] + 1 : 0;
        ptrdiff_t off = dim_offset(v, d, i);
        c->p += off - c->off[d];
        c->off[d] = off;
        c->idx[d] = i;
        if (0 != i) {
            return;
        }
    }
}

static void copy_elem(char *d, const char *s, size_t size)
{
    switch (size) {
    case 4: memcpy(d, s, 4); break;
    case 8: memcpy(d, s, 8); break;
    case 16: memcpy(d, s, 16); break;
    default: memmove(d, s, size); break;
    }
}

/* One row of `n` elements of `size` bytes (a constant where it is called).
 * Four at a time: a one-element loop is so short that its speed depends on
 * where it lands against instruction-fetch boundaries (half the speed on
 * AMD Zen 4 when it straddles one). */
static inline __attribute__((always_inline)) void copy_row(char *d, const char *s, ptrdiff_t n,
                                                         ptrdiff_t ds, ptrdiff_t ss, size_t size)
{
    ptrdiff_t i = 0;
    for (; i + 4 <= n; i += 4, d += 4 * ds, s += 4 * ss) {
        memcpy(d, s, size);
        memcpy(d + ds, s + ss, size);
        memcpy(d + 2 * ds, s + 2 * ss, size);
        memcpy(d + 3 * ds, s + 3 * ss, size);
    }
    for (; i < n; i++, d += ds, s += ss) {
        memcpy(d, s, size);
    }
}

/* Same type on both sides, both strided with the same first extent: whole
 * rows along the first dimension at a time, the common case of sections of
 * equal shape. */
static bool copy_rows(const caf_view_t *dst, const caf_view_t *src, size_t n, size_t size)
{
    if (dst->list || src->list || dst->rank < 1 || src->rank < 1 || dst->vec[0] || src->vec[0] ||
        dst->extent[0] != src->extent[0] || 0 == dst->extent[0]) {
        return false;
    }
    caf_view_t drest = *dst, srest = *src;
    drest.extent[0] = srest.extent[0] = 1;
    ptrdiff_t row = dst->extent[0], ds = dst->stride[0], ss = src->stride[0];
    cursor_t dc, sc;
    cursor_start(&dc, &drest);
    cursor_start(&sc, &srest);
    for (size_t done = 0; done < n; done += (size_t)row) {
        char *d = dc.p;
        const char *s = sc.p;
        if (8 == size) {
            copy_row(d, s, row, ds, ss, 8);
        } else if (4 == size) {
            copy_row(d, s, row, ds, ss, 4);
        } else {
            for (ptrdiff_t i = 0; i < row; i++, d += ds, s += ss) {
                copy_elem(d, s, size);
            }
        }
        cursor_next(&dc);
        cursor_next(&sc);
    }
    return true;
}

/* Same type on both sides, element by element. */
static void copy_same(cursor_t *dc, cursor_t *sc, size_t n, size_t size, bool scalar_src)
{
    for (size_t i = 0; i < n; i++) {
        copy_elem(dc->p, sc->p, size);
        cursor_next(dc);
        if (!scalar_src) {
            cursor_next(sc);
        }
    }
}

int caf_copy(caf_view_t *dst, caf_elem_t dt, caf_view_t *src, caf_elem_t st, bool via_tmp)
{
    size_t n = caf_view_count(dst), m = caf_view_count(src);
    if (0 == n) {
        return 0;
    }
    if (m != n && 1 != m) {
        return -1;
    }
    bool same = dt.type == st.type && dt.kind == st.kind && dt.size == st.size;
    if (same && m == n && contiguous(dst, dt.size) && contiguous(src, st.size)) {
        /* Straight from one mapping into the other. The C library's copy
         * aligns the destination first; a bare `rep movsb` does not, and
         * runs ten times slower on AMD Zen 4 when it is misaligned. */
        memmove(dst->base, src->base, n * dt.size);
        return 0;
    }
    char *tmp = NULL;
    caf_view_t staged;
    if (via_tmp) {
        tmp = malloc(m * st.size);
        if (NULL == tmp) {
            return -1;
        }
        caf_view_flat(&staged, tmp, m, st.size);
        cursor_t tc, sc;
        cursor_start(&tc, &staged);
        cursor_start(&sc, src);
        copy_same(&tc, &sc, m, st.size, false);
        src = &staged;
    }
    cursor_t dc, sc;
    cursor_start(&dc, dst);
    cursor_start(&sc, src);
    int rc = 0;
    if (same && m == n && copy_rows(dst, src, n, dt.size)) {
        rc = 0;
    } else if (same) {
        copy_same(&dc, &sc, n, dt.size, 1 == m);
    } else {
        for (size_t i = 0; i < n && 0 == rc; i++) {
            if (!caf_convert(dc.p, dt, sc.p, st)) {
                rc = -1;
            }
            cursor_next(&dc);
            if (1 != m) {
                cursor_next(&sc);
            }
        }
    }
    free(tmp);
    return rc;
}
