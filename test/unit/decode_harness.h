/*
 * decode_harness.h - decoding a type in one call and rebuilding it from
 * its decoding, for the tests of drover_type_get_envelope/get_contents.
 */
#ifndef DROVER_TEST_DECODE_HARNESS_H
#define DROVER_TEST_DECODE_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "pmix_common.h"

/* A type's envelope and contents. */
typedef struct decoded {
    int ni, na, nd, combiner;
    int ints[64];
    intptr_t addrs[16];
    pmix_data_type_t types[16];
} decoded_t;

/* Decode id; a failure fails the calling Check test. */
decoded_t decode(pmix_data_type_t id);

/* Fail unless d's integers are want[0..n). */
void ints_are(const decoded_t *d, int n, const int *want);

/* Fail unless a and b have the same combiner, counts, integers and
 * addresses (their datatypes are for the caller to compare). */
void same_call(const decoded_t *a, const decoded_t *b);

/* Fail unless a and b answer alike everything MPI can ask of a type: size,
 * lb, extent, true lb and extent, type map; and, when fingerprints is
 * true, are the same declared type (signature and fingerprint). */
void identical(pmix_data_type_t a, pmix_data_type_t b, bool fingerprints);

/* Fail unless id's size, lb, extent, true lb and true extent are these. */
void bounds_are(pmix_data_type_t id, size_t size, intptr_t lb, intptr_t extent, intptr_t true_lb,
                intptr_t true_extent);

/* Fail unless id's type map has n entries at displacements disps, all of
 * basic type basic (0: any). */
void map_is(pmix_data_type_t id, pmix_data_type_t basic, size_t n, const intptr_t *disps);

/* decode -> recreate -> decode of id gives the same call, the same
 * datatypes (by id, or by fingerprint for parts declared anew) and the
 * identical type (but the fingerprint for a $-sized type, which rebuilds
 * with fixed sizes); the same for the parts it decodes into, down to depth
 * levels. */
void rebuilds_identically(pmix_data_type_t id, int depth);

/* rebuilds_identically, then a value of id (at value) through the
 * registry harness: pack, unpack, copy, compare, print, release. */
void rebuilds_and_travels(pmix_data_type_t id, const void *value);

/* Call the constructor d's combiner names with d's contents (name NULL);
 * a refusal fails the calling Check test. */
pmix_data_type_t recreate(const decoded_t *d);

#endif /* DROVER_TEST_DECODE_HARNESS_H */
