/*
 * fuzz_unpack.c - libFuzzer harness for PMIx_Data_unpack and
 * PMIx_Data_decompress on arbitrary bytes.
 *
 * Input layout: [u16 selector, little-endian][body]. The selector names the
 * datatype the body is unpacked as: a registered type id is taken as is,
 * 0 (PMIX_UNDEF) means none, and any other value picks one of the
 * registered types by index, so every selector reaches some type. The body
 * is then unpacked, as a sequence of values until the first failure, as
 * the selected type and as PMIX_VALUE, PMIX_INFO and PMIX_DATA_ARRAY (the
 * containers through which any type can arrive), and handed to
 * PMIx_Data_decompress. The body goes through PMIx_Data_load of an
 * exact-size heap copy, so AddressSanitizer catches a read one byte past it.
 *
 * Beyond "no crash, no leak, no huge allocation", whatever unpacks must
 * satisfy the registry's contract, and a violation aborts (a finding):
 *  - every element prints to a non-NULL text;
 *  - a copy succeeds and compares PMIX_EQUAL to the original;
 *  - the elements pack again, the packed bytes unpack to elements that
 *    compare PMIX_EQUAL, and packing those gives the same bytes (the wire
 *    form of a value is canonical once it has been through unpack).
 * Results are released through the registry and freed, so LeakSanitizer
 * reports anything a type's release misses.
 *
 * The seed corpus comes from fuzz_seed.c; run-fuzz.sh drives both.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "pmix.h"

/* Most elements one unpack call may return, and most calls per body. */
#define MAX_ELEMS 32
#define MAX_ROUNDS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pmix_data_type_t registered[DROVER_DATATYPE_USER_MIN];
static size_t nregistered;

static void note_type(const drover_datatype_t *type, void *arg)
{
    (void)arg;
    if (nregistered < sizeof(registered) / sizeof(registered[0])) {
        registered[nregistered++] = type->id;
    }
}

/* Report a broken invariant and abort, so libFuzzer keeps the input. */
static void broken(const char *what, pmix_data_type_t type)
{
    fprintf(stderr, "fuzz_unpack: %s (type %s, %u)\n", what, PMIx_Data_type_string(type),
            (unsigned)type);
    abort();
}

/* The type a selector names; PMIX_UNDEF for none. */
static pmix_data_type_t selected_type(uint16_t selector)
{
    if (PMIX_UNDEF == selector || 0 == nregistered) {
        return PMIX_UNDEF;
    }
    if (NULL != bfrops_lookup(selector)) {
        return selector;
    }
    return registered[selector % nregistered];
}

/* A buffer owning an exact-size copy of bytes. */
static void load_copy(pmix_data_buffer_t *buf, const uint8_t *bytes, size_t len)
{
    pmix_byte_object_t payload = {NULL, len};

    PMIX_DATA_BUFFER_CONSTRUCT(buf);
    if (0 == len) {
        return;
    }
    payload.bytes = malloc(len);
    if (NULL == payload.bytes) {
        abort();
    }
    memcpy(payload.bytes, bytes, len);
    if (PMIX_SUCCESS != PMIx_Data_load(buf, &payload)) {
        broken("PMIx_Data_load refused a heap payload", PMIX_UNDEF);
    }
}

/* Pack n elements into a fresh buffer, which must succeed. */
static void pack_into(pmix_data_buffer_t *buf, void *elems, int32_t n, pmix_data_type_t type)
{
    PMIX_DATA_BUFFER_CONSTRUCT(buf);
    if (PMIX_SUCCESS != PMIx_Data_pack(NULL, buf, elems, n, type)) {
        broken("elements that unpacked do not pack again", type);
    }
}

/* Check the invariants above on n unpacked elements. */
static void exercise(void *elems, int32_t n, const drover_datatype_t *t)
{
    pmix_data_buffer_t once, twice;
    void *copy, *again;
    /* One spare slot, so the count a second unpack reports is checked
     * rather than forced (and an empty array still has room). */
    int32_t i, count = n + 1;

    for (i = 0; i < n; i++) {
        char *text = bfrops_print((char *)elems + (size_t)i * t->size, t->id);
        if (NULL == text) {
            broken("an unpacked element does not print", t->id);
        }
        free(text);
    }

    copy = calloc((size_t)n, t->size);
    again = calloc((size_t)n + 1, t->size);
    if ((NULL == copy && 0 != n) || NULL == again) {
        abort();
    }
    if (PMIX_SUCCESS != bfrops_copy(copy, elems, (size_t)n, t->id, NULL)) {
        broken("an unpacked element does not copy", t->id);
    }
    if (PMIX_EQUAL != bfrops_compare(copy, elems, (size_t)n, t->id)) {
        broken("a copy does not compare equal to its original", t->id);
    }
    bfrops_release(copy, (size_t)n, t->id, NULL);
    free(copy);

    pack_into(&once, elems, n, t->id);
    if (PMIX_SUCCESS != PMIx_Data_unpack(NULL, &once, again, &count, t->id) || count != n) {
        broken("repacked elements do not unpack", t->id);
    }
    if (PMIX_EQUAL != bfrops_compare(again, elems, (size_t)n, t->id)) {
        broken("repacked elements unpack to different values", t->id);
    }
    pack_into(&twice, again, n, t->id);
    if (once.bytes_used != twice.bytes_used ||
        0 != memcmp(once.base_ptr, twice.base_ptr, once.bytes_used)) {
        broken("packing unpacked elements twice gives different bytes", t->id);
    }
    bfrops_release(again, (size_t)n, t->id, NULL);
    free(again);
    PMIX_DATA_BUFFER_DESTRUCT(&once);
    PMIX_DATA_BUFFER_DESTRUCT(&twice);
}

/* Unpack body as a sequence of values of type until one fails. */
static void unpack_as(const uint8_t *body, size_t len, pmix_data_type_t type)
{
    const drover_datatype_t *t = bfrops_lookup(type);
    pmix_data_buffer_t buf;
    void *elems;
    int round;

    if (NULL == t) {
        return;
    }
    elems = calloc(MAX_ELEMS, t->size);
    if (NULL == elems) {
        abort();
    }
    load_copy(&buf, body, len);
    for (round = 0; round < MAX_ROUNDS; round++) {
        int32_t n = MAX_ELEMS;
        char *before = buf.unpack_ptr;
        pmix_status_t rc = PMIx_Data_unpack(NULL, &buf, elems, &n, type);

        if (PMIX_SUCCESS != rc) {
            if (buf.unpack_ptr != before) {
                broken("a failed unpack moved unpack_ptr", type);
            }
            break;
        }
        if (n < 0 || n > MAX_ELEMS) {
            broken("unpack returned more elements than asked for", type);
        }
        exercise(elems, n, t);
        bfrops_release(elems, (size_t)n, type, NULL);
        memset(elems, 0, MAX_ELEMS * t->size);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    free(elems);
}

static void decompress(const uint8_t *body, size_t len)
{
    uint8_t *out = NULL;
    size_t nout = 0;

    if (PMIx_Data_decompress(body, len, &out, &nout)) {
        if (NULL == out && 0 != nout) {
            broken("decompress reported bytes it did not return", PMIX_UNDEF);
        }
        free(out);
    } else if (NULL != out) {
        broken("a failed decompress returned bytes", PMIX_UNDEF);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pmix_data_type_t type;
    const uint8_t *body;
    size_t len;

    if (0 == nregistered) {
        bfrops_foreach(note_type, NULL);
    }
    if (size < 2) {
        return 0;
    }
    type = selected_type((uint16_t)(data[0] | data[1] << 8));
    body = data + 2;
    len = size - 2;

    unpack_as(body, len, type);
    if (PMIX_VALUE != type) {
        unpack_as(body, len, PMIX_VALUE);
    }
    if (PMIX_INFO != type) {
        unpack_as(body, len, PMIX_INFO);
    }
    if (PMIX_DATA_ARRAY != type) {
        unpack_as(body, len, PMIX_DATA_ARRAY);
    }
    decompress(body, len);
    return 0;
}
