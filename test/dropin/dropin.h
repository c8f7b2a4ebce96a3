/*
 * dropin.h - the check recorder shared by the drop-in test's files.
 *
 * The drop-in test is built only against OpenPMIx's own headers and run
 * against whichever libpmix.so.2 the dynamic linker finds, so nothing here
 * may name a drover header. Each family of checks lives in its own file and
 * exposes one entry point, called in turn by main in dropin_data_api.c.
 */
#ifndef DROPIN_H
#define DROPIN_H

#include <stdbool.h>
#include <stddef.h>

#include <pmix.h>

/* The library the test was told it runs against. */
enum dropin_target {
    DROPIN_DROVER,
    DROPIN_OPENPMIX,
};

/* Set once by main before any check runs. */
extern enum dropin_target dropin_target;

/* Record one check and print "ok N - ..." or "not ok N - ...". */
void dropin_check(bool passed, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Record a check OpenPMIx 4.2.2 is known to get wrong. Against drover it is
 * an ordinary check; against OpenPMIx a failure is reported as an expected
 * one (a TAP TODO) and does not fail the run. */
void dropin_check_defect(bool passed, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print a "# ..." diagnostic line under the last check. */
void dropin_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Run fn(arg) in a child process so that a crash on hostile input becomes a
 * failed check instead of ending the test. True when the child returned
 * true; a crash or a false result prints a diagnostic naming what. */
bool dropin_isolated(const char *what, bool (*fn)(void *arg), void *arg);

/* Pack n elements of type from src into a fresh buffer and unpack them into
 * dest (room for n, zeroed by the caller). True when both calls succeed,
 * the count comes back as n and the buffer is consumed exactly; otherwise a
 * diagnostic names what failed. What dest now owns is the caller's to
 * release. */
bool dropin_roundtrip(const char *what, void *src, void *dest, int32_t n,
                      pmix_data_type_t type);

/* A fresh buffer holding n elements of type packed from src, or NULL (with
 * a diagnostic) when the pack fails. Release with PMIX_DATA_BUFFER_RELEASE. */
pmix_data_buffer_t *dropin_packed(void *src, int32_t n, pmix_data_type_t type);

/* True when s is non-NULL and contains needle. */
bool dropin_contains(const char *s, const char *needle);

/* The families of checks, each in the file of the same name. */
void dropin_scalar_checks(void);
void dropin_struct_checks(void);
void dropin_buffer_checks(void);
void dropin_hostile_checks(void);
void dropin_value_checks(void);
void dropin_string_checks(void);

#endif /* DROPIN_H */
