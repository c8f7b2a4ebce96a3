/*
 * decode_harness.h - decoding a type in one call and rebuilding it from
 * its decoding, for the tests of drover_type_get_envelope/get_contents.
 */
#ifndef DROVER_TEST_DECODE_HARNESS_H
#define DROVER_TEST_DECODE_HARNESS_H

#include <stddef.h>
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

/* Call the constructor d's combiner names with d's contents (name NULL);
 * a refusal fails the calling Check test. */
pmix_data_type_t recreate(const decoded_t *d);

/* Fail unless id's size is size, its lb 0 and its extent extent. */
void type_bounds_are(pmix_data_type_t id, size_t size, intptr_t extent);

/* Fail unless declared types a and b have the same fingerprint,
 * signature, type map (at most 128 entries), lb and extent. */
void types_identical(pmix_data_type_t a, pmix_data_type_t b);

#endif /* DROVER_TEST_DECODE_HARNESS_H */
