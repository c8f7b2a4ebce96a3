/*
 * bfrops.c - operations on n elements of any type, dispatched through the
 * registry: pack, unpack, copy, compare, release, print.
 *
 * Design notes:
 *  - A record's functions handle one element; the loops over n elements,
 *    the optional functions' defaults (bytewise copy and comparison, owning
 *    nothing) and all cleanup live here, once.
 *  - A failed call changes nothing: a failed pack gives the buffer back its
 *    old length, a failed unpack or copy releases the elements it had
 *    finished and leaves the destination zeroed, and a failed tagged unpack
 *    also leaves the reader where it was.
 *  - Unpack refuses a count its input cannot hold (n * min_wire bytes)
 *    before touching the destination, and nesting (a value holding an array
 *    of values...) is bounded by WIRE_MAX_DEPTH so hostile input cannot
 *    exhaust the stack.
 */
#include <stdint.h>
#include <string.h>

#include "bfrops.h"

/* initial-exec: where the library is loaded by dlopen (the drover command's
 * module), its few bytes of TLS come from the static surplus rather than
 * being allocated lazily per thread (which LeakSanitizer cannot walk). */
_Thread_local const drover_datatype_t *bfrops_current __attribute__((tls_model("initial-exec")));

/* The address of element i of an array of t. */
static void *elem_at(const void *base, size_t i, const drover_datatype_t *t)
{
    return (char *)base + i * t->size;
}

/* n elements of t in bytes, or false when that overflows size_t. */
static bool array_bytes(size_t n, const drover_datatype_t *t, size_t *bytes)
{
    if (0 != n && t->size > SIZE_MAX / n) {
        return false;
    }
    *bytes = n * t->size;
    return true;
}

/* Release the first n elements at elems and zero them, so storage that held
 * a half-built result looks as it did before. */
static void discard(void *elems, size_t n, const drover_datatype_t *t, drover_tma_t *tma)
{
    if (NULL != t->release) {
        for (size_t i = 0; i < n; i++) {
            bfrops_current = t;
            t->release(elem_at(elems, i, t), tma);
            bfrops_current = NULL;
        }
    }
    memset(elems, 0, n * t->size);
}

PMIX_EXPORT pmix_status_t drover_pack(drover_writer_t *w, const void *src, size_t n,
                                      pmix_data_type_t type)
{
    const drover_datatype_t *t = bfrops_lookup(type);
    if (NULL == t) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    if (NULL == w || (NULL == src && 0 != n)) {
        return PMIX_ERR_BAD_PARAM;
    }
    size_t mark = w->buf->bytes_used;
    if (NULL != t->pack_array && 0 < n) {
        bfrops_current = t;
        pmix_status_t rc = t->pack_array(w, src, n);
        bfrops_current = NULL;
        if (PMIX_SUCCESS != rc) {
            w->buf->bytes_used = mark;
            w->buf->pack_ptr = w->buf->base_ptr + mark;
        }
        return rc;
    }
    for (size_t i = 0; i < n; i++) {
        bfrops_current = t;
        pmix_status_t rc = t->pack(w, elem_at(src, i, t));
        bfrops_current = NULL;
        if (PMIX_SUCCESS != rc) {
            w->buf->bytes_used = mark;
            w->buf->pack_ptr = w->buf->base_ptr + mark;
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t drover_unpack(drover_reader_t *r, void *dest, size_t n,
                                        pmix_data_type_t type)
{
    const drover_datatype_t *t = bfrops_lookup(type);
    size_t bytes;
    if (NULL == t) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    if (NULL == r || (NULL == dest && 0 != n) || !array_bytes(n, t, &bytes)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == n) {
        return PMIX_SUCCESS;
    }
    if (n > wire_remaining(r) / t->min_wire) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (r->depth >= WIRE_MAX_DEPTH) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    memset(dest, 0, bytes);
    r->depth++;
    pmix_status_t rc = PMIX_SUCCESS;
    size_t done = 0;
    if (NULL != t->unpack_array) {
        /* The array unpacks whole or leaves everything zeroed. */
        bfrops_current = t;
        rc = t->unpack_array(r, dest, n);
        bfrops_current = NULL;
        done = n;
    }
    while (done < n && PMIX_SUCCESS == rc) {
        bfrops_current = t;
        rc = t->unpack(r, elem_at(dest, done, t));
        bfrops_current = NULL;
        if (PMIX_SUCCESS == rc) {
            done++;
        }
    }
    r->depth--;
    if (PMIX_SUCCESS != rc && NULL == t->unpack_array) {
        /* The failing element freed what it had allocated; the finished
         * ones are ours to free, and the whole array goes back to zero. */
        discard(dest, done, t, r->tma);
        memset(dest, 0, bytes);
    }
    return rc;
}

PMIX_EXPORT drover_tma_t *drover_reader_tma(drover_reader_t *r)
{
    return r->tma;
}

pmix_status_t bfrops_pack_tagged(drover_writer_t *w, const void *src, size_t n,
                                 pmix_data_type_t type)
{
    if (NULL == bfrops_lookup(type)) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    size_t mark = w->buf->bytes_used;
    pmix_status_t rc = wire_put_u16(w, type);
    if (PMIX_SUCCESS == rc) {
        rc = wire_put_count(w, n);
    }
    if (PMIX_SUCCESS == rc) {
        rc = drover_pack(w, src, n, type);
    }
    if (PMIX_SUCCESS != rc) {
        w->buf->bytes_used = mark;
        w->buf->pack_ptr = w->buf->base_ptr + mark;
    }
    return rc;
}

pmix_status_t bfrops_unpack_tagged(drover_reader_t *r, void *dest, size_t *n,
                                   pmix_data_type_t type)
{
    const drover_datatype_t *t = bfrops_lookup(type);
    if (NULL == t) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    const uint8_t *start = r->pos;
    uint16_t tag;
    size_t count = 0;
    pmix_status_t rc = wire_get_u16(r, &tag);
    if (PMIX_SUCCESS == rc && tag != type) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    }
    if (PMIX_SUCCESS == rc) {
        rc = wire_get_count(r, t->min_wire, &count);
    }
    if (PMIX_SUCCESS == rc && count > *n) {
        rc = PMIX_ERR_UNPACK_INADEQUATE_SPACE;
    }
    if (PMIX_SUCCESS == rc) {
        rc = drover_unpack(r, dest, count, type);
    }
    if (PMIX_SUCCESS != rc) {
        r->pos = start;
        return rc;
    }
    *n = count;
    return PMIX_SUCCESS;
}

pmix_status_t bfrops_unpack_tagged_alloc(drover_reader_t *r, void **dest, size_t *n,
                                         pmix_data_type_t type)
{
    const drover_datatype_t *t = bfrops_lookup(type);
    drover_reader_t peek = *r;
    uint16_t tag;
    size_t count = 0;
    void *array = NULL;
    pmix_status_t rc;

    if (NULL == t) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    /* Read the count ahead; wire_get_count has bounded it by the input's
     * size, so the allocation below is one the input justifies. */
    rc = wire_get_u16(&peek, &tag);
    if (PMIX_SUCCESS == rc && tag != type) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    }
    if (PMIX_SUCCESS == rc) {
        rc = wire_get_count(&peek, t->min_wire, &count);
    }
    if (PMIX_SUCCESS == rc && 0 < count && NULL == (array = drover_tma_calloc(r->tma, count, t->size))) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS == rc) {
        rc = bfrops_unpack_tagged(r, array, &count, type);
    }
    if (PMIX_SUCCESS != rc) {
        drover_tma_free(r->tma, array);
        return rc;
    }
    *dest = array;
    *n = count;
    return PMIX_SUCCESS;
}

pmix_status_t bfrops_copy(void *dest, const void *src, size_t n, pmix_data_type_t type,
                          drover_tma_t *tma)
{
    const drover_datatype_t *t = bfrops_lookup(type);
    size_t bytes;
    if (NULL == t) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    if ((NULL == dest || NULL == src) && 0 != n) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!array_bytes(n, t, &bytes)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == n) {
        return PMIX_SUCCESS;
    }
    if (NULL == t->copy) {
        memcpy(dest, src, bytes);
        return PMIX_SUCCESS;
    }
    memset(dest, 0, bytes);
    for (size_t i = 0; i < n; i++) {
        bfrops_current = t;
        pmix_status_t rc = t->copy(elem_at(dest, i, t), elem_at(src, i, t), tma);
        bfrops_current = NULL;
        if (PMIX_SUCCESS != rc) {
            /* The failing element freed what it had allocated. */
            discard(dest, i, t, tma);
            memset(dest, 0, bytes);
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

/* Map memcmp's sign onto the PMIx result. */
static pmix_value_cmp_t compare_bytes(const void *a, const void *b, size_t len)
{
    int c = memcmp(a, b, len);
    if (c > 0) {
        return PMIX_VALUE1_GREATER;
    }
    return c < 0 ? PMIX_VALUE2_GREATER : PMIX_EQUAL;
}

pmix_value_cmp_t bfrops_compare(const void *a, const void *b, size_t n, pmix_data_type_t type)
{
    const drover_datatype_t *t = bfrops_lookup(type);
    if (NULL == t || ((NULL == a || NULL == b) && 0 != n)) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    for (size_t i = 0; i < n; i++) {
        const void *ea = elem_at(a, i, t);
        const void *eb = elem_at(b, i, t);
        bfrops_current = t;
        pmix_value_cmp_t c = NULL == t->compare ? compare_bytes(ea, eb, t->size)
                                                : t->compare(ea, eb);
        bfrops_current = NULL;
        if (PMIX_EQUAL != c) {
            return c;
        }
    }
    return PMIX_EQUAL;
}

void bfrops_release(void *elems, size_t n, pmix_data_type_t type, drover_tma_t *tma)
{
    const drover_datatype_t *t = bfrops_lookup(type);
    size_t bytes;
    if (NULL == t || NULL == elems || !array_bytes(n, t, &bytes)) {
        return;
    }
    discard(elems, n, t, tma);
}

char *bfrops_print(const void *elem, pmix_data_type_t type)
{
    const drover_datatype_t *t = bfrops_lookup(type);
    if (NULL == t || NULL == elem) {
        return NULL;
    }
    bfrops_current = t;
    char *text = t->print(elem);
    bfrops_current = NULL;
    return text;
}

void *bfrops_value_elem(const pmix_value_t *v)
{
    const drover_datatype_t *t = bfrops_lookup(v->type);
    if (NULL == t) {
        return NULL;
    }
    if (t->flags & DROVER_DATATYPE_VALUE_INLINE) {
        return (void *)&v->data;
    }
    return v->data.ptr;
}
