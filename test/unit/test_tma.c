/*
 * test_tma.c - the allocator handles: the heap behind a NULL handle, and a
 * program's handle that supplies only some functions.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drover.h"

/* A program's handle that supplies only malloc. */
static size_t malloc_calls;

static void *counting_malloc(drover_tma_t *tma, size_t size)
{
    malloc_calls++;
    return malloc(size);
}

START_TEST(null_handle_uses_the_heap)
{
    char *s = drover_tma_strdup(NULL, "heap");
    int *z = drover_tma_calloc(NULL, 4, sizeof(int));
    char *m = drover_tma_malloc(NULL, 8);

    ck_assert_str_eq(s, "heap");
    ck_assert_ptr_nonnull(z);
    ck_assert_int_eq(z[0] | z[1] | z[2] | z[3], 0);
    ck_assert_ptr_nonnull(m);
    drover_tma_free(NULL, s);
    drover_tma_free(NULL, z);
    drover_tma_free(NULL, m);
    drover_tma_free(NULL, NULL);
}
END_TEST

START_TEST(strdup_of_null_is_null)
{
    drover_tma_t t = {.malloc = counting_malloc};

    malloc_calls = 0;
    ck_assert_ptr_null(drover_tma_strdup(NULL, NULL));
    ck_assert_ptr_null(drover_tma_strdup(&t, NULL));
    ck_assert_uint_eq(malloc_calls, 0);
}
END_TEST

START_TEST(heap_calloc_overflow_fails)
{
    ck_assert_ptr_null(drover_tma_calloc(NULL, SIZE_MAX / 2, 4));
}
END_TEST

START_TEST(handle_calloc_overflow_fails_before_the_allocator)
{
    drover_tma_t t = {.malloc = counting_malloc};

    malloc_calls = 0;
    ck_assert_ptr_null(drover_tma_calloc(&t, SIZE_MAX / 2, 4));
    ck_assert_uint_eq(malloc_calls, 0);
}
END_TEST

START_TEST(a_handle_with_only_malloc_still_serves_calloc_and_strdup)
{
    drover_tma_t t = {.malloc = counting_malloc};
    int *z;
    char *s;

    malloc_calls = 0;
    z = drover_tma_calloc(&t, 3, sizeof(int));
    s = drover_tma_strdup(&t, "minimal");
    ck_assert_uint_eq(malloc_calls, 2);
    ck_assert_int_eq(z[0] | z[1] | z[2], 0);
    ck_assert_str_eq(s, "minimal");
    drover_tma_free(&t, s);  /* no free: a no-op, so release by hand */
    free(s);
    free(z);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tma");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, null_handle_uses_the_heap);
    tcase_add_test(tc, strdup_of_null_is_null);
    tcase_add_test(tc, heap_calloc_overflow_fails);
    tcase_add_test(tc, handle_calloc_overflow_fails_before_the_allocator);
    tcase_add_test(tc, a_handle_with_only_malloc_still_serves_calloc_and_strdup);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
