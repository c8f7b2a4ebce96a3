/*
 * test_types_decode.c - decoding any registered type into MPI's envelope
 * and contents, and the constructors that rebuild it (src/types).
 *
 * Golden decodings of declared types, the refusals of the constructors,
 * and for every type of a file: decode -> recreate -> decode gives the
 * same combiner, integers and addresses and the same datatypes (by id or,
 * for parts declared anew, by fingerprint), and recreating the recreated
 * type gives the identical type (fingerprint, size).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Same datatype: the same id, or two declared types of one fingerprint. */
static bool same_type(pmix_data_type_t a, pmix_data_type_t b)
{
    const named_t *x = types_by_id(a), *y = types_by_id(b);
    return a == b || (NULL != x && NULL != y && x->fingerprint == y->fingerprint);
}

START_TEST(decode_recreate_decode_is_the_identical_type)
{
    load();
    static const char *const names[] = {"grid", "slice", "row", "packed", "rec", "alias",
                                        "small", "ptr", "point", "dyn"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        pmix_data_type_t original = id_of(names[i]);
        decoded_t d1 = decode(original);
        pmix_data_type_t again = recreate(&d1);
        decoded_t d2 = decode(again);
        same_call(&d1, &d2);
        for (int k = 0; k < d1.nd; k++) {
            ck_assert_msg(same_type(d1.types[k], d2.types[k]), "%s: datatype %d differs", names[i], k);
        }
        ck_assert_uint_eq(drover_datatype_lookup(again)->size, drover_datatype_lookup(original)->size);
        pmix_data_type_t third = recreate(&d2);
        ck_assert_uint_eq(types_by_id(third)->fingerprint, types_by_id(again)->fingerprint);
        ck_assert_uint_eq(drover_datatype_lookup(third)->size, drover_datatype_lookup(again)->size);
    }
}
END_TEST

START_TEST(constructors_refuse_what_the_tree_cannot_hold)
{
    load();
    pmix_data_type_t id;
    int sizes[] = {4}, subs[] = {2}, starts[] = {1}, bl[] = {1};
    intptr_t neg[] = {-8};
    pmix_data_type_t str[] = {PMIX_STRING}, i32[] = {PMIX_INT32};
    ck_assert_int_eq(drover_type_create_subarray(NULL, 1, sizes, subs, starts, 1, PMIX_INT32, &id),
                     PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(drover_type_create_struct(NULL, 1, bl, neg, i32, &id), PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(drover_type_create_contiguous(NULL, 3, PMIX_STRING, &id), PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(drover_type_create_struct(NULL, 1, bl, (intptr_t[]){0}, str, &id),
                     PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(drover_type_create_resized(NULL, id_of("row"), 0, 64, &id), PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(drover_type_create_resized(NULL, id_of("grid"), 4, 256, &id),
                     PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(drover_type_create_contiguous(NULL, -1, PMIX_INT32, &id), PMIX_ERR_BAD_PARAM);
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
    ck_assert_str_eq(sig, "struct{a:i1;b:[5,10](i4);}");
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
    tcase_add_test(tc, constructors_refuse_what_the_tree_cannot_hold);
    tcase_add_test(tc, a_constructed_type_is_a_full_datatype);
    tcase_add_test(tc, size_extent_true_extent_and_signature_are_queryable);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? 0 : 1;
}
