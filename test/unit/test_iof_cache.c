/*
 * test_iof_cache.c - the server's cache of output nobody had pulled yet
 * (src/server/iof_cache.c): order, selection, bounds, copies.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "server.h"

/* What a replay handed over: sources' ranks, channels, sizes, first bytes. */
typedef struct seen {
    size_t n;
    pmix_rank_t ranks[8192];
    size_t sizes[8192];
    char first[8192];
    char info[64];
} seen_t;

static seen_t seen;
static pmix_rank_t only_rank;

static bool rank_wanted(void *arg, const pmix_proc_t *source, pmix_iof_channel_t channel)
{
    return PMIX_RANK_WILDCARD == only_rank || source->rank == only_rank;
}

static void take(void *arg, const pmix_proc_t *source, pmix_iof_channel_t channel,
                 const pmix_byte_object_t *bo, const pmix_info_t *info, size_t ninfo)
{
    ck_assert_ptr_eq(arg, &seen);
    ck_assert_uint_lt(seen.n, 8192);
    seen.ranks[seen.n] = source->rank;
    seen.sizes[seen.n] = bo->size;
    seen.first[seen.n] = bo->bytes[0];
    if (1 == ninfo && PMIX_STRING == info[0].value.type) {
        snprintf(seen.info, sizeof(seen.info), "%s", info[0].value.data.string);
    }
    seen.n++;
}

static void replay(pmix_rank_t rank)
{
    memset(&seen, 0, sizeof(seen));
    only_rank = rank;
    iof_cache_replay(rank_wanted, take, &seen);
}

static void keep(pmix_rank_t rank, char c, size_t size, const pmix_info_t *info, size_t ninfo)
{
    pmix_proc_t source;
    PMIX_LOAD_PROCID(&source, "job", rank);
    char *bytes = malloc(size);
    ck_assert_ptr_nonnull(bytes);
    memset(bytes, c, size);
    pmix_byte_object_t bo = {.bytes = bytes, .size = size};
    iof_cache_keep(&source, PMIX_FWD_STDOUT_CHANNEL, &bo, info, ninfo);
    free(bytes);
}

START_TEST(a_pull_takes_what_it_covers_in_order)
{
    keep(0, 'a', 3, NULL, 0);
    keep(1, 'b', 4, NULL, 0);
    keep(0, 'c', 5, NULL, 0);
    replay(0);
    ck_assert_uint_eq(seen.n, 2);
    ck_assert_int_eq(seen.first[0], 'a');
    ck_assert_int_eq(seen.first[1], 'c');
    ck_assert_uint_eq(seen.sizes[1], 5);
    replay(0);
    ck_assert_uint_eq(seen.n, 0); /* taken: gone */
    replay(PMIX_RANK_WILDCARD);
    ck_assert_uint_eq(seen.n, 1);
    ck_assert_int_eq(seen.ranks[0], 1);
    ck_assert_int_eq(seen.first[0], 'b');
}
END_TEST

START_TEST(the_oldest_pieces_go_beyond_the_count)
{
    for (int i = 0; i < 5000; i++) {
        keep((pmix_rank_t)i, 'x', 10, NULL, 0);
    }
    replay(PMIX_RANK_WILDCARD);
    ck_assert_uint_eq(seen.n, 4096);
    ck_assert_int_eq(seen.ranks[0], 5000 - 4096);
    ck_assert_int_eq(seen.ranks[4095], 4999);
}
END_TEST

START_TEST(the_oldest_pieces_go_beyond_the_bytes)
{
    keep(0, 'a', 512 * 1024, NULL, 0);
    keep(1, 'b', 512 * 1024, NULL, 0);
    keep(2, 'c', 512 * 1024, NULL, 0);
    keep(3, 'd', 1024 * 1024 + 1, NULL, 0); /* larger than the whole cache */
    replay(PMIX_RANK_WILDCARD);
    ck_assert_uint_eq(seen.n, 2);
    ck_assert_int_eq(seen.first[0], 'b');
    ck_assert_int_eq(seen.first[1], 'c');
}
END_TEST

START_TEST(info_and_bytes_are_copies)
{
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, "drover.test", "kept", PMIX_STRING);
    keep(7, 'z', 1, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    keep(8, 'y', 0, NULL, 0); /* empty: nothing to keep */
    replay(PMIX_RANK_WILDCARD);
    ck_assert_uint_eq(seen.n, 1);
    ck_assert_str_eq(seen.info, "kept");
    ck_assert_int_eq(seen.first[0], 'z');
}
END_TEST

static void clear(void)
{
    iof_cache_clear();
}

int main(void)
{
    Suite *s = suite_create("iof_cache");
    TCase *tc = tcase_create("cache");
    tcase_add_checked_fixture(tc, clear, clear);
    tcase_add_test(tc, a_pull_takes_what_it_covers_in_order);
    tcase_add_test(tc, the_oldest_pieces_go_beyond_the_count);
    tcase_add_test(tc, the_oldest_pieces_go_beyond_the_bytes);
    tcase_add_test(tc, info_and_bytes_are_copies);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? EXIT_SUCCESS : EXIT_FAILURE;
}
