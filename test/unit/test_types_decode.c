/*
 * test_types_decode.c - decoding any registered type into MPI's envelope
 * and contents, and the constructors that rebuild it (src/types).
 *
 * Golden decodings of declared types, the constructors' MPI bounds (Open
 * MPI's golden struct, negative displacements, resizing any type, Fortran
 * order) and refusals, and for every type of a file and of a corpus of
 * every kind: decode -> recreate -> decode gives the same combiner,
 * integers and addresses and the same datatypes (by id or, for parts
 * declared anew, by fingerprint), and the recreated type is the identical
 * type (fingerprint, signature, size, lb, extent, true lb and extent, type
 * map); for a $-sized type, whose rebuilt form has fixed sizes, all but
 * the fingerprint.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "decode_harness.h"
#include "drover.h"
#include "type_harness.h"
#include "typeset.h"
#include "types.h"

static const char *const spec =
    "metadata: {n: int}\n"
    "types:\n"
    "  grid: {type: struct, members: [{a: char}, {b: {type: array, subtype: int, size: [5, 10]}}]}\n"
    "  slice: {type: array, subtype: int, size: [8, 4], start: [2, 1], subsize: [4, 2]}\n"
    "  row: {type: array, subtype: double, size: 6}\n"
    "  packed: {type: tuple, buffersize: 13, elements: [{type: char, disp: 0}, {type: int, "
    "disp: 1}, {type: double, disp: 5}]}\n"
    "  rec: {type: record, buffersize: 16, members: {p: {disp: 0, type: pointer, subtype: "
    "char}, i: {disp: 8, type: int}}}\n"
    "  alias: point\n"
    "  small: int16\n"
    "  ptr: {type: pointer, subtype: {type: array, subtype: point, size: 3}}\n"
    "  point: {type: struct, members: [{x: double}, {y: double}]}\n"
    "  dyn: {type: array, subtype: point, size: $n}\n";

static pmix_data_type_t id_of(const char *name)
{
    pmix_data_type_t id = 0;
    ck_assert_int_eq(drover_type_lookup(name, &id), PMIX_SUCCESS);
    return id;
}

static void load(void)
{
    int64_t n = 2;
    ck_assert_int_eq(drover_type_bind("n", &n, 1), PMIX_SUCCESS);
    char *errors = NULL;
    ck_assert_msg(PMIX_SUCCESS == drover_types_load_string("d.yml", spec, strlen(spec), 0, &errors),
                  "%s", errors);
}

START_TEST(builtins_and_c_types_are_named)
{
    int ni, na, nd, c;
    ck_assert_int_eq(drover_type_get_envelope(PMIX_PROC, &ni, &na, &nd, &c), PMIX_SUCCESS);
    ck_assert_int_eq(c, DROVER_COMBINER_NAMED);
    ck_assert_int_eq(ni + na + nd, 0);
    int ints[1];
    ck_assert_int_eq(drover_type_get_contents(PMIX_PROC, 1, 0, 0, ints, NULL, NULL), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(drover_type_get_envelope(60000, &ni, &na, &nd, &c), PMIX_ERR_UNKNOWN_DATA_TYPE);
}
END_TEST

START_TEST(declared_types_decode_as_declared)
{
    load();
    decoded_t d = decode(id_of("grid"));
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_STRUCT);
    ints_are(&d, 3, (int[]){2, 1, 1});
    ck_assert_int_eq(d.na, 2);
    ck_assert_int_eq(d.addrs[1], 4);
    ck_assert_int_eq(d.types[0], PMIX_INT8);
    ck_assert_str_eq(drover_datatype_lookup(d.types[1])->name, "grid/1");
    decoded_t b = decode(d.types[1]);
    ck_assert_int_eq(b.combiner, DROVER_COMBINER_SUBARRAY);
    ints_are(&b, 8, (int[]){2, 5, 10, 5, 10, 0, 0, DROVER_ORDER_C});
    ck_assert_int_eq(b.types[0], PMIX_INT32);
    ck_assert_int_eq(decode(id_of("grid")).types[1], d.types[1]);   /* declared once */

    d = decode(id_of("slice"));
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_SUBARRAY);
    ints_are(&d, 8, (int[]){2, 8, 4, 4, 2, 2, 1, DROVER_ORDER_C});
    d = decode(id_of("row"));
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_CONTIGUOUS);
    ints_are(&d, 1, (int[]){6});
    ck_assert_int_eq(d.types[0], PMIX_DOUBLE);
    d = decode(id_of("dyn"));
    ints_are(&d, 1, (int[]){2});
    ck_assert_int_eq(d.types[0], id_of("point"));

    d = decode(id_of("packed"));
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_RESIZED);
    ck_assert_int_eq(d.addrs[0], 0);
    ck_assert_int_eq(d.addrs[1], 13);
    decoded_t nat = decode(d.types[0]);
    ck_assert_int_eq(nat.combiner, DROVER_COMBINER_STRUCT);
    ck_assert_int_eq(nat.addrs[2], 5);
    ck_assert_uint_eq(drover_datatype_lookup(d.types[0])->size, 16);

    d = decode(id_of("rec"));
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_STRUCT);
    ck_assert_int_eq(decode(d.types[0]).combiner, DROVER_COMBINER_POINTER);
    d = decode(id_of("alias"));
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_DUP);
    ck_assert_int_eq(d.types[0], id_of("point"));
    d = decode(id_of("small"));
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_DUP);
    ck_assert_int_eq(d.types[0], PMIX_INT16);
    d = decode(id_of("ptr"));
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_POINTER);
    ck_assert_int_eq(decode(d.types[0]).combiner, DROVER_COMBINER_CONTIGUOUS);
    ck_assert_int_eq(drover_type_get_contents(id_of("grid"), 2, 2, 2, d.ints, d.addrs, d.types),
                     PMIX_ERR_BAD_PARAM);
}
END_TEST

START_TEST(decode_recreate_decode_is_the_identical_type)
{
    load();
    static const char *const names[] = {"grid", "slice", "row", "packed", "rec", "alias",
                                        "small", "ptr", "point", "dyn"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        rebuilds_identically(id_of(names[i]), 4);
    }
}
END_TEST

/* Every kind, nested, slices (C and Fortran order), pointers, $-sized,
 * bounds moved by +lb. */
static const char *const corpus =
    "metadata: {n: int, m: int}\n"
    "types:\n"
    "  c: char\n"
    "  u: unsigned long\n"
    "  r8: {type: real, kind: 8}\n"
    "  point: {type: struct, members: [{x: double}, {y: double}]}\n"
    "  grid: {type: struct, members: [{a: char}, {b: {type: array, subtype: int, size: [5, 10]}}]}\n"
    "  nested: {type: struct, members: [{tag: short}, {g: grid}, {pts: {type: array, subtype: "
    "point, size: 3}}, {inner: {type: struct, members: [{q: char}, {w: {type: array, subtype: "
    "double, size: [6, 4], start: [1, 1], subsize: [3, 2]}}]}}]}\n"
    "  rec: {type: record, buffersize: 40, members: {a: {disp: 4, type: int}, p: {disp: 8, type: "
    "pointer, subtype: point}, z: {disp: 16, type: array, subtype: char, size: 5}}}\n"
    "  tight: {type: record, buffersize: 9, members: {a: {disp: 0, type: char}, b: {disp: 1, "
    "type: double}}}\n"
    "  tup: {type: tuple, elements: [char, double, {type: array, subtype: int, size: 3}]}\n"
    "  tupd: {type: tuple, buffersize: 220, elements: [{type: short, disp: 210}, {type: grid, "
    "disp: 4}]}\n"
    "  moved: {type: tuple, buffersize: 12, +lb: -8, elements: [{type: int, disp: 0}, {type: "
    "int, disp: 8}]}\n"
    "  ptr: {type: pointer, subtype: {type: array, subtype: point, size: 3}}\n"
    "  pp: {type: pointer, subtype: {type: pointer, subtype: int}}\n"
    "  alias: grid\n"
    "  cube: {type: array, subtype: int, size: [4, 5, 6], start: [1, 0, 2], subsize: [2, 5, 3]}\n"
    "  fcols: {type: array, subtype: double, size: [4, 8], subsize: [2, 4], start: [1, 2], "
    "order: Fortran}\n"
    "  rows: {type: array, subtype: moved, size: 2}\n"
    "  dynarr: {type: array, subtype: point, size: $n}\n"
    "  dyns: {type: struct, members: [{k: int}, {v: {type: array, subtype: double, size: $n}}, "
    "{w: {type: array, subtype: int, size: [$m, 3], start: [0, 1], subsize: [$m, 2]}}]}\n"
    "  dynptr: {type: pointer, subtype: dyns}\n";

START_TEST(every_kind_of_declared_type_rebuilds_identically)
{
    int64_t n = 3, m = 2;
    ck_assert_int_eq(drover_type_bind("n", &n, 1), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_bind("m", &m, 1), PMIX_SUCCESS);
    char *errors = NULL;
    ck_assert_msg(PMIX_SUCCESS == drover_types_load_string("c.yml", corpus, strlen(corpus), 0, &errors),
                  "%s", errors);
    size_t count = types_count();
    ck_assert_uint_eq(count, 20);
    for (size_t i = 0; i < count; i++) {
        pmix_data_type_t id;
        ck_assert_int_eq(drover_type_lookup(types_at(i)->name, &id), PMIX_SUCCESS);
        rebuilds_identically(id, 4);
    }
}
END_TEST

START_TEST(struct_bounds_are_mpis)
{
    /* Open MPI: struct {CHAR x3 @10, INT x2 @20, FLOAT x1 @30}: size 15,
     * lb 10, extent 24. A value in memory starts at lb. */
    pmix_data_type_t id;
    ck_assert_int_eq(drover_type_create_struct(NULL, 3, (int[]){3, 2, 1}, (intptr_t[]){10, 20, 30},
                                               (pmix_data_type_t[]){PMIX_INT8, PMIX_INT32, PMIX_FLOAT},
                                               &id),
                     PMIX_SUCCESS);
    bounds_are(id, 15, 10, 24, 10, 24);
    map_is(id, 0, 6, (intptr_t[]){10, 11, 12, 20, 24, 30});
    decoded_t d = decode(id);
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_STRUCT);
    ck_assert_int_eq(d.addrs[0], 10);
    ck_assert_int_eq(d.addrs[2], 30);
    static const unsigned char value[24] = {'a', 'b', 'c', 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0,
                                            0, 0, 0, 0, 0x80, 0x3f};
    rebuilds_and_travels(id, value);

    /* Negative displacements: lb -6 (the char), extent rounded to 8. */
    ck_assert_int_eq(drover_type_create_struct(NULL, 2, (int[]){1, 1}, (intptr_t[]){-6, 0},
                                               (pmix_data_type_t[]){PMIX_INT8, PMIX_INT16}, &id),
                     PMIX_SUCCESS);
    bounds_are(id, 3, -6, 8, -6, 8);
    map_is(id, 0, 2, (intptr_t[]){-6, 0});
    static const unsigned char neg[8] = {'z', 0, 0, 0, 0, 0, 0x34, 0x12};
    rebuilds_and_travels(id, neg);
}
END_TEST

START_TEST(resizing_any_type_is_mpis)
{
    load();
    pmix_data_type_t id, row = id_of("row");
    /* A contiguous of 6 doubles in [-8, 56): its data is 0..48. */
    ck_assert_int_eq(drover_type_create_resized(NULL, row, -8, 64, &id), PMIX_SUCCESS);
    bounds_are(id, 48, -8, 64, 0, 48);
    map_is(id, 0, 6, (intptr_t[]){0, 8, 16, 24, 32, 40});
    decoded_t d = decode(id);
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_RESIZED);
    ck_assert_int_eq(d.addrs[0], -8);
    ck_assert_int_eq(d.addrs[1], 64);
    static const double doubles[8] = {0, 1, 2, 3, 4, 5, 6, 0};
    rebuilds_and_travels(id, doubles);
    /* A scalar and a pointer grow; a struct shrinks into its padding. */
    ck_assert_int_eq(drover_type_create_resized(NULL, PMIX_INT16, 0, 4, &id), PMIX_SUCCESS);
    bounds_are(id, 2, 0, 4, 0, 2);
    static const int16_t shorts[2] = {-3, 0};
    rebuilds_and_travels(id, shorts);
    ck_assert_int_eq(drover_type_create_resized(NULL, id_of("ptr"), -8, 16, &id), PMIX_SUCCESS);
    bounds_are(id, 8, -8, 16, 0, 8);
    pmix_data_type_t packed;
    ck_assert_int_eq(drover_type_create_resized(NULL, id_of("rec"), 0, 12, &packed), PMIX_SUCCESS);
    bounds_are(packed, 12, 0, 12, 0, 12);
    ck_assert_int_eq(decode(packed).combiner, DROVER_COMBINER_RESIZED);
    /* Data outside [lb, lb + extent) is not part of a value in memory. */
    ck_assert_int_eq(drover_type_create_resized(NULL, row, 8, 64, &id), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(drover_type_create_resized(NULL, row, 0, 40, &id), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(drover_type_create_resized(NULL, row, 0, -1, &id), PMIX_ERR_BAD_PARAM);
}
END_TEST

START_TEST(fortran_order_is_the_reversed_c_order)
{
    /* Fortran {4,8}/{2,4}@{1,2} of INT is C {8,4}/{4,2}@{2,1}: MPI's
     * golden offsets 9 10 13 14 17 18 21 22 (in ints), extent 128. */
    pmix_data_type_t id, c;
    int sizes[] = {4, 8}, subs[] = {2, 4}, starts[] = {1, 2};
    ck_assert_int_eq(drover_type_create_subarray(NULL, 2, sizes, subs, starts, DROVER_ORDER_FORTRAN,
                                                 PMIX_INT32, &id),
                     PMIX_SUCCESS);
    bounds_are(id, 32, 0, 128, 36, 56);
    map_is(id, 0, 8, (intptr_t[]){36, 40, 52, 56, 68, 72, 84, 88});
    decoded_t d = decode(id);
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_SUBARRAY);
    ints_are(&d, 8, (int[]){2, 4, 8, 2, 4, 1, 2, DROVER_ORDER_FORTRAN});
    static int32_t cells[32];
    for (int i = 0; i < 32; i++) {
        cells[i] = i * 3 - 40;
    }
    rebuilds_and_travels(id, cells);
    ck_assert_int_eq(drover_type_create_subarray(NULL, 2, (int[]){8, 4}, (int[]){4, 2}, (int[]){2, 1},
                                                 DROVER_ORDER_C, PMIX_INT32, &c),
                     PMIX_SUCCESS);
    identical(id, c, true);   /* the same bytes: the same type but for its decoding */
    /* One dimension in Fortran order is still a Fortran call. */
    ck_assert_int_eq(drover_type_create_subarray(NULL, 1, (int[]){6}, (int[]){6}, (int[]){0},
                                                 DROVER_ORDER_FORTRAN, PMIX_DOUBLE, &id),
                     PMIX_SUCCESS);
    d = decode(id);
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_SUBARRAY);
    ck_assert_int_eq(d.ints[4], DROVER_ORDER_FORTRAN);
}
END_TEST

/* The canonical YAML of constructed types loads to the same types: the
 * load keeps each (a redeclaration with the same signature is harmless)
 * and a different signature would be an error. */
START_TEST(constructed_types_write_back_as_yaml)
{
    pmix_data_type_t id;
    ck_assert_int_eq(drover_type_create_hvector("hv", 2, 1, -8, PMIX_INT32, &id), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_vector("none", 0, 1, 1, PMIX_DOUBLE, &id), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_struct("st10", 2, (int[]){3, 1}, (intptr_t[]){10, 20},
                                               (pmix_data_type_t[]){PMIX_INT8, PMIX_FLOAT}, &id),
                     PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_subarray("fsub", 2, (int[]){4, 8}, (int[]){2, 4},
                                                 (int[]){1, 2}, DROVER_ORDER_FORTRAN, PMIX_INT32, &id),
                     PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_resized("rsz", PMIX_INT16, -2, 8, &id), PMIX_SUCCESS);
    size_t n = types_count();
    const named_t *list[8];
    ck_assert_uint_eq(n, 5);
    for (size_t i = 0; i < n; i++) {
        list[i] = types_at(i);
    }
    strbuf_t b = STRBUF_INIT;
    canonical_yaml(&b, list, n);
    char *yaml = strbuf_finish(&b), *errors = NULL;
    ck_assert_ptr_nonnull(yaml);
    ck_assert_msg(PMIX_SUCCESS == drover_types_load_string("w.yml", yaml, strlen(yaml), 0, &errors),
                  "%s\n%s", yaml, errors);
    ck_assert_uint_eq(types_count(), n);
    ck_assert_ptr_nonnull(strstr(yaml, "order: Fortran"));
    ck_assert_ptr_nonnull(strstr(yaml, "+lb: '-8'"));
    free(yaml);
}
END_TEST

START_TEST(constructors_refuse_what_a_value_cannot_hold)
{
    load();
    pmix_data_type_t id, moved;
    int sizes[] = {4}, subs[] = {2}, starts[] = {1}, bl[] = {1};
    pmix_data_type_t str[] = {PMIX_STRING};
    /* No fixed size: a string cannot be an element. */
    ck_assert_int_eq(drover_type_create_contiguous(NULL, 3, PMIX_STRING, &id), PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(drover_type_create_struct(NULL, 1, bl, (intptr_t[]){0}, str, &id),
                     PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(drover_type_create_subarray(NULL, 1, sizes, subs, starts, 2, PMIX_INT32, &id),
                     PMIX_ERR_BAD_PARAM);
    /* MPI gives a subarray lb 0: data of an old type with lb -8 would
     * fall outside it. */
    ck_assert_int_eq(drover_type_create_resized(NULL, PMIX_INT32, -8, 12, &moved), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_subarray(NULL, 1, sizes, subs, starts, DROVER_ORDER_C, moved, &id),
                     PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(drover_type_create_contiguous(NULL, -1, PMIX_INT32, &id), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(drover_type_create_struct(NULL, 1, (int[]){-1}, (intptr_t[]){0},
                                               (pmix_data_type_t[]){PMIX_INT32}, &id),
                     PMIX_ERR_BAD_PARAM);
    /* A bound the validated tree refuses: start + subsize past size. */
    ck_assert_int_eq(drover_type_create_subarray(NULL, 1, sizes, (int[]){4}, starts, DROVER_ORDER_C,
                                                 PMIX_INT32, &id),
                     PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(drover_type_create_contiguous("grid", 3, PMIX_INT32, &id), PMIX_ERR_DUPLICATE_KEY);
}
END_TEST

START_TEST(size_extent_true_extent_and_signature_are_queryable)
{
    load();
    size_t size;
    intptr_t lb, extent, tlb, text;
    /* MPI's golden subarray: C {8,4}/{4,2}@{2,1} of INT. */
    pmix_data_type_t slice = id_of("slice");
    ck_assert_int_eq(drover_type_size(slice, &size), PMIX_SUCCESS);
    ck_assert_uint_eq(size, 32);
    ck_assert_int_eq(drover_type_get_extent(slice, &lb, &extent), PMIX_SUCCESS);
    ck_assert_int_eq(lb, 0);
    ck_assert_int_eq(extent, 128);
    ck_assert_int_eq(drover_type_get_true_extent(slice, &tlb, &text), PMIX_SUCCESS);
    ck_assert_int_eq(tlb, 36);
    ck_assert_int_eq(text, 56);
    /* struct {char a; int b[5][10];}: extent 204 = sizeof, 201 bytes of data. */
    pmix_data_type_t grid = id_of("grid");
    ck_assert_int_eq(drover_type_size(grid, &size), PMIX_SUCCESS);
    ck_assert_uint_eq(size, 201);
    ck_assert_int_eq(drover_type_get_true_extent(grid, &tlb, &text), PMIX_SUCCESS);
    ck_assert_int_eq(tlb, 0);
    ck_assert_int_eq(text, 204);
    /* Record {ptr@0, int@8} in 16 bytes: data ends at 12. */
    ck_assert_int_eq(drover_type_get_true_extent(id_of("rec"), &tlb, &text), PMIX_SUCCESS);
    ck_assert_int_eq(text, 12);
    ck_assert_int_eq(drover_type_size(PMIX_PROC, &size), PMIX_SUCCESS);
    ck_assert_uint_eq(size, sizeof(pmix_proc_t));
    char *sig;
    uint64_t fp;
    ck_assert_int_eq(drover_type_signature(grid, &sig, &fp), PMIX_SUCCESS);
    ck_assert_str_eq(sig, "{@0:i1;@4:[5,10](i4);}(204)");
    ck_assert_uint_eq(fp, types_by_id(grid)->fingerprint);
    free(sig);
    ck_assert_int_eq(drover_type_signature(PMIX_PROC, &sig, &fp), PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(drover_type_size(60000, &size), PMIX_ERR_UNKNOWN_DATA_TYPE);
}
END_TEST

typedef struct made {
    char c;
    double v[2];
    int *p;
} made_t;

START_TEST(a_constructed_type_is_a_full_datatype)
{
    load();
    pmix_data_type_t pint, made;
    ck_assert_int_eq(drover_type_create_pointer("int_ptr", PMIX_INT32, &pint), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_struct("made", 3, (int[]){1, 2, 1},
                                               (intptr_t[]){0, 8, 24},
                                               (pmix_data_type_t[]){PMIX_INT8, PMIX_DOUBLE, pint},
                                               &made),
                     PMIX_SUCCESS);
    ck_assert_uint_eq(drover_datatype_lookup(made)->size, sizeof(made_t));
    pmix_data_type_t found;
    ck_assert_int_eq(drover_type_lookup("made", &found), PMIX_SUCCESS);
    ck_assert_uint_eq(found, made);
    static int forty_two = 42;
    static made_t sample = {'m', {1.5, -2}, &forty_two};
    type_sample_t s = {made, &sample, "constructed struct"};
    type_harness_check_sample(&s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("types_decode");
    TCase *tc = tcase_create("decode");
    tcase_add_test(tc, builtins_and_c_types_are_named);
    tcase_add_test(tc, declared_types_decode_as_declared);
    tcase_add_test(tc, decode_recreate_decode_is_the_identical_type);
    tcase_add_test(tc, every_kind_of_declared_type_rebuilds_identically);
    tcase_add_test(tc, struct_bounds_are_mpis);
    tcase_add_test(tc, resizing_any_type_is_mpis);
    tcase_add_test(tc, fortran_order_is_the_reversed_c_order);
    tcase_add_test(tc, constructors_refuse_what_a_value_cannot_hold);
    tcase_add_test(tc, constructed_types_write_back_as_yaml);
    tcase_add_test(tc, a_constructed_type_is_a_full_datatype);
    tcase_add_test(tc, size_extent_true_extent_and_signature_are_queryable);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? 0 : 1;
}
