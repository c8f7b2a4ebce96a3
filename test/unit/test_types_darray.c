/*
 * test_types_darray.c - drover_type_create_darray (src/types/darray.c):
 * MPI's golden example, type maps in C and Fortran order for every
 * distribution, the DARRAY decoding, decode -> recreate -> decode giving
 * the identical type, canonical YAML that loads to a type decoding the
 * same, and the calls MPI refuses. (test/mpi/run_darray.sh compares
 * with Open MPI's MPI_Type_create_darray.)
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "decode_harness.h"
#include "drover.h"
#include "pmix.h"
#include "type_harness.h"
#include "types.h"

#define B DROVER_DISTRIBUTE_BLOCK
#define C DROVER_DISTRIBUTE_CYCLIC
#define N DROVER_DISTRIBUTE_NONE
#define DFLT DROVER_DISTRIBUTE_DFLT_DARG

static pmix_data_type_t darray(int size, int rank, int d, const int *g, const int *dist,
                               const int *darg, const int *p, int order)
{
    pmix_data_type_t id = 0;
    pmix_status_t rc = drover_type_create_darray(NULL, size, rank, d, g, dist, darg, p, order,
                                                 PMIX_INT32, &id);
    ck_assert_msg(PMIX_SUCCESS == rc, "darray of rank %d: %d", rank, rc);
    return id;
}

/* The type map as int32 indices into the global array. */
static void indices_are(pmix_data_type_t id, size_t n, const int *index)
{
    pmix_data_type_t basics[128];
    intptr_t disp[128];
    size_t count;
    ck_assert_int_eq(drover_type_get_typemap(id, 128, basics, disp, &count), PMIX_SUCCESS);
    ck_assert_uint_eq(count, n);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(basics[i], PMIX_INT32);
        ck_assert_msg(disp[i] == 4 * index[i], "entry %zu at byte %ld, not %d", i, (long)disp[i],
                      4 * index[i]);
    }
}

/* mpi-decoding.md: darray(4 procs, rank 3, {8,6}, {BLOCK, CYCLIC(2)},
 * {2,2}) of INT -> offsets 26 27 32 33 38 39 44 45, extent 48 ints. */
START_TEST(the_golden_example_is_open_mpis)
{
    pmix_data_type_t id = darray(4, 3, 2, (int[]){8, 6}, (int[]){B, C}, (int[]){DFLT, 2},
                                 (int[]){2, 2}, DROVER_ORDER_C);
    indices_are(id, 8, (int[]){26, 27, 32, 33, 38, 39, 44, 45});
    bounds_are(id, 32, 0, 192, 104, 80);
    decoded_t d = decode(id);
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_DARRAY);
    ck_assert_int_eq(d.na, 0);
    ck_assert_int_eq(d.nd, 1);
    ck_assert_int_eq(d.types[0], PMIX_INT32);
    ints_are(&d, 12, (int[]){4, 3, 2, 8, 6, B, C, DFLT, 2, 2, 2, DROVER_ORDER_C});
}
END_TEST

/* Each distribution, both orders. In Fortran order the first dimension
 * varies fastest in memory and the type map follows memory. */
START_TEST(distributions_and_orders)
{
    /* Rank 1 of {2,2}: coordinates (0,1). C {4,6}: rows 0..1, CYCLIC(1)
     * columns 1 3 5. */
    pmix_data_type_t id = darray(4, 1, 2, (int[]){4, 6}, (int[]){B, C}, (int[]){DFLT, DFLT},
                                 (int[]){2, 2}, DROVER_ORDER_C);
    indices_are(id, 6, (int[]){1, 3, 5, 7, 9, 11});
    /* Fortran: index = i0 + 4 * i1, i0 in 0..1, i1 in 1 3 5. */
    id = darray(4, 1, 2, (int[]){4, 6}, (int[]){B, C}, (int[]){DFLT, DFLT}, (int[]){2, 2},
                DROVER_ORDER_FORTRAN);
    indices_are(id, 6, (int[]){4, 5, 12, 13, 20, 21});
    bounds_are(id, 24, 0, 96, 16, 72);
    /* NONE takes the whole dimension; BLOCK(3) of 7 over 3: rank 2 gets 6. */
    id = darray(3, 2, 2, (int[]){7, 2}, (int[]){B, N}, (int[]){3, DFLT}, (int[]){3, 1},
                DROVER_ORDER_C);
    indices_are(id, 2, (int[]){12, 13});
    /* CYCLIC(2) of 9 over 2, rank 1: 2 3 6 7; the rest of a block is cut. */
    id = darray(2, 1, 1, (int[]){9}, (int[]){C}, (int[]){2}, (int[]){2}, DROVER_ORDER_C);
    indices_are(id, 4, (int[]){2, 3, 6, 7});
    id = darray(2, 0, 1, (int[]){9}, (int[]){C}, (int[]){2}, (int[]){2}, DROVER_ORDER_C);
    indices_are(id, 5, (int[]){0, 1, 4, 5, 8});
}
END_TEST

START_TEST(decode_recreate_decode_is_the_identical_type)
{
    for (int rank = 0; rank < 6; rank++) {
        for (int order = DROVER_ORDER_C; order <= DROVER_ORDER_FORTRAN; order++) {
            pmix_data_type_t id = darray(6, rank, 3, (int[]){5, 4, 3}, (int[]){C, B, N},
                                         (int[]){2, DFLT, DFLT}, (int[]){3, 2, 1}, order);
            rebuilds_identically(id, 0);
            ck_assert_int_eq(decode(id).types[0], PMIX_INT32);
        }
    }
}
END_TEST

/* The canonical YAML of a darray loads (under another name) to a type
 * that decodes as the same call; a hand-written call that does not
 * match its elements decodes as the struct it is. */
START_TEST(canonical_yaml_loads_to_the_same_call)
{
    pmix_data_type_t id;
    ck_assert_int_eq(drover_type_create_darray("dist", 4, 3, 2, (int[]){8, 6}, (int[]){B, C},
                                               (int[]){DFLT, 2}, (int[]){2, 2}, DROVER_ORDER_C,
                                               PMIX_INT32, &id),
                     PMIX_SUCCESS);
    const named_t *nt = types_by_id(id);
    strbuf_t b = STRBUF_INIT;
    canonical_yaml(&b, &nt, 1);
    char *text = strbuf_finish(&b);
    char *at = strstr(text, "dist:");
    ck_assert_ptr_nonnull(at);
    memcpy(at, "copy:", 5);
    char *errors = NULL;
    ck_assert_msg(PMIX_SUCCESS == drover_types_load_string("c.yml", text, strlen(text), 0, &errors),
                  "%s\n%s", text, errors);
    pmix_data_type_t copy;
    ck_assert_int_eq(drover_type_lookup("copy", &copy), PMIX_SUCCESS);
    decoded_t d1 = decode(id), d2 = decode(copy);
    same_call(&d1, &d2);
    identical(id, copy, true);
    /* The same text with another rank in the call: the elements are
     * rank 3's, so it is the struct it is, resized to the whole array. */
    at = strstr(text, "darray 4 3");
    ck_assert_ptr_nonnull(at);
    at[9] = '2';
    at = strstr(text, "copy:");
    memcpy(at, "liar:", 5);
    ck_assert_msg(PMIX_SUCCESS == drover_types_load_string("l.yml", text, strlen(text), 0, &errors),
                  "%s", errors);
    ck_assert_int_eq(drover_type_lookup("liar", &copy), PMIX_SUCCESS);
    ck_assert_int_eq(decode(copy).combiner, DROVER_COMBINER_RESIZED);
    free(text);
}
END_TEST

/* Rank 2 of BLOCK(4) over 3 of 8 owns nothing: as MPI's, a type of size
 * 0 with the whole array as extent, which decodes and rebuilds. */
START_TEST(a_share_of_nothing_is_empty)
{
    pmix_data_type_t id = darray(3, 2, 1, (int[]){8}, (int[]){B}, (int[]){4}, (int[]){3},
                                 DROVER_ORDER_C);
    bounds_are(id, 0, 0, 32, 0, 0);
    indices_are(id, 0, NULL);
    decoded_t d = decode(id);
    ck_assert_int_eq(d.combiner, DROVER_COMBINER_DARRAY);
    ints_are(&d, 8, (int[]){3, 2, 1, 8, B, 4, 3, DROVER_ORDER_C});
    rebuilds_identically(id, 0);
    /* An array of empty elements travels: each takes its length's 4 bytes. */
    static int32_t none[40][8], back[40][8];
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    ck_assert_int_eq(PMIx_Data_pack(NULL, &buf, none, 40, id), PMIX_SUCCESS);
    ck_assert_uint_eq(buf.bytes_used, 2 + 4 + 16 + 40 * 4);
    int32_t n = 40;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &buf, back, &n, id), PMIX_SUCCESS);
    ck_assert_int_eq(n, 40);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}
END_TEST

START_TEST(darray_types_pack_unpack_and_compare)
{
    static unsigned char elem[4 * 48];
    for (size_t i = 0; i < sizeof(elem); i++) {
        elem[i] = (unsigned char)(i * 5 + 1);
    }
    pmix_data_type_t id = darray(4, 2, 2, (int[]){8, 6}, (int[]){B, C}, (int[]){DFLT, 2},
                                 (int[]){2, 2}, DROVER_ORDER_FORTRAN);
    type_sample_t s = {id, elem, "darray"};
    type_harness_check_sample(&s);
}
END_TEST

START_TEST(what_mpi_refuses_is_refused)
{
    pmix_data_type_t id;
    const int g[] = {8, 6}, dist[] = {B, C}, darg[] = {DFLT, 2}, p[] = {2, 2};
#define TRY(size, rank, d, g, dist, darg, p, order, old)                                            \
    drover_type_create_darray(NULL, size, rank, d, g, dist, darg, p, order, old, &id)
    ck_assert_int_eq(TRY(4, 4, 2, g, dist, darg, p, DROVER_ORDER_C, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(TRY(4, -1, 2, g, dist, darg, p, DROVER_ORDER_C, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(TRY(5, 0, 2, g, dist, darg, p, DROVER_ORDER_C, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(TRY(4, 0, 0, g, dist, darg, p, DROVER_ORDER_C, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(TRY(4, 0, 2, g, dist, darg, p, 7, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(TRY(4, 0, 2, g, ((int[]){B, 9}), darg, p, DROVER_ORDER_C, PMIX_INT32),
                     PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(TRY(4, 0, 2, g, dist, ((int[]){DFLT, 0}), p, DROVER_ORDER_C, PMIX_INT32),
                     PMIX_ERR_BAD_PARAM);
    /* NONE over 2 processes; a BLOCK of 3 cannot cover 8 over 2. */
    ck_assert_int_eq(TRY(4, 0, 2, g, ((int[]){N, C}), darg, p, DROVER_ORDER_C, PMIX_INT32),
                     PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(TRY(4, 0, 2, g, dist, ((int[]){3, 2}), p, DROVER_ORDER_C, PMIX_INT32),
                     PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(TRY(4, 0, 2, ((int[]){8, 0}), dist, darg, p, DROVER_ORDER_C, PMIX_INT32),
                     PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(TRY(4, 0, 2, g, dist, darg, p, DROVER_ORDER_C, PMIX_STRING),
                     PMIX_ERR_NOT_SUPPORTED);
    /* CYCLIC(1) over 2 of 2^18 elements: 2^17 runs, past the limit. */
    ck_assert_int_eq(TRY(2, 0, 1, ((int[]){1 << 18}), ((int[]){C}), ((int[]){DFLT}), ((int[]){2}),
                         DROVER_ORDER_C, PMIX_INT8),
                     PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(TRY(2, 0, 1, NULL, dist, darg, p, DROVER_ORDER_C, PMIX_INT32), PMIX_ERR_BAD_PARAM);
#undef TRY
}
END_TEST

int main(void)
{
    Suite *s = suite_create("types_darray");
    TCase *tc = tcase_create("darray");
    tcase_add_test(tc, the_golden_example_is_open_mpis);
    tcase_add_test(tc, distributions_and_orders);
    tcase_add_test(tc, decode_recreate_decode_is_the_identical_type);
    tcase_add_test(tc, canonical_yaml_loads_to_the_same_call);
    tcase_add_test(tc, a_share_of_nothing_is_empty);
    tcase_add_test(tc, darray_types_pack_unpack_and_compare);
    tcase_add_test(tc, what_mpi_refuses_is_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? 0 : 1;
}
