/*
 * expr.c - parsing, printing and evaluating $-expressions (see expr.h).
 *
 * Design notes:
 *  - A recursive-descent parser over the text, one function per
 *    precedence level; nesting of parentheses and brackets is capped at
 *    EXPR_MAX_DEPTH so hostile text cannot exhaust the stack.
 *  - Values are 64-bit signed; every operation checks for overflow, and
 *    division and modulo by zero are errors rather than traps.
 *  - A reference evaluates by looking up the path it spells ("a.b" for
 *    $a.b, "a[2].b" for $a[2].b with the index evaluated); a trailing
 *    [i] indexes the values bound to the path before it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

#define EXPR_MAX_DEPTH 32

typedef enum { EX_INT, EX_REF, EX_BIN } ex_kind_t;

/* One step after a reference's first name: .member or [index]. */
typedef struct access {
    char *member;        /* NULL for an index */
    expr_t *index;
} access_t;

struct expr {
    ex_kind_t kind;
    int64_t value;       /* EX_INT */
    char op;             /* EX_BIN */
    expr_t *a, *b;       /* EX_BIN */
    char *name;          /* EX_REF */
    access_t *acc;       /* EX_REF */
    size_t nacc;
};

typedef struct parser {
    const char *s;
    size_t pos;
    unsigned depth;
    char *err;
    bool oom;
} parser_t;

static void fail(parser_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(parser_t *p, const char *fmt, ...)
{
    if (NULL != p->err || p->oom) {
        return;
    }
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&msg, fmt, ap) < 0) {
        p->oom = true;
        msg = NULL;
    }
    va_end(ap);
    p->err = msg;
}

void expr_free(expr_t *e)
{
    if (NULL == e) {
        return;
    }
    expr_free(e->a);
    expr_free(e->b);
    free(e->name);
    for (size_t i = 0; i < e->nacc; i++) {
        free(e->acc[i].member);
        expr_free(e->acc[i].index);
    }
    free(e->acc);
    free(e);
}

static void skip_blanks(parser_t *p)
{
    while (' ' == p->s[p->pos] || '\t' == p->s[p->pos]) {
        p->pos++;
    }
}

static bool is_id_start(char c)
{
    return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || '_' == c;
}

static bool is_id_char(char c)
{
    return is_id_start(c) || ('0' <= c && c <= '9');
}

static char *parse_id(parser_t *p)
{
    size_t start = p->pos;
    if (!is_id_start(p->s[p->pos])) {
        fail(p, "expected a name at column %zu", p->pos + 1);
        return NULL;
    }
    while (is_id_char(p->s[p->pos])) {
        p->pos++;
    }
    char *id = strndup(p->s + start, p->pos - start);
    if (NULL == id) {
        p->oom = true;
    }
    return id;
}

static expr_t *parse_operation(parser_t *p);

static bool add_access(parser_t *p, expr_t *e, char *member, expr_t *index)
{
    access_t *v = realloc(e->acc, (e->nacc + 1) * sizeof(*v));
    if (NULL == v) {
        p->oom = true;
        free(member);
        expr_free(index);
        return false;
    }
    e->acc = v;
    e->acc[e->nacc++] = (access_t){member, index};
    return true;
}

/* A format after ':' (kept only for text, ignored by arithmetic). */
static void skip_format(parser_t *p, bool braced)
{
    while ('\0' != p->s[p->pos] && (braced ? '}' != p->s[p->pos] : ' ' != p->s[p->pos])) {
        p->pos++;
    }
}

static expr_t *parse_reference(parser_t *p)
{
    p->pos++;   /* '$' */
    bool braced = '{' == p->s[p->pos];
    if (braced) {
        p->pos++;
    }
    expr_t *e = calloc(1, sizeof(*e));
    if (NULL == e) {
        p->oom = true;
        return NULL;
    }
    e->kind = EX_REF;
    e->name = parse_id(p);
    while (NULL != e->name && NULL == p->err && !p->oom) {
        if ('[' == p->s[p->pos]) {
            p->pos++;
            expr_t *ix = parse_operation(p);
            skip_blanks(p);
            if (NULL == ix || ']' != p->s[p->pos]) {
                expr_free(ix);
                fail(p, "expected ']' at column %zu", p->pos + 1);
                break;
            }
            p->pos++;
            add_access(p, e, NULL, ix);
        } else if ('.' == p->s[p->pos]) {
            p->pos++;
            char *m = parse_id(p);
            if (NULL == m) {
                break;
            }
            add_access(p, e, m, NULL);
        } else {
            break;
        }
    }
    if (NULL == p->err && !p->oom && ':' == p->s[p->pos]) {
        skip_format(p, braced);
    }
    if (NULL == p->err && !p->oom && braced) {
        if ('}' != p->s[p->pos]) {
            fail(p, "expected '}' at column %zu", p->pos + 1);
        } else {
            p->pos++;
        }
    }
    if (NULL != p->err || p->oom) {
        expr_free(e);
        return NULL;
    }
    return e;
}

static expr_t *parse_integer(parser_t *p)
{
    const char *start = p->s + p->pos;
    char *end;
    errno = 0;
    long long v = strtoll(start, &end, 0);
    if (end == start) {
        fail(p, "expected a value at column %zu", p->pos + 1);
        return NULL;
    }
    if (ERANGE == errno) {
        fail(p, "integer at column %zu does not fit in 64 bits", p->pos + 1);
        return NULL;
    }
    p->pos += (size_t)(end - start);
    expr_t *e = calloc(1, sizeof(*e));
    if (NULL == e) {
        p->oom = true;
        return NULL;
    }
    e->kind = EX_INT;
    e->value = v;
    return e;
}

static expr_t *parse_term(parser_t *p)
{
    skip_blanks(p);
    char c = p->s[p->pos];
    if ('(' == c) {
        if (++p->depth > EXPR_MAX_DEPTH) {
            fail(p, "parentheses nested deeper than %d", EXPR_MAX_DEPTH);
            return NULL;
        }
        p->pos++;
        expr_t *e = parse_operation(p);
        if (NULL == e) {
            return NULL; /* failed inside: the text may end right here */
        }
        skip_blanks(p);
        if (')' != p->s[p->pos]) {
            fail(p, "expected ')' at column %zu", p->pos + 1);
            expr_free(e);
            return NULL;
        }
        p->pos++;
        p->depth--;
        return e;
    }
    if ('$' == c) {
        return parse_reference(p);
    }
    return parse_integer(p);
}

/* Operators by level, lowest precedence first. */
static const char *const levels[] = {"|", "&", "=", "<>", "+-", "*/%"};
#define NLEVELS (sizeof(levels) / sizeof(levels[0]))

static expr_t *parse_level(parser_t *p, size_t level)
{
    if (level == NLEVELS) {
        return parse_term(p);
    }
    if (++p->depth > EXPR_MAX_DEPTH) {
        fail(p, "expression nested deeper than %d", EXPR_MAX_DEPTH);
        return NULL;
    }
    expr_t *left = parse_level(p, level + 1);
    while (NULL != left) {
        skip_blanks(p);
        char c = p->s[p->pos];
        if ('\0' == c || NULL == strchr(levels[level], c)) {
            break;
        }
        p->pos++;
        expr_t *right = parse_level(p, level + 1);
        expr_t *e = NULL == right ? NULL : calloc(1, sizeof(*e));
        if (NULL == e) {
            p->oom = NULL != right;
            expr_free(left);
            expr_free(right);
            return NULL;
        }
        *e = (expr_t){.kind = EX_BIN, .op = c, .a = left, .b = right};
        left = e;
    }
    p->depth--;
    return left;
}

static expr_t *parse_operation(parser_t *p)
{
    return parse_level(p, 0);
}

expr_t *expr_parse(const char *text, char **err)
{
    parser_t p = {.s = text};
    expr_t *e = parse_operation(&p);
    if (NULL != e) {
        skip_blanks(&p);
        if ('\0' != text[p.pos]) {
            fail(&p, "unexpected '%c' at column %zu", text[p.pos], p.pos + 1);
        }
    }
    if (NULL != p.err || p.oom) {
        expr_free(e);
        *err = p.err;
        return NULL;
    }
    *err = NULL;
    return e;
}

expr_t *expr_dup(const expr_t *e)
{
    if (NULL == e) {
        return NULL;
    }
    strbuf_t b = STRBUF_INIT;
    expr_print(e, &b);
    char *text = strbuf_finish(&b);
    char *err = NULL;
    expr_t *copy = NULL == text ? NULL : expr_parse(text, &err);
    free(err);
    free(text);
    return copy;
}

bool expr_is_constant(const expr_t *e)
{
    switch (e->kind) {
    case EX_INT:
        return true;
    case EX_BIN:
        return expr_is_constant(e->a) && expr_is_constant(e->b);
    default:
        return false;
    }
}

void expr_print(const expr_t *e, strbuf_t *b)
{
    switch (e->kind) {
    case EX_INT:
        strbuf_printf(b, "%" PRId64, e->value);
        break;
    case EX_BIN:
        strbuf_append(b, "(", 1);
        expr_print(e->a, b);
        strbuf_printf(b, " %c ", e->op);
        expr_print(e->b, b);
        strbuf_append(b, ")", 1);
        break;
    case EX_REF:
        strbuf_printf(b, "${%s", e->name);
        for (size_t i = 0; i < e->nacc; i++) {
            if (NULL != e->acc[i].member) {
                strbuf_printf(b, ".%s", e->acc[i].member);
            } else {
                strbuf_append(b, "[", 1);
                expr_print(e->acc[i].index, b);
                strbuf_append(b, "]", 1);
            }
        }
        strbuf_append(b, "}", 1);
        break;
    }
}

void expr_foreach_name(const expr_t *e, void (*fn)(const char *name, void *arg), void *arg)
{
    if (EX_BIN == e->kind) {
        expr_foreach_name(e->a, fn, arg);
        expr_foreach_name(e->b, fn, arg);
    } else if (EX_REF == e->kind) {
        fn(e->name, arg);
        for (size_t i = 0; i < e->nacc; i++) {
            if (NULL != e->acc[i].index) {
                expr_foreach_name(e->acc[i].index, fn, arg);
            }
        }
    }
}

static pmix_status_t eval_error(char **err, pmix_status_t rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static pmix_status_t eval_error(char **err, pmix_status_t rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(err, fmt, ap) < 0) {
        *err = NULL;
        rc = PMIX_ERR_NOMEM;
    }
    va_end(ap);
    return rc;
}

static pmix_status_t eval_ref(const expr_t *e, int64_t *out, char **err)
{
    strbuf_t path = STRBUF_INIT;
    strbuf_printf(&path, "%s", e->name);
    pmix_status_t rc = PMIX_SUCCESS;
    size_t last = e->nacc;
    /* A trailing [i] indexes the bound values; earlier steps name them. */
    if (0 < e->nacc && NULL == e->acc[e->nacc - 1].member) {
        last = e->nacc - 1;
    }
    for (size_t i = 0; i < last && PMIX_SUCCESS == rc; i++) {
        int64_t ix;
        if (NULL != e->acc[i].member) {
            strbuf_printf(&path, ".%s", e->acc[i].member);
        } else if (PMIX_SUCCESS == (rc = expr_eval(e->acc[i].index, &ix, err))) {
            strbuf_printf(&path, "[%" PRId64 "]", ix);
        }
    }
    int64_t index = 0;
    if (PMIX_SUCCESS == rc && last < e->nacc) {
        rc = expr_eval(e->acc[last].index, &index, err);
    }
    char *name = strbuf_finish(&path);
    if (PMIX_SUCCESS != rc) {
        free(name);
        return rc;
    }
    if (NULL == name) {
        return PMIX_ERR_NOMEM;
    }
    int64_t *v = NULL;
    size_t n = 0;
    rc = bind_get(name, &v, &n);
    if (PMIX_ERR_NOT_FOUND == rc) {
        rc = eval_error(err, PMIX_ERR_NOT_AVAILABLE, "'$%s' has no value (bind it with drover_type_bind)", name);
    } else if (PMIX_SUCCESS == rc && (index < 0 || (uint64_t)index >= n)) {
        rc = eval_error(err, PMIX_ERR_BAD_PARAM, "index %" PRId64 " is outside '$%s', which has %zu values",
                        index, name, n);
    } else if (PMIX_SUCCESS == rc) {
        *out = v[index];
    }
    free(v);
    free(name);
    return rc;
}

static pmix_status_t eval_bin(char op, int64_t a, int64_t b, int64_t *out, char **err)
{
    bool over = false;
    switch (op) {
    case '+':
        over = __builtin_add_overflow(a, b, out);
        break;
    case '-':
        over = __builtin_sub_overflow(a, b, out);
        break;
    case '*':
        over = __builtin_mul_overflow(a, b, out);
        break;
    case '/':
    case '%':
        if (0 == b) {
            return eval_error(err, PMIX_ERR_BAD_PARAM, "division by zero");
        }
        over = INT64_MIN == a && -1 == b;
        if (!over) {
            *out = '/' == op ? a / b : a % b;
        }
        break;
    case '=':
        *out = a == b;
        break;
    case '<':
        *out = a < b;
        break;
    case '>':
        *out = a > b;
        break;
    case '&':
        *out = a && b;
        break;
    default:
        *out = a || b;
        break;
    }
    if (over) {
        return eval_error(err, PMIX_ERR_BAD_PARAM, "%" PRId64 " %c %" PRId64 " overflows 64 bits",
                          a, op, b);
    }
    return PMIX_SUCCESS;
}

pmix_status_t expr_eval(const expr_t *e, int64_t *out, char **err)
{
    int64_t a, b;
    pmix_status_t rc;
    switch (e->kind) {
    case EX_INT:
        *out = e->value;
        return PMIX_SUCCESS;
    case EX_REF:
        return eval_ref(e, out, err);
    default:
        if (PMIX_SUCCESS != (rc = expr_eval(e->a, &a, err)) ||
            PMIX_SUCCESS != (rc = expr_eval(e->b, &b, err))) {
            return rc;
        }
        return eval_bin(e->op, a, b, out, err);
    }
}

/* Write v as a format spec asks: [#][+][0][width][dxXo]. Widths above
 * three digits are cut, so text cannot be made to grow without bound. */
static void format_int(strbuf_t *b, int64_t v, const char *fmt, size_t len)
{
    char spec[32] = "%";
    size_t n = 1, digits = 0;
    char conv = 'd';
    for (size_t i = 0; i < len && n < sizeof(spec) - 4; i++) {
        char c = fmt[i];
        if (NULL != strchr("dxXo", c)) {
            conv = c;
        } else if (NULL != strchr("#+", c) || ('0' <= c && c <= '9' && digits++ < 3)) {
            spec[n++] = c;
        }
    }
    spec[n++] = 'l';
    spec[n++] = 'l';
    spec[n++] = conv;
    spec[n] = '\0';
    /* spec holds only '%', flags and digits from the set above, "ll" and
     * one integer conversion: safe to use as a format. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    strbuf_printf(b, spec, (long long)v);
#pragma GCC diagnostic pop
}

char *expr_interpolate(const char *text, char **err)
{
    strbuf_t b = STRBUF_INIT;
    size_t i = 0;
    *err = NULL;
    while ('\0' != text[i]) {
        if ('\\' == text[i] && ('\\' == text[i + 1] || '$' == text[i + 1])) {
            strbuf_append(&b, text + i + 1, 1);
            i += 2;
            continue;
        }
        if ('$' != text[i]) {
            strbuf_append(&b, text + i, 1);
            i++;
            continue;
        }
        parser_t p = {.s = text, .pos = i};
        expr_t *e;
        const char *fmt = "";
        size_t fmtlen = 0;
        if ('(' == text[i + 1]) {
            p.pos++;
            e = parse_term(&p);
        } else {
            e = parse_reference(&p);
            const char *colon = memchr(text + i, ':', p.pos - i);
            if (NULL != colon) {
                fmt = colon + 1;
                fmtlen = (size_t)(text + p.pos - fmt) - ('}' == text[p.pos - 1]);
            }
        }
        int64_t v = 0;
        pmix_status_t rc = NULL == e ? PMIX_ERR_BAD_PARAM : expr_eval(e, &v, err);
        expr_free(e);
        if (NULL == e) {
            *err = p.err;
        }
        if (PMIX_SUCCESS != rc) {
            free(strbuf_finish(&b));
            return NULL;
        }
        format_int(&b, v, fmt, fmtlen);
        i = p.pos;
    }
    char *out = strbuf_finish(&b);
    if (NULL == out) {
        out = strdup("");
    }
    return out;
}
