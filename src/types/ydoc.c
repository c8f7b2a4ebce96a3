/*
 * ydoc.c - reading YAML with libyaml's event API into ynode_t trees.
 *
 * Design notes:
 *  - The event API, not libyaml's document loader: the loader cannot be
 *    stopped midway, so deep nesting costs it quadratic time before any
 *    check could run, and it resolves aliases without telling how much
 *    they expand. Reading events lets every limit stop the parse at once.
 *  - Weights make alias bombs cheap to refuse: a node's weight is itself
 *    plus its children's, an alias adds its target's weight, and reading
 *    stops when any node passes YDOC_MAX_WEIGHT; everything that walks the
 *    tree later is bounded by that number.
 *  - Marks from libyaml are 0-based; messages show them 1-based.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "hashmap.h"
#include "strbuf.h"
#include "ydoc.h"

typedef struct reader {
    ydoc_t *doc;
    const char *file;
    diags_t *d;
    hashmap_t anchors;          /* name -> ynode_t * */
    ynode_t *stack[YDOC_MAX_DEPTH];
    size_t depth;
    bool failed;
} reader_t;

static span_t mark_span(const reader_t *r, yaml_mark_t m)
{
    return (span_t){r->file, (unsigned)m.line + 1, (unsigned)m.column + 1};
}

static void stop(reader_t *r, yaml_mark_t m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void stop(reader_t *r, yaml_mark_t m, const char *fmt, ...)
{
    span_t sp = mark_span(r, m);
    va_list ap;
    va_start(ap, fmt);
    diags_verror(r->d, &sp, NULL, fmt, ap);
    va_end(ap);
    r->failed = true;
}

static bool push_item(ynode_t *parent, ynode_t *child)
{
    if (parent->n == parent->cap) {
        size_t cap = 0 == parent->cap ? 4 : 2 * parent->cap;
        ynode_t **v = realloc(parent->items, cap * sizeof(*v));
        if (NULL == v) {
            return false;
        }
        parent->items = v;
        parent->cap = cap;
    }
    parent->items[parent->n++] = child;
    return true;
}

static ynode_t *new_node(reader_t *r, ykind_t kind, yaml_mark_t m)
{
    ydoc_t *doc = r->doc;
    if (doc->nall >= YDOC_MAX_NODES) {
        stop(r, m, "the document has more than %d nodes", YDOC_MAX_NODES);
        return NULL;
    }
    if (doc->nall == doc->cap) {
        size_t cap = 0 == doc->cap ? 64 : 2 * doc->cap;
        ynode_t **v = realloc(doc->all, cap * sizeof(*v));
        if (NULL == v) {
            stop(r, m, "out of memory");
            return NULL;
        }
        doc->all = v;
        doc->cap = cap;
    }
    ynode_t *n = calloc(1, sizeof(*n));
    if (NULL == n) {
        stop(r, m, "out of memory");
        return NULL;
    }
    n->kind = kind;
    n->span = mark_span(r, m);
    n->weight = 1;
    doc->all[doc->nall++] = n;
    return n;
}

/* Hang n (new, or an alias target) under the open collection, or make it
 * the root. */
static void attach(reader_t *r, ynode_t *n, yaml_mark_t m)
{
    if (0 == r->depth) {
        if (NULL != r->doc->root) {
            stop(r, m, "only one YAML document is allowed");
        } else {
            r->doc->root = n;
        }
        return;
    }
    if (!push_item(r->stack[r->depth - 1], n)) {
        stop(r, m, "out of memory");
    }
}

static void remember_anchor(reader_t *r, const yaml_char_t *anchor, ynode_t *n, yaml_mark_t m)
{
    if (NULL == anchor) {
        return;
    }
    bool created;
    hashmap_entry_t *e = hashmap_insert_str(&r->anchors, (const char *)anchor, &created);
    if (NULL == e) {
        stop(r, m, "out of memory");
        return;
    }
    e->value = n;   /* a redefined anchor names the newer node, as in YAML */
}

/* The key path of the node being closed, from the open nodes above it:
 * "types.grid.members[2]". */
static void open_path(const reader_t *r, path_t *p)
{
    path_pop(p, 0);
    for (size_t i = 0; i < r->depth; i++) {
        const ynode_t *up = r->stack[i];
        if (YN_SEQ == up->kind && up->n > 0) {
            path_push(p, "[%zu]", up->n - 1);
        } else if (YN_MAP == up->kind && up->n >= 2 && 0 == up->n % 2 &&
                   YN_SCALAR == up->items[up->n - 2]->kind) {
            path_push(p, "%s%s", 0 == p->len ? "" : ".", up->items[up->n - 2]->text);
        }
    }
}

static void check_keys(reader_t *r, const ynode_t *map)
{
    hashmap_t seen = HASHMAP_INIT;
    path_t path;
    open_path(r, &path);
    for (size_t i = 0; i + 1 < map->n; i += 2) {
        const ynode_t *k = map->items[i];
        if (YN_SCALAR != k->kind) {
            /* Fatal: everything after reading relies on keys being text. */
            diags_error(r->d, &k->span, NULL, "a mapping key must be a plain value");
            r->failed = true;
            break;
        }
        bool created;
        hashmap_entry_t *e = hashmap_insert_str(&seen, k->text, &created);
        if (NULL == e) {
            r->d->oom = true;
            r->d->nerrors++;
            break;
        }
        if (!created) {
            const ynode_t *first = e->value;
            size_t mark = path_push(&path, "%s%s", 0 == path.len ? "" : ".", k->text);
            diags_error(r->d, &k->span, path.s, "duplicate key '%s' (first at %u:%u)", k->text,
                        first->span.line, first->span.col);
            path_pop(&path, mark);
        } else {
            e->value = (void *)k;
        }
    }
    hashmap_clear(&seen, NULL);
}

static void close_node(reader_t *r, yaml_mark_t m)
{
    ynode_t *n = r->stack[--r->depth];
    size_t w = 1;
    for (size_t i = 0; i < n->n; i++) {
        w += n->items[i]->weight;
        if (w > YDOC_MAX_WEIGHT) {
            break;
        }
    }
    n->weight = w;
    n->open = false;
    if (w > YDOC_MAX_WEIGHT) {
        stop(r, m, "aliases expand the document past %d nodes", YDOC_MAX_WEIGHT);
        return;
    }
    if (YN_MAP == n->kind) {
        check_keys(r, n);
    }
}

static void on_event(reader_t *r, const yaml_event_t *ev)
{
    ynode_t *n;
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        n = new_node(r, YN_SCALAR, ev->start_mark);
        if (NULL == n) {
            return;
        }
        n->text = strndup((const char *)ev->data.scalar.value, ev->data.scalar.length);
        n->plain = YAML_PLAIN_SCALAR_STYLE == ev->data.scalar.style;
        if (NULL == n->text) {
            stop(r, ev->start_mark, "out of memory");
            return;
        }
        if (strlen(n->text) != ev->data.scalar.length) {
            stop(r, ev->start_mark, "a value holds a NUL character");
            return;
        }
        remember_anchor(r, ev->data.scalar.anchor, n, ev->start_mark);
        attach(r, n, ev->start_mark);
        return;
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        if (r->depth >= YDOC_MAX_DEPTH) {
            stop(r, ev->start_mark, "nesting deeper than %d levels", YDOC_MAX_DEPTH);
            return;
        }
        n = new_node(r, YAML_SEQUENCE_START_EVENT == ev->type ? YN_SEQ : YN_MAP, ev->start_mark);
        if (NULL == n) {
            return;
        }
        n->open = true;
        remember_anchor(r, YAML_SEQUENCE_START_EVENT == ev->type ? ev->data.sequence_start.anchor
                                                                 : ev->data.mapping_start.anchor,
                        n, ev->start_mark);
        attach(r, n, ev->start_mark);
        r->stack[r->depth++] = n;
        return;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        close_node(r, ev->start_mark);
        return;
    case YAML_ALIAS_EVENT: {
        hashmap_entry_t *e = hashmap_find_str(&r->anchors, (const char *)ev->data.alias.anchor);
        if (NULL == e) {
            stop(r, ev->start_mark, "alias '*%s' names no anchor", (const char *)ev->data.alias.anchor);
        } else if (((ynode_t *)e->value)->open) {
            stop(r, ev->start_mark, "alias '*%s' refers to a node that contains it",
                 (const char *)ev->data.alias.anchor);
        } else {
            attach(r, e->value, ev->start_mark);
        }
        return;
    }
    default:
        return;
    }
}

bool ydoc_parse(ydoc_t *doc, const char *file, const char *text, size_t len, diags_t *d)
{
    if (len > YDOC_MAX_BYTES) {
        diags_error(d, NULL, NULL, "%s: larger than %zu bytes", file, YDOC_MAX_BYTES);
        return false;
    }
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        d->oom = true;
        d->nerrors++;
        return false;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    reader_t *r = calloc(1, sizeof(*r));
    if (NULL == r) {
        yaml_parser_delete(&parser);
        d->oom = true;
        d->nerrors++;
        return false;
    }
    r->doc = doc;
    r->file = file;
    r->d = d;
    bool done = false;
    while (!done && !r->failed) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            span_t sp = mark_span(r, parser.problem_mark);
            if (NULL != parser.context) {
                diags_error(d, &sp, NULL, "%s %s", parser.problem, parser.context);
            } else {
                diags_error(d, &sp, NULL, "%s", NULL == parser.problem ? "malformed YAML" : parser.problem);
            }
            r->failed = true;
            break;
        }
        done = YAML_STREAM_END_EVENT == ev.type;
        on_event(r, &ev);
        yaml_event_delete(&ev);
    }
    bool ok = !r->failed;
    hashmap_clear(&r->anchors, NULL);
    free(r);
    yaml_parser_delete(&parser);
    return ok;
}

void ydoc_free(ydoc_t *doc)
{
    for (size_t i = 0; i < doc->nall; i++) {
        free(doc->all[i]->text);
        free(doc->all[i]->items);
        free(doc->all[i]);
    }
    free(doc->all);
    *doc = (ydoc_t)YDOC_INIT;
}

static void flow(const ynode_t *n, strbuf_t *b, unsigned depth)
{
    if (YN_SCALAR == n->kind) {
        strbuf_printf(b, "%s", n->text);
        return;
    }
    if (depth > YDOC_MAX_DEPTH) {
        strbuf_printf(b, "...");
        return;
    }
    bool map = YN_MAP == n->kind;
    strbuf_append(b, map ? "{" : "[", 1);
    for (size_t i = 0; i < n->n; i++) {
        if (0 != i) {
            strbuf_append(b, map && 1 == i % 2 ? ": " : ", ", 2);
        }
        flow(n->items[i], b, depth + 1);
    }
    strbuf_append(b, map ? "}" : "]", 1);
}

char *ydoc_flow(const ynode_t *n)
{
    strbuf_t b = STRBUF_INIT;
    flow(n, &b, 0);
    char *s = strbuf_finish(&b);
    return NULL == s ? strdup("") : s;
}
