/*
 * fuzz_types.h - the declarations fuzz_types and its seeder share.
 */
#ifndef DROVER_FUZZ_TYPES_H
#define DROVER_FUZZ_TYPES_H

#include <stddef.h>

#define FUZZ_SPEC                                                                           \
    "metadata: {n: int}\n"                                                                  \
    "types:\n"                                                                              \
    "  grid: {type: struct, members: [{a: char}, {b: {type: array, subtype: int, "         \
    "size: [5, 10]}}]}\n"                                                                   \
    "  slice: {type: array, subtype: short, size: [6, 4], start: [1, 1], subsize: [3, 2]}\n" \
    "  node: {type: struct, members: [{v: {type: array, subtype: double, size: $n}}, "      \
    "{next: {type: pointer, subtype: leaf}}, {f: float}]}\n"                                \
    "  leaf: {type: tuple, elements: [char, {type: pointer, subtype: int64}]}\n"            \
    "  rec: {type: record, buffersize: 13, members: {c: {type: char, disp: 0}, "           \
    "d: {type: double, disp: 5}}}\n"

#define FUZZ_RELAY_SPEC "types: {relayed: {type: struct, members: [{x: int}, {p: {type: pointer, subtype: char}}]}}\n"

static const char *const fuzz_type_names[] = {"grid", "slice", "node", "leaf", "rec", "relayed"};
#define FUZZ_NTYPES (sizeof(fuzz_type_names) / sizeof(fuzz_type_names[0]))

/* Most elements of one unpacked array. */
#define FUZZ_MAX_ELEMS 4

/* The type (index into fuzz_type_names) and element count a selector
 * byte picks. */
static inline void fuzz_pick(unsigned selector, size_t *which, size_t *count)
{
    *which = selector % FUZZ_NTYPES;
    *count = 1 + selector / FUZZ_NTYPES % FUZZ_MAX_ELEMS;
}

#endif /* DROVER_FUZZ_TYPES_H */
