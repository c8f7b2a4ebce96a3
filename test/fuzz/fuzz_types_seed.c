/*
 * fuzz_types_seed.c - writes the seed corpus of fuzz_types: YAML files in
 * every form the dialect has (and some broken ones), and packed elements
 * of each declared type of the harness.
 *
 * Usage: fuzz_types_seed DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "fuzz_types.h"
#include "pmix.h"

static const char *const yaml[] = {
    FUZZ_SPEC,
    "metadata: {n: int, dims: {type: array, subtype: int, size: 2}}\n"
    "types:\n  a: {type: array, subtype: int, size: ['$dims[0]', '($n + 3) % 6'], "
    "subsize: [1, 1], start: [0, 0]}\n",
    "types:\n  r: {type: record, buffersize: 16, +doc: x, members: {p: {disp: 0, type: pointer, "
    "subtype: char}, i: {disp: 8, type: int}}}\n  t: {type: tuple, buffersize: 13, elements: "
    "[{type: char, disp: 0}, {type: int, disp: 1}, {type: double, disp: 5}]}\n",
    "types:\n  f: {type: struct, members: [{c: {type: character, kind: 4}}, {r: {type: real, "
    "kind: 8}}, {i: integer}, {l: logical}]}\n  u: {type: struct, members: [{x: uint64_t}, "
    "{y: unsigned long long}, {z: size_t}]}\n",
    ".anchors:\n  - &P {type: struct, members: [{x: double}]}\ntypes:\n  p: *P\n  q: {type: "
    "pointer, subtype: p}\n  list: {type: struct, members: [{next: {type: pointer, subtype: "
    "list}}]}\n",
    "types:\n  a: {type: aray, sizes: 3}\n  a: int\n  b: {type: array, subtype: int, size: 4, "
    "start: 3, subsize: 2}\nother: 1\n",
    "a0: &a0 [x, x, x]\na1: &a1 [*a0, *a0, *a0]\ntypes: {t: int}\n",
    "types:\n  m: {type: tuple, buffersize: 12, +lb: -8, elements: [{type: int, disp: 0}, {type: "
    "int, disp: 8}]}\n  f: {type: array, subtype: m, size: [4, 8], subsize: [2, 4], start: [1, "
    "2], order: Fortran}\n  e: {type: tuple, buffersize: 0, elements: []}\n  o: {type: array, "
    "subtype: e, size: 3, +order: fortran}\n",
};

static void write_file(const char *dir, const char *name, size_t i, unsigned char mode,
                       const void *body, size_t len)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s-%zu", dir, name, i);
    FILE *f = fopen(path, "wb");
    if (NULL == f) {
        perror(path);
        exit(1);
    }
    fwrite(&mode, 1, 1, f);
    fwrite(body, 1, len, f);
    fclose(f);
}

int main(int argc, char **argv)
{
    if (2 != argc) {
        fprintf(stderr, "usage: fuzz_types_seed DIR\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof(yaml) / sizeof(yaml[0]); i++) {
        write_file(argv[1], "yaml", i, 0, yaml[i], strlen(yaml[i]));
    }
    int64_t n = 3;
    drover_type_bind("n", &n, 1);
    if (PMIX_SUCCESS != drover_types_load_string("spec", FUZZ_SPEC, strlen(FUZZ_SPEC), 0, NULL)) {
        return 1;
    }
    /* Packed elements: the bytes of a patterned element of each type. */
    for (size_t i = 0; i + 1 < FUZZ_NTYPES; i++) {
        pmix_data_type_t id;
        if (PMIX_SUCCESS != drover_type_lookup(fuzz_type_names[i], &id)) {
            return 1;
        }
        const drover_datatype_t *t = bfrops_lookup(id);
        unsigned char *elem = calloc(1, t->size);
        for (size_t k = 0; k < t->size; k++) {
            elem[k] = (unsigned char)(k * 7 + 1);
        }
        /* Pointers NULL: patterned bytes are not addresses. */
        if (0 == strcmp(fuzz_type_names[i], "node")) {
            memset(elem + 24, 0, sizeof(void *));
        } else if (0 == strcmp(fuzz_type_names[i], "leaf")) {
            memset(elem + 8, 0, sizeof(void *));
        }
        pmix_data_buffer_t buf;
        PMIX_DATA_BUFFER_CONSTRUCT(&buf);
        drover_writer_t w = {&buf};
        if (PMIX_SUCCESS != drover_pack(&w, elem, 1, id)) {
            return 1;
        }
        unsigned char *body = malloc(buf.bytes_used + 1);
        body[0] = (unsigned char)i;
        memcpy(body + 1, buf.base_ptr, buf.bytes_used);
        write_file(argv[1], "packed", i, 1, body, buf.bytes_used + 1);
        free(body);
        free(elem);
        PMIX_DATA_BUFFER_DESTRUCT(&buf);
    }
    return 0;
}
