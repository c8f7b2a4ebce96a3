/*
 * diag.c - collecting located messages, and "did you mean".
 *
 * Design notes:
 *  - A message that cannot be stored (memory ran out) sets oom rather
 *    than failing the caller: the load fails anyway, since nerrors counts
 *    every error whether or not its text was kept.
 *  - Suggestions use the edit distance with transpositions, accepted up to
 *    a third of the word's length (at least 1, at most 3): "sizes" finds
 *    "size", "strcut" finds "struct", "x" finds nothing.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "strbuf.h"

static void add(diags_t *d, bool warning, const span_t *sp, const char *path,
                const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));
static void add(diags_t *d, bool warning, const span_t *sp, const char *path,
                const char *fmt, va_list ap)
{
    if (!warning) {
        d->nerrors++;
    }
    if (d->n >= DIAG_MAX) {
        d->dropped++;
        return;
    }
    strbuf_t b = STRBUF_INIT;
    if (NULL != sp && NULL != sp->file) {
        strbuf_printf(&b, "%s:%u:%u: ", sp->file, sp->line, sp->col);
    }
    strbuf_printf(&b, "%s: ", warning ? "warning" : "error");
    if (NULL != path && '\0' != path[0]) {
        strbuf_printf(&b, "%s: ", path);
    }
    char *msg = NULL;
    if (vasprintf(&msg, fmt, ap) < 0) {
        msg = NULL;
    }
    if (NULL != msg) {
        strbuf_append(&b, msg, strlen(msg));
        free(msg);
    }
    char *line = strbuf_finish(&b);
    if (NULL == msg || NULL == line) {
        free(line);
        d->oom = true;
        return;
    }
    if (d->n == d->cap) {
        size_t cap = 0 == d->cap ? 8 : 2 * d->cap;
        char **v = realloc(d->lines, cap * sizeof(*v));
        if (NULL == v) {
            free(line);
            d->oom = true;
            return;
        }
        d->lines = v;
        d->cap = cap;
    }
    d->lines[d->n++] = line;
}

void diags_error(diags_t *d, const span_t *sp, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(d, false, sp, path, fmt, ap);
    va_end(ap);
}

void diags_verror(diags_t *d, const span_t *sp, const char *path, const char *fmt, va_list ap)
{
    add(d, false, sp, path, fmt, ap);
}

void diags_warn(diags_t *d, const span_t *sp, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(d, true, sp, path, fmt, ap);
    va_end(ap);
}

char *diags_text(const diags_t *d)
{
    if (0 == d->n && 0 == d->dropped) {
        return NULL;
    }
    strbuf_t b = STRBUF_INIT;
    for (size_t i = 0; i < d->n; i++) {
        strbuf_printf(&b, "%s\n", d->lines[i]);
    }
    if (0 != d->dropped) {
        strbuf_printf(&b, "error: %zu more messages not shown\n", d->dropped);
    }
    return strbuf_finish(&b);
}

void diags_clear(diags_t *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->lines[i]);
    }
    free(d->lines);
    *d = (diags_t)DIAGS_INIT;
}

/* Optimal string alignment distance, capped: names are short. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) {
        return SIZE_MAX;
    }
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++) {
        d[i][0] = i;
    }
    for (size_t j = 0; j <= lb; j++) {
        d[0][j] = j;
    }
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) {
                best = d[i][j - 1] + 1;
            }
            if (d[i - 1][j - 1] + cost < best) {
                best = d[i - 1][j - 1] + cost;
            }
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best) {
                best = d[i - 2][j - 2] + 1;
            }
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

const char *diags_suggest(const char *word, const char *const *cand, size_t n)
{
    size_t limit = strlen(word) / 3;
    limit = limit < 1 ? 1 : limit > 3 ? 3 : limit;
    const char *best = NULL;
    size_t best_d = limit + 1;
    for (size_t i = 0; i < n; i++) {
        size_t dist = distance(word, cand[i]);
        if (dist < best_d && 0 != strcmp(word, cand[i])) {
            best = cand[i];
            best_d = dist;
        }
    }
    return best;
}

void diags_unknown_key(diags_t *d, bool warning, const span_t *sp, const char *path,
                       const char *what, const char *key, const char *const *valid,
                       size_t nvalid)
{
    const char *near = diags_suggest(key, valid, nvalid);
    char hint[256] = "";
    if (NULL != near) {
        snprintf(hint, sizeof(hint), "; did you mean '%s'?", near);
    } else {
        size_t used = (size_t)snprintf(hint, sizeof(hint), " (valid:");
        for (size_t i = 0; i < nvalid && used < sizeof(hint); i++) {
            used += (size_t)snprintf(hint + used, sizeof(hint) - used, " %s", valid[i]);
        }
        if (used < sizeof(hint)) {
            snprintf(hint + used, sizeof(hint) - used, ")");
        }
    }
    if (warning) {
        diags_warn(d, sp, path, "unknown key '%s' for %s, ignored%s", key, what, hint);
    } else {
        diags_error(d, sp, path, "unknown key '%s' for %s%s", key, what, hint);
    }
}

size_t path_push(path_t *p, const char *fmt, ...)
{
    size_t old = p->len;
    if (p->len < sizeof(p->s) - 1) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(p->s + p->len, sizeof(p->s) - p->len, fmt, ap);
        va_end(ap);
        if (n > 0) {
            p->len += (size_t)n;
            if (p->len >= sizeof(p->s)) {
                p->len = sizeof(p->s) - 1;
            }
        }
    }
    return old;
}

void path_pop(path_t *p, size_t len)
{
    p->len = len;
    p->s[len] = '\0';
}
