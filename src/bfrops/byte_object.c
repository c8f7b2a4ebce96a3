/*
 * byte_object.c - the pmix_byte_object_t datatypes: PMIX_BYTE_OBJECT,
 * PMIX_COMPRESSED_STRING and PMIX_COMPRESSED_BYTE_OBJECT.
 *
 * Design notes:
 *  - All three hold a pmix_byte_object_t {bytes, size}; the compressed
 *    ones carry zlib output the caller made (PMIx_Data_compress) and are
 *    moved, copied and compared as opaque bytes like any other, so the
 *    three records differ only in name and id.
 *  - A byte object travels as a u32 byte count and the bytes. An empty
 *    object arrives with bytes NULL, whatever pointer it was sent with.
 *  - Byte objects order by size first, then by their bytes, as OpenPMIx's
 *    PMIx_Value_compare does.
 *  - Text shows the size and at most PRINT_MAX bytes in hexadecimal.
 */
#include <stdlib.h>
#include <string.h>

#include "scalar_int.h"

/* Bytes of an object shown by print; longer ones end in "...". */
#define PRINT_MAX 32

static pmix_status_t pack_bo(drover_writer_t *w, const void *elem)
{
    const pmix_byte_object_t *bo = elem;
    if (0 == bo->size) {
        return wire_put_blob(w, NULL, 0);
    }
    return wire_put_blob(w, bo->bytes, bo->size);
}

static pmix_status_t unpack_bo(drover_reader_t *r, void *elem)
{
    pmix_byte_object_t *bo = elem;
    return wire_get_blob(r, &bo->bytes, &bo->size);
}

static pmix_status_t copy_bo(void *dest, const void *src, drover_tma_t *tma)
{
    const pmix_byte_object_t *from = src;
    pmix_byte_object_t *to = dest;
    char *bytes = NULL;
    if (0 != from->size) {
        if (NULL == from->bytes) {
            return PMIX_ERR_BAD_PARAM;
        }
        bytes = drover_tma_malloc(tma, from->size);
        if (NULL == bytes) {
            return PMIX_ERR_NOMEM;
        }
        memcpy(bytes, from->bytes, from->size);
    }
    to->bytes = bytes;
    to->size = from->size;
    return PMIX_SUCCESS;
}

static pmix_value_cmp_t compare_bo(const void *a, const void *b)
{
    const pmix_byte_object_t *x = a, *y = b;
    pmix_value_cmp_t c = scalar_int_order_u64(x->size, y->size);
    if (PMIX_EQUAL != c || 0 == x->size) {
        return c;
    }
    /* A non-empty object without bytes is malformed; order it first rather
     * than read through NULL. */
    if (NULL == x->bytes || NULL == y->bytes) {
        return scalar_int_order_u64(NULL != x->bytes, NULL != y->bytes);
    }
    return scalar_int_order_s64(memcmp(x->bytes, y->bytes, x->size), 0);
}

static char *print_bo(const void *elem)
{
    const pmix_byte_object_t *bo = elem;
    size_t shown = bo->size < PRINT_MAX ? bo->size : PRINT_MAX;
    if (NULL == bo->bytes) {
        shown = 0;
    }
    /* " hh" per byte shown, then " ..." when some are left out, then NUL. */
    char hexbytes[3 * PRINT_MAX + sizeof(" ...")];
    static const char hex[] = "0123456789abcdef";
    char *out = hexbytes;
    for (size_t i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)bo->bytes[i];
        *out++ = ' ';
        *out++ = hex[c >> 4];
        *out++ = hex[c & 0xf];
    }
    if (shown < bo->size) {
        memcpy(out, " ...", 4);
        out += 4;
    }
    *out = '\0';
    return scalar_int_format("%zu bytes%s%s", bo->size, 0 == bo->size ? "" : ":", hexbytes);
}

static void release_bo(void *elem, drover_tma_t *tma)
{
    pmix_byte_object_t *bo = elem;
    drover_tma_free(tma, bo->bytes);
    bo->bytes = NULL;
    bo->size = 0;
}

/* The three records share everything but name and id. */
#define BYTE_OBJECT_RECORD(ID)                                                   \
    {                                                                            \
        .name = #ID, .id = (ID), .size = sizeof(pmix_byte_object_t), .min_wire = 4, \
        .flags = DROVER_DATATYPE_VALUE_INLINE, .pack = pack_bo, .unpack = unpack_bo, \
        .copy = copy_bo, .compare = compare_bo, .print = print_bo, .release = release_bo, \
    }

const drover_datatype_t bfrops_type_byte_object = BYTE_OBJECT_RECORD(PMIX_BYTE_OBJECT);
const drover_datatype_t bfrops_type_compressed_string =
    BYTE_OBJECT_RECORD(PMIX_COMPRESSED_STRING);
const drover_datatype_t bfrops_type_compressed_byte_object =
    BYTE_OBJECT_RECORD(PMIX_COMPRESSED_BYTE_OBJECT);
