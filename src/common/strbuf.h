/*
 * strbuf.h - a growing string, for text built piece by piece. Private.
 */
#ifndef DROVER_STRBUF_H
#define DROVER_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct strbuf {
    char *s;        /* NUL-terminated, or NULL while empty */
    size_t len;
    size_t cap;
    bool failed;    /* memory ran out: s is incomplete */
} strbuf_t;

#define STRBUF_INIT {NULL, 0, 0, false}

/* Append formatted text; on failure only sets failed. */
void strbuf_printf(strbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Append len bytes of s. */
void strbuf_append(strbuf_t *b, const char *s, size_t len);

/* The string (caller frees), "" when nothing was appended; NULL when memory
 * ran out at any point, the buffer then freed. */
char *strbuf_finish(strbuf_t *b);

#endif /* DROVER_STRBUF_H */
