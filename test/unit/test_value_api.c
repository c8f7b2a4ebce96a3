/*
 * test_value_api.c - PMIx_Value_load, _unload, _xfer, _compare and
 * _destruct, for every kind of storage a pmix_value_t has.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "pmix.h"

/* ---- Every inline kind, table-driven ----------------------------------- */

static const bool s_bool = true;
static const uint8_t s_byte = 0xA5;
static const char *const s_string = "a string";
static const size_t s_size = (size_t)1 << 40;
static const pid_t s_pid = 4321;
static const int s_int = -77;
static const int8_t s_int8 = -8;
static const int16_t s_int16 = -1600;
static const int32_t s_int32 = -320000;
static const int64_t s_int64 = INT64_MIN + 5;
static const unsigned int s_uint = 4000000000u;
static const uint8_t s_uint8 = 200;
static const uint16_t s_uint16 = 65000;
static const uint32_t s_uint32 = 4000000001u;
static const uint64_t s_uint64 = UINT64_MAX - 1;
static const float s_float = -1.5e-3f;
static const double s_double = 6.02214076e23;
static const struct timeval s_timeval = {.tv_sec = 1700000000, .tv_usec = 999999};
static const time_t s_time = 1700000123;
static const pmix_status_t s_status = PMIX_ERR_NOT_FOUND;
static const pmix_rank_t s_rank = PMIX_RANK_WILDCARD;
static const pmix_persistence_t s_persist = PMIX_PERSIST_SESSION;
static const pmix_scope_t s_scope = PMIX_REMOTE;
static const pmix_data_range_t s_range = PMIX_RANGE_SESSION;
static const pmix_proc_state_t s_pstate = PMIX_PROC_STATE_ABORTED;
static void *const s_pointer = (void *)&s_int;
static const pmix_alloc_directive_t s_adir = PMIX_ALLOC_EXTEND;
static const pmix_link_state_t s_lstate = PMIX_LINK_UP;
static const pmix_job_state_t s_jstate = PMIX_JOB_STATE_RUNNING;
static const pmix_locality_t s_locality = 0x1c;
static const pmix_device_type_t s_devtype = PMIX_DEVTYPE_NETWORK;
static const pmix_info_directives_t s_directives = PMIX_INFO_REQD;
static const pmix_data_type_t s_dtype = PMIX_DOUBLE;
static const pmix_iof_channel_t s_iof = PMIX_FWD_STDERR_CHANNEL;

typedef struct sample {
    pmix_data_type_t type;
    const void *elem;   /* for passed-by-value types, the address of the pointer */
} sample_t;

static const sample_t inline_samples[] = {
    {PMIX_BOOL, &s_bool},         {PMIX_BYTE, &s_byte},
    {PMIX_STRING, &s_string},     {PMIX_SIZE, &s_size},
    {PMIX_PID, &s_pid},           {PMIX_INT, &s_int},
    {PMIX_INT8, &s_int8},         {PMIX_INT16, &s_int16},
    {PMIX_INT32, &s_int32},       {PMIX_INT64, &s_int64},
    {PMIX_UINT, &s_uint},         {PMIX_UINT8, &s_uint8},
    {PMIX_UINT16, &s_uint16},     {PMIX_UINT32, &s_uint32},
    {PMIX_UINT64, &s_uint64},     {PMIX_FLOAT, &s_float},
    {PMIX_DOUBLE, &s_double},     {PMIX_TIMEVAL, &s_timeval},
    {PMIX_TIME, &s_time},         {PMIX_STATUS, &s_status},
    {PMIX_PROC_RANK, &s_rank},    {PMIX_PERSIST, &s_persist},
    {PMIX_SCOPE, &s_scope},       {PMIX_DATA_RANGE, &s_range},
    {PMIX_PROC_STATE, &s_pstate}, {PMIX_POINTER, &s_pointer},
    {PMIX_ALLOC_DIRECTIVE, &s_adir}, {PMIX_LINK_STATE, &s_lstate},
    {PMIX_JOB_STATE, &s_jstate},  {PMIX_LOCTYPE, &s_locality},
    {PMIX_DEVTYPE, &s_devtype},   {PMIX_INFO_DIRECTIVES, &s_directives},
    {PMIX_DATA_TYPE, &s_dtype},   {PMIX_IOF_CHANNEL, &s_iof},
};

#define N_INLINE (sizeof(inline_samples) / sizeof(inline_samples[0]))

/* What a single-element call is given for the sample. */
static const void *call_arg(const drover_datatype_t *t, const void *elem)
{
    if (t->flags & DROVER_DATATYPE_PASSED_BY_VALUE) {
        return *(void *const *)elem;
    }
    return elem;
}

START_TEST(every_inline_kind_loads_transfers_compares_and_destructs)
{
    const sample_t *s = &inline_samples[_i];
    const drover_datatype_t *t = bfrops_lookup(s->type);
    pmix_value_t v, w;

    ck_assert_msg(NULL != t, "type %u is registered", (unsigned)s->type);
    ck_assert_msg(t->flags & DROVER_DATATYPE_VALUE_INLINE, "%s is stored inline", t->name);
    ck_assert_int_eq(PMIx_Value_load(&v, call_arg(t, s->elem), s->type), PMIX_SUCCESS);
    ck_assert_int_eq(v.type, s->type);
    ck_assert_ptr_eq(bfrops_value_elem(&v), &v.data);
    ck_assert_msg(PMIX_EQUAL == bfrops_compare(&v.data, s->elem, 1, s->type),
                  "%s loads its element", t->name);

    ck_assert_int_eq(PMIx_Value_xfer(&w, &v), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Value_compare(&v, &w), PMIX_EQUAL);
    ck_assert_int_eq(PMIx_Value_compare(&w, &v), PMIX_EQUAL);

    PMIx_Value_destruct(&v);
    PMIx_Value_destruct(&w);
    ck_assert_int_eq(v.type, PMIX_UNDEF);
    ck_assert_int_eq(w.type, PMIX_UNDEF);
}
END_TEST

START_TEST(every_plain_inline_kind_unloads_into_caller_storage)
{
    const sample_t *s = &inline_samples[_i];
    const drover_datatype_t *t = bfrops_lookup(s->type);
    pmix_value_t v;
    union {
        pmix_value_t v;   /* room for any inline element */
        char bytes[64];
    } storage;
    void *data = &storage;
    size_t sz = 0;

    if (t->flags & DROVER_DATATYPE_PASSED_BY_VALUE) {
        return;   /* covered by the string and pointer tests below */
    }
    memset(&storage, 0, sizeof(storage));
    ck_assert_int_eq(PMIx_Value_load(&v, call_arg(t, s->elem), s->type), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_SUCCESS);
    ck_assert_ptr_eq(data, &storage);
    ck_assert_uint_eq(sz, t->size);
    ck_assert_msg(PMIX_EQUAL == bfrops_compare(&storage, s->elem, 1, s->type),
                  "%s unloads its element", t->name);
    /* Caller storage is required for these. */
    data = NULL;
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_ERR_BAD_PARAM);
    PMIx_Value_destruct(&v);
}
END_TEST

/* ---- Particular kinds -------------------------------------------------- */

START_TEST(bool_loaded_without_data_is_true)
{
    pmix_value_t v;
    bool no = false;

    ck_assert_int_eq(PMIx_Value_load(&v, NULL, PMIX_BOOL), PMIX_SUCCESS);
    ck_assert_int_eq(v.type, PMIX_BOOL);
    ck_assert(v.data.flag);
    ck_assert_int_eq(PMIx_Value_load(&v, &no, PMIX_BOOL), PMIX_SUCCESS);
    ck_assert(!v.data.flag);
    ck_assert_int_eq(PMIx_Value_load(&v, NULL, PMIX_UINT64), PMIX_SUCCESS);
    ck_assert_uint_eq(v.data.uint64, 0);
}
END_TEST

START_TEST(string_is_copied_and_unloads_as_a_new_copy_with_its_length)
{
    char text[] = "hello world";
    pmix_value_t v;
    void *data = NULL;
    size_t sz = 0;

    ck_assert_int_eq(PMIx_Value_load(&v, text, PMIX_STRING), PMIX_SUCCESS);
    ck_assert_ptr_ne(v.data.string, text);
    ck_assert_str_eq(v.data.string, text);
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_SUCCESS);
    ck_assert_ptr_ne(data, v.data.string);
    ck_assert_str_eq(data, "hello world");
    ck_assert_uint_eq(sz, strlen(text));
    free(data);
    PMIx_Value_destruct(&v);

    ck_assert_int_eq(PMIx_Value_load(&v, NULL, PMIX_STRING), PMIX_SUCCESS);
    ck_assert_ptr_null(v.data.string);
    data = text;
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_SUCCESS);
    ck_assert_ptr_null(data);
    ck_assert_uint_eq(sz, 0);
}
END_TEST

START_TEST(regex_unloads_as_text_counting_its_nul)
{
    pmix_value_t v;
    void *data = NULL;
    size_t sz = 0;

    ck_assert_int_eq(PMIx_Value_load(&v, "node[1-4]", PMIX_REGEX), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_SUCCESS);
    ck_assert_str_eq(data, "node[1-4]");
    ck_assert_uint_eq(sz, strlen("node[1-4]") + 1);
    free(data);
    PMIx_Value_destruct(&v);
}
END_TEST

START_TEST(pointer_is_stored_and_unloaded_as_the_pointer_itself)
{
    int target = 5;
    pmix_value_t v, w;
    void *data = NULL;
    size_t sz = 0;

    ck_assert_int_eq(PMIx_Value_load(&v, &target, PMIX_POINTER), PMIX_SUCCESS);
    ck_assert_ptr_eq(v.data.ptr, &target);
    ck_assert_int_eq(PMIx_Value_xfer(&w, &v), PMIX_SUCCESS);
    ck_assert_ptr_eq(w.data.ptr, &target);
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_SUCCESS);
    ck_assert_ptr_eq(data, &target);
    ck_assert_uint_eq(sz, sizeof(void *));
    PMIx_Value_destruct(&v);
    PMIx_Value_destruct(&w);
    ck_assert_int_eq(target, 5);
}
END_TEST

START_TEST(byte_object_unloads_as_a_copy_of_its_bytes)
{
    pmix_byte_object_t bo = {.bytes = "\x01\x00\x02", .size = 3};
    pmix_value_t v;
    void *data = NULL;
    size_t sz = 0;

    ck_assert_int_eq(PMIx_Value_load(&v, &bo, PMIX_BYTE_OBJECT), PMIX_SUCCESS);
    ck_assert_ptr_ne(v.data.bo.bytes, bo.bytes);
    ck_assert_uint_eq(v.data.bo.size, 3);
    ck_assert_int_eq(memcmp(v.data.bo.bytes, bo.bytes, 3), 0);
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_SUCCESS);
    ck_assert_ptr_ne(data, v.data.bo.bytes);
    ck_assert_uint_eq(sz, 3);
    ck_assert_int_eq(memcmp(data, "\x01\x00\x02", 3), 0);
    free(data);
    PMIx_Value_destruct(&v);
    ck_assert_ptr_null(v.data.bo.bytes);
}
END_TEST

START_TEST(envar_is_inline_and_unloads_as_a_new_envar)
{
    pmix_envar_t ev = {.envar = "PATH", .value = "/bin", .separator = ':'};
    pmix_envar_t *out;
    pmix_value_t v, w;
    void *data = NULL;
    size_t sz = 0;

    ck_assert_int_eq(PMIx_Value_load(&v, &ev, PMIX_ENVAR), PMIX_SUCCESS);
    ck_assert_str_eq(v.data.envar.envar, "PATH");
    ck_assert_ptr_ne(v.data.envar.value, ev.value);
    ck_assert_int_eq(PMIx_Value_xfer(&w, &v), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Value_compare(&v, &w), PMIX_EQUAL);
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_SUCCESS);
    out = data;
    ck_assert_uint_eq(sz, sizeof(pmix_envar_t));
    ck_assert_str_eq(out->value, "/bin");
    ck_assert_int_eq(out->separator, ':');
    bfrops_release(out, 1, PMIX_ENVAR, NULL);
    free(out);
    PMIx_Value_destruct(&v);
    PMIx_Value_destruct(&w);
}
END_TEST

START_TEST(proc_is_held_by_pointer_and_unloads_into_caller_storage)
{
    pmix_proc_t p, out;
    pmix_value_t v, w;
    void *data = &out;
    size_t sz = 0;

    memset(&p, 0, sizeof(p));
    strcpy(p.nspace, "job.1");
    p.rank = 3;
    ck_assert_int_eq(PMIx_Value_load(&v, &p, PMIX_PROC), PMIX_SUCCESS);
    ck_assert_ptr_nonnull(v.data.proc);
    ck_assert_ptr_ne(v.data.proc, &p);
    ck_assert_str_eq(v.data.proc->nspace, "job.1");
    ck_assert_int_eq(PMIx_Value_xfer(&w, &v), PMIX_SUCCESS);
    ck_assert_ptr_ne(w.data.proc, v.data.proc);
    ck_assert_int_eq(PMIx_Value_compare(&v, &w), PMIX_EQUAL);
    w.data.proc->rank = 4;
    ck_assert_int_eq(PMIx_Value_compare(&v, &w), PMIX_VALUE2_GREATER);
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_SUCCESS);
    ck_assert_ptr_eq(data, &out);
    ck_assert_uint_eq(sz, sizeof(pmix_proc_t));
    ck_assert_str_eq(out.nspace, "job.1");
    ck_assert_uint_eq(out.rank, 3);
    PMIx_Value_destruct(&v);
    PMIx_Value_destruct(&w);
    ck_assert_ptr_null(v.data.proc);
}
END_TEST

START_TEST(nspace_unloads_into_caller_storage_with_its_length)
{
    pmix_nspace_t ns = "my-namespace", out;
    pmix_value_t v;
    void *data = out;
    size_t sz = 0;

    ck_assert_int_eq(PMIx_Value_load(&v, ns, PMIX_PROC_NSPACE), PMIX_SUCCESS);
    ck_assert_ptr_nonnull(v.data.nspace);
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_SUCCESS);
    ck_assert_str_eq(out, "my-namespace");
    ck_assert_uint_eq(sz, strlen("my-namespace"));
    PMIx_Value_destruct(&v);
}
END_TEST

START_TEST(proc_info_unloads_as_a_new_deep_copy)
{
    pmix_proc_info_t pi, *out;
    pmix_value_t v, w;
    void *data = NULL;
    size_t sz = 0;

    memset(&pi, 0, sizeof(pi));
    strcpy(pi.proc.nspace, "ns");
    pi.proc.rank = 1;
    pi.hostname = "node7";
    pi.executable_name = "a.out";
    pi.pid = 99;
    ck_assert_int_eq(PMIx_Value_load(&v, &pi, PMIX_PROC_INFO), PMIX_SUCCESS);
    ck_assert_ptr_ne(v.data.pinfo->hostname, pi.hostname);
    ck_assert_int_eq(PMIx_Value_xfer(&w, &v), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Value_compare(&w, &v), PMIX_EQUAL);
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_SUCCESS);
    out = data;
    ck_assert_ptr_ne(out, v.data.pinfo);
    ck_assert_ptr_ne(out->hostname, v.data.pinfo->hostname);
    ck_assert_str_eq(out->executable_name, "a.out");
    ck_assert_uint_eq(sz, sizeof(pmix_proc_info_t));
    bfrops_release(out, 1, PMIX_PROC_INFO, NULL);
    free(out);
    PMIx_Value_destruct(&v);
    PMIx_Value_destruct(&w);
}
END_TEST

START_TEST(data_array_is_deep_copied)
{
    int32_t nums[3] = {1, 2, 3};
    pmix_data_array_t da = {.type = PMIX_INT32, .size = 3, .array = nums};
    pmix_value_t v, w;

    ck_assert_int_eq(PMIx_Value_load(&v, &da, PMIX_DATA_ARRAY), PMIX_SUCCESS);
    ck_assert_ptr_ne(v.data.darray->array, nums);
    ck_assert_uint_eq(v.data.darray->size, 3);
    ck_assert_int_eq(((int32_t *)v.data.darray->array)[2], 3);
    ck_assert_int_eq(PMIx_Value_xfer(&w, &v), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Value_compare(&v, &w), PMIX_EQUAL);
    ((int32_t *)w.data.darray->array)[2] = 4;
    ck_assert_int_eq(PMIx_Value_compare(&v, &w), PMIX_VALUE2_GREATER);
    PMIx_Value_destruct(&v);
    PMIx_Value_destruct(&w);
}
END_TEST

START_TEST(pointer_kind_loaded_without_data_holds_nothing)
{
    pmix_value_t v, w;
    void *data = NULL;
    size_t sz = 5;

    ck_assert_int_eq(PMIx_Value_load(&v, NULL, PMIX_PROC_INFO), PMIX_SUCCESS);
    ck_assert_ptr_null(v.data.pinfo);
    ck_assert_int_eq(PMIx_Value_xfer(&w, &v), PMIX_SUCCESS);
    ck_assert_ptr_null(w.data.pinfo);
    ck_assert_int_eq(PMIx_Value_compare(&v, &w), PMIX_EQUAL);
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_SUCCESS);
    ck_assert_ptr_null(data);
    ck_assert_uint_eq(sz, 0);
    PMIx_Value_destruct(&v);
    PMIx_Value_destruct(&w);
}
END_TEST

START_TEST(compare_orders_values_and_reports_type_differences)
{
    pmix_value_t a, b;
    int32_t one = 1, two = 2;
    uint32_t uone = 1;

    PMIx_Value_load(&a, &one, PMIX_INT32);
    PMIx_Value_load(&b, &two, PMIX_INT32);
    ck_assert_int_eq(PMIx_Value_compare(&a, &b), PMIX_VALUE2_GREATER);
    ck_assert_int_eq(PMIx_Value_compare(&b, &a), PMIX_VALUE1_GREATER);
    PMIx_Value_load(&b, &uone, PMIX_UINT32);
    ck_assert_int_eq(PMIx_Value_compare(&a, &b), PMIX_VALUE_TYPE_DIFFERENT);
    PMIx_Value_load(&a, "abc", PMIX_STRING);
    PMIx_Value_load(&b, "abd", PMIX_STRING);
    ck_assert_int_eq(PMIx_Value_compare(&a, &b), PMIX_VALUE2_GREATER);
    PMIx_Value_destruct(&a);
    PMIx_Value_destruct(&b);
    ck_assert_int_eq(PMIx_Value_compare(&a, &b), PMIX_EQUAL);
    ck_assert_int_eq(PMIx_Value_compare(&a, NULL), PMIX_VALUE_COMPARISON_NOT_AVAIL);
}
END_TEST

START_TEST(unknown_types_are_refused_without_change)
{
    pmix_value_t v, w;
    int32_t n = 12;
    void *data = &n;
    size_t sz = 0;

    ck_assert_int_eq(PMIx_Value_load(&v, &n, PMIX_INT32), PMIX_SUCCESS);
    ck_assert_int_eq(PMIx_Value_load(&v, &n, 999), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_int_eq(v.type, PMIX_INT32);
    ck_assert_int_eq(v.data.int32, 12);
    w = v;
    w.type = 999;
    ck_assert_int_eq(PMIx_Value_xfer(&v, &w), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_int_eq(v.type, PMIX_INT32);
    ck_assert_int_eq(PMIx_Value_unload(&w, &data, &sz), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_int_eq(PMIx_Value_compare(&w, &w), PMIX_VALUE_COMPARISON_NOT_AVAIL);
    ck_assert_int_eq(PMIx_Value_load(NULL, &n, PMIX_INT32), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_Value_unload(&v, NULL, &sz), PMIX_ERR_BAD_PARAM);
    PMIx_Value_destruct(NULL);
}
END_TEST

START_TEST(undefined_values_transfer_as_undefined)
{
    pmix_value_t v, w;
    void *data = &w;
    size_t sz;

    ck_assert_int_eq(PMIx_Value_load(&v, "ignored", PMIX_UNDEF), PMIX_SUCCESS);
    ck_assert_int_eq(v.type, PMIX_UNDEF);
    ck_assert_int_eq(PMIx_Value_xfer(&w, &v), PMIX_SUCCESS);
    ck_assert_int_eq(w.type, PMIX_UNDEF);
    ck_assert_int_eq(PMIx_Value_unload(&v, &data, &sz), PMIX_ERR_UNKNOWN_DATA_TYPE);
    PMIx_Value_destruct(&v);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("value_api");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_add_loop_test(tc, every_inline_kind_loads_transfers_compares_and_destructs, 0,
                        N_INLINE);
    tcase_add_loop_test(tc, every_plain_inline_kind_unloads_into_caller_storage, 0, N_INLINE);
    tcase_add_test(tc, bool_loaded_without_data_is_true);
    tcase_add_test(tc, string_is_copied_and_unloads_as_a_new_copy_with_its_length);
    tcase_add_test(tc, regex_unloads_as_text_counting_its_nul);
    tcase_add_test(tc, pointer_is_stored_and_unloaded_as_the_pointer_itself);
    tcase_add_test(tc, byte_object_unloads_as_a_copy_of_its_bytes);
    tcase_add_test(tc, envar_is_inline_and_unloads_as_a_new_envar);
    tcase_add_test(tc, proc_is_held_by_pointer_and_unloads_into_caller_storage);
    tcase_add_test(tc, nspace_unloads_into_caller_storage_with_its_length);
    tcase_add_test(tc, proc_info_unloads_as_a_new_deep_copy);
    tcase_add_test(tc, data_array_is_deep_copied);
    tcase_add_test(tc, pointer_kind_loaded_without_data_holds_nothing);
    tcase_add_test(tc, compare_orders_values_and_reports_type_differences);
    tcase_add_test(tc, unknown_types_are_refused_without_change);
    tcase_add_test(tc, undefined_values_transfer_as_undefined);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
