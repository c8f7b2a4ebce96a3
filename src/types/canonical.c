/*
 * canonical.c - declared types written back as YAML that loads to the same
 * types (`drover types show --yaml`).
 *
 * Design notes:
 *  - One flow-style line per named type, keys in a fixed order (type, then
 *    the kind's keys as docs/datatypes.md lists them, then attributes),
 *    scalars by their declared name, expressions in canonical form and
 *    quoted whenever they are not plain integers. Writing the result again
 *    gives the same text.
 *  - Every name an expression uses is declared under metadata: (as
 *    int64), so the document loads on its own; attributes are written as
 *    quoted text.
 */
#include <stdlib.h>
#include <string.h>

#include "canonical.h"
#include "hashmap.h"

static void yaml_type(strbuf_t *b, const tnode_t *n, const tnode_t *disp);

static void quoted(strbuf_t *b, const char *s)
{
    strbuf_append(b, "'", 1);
    for (; '\0' != *s; s++) {
        strbuf_append(b, s, 1);
        if ('\'' == *s) {
            strbuf_append(b, "'", 1);
        }
    }
    strbuf_append(b, "'", 1);
}

static void yaml_expr(strbuf_t *b, const tnode_t *e)
{
    strbuf_t t = STRBUF_INIT;
    expr_print(e->expr, &t);
    char *text = strbuf_finish(&t);
    if (NULL == text) {
        b->failed = true;
        return;
    }
    if (expr_is_constant(e->expr) && '(' != text[0]) {
        strbuf_printf(b, "%s", text);
    } else {
        quoted(b, text);
    }
    free(text);
}

static bool fortran_order(const tnode_t *n)
{
    const char *order = TK_ARRAY == n->kind ? tnode_attr(n, "order") : NULL;
    return NULL != order && 0 == strcmp(order, "fortran");
}

static void attrs(strbuf_t *b, const tnode_t *n)
{
    for (size_t i = 0; i < n->nattrs; i++) {
        if (fortran_order(n) && 0 == strcmp(n->attrs[i].name, "order")) {
            continue;   /* written as order: Fortran */
        }
        strbuf_printf(b, ", +%s: ", n->attrs[i].name);
        quoted(b, n->attrs[i].value);
    }
}

/* size, subsize or start: one value, or a list for several dimensions
 * (in Fortran order for an array declared so). */
static void dims(strbuf_t *b, const tnode_t *n, const char *key, size_t part)
{
    size_t ndims = n->nchild - 1;
    bool fortran = fortran_order(n);
    if (part >= n->child[0]->nchild) {
        return;
    }
    strbuf_printf(b, ", %s: %s", key, 1 == ndims ? "" : "[");
    for (size_t i = 0; i < ndims; i++) {
        strbuf_printf(b, "%s", 0 == i ? "" : ", ");
        yaml_expr(b, n->child[fortran ? ndims - 1 - i : i]->child[part]);
    }
    strbuf_printf(b, "%s", 1 == ndims ? "" : "]");
}

static bool is_fortran(const scalar_t *s)
{
    return 0 == strcmp(s->name, "character") || 0 == strcmp(s->name, "integer") ||
           0 == strcmp(s->name, "logical") || 0 == strcmp(s->name, "real");
}

static void members(strbuf_t *b, const tnode_t *n, size_t first)
{
    bool seq = TK_RECORD != n->kind;
    const char *key = TK_TUPLE == n->kind ? "elements" : "members";
    strbuf_printf(b, ", %s: %s", key, seq ? "[" : "{");
    for (size_t i = first; i < n->nchild; i++) {
        const tnode_t *m = n->child[i];
        strbuf_printf(b, "%s", i == first ? "" : ", ");
        if (TK_STRUCT == n->kind) {
            strbuf_printf(b, "{%s: ", m->name);
            yaml_type(b, m->child[0], NULL);
            strbuf_append(b, "}", 1);
        } else if (TK_RECORD == n->kind) {
            strbuf_printf(b, "%s: ", m->name);
            yaml_type(b, m->child[0], m->child[1]);
        } else {
            yaml_type(b, m->child[0], 2 == m->nchild ? m->child[1] : NULL);
        }
    }
    strbuf_printf(b, "%s", seq ? "]" : "}");
}

/* n as a name when it can be one, else as a mapping; disp joins it. */
static void yaml_type(strbuf_t *b, const tnode_t *n, const tnode_t *disp)
{
    bool plain = NULL == disp && 0 == n->nattrs;
    if (TK_SCALAR == n->kind && !is_fortran(&n->scalar)) {
        strbuf_printf(b, plain ? "%s" : "{type: %s", n->scalar.name);
    } else if (TK_REF == n->kind) {
        strbuf_printf(b, plain ? "%s" : "{type: %s", n->name);
    } else if (TK_SCALAR == n->kind) {
        strbuf_printf(b, "{type: %s, kind: %zu", n->scalar.name, n->scalar.size);
        plain = false;
    } else {
        plain = false;
        strbuf_printf(b, "{type: %s", tnode_kind_name(n->kind));
        if (TK_ARRAY == n->kind) {
            dims(b, n, "size", 0);
            dims(b, n, "subsize", 1);
            dims(b, n, "start", 2);
            strbuf_printf(b, "%s, subtype: ", fortran_order(n) ? ", order: Fortran" : "");
            yaml_type(b, n->child[n->nchild - 1], NULL);
        } else if (TK_POINTER == n->kind) {
            strbuf_printf(b, ", subtype: ");
            yaml_type(b, n->child[0], NULL);
        } else {
            size_t first = 0 < n->nchild && TK_EXPR == n->child[0]->kind;
            if (first) {
                strbuf_printf(b, ", buffersize: ");
                yaml_expr(b, n->child[0]);
            }
            members(b, n, first);
        }
    }
    if (plain) {
        return;
    }
    if (NULL != disp) {
        strbuf_printf(b, ", disp: ");
        yaml_expr(b, disp);
    }
    attrs(b, n);
    strbuf_append(b, "}", 1);
}

static void note_name(const char *name, void *arg)
{
    bool created;
    hashmap_insert_str(arg, name, &created);
}

static void collect_names(const tnode_t *n, hashmap_t *names)
{
    if (TK_EXPR == n->kind) {
        expr_foreach_name(n->expr, note_name, names);
    }
    for (size_t i = 0; i < n->nchild; i++) {
        collect_names(n->child[i], names);
    }
}

void canonical_yaml(strbuf_t *b, const named_t *const *types, size_t n)
{
    hashmap_t names = HASHMAP_INIT;
    for (size_t i = 0; i < n; i++) {
        collect_names(types[i]->root, &names);
    }
    if (0 < names.count) {
        strbuf_printf(b, "metadata:\n");
        for (uint32_t i = 0; i < names.count; i++) {
            strbuf_printf(b, "  %s: int64\n", names.entries[i].key);
        }
    }
    hashmap_clear(&names, NULL);
    strbuf_printf(b, "types:\n");
    for (size_t i = 0; i < n; i++) {
        strbuf_printf(b, "  %s: ", types[i]->name);
        yaml_type(b, types[i]->root, NULL);
        strbuf_append(b, "\n", 1);
    }
}
