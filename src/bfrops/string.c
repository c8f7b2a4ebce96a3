/*
 * string.c - the text datatypes: PMIX_STRING and PMIX_REGEX (a char *) and
 * PMIX_PROC_NSPACE (a pmix_nspace_t, char[PMIX_MAX_NSLEN + 1]).
 *
 * Design notes:
 *  - A string travels as a u32 byte count and its bytes, without the
 *    terminating NUL; the count UINT32_MAX stands for a NULL pointer, so
 *    NULL and "" stay distinct through a round trip. A NUL among the bytes
 *    is refused on unpack: no C string can have produced it.
 *  - PMIX_STRING and PMIX_REGEX are passed by value (OpenPMIx's
 *    PMIx_Value_load, PMIx_Data_copy and PMIx_Data_print take the char *
 *    itself for both) and live in place in a pmix_value_t (data.string;
 *    for a regex that is also data.bo.bytes). Their records differ only in
 *    name and id. A regex is whatever text PMIx_generate_regex produced.
 *  - An nspace is a fixed array: it packs like a string of at most
 *    PMIX_MAX_NSLEN bytes, and an nspace with no NUL in its array is
 *    refused both ways (PMIX_ERR_BAD_PARAM to pack, PMIX_ERR_UNPACK_FAILURE
 *    for a count above PMIX_MAX_NSLEN on the wire). The bytes after the NUL
 *    are not part of its value: compare stops at the NUL and unpack leaves
 *    them zero.
 *  - NULL strings order before every string, others by strcmp.
 */
#include <stdlib.h>
#include <string.h>

#include "scalar_int.h"

/* The text of len bytes at s in double quotes, with quotes, backslashes
 * and unprintable bytes escaped C-style. Caller frees with free(). */
static char *quote(const char *s, size_t len)
{
    /* Each byte takes at most four characters (\xHH). */
    char *text = malloc(4 * len + 3);
    if (NULL == text) {
        return NULL;
    }
    static const char hex[] = "0123456789abcdef";
    char *out = text;
    *out++ = '"';
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ('"' == c || '\\' == c) {
            *out++ = '\\';
            *out++ = (char)c;
        } else if (c < 0x20 || c >= 0x7f) {
            *out++ = '\\';
            *out++ = 'x';
            *out++ = hex[c >> 4];
            *out++ = hex[c & 0xf];
        } else {
            *out++ = (char)c;
        }
    }
    *out++ = '"';
    *out = '\0';
    return text;
}

static pmix_status_t pack_string(drover_writer_t *w, const void *elem)
{
    return wire_put_string(w, *(char *const *)elem);
}

static pmix_status_t unpack_string(drover_reader_t *r, void *elem)
{
    return wire_get_string(r, (char **)elem);
}

static pmix_status_t copy_string(void *dest, const void *src, drover_tma_t *tma)
{
    const char *s = *(char *const *)src;
    char *copy = NULL;
    if (NULL != s) {
        copy = drover_tma_strdup(tma, s);
        if (NULL == copy) {
            return PMIX_ERR_NOMEM;
        }
    }
    *(char **)dest = copy;
    return PMIX_SUCCESS;
}

static pmix_value_cmp_t compare_string(const void *a, const void *b)
{
    const char *x = *(char *const *)a;
    const char *y = *(char *const *)b;
    if (NULL == x || NULL == y) {
        return scalar_int_order_u64(NULL != x, NULL != y);
    }
    return scalar_int_order_s64(strcmp(x, y), 0);
}

static char *print_string(const void *elem)
{
    const char *s = *(char *const *)elem;
    return NULL == s ? scalar_int_format("NULL") : quote(s, strlen(s));
}

static void release_string(void *elem, drover_tma_t *tma)
{
    char **s = elem;
    drover_tma_free(tma, *s);
    *s = NULL;
}

static pmix_status_t pack_nspace(drover_writer_t *w, const void *elem)
{
    size_t len = strnlen(elem, PMIX_MAX_NSLEN + 1);
    if (len > PMIX_MAX_NSLEN) {
        return PMIX_ERR_BAD_PARAM;
    }
    return wire_put_blob(w, elem, len);
}

static pmix_status_t unpack_nspace(drover_reader_t *r, void *elem)
{
    uint32_t len;
    pmix_status_t rc = wire_get_u32(r, &len);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (len > PMIX_MAX_NSLEN) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    rc = wire_get(r, elem, len);
    if (PMIX_SUCCESS == rc && NULL != memchr(elem, '\0', len)) {
        memset(elem, 0, len);
        rc = PMIX_ERR_UNPACK_FAILURE;
    }
    return rc;
}

static pmix_value_cmp_t compare_nspace(const void *a, const void *b)
{
    return scalar_int_order_s64(strncmp(a, b, PMIX_MAX_NSLEN + 1), 0);
}

static char *print_nspace(const void *elem)
{
    return quote(elem, strnlen(elem, PMIX_MAX_NSLEN + 1));
}

/* PMIX_STRING and PMIX_REGEX share everything but name and id. */
#define STRING_RECORD(ID)                                                               \
    {                                                                                   \
        .name = #ID, .id = (ID), .size = sizeof(char *), .min_wire = 4,                 \
        .flags = DROVER_DATATYPE_VALUE_INLINE | DROVER_DATATYPE_PASSED_BY_VALUE,        \
        .pack = pack_string, .unpack = unpack_string, .copy = copy_string,              \
        .compare = compare_string, .print = print_string, .release = release_string,    \
    }

const drover_datatype_t bfrops_type_string = STRING_RECORD(PMIX_STRING);
const drover_datatype_t bfrops_type_regex = STRING_RECORD(PMIX_REGEX);

const drover_datatype_t bfrops_type_proc_nspace = {
    .name = "PMIX_PROC_NSPACE",
    .id = PMIX_PROC_NSPACE,
    .size = sizeof(pmix_nspace_t),
    .min_wire = 4,
    .flags = 0,
    .pack = pack_nspace,
    .unpack = unpack_nspace,
    .compare = compare_nspace,
    .print = print_nspace,
};
