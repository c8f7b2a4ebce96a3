/*
 * test_pmi_map.c - PMI_process_mapping in hydra's vector format.
 */
#include <check.h>
#include <stdlib.h>

#include "pmi_map.h"

static const char *format(const uint32_t *nodes, uint32_t n, size_t room)
{
    static char out[256];
    return pmi_map_format(nodes, n, out, room) ? out : NULL;
}

START_TEST(one_node_is_one_block)
{
    static const uint32_t nodes[4] = {0, 0, 0, 0};
    ck_assert_str_eq(format(nodes, 4, 256), "(vector,(0,1,4))");
    ck_assert_str_eq(format(nodes, 1, 256), "(vector,(0,1,1))");
}
END_TEST

START_TEST(equal_blocks_on_consecutive_nodes_merge)
{
    static const uint32_t nodes[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    ck_assert_str_eq(format(nodes, 8, 256), "(vector,(0,2,4))");
}
END_TEST

START_TEST(uneven_and_cyclic_layouts_get_a_triple_each)
{
    static const uint32_t uneven[5] = {0, 0, 0, 1, 1};
    static const uint32_t cyclic[4] = {0, 1, 0, 1};
    static const uint32_t gap[4] = {0, 0, 2, 2};
    ck_assert_str_eq(format(uneven, 5, 256), "(vector,(0,1,3),(1,1,2))");
    ck_assert_str_eq(format(cyclic, 4, 256), "(vector,(0,2,1),(0,2,1))");
    ck_assert_str_eq(format(gap, 4, 256), "(vector,(0,1,2),(2,1,2))");
}
END_TEST

START_TEST(no_ranks_or_no_room_fail)
{
    static const uint32_t nodes[2] = {0, 1};
    ck_assert_ptr_null(format(nodes, 0, 256));
    ck_assert_ptr_null(format(nodes, 2, 12));
    ck_assert_str_eq(format(nodes, 2, 256), "(vector,(0,2,1))");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pmi_map");
    TCase *tc = tcase_create("format");
    tcase_add_test(tc, one_node_is_one_block);
    tcase_add_test(tc, equal_blocks_on_consecutive_nodes_merge);
    tcase_add_test(tc, uneven_and_cyclic_layouts_get_a_triple_each);
    tcase_add_test(tc, no_ranks_or_no_room_fail);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? EXIT_SUCCESS : EXIT_FAILURE;
}
