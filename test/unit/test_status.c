/*
 * test_status.c - the status registry and PMIx_Error_string.
 *
 * The values below are written out literally (they are PMIx facts), so a
 * table that drifts from the standard fails here.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "attributes.h"
#include "pmix.h"

/* Status names in the PMIx v4 headers, and how
 * many of them are older spellings of a value another name owns. */
#define EXPECTED_STATUS_NAMES 162
#define EXPECTED_ALIASES 8

/* The text is OpenPMIx 4.2's (what programs print and scripts match). */
static const struct {
    const char *name;
    pmix_status_t value;
    const char *text;
} known[] = {
    {"PMIX_SUCCESS", 0, "SUCCESS"},
    {"PMIX_ERROR", -1, "ERROR"},
    {"PMIX_ERR_TYPE_MISMATCH", -18, "TYPE-MISMATCH"},
    {"PMIX_ERR_BAD_PARAM", -27, "BAD-PARAM"},
    {"PMIX_ERR_NOT_FOUND", -46, "NOT-FOUND"},
    {"PMIX_ERR_PARAM_VALUE_NOT_SUPPORTED", -59, "PARAM-VALUE-NOT-SUPPORTED"},
    {"PMIX_OPERATION_SUCCEEDED", -157, "OPERATION-SUCCEEDED"},
    {"PMIX_FABRIC_UPDATE_ENDPOINTS", -113, "FABRIC-UPDATE-ENDPOINTS"},
    {"PMIX_ERR_JOB_SYS_OP_FAILED", -235, "SYSTEM OPERATION FAILED"},
    {"PMIX_EVENT_JOB_END", -145, "JOB ENDED"},
    {"PMIX_EVENT_SYS_OTHER", -330, "UNDEFINED-SYSTEM-EVENT"},
    {"PMIX_EVENT_ACTION_COMPLETE", -334, "EVENT-ACTION-COMPLETE"},
    {"PMIX_ERR_EXIT_NONZERO_TERM", -404, "PROC-EXIT-NONZERO-TERM"},
    {"PMIX_EXTERNAL_ERR_BASE", -3000, "ERROR STRING NOT FOUND"},
    /* Deprecated names that still own their value. */
    {"PMIX_ERR_SILENT", -2, "SILENT_ERROR"},
    {"PMIX_ERR_INVALID_NAMESPACE", -44, "INVALID-NAMESPACE"},
    {"PMIX_ERR_SYS_LIMITS_FILES", -75, "ERROR STRING NOT FOUND"},
    {"PMIX_CONNECT_REQUESTED", -150, "CONNECT-REQUESTED"},
};

START_TEST(known_codes_have_their_standard_values_and_names)
{
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        const attributes_status_t *s = error_string_lookup(known[i].value);

        ck_assert_msg(NULL != s, "%s is registered", known[i].name);
        ck_assert_str_eq(s->name, known[i].name);
        ck_assert_str_eq(PMIx_Error_string(known[i].value), known[i].text);
    }
}
END_TEST

START_TEST(the_public_macros_have_the_standard_values)
{
    ck_assert_int_eq(PMIX_ERR_NOT_FOUND, -46);
    ck_assert_int_eq(PMIX_ERR_NOMEM, -32);
    ck_assert_int_eq(PMIX_EVENT_NODE_DOWN, -231);
    ck_assert_int_eq(PMIX_ERR_SYS_BASE, PMIX_EVENT_SYS_BASE);
    ck_assert_int_eq(PMIX_ERR_SYS_OTHER, -330);
    ck_assert_int_eq(PMIX_DEBUG_WAITING_FOR_NOTIFY, PMIX_READY_FOR_DEBUG);
    ck_assert_int_eq(PMIX_EXTERNAL_ERR_BASE - 1, -3001);
}
END_TEST

START_TEST(a_deprecated_spelling_reports_the_current_text)
{
    ck_assert_str_eq(PMIx_Error_string(PMIX_EXISTS), "EXISTS");
    ck_assert_str_eq(PMIx_Error_string(PMIX_ERR_JOB_TERMINATED), "JOB ENDED");
    ck_assert_str_eq(PMIx_Error_string(PMIX_ERR_DEBUGGER_RELEASE), "DEBUGGER-RELEASE");
    ck_assert_str_eq(PMIx_Error_string(PMIX_ERR_NODE_OFFLINE), "NODE-OFFLINE");
    ck_assert_str_eq(PMIx_Error_string(PMIX_ERR_SYS_BASE), "SYSTEM BASE EVENT");
}
END_TEST

START_TEST(unknown_codes_get_a_fixed_string_never_null)
{
    ck_assert_str_eq(PMIx_Error_string(-9999), "ERROR STRING NOT FOUND");
    ck_assert_str_eq(PMIx_Error_string(1), "ERROR STRING NOT FOUND");
    ck_assert_str_eq(PMIx_Error_string(PMIX_EXTERNAL_ERR_BASE - 1), "ERROR STRING NOT FOUND");
    ck_assert_str_eq(PMIx_Error_string(INT32_MIN), "ERROR STRING NOT FOUND");
    ck_assert_str_eq(PMIx_Error_string(INT32_MAX), "ERROR STRING NOT FOUND");
    ck_assert_ptr_null(error_string_lookup(-9999));
    for (pmix_status_t v = -5000; v <= 100; v++) {
        ck_assert_ptr_nonnull(PMIx_Error_string(v));
    }
}
END_TEST

START_TEST(every_entry_maps_back_to_its_name_or_its_owner)
{
    size_t aliases = 0;

    ck_assert_uint_eq(error_string_count(), EXPECTED_STATUS_NAMES);
    for (size_t i = 0; i < error_string_count(); i++) {
        const attributes_status_t *e = error_string_at(i);
        const attributes_status_t *owner;

        ck_assert_ptr_nonnull(e);
        ck_assert_msg(0 == strncmp(e->name, "PMIX_", 5), "%s is a PMIX_ name", e->name);
        ck_assert_msg(NULL != e->text && '\0' != e->text[0], "%s has a text", e->name);
        owner = error_string_lookup(e->value);
        ck_assert_ptr_nonnull(owner);
        ck_assert_int_eq(owner->value, e->value);
        ck_assert_str_eq(PMIx_Error_string(e->value), owner->text);
        if (owner != e) {
            /* Only a retired spelling may yield its value to another name. */
            aliases++;
            ck_assert_msg(e->deprecated, "%s is deprecated", e->name);
            ck_assert_msg(!owner->deprecated, "%s is current", owner->name);
        }
    }
    ck_assert_uint_eq(aliases, EXPECTED_ALIASES);
    ck_assert_ptr_null(error_string_at(error_string_count()));
}
END_TEST

START_TEST(entries_are_in_value_order)
{
    for (size_t i = 1; i < error_string_count(); i++) {
        ck_assert_int_le(error_string_at(i - 1)->value, error_string_at(i)->value);
    }
}
END_TEST

START_TEST(success_is_the_only_non_negative_code)
{
    for (size_t i = 0; i < error_string_count(); i++) {
        const attributes_status_t *e = error_string_at(i);

        ck_assert_msg(e->value < 0 || 0 == strcmp(e->name, "PMIX_SUCCESS"), "%s is negative",
                      e->name);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("status");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, known_codes_have_their_standard_values_and_names);
    tcase_add_test(tc, the_public_macros_have_the_standard_values);
    tcase_add_test(tc, a_deprecated_spelling_reports_the_current_text);
    tcase_add_test(tc, unknown_codes_get_a_fixed_string_never_null);
    tcase_add_test(tc, every_entry_maps_back_to_its_name_or_its_owner);
    tcase_add_test(tc, entries_are_in_value_order);
    tcase_add_test(tc, success_is_the_only_non_negative_code);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
