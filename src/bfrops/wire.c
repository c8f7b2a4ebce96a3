/*
 * wire.c - byte cursors: appending to a data buffer, reading a byte range.
 *
 * Design notes:
 *  - A writer appends at base_ptr + bytes_used of its pmix_data_buffer_t and
 *    keeps pack_ptr equal to that point. The buffer grows by doubling with
 *    realloc, because PMIx_Data_buffer_release and the PMIX_DATA_BUFFER_*
 *    helpers free base_ptr with free(); a move rebases unpack_ptr so a
 *    buffer being packed and unpacked at once stays consistent.
 *  - A reader is a [pos, end) window over bytes it does not own. Every get
 *    checks wire_remaining first and moves pos only on success, so a failed
 *    get leaves both the reader and the output as they were.
 *  - Integers are assembled byte by byte in little-endian order; that is
 *    portable, alignment-free, and compilers turn it into a single load or
 *    store on little-endian hosts.
 *  - Lengths from the wire are checked against what remains before any
 *    allocation, so the largest block a forged length can obtain is the
 *    size of the input itself.
 */
#include <stdlib.h>
#include <string.h>

#include "wire.h"

/* Smallest allocation a writer makes, so packing a few small values does
 * not realloc for each one. */
#define WIRE_MIN_CAPACITY 64

/* Make room for len more bytes after bytes_used; PMIX_ERR_NOMEM leaves the
 * buffer untouched. */
static pmix_status_t reserve(pmix_data_buffer_t *buf, size_t len)
{
    if (buf->bytes_allocated >= buf->bytes_used &&
        len <= buf->bytes_allocated - buf->bytes_used) {
        return PMIX_SUCCESS;
    }
    if (len > SIZE_MAX - buf->bytes_used) {
        return PMIX_ERR_NOMEM;
    }
    size_t need = buf->bytes_used + len;
    size_t cap = buf->bytes_allocated < WIRE_MIN_CAPACITY ? WIRE_MIN_CAPACITY
                                                           : buf->bytes_allocated;
    while (cap < need) {
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    }
    size_t unpack_off = NULL == buf->unpack_ptr ? 0 : (size_t)(buf->unpack_ptr - buf->base_ptr);
    char *grown = realloc(buf->base_ptr, cap);
    if (NULL == grown) {
        return PMIX_ERR_NOMEM;
    }
    buf->base_ptr = grown;
    buf->unpack_ptr = grown + unpack_off;
    buf->pack_ptr = grown + buf->bytes_used;
    buf->bytes_allocated = cap;
    return PMIX_SUCCESS;
}

void *wire_append(drover_writer_t *w, size_t len)
{
    if (PMIX_SUCCESS != reserve(w->buf, len)) {
        return NULL;
    }
    void *at = w->buf->base_ptr + w->buf->bytes_used;
    w->buf->bytes_used += len;
    w->buf->pack_ptr = w->buf->base_ptr + w->buf->bytes_used;
    return at;
}

pmix_status_t wire_put(drover_writer_t *w, const void *src, size_t len)
{
    if (0 == len) {
        return PMIX_SUCCESS;
    }
    void *at = wire_append(w, len);
    if (NULL == at) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(at, src, len);
    return PMIX_SUCCESS;
}

/* Write the low width bytes of v, least significant first. */
static pmix_status_t put_le(drover_writer_t *w, uint64_t v, size_t width)
{
    uint8_t bytes[8];
    for (size_t i = 0; i < width; i++) {
        bytes[i] = (uint8_t)(v >> (8 * i));
    }
    return wire_put(w, bytes, width);
}

pmix_status_t wire_put_u8(drover_writer_t *w, uint8_t v)
{
    return wire_put(w, &v, 1);
}

pmix_status_t wire_put_u16(drover_writer_t *w, uint16_t v)
{
    return put_le(w, v, 2);
}

pmix_status_t wire_put_u32(drover_writer_t *w, uint32_t v)
{
    return put_le(w, v, 4);
}

pmix_status_t wire_put_u64(drover_writer_t *w, uint64_t v)
{
    return put_le(w, v, 8);
}

pmix_status_t wire_put_count(drover_writer_t *w, size_t n)
{
    if (n >= WIRE_NULL_LEN) {
        return PMIX_ERR_BAD_PARAM;
    }
    return wire_put_u32(w, (uint32_t)n);
}

pmix_status_t wire_put_string(drover_writer_t *w, const char *s)
{
    if (NULL == s) {
        return wire_put_u32(w, WIRE_NULL_LEN);
    }
    return wire_put_blob(w, s, strlen(s));
}

pmix_status_t wire_put_blob(drover_writer_t *w, const void *bytes, size_t len)
{
    if (NULL == bytes && 0 != len) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (len >= WIRE_NULL_LEN) {
        return PMIX_ERR_BAD_PARAM;
    }
    /* Reserve once for length and bytes so a failure cannot leave the length
     * written without its bytes. */
    pmix_status_t rc = reserve(w->buf, 4 + len);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    rc = wire_put_u32(w, (uint32_t)len);
    if (PMIX_SUCCESS == rc) {
        rc = wire_put(w, bytes, len);
    }
    return rc;
}

pmix_status_t wire_get(drover_reader_t *r, void *dest, size_t len)
{
    if (len > wire_remaining(r)) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (0 != len) {
        memcpy(dest, r->pos, len);
        r->pos += len;
    }
    return PMIX_SUCCESS;
}

/* Read width bytes, least significant first. */
static pmix_status_t get_le(drover_reader_t *r, uint64_t *v, size_t width)
{
    if (width > wire_remaining(r)) {
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    uint64_t acc = 0;
    for (size_t i = 0; i < width; i++) {
        acc |= (uint64_t)r->pos[i] << (8 * i);
    }
    r->pos += width;
    *v = acc;
    return PMIX_SUCCESS;
}

pmix_status_t wire_get_u8(drover_reader_t *r, uint8_t *v)
{
    return wire_get(r, v, 1);
}

pmix_status_t wire_get_u16(drover_reader_t *r, uint16_t *v)
{
    uint64_t wide;
    pmix_status_t rc = get_le(r, &wide, 2);
    if (PMIX_SUCCESS == rc) {
        *v = (uint16_t)wide;
    }
    return rc;
}

pmix_status_t wire_get_u32(drover_reader_t *r, uint32_t *v)
{
    uint64_t wide;
    pmix_status_t rc = get_le(r, &wide, 4);
    if (PMIX_SUCCESS == rc) {
        *v = (uint32_t)wide;
    }
    return rc;
}

pmix_status_t wire_get_u64(drover_reader_t *r, uint64_t *v)
{
    return get_le(r, v, 8);
}

pmix_status_t wire_get_count(drover_reader_t *r, size_t min_wire, size_t *n)
{
    const uint8_t *start = r->pos;
    uint32_t count;
    pmix_status_t rc = wire_get_u32(r, &count);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (WIRE_NULL_LEN == count) {
        r->pos = start;
        return PMIX_ERR_UNPACK_FAILURE;
    }
    /* Every element occupies at least min_wire bytes, so a count the
     * remaining input cannot hold is refused here, before anyone allocates
     * room for it. The division avoids overflowing count * min_wire. */
    size_t per = 0 == min_wire ? 1 : min_wire;
    if (count > wire_remaining(r) / per) {
        r->pos = start;
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    *n = count;
    return PMIX_SUCCESS;
}

/* Read a blob's length and check its bytes are all there; on success pos
 * is past the length and *len is the byte count, or WIRE_NULL_LEN. */
static pmix_status_t get_length(drover_reader_t *r, uint32_t *len)
{
    const uint8_t *start = r->pos;
    pmix_status_t rc = wire_get_u32(r, len);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (WIRE_NULL_LEN != *len && *len > wire_remaining(r)) {
        r->pos = start;
        return PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    return PMIX_SUCCESS;
}

pmix_status_t wire_get_string(drover_reader_t *r, char **s)
{
    const uint8_t *start = r->pos;
    uint32_t len;
    pmix_status_t rc = get_length(r, &len);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (WIRE_NULL_LEN == len) {
        *s = NULL;
        return PMIX_SUCCESS;
    }
    /* A NUL inside the bytes would silently cut the string short at the
     * receiver: the sender cannot have produced it from a C string. */
    if (NULL != memchr(r->pos, '\0', len)) {
        r->pos = start;
        return PMIX_ERR_UNPACK_FAILURE;
    }
    char *copy = drover_tma_malloc(r->tma, (size_t)len + 1);
    if (NULL == copy) {
        r->pos = start;
        return PMIX_ERR_NOMEM;
    }
    memcpy(copy, r->pos, len);
    copy[len] = '\0';
    r->pos += len;
    *s = copy;
    return PMIX_SUCCESS;
}

pmix_status_t wire_get_blob(drover_reader_t *r, char **bytes, size_t *len)
{
    const uint8_t *start = r->pos;
    uint32_t n;
    pmix_status_t rc = get_length(r, &n);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (WIRE_NULL_LEN == n) {
        /* wire_put_blob never writes the NULL marker. */
        r->pos = start;
        return PMIX_ERR_UNPACK_FAILURE;
    }
    char *copy = NULL;
    if (0 != n) {
        copy = drover_tma_malloc(r->tma, n);
        if (NULL == copy) {
            r->pos = start;
            return PMIX_ERR_NOMEM;
        }
        memcpy(copy, r->pos, n);
        r->pos += n;
    }
    *bytes = copy;
    *len = n;
    return PMIX_SUCCESS;
}
