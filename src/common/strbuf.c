/*
 * strbuf.c - a growing string.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static bool reserve(strbuf_t *b, size_t more)
{
    if (b->failed) {
        return false;
    }
    if (b->len + more + 1 <= b->cap) {
        return true;
    }
    size_t cap = b->cap < 64 ? 64 : b->cap;
    while (cap < b->len + more + 1) {
        cap *= 2;
    }
    char *grown = realloc(b->s, cap);
    if (NULL == grown) {
        b->failed = true;
        return false;
    }
    b->s = grown;
    b->cap = cap;
    return true;
}

void strbuf_append(strbuf_t *b, const char *s, size_t len)
{
    if (reserve(b, len)) {
        memcpy(b->s + b->len, s, len);
        b->len += len;
        b->s[b->len] = '\0';
    }
}

void strbuf_printf(strbuf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n)) {
        b->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *strbuf_finish(strbuf_t *b)
{
    char *s = b->s;
    if (b->failed) {
        free(s);
        s = NULL;
    } else if (NULL == s) {
        s = strdup("");
    }
    *b = (strbuf_t)STRBUF_INIT;
    return s;
}
