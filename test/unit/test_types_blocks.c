/*
 * test_types_blocks.c - the block constructors (vector, hvector, indexed,
 * hindexed, indexed_block, hindexed_block), their decoding and the type
 * map (src/types/blocks.c, typemap.c).
 *
 * Per combiner: the golden decoding (MPI's get_contents layout), the type
 * map, size, lb and extent as Open MPI computes them, decode -> recreate
 * -> decode giving the identical type (fingerprint, size, lb, extent, true
 * lb and extent, type map, signature), and pack -> unpack -> compare
 * through the registry harness; negative displacements and calls without
 * data as MPI takes them.
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

static void contents_are(const decoded_t *d, int combiner, int ni, const int *ints, int na,
                         const intptr_t *addrs, pmix_data_type_t old)
{
    ck_assert_int_eq(d->combiner, combiner);
    ck_assert_int_eq(d->na, na);
    ck_assert_int_eq(d->nd, 1);
    ints_are(d, ni, ints);
    for (int i = 0; i < na; i++) {
        ck_assert_int_eq(d->addrs[i], addrs[i]);
    }
    ck_assert_int_eq(d->types[0], old);
}

START_TEST(vector_of_vector_is_open_mpis_golden_type)
{
    pmix_data_type_t inner, outer;
    ck_assert_int_eq(drover_type_create_vector(NULL, 2, 1, 2, PMIX_INT32, &inner), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_vector("vv", 2, 1, 2, inner, &outer), PMIX_SUCCESS);
    decoded_t d = decode(outer);
    contents_are(&d, DROVER_COMBINER_VECTOR, 3, (int[]){2, 1, 2}, 0, NULL, inner);
    d = decode(inner);
    contents_are(&d, DROVER_COMBINER_VECTOR, 3, (int[]){2, 1, 2}, 0, NULL, PMIX_INT32);
    /* Open MPI 4.1.4: size 16, extent 36, int offsets 0 2 6 8. */
    bounds_are(outer, 16, 0, 36, 0, 36);
    map_is(outer, PMIX_INT32, 4, (intptr_t[]){0, 8, 24, 32});
}
END_TEST

START_TEST(each_combiner_decodes_as_its_call)
{
    pmix_data_type_t id;
    ck_assert_int_eq(drover_type_create_hvector(NULL, 3, 2, 24, PMIX_DOUBLE, &id), PMIX_SUCCESS);
    decoded_t d = decode(id);
    contents_are(&d, DROVER_COMBINER_HVECTOR, 2, (int[]){3, 2}, 1, (intptr_t[]){24}, PMIX_DOUBLE);
    bounds_are(id, 48, 0, 64, 0, 64);
    map_is(id, PMIX_DOUBLE, 6, (intptr_t[]){0, 8, 24, 32, 48, 56});

    /* Open MPI: offsets 10 11 12 20 21 30 in ints, lb 40, extent 84. */
    ck_assert_int_eq(drover_type_create_indexed(NULL, 3, (int[]){3, 2, 1}, (int[]){10, 20, 30},
                                                PMIX_INT32, &id),
                     PMIX_SUCCESS);
    d = decode(id);
    contents_are(&d, DROVER_COMBINER_INDEXED, 7, (int[]){3, 3, 2, 1, 10, 20, 30}, 0, NULL, PMIX_INT32);
    bounds_are(id, 24, 40, 84, 40, 84);
    map_is(id, PMIX_INT32, 6, (intptr_t[]){40, 44, 48, 80, 84, 120});

    /* A block of length 0 holds nothing; blocks need not be in order. */
    ck_assert_int_eq(drover_type_create_hindexed(NULL, 3, (int[]){3, 0, 1}, (intptr_t[]){16, 4, 1},
                                                 PMIX_INT32, &id),
                     PMIX_SUCCESS);
    d = decode(id);
    contents_are(&d, DROVER_COMBINER_HINDEXED, 4, (int[]){3, 3, 0, 1}, 3, (intptr_t[]){16, 4, 1},
                 PMIX_INT32);
    bounds_are(id, 16, 1, 27, 1, 27);
    map_is(id, PMIX_INT32, 4, (intptr_t[]){16, 20, 24, 1});

    ck_assert_int_eq(drover_type_create_indexed_block(NULL, 3, 2, (int[]){0, 4, 10}, PMIX_INT16, &id),
                     PMIX_SUCCESS);
    d = decode(id);
    contents_are(&d, DROVER_COMBINER_INDEXED_BLOCK, 5, (int[]){3, 2, 0, 4, 10}, 0, NULL, PMIX_INT16);
    bounds_are(id, 12, 0, 24, 0, 24);
    map_is(id, PMIX_INT16, 6, (intptr_t[]){0, 2, 8, 10, 20, 22});

    pmix_data_type_t pair;
    ck_assert_int_eq(drover_type_create_contiguous(NULL, 2, PMIX_INT32, &pair), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_hindexed_block(NULL, 2, 1, (intptr_t[]){0, 12}, pair, &id),
                     PMIX_SUCCESS);
    d = decode(id);
    contents_are(&d, DROVER_COMBINER_HINDEXED_BLOCK, 2, (int[]){2, 1}, 2, (intptr_t[]){0, 12}, pair);
    bounds_are(id, 16, 0, 20, 0, 20);
    map_is(id, PMIX_INT32, 4, (intptr_t[]){0, 4, 12, 16});
}
END_TEST

static pmix_data_type_t made[6];

static void make_one_of_each(void)
{
    ck_assert_int_eq(drover_type_create_vector(NULL, 3, 2, 5, PMIX_INT16, &made[0]), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_hvector(NULL, 2, 3, 40, PMIX_DOUBLE, &made[1]), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_indexed(NULL, 2, (int[]){1, 4}, (int[]){6, 0}, PMIX_UINT32,
                                                &made[2]),
                     PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_hindexed(NULL, 2, (int[]){2, 1}, (intptr_t[]){1, 9},
                                                 PMIX_INT8, &made[3]),
                     PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_indexed_block(NULL, 2, 3, (int[]){4, 0}, PMIX_FLOAT, &made[4]),
                     PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_hindexed_block(NULL, 3, 1, (intptr_t[]){0, 128, 64}, made[1],
                                                       &made[5]),
                     PMIX_SUCCESS);
}

START_TEST(decode_recreate_decode_is_the_identical_type)
{
    make_one_of_each();
    for (size_t k = 0; k < 6; k++) {
        decoded_t d1 = decode(made[k]);
        pmix_data_type_t again = recreate(&d1);
        decoded_t d2 = decode(again);
        same_call(&d1, &d2);
        ck_assert_int_eq(d1.types[0], d2.types[0]);
        identical(made[k], again, true);
        identical(again, recreate(&d2), true);
    }
}
END_TEST

START_TEST(block_types_pack_unpack_and_compare)
{
    make_one_of_each();
    static unsigned char elems[6][256];
    for (size_t k = 0; k < 6; k++) {
        for (size_t i = 0; i < sizeof(elems[k]); i++) {
            elems[k][i] = (unsigned char)(i * 7 + k);
        }
        intptr_t lb, ext;
        ck_assert_int_eq(drover_type_get_extent(made[k], &lb, &ext), PMIX_SUCCESS);
        ck_assert((size_t)ext <= sizeof(elems[k]));
        type_sample_t s = {made[k], elems[k], drover_datatype_lookup(made[k])->name};
        type_harness_check_sample(&s);
    }
}
END_TEST

START_TEST(negative_displacements_are_mpis)
{
    pmix_data_type_t id;
    /* Blocks at 0 and -8: lb -8, extent 12; a value in memory starts at
     * its lb, so the int at -8 is its first 4 bytes. */
    ck_assert_int_eq(drover_type_create_hvector(NULL, 2, 1, -8, PMIX_INT32, &id), PMIX_SUCCESS);
    decoded_t d = decode(id);
    contents_are(&d, DROVER_COMBINER_HVECTOR, 2, (int[]){2, 1}, 1, (intptr_t[]){-8}, PMIX_INT32);
    bounds_are(id, 8, -8, 12, -8, 12);
    map_is(id, PMIX_INT32, 2, (intptr_t[]){0, -8});
    static const int32_t hv[3] = {-1, 0x5a5a5a5a, 7};
    rebuilds_and_travels(id, hv);

    ck_assert_int_eq(drover_type_create_indexed(NULL, 2, (int[]){1, 2}, (int[]){-1, 3}, PMIX_INT16, &id),
                     PMIX_SUCCESS);
    bounds_are(id, 6, -2, 12, -2, 12);
    map_is(id, PMIX_INT16, 3, (intptr_t[]){-2, 6, 8});
    static const int16_t ix[6] = {1, 2, 3, 4, 5, 6};
    rebuilds_and_travels(id, ix);

    /* A block constructor over a type whose lb is not 0: MPI's bounds
     * follow the old type's (here -8 .. 4 then 16 .. 28). */
    pmix_data_type_t outer;
    ck_assert_int_eq(drover_type_create_hvector(NULL, 2, 1, -8, PMIX_INT32, &id), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_hindexed_block(NULL, 2, 1, (intptr_t[]){0, 24}, id, &outer),
                     PMIX_SUCCESS);
    bounds_are(outer, 16, -8, 36, -8, 36);
    map_is(outer, PMIX_INT32, 4, (intptr_t[]){0, -8, 24, 16});
    static const int32_t two[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    rebuilds_and_travels(outer, two);
}
END_TEST

START_TEST(calls_without_data_are_empty_types)
{
    pmix_data_type_t id, none;
    /* MPI: count 0 or blocks of length 0 make a type of size, lb and
     * extent 0, which still decodes as its call. */
    ck_assert_int_eq(drover_type_create_vector(NULL, 0, 1, 1, PMIX_INT32, &none), PMIX_SUCCESS);
    decoded_t d = decode(none);
    contents_are(&d, DROVER_COMBINER_VECTOR, 3, (int[]){0, 1, 1}, 0, NULL, PMIX_INT32);
    bounds_are(none, 0, 0, 0, 0, 0);
    map_is(none, PMIX_INT32, 0, NULL);
    static const char nothing[1];
    rebuilds_and_travels(none, nothing);

    ck_assert_int_eq(drover_type_create_indexed_block(NULL, 2, 0, (int[]){0, 1}, PMIX_DOUBLE, &id),
                     PMIX_SUCCESS);
    d = decode(id);
    contents_are(&d, DROVER_COMBINER_INDEXED_BLOCK, 4, (int[]){2, 0, 0, 1}, 0, NULL, PMIX_DOUBLE);
    rebuilds_and_travels(id, nothing);
    ck_assert_int_eq(drover_type_create_hindexed(NULL, 0, NULL, NULL, PMIX_INT8, &id), PMIX_SUCCESS);
    rebuilds_and_travels(id, nothing);
    ck_assert_int_eq(drover_type_create_struct(NULL, 0, NULL, NULL, NULL, &id), PMIX_SUCCESS);
    d = decode(id);
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_STRUCT);
    ints_are(&d, 1, (int[]){0});
    rebuilds_and_travels(id, nothing);
    /* An empty type inside another holds no bytes there. */
    ck_assert_int_eq(drover_type_create_struct(NULL, 2, (int[]){1, 3}, (intptr_t[]){0, 4},
                                               (pmix_data_type_t[]){PMIX_INT32, none}, &id),
                     PMIX_SUCCESS);
    bounds_are(id, 4, 0, 4, 0, 4);
    ck_assert_int_eq(drover_type_create_contiguous(NULL, 5, none, &id), PMIX_SUCCESS);
    bounds_are(id, 0, 0, 0, 0, 0);
}
END_TEST

START_TEST(what_a_value_cannot_hold_is_refused)
{
    pmix_data_type_t id;
    /* Overlapping blocks: the tree refuses them as overlapping members. */
    ck_assert_int_eq(drover_type_create_vector(NULL, 2, 3, 2, PMIX_INT32, &id), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(drover_type_create_hindexed_block(NULL, 2, 1, (intptr_t[]){0, 2}, PMIX_INT32, &id),
                     PMIX_ERR_BAD_PARAM);
    /* Bad counts, old types without a fixed size, overflow. */
    ck_assert_int_eq(drover_type_create_vector(NULL, -1, 1, 1, PMIX_INT32, &id), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(drover_type_create_vector(NULL, 2, -1, 1, PMIX_INT32, &id), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(drover_type_create_vector(NULL, 2, 1, 1, PMIX_STRING, &id), PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(drover_type_create_vector(NULL, 70000, 1, 1, PMIX_INT8, &id), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(drover_type_create_hindexed(NULL, 1, NULL, (intptr_t[]){0}, PMIX_INT8, &id),
                     PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(drover_type_create_vector(NULL, 3, 1 << 30, 1 << 30, PMIX_DOUBLE, &id),
                     PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(drover_type_create_hindexed(NULL, 2, (int[]){1, 1},
                                                 (intptr_t[]){INTPTR_MIN, INTPTR_MAX}, PMIX_INT8, &id),
                     PMIX_ERR_BAD_PARAM);
}
END_TEST

/* A +constructor attribute decodes as its call only when the tuple is
 * exactly what that call builds. */
START_TEST(a_hand_written_constructor_attribute_must_match)
{
    static const char *const spec =
        "types:\n"
        "  good: {type: tuple, buffersize: 20, +constructor: 'vector 2 1 4', elements: "
        "[{type: int32, disp: 0}, {type: int32, disp: 16}]}\n"
        "  lying: {type: tuple, buffersize: 20, +constructor: 'vector 2 1 3', elements: "
        "[{type: int32, disp: 0}, {type: int32, disp: 16}]}\n"
        "  junk: {type: tuple, buffersize: 20, +constructor: 'vector x', elements: "
        "[{type: int32, disp: 0}, {type: int32, disp: 16}]}\n";
    char *errors = NULL;
    ck_assert_msg(PMIX_SUCCESS == drover_types_load_string("b.yml", spec, strlen(spec), 0, &errors),
                  "%s", errors);
    pmix_data_type_t id;
    ck_assert_int_eq(drover_type_lookup("good", &id), PMIX_SUCCESS);
    decoded_t d = decode(id);
    contents_are(&d, DROVER_COMBINER_VECTOR, 3, (int[]){2, 1, 4}, 0, NULL, PMIX_INT32);
    ck_assert_int_eq(drover_type_lookup("lying", &id), PMIX_SUCCESS);
    ck_assert_int_eq(decode(id).combiner, DROVER_COMBINER_STRUCT);
    ck_assert_int_eq(drover_type_lookup("junk", &id), PMIX_SUCCESS);
    ck_assert_int_eq(decode(id).combiner, DROVER_COMBINER_STRUCT);
}
END_TEST

START_TEST(the_type_map_of_other_types)
{
    size_t count;
    pmix_data_type_t basic;
    intptr_t disp;
    ck_assert_int_eq(drover_type_get_typemap(PMIX_PROC, 1, &basic, &disp, &count), PMIX_SUCCESS);
    ck_assert_uint_eq(count, 1);
    ck_assert_int_eq(basic, PMIX_PROC);
    ck_assert_int_eq(disp, 0);
    ck_assert_int_eq(drover_type_get_typemap(60000, 0, NULL, NULL, &count), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_int_eq(drover_type_get_typemap(PMIX_PROC, 1, NULL, NULL, &count), PMIX_ERR_BAD_PARAM);
    /* MPI's golden subarray C {8,4}/{4,2}@{2,1} of INT: offsets 9 10 13 14 17 18 21 22. */
    pmix_data_type_t slice, ptrs;
    ck_assert_int_eq(drover_type_create_subarray(NULL, 2, (int[]){8, 4}, (int[]){4, 2}, (int[]){2, 1},
                                                 DROVER_ORDER_C, PMIX_INT, &slice),
                     PMIX_SUCCESS);
    map_is(slice, PMIX_INT32, 8, (intptr_t[]){36, 40, 52, 56, 68, 72, 84, 88});
    ck_assert_int_eq(drover_type_create_pointer(NULL, slice, &ptrs), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_create_contiguous(NULL, 2, ptrs, &ptrs), PMIX_SUCCESS);
    map_is(ptrs, PMIX_POINTER, 2, (intptr_t[]){0, 8});
    /* Only the first max entries are written; the count is the whole map's. */
    ck_assert_int_eq(drover_type_get_typemap(slice, 1, &basic, &disp, &count), PMIX_SUCCESS);
    ck_assert_uint_eq(count, 8);
    ck_assert_int_eq(disp, 36);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("types_blocks");
    TCase *tc = tcase_create("blocks");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, vector_of_vector_is_open_mpis_golden_type);
    tcase_add_test(tc, each_combiner_decodes_as_its_call);
    tcase_add_test(tc, decode_recreate_decode_is_the_identical_type);
    tcase_add_test(tc, block_types_pack_unpack_and_compare);
    tcase_add_test(tc, negative_displacements_are_mpis);
    tcase_add_test(tc, calls_without_data_are_empty_types);
    tcase_add_test(tc, what_a_value_cannot_hold_is_refused);
    tcase_add_test(tc, a_hand_written_constructor_attribute_must_match);
    tcase_add_test(tc, the_type_map_of_other_types);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? 0 : 1;
}
