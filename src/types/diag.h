/*
 * diag.h - the errors and warnings one load or commit collects.
 *
 * Every message has the same shape, so tests can compare them as text:
 *   FILE:LINE:COL: error: KEY.PATH: one-line message
 * FILE:LINE:COL is left out for trees built through the C API (no source),
 * KEY.PATH when the problem is not inside a type. Messages keep the order
 * they were found in; after DIAG_MAX of them one last line says so.
 */
#ifndef DROVER_TYPES_DIAG_H
#define DROVER_TYPES_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Where a node came from: 1-based line and column; file NULL for the C
 * API. The file name is borrowed from whoever loaded it. */
typedef struct span {
    const char *file;
    unsigned line;
    unsigned col;
} span_t;

#define DIAG_MAX 200

typedef struct diags {
    char **lines;        /* owned */
    size_t n;
    size_t cap;
    size_t nerrors;      /* lines that are errors, not warnings */
    size_t dropped;      /* messages past DIAG_MAX */
    bool oom;            /* a message was lost for want of memory */
} diags_t;

#define DIAGS_INIT {NULL, 0, 0, 0, 0, false}

/* Add an error (or a warning); sp and path may be NULL. */
void diags_error(diags_t *d, const span_t *sp, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void diags_warn(diags_t *d, const span_t *sp, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* diags_error with a va_list. */
void diags_verror(diags_t *d, const span_t *sp, const char *path, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* All messages, one per line, each ending in '\n'; NULL when there are
 * none or memory ran out. Caller frees with free(). */
char *diags_text(const diags_t *d);

/* Free the messages; d is empty again. */
void diags_clear(diags_t *d);

/* The closest of n candidate names to word (a "did you mean"), or NULL
 * when none is close enough to be a likely misspelling. Borrowed. */
const char *diags_suggest(const char *word, const char *const *cand, size_t n);

/* An unknown key of a mapping that allows the n valid keys: the closest
 * one as a "did you mean", else the list of them. path names the key. A
 * warning ("ignored") instead of an error when warning is set. */
void diags_unknown_key(diags_t *d, bool warning, const span_t *sp, const char *path,
                       const char *what, const char *key, const char *const *valid,
                       size_t nvalid);

/* A key path being walked, "types.grid.members[2].b": push a step, and
 * restore the length push returned when leaving it. Long paths are cut. */
typedef struct path {
    char s[1024];
    size_t len;
} path_t;

size_t path_push(path_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void path_pop(path_t *p, size_t len);

#endif /* DROVER_TYPES_DIAG_H */
