/*
 * test_data_api.c - PMIx_Data_*: pack and unpack through data buffers,
 * payload moves, single-element copy and print, compression.
 */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "pmix.h"

static void buffer_init(pmix_data_buffer_t *b)
{
    memset(b, 0, sizeof(*b));
}

static void buffer_free(pmix_data_buffer_t *b)
{
    free(b->base_ptr);
    buffer_init(b);
}

/* ---- Pack and unpack --------------------------------------------------- */

START_TEST(several_types_and_counts_round_trip_in_order)
{
    pmix_data_buffer_t b;
    int32_t ints[3] = {-1, 0, INT32_MAX}, ints_out[5];
    char *strs[3] = {"one", NULL, ""}, *strs_out[3];
    bool flag = true, flag_out = false;
    uint64_t big = UINT64_MAX, big_out = 0;
    int32_t n;

    buffer_init(&b);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, ints, 3, PMIX_INT32), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, strs, 3, PMIX_STRING), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, &flag, 1, PMIX_BOOL), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, &big, 1, PMIX_UINT64), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, NULL, 0, PMIX_UINT64), PMIX_SUCCESS);

    n = 5;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, ints_out, &n, PMIX_INT32), PMIX_SUCCESS);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(ints_out[0], -1);
    ck_assert_int_eq(ints_out[2], INT32_MAX);
    n = 3;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, strs_out, &n, PMIX_STRING), PMIX_SUCCESS);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(strs_out[0], "one");
    ck_assert_ptr_null(strs_out[1]);
    ck_assert_str_eq(strs_out[2], "");
    free(strs_out[0]);
    free(strs_out[2]);
    n = 1;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &flag_out, &n, PMIX_BOOL), PMIX_SUCCESS);
    ck_assert(flag_out);
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &big_out, &n, PMIX_UINT64), PMIX_SUCCESS);
    ck_assert_uint_eq(big_out, UINT64_MAX);
    n = 1;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &big_out, &n, PMIX_UINT64), PMIX_SUCCESS);
    ck_assert_int_eq(n, 0);
    /* Everything has been read. */
    n = 1;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &big_out, &n, PMIX_UINT64),
                     PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    buffer_free(&b);
}
END_TEST

START_TEST(doubles_and_floats_are_bit_exact)
{
    pmix_data_buffer_t b;
    double d[5] = {-0.0, INFINITY, 4.9e-324, 0.1, 0.0}, d_out[5];
    uint64_t nan_bits = 0x7ff80000deadbeefULL;
    float f[2] = {-0.0f, 1.17549435e-38f}, f_out[2];
    int32_t n = 5;

    memcpy(&d[4], &nan_bits, sizeof(nan_bits));
    buffer_init(&b);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, d, 5, PMIX_DOUBLE), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, f, 2, PMIX_FLOAT), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, d_out, &n, PMIX_DOUBLE), PMIX_SUCCESS);
    ck_assert_int_eq(memcmp(d, d_out, sizeof(d)), 0);
    n = 2;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, f_out, &n, PMIX_FLOAT), PMIX_SUCCESS);
    ck_assert_int_eq(memcmp(f, f_out, sizeof(f)), 0);
    buffer_free(&b);
}
END_TEST

START_TEST(a_buffer_cut_short_is_refused_and_stays_usable)
{
    pmix_data_buffer_t b;
    char *strs[2] = {"first", "second"}, *out[2] = {"untouched", "untouched"};
    size_t full;
    char *pos;
    int32_t n = 2;

    buffer_init(&b);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, strs, 2, PMIX_STRING), PMIX_SUCCESS);
    full = b.bytes_used;
    pos = b.unpack_ptr;
    for (size_t cut = 0; cut < full; cut++) {
        b.bytes_used = cut;
        b.pack_ptr = b.base_ptr + cut;
        ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, out, &n, PMIX_STRING),
                         PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
        ck_assert_ptr_eq(b.unpack_ptr, pos);
        ck_assert_int_eq(n, 2);
        ck_assert_str_eq(out[0], "untouched");
        ck_assert_str_eq(out[1], "untouched");
    }
    b.bytes_used = full;
    b.pack_ptr = b.base_ptr + full;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, out, &n, PMIX_STRING), PMIX_SUCCESS);
    ck_assert_str_eq(out[1], "second");
    free(out[0]);
    free(out[1]);
    buffer_free(&b);
}
END_TEST

START_TEST(a_type_mismatch_is_refused_without_moving)
{
    pmix_data_buffer_t b;
    int32_t v = 42;
    int64_t wrong = 7;
    int32_t n = 1;

    buffer_init(&b);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, &v, 1, PMIX_INT32), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &wrong, &n, PMIX_INT64),
                     PMIX_ERR_TYPE_MISMATCH);
    ck_assert_int_eq(wrong, 7);
    ck_assert_ptr_eq(b.unpack_ptr, b.base_ptr);
    v = 0;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &v, &n, PMIX_INT32), PMIX_SUCCESS);
    ck_assert_int_eq(v, 42);
    buffer_free(&b);
}
END_TEST

START_TEST(more_values_than_room_is_inadequate_space)
{
    pmix_data_buffer_t b;
    uint16_t v[3] = {1, 2, 3}, out[3] = {9, 9, 9};
    int32_t n = 2;

    buffer_init(&b);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, v, 3, PMIX_UINT16), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, out, &n, PMIX_UINT16),
                     PMIX_ERR_UNPACK_INADEQUATE_SPACE);
    ck_assert_uint_eq(out[0], 9);
    ck_assert_ptr_eq(b.unpack_ptr, b.base_ptr);
    n = 0;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, out, &n, PMIX_UINT16),
                     PMIX_ERR_UNPACK_INADEQUATE_SPACE);
    n = -1;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, out, &n, PMIX_UINT16), PMIX_ERR_BAD_PARAM);
    n = 3;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, out, &n, PMIX_UINT16), PMIX_SUCCESS);
    ck_assert_uint_eq(out[2], 3);
    buffer_free(&b);
}
END_TEST

START_TEST(a_forged_count_is_refused)
{
    /* [u16 PMIX_UINT8][u32 0x7fffffff] and one byte: the count cannot fit. */
    char bytes[] = {PMIX_UINT8, 0, (char)0xff, (char)0xff, (char)0xff, 0x7f, 1};
    pmix_data_buffer_t b = {.base_ptr = bytes,
                            .pack_ptr = bytes + sizeof(bytes),
                            .unpack_ptr = bytes,
                            .bytes_allocated = sizeof(bytes),
                            .bytes_used = sizeof(bytes)};
    uint8_t out[4];
    int32_t n = INT32_MAX;

    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, out, &n, PMIX_UINT8),
                     PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    ck_assert_ptr_eq(b.unpack_ptr, bytes);
}
END_TEST

START_TEST(random_input_never_crashes_and_failures_leave_the_buffer_alone)
{
    static const pmix_data_type_t types[] = {PMIX_INT32, PMIX_STRING, PMIX_BYTE_OBJECT,
                                             PMIX_INFO, PMIX_VALUE, PMIX_DATA_ARRAY};
    uint32_t seed = 12345;
    char bytes[64];
    _Alignas(max_align_t) char out[8 * 1024];

    for (int round = 0; round < 3000; round++) {
        pmix_data_type_t type = types[round % 6];
        size_t len = (size_t)(round % (int)sizeof(bytes));
        pmix_data_buffer_t b;
        int32_t n = 8;

        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            bytes[i] = (char)(seed >> 16);
        }
        /* Half the time, a plausible header for the type being read. */
        if (len >= 6 && round % 2) {
            bytes[0] = (char)type;
            bytes[1] = 0;
            bytes[3] = bytes[4] = bytes[5] = 0;
        }
        b.base_ptr = bytes;
        b.pack_ptr = bytes + len;
        b.unpack_ptr = bytes;
        b.bytes_allocated = b.bytes_used = len;
        if (PMIX_SUCCESS == PMIx_Data_unpack(NULL, &b, out, &n, type)) {
            ck_assert_int_le(n, 8);
            ck_assert(b.unpack_ptr > bytes && b.unpack_ptr <= bytes + len);
            bfrops_release(out, (size_t)n, type, NULL);
        } else {
            ck_assert_ptr_eq(b.unpack_ptr, bytes);
            ck_assert_int_eq(n, 8);
        }
    }
}
END_TEST

START_TEST(inconsistent_buffers_and_bad_arguments_are_refused)
{
    pmix_data_buffer_t b;
    int32_t v = 1, n = 1;
    size_t used;

    buffer_init(&b);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, &v, 1, PMIX_INT32), PMIX_SUCCESS);
    used = b.bytes_used;
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, &v, -1, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, NULL, 1, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, &v, 1, 999), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_int_eq(PMIx_Data_pack(NULL, NULL, &v, 1, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    ck_assert_uint_eq(b.bytes_used, used);
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &v, &n, 999), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, NULL, &n, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &v, NULL, PMIX_INT32), PMIX_ERR_BAD_PARAM);

    b.unpack_ptr = b.base_ptr + used + 1;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &v, &n, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    b.unpack_ptr = b.base_ptr;
    b.pack_ptr = b.base_ptr + 1;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &v, &n, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, &v, 1, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    b.pack_ptr = b.base_ptr + used;
    b.bytes_used = b.bytes_allocated + 1;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &v, &n, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    b.bytes_used = used;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &v, &n, PMIX_INT32), PMIX_SUCCESS);
    buffer_free(&b);
}
END_TEST

/* ---- Payloads ---------------------------------------------------------- */

START_TEST(copy_payload_appends_what_is_left_unread)
{
    pmix_data_buffer_t src, dest;
    int32_t v[2] = {5, 6}, out = 0, n = 1;
    char *s = "tail", *s_out = NULL;

    buffer_init(&src);
    buffer_init(&dest);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &src, &v[0], 1, PMIX_INT32), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &src, &s, 1, PMIX_STRING), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &src, &out, &n, PMIX_INT32), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &dest, &v[1], 1, PMIX_INT32), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_copy_payload(&dest, &src), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &dest, &out, &n, PMIX_INT32), PMIX_SUCCESS);
    ck_assert_int_eq(out, 6);
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &dest, &s_out, &n, PMIX_STRING), PMIX_SUCCESS);
    ck_assert_str_eq(s_out, "tail");
    free(s_out);
    /* The source is untouched and still holds its unread string. */
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &src, &s_out, &n, PMIX_STRING), PMIX_SUCCESS);
    free(s_out);
    ck_assert_int_eq(PMIx_Data_copy_payload(&dest, &dest), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Data_copy_payload(NULL, &src), PMIX_ERR_BAD_PARAM);
    buffer_free(&src);
    buffer_free(&dest);
}
END_TEST

START_TEST(unload_then_load_moves_the_payload)
{
    pmix_data_buffer_t b;
    pmix_byte_object_t bo;
    uint32_t v[2] = {10, 20};
    int32_t n = 1;
    char *base;

    buffer_init(&b);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &b, v, 2, PMIX_UINT32), PMIX_SUCCESS);
    base = b.base_ptr;
    ck_assert_int_eq(PMIx_Data_unload(&b, &bo), PMIX_SUCCESS);
    /* Nothing had been unpacked: the block itself is handed over. */
    ck_assert_ptr_eq(bo.bytes, base);
    ck_assert_ptr_null(b.base_ptr);
    ck_assert_uint_eq(b.bytes_used, 0);
    ck_assert_int_eq(PMIx_Data_load(&b, &bo), PMIX_SUCCESS);
    ck_assert_ptr_null(bo.bytes);
    ck_assert_uint_eq(bo.size, 0);
    ck_assert_ptr_eq(b.base_ptr, base);
    n = 2;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, v, &n, PMIX_UINT32), PMIX_SUCCESS);
    ck_assert_uint_eq(v[1], 20);
    buffer_free(&b);
}
END_TEST

START_TEST(unload_after_a_partial_unpack_copies_the_rest)
{
    pmix_data_buffer_t b;
    pmix_byte_object_t bo;
    int16_t a = 1, c = 3, out = 0;
    int32_t n = 1;

    buffer_init(&b);
    PMIx_Data_pack(NULL, &b, &a, 1, PMIX_INT16);
    PMIx_Data_pack(NULL, &b, &c, 1, PMIX_INT16);
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &out, &n, PMIX_INT16), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Data_unload(&b, &bo), PMIX_SUCCESS);
    ck_assert_ptr_null(b.base_ptr);
    ck_assert_uint_eq(bo.size, 2 + 4 + 2);
    ck_assert_int_eq(PMIx_Data_embed(&b, &bo), PMIX_SUCCESS);
    ck_assert_ptr_nonnull(bo.bytes);
    ck_assert_ptr_ne(b.base_ptr, bo.bytes);
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &b, &out, &n, PMIX_INT16), PMIX_SUCCESS);
    ck_assert_int_eq(out, 3);
    free(bo.bytes);
    /* Everything read: unloading yields an empty payload. */
    ck_assert_int_eq(PMIx_Data_unload(&b, &bo), PMIX_SUCCESS);
    ck_assert_ptr_null(bo.bytes);
    ck_assert_uint_eq(bo.size, 0);
    ck_assert_ptr_null(b.base_ptr);
}
END_TEST

START_TEST(load_and_embed_replace_the_contents)
{
    pmix_data_buffer_t b;
    pmix_byte_object_t bo = {.bytes = NULL, .size = 5};
    int32_t v = 1;

    buffer_init(&b);
    PMIx_Data_pack(NULL, &b, &v, 1, PMIX_INT32);
    ck_assert_int_eq(PMIx_Data_load(&b, &bo), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Data_embed(&b, &bo), PMIX_ERR_BAD_PARAM);
    ck_assert_ptr_nonnull(b.base_ptr);
    ck_assert_int_eq(PMIx_Data_load(&b, NULL), PMIX_SUCCESS);
    ck_assert_ptr_null(b.base_ptr);
    ck_assert_int_eq(PMIx_Data_load(NULL, &bo), PMIX_ERR_BAD_PARAM);
    bo.bytes = strdup("");
    bo.size = 0;
    ck_assert_int_eq(PMIx_Data_load(&b, &bo), PMIX_SUCCESS);
    ck_assert_ptr_null(b.base_ptr);
    ck_assert_ptr_null(bo.bytes);
    ck_assert_int_eq(PMIx_Data_embed(&b, NULL), PMIX_SUCCESS);
    ck_assert_ptr_null(b.base_ptr);
}
END_TEST

/* ---- Single elements --------------------------------------------------- */

START_TEST(copy_gives_a_new_element_the_caller_frees)
{
    int64_t v = -9;
    char *s = "copied";
    void *ptr = &v;
    int64_t *vc = NULL;
    char *sc = NULL;
    void **pc = NULL;
    pmix_proc_t p = {.nspace = "ns", .rank = 2}, *p_copy = NULL;

    ck_assert_int_eq(PMIx_Data_copy((void **)&vc, &v, PMIX_INT64), PMIX_SUCCESS);
    ck_assert_ptr_ne(vc, &v);
    ck_assert_int_eq(*vc, -9);
    ck_assert_int_eq(PMIx_Data_copy((void **)&sc, s, PMIX_STRING), PMIX_SUCCESS);
    ck_assert_ptr_ne(sc, s);
    ck_assert_str_eq(sc, "copied");
    /* A pointer is copied into a new cell, as OpenPMIx does. */
    ck_assert_int_eq(PMIx_Data_copy((void **)&pc, &ptr, PMIX_POINTER), PMIX_SUCCESS);
    ck_assert_ptr_ne(pc, &ptr);
    ck_assert_ptr_eq(*pc, &v);
    ck_assert_int_eq(PMIx_Data_copy((void **)&p_copy, &p, PMIX_PROC), PMIX_SUCCESS);
    ck_assert_str_eq(p_copy->nspace, "ns");
    ck_assert_uint_eq(p_copy->rank, 2);
    ck_assert_int_eq(PMIx_Data_copy((void **)&vc, NULL, PMIX_INT64), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Data_copy(NULL, &v, PMIX_INT64), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Data_copy((void **)&vc, &v, 999), PMIX_ERR_UNKNOWN_DATA_TYPE);
    free(vc);
    free(sc);
    free(pc);
    free(p_copy);
}
END_TEST

START_TEST(print_names_the_type_and_the_value)
{
    char *out = NULL;
    int32_t v = -5;

    ck_assert_int_eq(PMIx_Data_print(&out, "PFX:", &v, PMIX_INT32), PMIX_SUCCESS);
    ck_assert_str_eq(out, "PFX:Data type: PMIX_INT32\tValue: -5");
    free(out);
    ck_assert_int_eq(PMIx_Data_print(&out, NULL, "text", PMIX_STRING), PMIX_SUCCESS);
    ck_assert_ptr_eq(strstr(out, " Data type: PMIX_STRING"), out);
    ck_assert_ptr_nonnull(strstr(out, "text"));
    free(out);
    ck_assert_int_eq(PMIx_Data_print(&out, NULL, NULL, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Data_print(&out, NULL, &v, 999), PMIX_ERR_UNKNOWN_DATA_TYPE);
}
END_TEST

START_TEST(data_array_destruct_frees_the_elements)
{
    pmix_data_array_t d;
    char **strs = calloc(2, sizeof(char *));

    strs[0] = strdup("a");
    strs[1] = strdup("b");
    d.type = PMIX_STRING;
    d.size = 2;
    d.array = strs;
    PMIx_Data_array_destruct(&d);
    ck_assert_ptr_null(d.array);
    ck_assert_uint_eq(d.size, 0);
    ck_assert_int_eq(d.type, PMIX_UNDEF);
    PMIx_Data_array_destruct(NULL);
}
END_TEST

/* ---- Compression ------------------------------------------------------- */

static uint8_t *compressible(size_t n)
{
    uint8_t *p = malloc(n);

    for (size_t i = 0; i < n; i++) {
        p[i] = (uint8_t)("abcabcabd"[i % 9]);
    }
    return p;
}

START_TEST(compress_and_decompress_round_trip)
{
    size_t n = 100000, clen = 0, dlen = 0;
    uint8_t *in = compressible(n), *c = NULL, *d = NULL;

    ck_assert(PMIx_Data_compress(in, n, &c, &clen));
    ck_assert_uint_lt(clen, n);
    /* The header records the size, little-endian. */
    ck_assert_uint_eq(c[0] | c[1] << 8 | c[2] << 16 | (uint32_t)c[3] << 24, n);
    ck_assert(PMIx_Data_decompress(c, clen, &d, &dlen));
    ck_assert_uint_eq(dlen, n);
    ck_assert_int_eq(memcmp(in, d, n), 0);
    free(in);
    free(c);
    free(d);
}
END_TEST

START_TEST(incompressible_or_empty_input_is_not_compressed)
{
    uint8_t tiny[3] = {1, 2, 3}, *c = (uint8_t *)"sentinel";
    size_t clen = 77;

    ck_assert(!PMIx_Data_compress(tiny, sizeof(tiny), &c, &clen));
    ck_assert(!PMIx_Data_compress(tiny, 0, &c, &clen));
    ck_assert(!PMIx_Data_compress(NULL, 10, &c, &clen));
    ck_assert_str_eq((char *)c, "sentinel");
    ck_assert_uint_eq(clen, 77);
}
END_TEST

START_TEST(a_forged_size_header_is_rejected)
{
    size_t n = 5000, clen = 0, dlen = 0;
    uint8_t *in = compressible(n), *c = NULL, *d = NULL;

    ck_assert(PMIx_Data_compress(in, n, &c, &clen));
    /* Claiming 4 GiB - 1: beyond any sane limit and what the input holds. */
    memset(c, 0xff, 4);
    ck_assert(!PMIx_Data_decompress(c, clen, &d, &dlen));
    /* One byte more or less than the stream really produces. */
    c[0] = (uint8_t)(n + 1);
    c[1] = (uint8_t)((n + 1) >> 8);
    c[2] = c[3] = 0;
    ck_assert(!PMIx_Data_decompress(c, clen, &d, &dlen));
    c[0] = (uint8_t)(n - 1);
    c[1] = (uint8_t)((n - 1) >> 8);
    ck_assert(!PMIx_Data_decompress(c, clen, &d, &dlen));
    c[0] = (uint8_t)n;
    c[1] = (uint8_t)(n >> 8);
    /* Truncated streams and short inputs. */
    ck_assert(!PMIx_Data_decompress(c, clen - 1, &d, &dlen));
    ck_assert(!PMIx_Data_decompress(c, 4, &d, &dlen));
    ck_assert(!PMIx_Data_decompress(NULL, clen, &d, &dlen));
    ck_assert_ptr_null(d);
    ck_assert_uint_eq(dlen, 0);
    ck_assert(PMIx_Data_decompress(c, clen, &d, &dlen));
    ck_assert_uint_eq(dlen, n);
    free(in);
    free(c);
    free(d);
}
END_TEST

START_TEST(trailing_garbage_after_the_stream_is_rejected)
{
    size_t n = 5000, clen = 0, dlen = 0;
    uint8_t *in = compressible(n), *c = NULL, *d = NULL, *longer;

    ck_assert(PMIx_Data_compress(in, n, &c, &clen));
    longer = malloc(clen + 1);
    memcpy(longer, c, clen);
    longer[clen] = 0;
    ck_assert(!PMIx_Data_decompress(longer, clen + 1, &d, &dlen));
    ck_assert_ptr_null(d);
    free(longer);
    free(in);
    free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("data_api");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, several_types_and_counts_round_trip_in_order);
    tcase_add_test(tc, doubles_and_floats_are_bit_exact);
    tcase_add_test(tc, a_buffer_cut_short_is_refused_and_stays_usable);
    tcase_add_test(tc, a_type_mismatch_is_refused_without_moving);
    tcase_add_test(tc, more_values_than_room_is_inadequate_space);
    tcase_add_test(tc, a_forged_count_is_refused);
    tcase_add_test(tc, random_input_never_crashes_and_failures_leave_the_buffer_alone);
    tcase_add_test(tc, inconsistent_buffers_and_bad_arguments_are_refused);
    tcase_add_test(tc, copy_payload_appends_what_is_left_unread);
    tcase_add_test(tc, unload_then_load_moves_the_payload);
    tcase_add_test(tc, unload_after_a_partial_unpack_copies_the_rest);
    tcase_add_test(tc, load_and_embed_replace_the_contents);
    tcase_add_test(tc, copy_gives_a_new_element_the_caller_frees);
    tcase_add_test(tc, print_names_the_type_and_the_value);
    tcase_add_test(tc, data_array_destruct_frees_the_elements);
    tcase_add_test(tc, compress_and_decompress_round_trip);
    tcase_add_test(tc, incompressible_or_empty_input_is_not_compressed);
    tcase_add_test(tc, a_forged_size_header_is_rejected);
    tcase_add_test(tc, trailing_garbage_after_the_stream_is_rejected);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
