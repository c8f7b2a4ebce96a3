/*
 * type_harness.c - the table-driven datatype test (see type_harness.h).
 *
 * Design notes:
 *  - Every unpack and copy allocates through a counting allocator, so the
 *    harness itself sees whether release gave everything back (ASan checks
 *    the same thing again from outside) and whether a corrupted length ever
 *    asked for a block out of proportion to the input.
 *  - Inputs are copied into heap blocks of exactly their length, so ASan
 *    reports any read past the end the unpack was given.
 *  - Corruption is applied at every offset of short inputs; for long ones
 *    (a topology's XML) the first bytes, where the headers are, are always
 *    covered and the rest is sampled, to keep the run time bounded.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "type_harness.h"

/* ---- A counting allocator ------------------------------------------------ */

typedef struct counting_tma {
    drover_tma_t tma;       /* first, so the handle converts back */
    long live;              /* blocks allocated and not yet freed */
    size_t limit;           /* largest block it will hand out */
    bool oversize;          /* a request above limit was made */
} counting_tma_t;

static counting_tma_t *counting_of(drover_tma_t *tma)
{
    return (counting_tma_t *)tma;
}

static void *counting_malloc(drover_tma_t *tma, size_t size)
{
    counting_tma_t *c = counting_of(tma);
    if (size > c->limit) {
        c->oversize = true;
        return NULL;
    }
    void *p = malloc(0 == size ? 1 : size);
    if (NULL != p) {
        c->live++;
    }
    return p;
}

static void *counting_calloc(drover_tma_t *tma, size_t nmemb, size_t size)
{
    counting_tma_t *c = counting_of(tma);
    if (0 != nmemb && size > c->limit / nmemb) {
        c->oversize = true;
        return NULL;
    }
    void *p = calloc(0 == nmemb ? 1 : nmemb, 0 == size ? 1 : size);
    if (NULL != p) {
        c->live++;
    }
    return p;
}

static void *counting_realloc(drover_tma_t *tma, void *ptr, size_t size)
{
    counting_tma_t *c = counting_of(tma);
    if (size > c->limit) {
        c->oversize = true;
        return NULL;
    }
    void *p = realloc(ptr, 0 == size ? 1 : size);
    if (NULL != p && NULL == ptr) {
        c->live++;
    }
    return p;
}

static char *counting_strdup(drover_tma_t *tma, const char *s)
{
    size_t len = strlen(s) + 1;
    char *p = counting_malloc(tma, len);
    if (NULL != p) {
        memcpy(p, s, len);
    }
    return p;
}

static void counting_free(drover_tma_t *tma, void *ptr)
{
    if (NULL != ptr) {
        counting_of(tma)->live--;
        free(ptr);
    }
}

/* A counting allocator for unpacking an input of input_len bytes. The
 * limit allows an element far larger in memory than on the wire (an array
 * of pmix_info_t from a few bytes each) while refusing anything a forged
 * length would ask for. Copies pass SIZE_MAX / 1024: no limit. */
static void counting_init(counting_tma_t *c, size_t input_len)
{
    memset(c, 0, sizeof(*c));
    c->tma.malloc = counting_malloc;
    c->tma.calloc = counting_calloc;
    c->tma.realloc = counting_realloc;
    c->tma.strdup = counting_strdup;
    c->tma.free = counting_free;
    c->limit = input_len >= SIZE_MAX / 1024 - ((size_t)1 << 20)
                   ? SIZE_MAX
                   : ((size_t)1 << 20) + 1024 * input_len;
}

/* ---- Helpers -------------------------------------------------------------- */

/* How many copies of the sample the tagged tests pack. */
#define NCOPIES 3

/* Bytes at the start of an input that corruption always covers, and the
 * most offsets it tries in the rest. */
#define CORRUPT_HEAD 64
#define CORRUPT_TAIL_BUDGET 192

typedef struct sample_ctx {
    const type_sample_t *sample;
    const drover_datatype_t *type;
    const char *label;
} sample_ctx_t;

static bool all_zero(const void *p, size_t len)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < len; i++) {
        if (0 != b[i]) {
            return false;
        }
    }
    return true;
}

/* A heap block holding exactly len bytes of src (at least one byte is
 * allocated so a zero-length input still has a valid address). */
static uint8_t *exact_copy(const uint8_t *src, size_t len)
{
    uint8_t *copy = malloc(0 == len ? 1 : len);
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, src, len);
    return copy;
}

static drover_reader_t reader_over(const uint8_t *bytes, size_t len, counting_tma_t *tma)
{
    drover_reader_t r = {.pos = bytes, .end = bytes + len, .tma = &tma->tma, .depth = 0};
    return r;
}

/* NCOPIES deep copies of the sample, laid out as an array; freed with
 * free_copies. */
static void *make_copies(const sample_ctx_t *ctx)
{
    void *copies = calloc(NCOPIES, ctx->type->size);
    ck_assert_ptr_nonnull(copies);
    for (size_t i = 0; i < NCOPIES; i++) {
        pmix_status_t rc = bfrops_copy((char *)copies + i * ctx->type->size, ctx->sample->elem,
                                       1, ctx->sample->type, NULL);
        ck_assert_msg(PMIX_SUCCESS == rc, "%s: copy for the array returned %d", ctx->label, rc);
    }
    return copies;
}

static void free_copies(const sample_ctx_t *ctx, void *copies)
{
    bfrops_release(copies, NCOPIES, ctx->sample->type, NULL);
    free(copies);
}

/* ---- The checks ------------------------------------------------------------ */

static void check_print(const sample_ctx_t *ctx, const void *elem, const char *what)
{
    char *text = bfrops_print(elem, ctx->sample->type);
    ck_assert_msg(NULL != text && '\0' != text[0], "%s: print of the %s gives text",
                  ctx->label, what);
    free(text);
}

/* One element through drover_pack and drover_unpack, untagged. */
static void check_single_roundtrip(const sample_ctx_t *ctx)
{
    pmix_data_buffer_t buf = {0};
    drover_writer_t w = {.buf = &buf};
    pmix_status_t rc = drover_pack(&w, ctx->sample->elem, 1, ctx->sample->type);
    ck_assert_msg(PMIX_SUCCESS == rc, "%s: pack returned %d", ctx->label, rc);
    ck_assert_msg(buf.bytes_used >= ctx->type->min_wire,
                  "%s: packed %zu bytes, fewer than min_wire %zu", ctx->label, buf.bytes_used,
                  ctx->type->min_wire);
    ck_assert_msg(buf.pack_ptr == buf.base_ptr + buf.bytes_used, "%s: pack_ptr follows",
                  ctx->label);

    uint8_t *bytes = exact_copy((uint8_t *)buf.base_ptr, buf.bytes_used);
    counting_tma_t tma;
    counting_init(&tma, buf.bytes_used);
    drover_reader_t r = reader_over(bytes, buf.bytes_used, &tma);
    void *out = calloc(1, ctx->type->size);
    ck_assert_ptr_nonnull(out);
    rc = drover_unpack(&r, out, 1, ctx->sample->type);
    ck_assert_msg(PMIX_SUCCESS == rc, "%s: unpack returned %d", ctx->label, rc);
    ck_assert_msg(r.pos == r.end, "%s: unpack consumed %td of %zu bytes", ctx->label,
                  r.pos - bytes, buf.bytes_used);
    ck_assert_msg(PMIX_EQUAL == bfrops_compare(ctx->sample->elem, out, 1, ctx->sample->type),
                  "%s: the unpacked element equals the sample", ctx->label);
    ck_assert_msg(PMIX_EQUAL == bfrops_compare(out, ctx->sample->elem, 1, ctx->sample->type),
                  "%s: the sample equals the unpacked element", ctx->label);
    check_print(ctx, out, "unpacked element");
    bfrops_release(out, 1, ctx->sample->type, &tma.tma);
    ck_assert_msg(0 == tma.live, "%s: release left %ld blocks of the unpack", ctx->label,
                  tma.live);
    ck_assert_msg(all_zero(out, ctx->type->size), "%s: release zeroes the element", ctx->label);
    free(out);
    free(bytes);
    free(buf.base_ptr);
}

/* Pack NCOPIES copies in the tagged form; the caller frees *bytes. */
static void pack_copies(const sample_ctx_t *ctx, uint8_t **bytes, size_t *len)
{
    void *copies = make_copies(ctx);
    pmix_data_buffer_t buf = {0};
    drover_writer_t w = {.buf = &buf};
    pmix_status_t rc = bfrops_pack_tagged(&w, copies, NCOPIES, ctx->sample->type);
    ck_assert_msg(PMIX_SUCCESS == rc, "%s: tagged pack returned %d", ctx->label, rc);
    *bytes = exact_copy((uint8_t *)buf.base_ptr, buf.bytes_used);
    *len = buf.bytes_used;
    free(buf.base_ptr);
    free_copies(ctx, copies);
}

static void check_tagged_roundtrip(const sample_ctx_t *ctx, const uint8_t *bytes, size_t len)
{
    counting_tma_t tma;
    counting_init(&tma, len);
    drover_reader_t r = reader_over(bytes, len, &tma);
    void *out = calloc(NCOPIES, ctx->type->size);
    ck_assert_ptr_nonnull(out);
    size_t n = NCOPIES;
    pmix_status_t rc = bfrops_unpack_tagged(&r, out, &n, ctx->sample->type);
    ck_assert_msg(PMIX_SUCCESS == rc, "%s: tagged unpack returned %d", ctx->label, rc);
    ck_assert_msg(NCOPIES == n, "%s: tagged unpack read %zu elements", ctx->label, n);
    ck_assert_msg(r.pos == r.end, "%s: tagged unpack consumed all bytes", ctx->label);
    for (size_t i = 0; i < NCOPIES; i++) {
        ck_assert_msg(PMIX_EQUAL == bfrops_compare(ctx->sample->elem,
                                                   (char *)out + i * ctx->type->size, 1,
                                                   ctx->sample->type),
                      "%s: tagged element %zu equals the sample", ctx->label, i);
    }
    bfrops_release(out, NCOPIES, ctx->sample->type, &tma.tma);
    ck_assert_msg(0 == tma.live, "%s: release left %ld blocks of the tagged unpack", ctx->label,
                  tma.live);

    /* Room for fewer elements than were packed is refused, and changes
     * nothing. */
    n = NCOPIES - 1;
    r = reader_over(bytes, len, &tma);
    rc = bfrops_unpack_tagged(&r, out, &n, ctx->sample->type);
    ck_assert_msg(PMIX_ERR_UNPACK_INADEQUATE_SPACE == rc, "%s: short room returned %d",
                  ctx->label, rc);
    ck_assert_msg(r.pos == bytes && 0 == tma.live, "%s: a refused unpack changes nothing",
                  ctx->label);
    free(out);
}

static void check_copy(const sample_ctx_t *ctx)
{
    counting_tma_t tma;
    counting_init(&tma, SIZE_MAX / 1024);
    void *out = calloc(1, ctx->type->size);
    ck_assert_ptr_nonnull(out);
    pmix_status_t rc = bfrops_copy(out, ctx->sample->elem, 1, ctx->sample->type, &tma.tma);
    ck_assert_msg(PMIX_SUCCESS == rc, "%s: copy returned %d", ctx->label, rc);
    ck_assert_msg(PMIX_EQUAL == bfrops_compare(ctx->sample->elem, out, 1, ctx->sample->type),
                  "%s: the copy equals the sample", ctx->label);
    bfrops_release(out, 1, ctx->sample->type, &tma.tma);
    ck_assert_msg(0 == tma.live, "%s: release left %ld blocks of the copy", ctx->label,
                  tma.live);
    free(out);
}

/* Unpack NCOPIES elements from len bytes at src (copied to an exact block)
 * and check the outcome is clean. Returns the unpack's status. */
static pmix_status_t try_unpack(const sample_ctx_t *ctx, const uint8_t *src, size_t len)
{
    uint8_t *bytes = exact_copy(src, len);
    counting_tma_t tma;
    counting_init(&tma, len);
    drover_reader_t r = reader_over(bytes, len, &tma);
    void *out = calloc(NCOPIES, ctx->type->size);
    ck_assert_ptr_nonnull(out);
    size_t n = NCOPIES;
    pmix_status_t rc = bfrops_unpack_tagged(&r, out, &n, ctx->sample->type);
    ck_assert_msg(!tma.oversize, "%s: a %zu-byte input asked for a block above %zu bytes",
                  ctx->label, len, tma.limit);
    if (PMIX_SUCCESS == rc) {
        ck_assert_msg(n <= NCOPIES, "%s: unpack wrote %zu elements", ctx->label, n);
        /* Whatever decoded must be usable: compared, printed, released. */
        (void)bfrops_compare(out, out, n, ctx->sample->type);
        for (size_t i = 0; i < n; i++) {
            free(bfrops_print((char *)out + i * ctx->type->size, ctx->sample->type));
        }
        bfrops_release(out, n, ctx->sample->type, &tma.tma);
        ck_assert_msg(0 == tma.live, "%s: release left %ld blocks of a corrupted unpack",
                      ctx->label, tma.live);
    } else {
        ck_assert_msg(0 == tma.live, "%s: a failed unpack (%d) left %ld blocks", ctx->label, rc,
                      tma.live);
        ck_assert_msg(all_zero(out, NCOPIES * ctx->type->size),
                      "%s: a failed unpack (%d) leaves the destination zeroed", ctx->label, rc);
        ck_assert_msg(r.pos == bytes, "%s: a failed tagged unpack leaves the reader alone",
                      ctx->label);
    }
    free(out);
    free(bytes);
    return rc;
}

static void check_truncation(const sample_ctx_t *ctx, const uint8_t *bytes, size_t len)
{
    for (size_t cut = 0; cut < len; cut++) {
        pmix_status_t rc = try_unpack(ctx, bytes, cut);
        ck_assert_msg(PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER == rc ||
                          PMIX_ERR_UNPACK_FAILURE == rc,
                      "%s: input cut to %zu of %zu bytes returned %d", ctx->label, cut, len, rc);
    }
}

/* The offsets of a len-byte input that corruption visits, one at a time:
 * all of the head, then a sample of the tail. */
static size_t next_offset(size_t off, size_t len)
{
    if (off < CORRUPT_HEAD || len <= CORRUPT_HEAD + CORRUPT_TAIL_BUDGET) {
        return off + 1;
    }
    size_t stride = (len - CORRUPT_HEAD) / CORRUPT_TAIL_BUDGET + 1;
    return off + stride;
}

/* Write pattern (plen bytes) over the input at every visited offset. */
static void overwrite_everywhere(const sample_ctx_t *ctx, const uint8_t *bytes, size_t len,
                                 const uint8_t *pattern, size_t plen)
{
    uint8_t *work = exact_copy(bytes, len);
    for (size_t off = 0; off + plen <= len; off = next_offset(off, len)) {
        memcpy(work, bytes, len);
        memcpy(work + off, pattern, plen);
        try_unpack(ctx, work, len);
    }
    free(work);
}

static void check_corruption(const sample_ctx_t *ctx, const uint8_t *bytes, size_t len)
{
    uint8_t *work = malloc(len + 4);
    ck_assert_ptr_nonnull(work);

    for (size_t off = 0; off < len; off = next_offset(off, len)) {
        for (unsigned bit = 0; bit < 8; bit++) {
            memcpy(work, bytes, len);
            work[off] ^= (uint8_t)(1u << bit);
            try_unpack(ctx, work, len);
        }
    }

    static const uint8_t null_len[] = {0xff, 0xff, 0xff, 0xff};
    static const uint8_t huge_count[] = {0xfe, 0xff, 0xff, 0xff};
    static const uint8_t two_pow_60[] = {0, 0, 0, 0, 0, 0, 0, 0x10};
    static const uint8_t half_range[] = {0x00, 0x00, 0x00, 0x80};
    overwrite_everywhere(ctx, bytes, len, null_len, sizeof(null_len));
    overwrite_everywhere(ctx, bytes, len, huge_count, sizeof(huge_count));
    overwrite_everywhere(ctx, bytes, len, two_pow_60, sizeof(two_pow_60));
    overwrite_everywhere(ctx, bytes, len, half_range, sizeof(half_range));

    /* Four 0xff bytes inserted at each visited offset, shifting the rest. */
    for (size_t off = 0; off <= len; off = next_offset(off, len + 1)) {
        memcpy(work, bytes, off);
        memcpy(work + off, null_len, sizeof(null_len));
        memcpy(work + off + sizeof(null_len), bytes + off, len - off);
        try_unpack(ctx, work, len + sizeof(null_len));
    }
    free(work);
}

void type_harness_check_sample(const type_sample_t *sample)
{
    char fallback[64];
    sample_ctx_t ctx = {.sample = sample};
    if (NULL == sample->label) {
        snprintf(fallback, sizeof(fallback), "type %u", (unsigned)sample->type);
        ctx.label = fallback;
    } else {
        ctx.label = sample->label;
    }
    ctx.type = bfrops_lookup(sample->type);
    ck_assert_msg(NULL != ctx.type, "%s: type %u is registered", ctx.label,
                  (unsigned)sample->type);
    ck_assert_msg(NULL != sample->elem, "%s: the sample has an element", ctx.label);

    check_print(&ctx, sample->elem, "sample");
    check_single_roundtrip(&ctx);
    check_copy(&ctx);

    uint8_t *bytes;
    size_t len;
    pack_copies(&ctx, &bytes, &len);
    check_tagged_roundtrip(&ctx, bytes, len);
    check_truncation(&ctx, bytes, len);
    check_corruption(&ctx, bytes, len);
    free(bytes);
}

/* ---- Coverage -------------------------------------------------------------- */

#define DATATYPE(name, kind) extern const drover_datatype_t bfrops_type_##name;
#include "datatypes.def"
#undef DATATYPE

static const struct {
    const drover_datatype_t *record;
    type_harness_kind_t kind;
} builtins[] = {
#define DATATYPE(name, kind) {&bfrops_type_##name, TYPE_HARNESS_##kind},
#include "datatypes.def"
#undef DATATYPE
};

void type_harness_check_coverage(const type_sample_t *samples, size_t n,
                                 type_harness_kind_t kind)
{
    for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
        const drover_datatype_t *record = builtins[i].record;
        ck_assert_msg(bfrops_lookup(record->id) == record, "%s is registered under id %u",
                      record->name, (unsigned)record->id);
        if (builtins[i].kind != kind) {
            continue;
        }
        bool found = false;
        for (size_t j = 0; j < n && !found; j++) {
            found = samples[j].type == record->id;
        }
        ck_assert_msg(found, "%s has a sample", record->name);
    }
}

/* ---- The Check test case ---------------------------------------------------- */

static const type_sample_t *tc_samples;
static size_t tc_nsamples;
static type_harness_kind_t tc_kind;

START_TEST(each_sample_passes_every_check)
{
    type_harness_check_sample(&tc_samples[_i]);
}
END_TEST

START_TEST(every_builtin_type_has_a_sample)
{
    type_harness_check_coverage(tc_samples, tc_nsamples, tc_kind);
}
END_TEST

TCase *type_harness_tcase(const char *name, const type_sample_t *samples, size_t n,
                          type_harness_kind_t kind)
{
    tc_samples = samples;
    tc_nsamples = n;
    tc_kind = kind;
    TCase *tc = tcase_create(name);
    /* A sample with a long packed form (a topology) runs thousands of
     * unpacks; under ASan that takes more than Check's default 4 s. */
    tcase_set_timeout(tc, 100);
    tcase_add_loop_test(tc, each_sample_passes_every_check, 0, (int)n);
    tcase_add_test(tc, every_builtin_type_has_a_sample);
    return tc;
}
