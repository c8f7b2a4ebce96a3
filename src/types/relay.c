/*
 * relay.c - declared types in a process that only stores and forwards
 * their values: a PMIx server (drover run --types), which cannot lay out
 * a type whose $-values only the ranks bind.
 *
 * Design notes:
 *  - The element is the packed element itself, header included, so
 *    packing it again gives the same bytes and the rank that finally
 *    unpacks it checks fingerprint and shape as if it came straight from
 *    the sender.
 *  - Unpack reads the header to find the data's length, refuses a bound
 *    count above TYPES_MAX_SHAPE and a length the input cannot hold, and
 *    copies the bytes; it interprets nothing else.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "types.h"

typedef struct relay {
    uint8_t *bytes;    /* the packed element */
    size_t len;
} relay_t;

static pmix_status_t relay_pack(drover_writer_t *w, const void *elem)
{
    const relay_t *e = elem;
    return wire_put(w, e->bytes, e->len);
}

static pmix_status_t relay_unpack(drover_reader_t *r, void *elem)
{
    relay_t *e = elem;
    drover_reader_t peek = *r;
    uint64_t fp, bound;
    uint32_t k, len = 0;
    pmix_status_t rc = wire_get_u64(&peek, &fp);
    if (PMIX_SUCCESS == rc) {
        rc = wire_get_u32(&peek, &k);
    }
    if (PMIX_SUCCESS == rc && k > TYPES_MAX_SHAPE) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    }
    for (uint32_t i = 0; PMIX_SUCCESS == rc && i < k; i++) {
        rc = wire_get_u64(&peek, &bound);
    }
    if (PMIX_SUCCESS == rc) {
        rc = wire_get_u32(&peek, &len);
    }
    if (PMIX_SUCCESS == rc && len > wire_remaining(&peek)) {
        rc = PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER;
    }
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    size_t total = (size_t)(peek.pos - r->pos) + len;
    e->bytes = drover_tma_malloc(r->tma, total);
    if (NULL == e->bytes) {
        return PMIX_ERR_NOMEM;
    }
    e->len = total;
    return wire_get(r, e->bytes, total);
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
    e->len = 0;
}

drover_datatype_t relay_record(const named_t *nt)
{
    return (drover_datatype_t){
        .name = nt->name,
        .id = nt->id,
        .size = sizeof(relay_t),
        .min_wire = GENERIC_HEADER,
        .flags = 0,
        .pack = relay_pack,
        .unpack = relay_unpack,
        .copy = relay_copy,
        .compare = relay_compare,
        .print = relay_print,
        .release = relay_release,
    };
}
