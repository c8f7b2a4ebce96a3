/*
 * darray.c - the container datatypes: PMIX_DATA_ARRAY and PMIX_DATA_BUFFER.
 *
 * Design notes:
 *  - A data array travels as its element type (a PMIX_DATA_TYPE), then a
 *    counted array of elements of that type, each through the registry, so
 *    any registered type can be an element, data arrays included. How deep
 *    such nesting may go on input is bounded once, in drover_unpack; the
 *    count is checked against the bytes left before anything is
 *    allocated. A NULL array and a zero size are the same.
 *  - An unregistered element type is fine with no elements (the static
 *    initialiser's PMIX_UNDEF array) and an error otherwise.
 *  - A data buffer travels as the bytes not yet unpacked from it, as one
 *    blob: what was already read is gone as far as the receiver is
 *    concerned. The unpacked buffer holds exactly those bytes, ready to be
 *    unpacked from its start.
 */
#include <string.h>

#include "fields.h"

/* ---- PMIX_DATA_ARRAY --------------------------------------------------------- */

static pmix_status_t darray_pack(drover_writer_t *w, const void *elem)
{
    const pmix_data_array_t *da = elem;
    pmix_status_t rc;

    rc = drover_pack(w, &da->type, 1, PMIX_DATA_TYPE);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    return fields_put_array(w, da->array, da->size, da->type);
}

static pmix_status_t darray_unpack(drover_reader_t *r, void *elem)
{
    pmix_data_array_t *da = elem;
    pmix_status_t rc;

    rc = drover_unpack(r, &da->type, 1, PMIX_DATA_TYPE);
    if (PMIX_SUCCESS == rc) {
        rc = fields_get_array(r, &da->array, &da->size, da->type);
    }
    if (PMIX_SUCCESS != rc) {
        memset(da, 0, sizeof(*da));
    }
    return rc;
}

static pmix_status_t darray_copy(void *dest, const void *src, drover_tma_t *tma)
{
    pmix_data_array_t *d = dest;
    const pmix_data_array_t *s = src;
    pmix_status_t rc;

    memset(d, 0, sizeof(*d));
    rc = fields_copy_array(&d->array, s->array, s->size, s->type, tma);
    if (PMIX_SUCCESS == rc) {
        d->type = s->type;
        d->size = NULL == d->array ? 0 : s->size;
    }
    return rc;
}

static pmix_value_cmp_t darray_compare(const void *a, const void *b)
{
    const pmix_data_array_t *da = a, *db = b;

    if (da->type != db->type) {
        return PMIX_VALUE_TYPE_DIFFERENT;
    }
    return fields_compare_array(da->array, da->size, db->array, db->size, da->type);
}

static char *darray_print(const void *elem)
{
    const pmix_data_array_t *da = elem;
    fields_text_t t;

    fields_text_open(&t);
    fields_text_printf(&t, "{type=");
    fields_text_elem(&t, &da->type, PMIX_DATA_TYPE);
    fields_text_printf(&t, ", size=%zu, array=", NULL == da->array ? 0 : da->size);
    fields_text_array(&t, da->array, da->size, da->type);
    fields_text_printf(&t, "}");
    return fields_text_close(&t);
}

static void darray_release(void *elem, drover_tma_t *tma)
{
    pmix_data_array_t *da = elem;

    fields_free_array(da->array, da->size, da->type, tma);
    memset(da, 0, sizeof(*da));
}

const drover_datatype_t bfrops_type_data_array = {
    .name = "PMIX_DATA_ARRAY",
    .id = PMIX_DATA_ARRAY,
    .size = sizeof(pmix_data_array_t),
    .min_wire = 6,
    .pack = darray_pack,
    .unpack = darray_unpack,
    .copy = darray_copy,
    .compare = darray_compare,
    .print = darray_print,
    .release = darray_release,
};

/* ---- PMIX_DATA_BUFFER ---------------------------------------------------- */

/* The bytes of b not yet unpacked: from unpack_ptr (the start when unset)
 * to the end of what was packed. Pointers outside the buffer count as
 * nothing left rather than as a reason to read elsewhere. */
static size_t unread(const pmix_data_buffer_t *b, const char **start)
{
    const char *from, *end;

    *start = NULL;
    if (NULL == b->base_ptr) {
        return 0;
    }
    from = NULL == b->unpack_ptr ? b->base_ptr : b->unpack_ptr;
    end = b->base_ptr + b->bytes_used;
    if (from < b->base_ptr || from >= end) {
        return 0;
    }
    *start = from;
    return (size_t)(end - from);
}

/* Makes b hold exactly the len bytes at bytes, which it takes over. */
static void adopt(pmix_data_buffer_t *b, char *bytes, size_t len)
{
    b->base_ptr = bytes;
    b->unpack_ptr = bytes;
    b->pack_ptr = NULL == bytes ? NULL : bytes + len;
    b->bytes_allocated = len;
    b->bytes_used = len;
}

static pmix_status_t dbuf_pack(drover_writer_t *w, const void *elem)
{
    const char *start;
    size_t len = unread(elem, &start);

    return wire_put_blob(w, start, len);
}

static pmix_status_t dbuf_unpack(drover_reader_t *r, void *elem)
{
    char *bytes;
    size_t len;
    pmix_status_t rc;

    rc = wire_get_blob(r, &bytes, &len);
    if (PMIX_SUCCESS == rc) {
        adopt(elem, bytes, len);
    }
    return rc;
}

static pmix_status_t dbuf_copy(void *dest, const void *src, drover_tma_t *tma)
{
    const char *start;
    size_t len = unread(src, &start);
    char *bytes = NULL;

    memset(dest, 0, sizeof(pmix_data_buffer_t));
    if (len > 0) {
        bytes = drover_tma_malloc(tma, len);
        if (NULL == bytes) {
            return PMIX_ERR_NOMEM;
        }
        memcpy(bytes, start, len);
    }
    adopt(dest, bytes, len);
    return PMIX_SUCCESS;
}

static pmix_value_cmp_t dbuf_compare(const void *a, const void *b)
{
    const char *sa, *sb;
    size_t la = unread(a, &sa), lb = unread(b, &sb);
    int c;

    if (la != lb || 0 == la) {
        return fields_order(la, lb);
    }
    c = memcmp(sa, sb, la);
    return fields_order(c > 0, c < 0);
}

static char *dbuf_print(const void *elem)
{
    const char *start;
    size_t len = unread(elem, &start), i;
    fields_text_t t;

    /* The first bytes in hex are enough to recognise a payload. */
    fields_text_open(&t);
    fields_text_printf(&t, "{unread=%zu bytes", len);
    for (i = 0; i < len && i < 16; i++) {
        fields_text_printf(&t, "%s%02x", 0 == i ? ": " : " ", (unsigned char)start[i]);
    }
    fields_text_printf(&t, "%s}", len > 16 ? " ..." : "");
    return fields_text_close(&t);
}

static void dbuf_release(void *elem, drover_tma_t *tma)
{
    pmix_data_buffer_t *b = elem;

    drover_tma_free(tma, b->base_ptr);
    memset(b, 0, sizeof(*b));
}

const drover_datatype_t bfrops_type_data_buffer = {
    .name = "PMIX_DATA_BUFFER",
    .id = PMIX_DATA_BUFFER,
    .size = sizeof(pmix_data_buffer_t),
    .min_wire = 4,
    .pack = dbuf_pack,
    .unpack = dbuf_unpack,
    .copy = dbuf_copy,
    .compare = dbuf_compare,
    .print = dbuf_print,
    .release = dbuf_release,
};
