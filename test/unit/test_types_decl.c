/*
 * test_types_decl.c - types declared in YAML (src/types): layouts, the
 * registry functions derived from the tree, fingerprints, $-sized types,
 * ids, all-or-nothing loading and the loader's limits.
 *
 * Each test runs in its own process (Check forks), so each starts with no
 * declared types.
 */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bfrops.h"
#include "drover.h"
#include "pmix.h"
#include "type_harness.h"
#include "typeset.h"
#include "wire.h"

static const char *const spec =
    "metadata:\n"
    "  n: int\n"
    "types:\n"
    "  grid:\n"
    "    type: struct\n"
    "    members:\n"
    "      - a: char\n"
    "      - b: {type: array, subtype: int, size: [5, 10]}\n"
    "  mixed: {type: struct, members: [{c: char}, {d: double}, {s: short}]}\n"
    "  slice: {type: array, subtype: int, size: [8, 4], start: [2, 1], subsize: [4, 2]}\n"
    "  packed:\n"
    "    type: tuple\n"
    "    buffersize: 13\n"
    "    elements: [{type: char, disp: 0}, {type: int, disp: 1}, {type: double, disp: 5}]\n"
    "  rec:\n"
    "    type: record\n"
    "    buffersize: 16\n"
    "    members:\n"
    "      my_ptr: {disp: 0, type: pointer, subtype: char}\n"
    "      my_int: {disp: 8, type: int}\n"
    "  ftn:\n"
    "    type: struct\n"
    "    members:\n"
    "      - c: {type: character, kind: 4}\n"
    "      - r: {type: real, kind: 8}\n"
    "      - i: integer\n"
    "      - l: {type: logical, kind: 1}\n"
    "  node:\n"
    "    type: struct\n"
    "    +doc: a point with an optional next point\n"
    "    members:\n"
    "      - where: point\n"
    "      - next: {type: pointer, subtype: point}\n"
    "      - tag: &TAG {type: array, subtype: char, size: 3}\n"
    "      - tag2: *TAG\n"
    "  point: {type: struct, members: [{x: double}, {y: double}]}\n"
    "  dyn: {type: array, subtype: double, size: '$n * 2'}\n";

static void load_ok(const char *name, const char *text)
{
    char *errors = NULL;
    pmix_status_t rc = drover_types_load_string(name, text, strlen(text), 0, &errors);
    ck_assert_msg(PMIX_SUCCESS == rc, "load failed (%d):\n%s", rc, errors);
    ck_assert_ptr_null(errors);
}

/* Load text expecting failure; returns the messages (caller frees). */
static char *load_fails(const char *text, unsigned flags)
{
    char *errors = NULL;
    pmix_status_t rc = drover_types_load_string("t.yml", text, strlen(text), flags, &errors);
    ck_assert_int_eq(rc, PMIX_ERR_BAD_PARAM);
    ck_assert_ptr_nonnull(errors);
    return errors;
}

static pmix_data_type_t id_of(const char *name)
{
    pmix_data_type_t id = 0;
    ck_assert_int_eq(drover_type_lookup(name, &id), PMIX_SUCCESS);
    return id;
}

static const tnode_t *member_of(const char *type, size_t i)
{
    const named_t *nt = types_named(type);
    ck_assert_ptr_nonnull(nt);
    size_t first = 0 < nt->root->nchild && TK_EXPR == nt->root->child[0]->kind;
    return nt->root->child[first + i];
}

typedef struct grid {
    char a;
    int b[5][10];
} grid_t;

typedef struct point {
    double x, y;
} point_t;

typedef struct node {
    point_t where;
    point_t *next;
    char tag[3], tag2[3];
} node_t;

typedef struct rec {
    char *my_ptr;
    int my_int;
} rec_t;

START_TEST(layouts_match_the_c_rules_and_explicit_displacements)
{
    load_ok("spec.yml", spec);
    ck_assert_uint_eq(types_named("grid")->root->size, 204);
    ck_assert_uint_eq(member_of("grid", 1)->off, 4);
    ck_assert_uint_eq(types_named("mixed")->root->size, 24);
    ck_assert_uint_eq(member_of("mixed", 1)->off, 8);
    ck_assert_uint_eq(member_of("mixed", 2)->off, 16);
    ck_assert_uint_eq(types_named("slice")->root->size, 128);
    ck_assert_uint_eq(types_named("packed")->root->size, 13);
    ck_assert_uint_eq(member_of("packed", 2)->off, 5);
    ck_assert_uint_eq(types_named("rec")->root->size, 16);
    ck_assert_uint_eq(types_named("rec")->root->align, 8);
    ck_assert_uint_eq(types_named("ftn")->root->size, 24);
    ck_assert_uint_eq(member_of("ftn", 1)->off, 8);
    ck_assert_uint_eq(member_of("ftn", 3)->off, 20);
    ck_assert_uint_eq(types_named("node")->root->size, sizeof(node_t));
    ck_assert_str_eq(types_named("node")->root->attrs[0].value, "a point with an optional next point");
    ck_assert_uint_eq(drover_datatype_lookup(id_of("grid"))->size, 204);
}
END_TEST

START_TEST(ids_follow_declaration_order_and_reloading_keeps_them)
{
    load_ok("spec.yml", spec);
    ck_assert_uint_eq(id_of("grid"), DROVER_DECLARED_ID_MIN);
    ck_assert_uint_eq(id_of("mixed"), DROVER_DECLARED_ID_MIN + 1);
    ck_assert_uint_eq(id_of("point"), DROVER_DECLARED_ID_MIN + 7);
    ck_assert_str_eq(drover_datatype_lookup(id_of("point"))->name, "point");
    load_ok("again.yml", spec);
    ck_assert_uint_eq(id_of("point"), DROVER_DECLARED_ID_MIN + 7);
    ck_assert_uint_eq(types_count(), 9);
    pmix_data_type_t id;
    ck_assert_int_eq(drover_type_lookup("nosuch", &id), PMIX_ERR_NOT_FOUND);
}
END_TEST

START_TEST(a_different_declaration_of_a_declared_name_is_refused)
{
    load_ok("spec.yml", spec);
    char *errors = load_fails("types:\n  point: {type: struct, members: [{x: float}, {y: double}]}\n", 0);
    ck_assert_str_eq(errors, "t.yml:2:3: error: types.point: type 'point' is already declared "
                             "differently (datatype 32775); a process keeps one declaration per name\n");
    free(errors);
}
END_TEST

static grid_t grid_sample;
static int slice_sample[8][4];
static point_t next_point = {1.5, -2.25};
static node_t node_sample = {{3, 4}, &next_point, "ab", "cd"};
static node_t node_alone = {{5, 6}, NULL, "x", ""};
static char letter = 'q';
static rec_t rec_sample = {&letter, 99};
static char packed_sample[13] = {7, 1, 0, 0, 0};

START_TEST(declared_types_pass_the_type_harness)
{
    load_ok("spec.yml", spec);
    grid_sample.a = 'g';
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 10; j++) {
            grid_sample.b[i][j] = i * 10 - j;
        }
    }
    for (int i = 2; i < 6; i++) {
        slice_sample[i][1] = i;
        slice_sample[i][2] = -i;
    }
    type_sample_t samples[] = {
        {id_of("grid"), &grid_sample, "grid"},
        {id_of("slice"), slice_sample, "slice"},
        {id_of("node"), &node_sample, "node with next"},
        {id_of("node"), &node_alone, "node without next"},
        {id_of("rec"), &rec_sample, "record with a pointer"},
        {id_of("packed"), packed_sample, "tuple with disp"},
    };
    for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
        type_harness_check_sample(&samples[i]);
    }
}
END_TEST

START_TEST(a_slice_packs_only_its_selected_elements)
{
    load_ok("spec.yml", spec);
    pmix_data_type_t id = id_of("slice");
    int in[8][4], out[8][4];
    for (int i = 0; i < 32; i++) {
        in[i / 4][i % 4] = i;
        out[i / 4][i % 4] = -1;
    }
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &buf, in, 1, id), PMIX_SUCCESS);
    /* tag and count, fingerprint, bound count and length, 8 ints */
    ck_assert_uint_eq(buf.bytes_used, 2 + 4 + 8 + 4 + 4 + 8 * 4);
    int32_t n = 1;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &buf, out, &n, id), PMIX_SUCCESS);
    int want[] = {9, 10, 13, 14, 17, 18, 21, 22};
    size_t k = 0;
    for (int i = 0; i < 32; i++) {
        if (k < 8 && i == want[k]) {
            ck_assert_int_eq(out[i / 4][i % 4], i);
            k++;
        } else {
            /* As MPI_Unpack: the other elements are not written. */
            ck_assert_int_eq(out[i / 4][i % 4], -1);
        }
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}
END_TEST

/* PMIx_Data_unpack writes a pointer-free declared type in place, but only
 * after checking the whole input: a bad last element (its fingerprint,
 * its length, the input cut short) leaves the destination and the buffer
 * as they were. */
START_TEST(a_failed_in_place_unpack_changes_nothing)
{
    load_ok("spec.yml", spec);
    pmix_data_type_t id = id_of("slice");
    int in[3][8][4], out[3][8][4];
    for (int i = 0; i < 96; i++) {
        ((int *)in)[i] = i;
    }
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &buf, in, 3, id), PMIX_SUCCESS);
    size_t elem = 8 + 4 + 4 + 8 * 4, last = 2 + 4 + 2 * elem;
    /* Byte offsets in the last element: fingerprint, length; then a cut. */
    const size_t at[] = {last, last + 12, buf.bytes_used};
    for (size_t c = 0; c < 3; c++) {
        pmix_data_buffer_t bad;
        PMIX_DATA_BUFFER_CONSTRUCT(&bad);
        ck_assert_int_eq(PMIx_Data_copy_payload(&bad, &buf), PMIX_SUCCESS);
        if (c < 2) {
            bad.base_ptr[at[c]] ^= 1;
        } else {
            bad.bytes_used--;
            bad.pack_ptr--;
        }
        memset(out, 0x5a, sizeof(out));
        int32_t n = 3;
        ck_assert_int_ne(PMIx_Data_unpack(NULL, &bad, out, &n, id), PMIX_SUCCESS);
        ck_assert_int_eq(n, 3);
        ck_assert_ptr_eq(bad.unpack_ptr, bad.base_ptr);
        for (size_t i = 0; i < sizeof(out); i++) {
            ck_assert_uint_eq(((unsigned char *)out)[i], 0x5a);
        }
        PMIX_DATA_BUFFER_DESTRUCT(&bad);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}
END_TEST

START_TEST(values_copies_and_prints_work_through_the_pmix_api)
{
    load_ok("spec.yml", spec);
    pmix_data_type_t id = id_of("node");
    pmix_value_t v, w;
    ck_assert_int_eq(PMIx_Value_load(&v, &node_sample, id), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Value_xfer(&w, &v), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Value_compare(&v, &w), PMIX_EQUAL);
    node_t *copy = NULL;
    ck_assert_int_eq(PMIx_Data_copy((void **)&copy, &node_sample, id), PMIX_SUCCESS);
    ck_assert_ptr_ne(copy->next, &next_point);
    ck_assert(copy->next->y == -2.25);
    copy->next->y = 0;
    pmix_value_t changed;
    ck_assert_int_eq(PMIx_Value_load(&changed, copy, id), PMIX_SUCCESS);
    ck_assert_int_ne(PMIx_Value_compare(&v, &changed), PMIX_EQUAL);
    char *text = NULL;
    ck_assert_int_eq(PMIx_Data_print(&text, NULL, &node_sample, id), PMIX_SUCCESS);
    ck_assert_ptr_nonnull(strstr(text, "{where={x=3, y=4}, next=&{x=1.5, y=-2.25}, tag=[97, 98, 0], tag2=[99, 100, 0]}"));
    free(text);
    free(copy->next);
    free(copy);
    PMIx_Value_destruct(&v);
    PMIx_Value_destruct(&w);
    PMIx_Value_destruct(&changed);
}
END_TEST

/* Pack one element of id from src and return the buffer. */
static void pack_one(pmix_data_buffer_t *buf, const void *src, pmix_data_type_t id)
{
    PMIX_DATA_BUFFER_CONSTRUCT(buf);
    ck_assert_int_eq(PMIx_Data_pack(NULL, buf, (void *)src, 1, id), PMIX_SUCCESS);
}

START_TEST(record_functions_called_directly_refuse_rather_than_guess)
{
    load_ok("spec.yml", spec);
    const drover_datatype_t *grid = drover_datatype_lookup(id_of("grid"));
    const drover_datatype_t *slice = drover_datatype_lookup(id_of("slice"));
    /* The last call through the registry served another declared type:
     * a direct call must not take that type's tree for its own. */
    char *text = bfrops_print(slice_sample, slice->id);
    ck_assert_ptr_nonnull(text);
    free(text);
    ck_assert_ptr_null(grid->print(&grid_sample));
    ck_assert_int_eq(grid->compare(&grid_sample, &grid_sample), PMIX_VALUE_COMPARISON_NOT_AVAIL);
    grid_t copy;
    ck_assert_int_eq(grid->copy(&copy, &grid_sample, NULL), PMIX_ERR_UNKNOWN_DATA_TYPE);
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    drover_writer_t w = {&buf};
    ck_assert_int_eq(grid->pack(&w, &grid_sample), PMIX_ERR_UNKNOWN_DATA_TYPE);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}
END_TEST

START_TEST(another_fingerprint_is_a_type_mismatch)
{
    load_ok("spec.yml", spec);
    pmix_data_type_t id = id_of("grid");
    pmix_data_buffer_t buf;
    pack_one(&buf, &grid_sample, id);
    buf.base_ptr[6] ^= 1;   /* the fingerprint follows the tag and count */
    grid_t out;
    int32_t n = 1;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &buf, &out, &n, id), PMIX_ERR_TYPE_MISMATCH);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}
END_TEST

START_TEST(a_dollar_sized_type_waits_for_its_binding_and_carries_its_shape)
{
    load_ok("spec.yml", spec);
    pmix_data_type_t id;
    ck_assert_int_eq(drover_type_lookup("dyn", &id), PMIX_ERR_NOT_AVAILABLE);
    int64_t n = 3;
    ck_assert_int_eq(drover_type_bind("n", &n, 1), PMIX_SUCCESS);
    id = id_of("dyn");
    ck_assert_uint_eq(id, DROVER_DECLARED_ID_MIN + 8);
    ck_assert_uint_eq(drover_datatype_lookup(id)->size, 6 * sizeof(double));
    double in[6] = {1, 2, 3, 4, 5, 6}, out[6];
    pmix_data_buffer_t buf;
    pack_one(&buf, in, id);
    ck_assert_uint_eq(buf.bytes_used, 2 + 4 + 8 + 4 + 3 * 8 + 4 + 6 * 8);
    int32_t k = 1;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &buf, out, &k, id), PMIX_SUCCESS);
    ck_assert(0 == memcmp(in, out, sizeof(in)));
    /* Another size on the wire: refused before any data is read. */
    buf.unpack_ptr = buf.base_ptr;
    buf.base_ptr[18] = 5;
    k = 1;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &buf, out, &k, id), PMIX_ERR_TYPE_MISMATCH);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}
END_TEST

/* Reader and writer over a plain byte range, for element-level checks. */
static pmix_status_t unpack_bytes(const void *bytes, size_t len, void *dest, pmix_data_type_t id)
{
    drover_reader_t r = {.pos = bytes, .end = (const uint8_t *)bytes + len};
    pmix_status_t rc = drover_unpack(&r, dest, 1, id);
    return PMIX_SUCCESS == rc && r.pos != r.end ? PMIX_ERR_UNPACK_FAILURE : rc;
}

START_TEST(a_relay_keeps_packed_values_whole_and_unread)
{
    /* Same structure under two names: the fingerprint ignores names, so
     * one process can pack with the real type and relay with the other. */
    load_ok("real.yml", "metadata: {n: int}\n"
                        "types: {direct: {type: struct, members: [{a: char}, {v: {type: array, "
                        "subtype: double, size: $n}}, {p: {type: pointer, subtype: int}}]}}\n");
    char *errors = NULL;
    const char *relayed = "metadata: {n: int}\n"
                          "types: {relayed: {type: struct, members: [{a: char}, {v: {type: array, "
                          "subtype: double, size: $n}}, {p: {type: pointer, subtype: int}}]}}\n";
    ck_assert_int_eq(drover_types_load_string("relay.yml", relayed, strlen(relayed),
                                              DROVER_TYPES_RELAY, &errors),
                     PMIX_SUCCESS);
    pmix_data_type_t relay_id = id_of("relayed");
    int64_t n = 2;
    ck_assert_int_eq(drover_type_bind("n", &n, 1), PMIX_SUCCESS);
    pmix_data_type_t real_id = id_of("direct");
    struct {
        char a;
        double v[2];
        int *p;
    } in = {'r', {0.5, -1}, NULL}, out;
    int seven = 7;
    in.p = &seven;
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    drover_writer_t w = {&buf};
    ck_assert_int_eq(drover_pack(&w, &in, 1, real_id), PMIX_SUCCESS);
    char held[32];   /* a relay element: bytes and length */
    ck_assert_int_eq(unpack_bytes(buf.base_ptr, buf.bytes_used, held, relay_id), PMIX_SUCCESS);
    pmix_data_buffer_t again;
    PMIX_DATA_BUFFER_CONSTRUCT(&again);
    drover_writer_t w2 = {&again};
    ck_assert_int_eq(drover_pack(&w2, held, 1, relay_id), PMIX_SUCCESS);
    ck_assert_uint_eq(again.bytes_used, buf.bytes_used);
    ck_assert(0 == memcmp(again.base_ptr, buf.base_ptr, buf.bytes_used));
    ck_assert_int_eq(unpack_bytes(again.base_ptr, again.bytes_used, &out, real_id), PMIX_SUCCESS);
    ck_assert(out.a == 'r' && out.v[1] == -1 && 7 == *out.p);
    free(out.p);
    bfrops_release(held, 1, relay_id, NULL);
    /* Cut short anywhere: refused, nothing kept. */
    for (size_t len = 0; len < buf.bytes_used; len++) {
        ck_assert_int_ne(unpack_bytes(buf.base_ptr, len, held, relay_id), PMIX_SUCCESS);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    PMIX_DATA_BUFFER_DESTRUCT(&again);
}
END_TEST

START_TEST(bound_values_that_break_a_bound_are_refused_at_lookup)
{
    load_ok("b.yml", "metadata: {n: int}\n"
                     "types: {s: {type: array, subtype: int, size: $n, subsize: 4}}\n");
    int64_t n = 2;
    ck_assert_int_eq(drover_type_bind("n", &n, 1), PMIX_SUCCESS);
    pmix_data_type_t id;
    ck_assert_int_eq(drover_type_lookup("s", &id), PMIX_ERR_BAD_PARAM);
    n = 4;
    ck_assert_int_eq(drover_type_bind("n", &n, 1), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_lookup("s", &id), PMIX_SUCCESS);
}
END_TEST

START_TEST(a_file_with_an_error_declares_nothing)
{
    char *errors = load_fails("types:\n  good: int32\n  bad: {type: array, subtype: int}\n", 0);
    ck_assert_str_eq(errors, "t.yml:3:8: error: types.bad: an array needs a `size'\n");
    free(errors);
    pmix_data_type_t id;
    ck_assert_int_eq(drover_type_lookup("good", &id), PMIX_ERR_NOT_FOUND);
    ck_assert_uint_eq(types_count(), 0);
}
END_TEST

START_TEST(lenient_mode_warns_about_unknown_keys)
{
    const char *text = "types:\n  v: {type: array, subtype: int, size: 4, unit: m}\n";
    char *errors = load_fails(text, 0);
    ck_assert_str_eq(errors, "t.yml:2:43: error: types.v.unit: unknown key 'unit' for type array "
                             "(valid: type size subtype subsize start order)\n");
    free(errors);
    ck_assert_int_eq(drover_types_load_string("t.yml", text, strlen(text), DROVER_TYPES_LENIENT,
                                              &errors),
                     PMIX_SUCCESS);
    ck_assert_str_eq(errors, "t.yml:2:43: warning: types.v.unit: unknown key 'unit' for type "
                             "array, ignored (valid: type size subtype subsize start order)\n");
    free(errors);
    ck_assert_uint_eq(id_of("v"), DROVER_DECLARED_ID_MIN);
}
END_TEST

START_TEST(check_only_declares_nothing)
{
    char *errors = NULL;
    ck_assert_int_eq(drover_types_load_string("s.yml", spec, strlen(spec), DROVER_TYPES_CHECK_ONLY,
                                              &errors),
                     PMIX_SUCCESS);
    ck_assert_ptr_null(errors);
    ck_assert_uint_eq(types_count(), 0);
}
END_TEST

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

START_TEST(alias_bombs_deep_nesting_and_garbage_are_refused)
{
    char bomb[4096];
    size_t used = (size_t)snprintf(bomb, sizeof(bomb), "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 10; i++) {
        used += (size_t)snprintf(bomb + used, sizeof(bomb) - used, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, "
                                 "*a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i - 1, i - 1, i - 1,
                                 i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
    }
    double t0 = seconds();
    char *errors = load_fails(bomb, 0);
    ck_assert_ptr_nonnull(strstr(errors, "aliases expand the document past 200000 nodes"));
    free(errors);

    size_t depth = 100000;
    char *deep = malloc(2 * depth + 1);
    memset(deep, '[', depth);
    memset(deep + depth, ']', depth);
    deep[2 * depth] = '\0';
    errors = load_fails(deep, 0);
    ck_assert_str_eq(errors, "t.yml:1:65: error: nesting deeper than 64 levels\n");
    free(errors);
    free(deep);

    errors = load_fails("types: {a: &A {type: pointer, subtype: *A}}\n", 0);
    ck_assert_str_eq(errors, "t.yml:1:40: error: alias '*A' refers to a node that contains it\n");
    free(errors);
    errors = load_fails("\x01\xff: [}\n", 0);
    ck_assert_ptr_nonnull(strstr(errors, "t.yml:1:1: error: "));
    free(errors);
    errors = load_fails("- 1\n- 2\n", 0);
    ck_assert_str_eq(errors, "t.yml:1:1: error: the document must be a mapping with a `types:' section\n");
    free(errors);
    /* Bounded time, not a benchmark: the limits stop each case early. */
    ck_assert(seconds() - t0 < 10);
}
END_TEST

START_TEST(every_error_of_a_file_is_reported_with_its_place)
{
    const char *text =
        "metadata:\n"
        "  n: int\n"
        "types:\n"
        "  grid:\n"
        "    type: struct\n"
        "    members:\n"
        "      - a: chr\n"
        "      - b: {type: array, subtype: int, sizes: [5, 10]}\n"
        "      - c: {type: pointer, subtype: pointt}\n"
        "  point: {type: struct, members: {x: double}}\n"
        "  dyn: {type: array, subtype: double, size: $m + 1}\n"
        "  s: {type: array, subtype: int, size: 4, start: 3, subsize: 2}\n"
        "  r: {type: record, buffersize: 8, members: {a: {type: int, disp: 0}, b: {type: int, disp: 2}}}\n"
        "  loop: {type: struct, members: [{x: loop2}]}\n"
        "  loop2: {type: pointer, subtype: loop}\n"
        "  int: double\n"
        "  loop2: int\n";
    char *errors = load_fails(text, 0);
    ck_assert_str_eq(errors,
        "t.yml:17:3: error: types.loop2: duplicate key 'loop2' (first at 15:3)\n"
        "t.yml:7:12: error: types.grid.members[0].a: unknown type 'chr'; did you mean 'char'?\n"
        "t.yml:8:40: error: types.grid.members[1].b.sizes: unknown key 'sizes' for type array; did you mean 'size'?\n"
        "t.yml:8:12: error: types.grid.members[1].b: an array needs a `size'\n"
        "t.yml:9:37: error: types.grid.members[2].c.subtype: unknown type 'pointt'; did you mean 'point'?\n"
        "t.yml:10:34: error: types.point.members: expected an ordered mapping (a sequence of `- name: type'), found an (unordered) mapping\n"
        "t.yml:11:45: error: types.dyn.size: '$m' is not declared in metadata: or data:; did you mean '$n'?\n"
        "t.yml:16:3: error: types.int: 'int' is a builtin type and cannot be declared again\n"
        "t.yml:15:35: error: types.loop2.subtype: type 'loop' contains itself: loop -> loop2 -> loop\n"
        "t.yml:12:40: error: types.s: dimension 0: start 3 + subsize 2 is past its size 4\n"
        "t.yml:13:71: error: types.r.members.b: bytes 2..6 overlap a (bytes 0..4)\n");
    free(errors);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("types_decl");
    TCase *tc = tcase_create("declared");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, layouts_match_the_c_rules_and_explicit_displacements);
    tcase_add_test(tc, ids_follow_declaration_order_and_reloading_keeps_them);
    tcase_add_test(tc, a_different_declaration_of_a_declared_name_is_refused);
    tcase_add_test(tc, declared_types_pass_the_type_harness);
    tcase_add_test(tc, a_slice_packs_only_its_selected_elements);
    tcase_add_test(tc, a_failed_in_place_unpack_changes_nothing);
    tcase_add_test(tc, values_copies_and_prints_work_through_the_pmix_api);
    tcase_add_test(tc, another_fingerprint_is_a_type_mismatch);
    tcase_add_test(tc, record_functions_called_directly_refuse_rather_than_guess);
    tcase_add_test(tc, a_dollar_sized_type_waits_for_its_binding_and_carries_its_shape);
    tcase_add_test(tc, bound_values_that_break_a_bound_are_refused_at_lookup);
    tcase_add_test(tc, a_relay_keeps_packed_values_whole_and_unread);
    tcase_add_test(tc, a_file_with_an_error_declares_nothing);
    tcase_add_test(tc, lenient_mode_warns_about_unknown_keys);
    tcase_add_test(tc, check_only_declares_nothing);
    tcase_add_test(tc, alias_bombs_deep_nesting_and_garbage_are_refused);
    tcase_add_test(tc, every_error_of_a_file_is_reported_with_its_place);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? 0 : 1;
}
