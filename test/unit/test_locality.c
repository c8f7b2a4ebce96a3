/*
 * test_locality.c - locality and cpuset strings: what the server writes
 * (PMIx_server_generate_locality_string / _cpuset_string) the client
 * reads back (PMIx_Get_relative_locality / PMIx_Parse_cpuset_string), and
 * for every pair of hardware threads of this machine the relative
 * locality says exactly what hwloc's tree says they share.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "pmix.h"
#include "pmix_server.h"

static hwloc_topology_t topo;

static char *locality_of(hwloc_const_bitmap_t cpus)
{
    pmix_cpuset_t set = {.source = "hwloc", .bitmap = (hwloc_bitmap_t)cpus};
    char *s = NULL;
    ck_assert_int_eq(PMIx_server_generate_locality_string(&set, &s), PMIX_SUCCESS);
    return s;
}

/* What two threads share, from hwloc's tree. */
static pmix_locality_t expected(hwloc_obj_t a, hwloc_obj_t b)
{
    static const struct {
        hwloc_obj_type_t type;
        pmix_locality_t bit;
    } levels[] = {
        {HWLOC_OBJ_PACKAGE, PMIX_LOCALITY_SHARE_PACKAGE}, {HWLOC_OBJ_L3CACHE, PMIX_LOCALITY_SHARE_L3CACHE},
        {HWLOC_OBJ_L2CACHE, PMIX_LOCALITY_SHARE_L2CACHE}, {HWLOC_OBJ_L1CACHE, PMIX_LOCALITY_SHARE_L1CACHE},
        {HWLOC_OBJ_CORE, PMIX_LOCALITY_SHARE_CORE},       {HWLOC_OBJ_PU, PMIX_LOCALITY_SHARE_HWTHREAD},
        {HWLOC_OBJ_NUMANODE, PMIX_LOCALITY_SHARE_NUMA},
    };
    pmix_locality_t loc = PMIX_LOCALITY_SHARE_NODE;

    for (size_t i = 0; i < sizeof(levels) / sizeof(*levels); i++) {
        hwloc_obj_t obj = NULL;
        while (NULL != (obj = hwloc_get_next_obj_by_type(topo, levels[i].type, obj))) {
            if (NULL != obj->cpuset && hwloc_bitmap_isset(obj->cpuset, a->os_index) &&
                hwloc_bitmap_isset(obj->cpuset, b->os_index)) {
                loc |= levels[i].bit;
            }
        }
    }
    return loc;
}

START_TEST(relative_locality_matches_the_topology)
{
    int npus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    int n = npus > 16 ? 16 : npus;

    ck_assert_int_gt(n, 0);
    for (int i = 0; i < n; i++) {
        hwloc_obj_t a = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
        char *la = locality_of(a->cpuset);
        for (int j = 0; j < n; j++) {
            hwloc_obj_t b = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)j);
            char *lb = locality_of(b->cpuset);
            pmix_locality_t loc = 0;
            ck_assert_int_eq(PMIx_Get_relative_locality(la, lb, &loc), PMIX_SUCCESS);
            ck_assert_msg(loc == expected(a, b), "PU %d and %d (%s, %s): 0x%x, expected 0x%x", i,
                          j, la, lb, loc, expected(a, b));
            free(lb);
        }
        free(la);
    }
}
END_TEST

START_TEST(relative_locality_reads_both_forms)
{
    pmix_locality_t a = 0, b = 0;
    ck_assert_int_eq(PMIx_Get_relative_locality("SK0:CR0-3:HT0-7", "SK0:CR3:HT7", &a),
                     PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Get_relative_locality("hwloc:SK0:CR0-3:HT0-7", "HWLOC:SK0:CR3:HT7", &b),
                     PMIX_SUCCESS);
    ck_assert_int_eq(a, b);
    ck_assert_int_eq(a, PMIX_LOCALITY_SHARE_NODE | PMIX_LOCALITY_SHARE_PACKAGE |
                            PMIX_LOCALITY_SHARE_CORE | PMIX_LOCALITY_SHARE_HWTHREAD);
}
END_TEST

START_TEST(malformed_locality_is_refused)
{
    static const char *bad[] = {"SK", "SKa", "S0", "SK0::", "QQ1", "SK0:SK0", "SK1+2", "L30:L3"};
    pmix_locality_t loc = 0x1234;

    for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
        ck_assert_msg(PMIX_ERR_BAD_PARAM == PMIx_Get_relative_locality(bad[i], "SK0", &loc),
                      "'%s' accepted", bad[i]);
        ck_assert_msg(PMIX_ERR_BAD_PARAM == PMIx_Get_relative_locality("SK0", bad[i], &loc),
                      "'%s' accepted second", bad[i]);
    }
    ck_assert_int_eq(loc, 0x1234);
}
END_TEST

START_TEST(cpuset_strings_round_trip)
{
    hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
    pmix_cpuset_t in = {.source = "hwloc", .bitmap = cpus}, out = {.source = NULL};
    char *text = NULL;

    hwloc_bitmap_set_range(cpus, 2, 5);
    hwloc_bitmap_set(cpus, 9);
    ck_assert_int_eq(PMIx_server_generate_cpuset_string(&in, &text), PMIX_SUCCESS);
    ck_assert_str_eq(text, "hwloc:2-5,9");
    ck_assert_int_eq(PMIx_Parse_cpuset_string(text, &out), PMIX_SUCCESS);
    ck_assert_str_eq(out.source, "hwloc");
    ck_assert(hwloc_bitmap_isequal(out.bitmap, cpus));
    PMIx_Cpuset_destruct(&out);
    free(text);
    hwloc_bitmap_free(cpus);
}
END_TEST

START_TEST(malformed_cpusets_are_refused)
{
    pmix_cpuset_t out = {.source = NULL, .bitmap = NULL};
    ck_assert_int_eq(PMIx_Parse_cpuset_string("hwloc:1;2", &out), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Parse_cpuset_string("hwloc:,,x", &out), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Parse_cpuset_string("hwlocx:1", &out), PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(PMIx_Parse_cpuset_string("", &out), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Parse_cpuset_string("hwloc:1", NULL), PMIX_ERR_BAD_PARAM);
    ck_assert(NULL == out.source && NULL == out.bitmap);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("locality");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    hwloc_topology_init(&topo);
    hwloc_topology_load(topo);
    tcase_add_test(tc, relative_locality_matches_the_topology);
    tcase_add_test(tc, relative_locality_reads_both_forms);
    tcase_add_test(tc, malformed_locality_is_refused);
    tcase_add_test(tc, cpuset_strings_round_trip);
    tcase_add_test(tc, malformed_cpusets_are_refused);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    hwloc_topology_destroy(topo);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
