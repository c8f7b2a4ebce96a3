/*
 * wire.h - the byte-level cursors under every datatype's pack and unpack.
 *
 * A writer appends to a pmix_data_buffer_t, growing it as needed. A reader
 * walks [pos, end) of bytes it does not own and never reads past end: every
 * get checks the remaining length first. Integers travel little-endian at
 * fixed width whatever the host; docs/protocol.md is the reference.
 *
 * Counts and lengths that come off the wire are untrusted: wire_get_count
 * and wire_get_blob refuse a value the remaining input cannot possibly hold,
 * so a forged length never turns into a large allocation.
 */
#ifndef DROVER_BFROPS_WIRE_H
#define DROVER_BFROPS_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "drover.h"
#include "pmix_common.h"

struct drover_writer {
    pmix_data_buffer_t *buf;
};

struct drover_reader {
    const uint8_t *pos;
    const uint8_t *end;
    drover_tma_t *tma;   /* where unpacked elements allocate; NULL: heap */
    unsigned depth;      /* nesting of drover_unpack calls, bounded */
};

/* Deepest nesting of values inside values that unpack accepts. */
#define WIRE_MAX_DEPTH 32

/* Length value that marks a NULL string or blob on the wire. */
#define WIRE_NULL_LEN UINT32_MAX

/* Writers: append; PMIX_ERR_NOMEM if the buffer cannot grow. */
pmix_status_t wire_put(drover_writer_t *w, const void *src, size_t len);
/* Room for len > 0 bytes at the end, which the caller fills at once;
 * NULL if the buffer cannot grow (nothing changed then). */
void *wire_append(drover_writer_t *w, size_t len);
pmix_status_t wire_put_u8(drover_writer_t *w, uint8_t v);
pmix_status_t wire_put_u16(drover_writer_t *w, uint16_t v);
pmix_status_t wire_put_u32(drover_writer_t *w, uint32_t v);
pmix_status_t wire_put_u64(drover_writer_t *w, uint64_t v);
/* A count of elements or bytes: PMIX_ERR_BAD_PARAM above UINT32_MAX - 1. */
pmix_status_t wire_put_count(drover_writer_t *w, size_t n);
/* A string, NULL allowed (kept distinct from ""). */
pmix_status_t wire_put_string(drover_writer_t *w, const char *s);
/* len bytes; bytes may be NULL only when len is 0. */
pmix_status_t wire_put_blob(drover_writer_t *w, const void *bytes, size_t len);

/* Readers: PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER when the input is too
 * short, PMIX_ERR_UNPACK_FAILURE when it is malformed. On failure the
 * output is untouched and nothing is allocated. */
pmix_status_t wire_get(drover_reader_t *r, void *dest, size_t len);
pmix_status_t wire_get_u8(drover_reader_t *r, uint8_t *v);
pmix_status_t wire_get_u16(drover_reader_t *r, uint16_t *v);
pmix_status_t wire_get_u32(drover_reader_t *r, uint32_t *v);
pmix_status_t wire_get_u64(drover_reader_t *r, uint64_t *v);
/* A count of elements each occupying at least min_wire bytes: refused
 * unless n * min_wire bytes remain. */
pmix_status_t wire_get_count(drover_reader_t *r, size_t min_wire, size_t *n);
/* A string allocated through r->tma (NULL stays NULL). */
pmix_status_t wire_get_string(drover_reader_t *r, char **s);
/* A blob allocated through r->tma; *bytes is NULL when *len is 0. */
pmix_status_t wire_get_blob(drover_reader_t *r, char **bytes, size_t *len);

/* Bytes left to read. */
static inline size_t wire_remaining(const drover_reader_t *r)
{
    return (size_t)(r->end - r->pos);
}

#endif /* DROVER_BFROPS_WIRE_H */
