/*
 * plan.c - copy plans for pointer-free declared types (plan.h).
 *
 * Design notes:
 *  - An array of a pointer-free type always packs to the same header (its
 *    fingerprint and bounds are the type's, its data length min_wire)
 *    and each element to the same bytes in the same order: on a
 *    little-endian host the walk generic.c makes reduces to a list of
 *    byte runs. Packing n elements is then one header copy and one copy
 *    per run and element into room made once; unpacking one copy per run
 *    and element once generic.c has read the header.
 *  - A type that is one run over its whole size (dense) copies the n
 *    elements in one block.
 *  - The runs follow generic.c's order exactly (members in declaration
 *    order, an array's selected elements in C order); neighbouring runs
 *    merge, so a dense part or a slice's row is one run.
 */
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "plan.h"
#include "rows.h"
#include "types.h"

typedef struct build {
    plan_t *p;
    size_t cap;
} build_t;

static bool add(build_t *b, size_t off, size_t len)
{
    plan_t *p = b->p;
    if (0 == len) {
        return true;
    }
    if (0 < p->nruns && p->runs[p->nruns - 1].off + p->runs[p->nruns - 1].len == off) {
        p->runs[p->nruns - 1].len += len;
        return true;
    }
    if (p->nruns == b->cap) {
        size_t cap = 0 == b->cap ? 16 : 2 * b->cap;
        run_t *r = PLAN_MAX_RUNS < p->nruns + 1 ? NULL : realloc(p->runs, cap * sizeof(*r));
        if (NULL == r) {
            return false;
        }
        p->runs = r;
        b->cap = cap;
    }
    p->runs[p->nruns++] = (run_t){off, len};
    return true;
}

static bool walk(build_t *b, const tnode_t *n, size_t off);

typedef struct row_ctx {
    build_t *b;
    size_t base;
} row_ctx_t;

static int plan_row(void *arg, const tnode_t *sub, size_t off, size_t count)
{
    row_ctx_t *c = arg;
    if (sub->dense) {
        return !add(c->b, c->base + off, count * sub->size);
    }
    for (size_t k = 0; k < count; k++) {
        if (!walk(c->b, sub, c->base + off + k * sub->size)) {
            return 1;
        }
    }
    return 0;
}

static bool walk(build_t *b, const tnode_t *n, size_t off)
{
    while (TK_REF == n->kind) {
        n = n->target->root;
    }
    if (n->dense || TK_SCALAR == n->kind) {
        return add(b, off, n->size);
    }
    if (TK_ARRAY == n->kind) {
        row_ctx_t c = {b, off};
        return 0 == each_run(n, plan_row, &c);
    }
    for (size_t i = 0; i < n->nchild; i++) {
        const tnode_t *m = n->child[i];
        if (TK_MEMBER == m->kind && !walk(b, m->child[0], off + m->off)) {
            return false;
        }
    }
    return true;
}

static void put_le(uint8_t *at, uint64_t v, size_t width)
{
    for (size_t i = 0; i < width; i++) {
        at[i] = (uint8_t)(v >> (8 * i));
    }
}

plan_t *plan_build(const named_t *nt)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (nt->root->has_ptr || 0 == nt->root->min_wire || nt->root->min_wire > UINT32_MAX - 1) {
        return NULL;
    }
    plan_t *p = calloc(1, sizeof(*p));
    build_t b = {p, 0};
    if (NULL == p || NULL == (p->hdr = malloc(GENERIC_HEADER + 8 * nt->nshape)) ||
        !walk(&b, nt->root, 0)) {
        plan_free(p);
        return NULL;
    }
    p->hlen = GENERIC_HEADER + 8 * nt->nshape;
    p->data = nt->root->min_wire;
    put_le(p->hdr, nt->fingerprint, 8);
    put_le(p->hdr + 8, nt->nshape, 4);
    for (size_t i = 0; i < nt->nshape; i++) {
        put_le(p->hdr + 12 + 8 * i, (uint64_t)nt->shape[i], 8);
    }
    put_le(p->hdr + 12 + 8 * nt->nshape, p->data, 4);
    return p;
#else
    (void)nt;
    return NULL;
#endif
}

void plan_free(plan_t *p)
{
    if (NULL != p) {
        free(p->hdr);
        free(p->runs);
        free(p);
    }
}

/* A run's bytes. The runs of a struct are often one scalar member long:
 * a copy of a constant size is a move, not a call. */
static inline void copy_run(void *to, const void *from, size_t len)
{
    switch (len) {
    case 1:
        memcpy(to, from, 1);
        break;
    case 2:
        memcpy(to, from, 2);
        break;
    case 4:
        memcpy(to, from, 4);
        break;
    case 8:
        memcpy(to, from, 8);
        break;
    default:
        memcpy(to, from, len);
        break;
    }
}

static bool whole(const plan_t *p, size_t size)
{
    return 1 == p->nruns && 0 == p->runs[0].off && size == p->runs[0].len;
}

pmix_status_t plan_pack(drover_writer_t *w, const plan_t *p, const void *src, size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, p->data, &bytes) || bytes > SIZE_MAX - p->hlen) {
        return PMIX_ERR_BAD_PARAM;
    }
    uint8_t *at = wire_append(w, p->hlen + bytes);
    if (NULL == at) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(at, p->hdr, p->hlen);
    at += p->hlen;
    if (whole(p, size)) {
        memcpy(at, src, bytes);
        return PMIX_SUCCESS;
    }
    for (const char *elem = src, *end = elem + n * size; elem < end; elem += size) {
        for (size_t i = 0; i < p->nruns; i++) {
            copy_run(at, elem + p->runs[i].off, p->runs[i].len);
            at += p->runs[i].len;
        }
    }
    return PMIX_SUCCESS;
}

void plan_unpack(const plan_t *p, const uint8_t *in, void *dest, size_t n, size_t size)
{
    if (whole(p, size)) {
        memcpy(dest, in, n * size);
        return;
    }
    for (char *elem = dest, *end = elem + n * size; elem < end; elem += size) {
        for (size_t i = 0; i < p->nruns; i++) {
            copy_run(elem + p->runs[i].off, in, p->runs[i].len);
            in += p->runs[i].len;
        }
    }
}
