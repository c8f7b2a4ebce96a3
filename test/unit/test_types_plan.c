/*
 * test_types_plan.c - copy plans (src/types/plan.c): an array of a
 * pointer-free declared type packs through its plan to exactly the bytes
 * the walk of its tree writes, and unpacks them to exactly the same
 * elements, for padding, members out of memory order, slices of padded
 * structs, $-dependent bounds and a block constructor's type; an array
 * carries one header, whatever its length.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "drover.h"
#include "plan.h"
#include "pmix.h"
#include "types.h"

static const char *const spec =
    "metadata: {n: int}\n"
    "types:\n"
    "  cell: {type: struct, members: [{a: char}, {b: {type: array, subtype: int, size: [5, 10]}}]}\n"
    "  rec: {type: record, buffersize: 24, members: {x: {disp: 16, type: double}, y: {disp: 0, "
    "type: int}, z: {disp: 4, type: char}}}\n"
    "  pair: {type: struct, members: [{c: char}, {d: double}]}\n"
    "  window: {type: array, subtype: pair, size: [4, 3], start: [1, 1], subsize: [2, 2]}\n"
    "  cube: {type: array, subtype: int16, size: [3, 4, 5], start: [1, 0, 2], subsize: [2, 3, 2]}\n"
    "  dyn: {type: array, subtype: rec, size: $n}\n"
    "  nested: {type: struct, members: [{w: window}, {k: {type: array, subtype: cell, size: 2}}]}\n";

/* Elements packed at once by the tests. */
#define NELEM 3

/* Pack NELEM elements of id into a new buffer. */
static void pack(pmix_data_buffer_t *buf, const void *elems, pmix_data_type_t id)
{
    PMIX_DATA_BUFFER_CONSTRUCT(buf);
    ck_assert_int_eq(PMIx_Data_pack(NULL, buf, (void *)elems, NELEM, id), PMIX_SUCCESS);
}

/* Unpack buf into dest (NELEM elements, size bytes), filled with 0xa5
 * first. */
static void unpack(pmix_data_buffer_t *buf, void *dest, size_t size, pmix_data_type_t id)
{
    memset(dest, 0xa5, size);
    int32_t n = NELEM;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, buf, dest, &n, id), PMIX_SUCCESS);
    ck_assert_int_eq(n, NELEM);
}

static void same_as_the_walk(pmix_data_type_t id, const char *label)
{
    named_t *nt = (named_t *)types_by_id(id);
    ck_assert_msg(NULL != nt->plan, "%s has no plan", label);
    size_t size = NELEM * drover_datatype_lookup(id)->size;
    unsigned char *elem = malloc(size), *a = malloc(size), *b = malloc(size);
    for (size_t i = 0; i < size; i++) {
        elem[i] = (unsigned char)(i * 13 + 1);
    }
    pmix_data_buffer_t planned, walked;
    pack(&planned, elem, id);
    unpack(&planned, a, size, id);
    plan_t *plan = nt->plan;
    nt->plan = NULL;   /* the walk, as a type without a plan takes */
    pack(&walked, elem, id);
    unpack(&walked, b, size, id);
    nt->plan = plan;
    /* Tag, count, one header, the elements' data. */
    ck_assert_uint_eq(planned.bytes_used, 2 + 4 + plan->hlen + NELEM * plan->data);
    ck_assert_uint_eq(planned.bytes_used, walked.bytes_used);
    ck_assert_msg(0 == memcmp(planned.base_ptr, walked.base_ptr, planned.bytes_used),
                  "%s: packed bytes differ", label);
    ck_assert_msg(0 == memcmp(a, b, size), "%s: unpacked elements differ", label);
    PMIX_DATA_BUFFER_DESTRUCT(&planned);
    PMIX_DATA_BUFFER_DESTRUCT(&walked);
    free(elem);
    free(a);
    free(b);
}

START_TEST(a_plan_packs_and_unpacks_as_the_walk)
{
    int64_t n = 3;
    ck_assert_int_eq(drover_type_bind("n", &n, 1), PMIX_SUCCESS);
    char *errors = NULL;
    ck_assert_msg(PMIX_SUCCESS == drover_types_load_string("p.yml", spec, strlen(spec), 0, &errors),
                  "%s", errors);
    static const char *const names[] = {"cell", "rec", "pair", "window", "cube", "dyn", "nested"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        pmix_data_type_t id;
        ck_assert_int_eq(drover_type_lookup(names[i], &id), PMIX_SUCCESS);
        same_as_the_walk(id, names[i]);
    }
    pmix_data_type_t v;
    ck_assert_int_eq(drover_type_create_indexed(NULL, 3, (int[]){2, 1, 3}, (int[]){7, 0, 3},
                                                PMIX_INT32, &v),
                     PMIX_SUCCESS);
    same_as_the_walk(v, "indexed");
}
END_TEST

/* A type with a pointer has no plan: its data length varies. */
START_TEST(a_type_with_a_pointer_has_no_plan)
{
    static const char *const text = "types:\n  p: {type: pointer, subtype: int}\n"
                                    "  s: {type: struct, members: [{a: int}, {b: p}]}\n";
    char *errors = NULL;
    ck_assert_msg(PMIX_SUCCESS == drover_types_load_string("q.yml", text, strlen(text), 0, &errors),
                  "%s", errors);
    pmix_data_type_t id;
    ck_assert_int_eq(drover_type_lookup("s", &id), PMIX_SUCCESS);
    ck_assert_ptr_null(types_by_id(id)->plan);
    ck_assert_ptr_null(drover_datatype_lookup(id)->check);
}
END_TEST

/* An array of a type with pointers has one header too, then each
 * element's data with its length in front; a cut anywhere is refused
 * and leaves nothing allocated (ASan). */
START_TEST(an_array_with_pointers_has_one_header)
{
    static const char *const text = "types:\n  s: {type: struct, members: [{a: int}, {b: "
                                    "{type: pointer, subtype: int}}]}\n";
    char *errors = NULL;
    ck_assert_msg(PMIX_SUCCESS == drover_types_load_string("r.yml", text, strlen(text), 0, &errors),
                  "%s", errors);
    pmix_data_type_t id;
    ck_assert_int_eq(drover_type_lookup("s", &id), PMIX_SUCCESS);
    int x = 7, y = -2;
    struct {
        int a;
        int *b;
    } in[NELEM] = {{1, NULL}, {2, &x}, {3, &y}}, out[NELEM];
    pmix_data_buffer_t buf;
    pack(&buf, in, id);
    /* Tag, count, header, then [u32 length][a][present][*b] each. */
    ck_assert_uint_eq(buf.bytes_used, 2 + 4 + 16 + 3 * 4 + (4 + 1) + 2 * (4 + 1 + 4));
    uint32_t layout;
    memcpy(&layout, buf.base_ptr + 2 + 4 + 12, sizeof(layout)); /* unaligned in the buffer */
    ck_assert_uint_eq(layout, GENERIC_EACH_ITS_OWN);
    for (size_t cut = 2 + 4; cut < buf.bytes_used; cut++) {
        pmix_data_buffer_t part;
        PMIX_DATA_BUFFER_CONSTRUCT(&part);
        ck_assert_int_eq(PMIx_Data_embed(&part, &(pmix_byte_object_t){buf.base_ptr, cut}),
                         PMIX_SUCCESS);
        int32_t n = NELEM;
        ck_assert_int_ne(PMIx_Data_unpack(NULL, &part, out, &n, id), PMIX_SUCCESS);
        PMIX_DATA_BUFFER_DESTRUCT(&part);
    }
    int32_t n = NELEM;
    ck_assert_int_eq(PMIx_Data_unpack(NULL, &buf, out, &n, id), PMIX_SUCCESS);
    ck_assert(3 == n && NULL == out[0].b && 7 == *out[1].b && -2 == *out[2].b && 3 == out[2].a);
    ck_assert_int_eq(bfrops_compare(in, out, NELEM, id), PMIX_EQUAL);
    free(out[1].b);
    free(out[2].b);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("types_plan");
    TCase *tc = tcase_create("plan");
    tcase_add_test(tc, a_plan_packs_and_unpacks_as_the_walk);
    tcase_add_test(tc, a_type_with_a_pointer_has_no_plan);
    tcase_add_test(tc, an_array_with_pointers_has_one_header);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? 0 : 1;
}
