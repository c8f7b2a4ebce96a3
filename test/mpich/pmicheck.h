/*
 * pmicheck.h - what the PMI test programs share: the rank in failure
 * messages, die and check.
 */
#ifndef PMICHECK_H
#define PMICHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int rank = -1;

/* Say what failed, as "FAIL rank R: ...", and exit 1. */
static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL rank %d: ", rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

#define check(ok, ...)        \
    do {                      \
        if (!(ok)) {          \
            die(__VA_ARGS__); \
        }                     \
    } while (0)

#endif /* PMICHECK_H */
