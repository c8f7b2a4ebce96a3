/*
 * value_api.c - PMIx_Value_load, _unload, _xfer, _compare and _destruct:
 * pmix_value_t handled through the datatype registry.
 *
 * A pmix_value_t holds one element of its type. Where the element lives is
 * the record's business (bfrops_value_elem): in the data union itself for
 * DROVER_DATATYPE_VALUE_INLINE types, otherwise behind data.ptr in a heap
 * cell of the record's size. Loading, copying, comparing and releasing are
 * then the record's per-element functions, so these calls work for every
 * builtin and registered type, before or without PMIx_Init.
 *
 * Design notes:
 *  - Single-element calls receive DROVER_DATATYPE_PASSED_BY_VALUE elements
 *    (strings, pointers) as the pointer itself, so their element is the
 *    address of the argument.
 *  - A result is assembled in a local pmix_value_t and stored only when
 *    complete: a failed load or transfer leaves the destination as it was.
 *  - Loading NULL data stores an empty element, except that a PMIX_BOOL
 *    loaded without data is true: PMIx treats the mere presence of a
 *    boolean attribute as "true".
 *  - Unload follows OpenPMIx 4.2.2 in what the caller receives: an inline
 *    element owning nothing (a scalar) is written into the caller's storage
 *    at *data; a passed-by-value element is returned itself (a string as a
 *    fresh copy); any other element comes back as a new deep copy the
 *    caller frees. A few types answer in the shape OpenPMIx gives them (the
 *    unload_shapes table): strings, regexes and namespaces report their
 *    length, a process identifier is written into caller storage like a
 *    scalar, and byte objects hand back a copy of their bytes. OpenPMIx
 *    returns the value's own bytes there, which the caller then cannot
 *    safely free; the copy keeps the shape and removes the double free.
 *  - PMIX_UNDEF has no record: an undefined value holds nothing, loads and
 *    transfers as empty and compares equal to another undefined value.
 */
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "pmix.h"

static bool is_inline(const drover_datatype_t *t)
{
    return 0 != (t->flags & DROVER_DATATYPE_VALUE_INLINE);
}

static bool by_value(const drover_datatype_t *t)
{
    return 0 != (t->flags & DROVER_DATATYPE_PASSED_BY_VALUE);
}

static bool owns_memory(const drover_datatype_t *t)
{
    return NULL != t->release;
}

/* Store a deep copy of elem (NULL: nothing) in *out as a value of type t.
 * On failure *out is untouched and nothing is left allocated. */
static pmix_status_t store_elem(pmix_value_t *out, const drover_datatype_t *t, const void *elem)
{
    pmix_value_t v;
    pmix_status_t rc = PMIX_SUCCESS;

    memset(&v, 0, sizeof(v));
    v.type = t->id;
    if (NULL != elem) {
        if (is_inline(t)) {
            rc = bfrops_copy(&v.data, elem, 1, t->id, NULL);
        } else {
            void *cell = malloc(t->size);

            if (NULL == cell) {
                return PMIX_ERR_NOMEM;
            }
            rc = bfrops_copy(cell, elem, 1, t->id, NULL);
            if (PMIX_SUCCESS != rc) {
                free(cell);
            } else {
                v.data.ptr = cell;
            }
        }
    }
    if (PMIX_SUCCESS == rc) {
        *out = v;
    }
    return rc;
}

/* An undefined value: type PMIX_UNDEF, nothing held. */
static void store_undef(pmix_value_t *out)
{
    memset(out, 0, sizeof(*out));
    out->type = PMIX_UNDEF;
}

PMIX_EXPORT pmix_status_t PMIx_Value_load(pmix_value_t *val, const void *data,
                                          pmix_data_type_t type)
{
    const drover_datatype_t *t;

    if (NULL == val) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_UNDEF == type) {
        store_undef(val);
        return PMIX_SUCCESS;
    }
    if (NULL == (t = bfrops_lookup(type))) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    if (NULL == data) {
        memset(val, 0, sizeof(*val));
        val->type = type;
        if (PMIX_BOOL == type) {
            val->data.flag = true;
        }
        return PMIX_SUCCESS;
    }
    return store_elem(val, t, by_value(t) ? (const void *)&data : data);
}

PMIX_EXPORT pmix_status_t PMIx_Value_xfer(pmix_value_t *dest, const pmix_value_t *src)
{
    const drover_datatype_t *t;

    if (NULL == dest || NULL == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_UNDEF == src->type) {
        store_undef(dest);
        return PMIX_SUCCESS;
    }
    if (NULL == (t = bfrops_lookup(src->type))) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    return store_elem(dest, t, bfrops_value_elem(src));
}

PMIX_EXPORT void PMIx_Value_destruct(pmix_value_t *val)
{
    const drover_datatype_t *t;

    if (NULL == val) {
        return;
    }
    if (PMIX_UNDEF != val->type && NULL != (t = bfrops_lookup(val->type))) {
        bfrops_release(bfrops_value_elem(val), 1, val->type, NULL);
        if (!is_inline(t)) {
            free(val->data.ptr);
        }
    }
    store_undef(val);
}

PMIX_EXPORT pmix_value_cmp_t PMIx_Value_compare(pmix_value_t *v1, pmix_value_t *v2)
{
    const void *e1, *e2;

    if (NULL == v1 || NULL == v2) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    if (v1->type != v2->type) {
        return PMIX_VALUE_TYPE_DIFFERENT;
    }
    if (PMIX_UNDEF == v1->type) {
        return PMIX_EQUAL;
    }
    if (NULL == bfrops_lookup(v1->type)) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    /* A value holding nothing sorts before one holding something. */
    e1 = bfrops_value_elem(v1);
    e2 = bfrops_value_elem(v2);
    if (NULL == e1 || NULL == e2) {
        if (e1 == e2) {
            return PMIX_EQUAL;
        }
        return NULL == e1 ? PMIX_VALUE2_GREATER : PMIX_VALUE1_GREATER;
    }
    return bfrops_compare(e1, e2, 1, v1->type);
}

/* ---- Unload ------------------------------------------------------------ */

/* A string comes back as a fresh copy, its size being its length. */
static pmix_status_t unload_string(const pmix_value_t *val, void **data, size_t *sz)
{
    char *copy = NULL;

    if (NULL != val->data.string && NULL == (copy = strdup(val->data.string))) {
        return PMIX_ERR_NOMEM;
    }
    *data = copy;
    *sz = (NULL == copy) ? 0 : strlen(copy);
    return PMIX_SUCCESS;
}

/* A regex is text too; OpenPMIx counts its terminating NUL in its size. */
static pmix_status_t unload_regex(const pmix_value_t *val, void **data, size_t *sz)
{
    pmix_status_t rc = unload_string(val, data, sz);

    if (PMIX_SUCCESS == rc && NULL != *data) {
        (*sz)++;
    }
    return rc;
}

/* A namespace is written into the caller's pmix_nspace_t; its size is the
 * length of the name. */
static pmix_status_t unload_nspace(const pmix_value_t *val, void **data, size_t *sz)
{
    size_t len;

    if (NULL == *data) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == val->data.nspace) {
        *sz = 0;
        return PMIX_SUCCESS;
    }
    len = strnlen(*val->data.nspace, PMIX_MAX_NSLEN);
    memcpy(*data, *val->data.nspace, len);
    ((char *)*data)[len] = '\0';
    *sz = len;
    return PMIX_SUCCESS;
}

/* A byte object comes back as a copy of its bytes and their count. */
static pmix_status_t unload_bytes(const pmix_value_t *val, void **data, size_t *sz)
{
    const pmix_byte_object_t *bo = &val->data.bo;
    void *copy = NULL;

    if (NULL != bo->bytes && 0 < bo->size) {
        if (NULL == (copy = malloc(bo->size))) {
            return PMIX_ERR_NOMEM;
        }
        memcpy(copy, bo->bytes, bo->size);
    }
    *data = copy;
    *sz = (NULL == copy) ? 0 : bo->size;
    return PMIX_SUCCESS;
}

/* The element is written into the caller's storage at *data, which must
 * be there. val's type is registered. */
static pmix_status_t unload_into(const pmix_value_t *val, void **data, size_t *sz)
{
    const void *elem = bfrops_value_elem(val);
    pmix_status_t rc;

    if (NULL == *data) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == elem) {
        *sz = 0;
        return PMIX_SUCCESS;
    }
    rc = bfrops_copy(*data, elem, 1, val->type, NULL);
    if (PMIX_SUCCESS == rc) {
        *sz = bfrops_lookup(val->type)->size;
    }
    return rc;
}

/* *data receives the element itself, a pointer (a passed-by-value type,
 * one pointer wide); what it points to is copied if the type owns it. */
static pmix_status_t unload_itself(const pmix_value_t *val, void **data, size_t *sz)
{
    const void *elem = bfrops_value_elem(val);
    void *result = NULL;
    pmix_status_t rc = PMIX_SUCCESS;

    if (NULL != elem) {
        rc = bfrops_copy(&result, elem, 1, val->type, NULL);
    }
    if (PMIX_SUCCESS == rc) {
        *data = result;
        *sz = sizeof(void *);
    }
    return rc;
}

/* *data receives a new deep copy of the element, which the caller frees
 * (release what it owns, then free()). */
static pmix_status_t unload_new(const pmix_value_t *val, void **data, size_t *sz)
{
    const drover_datatype_t *t = bfrops_lookup(val->type);
    const void *elem = bfrops_value_elem(val);
    void *result;
    pmix_status_t rc;

    if (NULL == elem) {
        *data = NULL;
        *sz = 0;
        return PMIX_SUCCESS;
    }
    if (NULL == (result = malloc(t->size))) {
        return PMIX_ERR_NOMEM;
    }
    rc = bfrops_copy(result, elem, 1, val->type, NULL);
    if (PMIX_SUCCESS != rc) {
        free(result);
        return rc;
    }
    *data = result;
    *sz = t->size;
    return PMIX_SUCCESS;
}

/* The types whose unload has a shape of its own (see the notes above); a
 * process identifier is held by pointer yet, like a scalar, written into
 * the caller's storage. */
static const struct unload_shape {
    pmix_data_type_t type;
    pmix_status_t (*unload)(const pmix_value_t *val, void **data, size_t *sz);
} unload_shapes[] = {
    {PMIX_STRING, unload_string},
    {PMIX_REGEX, unload_regex},
    {PMIX_PROC_NSPACE, unload_nspace},
    {PMIX_PROC, unload_into},
    {PMIX_BYTE_OBJECT, unload_bytes},
    {PMIX_COMPRESSED_STRING, unload_bytes},
    {PMIX_COMPRESSED_BYTE_OBJECT, unload_bytes},
};

PMIX_EXPORT pmix_status_t PMIx_Value_unload(pmix_value_t *val, void **data, size_t *sz)
{
    const drover_datatype_t *t;

    if (NULL == val || NULL == data || NULL == sz) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_UNDEF == val->type || NULL == (t = bfrops_lookup(val->type))) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    for (size_t i = 0; i < sizeof(unload_shapes) / sizeof(unload_shapes[0]); i++) {
        if (unload_shapes[i].type == val->type) {
            return unload_shapes[i].unload(val, data, sz);
        }
    }
    if (by_value(t)) {
        return unload_itself(val, data, sz);
    }
    if (is_inline(t) && !owns_memory(t)) {
        return unload_into(val, data, sz);
    }
    return unload_new(val, data, sz);
}
