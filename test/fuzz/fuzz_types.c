/*
 * fuzz_types.c - libFuzzer harness for declared datatypes (src/types):
 * the YAML loader on arbitrary text, and the unpack of declared types on
 * arbitrary bytes.
 *
 * Input layout: [u8 mode][body].
 *  - mode & 1 == 0: body is YAML, loaded check-only (lenient when mode & 2),
 *    as drover types check would. Nothing may crash, leak or take long:
 *    the loader's limits bound every input.
 *  - mode & 1 == 1: body is [u8 selector][bytes]: the bytes are unpacked
 *    as one array of 1 to 4 elements of the declared type the selector
 *    picks (fuzz_pick: among those of FUZZ_SPEC, a relay type included).
 *    What unpacks must print, copy to equal elements, pack to bytes that
 *    unpack to equal elements, and release cleanly (LeakSanitizer
 *    checks).
 *
 * The seed corpus comes from fuzz_types_seed.c; run-fuzz.sh drives both.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "fuzz_types.h"
#include "pmix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pmix_data_type_t types[FUZZ_NTYPES];

static void broken(const char *what, pmix_data_type_t type)
{
    fprintf(stderr, "fuzz_types: %s for type %u\n", what, (unsigned)type);
    abort();
}

static void setup(void)
{
    int64_t n = 3;
    drover_type_bind("n", &n, 1);
    if (PMIX_SUCCESS != drover_types_load_string("spec", FUZZ_SPEC, strlen(FUZZ_SPEC), 0, NULL) ||
        PMIX_SUCCESS != drover_types_load_string("relay", FUZZ_RELAY_SPEC, strlen(FUZZ_RELAY_SPEC),
                                                 DROVER_TYPES_RELAY, NULL)) {
        broken("the harness's declarations do not load", 0);
    }
    for (size_t i = 0; i < FUZZ_NTYPES; i++) {
        if (PMIX_SUCCESS != drover_type_lookup(fuzz_type_names[i], &types[i])) {
            broken("a declared type has no id", 0);
        }
    }
}

static void load_yaml(const uint8_t *body, size_t len, unsigned mode)
{
    char *errors = NULL;
    unsigned flags = DROVER_TYPES_CHECK_ONLY | (mode & 2 ? DROVER_TYPES_LENIENT : 0);
    drover_types_load_string("fuzz.yml", (const char *)body, len, flags, &errors);
    free(errors);
}

/* n elements from one array at bytes, or none. */
static size_t unpack_some(const uint8_t *bytes, size_t len, void *elems, size_t n,
                          pmix_data_type_t type)
{
    drover_reader_t r = {.pos = bytes, .end = bytes + len};
    return PMIX_SUCCESS == drover_unpack(&r, elems, n, type) ? n : 0;
}

static void exercise(void *elems, size_t n, pmix_data_type_t type)
{
    const drover_datatype_t *t = bfrops_lookup(type);
    if (0 == n) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        char *text = bfrops_print((char *)elems + i * t->size, type);
        if (NULL == text) {
            broken("print gave NULL", type);
        }
        free(text);
    }
    void *copy = calloc(n, t->size);
    if (PMIX_SUCCESS != bfrops_copy(copy, elems, n, type, NULL) ||
        PMIX_EQUAL != bfrops_compare(copy, elems, n, type)) {
        broken("a copy differs", type);
    }
    bfrops_release(copy, n, type, NULL);
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    drover_writer_t w = {&buf};
    if (PMIX_SUCCESS != drover_pack(&w, elems, n, type)) {
        broken("what unpacked does not pack", type);
    }
    memset(copy, 0, n * t->size);
    if (n != unpack_some((const uint8_t *)buf.base_ptr, buf.bytes_used, copy, n, type) ||
        PMIX_EQUAL != bfrops_compare(copy, elems, n, type)) {
        broken("a repacked element differs", type);
    }
    bfrops_release(copy, n, type, NULL);
    free(copy);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        setup();
        ready = 1;
    }
    if (size < 1) {
        return 0;
    }
    unsigned mode = data[0];
    if (0 == (mode & 1)) {
        load_yaml(data + 1, size - 1, mode);
        return 0;
    }
    if (size < 2) {
        return 0;
    }
    size_t which, count;
    fuzz_pick(data[1], &which, &count);
    pmix_data_type_t type = types[which];
    const drover_datatype_t *t = bfrops_lookup(type);
    void *elems = calloc(count, t->size);
    size_t n = unpack_some(data + 2, size - 2, elems, count, type);
    exercise(elems, n, type);
    bfrops_release(elems, n, type, NULL);
    free(elems);
    return 0;
}
