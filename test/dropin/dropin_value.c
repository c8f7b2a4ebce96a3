/*
 * dropin_value.c - copy, print, pmix_value_t and pmix_info_t helpers.
 *
 * Covers PMIx_Data_copy, PMIx_Data_print, PMIx_Data_array_destruct, the
 * PMIx_Value_* and PMIx_Info_* functions and the PMIx_Info_list_* family.
 * The calling conventions checked are OpenPMIx's, since programs are
 * written against them: PMIX_STRING is handed to copy, print and load as
 * the char * itself, other types by address; PMIx_Value_unload writes
 * scalars into storage the caller points *data at, but allocates strings
 * and data arrays; PMIx_Info_list_insert keeps the caller's info (it is
 * not copied, and releasing the list does not free it).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmix.h>

#include "dropin.h"

static bool same_string(const char *a, const char *b)
{
    return NULL != a && NULL != b && 0 == strcmp(a, b);
}

/* ---- PMIx_Data_copy ------------------------------------------------- */

static void check_copy_scalars(void)
{
    int32_t i32 = -7, *i32_copy = NULL;
    double tiny = 1e-300, *d_copy = NULL;
    char *s_copy = NULL;
    pmix_proc_t proc, *p_copy = NULL;

    dropin_check(PMIX_SUCCESS == PMIx_Data_copy((void **)&i32_copy, &i32, PMIX_INT32) &&
                     NULL != i32_copy && i32_copy != &i32 && -7 == *i32_copy,
                 "PMIx_Data_copy of int32 -7 returns a new int32 holding -7");
    free(i32_copy);

    /* OpenPMIx's copy has no case for PMIX_DOUBLE and returns
     * PMIX_ERR_UNKNOWN_DATA_TYPE. */
    dropin_check_defect(PMIX_SUCCESS == PMIx_Data_copy((void **)&d_copy, &tiny, PMIX_DOUBLE) &&
                            NULL != d_copy && 0 == memcmp(d_copy, &tiny, sizeof(tiny)),
                        "PMIx_Data_copy of double 1e-300 is bit-exact");
    free(d_copy);

    dropin_check(PMIX_SUCCESS == PMIx_Data_copy((void **)&s_copy, "copied", PMIX_STRING) &&
                     same_string(s_copy, "copied"),
                 "PMIx_Data_copy of PMIX_STRING takes the char * and returns a new string");
    free(s_copy);

    PMIX_LOAD_PROCID(&proc, "ns-copy", 11);
    dropin_check(PMIX_SUCCESS == PMIx_Data_copy((void **)&p_copy, &proc, PMIX_PROC) &&
                     NULL != p_copy && p_copy != &proc && PMIX_CHECK_PROCID(p_copy, &proc) &&
                     11 == p_copy->rank,
                 "PMIx_Data_copy of proc {ns-copy, 11} returns an equal new proc");
    free(p_copy);
}

static void check_copy_structs(void)
{
    pmix_info_t info, *i_copy = NULL;
    pmix_value_t value, *v_copy = NULL;
    pmix_byte_object_t bo = {"\x01\x02\x03", 3}, *b_copy = NULL;
    pmix_data_array_t *darray, *d_copy = NULL;
    pmix_info_t *elems;
    uint16_t port = 8080;
    bool ok;

    PMIX_INFO_LOAD(&info, "drover.copy.key", "deep", PMIX_STRING);
    ok = PMIX_SUCCESS == PMIx_Data_copy((void **)&i_copy, &info, PMIX_INFO) && NULL != i_copy;
    ok = ok && PMIX_CHECK_KEY(i_copy, "drover.copy.key") && PMIX_STRING == i_copy->value.type &&
         same_string(i_copy->value.data.string, "deep") &&
         i_copy->value.data.string != info.value.data.string;
    dropin_check(ok, "PMIx_Data_copy of an info makes a deep copy of its string value");
    if (NULL != i_copy) {
        PMIX_INFO_FREE(i_copy, 1);
    }
    PMIX_INFO_DESTRUCT(&info);

    PMIX_VALUE_LOAD(&value, &port, PMIX_UINT16);
    ok = PMIX_SUCCESS == PMIx_Data_copy((void **)&v_copy, &value, PMIX_VALUE) &&
         NULL != v_copy && PMIX_UINT16 == v_copy->type && 8080 == v_copy->data.uint16;
    dropin_check(ok, "PMIx_Data_copy of a uint16 8080 value returns an equal value");
    if (NULL != v_copy) {
        PMIX_VALUE_RELEASE(v_copy);
    }

    ok = PMIX_SUCCESS == PMIx_Data_copy((void **)&b_copy, &bo, PMIX_BYTE_OBJECT) &&
         NULL != b_copy && 3 == b_copy->size && b_copy->bytes != bo.bytes &&
         0 == memcmp(b_copy->bytes, "\x01\x02\x03", 3);
    dropin_check(ok, "PMIx_Data_copy of a 3-byte byte object copies the bytes");
    if (NULL != b_copy) {
        PMIX_BYTE_OBJECT_FREE(b_copy, 1);
    }

    PMIX_DATA_ARRAY_CREATE(darray, 2, PMIX_INFO);
    elems = darray->array;
    PMIX_INFO_LOAD(&elems[0], "drover.c0", &port, PMIX_UINT16);
    PMIX_INFO_LOAD(&elems[1], "drover.c1", "one", PMIX_STRING);
    ok = PMIX_SUCCESS == PMIx_Data_copy((void **)&d_copy, darray, PMIX_DATA_ARRAY) &&
         NULL != d_copy && PMIX_INFO == d_copy->type && 2 == d_copy->size &&
         d_copy->array != darray->array;
    elems = ok ? d_copy->array : NULL;
    ok = ok && PMIX_CHECK_KEY(&elems[0], "drover.c0") && 8080 == elems[0].value.data.uint16 &&
         PMIX_CHECK_KEY(&elems[1], "drover.c1") && same_string(elems[1].value.data.string, "one");
    dropin_check(ok, "PMIx_Data_copy of a data array of 2 infos copies both");
    PMIX_DATA_ARRAY_FREE(d_copy);
    PMIX_DATA_ARRAY_FREE(darray);
}

/* ---- PMIx_Data_print ------------------------------------------------ */

static void check_print(const char *what, void *src, pmix_data_type_t type, const char *expect)
{
    char *text = NULL;
    pmix_status_t rc = PMIx_Data_print(&text, "PFX:", src, type);

    dropin_check(PMIX_SUCCESS == rc && NULL != text && '\0' != text[0] &&
                     dropin_contains(text, expect) && dropin_contains(text, "PFX:"),
                 "PMIx_Data_print of %s mentions \"%s\" and the prefix", what, expect);
    if (NULL != text && !dropin_contains(text, expect)) {
        dropin_diag("printed: %s", text);
    }
    free(text);
}

static void check_prints(void)
{
    int32_t answer = 42;
    double half = 2.5;
    uint64_t big = 18446744073709551615ULL;
    pmix_proc_t proc;
    pmix_info_t info;

    check_print("int32 42", &answer, PMIX_INT32, "42");
    check_print("uint64 UINT64_MAX", &big, PMIX_UINT64, "18446744073709551615");
    check_print("double 2.5", &half, PMIX_DOUBLE, "2.5");
    check_print("the string \"printed-text\"", "printed-text", PMIX_STRING, "printed-text");
    PMIX_LOAD_PROCID(&proc, "ns-print", 3);
    check_print("proc {ns-print, 3}", &proc, PMIX_PROC, "ns-print");
    PMIX_INFO_LOAD(&info, "drover.print.key", "printval", PMIX_STRING);
    check_print("an info", &info, PMIX_INFO, "drover.print.key");
    check_print("an info", &info, PMIX_INFO, "printval");
    PMIX_INFO_DESTRUCT(&info);
}

/* ---- PMIx_Value_* --------------------------------------------------- */

static void check_value_load(void)
{
    pmix_value_t v;
    pmix_proc_t proc;
    pmix_byte_object_t bo = {"xyz", 3};
    pmix_data_array_t *darray;
    double tiny = 1e-300;
    int32_t i32 = 123456;
    char *loaded = "loaded";

    PMIX_VALUE_CONSTRUCT(&v);
    dropin_check(PMIX_SUCCESS == PMIx_Value_load(&v, loaded, PMIX_STRING) &&
                     PMIX_STRING == v.type && same_string(v.data.string, "loaded") &&
                     v.data.string != loaded,
                 "PMIx_Value_load of a string stores a copy");
    PMIx_Value_destruct(&v);
    dropin_check(PMIX_UNDEF == v.type, "PMIx_Value_destruct leaves the value PMIX_UNDEF");

    dropin_check(PMIX_SUCCESS == PMIx_Value_load(&v, &i32, PMIX_INT32) && PMIX_INT32 == v.type &&
                     123456 == v.data.int32,
                 "PMIx_Value_load of int32 123456 stores it in data.int32");
    PMIx_Value_destruct(&v);

    dropin_check(PMIX_SUCCESS == PMIx_Value_load(&v, &tiny, PMIX_DOUBLE) &&
                     PMIX_DOUBLE == v.type && 0 == memcmp(&v.data.dval, &tiny, sizeof(tiny)),
                 "PMIx_Value_load of double 1e-300 is bit-exact");
    PMIx_Value_destruct(&v);

    PMIX_LOAD_PROCID(&proc, "ns-load", 4);
    dropin_check(PMIX_SUCCESS == PMIx_Value_load(&v, &proc, PMIX_PROC) && PMIX_PROC == v.type &&
                     NULL != v.data.proc && v.data.proc != &proc &&
                     PMIX_CHECK_PROCID(v.data.proc, &proc) && 4 == v.data.proc->rank,
                 "PMIx_Value_load of a proc stores a copy in data.proc");
    PMIx_Value_destruct(&v);

    dropin_check(PMIX_SUCCESS == PMIx_Value_load(&v, &bo, PMIX_BYTE_OBJECT) &&
                     PMIX_BYTE_OBJECT == v.type && 3 == v.data.bo.size &&
                     v.data.bo.bytes != bo.bytes && 0 == memcmp(v.data.bo.bytes, "xyz", 3),
                 "PMIx_Value_load of a byte object copies its bytes into data.bo");
    PMIx_Value_destruct(&v);

    PMIX_DATA_ARRAY_CREATE(darray, 3, PMIX_UINT8);
    memcpy(darray->array, "\x07\x08\x09", 3);
    dropin_check(PMIX_SUCCESS == PMIx_Value_load(&v, darray, PMIX_DATA_ARRAY) &&
                     PMIX_DATA_ARRAY == v.type && NULL != v.data.darray &&
                     v.data.darray != darray && PMIX_UINT8 == v.data.darray->type &&
                     3 == v.data.darray->size &&
                     0 == memcmp(v.data.darray->array, "\x07\x08\x09", 3),
                 "PMIx_Value_load of a data array of 3 uint8 stores a deep copy");
    PMIx_Value_destruct(&v);
    PMIX_DATA_ARRAY_FREE(darray);
}

static void check_value_unload(void)
{
    pmix_value_t v;
    int32_t i32 = -99, i32_out = 0;
    pmix_data_array_t *darray, placeholder;
    void *data;
    size_t size = 0;
    bool ok;

    PMIX_VALUE_LOAD(&v, &i32, PMIX_INT32);
    data = &i32_out;
    ok = PMIX_SUCCESS == PMIx_Value_unload(&v, &data, &size) && -99 == i32_out &&
         sizeof(int32_t) == size;
    dropin_check(ok, "PMIx_Value_unload of int32 -99 writes it to the caller's storage, size 4");
    PMIx_Value_destruct(&v);

    PMIX_VALUE_LOAD(&v, "unloaded", PMIX_STRING);
    data = NULL;
    size = 0;
    ok = PMIX_SUCCESS == PMIx_Value_unload(&v, &data, &size) && NULL != data &&
         data != v.data.string && same_string(data, "unloaded");
    dropin_check(ok, "PMIx_Value_unload of a string returns a new copy");
    dropin_check(strlen("unloaded") == size, "PMIx_Value_unload of \"unloaded\" reports size 8, "
                                             "as OpenPMIx does (got %zu)", size);
    free(data);
    PMIx_Value_destruct(&v);

    PMIX_DATA_ARRAY_CREATE(darray, 2, PMIX_STRING);
    ((char **)darray->array)[0] = strdup("first");
    ((char **)darray->array)[1] = strdup("second");
    PMIX_VALUE_LOAD(&v, darray, PMIX_DATA_ARRAY);
    /* OpenPMIx insists on a non-NULL *data here, then replaces it. */
    data = &placeholder;
    ok = PMIX_SUCCESS == PMIx_Value_unload(&v, &data, &size) && NULL != data &&
         data != &placeholder && data != v.data.darray;
    ok = ok && PMIX_STRING == ((pmix_data_array_t *)data)->type &&
         2 == ((pmix_data_array_t *)data)->size &&
         same_string(((char **)((pmix_data_array_t *)data)->array)[1], "second");
    dropin_check(ok, "PMIx_Value_unload of a data array of 2 strings returns a new copy");
    if (ok) {
        pmix_data_array_t *copy = data;
        PMIX_DATA_ARRAY_FREE(copy);
    }
    PMIx_Value_destruct(&v);
    PMIX_DATA_ARRAY_FREE(darray);
}

static void check_value_xfer_compare(void)
{
    pmix_value_t a, b, c;
    int32_t five = 5, seven = 7;
    pmix_proc_t proc;

    PMIX_VALUE_LOAD(&a, "transfer", PMIX_STRING);
    PMIX_VALUE_CONSTRUCT(&b);
    dropin_check(PMIX_SUCCESS == PMIx_Value_xfer(&b, &a) && PMIX_STRING == b.type &&
                     same_string(b.data.string, "transfer") && b.data.string != a.data.string,
                 "PMIx_Value_xfer of a string value makes a deep copy");
    dropin_check(PMIX_EQUAL == PMIx_Value_compare(&a, &b),
                 "PMIx_Value_compare of a string value and its copy is PMIX_EQUAL");
    PMIx_Value_destruct(&b);
    PMIX_VALUE_LOAD(&b, "transfeq", PMIX_STRING);
    dropin_check(PMIX_VALUE1_GREATER == PMIx_Value_compare(&a, &b),
                 "PMIx_Value_compare(\"transfer\", \"transfeq\") is PMIX_VALUE1_GREATER");
    PMIx_Value_destruct(&b);

    PMIX_VALUE_LOAD(&b, &five, PMIX_INT32);
    PMIX_VALUE_LOAD(&c, &seven, PMIX_INT32);
    dropin_check(PMIX_VALUE2_GREATER == PMIx_Value_compare(&b, &c),
                 "PMIx_Value_compare(int32 5, int32 7) is PMIX_VALUE2_GREATER");
    dropin_check(PMIX_VALUE1_GREATER == PMIx_Value_compare(&c, &b),
                 "PMIx_Value_compare(int32 7, int32 5) is PMIX_VALUE1_GREATER");
    dropin_check(PMIX_VALUE_TYPE_DIFFERENT == PMIx_Value_compare(&a, &b),
                 "PMIx_Value_compare(string, int32) is PMIX_VALUE_TYPE_DIFFERENT");
    PMIx_Value_destruct(&c);
    PMIx_Value_destruct(&b);
    PMIx_Value_destruct(&a);

    PMIX_LOAD_PROCID(&proc, "ns-cmp", 2);
    PMIX_VALUE_LOAD(&a, &proc, PMIX_PROC);
    PMIX_VALUE_CONSTRUCT(&b);
    dropin_check(PMIX_SUCCESS == PMIx_Value_xfer(&b, &a) && PMIX_PROC == b.type &&
                     b.data.proc != a.data.proc && PMIX_EQUAL == PMIx_Value_compare(&a, &b),
                 "PMIx_Value_xfer of a proc value copies it and compares PMIX_EQUAL");
    PMIx_Value_destruct(&b);
    PMIx_Value_destruct(&a);
}

/* ---- PMIx_Info_* ---------------------------------------------------- */

static void check_info_load_xfer(void)
{
    pmix_info_t info, copy;

    memset(&info, 0, sizeof(info));
    dropin_check(PMIX_SUCCESS == PMIx_Info_load(&info, "drover.flag", NULL, PMIX_BOOL) &&
                     PMIX_CHECK_KEY(&info, "drover.flag") && PMIX_BOOL == info.value.type &&
                     info.value.data.flag && PMIX_INFO_TRUE(&info),
                 "PMIx_Info_load of PMIX_BOOL with NULL data is true");
    PMIX_INFO_DESTRUCT(&info);
    dropin_check(PMIX_SUCCESS != PMIx_Info_load(&info, NULL, "x", PMIX_STRING),
                 "PMIx_Info_load with a NULL key fails");

    PMIx_Info_load(&info, "drover.xfer", "payload", PMIX_STRING);
    PMIX_INFO_REQUIRED(&info);
    memset(&copy, 0, sizeof(copy));
    dropin_check(PMIX_SUCCESS == PMIx_Info_xfer(&copy, &info) &&
                     PMIX_CHECK_KEY(&copy, "drover.xfer") && PMIX_INFO_IS_REQUIRED(&copy) &&
                     same_string(copy.value.data.string, "payload") &&
                     copy.value.data.string != info.value.data.string,
                 "PMIx_Info_xfer copies key, required flag and a deep copy of the value");
    PMIX_INFO_DESTRUCT(&copy);
    PMIX_INFO_DESTRUCT(&info);
}

static void check_info_list(void)
{
    void *list = PMIx_Info_list_start();
    pmix_info_t given, kept, *out;
    pmix_data_array_t array;
    uint32_t one = 1;
    bool ok;

    PMIX_INFO_LOAD(&given, "drover.l.xfer", "copied in", PMIX_STRING);
    PMIX_INFO_LOAD(&kept, "drover.l.insert", "kept by caller", PMIX_STRING);
    ok = NULL != list;
    ok = ok && PMIX_SUCCESS == PMIx_Info_list_add(list, "drover.l.add", &one, PMIX_UINT32);
    ok = ok && PMIX_SUCCESS == PMIx_Info_list_add(list, "drover.l.flag", NULL, PMIX_BOOL);
    ok = ok && PMIX_SUCCESS == PMIx_Info_list_xfer(list, &given);
    ok = ok && PMIX_SUCCESS == PMIx_Info_list_insert(list, &kept);
    dropin_check(ok, "PMIx_Info_list_start/add/xfer/insert build a list of 4");

    memset(&array, 0, sizeof(array));
    ok = ok && PMIX_SUCCESS == PMIx_Info_list_convert(list, &array) &&
         PMIX_INFO == array.type && 4 == array.size && NULL != array.array;
    out = ok ? array.array : NULL;
    ok = ok && PMIX_CHECK_KEY(&out[0], "drover.l.add") && 1 == out[0].value.data.uint32 &&
         PMIX_CHECK_KEY(&out[1], "drover.l.flag") && PMIX_INFO_TRUE(&out[1]) &&
         PMIX_CHECK_KEY(&out[2], "drover.l.xfer") &&
         same_string(out[2].value.data.string, "copied in") &&
         out[2].value.data.string != given.value.data.string &&
         PMIX_CHECK_KEY(&out[3], "drover.l.insert") &&
         same_string(out[3].value.data.string, "kept by caller");
    dropin_check(ok, "PMIx_Info_list_convert yields the 4 infos in order as a data array");
    PMIX_INFO_DESTRUCT(&given);
    PMIx_Info_list_release(list);
    PMIx_Data_array_destruct(&array);
    dropin_check(same_string(kept.value.data.string, "kept by caller"),
                 "an info given to PMIx_Info_list_insert is still the caller's after the "
                 "list and its conversion are released");
    PMIX_INFO_DESTRUCT(&kept);

    list = PMIx_Info_list_start();
    memset(&array, 0, sizeof(array));
    dropin_check(NULL != list && PMIX_SUCCESS != PMIx_Info_list_convert(list, &array) &&
                     NULL == array.array,
                 "PMIx_Info_list_convert of an empty list fails and yields nothing");
    PMIx_Info_list_release(list);
}

static void check_darray_destruct(void)
{
    pmix_data_array_t *darray;
    char **strs;

    PMIX_DATA_ARRAY_CREATE(darray, 2, PMIX_STRING);
    strs = darray->array;
    strs[0] = strdup("alpha");
    strs[1] = strdup("beta");
    PMIx_Data_array_destruct(darray);
    dropin_check(NULL == darray->array && 0 == darray->size,
                 "PMIx_Data_array_destruct frees the elements and empties the array");
    free(darray);
}

void dropin_value_checks(void)
{
    check_copy_scalars();
    check_copy_structs();
    check_prints();
    check_value_load();
    check_value_unload();
    check_value_xfer_compare();
    check_info_load_xfer();
    check_info_list();
    check_darray_destruct();
}
