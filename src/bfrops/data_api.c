/*
 * data_api.c - the public PMIx_Data_* calls: packing into and unpacking
 * from data buffers, moving payloads in and out of them, copying and
 * printing single elements, compression, and data array destruction.
 *
 * Everything goes through the datatype registry (bfrops.h), so these calls
 * need no PMIx_Init, know every registered type, and speak drover's one
 * wire format whatever peer is named (the target and source arguments only
 * exist for libraries that speak several).
 *
 * Design notes:
 *  - A pmix_data_buffer_t comes from the caller and is checked before use:
 *    pack_ptr must sit at base_ptr + bytes_used, unpack_ptr inside
 *    [base_ptr, pack_ptr], and bytes_used within bytes_allocated. Unpack
 *    reads only [unpack_ptr, base_ptr + bytes_used).
 *  - A failed call changes nothing the caller can see. Pack gives the
 *    buffer its old length back (bfrops_pack_tagged); unpack decodes into
 *    scratch storage, so on failure neither the destination nor the unpack
 *    position has moved, and the scratch is sized by what the remaining
 *    input could hold, never by a count read off the wire. A type with a
 *    check function is checked whole first instead and then unpacked in
 *    place: no scratch, no copy, and the destination's bytes the type
 *    does not write (a slice's other elements) stay as they were.
 *  - Compressed blocks are [u32 uncompressed size, little-endian][zlib
 *    stream], the layout OpenPMIx uses on little-endian hosts. The size is
 *    untrusted: decompression refuses one above DECOMPRESS_LIMIT or above
 *    what zlib could possibly expand the input to, and accepts the result
 *    only if zlib produced exactly that many bytes from all of the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "bfrops.h"
#include "pmix.h"

/* Largest block PMIx_Data_decompress will produce. */
#define DECOMPRESS_LIMIT ((size_t)1 << 30)

/* Deflate cannot expand by more than this ratio (a 258-byte match costs at
 * least two bits), so a claimed size beyond it is a forgery. */
#define DEFLATE_MAX_RATIO 1032u

/* Bytes of the uncompressed-size header in front of a compressed block. */
#define COMPRESS_HEADER 4u

static bool by_value(const drover_datatype_t *t)
{
    return 0 != (t->flags & DROVER_DATATYPE_PASSED_BY_VALUE);
}

/* ---- Buffers ----------------------------------------------------------- */

/* True when buf's pointers and counts describe a consistent buffer. */
static bool buffer_ok(const pmix_data_buffer_t *buf)
{
    if (NULL == buf) {
        return false;
    }
    if (NULL == buf->base_ptr) {
        return NULL == buf->pack_ptr && NULL == buf->unpack_ptr && 0 == buf->bytes_used;
    }
    return buf->bytes_used <= buf->bytes_allocated &&
           buf->pack_ptr == buf->base_ptr + buf->bytes_used &&
           buf->unpack_ptr >= buf->base_ptr && buf->unpack_ptr <= buf->pack_ptr;
}

/* Bytes of buf not yet unpacked (buf checked). */
static size_t buffer_unread(const pmix_data_buffer_t *buf)
{
    return NULL == buf->base_ptr ? 0 : (size_t)(buf->pack_ptr - buf->unpack_ptr);
}

/* Free buf's storage and leave it empty. */
static void buffer_reset(pmix_data_buffer_t *buf)
{
    free(buf->base_ptr);
    memset(buf, 0, sizeof(*buf));
}

/* Make an empty buf own size bytes at bytes (heap), all unread. */
static void buffer_adopt(pmix_data_buffer_t *buf, char *bytes, size_t size)
{
    buf->base_ptr = bytes;
    buf->pack_ptr = bytes + size;
    buf->unpack_ptr = bytes;
    buf->bytes_allocated = size;
    buf->bytes_used = size;
}

static bool payload_ok(const pmix_byte_object_t *payload)
{
    return NULL != payload->bytes || 0 == payload->size;
}

PMIX_EXPORT pmix_status_t PMIx_Data_pack(const pmix_proc_t *target, pmix_data_buffer_t *buffer,
                                         void *src, int32_t num_vals, pmix_data_type_t type)
{
    drover_writer_t w = {.buf = buffer};

    if (!buffer_ok(buffer) || num_vals < 0 || (NULL == src && 0 < num_vals)) {
        return PMIX_ERR_BAD_PARAM;
    }
    return bfrops_pack_tagged(&w, src, (size_t)num_vals, type);
}

/* Unpack the tagged array at r into dest (room for *n elements) when every
 * element passes t's check, which promises the unpack cannot then fail. */
static pmix_status_t unpack_checked(drover_reader_t *r, const drover_datatype_t *t, void *dest,
                                    size_t *n)
{
    drover_reader_t peek = *r;
    uint16_t tag;
    size_t count = 0;
    pmix_status_t rc = wire_get_u16(&peek, &tag);
    if (PMIX_SUCCESS == rc && tag != t->id) {
        rc = PMIX_ERR_TYPE_MISMATCH;
    }
    if (PMIX_SUCCESS == rc) {
        rc = wire_get_count(&peek, t->min_wire, &count);
    }
    if (PMIX_SUCCESS == rc && count > *n) {
        rc = PMIX_ERR_UNPACK_INADEQUATE_SPACE;
    }
    drover_reader_t body = peek;
    if (PMIX_SUCCESS == rc) {
        bfrops_current = t;
        rc = t->check(&peek, count);
        bfrops_current = NULL;
    }
    if (PMIX_SUCCESS == rc && 0 < count && NULL != t->unpack_array) {
        bfrops_current = t;
        rc = t->unpack_array(&body, dest, count);
        bfrops_current = NULL;
    }
    for (size_t i = 0; i < count && PMIX_SUCCESS == rc && NULL == t->unpack_array; i++) {
        bfrops_current = t;
        rc = t->unpack(&body, (char *)dest + i * t->size);
        bfrops_current = NULL;
    }
    if (PMIX_SUCCESS == rc) {
        r->pos = body.pos;
        *n = count;
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Data_unpack(const pmix_proc_t *source, pmix_data_buffer_t *buffer,
                                           void *dest, int32_t *max_num_values,
                                           pmix_data_type_t type)
{
    const drover_datatype_t *t;
    drover_reader_t r = {.tma = NULL};
    size_t room, n;
    void *scratch = NULL;
    pmix_status_t rc;

    if (!buffer_ok(buffer) || NULL == dest || NULL == max_num_values || *max_num_values < 0) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (0 == *max_num_values) {
        return PMIX_ERR_UNPACK_INADEQUATE_SPACE;
    }
    if (NULL == (t = bfrops_lookup(type))) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    r.pos = (const uint8_t *)buffer->unpack_ptr;
    r.end = (const uint8_t *)buffer->pack_ptr;
    if (NULL != t->check) {
        n = (size_t)*max_num_values;
        rc = unpack_checked(&r, t, dest, &n);
        if (PMIX_SUCCESS == rc) {
            *max_num_values = (int32_t)n;
            buffer->unpack_ptr = (char *)r.pos;
        }
        return rc;
    }
    /* No count the input can hold exceeds remaining / min_wire elements, so
     * scratch for that many (or for the caller's maximum, if smaller) can
     * take any successful result. */
    room = wire_remaining(&r) / t->min_wire;
    if ((size_t)*max_num_values < room) {
        room = (size_t)*max_num_values;
    }
    if (0 < room && NULL == (scratch = calloc(room, t->size))) {
        return PMIX_ERR_NOMEM;
    }
    n = room;
    rc = bfrops_unpack_tagged(&r, scratch, &n, type);
    if (PMIX_SUCCESS == rc) {
        if (0 < n) {
            memcpy(dest, scratch, n * t->size);
        }
        *max_num_values = (int32_t)n;
        buffer->unpack_ptr = (char *)r.pos;
    }
    free(scratch);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Data_copy_payload(pmix_data_buffer_t *dest,
                                                 pmix_data_buffer_t *src)
{
    drover_writer_t w = {.buf = dest};

    /* Appending a buffer to itself would read bytes the growth may move. */
    if (!buffer_ok(dest) || !buffer_ok(src) || dest == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    return wire_put(&w, src->unpack_ptr, buffer_unread(src));
}

PMIX_EXPORT pmix_status_t PMIx_Data_unload(pmix_data_buffer_t *buffer,
                                           pmix_byte_object_t *payload)
{
    size_t unread;
    char *bytes;

    if (!buffer_ok(buffer) || NULL == payload) {
        return PMIX_ERR_BAD_PARAM;
    }
    unread = buffer_unread(buffer);
    if (0 == unread) {
        bytes = NULL;
        buffer_reset(buffer);
    } else if (buffer->unpack_ptr == buffer->base_ptr) {
        /* Nothing was unpacked: hand over the whole block without copying. */
        bytes = buffer->base_ptr;
        memset(buffer, 0, sizeof(*buffer));
    } else {
        if (NULL == (bytes = malloc(unread))) {
            return PMIX_ERR_NOMEM;
        }
        memcpy(bytes, buffer->unpack_ptr, unread);
        buffer_reset(buffer);
    }
    payload->bytes = bytes;
    payload->size = unread;
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Data_load(pmix_data_buffer_t *buffer, pmix_byte_object_t *payload)
{
    if (!buffer_ok(buffer) || (NULL != payload && !payload_ok(payload))) {
        return PMIX_ERR_BAD_PARAM;
    }
    buffer_reset(buffer);
    if (NULL == payload) {
        return PMIX_SUCCESS;
    }
    if (0 == payload->size) {
        free(payload->bytes);
    } else {
        buffer_adopt(buffer, payload->bytes, payload->size);
    }
    payload->bytes = NULL;
    payload->size = 0;
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Data_embed(pmix_data_buffer_t *buffer,
                                          const pmix_byte_object_t *payload)
{
    char *copy = NULL;

    if (!buffer_ok(buffer) || (NULL != payload && !payload_ok(payload))) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL != payload && 0 < payload->size) {
        if (NULL == (copy = malloc(payload->size))) {
            return PMIX_ERR_NOMEM;
        }
        memcpy(copy, payload->bytes, payload->size);
    }
    buffer_reset(buffer);
    if (NULL != copy) {
        buffer_adopt(buffer, copy, payload->size);
    }
    return PMIX_SUCCESS;
}

/* ---- Single elements --------------------------------------------------- */

PMIX_EXPORT pmix_status_t PMIx_Data_copy(void **dest, void *src, pmix_data_type_t type)
{
    const drover_datatype_t *t;
    void *cell;
    pmix_status_t rc;

    if (NULL == dest || NULL == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (t = bfrops_lookup(type))) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    /* A passed-by-value element that owns memory (a string) is copied into
     * the result itself. One that owns nothing (a pointer) is copied into a
     * new cell like any other element, as OpenPMIx does: *dest is then
     * always something the caller may free. */
    if (by_value(t) && NULL != t->release) {
        rc = bfrops_copy(&cell, &src, 1, type, NULL);
        if (PMIX_SUCCESS == rc) {
            *dest = cell;
        }
        return rc;
    }
    if (NULL == (cell = malloc(t->size))) {
        return PMIX_ERR_NOMEM;
    }
    rc = bfrops_copy(cell, src, 1, type, NULL);
    if (PMIX_SUCCESS != rc) {
        free(cell);
        return rc;
    }
    *dest = cell;
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Data_print(char **output, char *prefix, void *src,
                                          pmix_data_type_t type)
{
    const drover_datatype_t *t;
    char *text;
    int len;

    if (NULL == output || NULL == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (t = bfrops_lookup(type))) {
        return PMIX_ERR_UNKNOWN_DATA_TYPE;
    }
    if (NULL == (text = bfrops_print(by_value(t) ? (void *)&src : src, type))) {
        return PMIX_ERR_NOMEM;
    }
    /* OpenPMIx's layout, including a single space when there is no prefix,
     * so output stays familiar to those who read it. */
    len = asprintf(output, "%sData type: %s\tValue: %s", NULL == prefix ? " " : prefix, t->name,
                   text);
    free(text);
    if (len < 0) {
        *output = NULL;
        return PMIX_ERR_NOMEM;
    }
    return PMIX_SUCCESS;
}

/* Ids OpenPMIx 4.2 still names though no value of theirs can travel:
 * programs printing a type id get the same text from both libraries. */
static const char *retired_type_name(pmix_data_type_t type)
{
    switch (type) {
    case 26:
        return "PMIX_BUFFER";
    case 29:
        return "PMIX_MODEX";
    case 44:
        return "PMIX_INFO_ARRAY";
    default:
        return "UNKNOWN";
    }
}

PMIX_EXPORT const char *PMIx_Data_type_string(pmix_data_type_t type)
{
    const drover_datatype_t *t = bfrops_lookup(type);

    return NULL == t ? retired_type_name(type) : t->name;
}

PMIX_EXPORT void PMIx_Data_array_destruct(pmix_data_array_t *d)
{
    if (NULL == d) {
        return;
    }
    bfrops_release(d->array, d->size, d->type, NULL);
    free(d->array);
    d->array = NULL;
    d->size = 0;
    d->type = PMIX_UNDEF;
}

/* ---- Compression ------------------------------------------------------- */

static void put_le32(uint8_t *p, uint32_t v)
{
    for (size_t i = 0; i < 4; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

static uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

PMIX_EXPORT bool PMIx_Data_compress(const uint8_t *inbytes, size_t size, uint8_t **outbytes,
                                    size_t *nbytes)
{
    uLongf zlen;
    uint8_t *out;

    /* The header records the size in 32 bits; compressBound must not wrap
     * either, which it cannot below that size. */
    if (NULL == inbytes || NULL == outbytes || NULL == nbytes || 0 == size ||
        size >= UINT32_MAX) {
        return false;
    }
    zlen = compressBound((uLong)size);
    if (NULL == (out = malloc(COMPRESS_HEADER + zlen))) {
        return false;
    }
    if (Z_OK != compress2(out + COMPRESS_HEADER, &zlen, inbytes, (uLong)size,
                          Z_BEST_COMPRESSION) ||
        COMPRESS_HEADER + zlen >= size) {
        /* Failed, or nothing gained: the caller sends the data as it is. */
        free(out);
        return false;
    }
    put_le32(out, (uint32_t)size);
    *outbytes = out;
    *nbytes = COMPRESS_HEADER + zlen;
    return true;
}

PMIX_EXPORT bool PMIx_Data_decompress(const uint8_t *inbytes, size_t size, uint8_t **outbytes,
                                      size_t *nbytes)
{
    size_t claimed, zin;
    uLongf produced;
    uLong consumed;
    uint8_t *out;

    if (NULL == inbytes || NULL == outbytes || NULL == nbytes || size <= COMPRESS_HEADER) {
        return false;
    }
    claimed = get_le32(inbytes);
    zin = size - COMPRESS_HEADER;
    if (0 == claimed || claimed > DECOMPRESS_LIMIT || zin > SIZE_MAX / DEFLATE_MAX_RATIO ||
        claimed > zin * DEFLATE_MAX_RATIO) {
        return false;
    }
    if (NULL == (out = malloc(claimed))) {
        return false;
    }
    produced = claimed;
    consumed = zin;
    /* The stream must end exactly at the claimed size (a longer one stops
     * with Z_BUF_ERROR) and use all of the input. */
    if (Z_OK != uncompress2(out, &produced, inbytes + COMPRESS_HEADER, &consumed) ||
        produced != claimed || consumed != zin) {
        free(out);
        return false;
    }
    *outbytes = out;
    *nbytes = claimed;
    return true;
}
