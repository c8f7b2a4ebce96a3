/*
 * describe.c - the text and JSON views of declared types that
 * `drover types show` prints (drover_types_describe).
 *
 * Design notes:
 *  - A file is described without declaring anything: it is loaded in
 *    check-only mode, and the laid-out trees are printed before they are
 *    discarded. Types that wait for bindings show their expressions and
 *    no layout.
 *  - Each node shows its kind, the MPI combiner a constructor call would
 *    use for it (docs/datatypes.md), size, alignment, offset inside its
 *    parent and extent; named types add their canonical signature and
 *    fingerprint.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "construct.h"
#include "describe.h"
#include "strbuf.h"
#include "typeset.h"

/* The combiner of a node as drover_type_get_envelope reports it for a
 * type of that shape; a scalar part is a builtin, NAMED. */
static const char *combiner(const tnode_t *n)
{
    static const char *const names[] = {"?", "NAMED", "DUP", "CONTIGUOUS", "STRUCT",
                                        "SUBARRAY", "RESIZED", "POINTER", "VECTOR",
                                        "HVECTOR", "INDEXED", "HINDEXED",
                                        "INDEXED_BLOCK", "HINDEXED_BLOCK"};
    return TK_SCALAR == n->kind ? "NAMED" : names[decode_combiner(n)];
}

static void expr_text(strbuf_t *b, const tnode_t *e)
{
    expr_print(e->expr, b);
}

/* "int", "array[5][10]", "struct", "ref point" ... */
static void head(strbuf_t *b, const tnode_t *n)
{
    switch (n->kind) {
    case TK_SCALAR:
        if (0 == strcmp(n->scalar.name, "character") || 0 == strcmp(n->scalar.name, "integer") ||
            0 == strcmp(n->scalar.name, "logical") || 0 == strcmp(n->scalar.name, "real")) {
            strbuf_printf(b, "%s(kind=%zu)", n->scalar.name, n->scalar.size);
        } else {
            strbuf_printf(b, "%s", n->scalar.name);
        }
        return;
    case TK_REF:
        strbuf_printf(b, "%s", n->name);
        return;
    case TK_ARRAY:
        strbuf_printf(b, "array");
        for (size_t i = 0; i + 1 < n->nchild; i++) {
            const tnode_t *d = n->child[i];
            strbuf_append(b, "[", 1);
            expr_text(b, d->child[0]);
            if (1 < d->nchild) {
                strbuf_printf(b, " subsize ");
                expr_text(b, d->child[1]);
            }
            if (2 < d->nchild) {
                strbuf_printf(b, " start ");
                expr_text(b, d->child[2]);
            }
            strbuf_append(b, "]", 1);
        }
        return;
    default:
        strbuf_printf(b, "%s", tnode_kind_name(n->kind));
        return;
    }
}

static void text_node(strbuf_t *b, const tnode_t *n, const char *label, unsigned indent, size_t off,
                      bool at)
{
    strbuf_printf(b, "%*s%s", (int)indent, "", label);
    head(b, n);
    strbuf_printf(b, "  %s", combiner(n));
    if (n->laid) {
        if (at) {
            strbuf_printf(b, "  offset %zu", off);
        }
        strbuf_printf(b, "  size %zu  align %zu  extent %zu", n->size, n->align, n->size);
    }
    for (size_t i = 0; i < n->nattrs; i++) {
        strbuf_printf(b, "  +%s: %s", n->attrs[i].name, n->attrs[i].value);
    }
    strbuf_append(b, "\n", 1);
    for (size_t i = 0; i < n->nchild; i++) {
        const tnode_t *c = n->child[i];
        char what[160];
        if (TK_MEMBER == c->kind) {
            snprintf(what, sizeof(what), "%s: ", NULL == c->name ? "-" : c->name);
            text_node(b, c->child[0], what, indent + 2, c->off, true);
        } else if (TK_ARRAY == n->kind && i + 1 == n->nchild) {
            text_node(b, c, "subtype: ", indent + 2, 0, false);
        } else if (TK_POINTER == n->kind) {
            text_node(b, c, "to: ", indent + 2, 0, false);
        }
    }
}

static void json_string(strbuf_t *b, const char *s)
{
    strbuf_append(b, "\"", 1);
    for (; '\0' != *s; s++) {
        if ('"' == *s || '\\' == *s) {
            strbuf_printf(b, "\\%c", *s);
        } else if ((unsigned char)*s < 0x20) {
            strbuf_printf(b, "\\u%04x", *s);
        } else {
            strbuf_append(b, s, 1);
        }
    }
    strbuf_append(b, "\"", 1);
}

static void json_node(strbuf_t *b, const tnode_t *n)
{
    strbuf_t h = STRBUF_INIT;
    head(&h, n);
    char *kind = strbuf_finish(&h);
    strbuf_printf(b, "{\"kind\": ");
    json_string(b, tnode_kind_name(n->kind));
    strbuf_printf(b, ", \"type\": ");
    json_string(b, NULL == kind ? "" : kind);
    free(kind);
    strbuf_printf(b, ", \"combiner\": \"%s\"", combiner(n));
    if (n->laid) {
        strbuf_printf(b, ", \"size\": %zu, \"align\": %zu, \"extent\": %zu", n->size, n->align, n->size);
    }
    if (0 < n->nattrs) {
        strbuf_printf(b, ", \"attributes\": {");
        for (size_t i = 0; i < n->nattrs; i++) {
            strbuf_printf(b, "%s", 0 == i ? "" : ", ");
            json_string(b, n->attrs[i].name);
            strbuf_printf(b, ": ");
            json_string(b, n->attrs[i].value);
        }
        strbuf_printf(b, "}");
    }
    if (TK_ARRAY == n->kind || TK_POINTER == n->kind) {
        strbuf_printf(b, ", \"subtype\": ");
        json_node(b, n->child[n->nchild - 1]);
    }
    if (TK_STRUCT == n->kind || TK_RECORD == n->kind || TK_TUPLE == n->kind) {
        strbuf_printf(b, ", \"members\": [");
        bool first = true;
        for (size_t i = 0; i < n->nchild; i++) {
            const tnode_t *m = n->child[i];
            if (TK_MEMBER != m->kind) {
                continue;
            }
            strbuf_printf(b, "%s{\"name\": ", first ? "" : ", ");
            first = false;
            if (NULL == m->name) {
                strbuf_printf(b, "null");
            } else {
                json_string(b, m->name);
            }
            if (m->child[0]->laid) {
                strbuf_printf(b, ", \"offset\": %zu", m->off);
            }
            strbuf_printf(b, ", \"type\": ");
            json_node(b, m->child[0]);
            strbuf_printf(b, "}");
        }
        strbuf_printf(b, "]");
    }
    strbuf_printf(b, "}");
}

void describe_named(strbuf_t *b, const named_t *nt, bool json, bool first)
{
    if (json) {
        strbuf_printf(b, "%s\n  {\"name\": ", first ? "" : ",");
        json_string(b, nt->name);
        strbuf_printf(b, ", \"signature\": ");
        json_string(b, NULL == nt->signature ? "" : nt->signature);
        strbuf_printf(b, ", \"fingerprint\": \"%016" PRIx64 "\", \"tree\": ", nt->fingerprint);
        json_node(b, nt->root);
        strbuf_printf(b, "}");
        return;
    }
    char label[160];
    snprintf(label, sizeof(label), "%s: ", nt->name);
    text_node(b, nt->root, label, 0, 0, false);
    strbuf_printf(b, "  signature %s\n  fingerprint %016" PRIx64 "\n%s",
                  NULL == nt->signature ? "" : nt->signature, nt->fingerprint,
                  nt->root->laid ? "" : "  (laid out once its $-values are bound)\n");
}
