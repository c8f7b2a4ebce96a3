/*
 * test_strings.c - the PMIx_*_string functions name known values as
 * OpenPMIx 4.2.2 does and never return NULL for unknown ones.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "drover.h"
#include "pmix.h"

START_TEST(proc_states_have_names)
{
    ck_assert_str_eq(PMIx_Proc_state_string(PMIX_PROC_STATE_UNDEF), "UNDEFINED");
    ck_assert_str_eq(PMIx_Proc_state_string(PMIX_PROC_STATE_RUNNING), "PROC EXECUTING");
    ck_assert_str_eq(PMIx_Proc_state_string(PMIX_PROC_STATE_TERM_WO_SYNC),
                     "PROC TERMINATED WITHOUT CALLING PMIx_Finalize");
    ck_assert_str_eq(PMIx_Proc_state_string(PMIX_PROC_STATE_FAILED_TO_LAUNCH),
                     "PROC FAILED TO LAUNCH");
    ck_assert_str_eq(PMIx_Proc_state_string(99), "UNKNOWN STATE");
}
END_TEST

START_TEST(scopes_have_names)
{
    ck_assert_str_eq(PMIx_Scope_string(PMIX_SCOPE_UNDEF), "UNDEFINED");
    ck_assert_str_eq(PMIx_Scope_string(PMIX_GLOBAL), "SHARE ACROSS ALL NODES");
    ck_assert_str_eq(PMIx_Scope_string(PMIX_INTERNAL), "STORE INTERNALLY");
    ck_assert_str_eq(PMIx_Scope_string(200), "UNKNOWN SCOPE");
}
END_TEST

START_TEST(persistences_have_names)
{
    ck_assert_str_eq(PMIx_Persistence_string(PMIX_PERSIST_INDEF), "INDEFINITE");
    ck_assert_str_eq(PMIx_Persistence_string(PMIX_PERSIST_FIRST_READ), "DELETE ON FIRST ACCESS");
    ck_assert_str_eq(PMIx_Persistence_string(PMIX_PERSIST_INVALID), "INVALID");
    ck_assert_str_eq(PMIx_Persistence_string(77), "UNKNOWN PERSISTENCE");
}
END_TEST

START_TEST(ranges_have_names)
{
    ck_assert_str_eq(PMIx_Data_range_string(PMIX_RANGE_NAMESPACE),
                     "AVAIL TO PROCESSES IN SAME JOB ONLY");
    ck_assert_str_eq(PMIx_Data_range_string(PMIX_RANGE_PROC_LOCAL), "AVAIL ON LOCAL PROC ONLY");
    ck_assert_str_eq(PMIx_Data_range_string(PMIX_RANGE_INVALID), "INVALID");
    ck_assert_str_eq(PMIx_Data_range_string(99), "UNKNOWN");
}
END_TEST

START_TEST(alloc_directives_have_names)
{
    ck_assert_str_eq(PMIx_Alloc_directive_string(PMIX_ALLOC_NEW), "NEW");
    ck_assert_str_eq(PMIx_Alloc_directive_string(PMIX_ALLOC_REAQUIRE), "REACQUIRE");
    ck_assert_str_eq(PMIx_Alloc_directive_string(0), "UNSPECIFIED");
    ck_assert_str_eq(PMIx_Alloc_directive_string(99), "UNSPECIFIED");
}
END_TEST

START_TEST(job_states_have_names)
{
    ck_assert_str_eq(PMIx_Job_state_string(PMIX_JOB_STATE_UNDEF), "UNDEFINED");
    ck_assert_str_eq(PMIx_Job_state_string(PMIX_JOB_STATE_AWAITING_ALLOC), "PREPPED FOR LAUNCH");
    ck_assert_str_eq(PMIx_Job_state_string(PMIX_JOB_STATE_TERMINATED_WITH_ERROR),
                     "TERMINATED WITH ERROR");
    ck_assert_str_eq(PMIx_Job_state_string(99), "UNKNOWN");
}
END_TEST

START_TEST(link_states_have_names)
{
    ck_assert_str_eq(PMIx_Link_state_string(PMIX_LINK_STATE_UNKNOWN), "UNKNOWN");
    ck_assert_str_eq(PMIx_Link_state_string(PMIX_LINK_DOWN), "INACTIVE");
    ck_assert_str_eq(PMIx_Link_state_string(PMIX_LINK_UP), "ACTIVE");
    ck_assert_str_eq(PMIx_Link_state_string(9), "UNKNOWN");
}
END_TEST

START_TEST(device_types_have_names)
{
    ck_assert_str_eq(PMIx_Device_type_string(PMIX_DEVTYPE_GPU), "GPU");
    ck_assert_str_eq(PMIx_Device_type_string(PMIX_DEVTYPE_COPROC), "COPROCESSOR");
    ck_assert_str_eq(PMIx_Device_type_string(PMIX_DEVTYPE_GPU | PMIX_DEVTYPE_DMA), "UNKNOWN");
    ck_assert_str_eq(PMIx_Device_type_string(UINT64_MAX), "UNKNOWN");
}
END_TEST

START_TEST(comparisons_have_names)
{
    ck_assert_str_eq(PMIx_Value_comparison_string(PMIX_EQUAL), "EQUAL");
    ck_assert_str_eq(PMIx_Value_comparison_string(PMIX_VALUE2_GREATER), "VALUE2 GREATER");
    ck_assert_str_eq(PMIx_Value_comparison_string(PMIX_VALUE_TYPE_DIFFERENT), "DIFFERENT TYPES");
    ck_assert_str_eq(PMIx_Value_comparison_string(PMIX_VALUE_COMPARISON_NOT_AVAIL),
                     "COMPARISON NOT AVAILABLE");
    ck_assert_str_eq(PMIx_Value_comparison_string((pmix_value_cmp_t)42), "UNKNOWN VALUE");
    ck_assert_str_eq(PMIx_Value_comparison_string((pmix_value_cmp_t)-1), "UNKNOWN VALUE");
}
END_TEST

START_TEST(iof_channel_sets_are_named_and_stable)
{
    const char *out = PMIx_IOF_channel_string(PMIX_FWD_STDOUT_CHANNEL);
    const char *all = PMIx_IOF_channel_string(PMIX_FWD_ALL_CHANNELS);

    ck_assert_str_eq(PMIx_IOF_channel_string(PMIX_FWD_NO_CHANNELS), "NONE");
    ck_assert_str_eq(PMIx_IOF_channel_string(PMIX_FWD_STDIN_CHANNEL | PMIX_FWD_STDERR_CHANNEL),
                     "STDIN STDERR ");
    /* Earlier answers survive later calls: no shared static buffer. */
    ck_assert_str_eq(out, "STDOUT ");
    ck_assert_str_eq(all, "STDIN STDOUT STDERR STDDIAG ");
    ck_assert_str_eq(PMIx_IOF_channel_string(0x100), "NONE");
}
END_TEST

static void check_directives(pmix_info_directives_t d, const char *expected)
{
    char *s = PMIx_Info_directives_string(d);

    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s, expected);
    free(s);
}

START_TEST(info_directives_are_joined_with_colons)
{
    check_directives(0, "OPTIONAL");
    check_directives(PMIX_INFO_REQD, "REQUIRED");
    check_directives(PMIX_INFO_REQD | PMIX_INFO_REQD_PROCESSED | PMIX_INFO_ARRAY_END,
                     "REQUIRED:PROCESSED:END");
    check_directives(PMIX_INFO_ARRAY_END, "OPTIONAL:END");
    check_directives(PMIX_INFO_QUALIFIER | PMIX_INFO_REQD, "QUALIFIER");
    check_directives(PMIX_INFO_PERSISTENT, "OPTIONAL");
    check_directives(UINT32_MAX, "QUALIFIER");
}
END_TEST

START_TEST(value_and_info_strings_are_allocated_text)
{
    pmix_value_t v;
    pmix_info_t info;
    int32_t n = 1234;
    char *s;

    ck_assert_int_eq(PMIx_Value_load(&v, &n, PMIX_INT32), PMIX_SUCCESS);
    s = PMIx_Value_string(&v);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(strstr(s, "1234"));
    free(s);
    ck_assert_int_eq(PMIx_Info_load(&info, "my.key", "text", PMIX_STRING), PMIX_SUCCESS);
    s = PMIx_Info_string(&info);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(strstr(s, "my.key"));
    ck_assert_ptr_nonnull(strstr(s, "text"));
    free(s);
    PMIx_Value_destruct(&info.value);
    ck_assert_ptr_null(PMIx_Value_string(NULL));
    ck_assert_ptr_null(PMIx_Info_string(NULL));
}
END_TEST

/* A one-byte datatype a program might register. */
static pmix_status_t tiny_pack(drover_writer_t *w, const void *elem)
{
    return drover_pack(w, elem, 1, PMIX_UINT8);
}

static pmix_status_t tiny_unpack(drover_reader_t *r, void *elem)
{
    return drover_unpack(r, elem, 1, PMIX_UINT8);
}

static char *tiny_print(const void *elem)
{
    return strdup("tiny");
}

START_TEST(data_type_names_come_from_the_registry)
{
    static const drover_datatype_t tiny = {
        .name = "MY_TINY_TYPE", .id = 2000, .size = 1, .min_wire = 1,
        .flags = DROVER_DATATYPE_VALUE_INLINE,
        .pack = tiny_pack, .unpack = tiny_unpack, .print = tiny_print,
    };

    ck_assert_str_eq(PMIx_Data_type_string(2000), "UNKNOWN");
    ck_assert_int_eq(drover_register_datatype(&tiny), PMIX_SUCCESS);
    ck_assert_str_eq(PMIx_Data_type_string(2000), "MY_TINY_TYPE");
    ck_assert_str_eq(PMIx_Data_type_string(PMIX_STRING), "PMIX_STRING");
    ck_assert_str_eq(PMIx_Data_type_string(PMIX_INT32), "PMIX_INT32");
    ck_assert_str_eq(PMIx_Data_type_string(PMIX_INFO), "PMIX_INFO");
    ck_assert_str_eq(PMIx_Data_type_string(999), "UNKNOWN");
    ck_assert_str_eq(PMIx_Data_type_string(DROVER_DATATYPE_USER_MAX), "UNKNOWN");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("strings");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, proc_states_have_names);
    tcase_add_test(tc, scopes_have_names);
    tcase_add_test(tc, persistences_have_names);
    tcase_add_test(tc, ranges_have_names);
    tcase_add_test(tc, alloc_directives_have_names);
    tcase_add_test(tc, job_states_have_names);
    tcase_add_test(tc, link_states_have_names);
    tcase_add_test(tc, device_types_have_names);
    tcase_add_test(tc, comparisons_have_names);
    tcase_add_test(tc, iof_channel_sets_are_named_and_stable);
    tcase_add_test(tc, info_directives_are_joined_with_colons);
    tcase_add_test(tc, value_and_info_strings_are_allocated_text);
    tcase_add_test(tc, data_type_names_come_from_the_registry);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
