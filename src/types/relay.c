/*
 * relay.c - declared types in a process that only stores and forwards
 * their values: a PMIx server (drover run --types), which cannot lay out
 * a type whose $-values only the ranks bind.
 *
 * Design notes:
 *  - An array of a declared type travels with one header for all its
 *    elements (docs/protocol.md). The element kept here is the element as
 *    if packed alone, header included, so packing it again gives the
 *    bytes the sender would have, and the rank that finally unpacks it
 *    checks fingerprint and shape as if it came straight from the sender.
 *  - Unpack reads the header, refuses a bound count above TYPES_MAX_SHAPE,
 *    a length the input cannot hold and arrays whose header copies would
 *    pass RELAY_MAX_HEADERS (hostile input would otherwise turn one header
 *    and a count into a header per element), and copies each element's
 *    data behind a copy of the header; it interprets nothing else.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "types.h"

/* Most bytes of header copies one relayed array may cost: its elements
 * are kept with a header each, which the wire had once (a million
 * elements of a type without $-bounds). */
#define RELAY_MAX_HEADERS ((size_t)16 << 20)

typedef struct relay {
    uint8_t *bytes;    /* the element packed alone: header, then data */
    size_t len;
    size_t head;       /* bytes of the header before its data length */
    bool sized;        /* it came with its length in front of its data */
} relay_t;

static pmix_status_t put_data(drover_writer_t *w, const relay_t *e, bool sized)
{
    pmix_status_t rc = PMIX_SUCCESS;
    if (sized) {
        rc = wire_put(w, e->bytes + e->head, 4);
    }
    return PMIX_SUCCESS == rc ? wire_put(w, e->bytes + e->head + 4, e->len - e->head - 4) : rc;
}

/* The elements go back into one array: one header, which all of them
 * must share, then their data, each with its length if one came so or
 * their lengths differ. */
static pmix_status_t relay_pack_array(drover_writer_t *w, const void *src, size_t n)
{
    const relay_t *e = src;
    bool sized = false;
    for (size_t i = 0; i < n; i++) {
        if (NULL == e[i].bytes || e[i].len < e[i].head + 4) {
            return PMIX_ERR_BAD_PARAM;   /* an element never unpacked */
        }
        if (e[i].head != e[0].head || 0 != memcmp(e[i].bytes, e[0].bytes, e[0].head)) {
            return PMIX_ERR_TYPE_MISMATCH;
        }
        sized = sized || e[i].sized || e[i].len != e[0].len;
    }
    /* The length field as its wire bytes: each element's own, or the mark. */
    uint32_t fixed = GENERIC_EACH_ITS_OWN;
    if (!sized) {
        memcpy(&fixed, e[0].bytes + e[0].head, 4);
    }
    pmix_status_t rc = wire_put(w, e[0].bytes, e[0].head);
    if (PMIX_SUCCESS == rc) {
        rc = wire_put(w, &fixed, 4);
    }
    for (size_t i = 0; i < n && PMIX_SUCCESS == rc; i++) {
        rc = put_data(w, &e[i], sized);
    }
    return rc;
}

static pmix_status_t relay_pack(drover_writer_t *w, const void *elem)
{
    return relay_pack_array(w, elem, 1);
}

/* One element of len bytes at r, behind the array's header hdr (head
 * bytes), kept as if packed alone. */
static pmix_status_t keep(drover_reader_t *r, const uint8_t *hdr, size_t head, uint32_t len,
                          bool sized, relay_t *e)
{
    e->bytes = drover_tma_malloc(r->tma, head + 4 + (size_t)len);
    if (NULL == e->bytes) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(e->bytes, hdr, head);
    for (unsigned i = 0; i < 4; i++) {
        e->bytes[head + i] = (uint8_t)(len >> (8 * i));
    }
    e->head = head;
    e->sized = sized;
    e->len = head + 4 + (size_t)len;
    return wire_get(r, e->bytes + head + 4, len);
}

static void relay_release(void *elem, drover_tma_t *tma);

static pmix_status_t relay_unpack_array(drover_reader_t *r, void *dest, size_t n)
{
    relay_t *e = dest;
    const uint8_t *hdr = r->pos;
    uint64_t fp, bound;
    uint32_t k, fixed = 0, len = 0;
    pmix_status_t rc = wire_get_u64(r, &fp);
    if (PMIX_SUCCESS == rc) {
        rc = wire_get_u32(r, &k);
    }
    if (PMIX_SUCCESS == rc && k > TYPES_MAX_SHAPE) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    }
    for (uint32_t i = 0; PMIX_SUCCESS == rc && i < k; i++) {
        rc = wire_get_u64(r, &bound);
    }
    size_t head = (size_t)(r->pos - hdr);
    if (PMIX_SUCCESS == rc) {
        rc = wire_get_u32(r, &fixed);
    }
    if (PMIX_SUCCESS == rc && n > RELAY_MAX_HEADERS / (head + 4)) {
        rc = PMIX_ERR_OUT_OF_RESOURCE;
    }
    size_t done = 0;
    for (; done < n && PMIX_SUCCESS == rc; done++) {
        len = fixed;
        if (GENERIC_EACH_ITS_OWN == fixed) {
            rc = wire_get_u32(r, &len);
        }
        if (PMIX_SUCCESS == rc && (GENERIC_EACH_ITS_OWN == len || len > wire_remaining(r))) {
            rc = PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
        }
        if (PMIX_SUCCESS == rc) {
            rc = keep(r, hdr, head, len, GENERIC_EACH_ITS_OWN == fixed, &e[done]);
        }
    }
    if (PMIX_SUCCESS != rc) {
        for (size_t i = 0; i < done; i++) {
            relay_release(&e[i], r->tma);
        }
        memset(dest, 0, n * sizeof(relay_t));
    }
    return rc;
}

static pmix_status_t relay_unpack(drover_reader_t *r, void *elem)
{
    return relay_unpack_array(r, elem, 1);
}

static pmix_status_t relay_copy(void *dest, const void *src, drover_tma_t *tma)
{
    const relay_t *from = src;
    relay_t *to = dest;
    to->bytes = drover_tma_malloc(tma, 0 == from->len ? 1 : from->len);
    if (NULL == to->bytes) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(to->bytes, from->bytes, from->len);
    to->len = from->len;
    to->head = from->head;
    to->sized = from->sized;
    return PMIX_SUCCESS;
}

static pmix_value_cmp_t relay_compare(const void *a, const void *b)
{
    const relay_t *x = a, *y = b;
    if (x->len != y->len) {
        return x->len > y->len ? PMIX_VALUE1_GREATER : PMIX_VALUE2_GREATER;
    }
    int c = 0 == x->len ? 0 : memcmp(x->bytes, y->bytes, x->len);
    return c > 0 ? PMIX_VALUE1_GREATER : c < 0 ? PMIX_VALUE2_GREATER : PMIX_EQUAL;
}

static char *relay_print(const void *elem)
{
    const relay_t *e = elem;
    char *s = NULL;
    if (asprintf(&s, "(%zu packed bytes, relayed unread)", e->len) < 0) {
        s = NULL;
    }
    return s;
}

static void relay_release(void *elem, drover_tma_t *tma)
{
    relay_t *e = elem;
    drover_tma_free(tma, e->bytes);
    e->bytes = NULL;
    e->len = e->head = 0;
    e->sized = false;
}

drover_datatype_t relay_record(const named_t *nt)
{
    return (drover_datatype_t){
        .name = nt->name,
        .id = nt->id,
        .size = sizeof(relay_t),
        .min_wire = 1,
        .flags = 0,
        .pack = relay_pack,
        .unpack = relay_unpack,
        .copy = relay_copy,
        .compare = relay_compare,
        .print = relay_print,
        .release = relay_release,
        .pack_array = relay_pack_array,
        .unpack_array = relay_unpack_array,
    };
}
