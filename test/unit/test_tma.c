/*
 * test_tma.c - the heap behind a NULL handle and the arena allocator.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tma.h"

static char region[1024] __attribute__((aligned(16)));

static bool aligned16(const void *p)
{
    return 0 == ((uintptr_t)p & 15u);
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
    m = tma_realloc(NULL, m, 64);
    ck_assert_ptr_nonnull(m);
    drover_tma_free(NULL, s);
    drover_tma_free(NULL, z);
    drover_tma_free(NULL, m);
    drover_tma_free(NULL, NULL);
}
END_TEST

START_TEST(strdup_of_null_is_null)
{
    tma_arena_t a;

    tma_arena_init(&a, region, sizeof(region));
    ck_assert_ptr_null(drover_tma_strdup(NULL, NULL));
    ck_assert_ptr_null(drover_tma_strdup(&a.tma, NULL));
    ck_assert_uint_eq(tma_arena_used(&a), 0);
}
END_TEST

START_TEST(heap_calloc_overflow_fails)
{
    ck_assert_ptr_null(drover_tma_calloc(NULL, SIZE_MAX / 2, 4));
}
END_TEST

START_TEST(arena_allocations_are_aligned_and_inside_the_region)
{
    tma_arena_t a;
    char *p1, *p2, *p3;

    /* Start the region off alignment to show alignment is absolute. */
    tma_arena_init(&a, region + 3, sizeof(region) - 3);
    p1 = drover_tma_malloc(&a.tma, 1);
    p2 = drover_tma_malloc(&a.tma, 17);
    p3 = drover_tma_malloc(&a.tma, 0);
    ck_assert(aligned16(p1) && aligned16(p2) && aligned16(p3));
    ck_assert(p1 >= region + 3 && p3 < region + sizeof(region));
    ck_assert(p1 < p2 && p2 + 17 <= p3);
    ck_assert_uint_eq(tma_arena_used(&a), (size_t)(p3 + 1 - (region + 3)));
}
END_TEST

START_TEST(arena_calloc_zeroes_reused_memory)
{
    tma_arena_t a;
    unsigned char *p;

    tma_arena_init(&a, region, sizeof(region));
    memset(drover_tma_malloc(&a.tma, 64), 0xAB, 64);
    tma_arena_reset(&a);
    ck_assert_uint_eq(tma_arena_used(&a), 0);
    p = drover_tma_calloc(&a.tma, 8, 8);
    ck_assert_ptr_eq(p, region);
    for (size_t i = 0; i < 64; i++) {
        ck_assert_uint_eq(p[i], 0);
    }
}
END_TEST

START_TEST(arena_strdup_copies)
{
    tma_arena_t a;
    char *s;

    tma_arena_init(&a, region, sizeof(region));
    s = drover_tma_strdup(&a.tma, "arena string");
    ck_assert_str_eq(s, "arena string");
    ck_assert(s >= region && s < region + sizeof(region));
}
END_TEST

START_TEST(arena_free_is_a_no_op)
{
    tma_arena_t a;
    char *p;

    tma_arena_init(&a, region, sizeof(region));
    p = drover_tma_malloc(&a.tma, 32);
    drover_tma_free(&a.tma, p);
    ck_assert_uint_eq(tma_arena_used(&a), 32);
    ck_assert_ptr_ne(drover_tma_malloc(&a.tma, 32), p);
}
END_TEST

START_TEST(arena_out_of_space_returns_null_and_changes_nothing)
{
    tma_arena_t a;

    tma_arena_init(&a, region, 64);
    ck_assert_ptr_nonnull(drover_tma_malloc(&a.tma, 40));
    ck_assert_ptr_null(drover_tma_malloc(&a.tma, 40));
    ck_assert_uint_eq(tma_arena_used(&a), 40);
    ck_assert_ptr_nonnull(drover_tma_malloc(&a.tma, 16));
    ck_assert_ptr_null(drover_tma_malloc(&a.tma, 1));
}
END_TEST

START_TEST(arena_huge_requests_do_not_wrap)
{
    tma_arena_t a;

    tma_arena_init(&a, region, sizeof(region));
    ck_assert_ptr_nonnull(drover_tma_malloc(&a.tma, 5));
    ck_assert_ptr_null(drover_tma_malloc(&a.tma, SIZE_MAX));
    ck_assert_ptr_null(drover_tma_malloc(&a.tma, SIZE_MAX - 8));
    ck_assert_ptr_null(drover_tma_calloc(&a.tma, SIZE_MAX / 2, 3));
    ck_assert_ptr_null(drover_tma_calloc(&a.tma, 2, SIZE_MAX / 2 + 1));
    ck_assert_ptr_null(tma_realloc(&a.tma, region, SIZE_MAX));
    ck_assert_uint_eq(tma_arena_used(&a), 5);
}
END_TEST

START_TEST(arena_realloc_of_last_allocation_stays_in_place)
{
    tma_arena_t a;
    char *p, *q;

    tma_arena_init(&a, region, sizeof(region));
    drover_tma_malloc(&a.tma, 10);
    p = drover_tma_malloc(&a.tma, 10);
    memcpy(p, "123456789", 10);
    q = tma_realloc(&a.tma, p, 200);
    ck_assert_ptr_eq(q, p);
    ck_assert_str_eq(q, "123456789");
    ck_assert_uint_eq(tma_arena_used(&a), (size_t)(p - region) + 200);
    q = tma_realloc(&a.tma, p, 4);
    ck_assert_ptr_eq(q, p);
    ck_assert_uint_eq(tma_arena_used(&a), (size_t)(p - region) + 4);
}
END_TEST

START_TEST(arena_realloc_of_older_allocation_moves_and_copies)
{
    tma_arena_t a;
    char *p, *q;

    tma_arena_init(&a, region, sizeof(region));
    p = drover_tma_malloc(&a.tma, 6);
    memcpy(p, "older", 6);
    drover_tma_malloc(&a.tma, 1);
    q = tma_realloc(&a.tma, p, 100);
    ck_assert_ptr_nonnull(q);
    ck_assert_ptr_ne(q, p);
    ck_assert_str_eq(q, "older");
}
END_TEST

START_TEST(arena_realloc_rejects_foreign_pointers)
{
    tma_arena_t a;
    char other[8];

    tma_arena_init(&a, region, sizeof(region));
    drover_tma_malloc(&a.tma, 8);
    ck_assert_ptr_null(tma_realloc(&a.tma, other, 4));
    ck_assert_ptr_null(tma_realloc(&a.tma, region + 100, 4));
}
END_TEST

START_TEST(arena_realloc_of_null_allocates)
{
    tma_arena_t a;

    tma_arena_init(&a, region, sizeof(region));
    ck_assert_ptr_eq(tma_realloc(&a.tma, NULL, 8), region);
    ck_assert_uint_eq(tma_arena_used(&a), 8);
}
END_TEST

START_TEST(arena_over_empty_region_refuses_everything)
{
    tma_arena_t a;

    tma_arena_init(&a, NULL, 100);
    ck_assert_ptr_null(drover_tma_malloc(&a.tma, 1));
    ck_assert_ptr_null(drover_tma_strdup(&a.tma, ""));
}
END_TEST

/* A program's handle that supplies only malloc. */
static size_t minimal_calls;

static void *minimal_malloc(drover_tma_t *tma, size_t size)
{
    minimal_calls++;
    return malloc(size);
}

START_TEST(a_handle_with_only_malloc_still_serves_calloc_and_strdup)
{
    drover_tma_t t = {.malloc = minimal_malloc};
    int *z;
    char *s;

    minimal_calls = 0;
    z = drover_tma_calloc(&t, 3, sizeof(int));
    s = drover_tma_strdup(&t, "minimal");
    ck_assert_uint_eq(minimal_calls, 2);
    ck_assert_int_eq(z[0] | z[1] | z[2], 0);
    ck_assert_str_eq(s, "minimal");
    ck_assert_ptr_null(tma_realloc(&t, s, 100));
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
    tcase_add_test(tc, arena_allocations_are_aligned_and_inside_the_region);
    tcase_add_test(tc, arena_calloc_zeroes_reused_memory);
    tcase_add_test(tc, arena_strdup_copies);
    tcase_add_test(tc, arena_free_is_a_no_op);
    tcase_add_test(tc, arena_out_of_space_returns_null_and_changes_nothing);
    tcase_add_test(tc, arena_huge_requests_do_not_wrap);
    tcase_add_test(tc, arena_realloc_of_last_allocation_stays_in_place);
    tcase_add_test(tc, arena_realloc_of_older_allocation_moves_and_copies);
    tcase_add_test(tc, arena_realloc_rejects_foreign_pointers);
    tcase_add_test(tc, arena_realloc_of_null_allocates);
    tcase_add_test(tc, arena_over_empty_region_refuses_everything);
    tcase_add_test(tc, a_handle_with_only_malloc_still_serves_calloc_and_strdup);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
