/*
 * test_macros.c - the function-like macros and inline helpers of
 * pmix_macros.h, exercised on real data.
 *
 * Every structure goes through its create/construct/load/xfer/destruct/free
 * cycle with owned memory in it, so ASan reports a leak or a double free
 * whenever a macro forgets or repeats a release. The expected behaviour is
 * OpenPMIx 4.2's, except where pmix_macros.h documents that it does better.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "drover.h"
#include "pmix.h"

/* A heap copy of s, for members that the macros will free. */
static char *dup_str(const char *s)
{
    char *copy = strdup(s);

    ck_assert_ptr_nonnull(copy);
    return copy;
}

/* ---- Keys, namespaces and process ids ---------------------------------- */

START_TEST(keys_load_truncated_and_compare_by_content)
{
    pmix_info_t info;
    char long_key[PMIX_MAX_KEYLEN + 20];

    memset(long_key, 'k', sizeof(long_key) - 1);
    long_key[sizeof(long_key) - 1] = '\0';
    memset(&info, 0x5a, sizeof(info));
    PMIX_LOAD_KEY(info.key, long_key);
    ck_assert_uint_eq(strlen(info.key), PMIX_MAX_KEYLEN);
    ck_assert_uint_eq(pmix_keylen(info.key), PMIX_MAX_KEYLEN);

    PMIX_LOAD_KEY(info.key, "pmix.job.size");
    ck_assert_str_eq(info.key, "pmix.job.size");
    ck_assert_msg(0 == info.key[PMIX_MAX_KEYLEN], "the whole key is cleared behind the string");
    ck_assert(PMIX_CHECK_KEY(&info, PMIX_JOB_SIZE));
    ck_assert(!PMIX_CHECK_KEY(&info, "pmix.job.siz"));
    ck_assert(PMIX_CHECK_RESERVED_KEY(info.key));
    ck_assert(!PMIX_CHECK_RESERVED_KEY("user.key"));

    PMIX_LOAD_KEY(info.key, NULL);
    ck_assert_str_eq(info.key, "");
}
END_TEST

START_TEST(bounded_lengths_never_run_past_the_limit)
{
    char unterminated[PMIX_MAX_KEYLEN + 8];
    char dest[8];

    memset(unterminated, 'x', sizeof(unterminated));
    ck_assert_uint_eq(pmix_keylen(unterminated), PMIX_MAX_KEYLEN + 1);
    ck_assert_uint_eq(pmix_nslen(unterminated), PMIX_MAX_NSLEN + 1);
    ck_assert_uint_eq(pmix_nslen("job"), 3);
    ck_assert_uint_eq(pmix_keylen(NULL), 0);

    pmix_strncpy(dest, "abcdefghij", 5);
    ck_assert_str_eq(dest, "abcde");
    pmix_strncpy(dest, "ab", 5);
    ck_assert_str_eq(dest, "ab");
}
END_TEST

START_TEST(process_ids_match_with_wildcards_and_empty_namespaces)
{
    pmix_proc_t a, b, c;

    PMIX_LOAD_PROCID(&a, "job1", 3);
    ck_assert_str_eq(a.nspace, "job1");
    ck_assert_uint_eq(a.rank, 3);
    PMIX_XFER_PROCID(&b, &a);
    ck_assert(PMIX_CHECK_PROCID(&a, &b));
    b.rank = 4;
    ck_assert(!PMIX_CHECK_PROCID(&a, &b));
    b.rank = PMIX_RANK_WILDCARD;
    ck_assert(PMIX_CHECK_PROCID(&a, &b));
    PMIX_PROCID_XFER(&c, &a);
    PMIX_LOAD_NSPACE(c.nspace, "job2");
    ck_assert(!PMIX_CHECK_PROCID(&a, &c));

    ck_assert(PMIX_CHECK_NSPACE("job1", ""));
    ck_assert(PMIX_CHECK_NSPACE(NULL, "job1"));
    ck_assert(!PMIX_CHECK_NSPACE("job1", "job2"));
    ck_assert(PMIX_NSPACE_INVALID(""));
    ck_assert(!PMIX_NSPACE_INVALID(a.nspace));
    ck_assert(PMIX_CHECK_RANK(1, PMIX_RANK_WILDCARD));
    ck_assert(!PMIX_CHECK_RANK(1, 2));

    ck_assert(!PMIX_PROCID_INVALID(&a));
    a.rank = PMIX_RANK_INVALID;
    ck_assert(PMIX_PROCID_INVALID(&a));
    PMIX_LOAD_PROCID(&a, NULL, 0);
    ck_assert(PMIX_PROCID_INVALID(&a));

    /* Loading an id from its own namespace keeps the namespace. */
    PMIX_PROC_LOAD(&c, c.nspace, 9);
    ck_assert_str_eq(c.nspace, "job2");
    ck_assert_uint_eq(c.rank, 9);

    ck_assert(PMIX_RANK_IS_VALID(0));
    ck_assert(!PMIX_RANK_IS_VALID(PMIX_RANK_WILDCARD));
    ck_assert(PMIX_SYSTEM_EVENT(PMIX_EVENT_NODE_DOWN));
    ck_assert(!PMIX_SYSTEM_EVENT(PMIX_EVENT_ACTION_COMPLETE));
}
END_TEST

START_TEST(multicluster_names_join_and_split_at_the_colon)
{
    pmix_nspace_t name, cluster, job;
    char too_long[PMIX_MAX_NSLEN];

    PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(name, "east", "job7");
    ck_assert_str_eq(name, "east:job7");
    memset(cluster, 'z', sizeof(cluster));
    memset(job, 'z', sizeof(job));
    PMIX_MULTICLUSTER_NSPACE_PARSE(name, cluster, job);
    ck_assert_str_eq(cluster, "east");
    ck_assert_str_eq(job, "job7");

    PMIX_MULTICLUSTER_NSPACE_PARSE("lonely", cluster, job);
    ck_assert_str_eq(cluster, "lonely");
    ck_assert_str_eq(job, "");

    memset(too_long, 'c', sizeof(too_long) - 1);
    too_long[sizeof(too_long) - 1] = '\0';
    PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(name, too_long, "j");
    ck_assert_str_eq(name, "");
}
END_TEST

/* ---- Argv and environment helpers ---------------------------------------- */

START_TEST(argv_split_drops_or_keeps_empty_fields)
{
    char **v = pmix_argv_split("a::b:", ':');
    char **e = pmix_argv_split_with_empty(":a::b:", ':');
    char *joined;

    ck_assert_int_eq(pmix_argv_count(v), 2);
    ck_assert_str_eq(v[0], "a");
    ck_assert_str_eq(v[1], "b");
    ck_assert_ptr_null(v[2]);
    ck_assert_int_eq(pmix_argv_count(e), 4);
    ck_assert_str_eq(e[0], "");
    ck_assert_str_eq(e[2], "");
    ck_assert_str_eq(e[3], "b");
    PMIX_ARGV_JOIN(joined, e, ',');
    ck_assert_str_eq(joined, ",a,,b");
    free(joined);
    PMIX_ARGV_FREE(v);
    PMIX_ARGV_FREE(e);

    ck_assert_ptr_null(pmix_argv_split("", ':'));
    ck_assert_ptr_null(pmix_argv_split(":::", ':'));
    PMIX_ARGV_SPLIT(v, "one", ',');
    ck_assert_int_eq(pmix_argv_count(v), 1);
    pmix_argv_free(v);
}
END_TEST

START_TEST(argv_append_prepend_unique_copy_and_join)
{
    char **v = NULL, **copy;
    char *joined;
    pmix_status_t rc;
    int n;

    PMIX_ARGV_APPEND(rc, v, "one");
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    PMIX_ARGV_APPEND(rc, v, "two");
    PMIX_ARGV_PREPEND(rc, v, "zero");
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    PMIX_ARGV_APPEND_UNIQUE(rc, &v, "two");
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    PMIX_ARGV_APPEND_UNIQUE(rc, &v, "three");
    PMIX_ARGV_COUNT(n, v);
    ck_assert_int_eq(n, 4);

    PMIX_ARGV_COPY(copy, v);
    ck_assert_ptr_ne(copy, v);
    ck_assert_ptr_ne(copy[0], v[0]);
    joined = pmix_argv_join(copy, ' ');
    ck_assert_str_eq(joined, "zero one two three");
    free(joined);

    ck_assert_int_eq(pmix_argv_append_nosize(&v, NULL), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(pmix_argv_count(v), 4);
    joined = pmix_argv_join(NULL, ',');
    ck_assert_str_eq(joined, "");
    free(joined);
    ck_assert_ptr_null(pmix_argv_copy(NULL));
    pmix_argv_free(NULL);
    pmix_argv_free(copy);
    pmix_argv_free(v);
}
END_TEST

START_TEST(setenv_adds_replaces_or_refuses_entries)
{
    char **env = NULL;
    pmix_status_t rc;

    ck_assert_int_eq(pmix_setenv("A", "1", false, &env), PMIX_SUCCESS);
    ck_assert_int_eq(pmix_setenv("AB", "2", false, &env), PMIX_SUCCESS);
    ck_assert_int_eq(pmix_setenv("A", "3", false, &env), PMIX_ERR_EXISTS);
    ck_assert_str_eq(env[0], "A=1");
    PMIX_SETENV(rc, "A", "4", &env);
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    ck_assert_int_eq(pmix_setenv("C", NULL, true, &env), PMIX_SUCCESS);
    ck_assert_int_eq(pmix_argv_count(env), 3);
    ck_assert_str_eq(env[0], "A=4");
    ck_assert_str_eq(env[1], "AB=2");
    ck_assert_str_eq(env[2], "C=");
    ck_assert_int_eq(pmix_setenv("A", "5", true, NULL), PMIX_ERR_BAD_PARAM);
    pmix_argv_free(env);

    ck_assert_int_eq(pmix_setenv("DROVER_TEST_MACROS", "on", true, &environ), PMIX_SUCCESS);
    ck_assert_str_eq(getenv("DROVER_TEST_MACROS"), "on");
    ck_assert_int_eq(pmix_setenv("DROVER_TEST_MACROS", "off", false, &environ), PMIX_SUCCESS);
    ck_assert_str_eq(getenv("DROVER_TEST_MACROS"), "on");
    ck_assert_int_eq(pmix_setenv("DROVER_TEST_MACROS", NULL, true, &environ), PMIX_SUCCESS);
    ck_assert_ptr_null(getenv("DROVER_TEST_MACROS"));
}
END_TEST

/* ---- Booleans ------------------------------------------------------------- */

static pmix_boolean_t reading_of(const char *s)
{
    pmix_value_t v = PMIX_VALUE_STATIC_INIT;

    v.type = PMIX_STRING;
    v.data.string = (char *) s;
    return pmix_check_true(&v);
}

START_TEST(strings_numbers_and_flags_read_as_booleans)
{
    pmix_value_t v = PMIX_VALUE_STATIC_INIT;

    ck_assert_int_eq(pmix_check_true(&v), PMIX_BOOL_TRUE);
    v.type = PMIX_BOOL;
    ck_assert(!PMIX_CHECK_TRUE(&v));
    ck_assert(PMIX_CHECK_BOOL(&v));
    v.type = PMIX_INT;
    ck_assert(!PMIX_CHECK_BOOL(&v));

    ck_assert_int_eq(reading_of(NULL), PMIX_BOOL_TRUE);
    ck_assert_int_eq(reading_of("  "), PMIX_BOOL_TRUE);
    ck_assert_int_eq(reading_of(" 007"), PMIX_BOOL_TRUE);
    ck_assert_int_eq(reading_of("00"), PMIX_BOOL_FALSE);
    ck_assert_int_eq(reading_of("0x1"), PMIX_BOOL_FALSE);
    ck_assert_int_eq(reading_of("TrUe"), PMIX_BOOL_TRUE);
    ck_assert_int_eq(reading_of("yesterday"), PMIX_BOOL_TRUE);
    ck_assert_int_eq(reading_of("No"), PMIX_BOOL_FALSE);
    ck_assert_int_eq(reading_of("false"), PMIX_BOOL_FALSE);
    ck_assert_int_eq(reading_of("t"), PMIX_NON_BOOL);
    ck_assert_int_eq(reading_of("-1"), PMIX_NON_BOOL);
}
END_TEST

/* ---- Infos and values --------------------------------------------------- */

START_TEST(info_arrays_are_flagged_loaded_copied_and_freed)
{
    pmix_info_t *info, copy;
    int32_t size = 42;

    PMIX_INFO_CREATE(info, 0);
    ck_assert_ptr_null(info);
    PMIX_INFO_CREATE(info, 3);
    ck_assert_ptr_nonnull(info);
    ck_assert(!PMIX_INFO_IS_END(&info[0]));
    ck_assert(PMIX_INFO_IS_END(&info[2]));

    PMIX_INFO_LOAD(&info[0], PMIX_COLLECT_DATA, NULL, PMIX_BOOL);
    ck_assert_int_eq(info[0].value.type, PMIX_BOOL);
    ck_assert(info[0].value.data.flag);
    ck_assert(PMIX_INFO_TRUE(&info[0]));
    PMIX_INFO_LOAD(&info[1], PMIX_HOSTNAME, "node7", PMIX_STRING);
    ck_assert_str_eq(info[1].value.data.string, "node7");
    PMIX_INFO_LOAD(&info[2], PMIX_JOB_SIZE, &size, PMIX_INT32);
    ck_assert_int_eq(info[2].value.data.int32, 42);

    PMIX_INFO_REQUIRED(&info[1]);
    ck_assert(PMIX_INFO_IS_REQUIRED(&info[1]));
    ck_assert(!PMIX_INFO_IS_OPTIONAL(&info[1]));
    PMIX_INFO_OPTIONAL(&info[1]);
    ck_assert(PMIX_INFO_IS_OPTIONAL(&info[1]));
    PMIX_INFO_PROCESSED(&info[1]);
    ck_assert(PMIX_INFO_WAS_PROCESSED(&info[1]));
    PMIX_INFO_SET_QUALIFIER(&info[1]);
    ck_assert(PMIX_INFO_IS_QUALIFIER(&info[1]));
    PMIX_INFO_SET_END(&info[1]);
    ck_assert(PMIX_INFO_IS_END(&info[1]));

    PMIX_INFO_CONSTRUCT(&copy);
    PMIX_INFO_XFER(&copy, &info[1]);
    ck_assert_str_eq(copy.key, PMIX_HOSTNAME);
    ck_assert_ptr_ne(copy.value.data.string, info[1].value.data.string);
    ck_assert_str_eq(copy.value.data.string, "node7");
    PMIX_INFO_DESTRUCT(&copy);
    ck_assert_int_eq(copy.value.type, PMIX_UNDEF);

    PMIX_INFO_FREE(info, 3);
    ck_assert_ptr_null(info);
    PMIX_INFO_FREE(info, 3);
}
END_TEST

START_TEST(a_persistent_info_keeps_its_value_on_destruct)
{
    pmix_info_t info = PMIX_INFO_STATIC_INIT;
    char *borrowed = dup_str("kept");

    PMIX_LOAD_KEY(info.key, "user.key");
    info.value.type = PMIX_STRING;
    info.value.data.string = borrowed;
    PMIX_INFO_SET_PERSISTENT(&info);
    ck_assert(PMIX_INFO_IS_PERSISTENT(&info));
    PMIX_INFO_DESTRUCT(&info);
    ck_assert_ptr_eq(info.value.data.string, borrowed);
    ck_assert_str_eq(borrowed, "kept");
    free(borrowed);
}
END_TEST

START_TEST(values_load_unload_transfer_and_convert_numbers)
{
    pmix_value_t *v, *copy = NULL, direct;
    pmix_status_t rc;
    uint16_t u16 = 7;
    double d = 2.5;
    char *out = NULL;
    size_t sz = 0;
    long n = -1;

    PMIX_VALUE_CREATE(v, 2);
    ck_assert_int_eq(v[0].type, PMIX_UNDEF);
    ck_assert_int_eq(PMIX_VALUE_LOAD(&v[0], "text", PMIX_STRING), PMIX_SUCCESS);
    PMIX_VALUE_LOAD(&v[1], &u16, PMIX_UINT16);

    PMIX_VALUE_UNLOAD(rc, &v[0], (void **) &out, &sz);
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    ck_assert_str_eq(out, "text");
    free(out);

    PMIX_VALUE_XFER(rc, copy, &v[0]);
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    ck_assert_ptr_nonnull(copy);
    ck_assert_str_eq(copy->data.string, "text");
    PMIX_VALUE_RELEASE(copy);
    ck_assert_ptr_null(copy);

    PMIX_VALUE_CONSTRUCT(&direct);
    PMIX_VALUE_XFER_DIRECT(rc, &direct, &v[1]);
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    PMIX_VALUE_GET_NUMBER(rc, &direct, n, long);
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    ck_assert_int_eq(n, 7);
    PMIX_VALUE_DESTRUCT(&direct);
    PMIX_VALUE_LOAD(&direct, &d, PMIX_DOUBLE);
    PMIX_VALUE_GET_NUMBER(rc, &direct, n, long);
    ck_assert_int_eq(n, 2);
    PMIX_VALUE_GET_NUMBER(rc, &v[0], n, long);
    ck_assert_int_eq(rc, PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(n, 2);
    PMIX_VALUE_DESTRUCT(&direct);

    PMIX_VALUE_FREE(v, 2);
    ck_assert_ptr_null(v);
}
END_TEST

START_TEST(info_lists_collect_and_convert_entries)
{
    void *list;
    pmix_info_t extra;
    pmix_data_array_t darray = PMIX_DATA_ARRAY_STATIC_INIT;
    pmix_info_t *items;
    pmix_status_t rc;
    uint32_t procs = 8;

    PMIX_INFO_LIST_START(list);
    ck_assert_ptr_nonnull(list);
    PMIX_INFO_LIST_ADD(rc, list, PMIX_JOB_SIZE, &procs, PMIX_UINT32);
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    PMIX_INFO_CONSTRUCT(&extra);
    PMIX_INFO_LOAD(&extra, PMIX_HOSTNAME, "n1", PMIX_STRING);
    PMIX_INFO_LIST_XFER(rc, list, &extra);
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    PMIX_INFO_LIST_CONVERT(rc, list, &darray);
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    ck_assert_int_eq(darray.type, PMIX_INFO);
    ck_assert_uint_eq(darray.size, 2);
    items = (pmix_info_t *) darray.array;
    ck_assert(PMIX_CHECK_KEY(&items[0], PMIX_JOB_SIZE));
    ck_assert_str_eq(items[1].value.data.string, "n1");
    PMIX_DATA_ARRAY_DESTRUCT(&darray);
    PMIX_INFO_LIST_RELEASE(list);
    PMIX_INFO_DESTRUCT(&extra);
}
END_TEST

/* ---- Published data, applications and queries -------------------------- */

START_TEST(pdata_load_transfer_and_free)
{
    pmix_pdata_t *pd, *copy;
    pmix_proc_t owner;
    int answer = 42;

    PMIX_LOAD_PROCID(&owner, "pub", 2);
    PMIX_PDATA_CREATE(pd, 2);
    PMIX_PDATA_LOAD(&pd[0], &owner, "user.answer", &answer, PMIX_INT);
    ck_assert_str_eq(pd[0].proc.nspace, "pub");
    ck_assert_uint_eq(pd[0].proc.rank, 2);
    ck_assert_str_eq(pd[0].key, "user.answer");
    ck_assert_int_eq(pd[0].value.data.integer, 42);
    PMIX_PDATA_LOAD(&pd[1], &owner, "user.name", "deep", PMIX_STRING);

    PMIX_PDATA_CREATE(copy, 1);
    PMIX_PDATA_XFER(&copy[0], &pd[1]);
    ck_assert_ptr_ne(copy[0].value.data.string, pd[1].value.data.string);
    ck_assert_str_eq(copy[0].value.data.string, "deep");
    PMIX_PDATA_RELEASE(copy);
    ck_assert_ptr_null(copy);

    pmix_pdata_free(pd, 2);
    ck_assert_int_eq(pd[1].value.type, PMIX_UNDEF);
    PMIX_PDATA_LOAD(&pd[1], &owner, "user.again", "x", PMIX_STRING);
    PMIX_PDATA_FREE(pd, 2);
    ck_assert_ptr_null(pd);
    PMIX_PDATA_LOAD((pmix_pdata_t *) NULL, &owner, "k", "v", PMIX_STRING);
}
END_TEST

START_TEST(apps_release_their_strings_argv_env_and_infos)
{
    pmix_app_t *apps, *one;
    pmix_status_t rc;

    PMIX_APP_CREATE(apps, 2);
    apps[0].cmd = dup_str("/bin/true");
    PMIX_ARGV_APPEND(rc, apps[0].argv, "true");
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    PMIX_SETENV(rc, "X", "1", &apps[0].env);
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    apps[0].cwd = dup_str("/tmp");
    PMIX_APP_INFO_CREATE(&apps[0], 2);
    ck_assert_uint_eq(apps[0].ninfo, 2);
    ck_assert(PMIX_INFO_IS_END(&apps[0].info[1]));
    PMIX_INFO_LOAD(&apps[0].info[0], PMIX_WDIR, "/tmp", PMIX_STRING);
    apps[1].cmd = dup_str("/bin/false");

    PMIX_APP_DESTRUCT(&apps[1]);
    ck_assert_ptr_null(apps[1].cmd);
    PMIX_APP_FREE(apps, 2);
    ck_assert_ptr_null(apps);

    PMIX_APP_CREATE(one, 1);
    PMIX_APP_CONSTRUCT(one);
    one->cmd = dup_str("hostname");
    pmix_app_free(one, 1);
    ck_assert_ptr_null(one->cmd);
    one->cwd = dup_str("/");
    PMIX_APP_RELEASE(one);
    ck_assert_ptr_null(one);
}
END_TEST

START_TEST(queries_release_their_keys_and_qualifiers)
{
    pmix_query_t *q;
    pmix_status_t rc;

    PMIX_QUERY_CREATE(q, 2);
    PMIX_ARGV_APPEND(rc, q[0].keys, PMIX_QUERY_NAMESPACES);
    PMIX_ARGV_APPEND(rc, q[0].keys, PMIX_QUERY_NUM_PSETS);
    ck_assert_int_eq(rc, PMIX_SUCCESS);
    PMIX_QUERY_QUALIFIERS_CREATE(&q[0], 1);
    ck_assert_uint_eq(q[0].nqual, 1);
    PMIX_INFO_LOAD(&q[0].qualifiers[0], PMIX_NSPACE, "job", PMIX_STRING);
    PMIX_QUERY_DESTRUCT(&q[0]);
    ck_assert_ptr_null(q[0].keys);
    ck_assert_uint_eq(q[0].nqual, 0);
    PMIX_ARGV_APPEND(rc, q[1].keys, PMIX_QUERY_NAMESPACES);
    PMIX_QUERY_FREE(q, 2);
    ck_assert_ptr_null(q);

    PMIX_QUERY_CREATE(q, 1);
    PMIX_QUERY_CONSTRUCT(q);
    PMIX_QUERY_QUALIFIERS_CREATE(q, 2);
    PMIX_QUERY_RELEASE(q);
    ck_assert_ptr_null(q);
}
END_TEST

/* ---- Data arrays -------------------------------------------------------- */

START_TEST(data_arrays_allocate_elements_of_the_right_type)
{
    pmix_data_array_t *da, local;
    pmix_device_distance_t *dist;
    char **strings;

    PMIX_DATA_ARRAY_CREATE(da, 3, PMIX_INFO);
    ck_assert_int_eq(da->type, PMIX_INFO);
    ck_assert_uint_eq(da->size, 3);
    ck_assert(PMIX_INFO_IS_END(&((pmix_info_t *) da->array)[2]));
    PMIX_INFO_LOAD(&((pmix_info_t *) da->array)[0], PMIX_HOSTNAME, "h", PMIX_STRING);
    PMIX_DATA_ARRAY_FREE(da);
    ck_assert_ptr_null(da);

    PMIX_DATA_ARRAY_CONSTRUCT(&local, 2, PMIX_STRING);
    strings = (char **) local.array;
    ck_assert_ptr_null(strings[1]);
    strings[0] = dup_str("first");
    strings[1] = dup_str("second");
    PMIX_DATA_ARRAY_DESTRUCT(&local);

    PMIX_DATA_ARRAY_CONSTRUCT(&local, 2, PMIX_DEVICE_DIST);
    dist = (pmix_device_distance_t *) local.array;
    ck_assert_uint_eq(dist[1].mindist, UINT16_MAX);
    ck_assert_uint_eq(dist[1].maxdist, UINT16_MAX);
    PMIX_DATA_ARRAY_DESTRUCT(&local);

    PMIX_DATA_ARRAY_CONSTRUCT(&local, 4, PMIX_UNDEF);
    ck_assert_ptr_null(local.array);
    ck_assert_uint_eq(local.size, 0);
    PMIX_DATA_ARRAY_CONSTRUCT(&local, 0, PMIX_INT);
    ck_assert_ptr_null(local.array);
    ck_assert_int_eq(local.type, PMIX_INT);
    PMIX_DATA_ARRAY_INIT(&local, PMIX_PROC);
    ck_assert_int_eq(local.type, PMIX_PROC);
    ck_assert_uint_eq(local.size, 0);

    PMIX_DATA_ARRAY_CREATE(da, 5, PMIX_PROC);
    ((pmix_proc_t *) da->array)[4].rank = 4;
    PMIX_DATA_ARRAY_FREE(da);
}
END_TEST

START_TEST(element_sizes_agree_with_the_datatype_registry)
{
    for (pmix_data_type_t t = PMIX_UNDEF + 1; t < PMIX_STOR_ACCESS_TYPE + 1; t++) {
        const drover_datatype_t *rec = drover_datatype_lookup(t);
        size_t size = drover_macros_element_size(t);

        if (NULL == rec) {
            ck_assert_msg(0 == size, "type %u is unknown to the registry", (unsigned) t);
        } else if (PMIX_KVAL != t) {
            ck_assert_msg(size == rec->size, "%s: header says %zu, registry %zu", rec->name,
                          size, rec->size);
        }
    }
    ck_assert_uint_eq(drover_macros_element_size(PMIX_POINTER), sizeof(void *));
    ck_assert_uint_eq(drover_macros_element_size(DROVER_DATATYPE_USER_MIN), 0);
}
END_TEST

/* ---- Byte objects, envars, coordinates and geometry ------------------- */

START_TEST(byte_objects_take_over_loaded_memory)
{
    pmix_byte_object_t *bos, one = PMIX_BYTE_OBJECT_STATIC_INIT;
    char *bytes = dup_str("blob");
    size_t size = 5;

    PMIX_BYTE_OBJECT_LOAD(&one, bytes, size);
    ck_assert_ptr_null(bytes);
    ck_assert_uint_eq(size, 0);
    ck_assert_str_eq(one.bytes, "blob");
    ck_assert_uint_eq(one.size, 5);
    PMIX_BYTE_OBJECT_DESTRUCT(&one);
    ck_assert_ptr_null(one.bytes);
    ck_assert_uint_eq(one.size, 0);

    PMIX_BYTE_OBJECT_CREATE(bos, 2);
    PMIX_BYTE_OBJECT_CONSTRUCT(&bos[0]);
    bos[1].bytes = dup_str("x");
    bos[1].size = 2;
    PMIX_BYTE_OBJECT_FREE(bos, 2);
    ck_assert_ptr_null(bos);
}
END_TEST

START_TEST(envars_load_copies_and_free_them)
{
    pmix_envar_t *ev, one = PMIX_ENVAR_STATIC_INIT;
    char name[] = "PATH";

    PMIX_ENVAR_LOAD(&one, name, "/bin", ':');
    name[0] = 'X';
    ck_assert_str_eq(one.envar, "PATH");
    ck_assert_str_eq(one.value, "/bin");
    ck_assert_int_eq(one.separator, ':');
    PMIX_ENVAR_DESTRUCT(&one);
    ck_assert_ptr_null(one.envar);

    PMIX_ENVAR_CREATE(ev, 2);
    PMIX_ENVAR_CONSTRUCT(&ev[0]);
    PMIX_ENVAR_LOAD(&ev[1], "LD_PRELOAD", NULL, ' ');
    ck_assert_ptr_null(ev[1].value);
    PMIX_ENVAR_FREE(ev, 2);
    ck_assert_ptr_null(ev);
}
END_TEST

START_TEST(coordinates_and_geometries_own_their_arrays)
{
    pmix_coord_t *c, *none, one = PMIX_COORD_STATIC_INIT;
    pmix_geometry_t *g;

    PMIX_COORD_CREATE(c, 2, 3);
    ck_assert_ptr_nonnull(c);
    for (int i = 0; i < 2; i++) {
        ck_assert_uint_eq(c[i].dims, 3);
        ck_assert_int_eq(c[i].view, PMIX_COORD_VIEW_UNDEF);
        ck_assert_uint_eq(c[i].coord[2], 0);
    }
    PMIX_COORD_CREATE(none, 0, 3);
    ck_assert_ptr_null(none);
    ck_assert_ptr_null(one.coord);
    PMIX_COORD_CONSTRUCT(&one);
    PMIX_COORD_DESTRUCT(&c[1]);
    ck_assert_ptr_null(c[1].coord);
    ck_assert_uint_eq(c[1].dims, 0);

    PMIX_GEOMETRY_CREATE(g, 1);
    PMIX_GEOMETRY_CONSTRUCT(g);
    g->uuid = dup_str("uuid");
    g->osname = dup_str("eth0");
    g->coordinates = c;
    g->ncoords = 2;
    PMIX_GEOMETRY_DESTRUCT(g);
    ck_assert_ptr_null(g->coordinates);
    ck_assert_uint_eq(g->ncoords, 0);
    PMIX_COORD_CREATE(g->coordinates, 1, 1);
    g->ncoords = 1;
    PMIX_GEOMETRY_FREE(g, 1);
    ck_assert_ptr_null(g);

    PMIX_COORD_CREATE(c, 1, 0);
    ck_assert_ptr_null(c[0].coord);
    PMIX_COORD_FREE(c, 1);
    ck_assert_ptr_null(c);
}
END_TEST

/* ---- Registered attributes, stats and the remaining structures -------- */

START_TEST(regattrs_load_copy_and_free_descriptions)
{
    pmix_regattr_t *ra, copy;
    void *as_darray_storage;

    PMIX_REGATTR_CREATE(ra, 2);
    PMIX_REGATTR_LOAD(&ra[0], "PMIX_JOB_SIZE", PMIX_JOB_SIZE, PMIX_UINT32, "number of procs");
    PMIX_REGATTR_LOAD(&ra[0], NULL, NULL, PMIX_UINT32, "second line");
    ck_assert_str_eq(ra[0].name, "PMIX_JOB_SIZE");
    ck_assert_str_eq(ra[0].string, PMIX_JOB_SIZE);
    ck_assert_int_eq(ra[0].type, PMIX_UINT32);
    ck_assert_int_eq(pmix_argv_count(ra[0].description), 2);
    ck_assert_str_eq(ra[0].description[1], "second line");

    PMIX_REGATTR_XFER(&copy, &ra[0]);
    ck_assert_ptr_ne(copy.name, ra[0].name);
    ck_assert_ptr_ne(copy.description, ra[0].description);
    ck_assert_str_eq(copy.description[0], "number of procs");
    PMIX_REGATTR_DESTRUCT(&copy);
    ck_assert_ptr_null(copy.description);
    PMIX_REGATTR_CONSTRUCT((pmix_regattr_t *) NULL);
    PMIX_REGATTR_DESTRUCT((pmix_regattr_t *) NULL);

    /* A data array's void * storage is accepted, as OpenPMIx allows. */
    as_darray_storage = ra;
    PMIX_REGATTR_FREE(as_darray_storage, 2);
    ck_assert_ptr_null(as_darray_storage);
}
END_TEST

START_TEST(node_stats_release_their_disk_and_net_samples)
{
    pmix_node_stats_t *nd, *single;
    pmix_proc_stats_t *ps;
    pmix_disk_stats_t ds = PMIX_DISK_STATS_STATIC_INIT;
    pmix_net_stats_t ns = PMIX_NET_STATS_STATIC_INIT;

    PMIX_NODE_STATS_CREATE(nd, 1);
    nd->node = dup_str("node1");
    PMIX_DISK_STATS_CREATE(nd->diskstats, 2);
    nd->ndiskstats = 2;
    nd->diskstats[1].disk = dup_str("sda");
    PMIX_NET_STATS_CREATE(nd->netstats, 1);
    nd->nnetstats = 1;
    nd->netstats[0].net_interface = dup_str("eth0");
    PMIX_NODE_STATS_DESTRUCT(nd);
    ck_assert_ptr_null(nd->diskstats);
    ck_assert_uint_eq(nd->nnetstats, 0);
    PMIX_NODE_STATS_CONSTRUCT(nd);
    nd->node = dup_str("node2");
    PMIX_NODE_STATS_FREE(nd, 1);
    ck_assert_ptr_null(nd);

    PMIX_NODE_STATS_CREATE(single, 1);
    single->node = dup_str("node3");
    pmix_node_stats_free(single, 1);
    ck_assert_ptr_null(single->node);
    PMIX_NODE_STATS_RELEASE(single);
    ck_assert_ptr_null(single);

    PMIX_PROC_STATS_CREATE(ps, 2);
    PMIX_PROC_STATS_CONSTRUCT(&ps[0]);
    ps[0].node = dup_str("n");
    ps[1].cmd = dup_str("a.out");
    pmix_proc_stats_free(ps, 2);
    ck_assert_ptr_null(ps[1].cmd);
    ps[0].cmd = dup_str("b.out");
    PMIX_PROC_STATS_FREE(ps, 2);
    ck_assert_ptr_null(ps);
    PMIX_PROC_STATS_CREATE(ps, 1);
    PMIX_PROC_STATS_DESTRUCT(ps);
    PMIX_PROC_STATS_RELEASE(ps);

    ds.disk = dup_str("sdb");
    pmix_disk_stats_free(&ds, 1);
    ck_assert_ptr_null(ds.disk);
    PMIX_DISK_STATS_CONSTRUCT(&ds);
    PMIX_DISK_STATS_DESTRUCT(&ds);
    ns.net_interface = dup_str("ib0");
    pmix_net_stats_free(&ns, 1);
    ck_assert_ptr_null(ns.net_interface);
    PMIX_NET_STATS_CONSTRUCT(&ns);
    PMIX_NET_STATS_DESTRUCT(&ns);
}
END_TEST

START_TEST(endpoints_distances_proc_infos_and_procs_free_cleanly)
{
    pmix_endpoint_t *ep, one_ep = PMIX_ENDPOINT_STATIC_INIT;
    pmix_device_distance_t *dd, one_dd = PMIX_DEVICE_DIST_STATIC_INIT;
    pmix_proc_info_t *pi;
    pmix_proc_t *procs, *p;
    pmix_cpuset_t *cs, one_cs = PMIX_CPUSET_STATIC_INIT;
    pmix_topology_t *topo, one_topo = PMIX_TOPOLOGY_STATIC_INIT;
    pmix_fabric_t fabric = PMIX_FABRIC_STATIC_INIT;

    PMIX_ENDPOINT_CREATE(ep, 1);
    ep->uuid = dup_str("u");
    ep->osname = dup_str("mlx5_0");
    ep->endpt.bytes = dup_str("addr");
    ep->endpt.size = 5;
    PMIX_ENDPOINT_FREE(ep, 1);
    ck_assert_ptr_null(ep);
    PMIX_ENDPOINT_CONSTRUCT(&one_ep);
    PMIX_ENDPOINT_DESTRUCT(&one_ep);

    ck_assert_uint_eq(one_dd.mindist, 0);
    PMIX_DEVICE_DIST_CONSTRUCT(&one_dd);
    ck_assert_uint_eq(one_dd.mindist, UINT16_MAX);
    PMIX_DEVICE_DIST_DESTRUCT(&one_dd);
    PMIX_DEVICE_DIST_CREATE(dd, 2);
    ck_assert_uint_eq(dd[1].maxdist, UINT16_MAX);
    dd[0].uuid = dup_str("gpu0");
    PMIX_DEVICE_DIST_FREE(dd, 2);
    ck_assert_ptr_null(dd);

    PMIX_PROC_INFO_CREATE(pi, 2);
    PMIX_PROC_INFO_CONSTRUCT(&pi[0]);
    pi[0].hostname = dup_str("h");
    pi[1].executable_name = dup_str("a.out");
    PMIX_PROC_INFO_DESTRUCT(&pi[1]);
    ck_assert_ptr_null(pi[1].executable_name);
    PMIX_PROC_INFO_FREE(pi, 2);
    ck_assert_ptr_null(pi);
    PMIX_PROC_INFO_CREATE(pi, 1);
    pi->hostname = dup_str("h2");
    PMIX_PROC_INFO_RELEASE(pi);
    ck_assert_ptr_null(pi);

    PMIX_PROC_CREATE(procs, 3);
    ck_assert_uint_eq(procs[2].rank, 0);
    PMIX_PROC_LOAD(&procs[2], "ns", 2);
    PMIX_PROC_DESTRUCT(&procs[2]);
    PMIX_PROC_FREE(procs, 3);
    ck_assert_ptr_null(procs);
    PMIX_PROC_CREATE(p, 1);
    PMIX_PROC_CONSTRUCT(p);
    PMIX_PROC_RELEASE(p);
    ck_assert_ptr_null(p);

    PMIX_CPUSET_CREATE(cs, 2);
    ck_assert_ptr_null(cs[1].bitmap);
    free(cs);
    PMIX_CPUSET_CONSTRUCT(&one_cs);
    PMIX_TOPOLOGY_CREATE(topo, 1);
    ck_assert_ptr_null(topo->topology);
    free(topo);
    PMIX_TOPOLOGY_CONSTRUCT(&one_topo);
    PMIX_TOPOLOGY_DESTRUCT(&one_topo);
    ck_assert_ptr_null(one_topo.source);
    PMIX_FABRIC_CONSTRUCT(&fabric);
    ck_assert_ptr_null(fabric.module);
}
END_TEST

START_TEST(data_buffers_load_unload_and_release_bytes)
{
    pmix_data_buffer_t *buf, local = PMIX_DATA_BUFFER_STATIC_INIT;
    char *bytes = dup_str("payload"), *back = NULL;
    size_t size = 0;

    PMIX_DATA_BUFFER_CREATE(buf);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(buf->bytes_used, 0);
    PMIX_DATA_BUFFER_LOAD(buf, bytes, 8);
    ck_assert_uint_eq(buf->bytes_used, 8);
    PMIX_DATA_BUFFER_UNLOAD(buf, back, size);
    ck_assert_uint_eq(size, 8);
    ck_assert_str_eq(back, "payload");
    PMIX_DATA_BUFFER_LOAD(buf, back, size);
    PMIX_DATA_BUFFER_RELEASE(buf);
    ck_assert_ptr_null(buf);

    PMIX_DATA_BUFFER_CONSTRUCT(&local);
    PMIX_DATA_BUFFER_LOAD(&local, dup_str("abc"), 4);
    PMIX_DATA_BUFFER_DESTRUCT(&local);
    ck_assert_ptr_null(local.base_ptr);
    ck_assert_uint_eq(local.bytes_used, 0);
}
END_TEST

START_TEST(static_initialisers_give_empty_structures)
{
    pmix_proc_t proc = PMIX_PROC_STATIC_INIT;
    pmix_proc_info_t pinfo = PMIX_PROC_INFO_STATIC_INIT;
    pmix_pdata_t pdata = PMIX_LOOKUP_STATIC_INIT;
    pmix_app_t app = PMIX_APP_STATIC_INIT;
    pmix_query_t query = PMIX_QUERY_STATIC_INIT;
    pmix_regattr_t reg = PMIX_REGATTR_STATIC_INIT;
    pmix_proc_stats_t pstats = PMIX_PROC_STATS_STATIC_INIT;
    pmix_node_stats_t nstats = PMIX_NODE_STATS_STATIC_INIT;
    pmix_geometry_t geo = PMIX_GEOMETRY_STATIC_INIT;
    pmix_value_t value = PMIX_VALUE_STATIC_INIT;

    ck_assert_uint_eq(proc.rank, PMIX_RANK_UNDEF);
    ck_assert_str_eq(proc.nspace, "");
    ck_assert_uint_eq(pinfo.proc.rank, PMIX_RANK_UNDEF);
    ck_assert_int_eq(pinfo.state, PMIX_PROC_STATE_UNDEF);
    ck_assert_uint_eq(pdata.proc.rank, PMIX_RANK_UNDEF);
    ck_assert_int_eq(pdata.value.type, PMIX_UNDEF);
    ck_assert_ptr_null(app.argv);
    ck_assert_ptr_null(query.qualifiers);
    ck_assert_int_eq(reg.type, PMIX_UNDEF);
    ck_assert_uint_eq(pstats.proc.rank, PMIX_RANK_UNDEF);
    ck_assert_ptr_null(pstats.cmd);
    ck_assert_ptr_null(nstats.diskstats);
    ck_assert_ptr_null(geo.coordinates);
    ck_assert_ptr_null(value.data.ptr);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("macros");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_test(tc, keys_load_truncated_and_compare_by_content);
    tcase_add_test(tc, bounded_lengths_never_run_past_the_limit);
    tcase_add_test(tc, process_ids_match_with_wildcards_and_empty_namespaces);
    tcase_add_test(tc, multicluster_names_join_and_split_at_the_colon);
    tcase_add_test(tc, argv_split_drops_or_keeps_empty_fields);
    tcase_add_test(tc, argv_append_prepend_unique_copy_and_join);
    tcase_add_test(tc, setenv_adds_replaces_or_refuses_entries);
    tcase_add_test(tc, strings_numbers_and_flags_read_as_booleans);
    tcase_add_test(tc, info_arrays_are_flagged_loaded_copied_and_freed);
    tcase_add_test(tc, a_persistent_info_keeps_its_value_on_destruct);
    tcase_add_test(tc, values_load_unload_transfer_and_convert_numbers);
    tcase_add_test(tc, info_lists_collect_and_convert_entries);
    tcase_add_test(tc, pdata_load_transfer_and_free);
    tcase_add_test(tc, apps_release_their_strings_argv_env_and_infos);
    tcase_add_test(tc, queries_release_their_keys_and_qualifiers);
    tcase_add_test(tc, data_arrays_allocate_elements_of_the_right_type);
    tcase_add_test(tc, element_sizes_agree_with_the_datatype_registry);
    tcase_add_test(tc, byte_objects_take_over_loaded_memory);
    tcase_add_test(tc, envars_load_copies_and_free_them);
    tcase_add_test(tc, coordinates_and_geometries_own_their_arrays);
    tcase_add_test(tc, regattrs_load_copy_and_free_descriptions);
    tcase_add_test(tc, node_stats_release_their_disk_and_net_samples);
    tcase_add_test(tc, endpoints_distances_proc_infos_and_procs_free_cleanly);
    tcase_add_test(tc, data_buffers_load_unload_and_release_bytes);
    tcase_add_test(tc, static_initialisers_give_empty_structures);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
