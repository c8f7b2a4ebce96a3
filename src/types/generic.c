/*
 * generic.c - pack, unpack, copy, compare, print and release for every
 * declared type, driven by its laid-out tree.
 *
 * Design notes:
 *  - The registry calls a record's functions with the element only; the
 *    record they serve is bfrops_current, and its id finds the tree.
 *  - An array of n elements packs as one header, [u64 fingerprint][u32 k]
 *    [k x u64 bounds][u32 length], then the elements' data: each of that
 *    length, or, when the length is GENERIC_EACH_ITS_OWN (types with
 *    pointers, whose data varies), each with its own u32 length in front
 *    (docs/protocol.md). The record's array functions serve it in one
 *    call; pack and unpack of one element are arrays of one. The lengths
 *    let a process that stores values without reading them (the server)
 *    keep each element whole (relay.c). A receiver whose declaration has
 *    another fingerprint, or the same declaration with other $-values,
 *    refuses the array with PMIX_ERR_TYPE_MISMATCH before reading data.
 *  - Data is the type's selected elements only: scalars little-endian at
 *    their size, a pointer as a byte (0: NULL, 1: present) then its
 *    pointee. On a little-endian host a dense part (no padding, no
 *    pointer, no slice) is one block copy, and the innermost dimension of
 *    a slice is one block per row.
 *  - Copy, compare, print and release see the same data as pack: the
 *    selected elements and the pointees. A copy is zero outside them.
 *  - Unpacked pointees are allocated through the reader's allocator; a
 *    failed unpack releases them and leaves the element zeroed.
 *  - A pointer-free type with a copy plan (plan.h) packs as its constant
 *    header and each element's runs, and unpacks so once the header has
 *    been read and found to be the plan's; anything else takes the walk.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "plan.h"
#include "rows.h"
#include "strbuf.h"
#include "types.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BLOCKS_ARE_WIRE 1
#else
#define BLOCKS_ARE_WIRE 0
#endif

static bool as_block(const tnode_t *n)
{
    return BLOCKS_ARE_WIRE && n->dense;
}

static const tnode_t *resolve(const tnode_t *n)
{
    while (TK_REF == n->kind) {
        n = n->target->root;
    }
    return n;
}

/* ---- pack and unpack ---- */

/* One walk serves both directions: w set packs from the element, r set
 * unpacks into it. */
typedef struct xfer {
    drover_writer_t *w;
    drover_reader_t *r;
    char *base;
    pmix_status_t rc;
} xfer_t;

static pmix_status_t xfer_at(xfer_t *x, const tnode_t *n, char *p);

static pmix_status_t block(xfer_t *x, char *p, size_t len)
{
    return NULL != x->w ? wire_put(x->w, p, len) : wire_get(x->r, p, len);
}

static int xfer_run(void *arg, const tnode_t *sub, size_t off, size_t count)
{
    xfer_t *x = arg;
    if (as_block(sub)) {
        x->rc = block(x, x->base + off, count * sub->size);
        return PMIX_SUCCESS != x->rc;
    }
    char *outer = x->base;
    for (size_t i = 0; i < count && PMIX_SUCCESS == x->rc; i++) {
        x->rc = xfer_at(x, sub, outer + off + i * sub->size);
        x->base = outer;
    }
    return PMIX_SUCCESS != x->rc;
}

static pmix_status_t pack_scalar(drover_writer_t *w, const tnode_t *n, const char *p)
{
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    switch (n->scalar.size) {
    case 1:
        return wire_put_u8(w, *(const uint8_t *)p);
    case 2:
        memcpy(&v16, p, 2);
        return wire_put_u16(w, v16);
    case 4:
        memcpy(&v32, p, 4);
        return wire_put_u32(w, v32);
    default:
        memcpy(&v64, p, 8);
        return wire_put_u64(w, v64);
    }
}

static pmix_status_t unpack_scalar(drover_reader_t *r, const tnode_t *n, char *p)
{
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;
    pmix_status_t rc;
    switch (n->scalar.size) {
    case 1:
        return wire_get_u8(r, (uint8_t *)p);
    case 2:
        rc = wire_get_u16(r, &v16);
        memcpy(p, &v16, PMIX_SUCCESS == rc ? 2 : 0);
        return rc;
    case 4:
        rc = wire_get_u32(r, &v32);
        memcpy(p, &v32, PMIX_SUCCESS == rc ? 4 : 0);
        return rc;
    default:
        rc = wire_get_u64(r, &v64);
        memcpy(p, &v64, PMIX_SUCCESS == rc ? 8 : 0);
        return rc;
    }
}

static pmix_status_t pack_pointer(xfer_t *x, const tnode_t *n, const char *p)
{
    char *to;
    memcpy(&to, p, sizeof(to));
    pmix_status_t rc = wire_put_u8(x->w, NULL != to);
    return PMIX_SUCCESS == rc && NULL != to ? xfer_at(x, n->child[0], to) : rc;
}

static pmix_status_t unpack_pointer(xfer_t *x, const tnode_t *n, char *p)
{
    drover_reader_t *r = x->r;
    uint8_t present;
    pmix_status_t rc = wire_get_u8(r, &present);
    if (PMIX_SUCCESS != rc || 0 == present) {
        return rc;
    }
    const tnode_t *to = resolve(n->child[0]);
    if (1 != present) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    /* The pointee's data must be there before room is made for it. */
    if (wire_remaining(r) < to->min_wire) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    char *mem = drover_tma_calloc(r->tma, 1, to->size);
    if (NULL == mem) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(p, &mem, sizeof(mem));
    return xfer_at(x, to, mem);
}

static pmix_status_t xfer_at(xfer_t *x, const tnode_t *n, char *p)
{
    n = resolve(n);
    if (as_block(n)) {
        return block(x, p, n->size);
    }
    switch (n->kind) {
    case TK_SCALAR:
        return NULL != x->w ? pack_scalar(x->w, n, p) : unpack_scalar(x->r, n, p);
    case TK_POINTER:
        return NULL != x->w ? pack_pointer(x, n, p) : unpack_pointer(x, n, p);
    case TK_ARRAY: {
        char *outer = x->base;
        x->base = p;
        x->rc = PMIX_SUCCESS;
        each_run(n, xfer_run, x);
        x->base = outer;
        return x->rc;
    }
    default: {
        pmix_status_t rc = PMIX_SUCCESS;
        for (size_t i = 0; i < n->nchild && PMIX_SUCCESS == rc; i++) {
            const tnode_t *m = n->child[i];
            if (TK_MEMBER == m->kind) {
                rc = xfer_at(x, m->child[0], p + m->off);
            }
        }
        return rc;
    }
    }
}

/* ---- release ---- */

static void release_at(const tnode_t *n, char *p, drover_tma_t *tma);

typedef struct release_ctx {
    char *base;
    drover_tma_t *tma;
} release_ctx_t;

static int release_run(void *arg, const tnode_t *sub, size_t off, size_t count)
{
    release_ctx_t *c = arg;
    for (size_t i = 0; i < count; i++) {
        release_at(sub, c->base + off + i * sub->size, c->tma);
    }
    return 0;
}

static void release_at(const tnode_t *n, char *p, drover_tma_t *tma)
{
    n = resolve(n);
    if (!n->has_ptr) {
        return;
    }
    switch (n->kind) {
    case TK_POINTER: {
        char *to;
        memcpy(&to, p, sizeof(to));
        if (NULL != to) {
            release_at(n->child[0], to, tma);
            drover_tma_free(tma, to);
            memset(p, 0, sizeof(void *));
        }
        break;
    }
    case TK_ARRAY: {
        release_ctx_t c = {p, tma};
        each_run(n, release_run, &c);
        break;
    }
    default:
        for (size_t i = 0; i < n->nchild; i++) {
            const tnode_t *m = n->child[i];
            if (TK_MEMBER == m->kind) {
                release_at(m->child[0], p + m->off, tma);
            }
        }
        break;
    }
}

/* ---- copy ---- */

static pmix_status_t copy_at(const tnode_t *n, char *dst, const char *src, drover_tma_t *tma);

typedef struct copy_ctx {
    char *dst;
    const char *src;
    drover_tma_t *tma;
    pmix_status_t rc;
} copy_ctx_t;

static int copy_run(void *arg, const tnode_t *sub, size_t off, size_t count)
{
    copy_ctx_t *c = arg;
    if (sub->dense) {
        memcpy(c->dst + off, c->src + off, count * sub->size);
        return 0;
    }
    for (size_t i = 0; i < count && PMIX_SUCCESS == c->rc; i++) {
        size_t at = off + i * sub->size;
        c->rc = copy_at(sub, c->dst + at, c->src + at, c->tma);
    }
    return PMIX_SUCCESS != c->rc;
}

static pmix_status_t copy_at(const tnode_t *n, char *dst, const char *src, drover_tma_t *tma)
{
    n = resolve(n);
    if (n->dense || TK_SCALAR == n->kind) {
        memcpy(dst, src, n->size);
        return PMIX_SUCCESS;
    }
    switch (n->kind) {
    case TK_POINTER: {
        const char *from;
        memcpy(&from, src, sizeof(from));
        if (NULL == from) {
            return PMIX_SUCCESS;
        }
        const tnode_t *to = resolve(n->child[0]);
        char *mem = drover_tma_calloc(tma, 1, to->size);
        if (NULL == mem) {
            return PMIX_ERR_NOMEM;
        }
        memcpy(dst, &mem, sizeof(mem));
        return copy_at(to, mem, from, tma);
    }
    case TK_ARRAY: {
        copy_ctx_t c = {dst, src, tma, PMIX_SUCCESS};
        each_run(n, copy_run, &c);
        return c.rc;
    }
    default: {
        pmix_status_t rc = PMIX_SUCCESS;
        for (size_t i = 0; i < n->nchild && PMIX_SUCCESS == rc; i++) {
            const tnode_t *m = n->child[i];
            if (TK_MEMBER == m->kind) {
                rc = copy_at(m->child[0], dst + m->off, src + m->off, tma);
            }
        }
        return rc;
    }
    }
}

/* ---- compare ---- */

static pmix_value_cmp_t compare_at(const tnode_t *n, const char *a, const char *b);

typedef struct cmp_ctx {
    const char *a, *b;
    pmix_value_cmp_t result;
} cmp_ctx_t;

static int compare_run(void *arg, const tnode_t *sub, size_t off, size_t count)
{
    cmp_ctx_t *c = arg;
    for (size_t i = 0; i < count && PMIX_EQUAL == c->result; i++) {
        size_t at = off + i * sub->size;
        c->result = compare_at(sub, c->a + at, c->b + at);
    }
    return PMIX_EQUAL != c->result;
}

#define ORDER(x, y) ((x) > (y) ? PMIX_VALUE1_GREATER : (x) < (y) ? PMIX_VALUE2_GREATER : PMIX_EQUAL)

static pmix_value_cmp_t compare_scalar(const scalar_t *s, const char *a, const char *b)
{
    if (SC_FLOAT == s->cls) {
        double x, y;
        float fx, fy;
        if (4 == s->size) {
            memcpy(&fx, a, 4);
            memcpy(&fy, b, 4);
            x = fx;
            y = fy;
        } else {
            memcpy(&x, a, 8);
            memcpy(&y, b, 8);
        }
        return ORDER(x, y);
    }
    uint64_t ux = 0, uy = 0;
    memcpy(&ux, a, s->size);
    memcpy(&uy, b, s->size);
    if (SC_SIGNED == s->cls && 8 > s->size) {
        unsigned shift = 64 - 8 * (unsigned)s->size;
        int64_t x = (int64_t)(ux << shift) >> shift, y = (int64_t)(uy << shift) >> shift;
        return ORDER(x, y);
    }
    if (SC_SIGNED == s->cls) {
        return ORDER((int64_t)ux, (int64_t)uy);
    }
    return ORDER(ux, uy);
}

static pmix_value_cmp_t compare_at(const tnode_t *n, const char *a, const char *b)
{
    n = resolve(n);
    switch (n->kind) {
    case TK_SCALAR:
        return compare_scalar(&n->scalar, a, b);
    case TK_POINTER: {
        const char *pa, *pb;
        memcpy(&pa, a, sizeof(pa));
        memcpy(&pb, b, sizeof(pb));
        if (NULL == pa || NULL == pb) {
            return ORDER(NULL != pa, NULL != pb);
        }
        return compare_at(n->child[0], pa, pb);
    }
    case TK_ARRAY: {
        cmp_ctx_t c = {a, b, PMIX_EQUAL};
        each_run(n, compare_run, &c);
        return c.result;
    }
    default: {
        pmix_value_cmp_t r = PMIX_EQUAL;
        for (size_t i = 0; i < n->nchild && PMIX_EQUAL == r; i++) {
            const tnode_t *m = n->child[i];
            if (TK_MEMBER == m->kind) {
                r = compare_at(m->child[0], a + m->off, b + m->off);
            }
        }
        return r;
    }
    }
}

/* ---- print ---- */

static void print_at(strbuf_t *b, const tnode_t *n, const char *p);

typedef struct print_ctx {
    strbuf_t *b;
    const char *base;
    bool first;
} print_ctx_t;

static int print_run(void *arg, const tnode_t *sub, size_t off, size_t count)
{
    print_ctx_t *c = arg;
    for (size_t i = 0; i < count; i++) {
        strbuf_printf(c->b, "%s", c->first ? "" : ", ");
        c->first = false;
        print_at(c->b, sub, c->base + off + i * sub->size);
    }
    return 0;
}

static void print_scalar(strbuf_t *b, const scalar_t *s, const char *p)
{
    uint64_t u = 0;
    memcpy(&u, p, s->size);
    if (SC_FLOAT == s->cls && 4 == s->size) {
        float f;
        memcpy(&f, p, 4);
        strbuf_printf(b, "%g", (double)f);
    } else if (SC_FLOAT == s->cls) {
        double d;
        memcpy(&d, p, 8);
        strbuf_printf(b, "%g", d);
    } else if (SC_SIGNED == s->cls && 8 > s->size) {
        unsigned shift = 64 - 8 * (unsigned)s->size;
        strbuf_printf(b, "%" PRId64, (int64_t)(u << shift) >> shift);
    } else if (SC_SIGNED == s->cls) {
        strbuf_printf(b, "%" PRId64, (int64_t)u);
    } else {
        strbuf_printf(b, "%" PRIu64, u);
    }
}

static void print_at(strbuf_t *b, const tnode_t *n, const char *p)
{
    n = resolve(n);
    switch (n->kind) {
    case TK_SCALAR:
        print_scalar(b, &n->scalar, p);
        return;
    case TK_POINTER: {
        const char *to;
        memcpy(&to, p, sizeof(to));
        if (NULL == to) {
            strbuf_printf(b, "NULL");
        } else {
            strbuf_append(b, "&", 1);
            print_at(b, n->child[0], to);
        }
        return;
    }
    case TK_ARRAY: {
        print_ctx_t c = {b, p, true};
        strbuf_append(b, "[", 1);
        each_run(n, print_run, &c);
        strbuf_append(b, "]", 1);
        return;
    }
    default:
        strbuf_append(b, "{", 1);
        for (size_t i = 0, k = 0; i < n->nchild; i++) {
            const tnode_t *m = n->child[i];
            if (TK_MEMBER != m->kind) {
                continue;
            }
            strbuf_printf(b, "%s", 0 == k++ ? "" : ", ");
            if (NULL != m->name) {
                strbuf_printf(b, "%s=", m->name);
            }
            print_at(b, m->child[0], p + m->off);
        }
        strbuf_append(b, "}", 1);
        return;
    }
}

/* ---- the record's functions ---- */

/* The declared type being served; NULL when a record's function was
 * called directly rather than through the registry's loops (drover_pack,
 * PMIx_Data_*), which is the only way it can learn its type. */
static const named_t *current(void)
{
    return NULL == bfrops_current ? NULL : types_by_id(bfrops_current->id);
}

static pmix_status_t put_header(drover_writer_t *w, const named_t *nt, uint32_t len)
{
    pmix_status_t rc = wire_put_u64(w, nt->fingerprint);
    if (PMIX_SUCCESS == rc) {
        rc = wire_put_u32(w, (uint32_t)nt->nshape);
    }
    for (size_t i = 0; i < nt->nshape && PMIX_SUCCESS == rc; i++) {
        rc = wire_put_u64(w, (uint64_t)nt->shape[i]);
    }
    return PMIX_SUCCESS == rc ? wire_put_u32(w, len) : rc;
}

/* An element whose data varies (it has pointers): [u32 length][data],
 * the length written once it is known. */
static pmix_status_t pack_sized(drover_writer_t *w, const named_t *nt, const char *elem)
{
    size_t at = w->buf->bytes_used;
    pmix_status_t rc = wire_put_u32(w, 0);
    if (PMIX_SUCCESS == rc) {
        xfer_t x = {.w = w};
        rc = xfer_at(&x, nt->root, (char *)elem);
    }
    size_t len = w->buf->bytes_used - at - 4;
    if (PMIX_SUCCESS == rc && len >= GENERIC_EACH_ITS_OWN) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS == rc) {
        for (unsigned i = 0; i < 4; i++) {
            w->buf->base_ptr[at + i] = (char)(len >> (8 * i));
        }
    }
    return rc;
}

static pmix_status_t generic_pack_array(drover_writer_t *w, const void *src, size_t n)
{
    const named_t *nt = current();
    if (NULL == nt) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    if (NULL != nt->plan) {
        return plan_pack(w, nt->plan, src, n, nt->root->size);
    }
    /* An empty type's elements carry their length (0) so that an array
     * of them takes room on the wire, as its min_wire says. */
    bool sized = nt->root->has_ptr || 0 == nt->root->min_wire;
    if (!sized && nt->root->min_wire >= GENERIC_EACH_ITS_OWN) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = put_header(w, nt, sized ? GENERIC_EACH_ITS_OWN : (uint32_t)nt->root->min_wire);
    for (size_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        char *elem = (char *)src + i * nt->root->size;
        xfer_t x = {.w = w};
        rc = sized ? pack_sized(w, nt, elem) : xfer_at(&x, nt->root, elem);
    }
    return rc;
}

/* Read an array's header for nt: fingerprint and bounds must be nt's.
 * *len is every element's data length, or GENERIC_EACH_ITS_OWN. */
static pmix_status_t read_header(drover_reader_t *r, const named_t *nt, uint32_t *len)
{
    uint64_t fp, v;
    uint32_t k;
    pmix_status_t rc = wire_get_u64(r, &fp);
    if (PMIX_SUCCESS == rc && fp != nt->fingerprint) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    }
    if (PMIX_SUCCESS == rc) {
        rc = wire_get_u32(r, &k);
    }
    if (PMIX_SUCCESS == rc && k != nt->nshape) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    }
    for (size_t i = 0; i < nt->nshape && PMIX_SUCCESS == rc; i++) {
        rc = wire_get_u64(r, &v);
        if (PMIX_SUCCESS == rc && (int64_t)v != nt->shape[i]) {
            rc = PMIX_ERR_TYPE_MISMATCH;
        }
    }
    return PMIX_SUCCESS == rc ? wire_get_u32(r, len) : rc;
}

/* n elements of len bytes each are all there. */
static pmix_status_t have_all(const drover_reader_t *r, size_t n, uint32_t len)
{
    return 0 != len && n > wire_remaining(r) / len ? PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER
                                                   : PMIX_SUCCESS;
}

/* The data length of the next element (fixed, or read in front of it),
 * which the input holds. */
static pmix_status_t next_len(drover_reader_t *r, uint32_t fixed, uint32_t *len)
{
    pmix_status_t rc = PMIX_SUCCESS;
    *len = fixed;
    if (GENERIC_EACH_ITS_OWN == fixed) {
        rc = wire_get_u32(r, len);
    }
    if (PMIX_SUCCESS == rc && *len > wire_remaining(r)) {
        rc = PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    return rc;
}

/* A type without pointers has data of one length, its min_wire: an array
 * whose header passes and whose elements have that length unpacks. */
static pmix_status_t generic_check(drover_reader_t *r, size_t n)
{
    const named_t *nt = current();
    uint32_t fixed, len;
    if (NULL == nt) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    pmix_status_t rc = read_header(r, nt, &fixed);
    if (PMIX_SUCCESS == rc && GENERIC_EACH_ITS_OWN != fixed) {
        rc = fixed != nt->root->min_wire ? PMIX_ERR_UNPACK_FAILURE : have_all(r, n, fixed);
        r->pos += PMIX_SUCCESS == rc ? n * fixed : 0;
        return rc;
    }
    for (size_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        rc = next_len(r, fixed, &len);
        if (PMIX_SUCCESS == rc && len != nt->root->min_wire) {
            rc = PMIX_ERR_UNPACK_FAILURE;
        }
        r->pos += PMIX_SUCCESS == rc ? len : 0;
    }
    return rc;
}

static pmix_status_t generic_unpack_array(drover_reader_t *r, void *dest, size_t n)
{
    const named_t *nt = current();
    uint32_t fixed, len;
    if (NULL == nt) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    size_t size = nt->root->size, done = 0;
    pmix_status_t rc = read_header(r, nt, &fixed);
    if (PMIX_SUCCESS == rc && GENERIC_EACH_ITS_OWN != fixed) {
        rc = have_all(r, n, fixed);
    }
    if (PMIX_SUCCESS == rc && NULL != nt->plan && fixed == nt->plan->data) {
        plan_unpack(nt->plan, r->pos, dest, n, size);
        r->pos += n * fixed;
        return PMIX_SUCCESS;
    }
    for (; done < n && PMIX_SUCCESS == rc; done++) {
        rc = next_len(r, fixed, &len);
        const uint8_t *start = r->pos;
        if (PMIX_SUCCESS == rc) {
            xfer_t x = {.r = r};
            rc = xfer_at(&x, nt->root, (char *)dest + done * size);
        }
        if (PMIX_SUCCESS == rc && (size_t)(r->pos - start) != len) {
            rc = PMIX_ERR_UNPACK_FAILURE;
        }
    }
    if (PMIX_SUCCESS != rc) {
        /* done counts the failed element too: it may hold pointees. */
        for (size_t i = 0; i < done; i++) {
            release_at(nt->root, (char *)dest + i * size, r->tma);
        }
        memset(dest, 0, n * size);
    }
    return rc;
}

static pmix_status_t generic_pack(drover_writer_t *w, const void *elem)
{
    return generic_pack_array(w, elem, 1);
}

static pmix_status_t generic_unpack(drover_reader_t *r, void *elem)
{
    return generic_unpack_array(r, elem, 1);
}

static pmix_status_t generic_copy(void *dest, const void *src, drover_tma_t *tma)
{
    const named_t *nt = current();
    if (NULL == nt) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    memset(dest, 0, nt->root->size);
    pmix_status_t rc = copy_at(nt->root, dest, src, tma);
    if (PMIX_SUCCESS != rc) {
        release_at(nt->root, dest, tma);
        memset(dest, 0, nt->root->size);
    }
    return rc;
}

static pmix_value_cmp_t generic_compare(const void *a, const void *b)
{
    const named_t *nt = current();
    return NULL == nt ? PMIX_VALUE_COMPARISON_NOT_AVAIL : compare_at(nt->root, a, b);
}

static char *generic_print(const void *elem)
{
    strbuf_t b = STRBUF_INIT;
    const named_t *nt = current();
    if (NULL == nt) {
        return NULL;
    }
    print_at(&b, nt->root, elem);
    return strbuf_finish(&b);
}

static void generic_release(void *elem, drover_tma_t *tma)
{
    const named_t *nt = current();
    if (NULL != nt) {
        release_at(nt->root, elem, tma);
    }
}

drover_datatype_t generic_record(const named_t *nt)
{
    return (drover_datatype_t){
        .name = nt->name,
        .id = nt->id,
        .size = nt->root->size,
        .min_wire = 0 == nt->root->min_wire ? 4 : nt->root->min_wire,
        .flags = 0,
        .pack = generic_pack,
        .unpack = generic_unpack,
        .copy = generic_copy,
        .compare = generic_compare,
        .print = generic_print,
        .release = generic_release,
        .check = nt->root->has_ptr ? NULL : generic_check,
        .pack_array = generic_pack_array,
        .unpack_array = generic_unpack_array,
    };
}
