/*
 * trace_read.c - read a trace-event JSON file (what `drover run --trace`
 *                writes) back into its events, for `drover trace summary`.
 *
 * Design notes:
 *  - A small strict JSON reader: the whole file is read, every value is
 *    checked, and only the members a summary needs are kept (name, ph,
 *    pid, tid, ts, dur, and a metadata event's args.name); the rest is
 *    parsed and skipped. Both forms of the format are taken: an object
 *    holding "traceEvents", or the bare array of events.
 *  - The first mistake ends the reading with a message naming the line
 *    and column, so that a file that is not a trace is refused in one
 *    line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launcher.h"

/* Nesting deeper than this is refused rather than recursed into. */
#define MAX_DEPTH 64

typedef struct reader {
    const char *text, *p, *end;
    char error[160];
    trace_events_t *out;
} reader_t;

static bool fail(reader_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(reader_t *r, const char *fmt, ...)
{
    if ('\0' != r->error[0]) {
        return false;
    }
    unsigned line = 1, col = 1;
    for (const char *q = r->text; q < r->p; q++) {
        if ('\n' == *q) {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    int len = snprintf(r->error, sizeof(r->error), "line %u, column %u: ", line, col);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->error + len, sizeof(r->error) - (size_t)len, fmt, ap);
    va_end(ap);
    return false;
}

static void skip_ws(reader_t *r)
{
    while (r->p < r->end && (' ' == *r->p || '\t' == *r->p || '\n' == *r->p || '\r' == *r->p)) {
        r->p++;
    }
}

static bool expect(reader_t *r, char c)
{
    skip_ws(r);
    if (r->p >= r->end || *r->p != c) {
        return fail(r, "expected '%c'", c);
    }
    r->p++;
    return true;
}

/* A string; its text (escapes kept as they are, enough for names) goes to
 * buf when buf is not NULL. */
static bool string(reader_t *r, char *buf, size_t size)
{
    if (!expect(r, '"')) {
        return false;
    }
    size_t n = 0;
    while (r->p < r->end && '"' != *r->p) {
        if ((unsigned char)*r->p < 0x20) {
            return fail(r, "control character in a string");
        }
        if ('\\' == *r->p && ++r->p >= r->end) {
            break;
        }
        if (NULL != buf && n + 1 < size) {
            buf[n++] = *r->p;
        }
        r->p++;
    }
    if (r->p >= r->end) {
        return fail(r, "unterminated string");
    }
    r->p++;
    if (NULL != buf) {
        buf[n] = '\0';
    }
    return true;
}

static bool number(reader_t *r, double *v)
{
    skip_ws(r);
    char *stop;
    errno = 0;
    double d = strtod(r->p, &stop);
    if (stop == r->p || stop > r->end || 0 != errno ||
        !('-' == *r->p || isdigit((unsigned char)*r->p))) {
        return fail(r, "expected a number");
    }
    r->p = stop;
    if (NULL != v) {
        *v = d;
    }
    return true;
}

static bool value(reader_t *r, int depth);

/* The members of an object (fn gets each key) or the elements of an
 * array (key NULL): fn reads each value. */
typedef bool (*item_fn)(reader_t *r, const char *key, void *ctx);

static bool items(reader_t *r, bool object, item_fn fn, void *ctx)
{
    char close = object ? '}' : ']';
    if (!expect(r, object ? '{' : '[')) {
        return false;
    }
    skip_ws(r);
    if (r->p < r->end && close == *r->p) {
        r->p++;
        return true;
    }
    for (;;) {
        char key[32];
        if (object && !(string(r, key, sizeof(key)) && expect(r, ':'))) {
            return false;
        }
        if (!fn(r, object ? key : NULL, ctx)) {
            return false;
        }
        skip_ws(r);
        if (r->p < r->end && ',' == *r->p) {
            r->p++;
            continue;
        }
        return expect(r, close);
    }
}

/* A value nobody needs, one level below *ctx. */
static bool skip_item(reader_t *r, const char *key, void *ctx)
{
    return value(r, *(int *)ctx + 1);
}

static bool container(reader_t *r, int depth, bool object)
{
    if (depth > MAX_DEPTH) {
        return fail(r, "nested too deeply");
    }
    return items(r, object, skip_item, &depth);
}

static bool word(reader_t *r, const char *w)
{
    size_t len = strlen(w);
    if ((size_t)(r->end - r->p) < len || 0 != strncmp(r->p, w, len)) {
        return fail(r, "not a JSON value");
    }
    r->p += len;
    return true;
}

static bool value(reader_t *r, int depth)
{
    skip_ws(r);
    if (r->p >= r->end) {
        return fail(r, "unexpected end of the file");
    }
    switch (*r->p) {
    case '{':
        return container(r, depth, true);
    case '[':
        return container(r, depth, false);
    case '"':
        return string(r, NULL, 0);
    case 't':
        return word(r, "true");
    case 'f':
        return word(r, "false");
    case 'n':
        return word(r, "null");
    default:
        return number(r, NULL);
    }
}

/* A metadata event's args: only "name" is kept. */
static bool arg(reader_t *r, const char *key, void *ctx)
{
    trace_event_t *ev = ctx;
    skip_ws(r);
    if (0 == strcmp(key, "name") && r->p < r->end && '"' == *r->p) {
        return string(r, ev->label, sizeof(ev->label));
    }
    return value(r, 2);
}

static bool member(reader_t *r, const char *key, void *ctx)
{
    trace_event_t *ev = ctx;
    double d;
    char ph[8];
    if (0 == strcmp(key, "name")) {
        return string(r, ev->name, sizeof(ev->name));
    }
    if (0 == strcmp(key, "ph")) {
        if (!string(r, ph, sizeof(ph))) {
            return false;
        }
        ev->ph = ph[0];
        return true;
    }
    if (0 == strcmp(key, "args")) {
        skip_ws(r);
        return r->p < r->end && '{' == *r->p ? items(r, true, arg, ev) : value(r, 2);
    }
    double *slot = 0 == strcmp(key, "ts") ? &ev->ts : 0 == strcmp(key, "dur") ? &ev->dur : NULL;
    bool id = 0 == strcmp(key, "pid") || 0 == strcmp(key, "tid");
    if (NULL == slot && !id) {
        return value(r, 2);
    }
    skip_ws(r);
    if (id && r->p < r->end && '"' == *r->p) {
        return string(r, NULL, 0); /* a string id: no rank of ours */
    }
    if (!number(r, &d)) {
        return false;
    }
    if (NULL != slot) {
        *slot = d;
    } else if ('p' == key[0]) {
        ev->pid = (long)d;
    } else {
        ev->tid = (long)d;
    }
    return true;
}

static bool event(reader_t *r, const char *key, void *ctx)
{
    trace_event_t ev = {.pid = -1, .tid = -1, .dur = -1};
    skip_ws(r);
    if (r->p >= r->end || '{' != *r->p) {
        return fail(r, "an event must be an object");
    }
    if (!items(r, true, member, &ev)) {
        return false;
    }
    trace_events_t *out = r->out;
    if (out->n == out->cap) {
        size_t cap = 0 == out->cap ? 256 : 2 * out->cap;
        trace_event_t *grown = realloc(out->events, cap * sizeof(*grown));
        if (NULL == grown) {
            return fail(r, "out of memory");
        }
        out->events = grown;
        out->cap = cap;
    }
    out->events[out->n++] = ev;
    return true;
}

static bool events(reader_t *r)
{
    return items(r, false, event, NULL);
}

/* A member of the top-level object: the events, or skipped. */
static bool top_member(reader_t *r, const char *key, void *ctx)
{
    if (0 != strcmp(key, "traceEvents")) {
        return value(r, 1);
    }
    *(bool *)ctx = true;
    return events(r);
}

static bool document(reader_t *r)
{
    bool found = false;
    skip_ws(r);
    if (r->p < r->end && '[' == *r->p) {
        found = events(r);
    } else if (!items(r, true, top_member, &found)) {
        return false;
    } else if (!found) {
        return fail(r, "no \"traceEvents\" in the object");
    }
    skip_ws(r);
    if (found && r->p != r->end) {
        return fail(r, "more after the trace");
    }
    return found;
}

int trace_read(const char *path, trace_events_t *out, char *why, size_t size)
{
    *out = (trace_events_t){0};
    FILE *f = fopen(path, "re");
    char *text = NULL;
    size_t cap = 0;
    ssize_t len = NULL == f ? -1 : getdelim(&text, &cap, '\0', f);
    int err = errno;
    if (NULL != f) {
        fclose(f);
    }
    if (NULL == f || (len >= 0 && (size_t)len != strlen(text))) {
        snprintf(why, size, "%s", NULL == f ? strerror(err) : "not a text file");
        free(text);
        return -1;
    }
    if (len < 0) {
        len = 0; /* empty */
    }
    reader_t r = {.text = NULL != text ? text : "", .out = out};
    r.p = r.text;
    r.end = r.text + len;
    bool ok = document(&r);
    free(text);
    if (!ok) {
        snprintf(why, size, "not a trace-event JSON file (%s)",
                 '\0' != r.error[0] ? r.error : "empty");
        trace_events_free(out);
        return -1;
    }
    return 0;
}

void trace_events_free(trace_events_t *events)
{
    free(events->events);
    *events = (trace_events_t){0};
}
