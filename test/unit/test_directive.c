/*
 * test_directive.c - the one reader of request directives: integers of any
 * type OpenPMIx converts, and PMIX_TIMEOUT in whole seconds.
 */
#include <check.h>
#include <stdlib.h>

#include "directive.h"
#include "pmix.h"

START_TEST(every_integer_type_is_a_number)
{
    int64_t n = 0;
    pmix_value_t v;

    v = (pmix_value_t){.type = PMIX_INT, .data.integer = -3};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, -3);
    v = (pmix_value_t){.type = PMIX_INT8, .data.int8 = -8};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, -8);
    v = (pmix_value_t){.type = PMIX_INT16, .data.int16 = 16};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, 16);
    v = (pmix_value_t){.type = PMIX_INT32, .data.int32 = 32};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, 32);
    v = (pmix_value_t){.type = PMIX_INT64, .data.int64 = INT64_MIN};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, INT64_MIN);
    v = (pmix_value_t){.type = PMIX_UINT, .data.uint = 7};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, 7);
    v = (pmix_value_t){.type = PMIX_UINT8, .data.uint8 = 255};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, 255);
    v = (pmix_value_t){.type = PMIX_UINT16, .data.uint16 = 65535};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, 65535);
    v = (pmix_value_t){.type = PMIX_UINT32, .data.uint32 = UINT32_MAX};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, UINT32_MAX);
    v = (pmix_value_t){.type = PMIX_UINT64, .data.uint64 = INT64_MAX};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, INT64_MAX);
    v = (pmix_value_t){.type = PMIX_SIZE, .data.size = 12};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, 12);
    v = (pmix_value_t){.type = PMIX_PID, .data.pid = 4242};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, 4242);
    v = (pmix_value_t){.type = PMIX_PROC_RANK, .data.rank = 5};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_SUCCESS);
    ck_assert_int_eq(n, 5);
}
END_TEST

START_TEST(other_values_are_not_numbers)
{
    int64_t n = 99;
    pmix_value_t v;

    v = (pmix_value_t){.type = PMIX_UINT64, .data.uint64 = (uint64_t)INT64_MAX + 1};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_ERR_BAD_PARAM);
    v = (pmix_value_t){.type = PMIX_BOOL, .data.flag = true};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_ERR_BAD_PARAM);
    v = (pmix_value_t){.type = PMIX_STRING, .data.string = "5"};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_ERR_BAD_PARAM);
    v = (pmix_value_t){.type = PMIX_DOUBLE, .data.dval = 5.0};
    ck_assert_int_eq(directive_integer(&v, &n), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(n, 99);
}
END_TEST

START_TEST(timeouts_are_whole_positive_seconds)
{
    pmix_info_t info[2];
    uint32_t u32 = 5;
    int i = 3, negative = -1;
    uint64_t huge = UINT64_C(1) << 40;

    PMIx_Info_load(&info[0], PMIX_IMMEDIATE, NULL, PMIX_BOOL);
    ck_assert_int_eq(directive_timeout(info, 1), 0);
    ck_assert_int_eq(directive_timeout(NULL, 0), 0);
    PMIx_Info_load(&info[1], PMIX_TIMEOUT, &u32, PMIX_UINT32);
    ck_assert_int_eq(directive_timeout(info, 2), 5);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIx_Info_load(&info[1], PMIX_TIMEOUT, &i, PMIX_INT);
    ck_assert_int_eq(directive_timeout(info, 2), 3);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIx_Info_load(&info[1], PMIX_TIMEOUT, &negative, PMIX_INT);
    ck_assert_int_eq(directive_timeout(info, 2), 0);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIx_Info_load(&info[1], PMIX_TIMEOUT, &huge, PMIX_UINT64);
    ck_assert_int_eq(directive_timeout(info, 2), INT32_MAX);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIx_Info_load(&info[1], PMIX_TIMEOUT, "10", PMIX_STRING);
    ck_assert_int_eq(directive_timeout(info, 2), 0);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIX_INFO_DESTRUCT(&info[0]);
}
END_TEST

START_TEST(the_first_of_a_key_is_found_and_flags_read_as_pmix_does)
{
    pmix_info_t info[3];
    bool no = false;
    int one = 1;

    PMIx_Info_load(&info[0], PMIX_IMMEDIATE, NULL, PMIX_BOOL); /* a bare flag is true */
    PMIx_Info_load(&info[1], PMIX_COLLECT_DATA, &no, PMIX_BOOL);
    PMIx_Info_load(&info[2], PMIX_COLLECT_DATA, &one, PMIX_INT);
    ck_assert_ptr_eq(directive_find(info, 3, PMIX_COLLECT_DATA), &info[1].value);
    ck_assert_ptr_null(directive_find(info, 3, PMIX_TIMEOUT));
    ck_assert_ptr_null(directive_find(NULL, 0, PMIX_TIMEOUT));
    ck_assert(directive_flag(info, 3, PMIX_IMMEDIATE));
    ck_assert(!directive_flag(info, 3, PMIX_COLLECT_DATA));
    ck_assert(!directive_flag(info, 3, PMIX_TIMEOUT));
    for (int i = 0; i < 3; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}
END_TEST

START_TEST(debugger_directives_name_processes_in_every_standard_form)
{
    pmix_proc_t me, procs[2];
    pmix_rank_t ranks[2] = {0, 3};
    pmix_data_array_t proc_array = {.type = PMIX_PROC, .size = 2, .array = procs};
    pmix_data_array_t rank_array = {.type = PMIX_PROC_RANK, .size = 2, .array = ranks};
    pmix_value_t v;
    bool named;

    PMIX_LOAD_PROCID(&me, "job", 3);
    v = (pmix_value_t){.type = PMIX_BOOL, .data.flag = true};
    ck_assert(PMIX_SUCCESS == directive_names_proc(&v, &me, &named) && named);
    v.data.flag = false;
    ck_assert(PMIX_SUCCESS == directive_names_proc(&v, &me, &named) && !named);
    v = (pmix_value_t){.type = PMIX_PROC_RANK, .data.rank = PMIX_RANK_WILDCARD};
    ck_assert(PMIX_SUCCESS == directive_names_proc(&v, &me, &named) && named);
    v.data.rank = 2;
    ck_assert(PMIX_SUCCESS == directive_names_proc(&v, &me, &named) && !named);
    /* Processes: of this job, or of a job not yet named (empty). */
    PMIX_LOAD_PROCID(&procs[0], "other", 3);
    PMIX_LOAD_PROCID(&procs[1], "", 3);
    v = (pmix_value_t){.type = PMIX_PROC, .data.proc = &procs[0]};
    ck_assert(PMIX_SUCCESS == directive_names_proc(&v, &me, &named) && !named);
    v.data.proc = &procs[1];
    ck_assert(PMIX_SUCCESS == directive_names_proc(&v, &me, &named) && named);
    v = (pmix_value_t){.type = PMIX_DATA_ARRAY, .data.darray = &proc_array};
    ck_assert(PMIX_SUCCESS == directive_names_proc(&v, &me, &named) && named);
    proc_array.size = 1;
    ck_assert(PMIX_SUCCESS == directive_names_proc(&v, &me, &named) && !named);
    v.data.darray = &rank_array;
    ck_assert(PMIX_SUCCESS == directive_names_proc(&v, &me, &named) && named);
    rank_array.size = 1;
    ck_assert(PMIX_SUCCESS == directive_names_proc(&v, &me, &named) && !named);
    /* Anything else is refused, not read as "nobody". */
    v = (pmix_value_t){.type = PMIX_STRING, .data.string = "all"};
    ck_assert(PMIX_ERR_BAD_PARAM == directive_names_proc(&v, &me, &named) && !named);
    rank_array.type = PMIX_STRING;
    v = (pmix_value_t){.type = PMIX_DATA_ARRAY, .data.darray = &rank_array};
    ck_assert(PMIX_ERR_BAD_PARAM == directive_names_proc(&v, &me, &named));
    v.data.darray = NULL;
    ck_assert(PMIX_ERR_BAD_PARAM == directive_names_proc(&v, &me, &named));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("directive");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, every_integer_type_is_a_number);
    tcase_add_test(tc, other_values_are_not_numbers);
    tcase_add_test(tc, timeouts_are_whole_positive_seconds);
    tcase_add_test(tc, the_first_of_a_key_is_found_and_flags_read_as_pmix_does);
    tcase_add_test(tc, debugger_directives_name_processes_in_every_standard_form);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
