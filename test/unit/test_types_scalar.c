/*
 * test_types_scalar.c - the scalar, text and byte-object datatypes, the
 * wire cursors and the registry's dispatch.
 *
 * Every scalar type has samples in the harness table (type_harness.h);
 * the tests below pin what the harness cannot know: exact wire bytes,
 * bit-exact floating point, malformed input particular to a type, and how
 * values print and order.
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "type_harness.h"

/* ---- Samples ---------------------------------------------------------------- */

static const bool s_true = true, s_false = false;
static const uint8_t s_byte = 0xa5;
static const int s_int = -42;
static const int8_t s_int8 = INT8_MIN;
static const int16_t s_int16 = INT16_MIN;
static const int32_t s_int32 = INT32_MIN;
static const int64_t s_int64 = INT64_MIN;
static const unsigned int s_uint = UINT32_MAX;
static const uint8_t s_uint8 = UINT8_MAX;
static const uint16_t s_uint16 = 0x0102;
static const uint32_t s_uint32 = 0x01020304;
static const uint64_t s_uint64 = UINT64_MAX;
static const size_t s_size = SIZE_MAX;
static const pid_t s_pid = 31337;
static const pmix_status_t s_status = PMIX_ERR_NOT_FOUND;
static const pmix_rank_t s_rank = 7, s_wildcard = PMIX_RANK_WILDCARD;
static const float s_float = 3.14159274f, s_float_neg_zero = -0.0f;
static const uint32_t s_float_nan_bits = 0x7fc01234u;
static const double s_double = -2.718281828459045, s_double_max = DBL_MAX,
                    s_double_denormal = DBL_TRUE_MIN;
static const uint64_t s_double_nan_bits = 0xfff8000000000abcull;
static const time_t s_time = 1700000000;
static const struct timeval s_timeval = {1700000000, 123456};
static const struct timeval s_timeval_odd = {-5, 2000000};
static const pmix_persistence_t s_persist = PMIX_PERSIST_SESSION;
static const pmix_scope_t s_scope = PMIX_GLOBAL;
static const pmix_data_range_t s_range = PMIX_RANGE_NAMESPACE;
static const uint8_t s_command = 12;
static const pmix_info_directives_t s_directives = PMIX_INFO_REQD | PMIX_INFO_ARRAY_END;
static const pmix_data_type_t s_data_type = PMIX_STRING;
static const pmix_proc_state_t s_proc_state = PMIX_PROC_STATE_RUNNING;
static const pmix_alloc_directive_t s_alloc = PMIX_ALLOC_EXTEND;
static const pmix_iof_channel_t s_iof = PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL;
static const pmix_job_state_t s_job_state = PMIX_JOB_STATE_RUNNING;
static const pmix_link_state_t s_link_state = PMIX_LINK_UP;
static const pmix_device_type_t s_devtype = PMIX_DEVTYPE_GPU | PMIX_DEVTYPE_NETWORK;
static const pmix_locality_t s_locality = PMIX_LOCALITY_SHARE_NODE;
static const pmix_storage_medium_t s_medium = PMIX_STORAGE_MEDIUM_SSD;
static const pmix_storage_accessibility_t s_access = PMIX_STORAGE_ACCESSIBILITY_NODE;
static const pmix_storage_persistence_t s_stor_persist = PMIX_STORAGE_PERSISTENCE_JOB;
static const pmix_storage_access_type_t s_access_type = PMIX_STORAGE_ACCESS_RDWR;
static const char *const s_string = "hello, \"world\"\n\xc3\xa9";
static const char *const s_empty = "";
static const char *const s_null = NULL;
static const char *const s_regex = "pmix[3:0-2]@node[2:00-15]";
static const pmix_nspace_t s_nspace = "drover-job-1";
static pmix_nspace_t s_nspace_full; /* filled to PMIX_MAX_NSLEN by setup */
static char s_blob[] = {0x00, 0x01, 0x02, (char)0xff, 0x7f};
static const pmix_byte_object_t s_bo = {s_blob, sizeof(s_blob)};
static const pmix_byte_object_t s_bo_empty = {NULL, 0};
static const pmix_byte_object_t s_compressed = {s_blob, 3};
static void *const s_pointer = (void *)&s_bo;
static void *const s_null_pointer = NULL;

static const type_sample_t samples[] = {
    {PMIX_BOOL, &s_true, "bool true"},
    {PMIX_BOOL, &s_false, "bool false"},
    {PMIX_BYTE, &s_byte, "byte"},
    {PMIX_INT, &s_int, "int"},
    {PMIX_INT8, &s_int8, "int8 min"},
    {PMIX_INT16, &s_int16, "int16 min"},
    {PMIX_INT32, &s_int32, "int32 min"},
    {PMIX_INT64, &s_int64, "int64 min"},
    {PMIX_UINT, &s_uint, "uint max"},
    {PMIX_UINT8, &s_uint8, "uint8 max"},
    {PMIX_UINT16, &s_uint16, "uint16"},
    {PMIX_UINT32, &s_uint32, "uint32"},
    {PMIX_UINT64, &s_uint64, "uint64 max"},
    {PMIX_SIZE, &s_size, "size max"},
    {PMIX_PID, &s_pid, "pid"},
    {PMIX_STATUS, &s_status, "status"},
    {PMIX_PROC_RANK, &s_rank, "rank"},
    {PMIX_PROC_RANK, &s_wildcard, "rank wildcard"},
    {PMIX_FLOAT, &s_float, "float"},
    {PMIX_FLOAT, &s_float_neg_zero, "float -0"},
    {PMIX_FLOAT, &s_float_nan_bits, "float NaN with payload"},
    {PMIX_DOUBLE, &s_double, "double"},
    {PMIX_DOUBLE, &s_double_max, "double max"},
    {PMIX_DOUBLE, &s_double_denormal, "double denormal"},
    {PMIX_DOUBLE, &s_double_nan_bits, "double negative NaN with payload"},
    {PMIX_TIME, &s_time, "time"},
    {PMIX_TIMEVAL, &s_timeval, "timeval"},
    {PMIX_TIMEVAL, &s_timeval_odd, "timeval unnormalised"},
    {PMIX_PERSIST, &s_persist, "persist"},
    {PMIX_SCOPE, &s_scope, "scope"},
    {PMIX_DATA_RANGE, &s_range, "data range"},
    {PMIX_COMMAND, &s_command, "command"},
    {PMIX_INFO_DIRECTIVES, &s_directives, "info directives"},
    {PMIX_DATA_TYPE, &s_data_type, "data type"},
    {PMIX_PROC_STATE, &s_proc_state, "proc state"},
    {PMIX_ALLOC_DIRECTIVE, &s_alloc, "alloc directive"},
    {PMIX_IOF_CHANNEL, &s_iof, "iof channel"},
    {PMIX_JOB_STATE, &s_job_state, "job state"},
    {PMIX_LINK_STATE, &s_link_state, "link state"},
    {PMIX_DEVTYPE, &s_devtype, "device type"},
    {PMIX_LOCTYPE, &s_locality, "locality"},
    {PMIX_STOR_MEDIUM, &s_medium, "storage medium"},
    {PMIX_STOR_ACCESS, &s_access, "storage accessibility"},
    {PMIX_STOR_PERSIST, &s_stor_persist, "storage persistence"},
    {PMIX_STOR_ACCESS_TYPE, &s_access_type, "storage access type"},
    {PMIX_STRING, &s_string, "string"},
    {PMIX_STRING, &s_empty, "empty string"},
    {PMIX_STRING, &s_null, "NULL string"},
    {PMIX_REGEX, &s_regex, "regex"},
    {PMIX_PROC_NSPACE, &s_nspace, "nspace"},
    {PMIX_PROC_NSPACE, &s_nspace_full, "nspace of the longest length"},
    {PMIX_BYTE_OBJECT, &s_bo, "byte object"},
    {PMIX_BYTE_OBJECT, &s_bo_empty, "empty byte object"},
    {PMIX_COMPRESSED_STRING, &s_compressed, "compressed string"},
    {PMIX_COMPRESSED_BYTE_OBJECT, &s_bo, "compressed byte object"},
    {PMIX_POINTER, &s_pointer, "pointer"},
    {PMIX_POINTER, &s_null_pointer, "NULL pointer"},
};

/* ---- Helpers ------------------------------------------------------------------ */

typedef struct packed {
    pmix_data_buffer_t buf;
    drover_writer_t w;
} packed_t;

static void packed_init(packed_t *p)
{
    memset(p, 0, sizeof(*p));
    p->w.buf = &p->buf;
}

static void packed_fini(packed_t *p)
{
    free(p->buf.base_ptr);
}

static drover_reader_t reader_of(const void *bytes, size_t len)
{
    drover_reader_t r = {.pos = bytes, .end = (const uint8_t *)bytes + len};
    return r;
}

/* Pack one element of type and check the bytes are exactly want. */
static void assert_wire(const void *elem, pmix_data_type_t type, const uint8_t *want, size_t len)
{
    packed_t p;
    packed_init(&p);
    ck_assert_int_eq(drover_pack(&p.w, elem, 1, type), PMIX_SUCCESS);
    ck_assert_uint_eq(p.buf.bytes_used, len);
    ck_assert_mem_eq(p.buf.base_ptr, want, len);
    packed_fini(&p);
}

/* Round trip one element and return the unpacked bytes in out. */
static void roundtrip(const void *elem, pmix_data_type_t type, void *out)
{
    packed_t p;
    packed_init(&p);
    ck_assert_int_eq(drover_pack(&p.w, elem, 1, type), PMIX_SUCCESS);
    drover_reader_t r = reader_of(p.buf.base_ptr, p.buf.bytes_used);
    ck_assert_int_eq(drover_unpack(&r, out, 1, type), PMIX_SUCCESS);
    packed_fini(&p);
}

static void assert_prints(const void *elem, pmix_data_type_t type, const char *want)
{
    char *text = bfrops_print(elem, type);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, want);
    free(text);
}

/* ---- Wire format ---------------------------------------------------------------- */

START_TEST(integers_travel_little_endian_at_their_width)
{
    static const uint8_t u32[] = {0x04, 0x03, 0x02, 0x01};
    static const uint8_t i16[] = {0x00, 0x80};
    static const uint8_t size[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    static const uint8_t rank[] = {0xfe, 0xff, 0xff, 0xff};
    assert_wire(&s_uint32, PMIX_UINT32, u32, sizeof(u32));
    assert_wire(&s_int16, PMIX_INT16, i16, sizeof(i16));
    assert_wire(&s_size, PMIX_SIZE, size, sizeof(size));
    assert_wire(&s_wildcard, PMIX_PROC_RANK, rank, sizeof(rank));
}
END_TEST

START_TEST(tagged_form_is_type_count_elements)
{
    static const uint8_t two[] = {1, 200};
    static const uint8_t want[] = {PMIX_UINT8, 0, 2, 0, 0, 0, 1, 200};
    packed_t p;
    packed_init(&p);
    ck_assert_int_eq(bfrops_pack_tagged(&p.w, two, 2, PMIX_UINT8), PMIX_SUCCESS);
    ck_assert_uint_eq(p.buf.bytes_used, sizeof(want));
    ck_assert_mem_eq(p.buf.base_ptr, want, sizeof(want));
    packed_fini(&p);
}
END_TEST

START_TEST(tagged_unpack_of_another_type_is_a_mismatch_and_reads_nothing)
{
    static const uint8_t bytes[] = {PMIX_UINT8, 0, 1, 0, 0, 0, 9};
    int8_t out = 0;
    size_t n = 1;
    drover_reader_t r = reader_of(bytes, sizeof(bytes));
    ck_assert_int_eq(bfrops_unpack_tagged(&r, &out, &n, PMIX_INT8), PMIX_ERR_TYPE_MISMATCH);
    ck_assert_ptr_eq(r.pos, bytes);
    ck_assert_int_eq(out, 0);
}
END_TEST

START_TEST(strings_and_blobs_are_length_then_bytes_with_null_marked)
{
    static const uint8_t hi[] = {2, 0, 0, 0, 'h', 'i'};
    static const uint8_t empty[] = {0, 0, 0, 0};
    static const uint8_t null[] = {0xff, 0xff, 0xff, 0xff};
    static const uint8_t bo[] = {5, 0, 0, 0, 0x00, 0x01, 0x02, 0xff, 0x7f};
    static const uint8_t ns[] = {12, 0, 0, 0, 'd', 'r', 'o', 'v', 'e', 'r',
                                 '-', 'j', 'o', 'b', '-', '1'};
    const char *s = "hi";
    assert_wire(&s, PMIX_STRING, hi, sizeof(hi));
    assert_wire(&s_empty, PMIX_STRING, empty, sizeof(empty));
    assert_wire(&s_null, PMIX_STRING, null, sizeof(null));
    assert_wire(&s_bo, PMIX_BYTE_OBJECT, bo, sizeof(bo));
    assert_wire(&s_bo_empty, PMIX_BYTE_OBJECT, empty, sizeof(empty));
    assert_wire(&s_nspace, PMIX_PROC_NSPACE, ns, sizeof(ns));
}
END_TEST

START_TEST(a_count_the_input_cannot_hold_is_refused_before_allocating)
{
    /* Four strings claimed, room for none. */
    static const uint8_t bytes[] = {PMIX_STRING, 0, 0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 0};
    char *out[4] = {NULL};
    size_t n = 0xfffffffe;
    size_t count;
    drover_reader_t r = reader_of(bytes, sizeof(bytes));
    ck_assert_int_eq(bfrops_unpack_tagged(&r, out, &n, PMIX_STRING),
                     PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    r = reader_of(bytes + 2, sizeof(bytes) - 2);
    ck_assert_int_eq(wire_get_count(&r, 4, &count), PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    ck_assert_ptr_eq(r.pos, bytes + 2);
    /* The NULL marker is no count at all. */
    static const uint8_t marker[] = {0xff, 0xff, 0xff, 0xff};
    r = reader_of(marker, sizeof(marker));
    ck_assert_int_eq(wire_get_count(&r, 1, &count), PMIX_ERR_UNPACK_FAILURE);
}
END_TEST

START_TEST(a_string_claiming_more_bytes_than_remain_is_refused)
{
    static const uint8_t bytes[] = {0x00, 0x00, 0x00, 0x10, 'a', 'b'};
    char *s = NULL;
    drover_reader_t r = reader_of(bytes, sizeof(bytes));
    ck_assert_int_eq(wire_get_string(&r, &s), PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER);
    ck_assert_ptr_null(s);
    ck_assert_ptr_eq(r.pos, bytes);
}
END_TEST

START_TEST(writer_growth_keeps_the_unpack_position)
{
    packed_t p;
    packed_init(&p);
    ck_assert_int_eq(wire_put_u32(&p.w, 0xdeadbeef), PMIX_SUCCESS);
    p.buf.unpack_ptr = p.buf.base_ptr + 2;
    for (uint32_t i = 0; i < 10000; i++) {
        ck_assert_int_eq(wire_put_u32(&p.w, i), PMIX_SUCCESS);
    }
    ck_assert_uint_eq(p.buf.bytes_used, 4 * 10001);
    ck_assert_uint_ge(p.buf.bytes_allocated, p.buf.bytes_used);
    ck_assert_ptr_eq(p.buf.unpack_ptr, p.buf.base_ptr + 2);
    ck_assert_ptr_eq(p.buf.pack_ptr, p.buf.base_ptr + p.buf.bytes_used);
    drover_reader_t r = reader_of(p.buf.base_ptr + 4 * 9000, 4);
    uint32_t v;
    ck_assert_int_eq(wire_get_u32(&r, &v), PMIX_SUCCESS);
    ck_assert_uint_eq(v, 8999);
    packed_fini(&p);
}
END_TEST

START_TEST(a_failed_pack_leaves_the_buffer_as_it_was)
{
    pmix_nspace_t two[2];
    memset(two, 0, sizeof(two));
    strcpy(two[0], "fine");
    memset(two[1], 'x', sizeof(two[1]));   /* no NUL: not an nspace */
    packed_t p;
    packed_init(&p);
    ck_assert_int_eq(wire_put_u8(&p.w, 7), PMIX_SUCCESS);
    ck_assert_int_eq(bfrops_pack_tagged(&p.w, two, 2, PMIX_PROC_NSPACE), PMIX_ERR_BAD_PARAM);
    ck_assert_uint_eq(p.buf.bytes_used, 1);
    ck_assert_ptr_eq(p.buf.pack_ptr, p.buf.base_ptr + 1);
    packed_fini(&p);
}
END_TEST

START_TEST(unknown_types_are_refused_everywhere)
{
    uint8_t elem = 0;
    packed_t p;
    packed_init(&p);
    drover_reader_t r = reader_of(&elem, 1);
    ck_assert_ptr_null(bfrops_lookup(26));          /* the hole left by PMIX_BUFFER */
    ck_assert_ptr_null(bfrops_lookup(PMIX_DATA_TYPE_MAX));
    ck_assert_ptr_null(bfrops_lookup(UINT16_MAX));
    ck_assert_int_eq(drover_pack(&p.w, &elem, 1, 26), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_int_eq(drover_unpack(&r, &elem, 1, 26), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_int_eq(bfrops_copy(&elem, &elem, 1, 26, NULL), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_int_eq(bfrops_compare(&elem, &elem, 1, 26), PMIX_VALUE_COMPARISON_NOT_AVAIL);
    ck_assert_ptr_null(bfrops_print(&elem, 26));
    ck_assert_uint_eq(p.buf.bytes_used, 0);
    packed_fini(&p);
}
END_TEST

START_TEST(nesting_deeper_than_the_limit_is_refused)
{
    static const uint8_t one = 1;
    uint8_t out = 0;
    drover_reader_t r = reader_of(&one, 1);
    r.depth = WIRE_MAX_DEPTH;
    ck_assert_int_eq(drover_unpack(&r, &out, 1, PMIX_UINT8), PMIX_ERR_UNPACK_FAILURE);
    r.depth = WIRE_MAX_DEPTH - 1;
    ck_assert_int_eq(drover_unpack(&r, &out, 1, PMIX_UINT8), PMIX_SUCCESS);
    ck_assert_uint_eq(out, 1);
    ck_assert_uint_eq(r.depth, WIRE_MAX_DEPTH - 1);
}
END_TEST

/* ---- Type-specific behaviour ---------------------------------------------------------- */

START_TEST(doubles_round_trip_bit_for_bit)
{
    const uint64_t patterns[] = {
        0x7ff8000000000123ull, /* quiet NaN with a payload */
        0x7ff0000000000001ull, /* signalling NaN */
        0x8000000000000000ull, /* -0.0 */
        0x0000000000000001ull, /* smallest subnormal */
        0x000fffffffffffffull, /* largest subnormal */
        0x7fefffffffffffffull, /* DBL_MAX */
        0xfff0000000000000ull, /* -inf */
        0x3fb999999999999aull, /* 0.1, which "%f" text would not keep */
    };
    for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
        uint64_t out = 0;
        roundtrip(&patterns[i], PMIX_DOUBLE, &out);
        ck_assert_msg(out == patterns[i], "double %#llx came back %#llx",
                      (unsigned long long)patterns[i], (unsigned long long)out);
    }
    static const uint8_t one[] = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f};
    const double d = 1.0;
    assert_wire(&d, PMIX_DOUBLE, one, sizeof(one));
}
END_TEST

START_TEST(floats_round_trip_bit_for_bit)
{
    const uint32_t patterns[] = {0x7fc00001u, 0x7f800001u, 0x80000000u, 0x00000001u,
                                 0x7f7fffffu, 0xff800000u, 0x3dcccccdu};
    for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
        uint32_t out = 0;
        roundtrip(&patterns[i], PMIX_FLOAT, &out);
        ck_assert_msg(out == patterns[i], "float %#x came back %#x", patterns[i], out);
    }
    static const uint8_t half[] = {0x00, 0x00, 0x00, 0x3f};
    const float f = 0.5f;
    assert_wire(&f, PMIX_FLOAT, half, sizeof(half));
}
END_TEST

START_TEST(floating_point_compares_in_total_order)
{
    const double neg_zero = -0.0, pos_zero = 0.0, one = 1.0, two = 2.0, minus_inf = -INFINITY;
    const double nan = NAN;
    ck_assert_int_eq(bfrops_compare(&one, &two, 1, PMIX_DOUBLE), PMIX_VALUE2_GREATER);
    ck_assert_int_eq(bfrops_compare(&two, &one, 1, PMIX_DOUBLE), PMIX_VALUE1_GREATER);
    ck_assert_int_eq(bfrops_compare(&neg_zero, &pos_zero, 1, PMIX_DOUBLE), PMIX_VALUE2_GREATER);
    ck_assert_int_eq(bfrops_compare(&minus_inf, &neg_zero, 1, PMIX_DOUBLE), PMIX_VALUE2_GREATER);
    ck_assert_int_eq(bfrops_compare(&nan, &nan, 1, PMIX_DOUBLE), PMIX_EQUAL);
    ck_assert_int_eq(bfrops_compare(&nan, &two, 1, PMIX_DOUBLE), PMIX_VALUE1_GREATER);
    const float fm = -1.5f, fp = 1.5f;
    ck_assert_int_eq(bfrops_compare(&fm, &fp, 1, PMIX_FLOAT), PMIX_VALUE2_GREATER);
}
END_TEST

START_TEST(integers_compare_by_value_not_by_bytes)
{
    const uint16_t big = 256, small = 1;
    const int8_t minus = -1, plus = 1;
    const int64_t lo = INT64_MIN, hi = INT64_MAX;
    ck_assert_int_eq(bfrops_compare(&big, &small, 1, PMIX_UINT16), PMIX_VALUE1_GREATER);
    ck_assert_int_eq(bfrops_compare(&minus, &plus, 1, PMIX_INT8), PMIX_VALUE2_GREATER);
    ck_assert_int_eq(bfrops_compare(&lo, &hi, 1, PMIX_INT64), PMIX_VALUE2_GREATER);
    const uint32_t a[] = {1, 2, 3}, b[] = {1, 2, 4};
    ck_assert_int_eq(bfrops_compare(a, b, 3, PMIX_UINT32), PMIX_VALUE2_GREATER);
    ck_assert_int_eq(bfrops_compare(a, b, 2, PMIX_UINT32), PMIX_EQUAL);
}
END_TEST

START_TEST(a_bool_byte_other_than_zero_or_one_is_refused)
{
    static const uint8_t two = 2, one = 1;
    bool out = false;
    drover_reader_t r = reader_of(&two, 1);
    ck_assert_int_eq(drover_unpack(&r, &out, 1, PMIX_BOOL), PMIX_ERR_UNPACK_FAILURE);
    ck_assert(!out);
    r = reader_of(&one, 1);
    ck_assert_int_eq(drover_unpack(&r, &out, 1, PMIX_BOOL), PMIX_SUCCESS);
    ck_assert(out);
}
END_TEST

START_TEST(null_and_empty_strings_stay_distinct)
{
    char *out = (char *)"garbage";
    roundtrip(&s_null, PMIX_STRING, &out);
    ck_assert_ptr_null(out);
    roundtrip(&s_empty, PMIX_STRING, &out);
    ck_assert_ptr_nonnull(out);
    ck_assert_str_eq(out, "");
    ck_assert_int_eq(bfrops_compare(&s_null, &out, 1, PMIX_STRING), PMIX_VALUE2_GREATER);
    ck_assert_int_eq(bfrops_compare(&out, &s_null, 1, PMIX_STRING), PMIX_VALUE1_GREATER);
    ck_assert_int_eq(bfrops_compare(&s_null, &s_null, 1, PMIX_STRING), PMIX_EQUAL);
    bfrops_release(&out, 1, PMIX_STRING, NULL);
    ck_assert_ptr_null(out);
    assert_prints(&s_null, PMIX_STRING, "NULL");
    assert_prints(&s_empty, PMIX_STRING, "\"\"");
}
END_TEST

START_TEST(a_string_with_a_nul_inside_is_refused)
{
    static const uint8_t bytes[] = {3, 0, 0, 0, 'a', 0, 'b'};
    char *out = NULL;
    drover_reader_t r = reader_of(bytes, sizeof(bytes));
    ck_assert_int_eq(drover_unpack(&r, &out, 1, PMIX_STRING), PMIX_ERR_UNPACK_FAILURE);
    ck_assert_ptr_null(out);
}
END_TEST

START_TEST(an_nspace_without_nul_is_refused_both_ways)
{
    pmix_nspace_t full;
    memset(full, 'x', sizeof(full));
    packed_t p;
    packed_init(&p);
    ck_assert_int_eq(drover_pack(&p.w, full, 1, PMIX_PROC_NSPACE), PMIX_ERR_BAD_PARAM);
    ck_assert_uint_eq(p.buf.bytes_used, 0);
    packed_fini(&p);

    /* 256 bytes on the wire cannot fit with their NUL. */
    uint8_t wire[4 + 256];
    memset(wire, 'y', sizeof(wire));
    wire[0] = 0x00;
    wire[1] = 0x01;
    wire[2] = wire[3] = 0;
    pmix_nspace_t out;
    memset(out, 0, sizeof(out));
    drover_reader_t r = reader_of(wire, sizeof(wire));
    ck_assert_int_eq(drover_unpack(&r, out, 1, PMIX_PROC_NSPACE), PMIX_ERR_UNPACK_FAILURE);
    /* 255 bytes are the longest nspace. */
    wire[0] = 0xff;
    wire[1] = 0x00;
    r = reader_of(wire, 4 + 255);
    ck_assert_int_eq(drover_unpack(&r, out, 1, PMIX_PROC_NSPACE), PMIX_SUCCESS);
    ck_assert_uint_eq(strlen(out), PMIX_MAX_NSLEN);
    /* A NUL among the bytes is refused and leaves the element zeroed. */
    static const uint8_t holed[] = {3, 0, 0, 0, 'a', 0, 'b'};
    memset(out, 0, sizeof(out));
    r = reader_of(holed, sizeof(holed));
    ck_assert_int_eq(drover_unpack(&r, out, 1, PMIX_PROC_NSPACE), PMIX_ERR_UNPACK_FAILURE);
    ck_assert_int_eq(out[0], 0);
}
END_TEST

START_TEST(nspaces_compare_up_to_their_nul)
{
    pmix_nspace_t a, b;
    memset(a, 'a', sizeof(a));
    memset(b, 'b', sizeof(b));
    strcpy(a, "job");
    strcpy(b, "job");
    ck_assert_int_eq(bfrops_compare(a, b, 1, PMIX_PROC_NSPACE), PMIX_EQUAL);
    strcpy(b, "jobs");
    ck_assert_int_eq(bfrops_compare(a, b, 1, PMIX_PROC_NSPACE), PMIX_VALUE2_GREATER);
}
END_TEST

START_TEST(byte_objects_order_by_size_then_bytes)
{
    char x[] = {9, 9}, y[] = {1, 2, 3}, z[] = {1, 2, 4};
    pmix_byte_object_t bx = {x, 2}, by = {y, 3}, bz = {z, 3};
    ck_assert_int_eq(bfrops_compare(&bx, &by, 1, PMIX_BYTE_OBJECT), PMIX_VALUE2_GREATER);
    ck_assert_int_eq(bfrops_compare(&bz, &by, 1, PMIX_BYTE_OBJECT), PMIX_VALUE1_GREATER);
    ck_assert_int_eq(bfrops_compare(&s_bo_empty, &s_bo_empty, 1, PMIX_BYTE_OBJECT), PMIX_EQUAL);
}
END_TEST

START_TEST(copies_are_deep_except_for_pointers)
{
    char *copy = NULL;
    ck_assert_int_eq(bfrops_copy(&copy, &s_string, 1, PMIX_STRING, NULL), PMIX_SUCCESS);
    ck_assert_ptr_ne(copy, s_string);
    ck_assert_str_eq(copy, s_string);
    bfrops_release(&copy, 1, PMIX_STRING, NULL);

    pmix_byte_object_t bo = {0};
    ck_assert_int_eq(bfrops_copy(&bo, &s_bo, 1, PMIX_BYTE_OBJECT, NULL), PMIX_SUCCESS);
    ck_assert_ptr_ne(bo.bytes, s_bo.bytes);
    ck_assert_mem_eq(bo.bytes, s_bo.bytes, s_bo.size);
    bfrops_release(&bo, 1, PMIX_BYTE_OBJECT, NULL);
    ck_assert_ptr_null(bo.bytes);

    void *p = NULL;
    ck_assert_int_eq(bfrops_copy(&p, &s_pointer, 1, PMIX_POINTER, NULL), PMIX_SUCCESS);
    ck_assert_ptr_eq(p, s_pointer);
    bfrops_release(&p, 1, PMIX_POINTER, NULL);
}
END_TEST

/* A byte object longer than what print shows ends in " ...": the text must
 * fit its buffer exactly (ASan catches a one-byte overrun here). */
START_TEST(long_byte_objects_print_truncated)
{
    char bytes[100];
    memset(bytes, 0xab, sizeof(bytes));
    pmix_byte_object_t bo = {.bytes = bytes, .size = sizeof(bytes)};
    char *text = bfrops_print(&bo, PMIX_BYTE_OBJECT);
    ck_assert_ptr_nonnull(text);
    ck_assert(0 == strncmp(text, "100 bytes: ab ab", 16));
    ck_assert_str_eq(text + strlen(text) - 7, " ab ...");
    free(text);
}
END_TEST

START_TEST(values_print_readably)
{
    const uint8_t byte = 0x2a;
    const int32_t minus = -17;
    const time_t epoch = 0;
    const pmix_rank_t undef = PMIX_RANK_UNDEF;
    const double tenth = 0.1;
    assert_prints(&s_true, PMIX_BOOL, "true");
    assert_prints(&s_false, PMIX_BOOL, "false");
    assert_prints(&byte, PMIX_BYTE, "0x2a");
    assert_prints(&minus, PMIX_INT32, "-17");
    assert_prints(&s_uint64, PMIX_UINT64, "18446744073709551615");
    assert_prints(&s_rank, PMIX_PROC_RANK, "7");
    assert_prints(&undef, PMIX_PROC_RANK, "PMIX_RANK_UNDEF");
    assert_prints(&s_data_type, PMIX_DATA_TYPE, "PMIX_STRING");
    assert_prints(&s_iof, PMIX_IOF_CHANNEL, "0x0006");
    assert_prints(&tenth, PMIX_DOUBLE, "0.10000000000000001");
    assert_prints(&s_double_nan_bits, PMIX_DOUBLE, "-nan(0x8000000000abc)");
    assert_prints(&epoch, PMIX_TIME, "0 (1970-01-01T00:00:00Z)");
    assert_prints(&s_timeval, PMIX_TIMEVAL, "1700000000.123456 (2023-11-14T22:13:20Z)");
    assert_prints(&s_timeval_odd, PMIX_TIMEVAL, "{tv_sec=-5, tv_usec=2000000}");
    assert_prints(&s_string, PMIX_STRING, "\"hello, \\\"world\\\"\\x0a\\xc3\\xa9\"");
    assert_prints(&s_nspace, PMIX_PROC_NSPACE, "\"drover-job-1\"");
    assert_prints(&s_bo, PMIX_BYTE_OBJECT, "5 bytes: 00 01 02 ff 7f");
    assert_prints(&s_bo_empty, PMIX_BYTE_OBJECT, "0 bytes");
    assert_prints(&s_null_pointer, PMIX_POINTER, "NULL");
}
END_TEST

START_TEST(value_elements_are_inline_or_behind_the_pointer)
{
    pmix_nspace_t ns = "x";
    pmix_value_t v;
    memset(&v, 0, sizeof(v));
    v.type = PMIX_STRING;
    ck_assert_ptr_eq(bfrops_value_elem(&v), &v.data);
    v.type = PMIX_BYTE_OBJECT;
    ck_assert_ptr_eq(bfrops_value_elem(&v), &v.data.bo);
    v.type = PMIX_PROC_NSPACE;
    v.data.nspace = &ns;
    ck_assert_ptr_eq(bfrops_value_elem(&v), &ns);
    v.type = PMIX_UNDEF;
    ck_assert_ptr_null(bfrops_value_elem(&v));
}
END_TEST

static void count_in_order(const drover_datatype_t *type, void *arg)
{
    int *last = arg;
    ck_assert_int_gt(type->id, *last);
    ck_assert_ptr_eq(bfrops_lookup(type->id), type);
    *last = type->id;
}

START_TEST(foreach_visits_types_in_id_order)
{
    int last = -1;
    bfrops_foreach(count_in_order, &last);
    ck_assert_int_ge(last, PMIX_STOR_ACCESS_TYPE);
}
END_TEST

START_TEST(registered_flags_match_the_value_storage_rule)
{
    ck_assert_uint_eq(bfrops_lookup(PMIX_STRING)->flags,
                      DROVER_DATATYPE_VALUE_INLINE | DROVER_DATATYPE_PASSED_BY_VALUE);
    ck_assert_uint_eq(bfrops_lookup(PMIX_POINTER)->flags,
                      DROVER_DATATYPE_VALUE_INLINE | DROVER_DATATYPE_PASSED_BY_VALUE);
    ck_assert_uint_eq(bfrops_lookup(PMIX_PROC_NSPACE)->flags, 0);
    ck_assert_uint_eq(bfrops_lookup(PMIX_COMMAND)->flags, DROVER_DATATYPE_VALUE_INLINE);
    ck_assert_uint_eq(bfrops_lookup(PMIX_TIMEVAL)->size, sizeof(struct timeval));
    ck_assert_uint_eq(bfrops_lookup(PMIX_PROC_NSPACE)->size, sizeof(pmix_nspace_t));
}
END_TEST

static Suite *scalar_suite(void)
{
    memset(s_nspace_full, 'n', PMIX_MAX_NSLEN);
    Suite *s = suite_create("types_scalar");
    TCase *wire = tcase_create("wire");
    tcase_add_test(wire, integers_travel_little_endian_at_their_width);
    tcase_add_test(wire, tagged_form_is_type_count_elements);
    tcase_add_test(wire, tagged_unpack_of_another_type_is_a_mismatch_and_reads_nothing);
    tcase_add_test(wire, strings_and_blobs_are_length_then_bytes_with_null_marked);
    tcase_add_test(wire, a_count_the_input_cannot_hold_is_refused_before_allocating);
    tcase_add_test(wire, a_string_claiming_more_bytes_than_remain_is_refused);
    tcase_add_test(wire, writer_growth_keeps_the_unpack_position);
    tcase_add_test(wire, a_failed_pack_leaves_the_buffer_as_it_was);
    tcase_add_test(wire, unknown_types_are_refused_everywhere);
    tcase_add_test(wire, nesting_deeper_than_the_limit_is_refused);
    suite_add_tcase(s, wire);

    TCase *types = tcase_create("types");
    tcase_add_test(types, doubles_round_trip_bit_for_bit);
    tcase_add_test(types, floats_round_trip_bit_for_bit);
    tcase_add_test(types, floating_point_compares_in_total_order);
    tcase_add_test(types, integers_compare_by_value_not_by_bytes);
    tcase_add_test(types, a_bool_byte_other_than_zero_or_one_is_refused);
    tcase_add_test(types, null_and_empty_strings_stay_distinct);
    tcase_add_test(types, a_string_with_a_nul_inside_is_refused);
    tcase_add_test(types, an_nspace_without_nul_is_refused_both_ways);
    tcase_add_test(types, nspaces_compare_up_to_their_nul);
    tcase_add_test(types, byte_objects_order_by_size_then_bytes);
    tcase_add_test(types, copies_are_deep_except_for_pointers);
    tcase_add_test(types, values_print_readably);
    tcase_add_test(types, long_byte_objects_print_truncated);
    tcase_add_test(types, value_elements_are_inline_or_behind_the_pointer);
    tcase_add_test(types, foreach_visits_types_in_id_order);
    tcase_add_test(types, registered_flags_match_the_value_storage_rule);
    suite_add_tcase(s, types);

    suite_add_tcase(s, type_harness_tcase("harness", samples, sizeof(samples) / sizeof(samples[0]),
                                          TYPE_HARNESS_SCALAR));
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(scalar_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? EXIT_SUCCESS : EXIT_FAILURE;
}
