/*
 * test_attributes.c - the attribute registry, PMIx_Get_attribute_string /
 * PMIx_Get_attribute_name and drover_attribute_at.
 *
 * The expected keys and types below are written out literally (they are
 * PMIx facts), so a table that drifts from the standard fails here rather
 * than agreeing with itself.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "attributes.h"
#include "drover.h"
#include "pmix.h"

/* Attributes in the PMIx v4 headers (pmix_common.h and pmix_deprecated.h),
 * and how many of them repeat a key another macro already owns. */
#define EXPECTED_ATTRIBUTES 528
#define EXPECTED_ALIASES 12

static const struct {
    const char *name;
    const char *key;
    pmix_data_type_t type;
    bool deprecated;
} known[] = {
    {"PMIX_JOB_SIZE", "pmix.job.size", PMIX_UINT32, false},
    {"PMIX_RANK", "pmix.rank", PMIX_PROC_RANK, false},
    {"PMIX_NSPACE", "pmix.nspace", PMIX_STRING, false},
    {"PMIX_PROCID", "pmix.procid", PMIX_PROC, false},
    {"PMIX_COLLECT_DATA", "pmix.collect", PMIX_BOOL, false},
    {"PMIX_EVENT_AFFECTED_PROCS", "pmix.evaffected", PMIX_DATA_ARRAY, false},
    {"PMIX_SET_ENVAR", "pmix.envar.set", PMIX_ENVAR, false},
    {"PMIX_EVENT_RETURN_OBJECT", "pmix.evobject", PMIX_POINTER, false},
    {"PMIX_DEBUG_STOP_ON_EXEC", "pmix.dbg.exec", PMIX_UNDEF, false},
    {"PMIX_LOCAL_RANK", "pmix.lrank", PMIX_UINT16, false},
    {"PMIX_PROC_PID", "pmix.ppid", PMIX_PID, false},
    {"PMIX_TOPOLOGY2", "pmix.topo2", PMIX_TOPO, false},
    {"PMIX_EVENT_BASE", "pmix.evbase", PMIX_POINTER, true},
    {"PMIX_DSTPATH", "pmix.dstpath", PMIX_STRING, true},
    {"PMIX_HWLOC_SHMEM_SIZE", "pmix.hwlocsize", PMIX_SIZE, true},
    {"PMIX_BFROPS_MODULE", "pmix.bfrops.mod", PMIX_STRING, false},
};

START_TEST(known_names_have_their_standard_keys_types_and_flags)
{
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        const attributes_entry_t *e = attributes_by_name(known[i].name);

        ck_assert_msg(NULL != e, "%s is registered", known[i].name);
        ck_assert_str_eq(e->name, known[i].name);
        ck_assert_str_eq(e->key, known[i].key);
        ck_assert_uint_eq(e->type, known[i].type);
        ck_assert_int_eq(e->deprecated, known[i].deprecated);
        ck_assert_ptr_eq(attributes_by_key(known[i].key), e);
    }
}
END_TEST

START_TEST(the_public_macros_and_the_registry_agree)
{
    ck_assert_str_eq(PMIx_Get_attribute_string("PMIX_JOB_SIZE"), PMIX_JOB_SIZE);
    ck_assert_str_eq(PMIx_Get_attribute_string("PMIX_TIMEOUT"), PMIX_TIMEOUT);
    ck_assert_str_eq(PMIx_Get_attribute_name(PMIX_HOSTNAME), "PMIX_HOSTNAME");
    ck_assert_str_eq(PMIx_Get_attribute_name(PMIX_TOPOLOGY), "PMIX_TOPOLOGY");
}
END_TEST

START_TEST(lookups_ignore_case)
{
    ck_assert_str_eq(PMIx_Get_attribute_string("pmix_job_size"), "pmix.job.size");
    ck_assert_str_eq(PMIx_Get_attribute_name("PMIX.JOB.SIZE"), "PMIX_JOB_SIZE");
    ck_assert_ptr_eq(attributes_by_key("Pmix.Rank"), attributes_by_name("pmix_rank"));
}
END_TEST

START_TEST(unknown_strings_come_back_unchanged)
{
    static const char name[] = "PMIX_NO_SUCH_ATTRIBUTE";
    static const char key[] = "pmix.no.such";

    ck_assert_ptr_eq(PMIx_Get_attribute_string(name), name);
    ck_assert_ptr_eq(PMIx_Get_attribute_name(key), key);
    ck_assert_ptr_null(PMIx_Get_attribute_string(NULL));
    ck_assert_ptr_null(PMIx_Get_attribute_name(NULL));
    ck_assert_ptr_null(attributes_by_name(name));
    ck_assert_ptr_null(attributes_by_key(key));
    ck_assert_ptr_null(attributes_by_key(""));
    /* A prefix of a real key is not that key. */
    ck_assert_ptr_null(attributes_by_key("pmix.job"));
    ck_assert_ptr_null(attributes_by_name(NULL));
    ck_assert_ptr_null(attributes_by_key(NULL));
}
END_TEST

START_TEST(a_shared_key_maps_back_to_the_name_that_owns_it)
{
    ck_assert_str_eq(PMIx_Get_attribute_name("pmix.pdata"), "PMIX_PROC_INFO_ARRAY");
    ck_assert_str_eq(PMIx_Get_attribute_name("pmix.alloc.net"), "PMIX_ALLOC_FABRIC");
    ck_assert_str_eq(PMIx_Get_attribute_name("pmix.fab.coord"), "PMIX_FABRIC_COORDINATES");
    ck_assert_str_eq(PMIx_Get_attribute_name("pmix.jctrl.ckptsig"),
                     "PMIX_JOB_CTRL_CHECKPOINT_SIGNAL");
    ck_assert_str_eq(PMIx_Get_attribute_name("pmix.qry.quals"), "PMIX_QUERY_QUALIFIERS");
    /* The other spellings still name the key. */
    ck_assert_str_eq(PMIx_Get_attribute_string("PMIX_PROC_DATA"), "pmix.pdata");
    ck_assert_str_eq(PMIx_Get_attribute_string("PMIX_JOB_CTRL_CHECKPOINT_TIMEOUT"),
                     "pmix.jctrl.ckptsig");
}
END_TEST

START_TEST(every_entry_round_trips_name_to_key_to_name)
{
    size_t aliases = 0;

    ck_assert_uint_eq(attributes_count(), EXPECTED_ATTRIBUTES);
    for (size_t i = 0; i < attributes_count(); i++) {
        const attributes_entry_t *e = attributes_at(i);
        const attributes_entry_t *owner;

        ck_assert_ptr_nonnull(e);
        ck_assert_ptr_eq(drover_attribute_at(i), e);
        ck_assert_ptr_eq(attributes_by_name(e->name), e);
        ck_assert_str_eq(PMIx_Get_attribute_string(e->name), e->key);
        owner = attributes_by_key(e->key);
        ck_assert_ptr_nonnull(owner);
        ck_assert_str_eq(owner->key, e->key);
        if (owner != e) {
            aliases++;
        }
        ck_assert_str_eq(PMIx_Get_attribute_name(e->key), owner->name);
        ck_assert_msg(0 == strncmp(e->name, "PMIX_", 5), "%s is a PMIX_ name", e->name);
        ck_assert_msg(0 == strncmp(e->key, "pmix.", 5), "%s has a pmix. key", e->name);
        ck_assert_msg(strlen(e->key) <= PMIX_MAX_KEYLEN, "%s key fits", e->name);
        ck_assert_msg(NULL != e->description && '\0' != e->description[0],
                      "%s has a description", e->name);
    }
    ck_assert_uint_eq(aliases, EXPECTED_ALIASES);
    ck_assert_ptr_null(attributes_at(attributes_count()));
    ck_assert_ptr_null(drover_attribute_at(attributes_count()));
}
END_TEST

START_TEST(names_are_unique_and_in_search_order)
{
    for (size_t i = 1; i < attributes_count(); i++) {
        ck_assert_msg(strcasecmp(attributes_at(i - 1)->name, attributes_at(i)->name) < 0,
                      "%s sorts before %s", attributes_at(i - 1)->name, attributes_at(i)->name);
    }
}
END_TEST

START_TEST(type_check_accepts_the_declared_type_only)
{
    ck_assert_int_eq(attributes_check_type(PMIX_JOB_SIZE, PMIX_UINT32), PMIX_SUCCESS);
    ck_assert_int_eq(attributes_check_type(PMIX_JOB_SIZE, PMIX_STRING), PMIX_ERR_TYPE_MISMATCH);
    ck_assert_int_eq(attributes_check_type(PMIX_RANK, PMIX_PROC_RANK), PMIX_SUCCESS);
    ck_assert_int_eq(attributes_check_type(PMIX_RANK, PMIX_UINT32), PMIX_ERR_TYPE_MISMATCH);
    ck_assert_int_eq(attributes_check_type(PMIX_HOSTNAME, PMIX_STRING), PMIX_SUCCESS);
    ck_assert_int_eq(attributes_check_type("pmix.no.such", PMIX_STRING), PMIX_ERR_NOT_FOUND);
    ck_assert_int_eq(attributes_check_type(NULL, PMIX_STRING), PMIX_ERR_BAD_PARAM);
}
END_TEST

START_TEST(type_check_accepts_anything_for_a_varying_type)
{
    ck_assert_int_eq(attributes_check_type(PMIX_DEBUG_STOP_ON_EXEC, PMIX_BOOL), PMIX_SUCCESS);
    ck_assert_int_eq(attributes_check_type(PMIX_DEBUG_STOP_ON_EXEC, PMIX_PROC_RANK),
                     PMIX_SUCCESS);
    ck_assert_int_eq(attributes_check_type(PMIX_MAX_VALUE, PMIX_DOUBLE), PMIX_SUCCESS);
}
END_TEST

START_TEST(type_check_of_a_shared_key_accepts_each_spellings_type)
{
    /* pmix.qry.quals is a data array as PMIX_QUERY_QUALIFIERS and a bool
     * as PMIX_QUERY_SUPPORTED_QUALIFIERS. */
    ck_assert_int_eq(attributes_check_type("pmix.qry.quals", PMIX_DATA_ARRAY), PMIX_SUCCESS);
    ck_assert_int_eq(attributes_check_type("pmix.qry.quals", PMIX_BOOL), PMIX_SUCCESS);
    ck_assert_int_eq(attributes_check_type("pmix.qry.quals", PMIX_STRING),
                     PMIX_ERR_TYPE_MISMATCH);
    ck_assert_int_eq(attributes_check_type("pmix.fab.coord", PMIX_GEOMETRY), PMIX_SUCCESS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("attributes");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, known_names_have_their_standard_keys_types_and_flags);
    tcase_add_test(tc, the_public_macros_and_the_registry_agree);
    tcase_add_test(tc, lookups_ignore_case);
    tcase_add_test(tc, unknown_strings_come_back_unchanged);
    tcase_add_test(tc, a_shared_key_maps_back_to_the_name_that_owns_it);
    tcase_add_test(tc, every_entry_round_trips_name_to_key_to_name);
    tcase_add_test(tc, names_are_unique_and_in_search_order);
    tcase_add_test(tc, type_check_accepts_the_declared_type_only);
    tcase_add_test(tc, type_check_accepts_anything_for_a_varying_type);
    tcase_add_test(tc, type_check_of_a_shared_key_accepts_each_spellings_type);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
