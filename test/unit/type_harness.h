/*
 * type_harness.h - the table-driven test every datatype goes through.
 *
 * A test file lists one sample element per datatype it covers and hands
 * the list to type_harness_tcase. For every sample the harness then checks,
 * through the registry (bfrops.h), that:
 *
 *  - pack -> unpack gives an element that compares PMIX_EQUAL to the sample,
 *    and the unpack consumes exactly the bytes the pack wrote (one element,
 *    and three copies in the tagged form PMIx_Data_pack writes);
 *  - copy gives an element that compares PMIX_EQUAL to the sample;
 *  - print gives a non-empty text;
 *  - release frees everything the unpack and the copy allocated (counted
 *    through a drover_tma_t handed to them, and checked again by ASan);
 *  - the packed bytes cut short at every length are refused with
 *    PMIX_ERR_UNPACK_READ_PAST_END_OF_BUFFER or PMIX_ERR_UNPACK_FAILURE,
 *    leaving the destination zeroed and nothing allocated;
 *  - corrupted bytes (single bit flips, 0xFFFFFFFF and 2^60 written over
 *    every offset, four 0xFF bytes inserted anywhere) never crash, never
 *    ask the allocator for a block out of proportion to the input, and
 *    whatever does unpack can be compared, printed and released cleanly.
 *
 * The coverage test fails unless every builtin type of the given kind (the
 * second column of src/bfrops/datatypes.def) has a sample in the list, so a
 * new builtin type cannot be added without its sample.
 *
 * Usage, in a Check test file:
 *
 *     static const bool flag = true;
 *     static const char *text = "hello";
 *     static const type_sample_t samples[] = {
 *         {PMIX_BOOL, &flag, "true"},
 *         {PMIX_STRING, &text, "hello"},   // the address of the char *
 *     };
 *     ...
 *     suite_add_tcase(s, type_harness_tcase("registry", samples,
 *                     sizeof(samples) / sizeof(samples[0]), TYPE_HARNESS_SCALAR));
 *
 * A type may appear in several samples (e.g. an empty and a full string).
 */
#ifndef DROVER_TEST_TYPE_HARNESS_H
#define DROVER_TEST_TYPE_HARNESS_H

#include <check.h>
#include <stddef.h>

#include "pmix_common.h"

/* Which unit test samples a builtin type: the second column of
 * src/bfrops/datatypes.def. test_types_scalar.c covers SCALAR,
 * test_types_struct.c covers STRUCT. */
typedef enum type_harness_kind {
    TYPE_HARNESS_SCALAR,
    TYPE_HARNESS_STRUCT,
} type_harness_kind_t;

/* One sample: a type and the address of one element of it. For the
 * passed-by-value types (PMIX_STRING, PMIX_POINTER, ...) that is the
 * address of the char * or void *, as for every other type. label names
 * the sample in failure messages and may be NULL. */
typedef struct type_sample {
    pmix_data_type_t type;
    const void *elem;
    const char *label;
} type_sample_t;

/* Run every check above on one sample; a failure fails the calling Check
 * test. Borrows sample. Usable directly from any test, e.g. for a datatype
 * registered at run time. */
void type_harness_check_sample(const type_sample_t *sample);

/* Fail unless every builtin type of kind has a sample among samples[0..n). */
void type_harness_check_coverage(const type_sample_t *samples, size_t n,
                                 type_harness_kind_t kind);

/* A Check test case named name holding one looped test that runs
 * type_harness_check_sample on each of samples[0..n) and one test that runs
 * type_harness_check_coverage. samples must stay valid while the suite
 * runs (use a static table). Call it once per test executable. The TCase
 * belongs to the caller until added to a suite. */
TCase *type_harness_tcase(const char *name, const type_sample_t *samples, size_t n,
                          type_harness_kind_t kind);

#endif /* DROVER_TEST_TYPE_HARNESS_H */
