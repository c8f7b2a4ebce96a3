/*
 * test_info_api.c - PMIx_Info_load, PMIx_Info_xfer and the info lists.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "pmix.h"

START_TEST(info_load_sets_key_clears_flags_and_copies_the_value)
{
    pmix_info_t info;
    char text[] = "payload";
    uint32_t n = 7;

    memset(&info, 0, sizeof(info));
    info.flags = PMIX_INFO_REQD;
    ck_assert_int_eq(PMIx_Info_load(&info, "test.key", text, PMIX_STRING), PMIX_SUCCESS);
    ck_assert_str_eq(info.key, "test.key");
    ck_assert_uint_eq(info.flags, 0);
    ck_assert_int_eq(info.value.type, PMIX_STRING);
    ck_assert_str_eq(info.value.data.string, "payload");
    ck_assert_ptr_ne(info.value.data.string, text);
    PMIx_Value_destruct(&info.value);

    ck_assert_int_eq(PMIx_Info_load(&info, "n", &n, PMIX_UINT32), PMIX_SUCCESS);
    ck_assert_uint_eq(info.value.data.uint32, 7);
}
END_TEST

START_TEST(info_load_refuses_a_null_key_and_an_unknown_type_without_change)
{
    pmix_info_t info;
    int x = 1;

    ck_assert_int_eq(PMIx_Info_load(&info, "k", &x, PMIX_INT), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Info_load(&info, NULL, &x, PMIX_INT), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Info_load(&info, "other", &x, 999), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_str_eq(info.key, "k");
    ck_assert_int_eq(info.value.type, PMIX_INT);
    ck_assert_int_eq(PMIx_Info_load(NULL, "k", &x, PMIX_INT), PMIX_ERR_BAD_PARAM);
}
END_TEST

START_TEST(info_load_cuts_an_overlong_key)
{
    pmix_info_t info;
    char key[PMIX_MAX_KEYLEN + 20];

    memset(key, 'k', sizeof(key) - 1);
    key[sizeof(key) - 1] = '\0';
    ck_assert_int_eq(PMIx_Info_load(&info, key, NULL, PMIX_BOOL), PMIX_SUCCESS);
    ck_assert_uint_eq(strlen(info.key), PMIX_MAX_KEYLEN);
    ck_assert(info.value.data.flag);
}
END_TEST

START_TEST(info_xfer_deep_copies_and_keeps_flags)
{
    pmix_info_t src, dest;

    ck_assert_int_eq(PMIx_Info_load(&src, "k", "v", PMIX_STRING), PMIX_SUCCESS);
    src.flags = PMIX_INFO_REQD;
    ck_assert_int_eq(PMIx_Info_xfer(&dest, &src), PMIX_SUCCESS);
    ck_assert_str_eq(dest.key, "k");
    ck_assert_uint_eq(dest.flags, PMIX_INFO_REQD);
    ck_assert_str_eq(dest.value.data.string, "v");
    ck_assert_ptr_ne(dest.value.data.string, src.value.data.string);
    PMIx_Value_destruct(&dest.value);
    PMIx_Value_destruct(&src.value);
}
END_TEST

START_TEST(info_xfer_of_a_persistent_info_shares_its_value)
{
    pmix_info_t src, dest;

    ck_assert_int_eq(PMIx_Info_load(&src, "k", "shared", PMIX_STRING), PMIX_SUCCESS);
    src.flags = PMIX_INFO_PERSISTENT | PMIX_INFO_REQD;
    ck_assert_int_eq(PMIx_Info_xfer(&dest, &src), PMIX_SUCCESS);
    ck_assert_uint_eq(dest.flags, PMIX_INFO_PERSISTENT | PMIX_INFO_REQD);
    ck_assert_ptr_eq(dest.value.data.string, src.value.data.string);
    PMIx_Value_destruct(&src.value);
    ck_assert_int_eq(PMIx_Info_xfer(NULL, &src), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Info_xfer(&dest, NULL), PMIX_ERR_BAD_PARAM);
}
END_TEST

START_TEST(info_list_converts_to_an_info_array_in_order)
{
    void *list = PMIx_Info_list_start();
    pmix_info_t inserted, xferred;
    pmix_data_array_t array;
    pmix_info_t *items;
    int32_t n = -3;

    ck_assert_ptr_nonnull(list);
    ck_assert_int_eq(PMIx_Info_list_add(list, "a", &n, PMIX_INT32), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Info_load(&inserted, "b", "kept by caller", PMIX_STRING),
                     PMIX_SUCCESS);
    inserted.flags = PMIX_INFO_REQD;
    ck_assert_int_eq(PMIx_Info_list_insert(list, &inserted), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Info_load(&xferred, "c", "copied", PMIX_STRING), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Info_list_xfer(list, &xferred), PMIX_SUCCESS);
    PMIx_Value_destruct(&xferred.value);

    ck_assert_int_eq(PMIx_Info_list_convert(list, &array), PMIX_SUCCESS);
    ck_assert_int_eq(array.type, PMIX_INFO);
    ck_assert_uint_eq(array.size, 3);
    items = array.array;
    ck_assert_str_eq(items[0].key, "a");
    ck_assert_int_eq(items[0].value.data.int32, -3);
    ck_assert_str_eq(items[1].key, "b");
    /* An inserted entry keeps pointing at the caller's memory and is marked
     * so that nobody frees it. */
    ck_assert_ptr_eq(items[1].value.data.string, inserted.value.data.string);
    ck_assert_uint_eq(items[1].flags, PMIX_INFO_REQD | PMIX_INFO_PERSISTENT);
    ck_assert_str_eq(items[2].key, "c");
    ck_assert_str_eq(items[2].value.data.string, "copied");
    ck_assert_uint_eq(items[2].flags, 0);

    PMIx_Info_list_release(list);
    PMIx_Data_array_destruct(&array);
    ck_assert_ptr_null(array.array);
    ck_assert_uint_eq(array.size, 0);
    /* Neither the list nor the array freed the inserted string. */
    ck_assert_str_eq(inserted.value.data.string, "kept by caller");
    PMIx_Value_destruct(&inserted.value);
}
END_TEST

START_TEST(info_list_convert_of_an_empty_list_is_empty)
{
    void *list = PMIx_Info_list_start();
    pmix_data_array_t array;

    memset(&array, 0xff, sizeof(array));
    ck_assert_int_eq(PMIx_Info_list_convert(list, &array), PMIX_ERR_EMPTY);
    ck_assert_int_eq(array.type, PMIX_INFO);
    ck_assert_uint_eq(array.size, 0);
    ck_assert_ptr_null(array.array);
    ck_assert_int_eq(PMIx_Info_list_convert(NULL, &array), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Info_list_convert(list, NULL), PMIX_ERR_BAD_PARAM);
    PMIx_Info_list_release(list);
    PMIx_Info_list_release(NULL);
}
END_TEST

START_TEST(info_list_grows_and_refuses_bad_entries)
{
    void *list = PMIx_Info_list_start();
    pmix_data_array_t array;
    char key[16];

    for (size_t i = 0; i < 100; i++) {
        snprintf(key, sizeof(key), "k%zu", i);
        ck_assert_int_eq(PMIx_Info_list_add(list, key, key, PMIX_STRING), PMIX_SUCCESS);
    }
    ck_assert_int_eq(PMIx_Info_list_add(list, NULL, "x", PMIX_STRING), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Info_list_add(list, "bad", "x", 999), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_int_eq(PMIx_Info_list_add(NULL, "k", "x", PMIX_STRING), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Info_list_insert(list, NULL), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Info_list_xfer(list, NULL), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Info_list_convert(list, &array), PMIX_SUCCESS);
    ck_assert_uint_eq(array.size, 100);
    ck_assert_str_eq(((pmix_info_t *)array.array)[99].value.data.string, "k99");
    PMIx_Data_array_destruct(&array);
    PMIx_Info_list_release(list);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("info_api");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, info_load_sets_key_clears_flags_and_copies_the_value);
    tcase_add_test(tc, info_load_refuses_a_null_key_and_an_unknown_type_without_change);
    tcase_add_test(tc, info_load_cuts_an_overlong_key);
    tcase_add_test(tc, info_xfer_deep_copies_and_keeps_flags);
    tcase_add_test(tc, info_xfer_of_a_persistent_info_shares_its_value);
    tcase_add_test(tc, info_list_converts_to_an_info_array_in_order);
    tcase_add_test(tc, info_list_convert_of_an_empty_list_is_empty);
    tcase_add_test(tc, info_list_grows_and_refuses_bad_entries);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
