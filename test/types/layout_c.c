/*
 * layout_c.c - writes a C translation unit that checks drover's layout of
 * declared types against the C compiler's.
 *
 * Usage: layout_c FILE.yml > check.c; then compiling check.c succeeds only
 * if, for every declared type, sizeof, _Alignof and the offsetof of every
 * member (through nested structs) equal what drover computed. The number
 * of assertions written goes to stderr, so the caller can tell an empty
 * check from a passing one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drover.h"
#include "strbuf.h"
#include "typeset.h"

static void decl(strbuf_t *b, const tnode_t *n, const char *declarator);

static void members(strbuf_t *b, const tnode_t *n)
{
    strbuf_printf(b, "struct {");
    for (size_t i = 0; i < n->nchild; i++) {
        const tnode_t *m = n->child[i];
        char name[64];
        if (NULL != m->name) {
            snprintf(name, sizeof(name), "%s", m->name);
        } else {
            snprintf(name, sizeof(name), "_%zu", i);
        }
        strbuf_printf(b, " ");
        decl(b, m->child[0], name);
        strbuf_printf(b, ";");
    }
    strbuf_printf(b, " }");
}

static void decl(strbuf_t *b, const tnode_t *n, const char *declarator)
{
    char inner[512];
    switch (n->kind) {
    case TK_SCALAR:
        strbuf_printf(b, "%s %s", n->scalar.c_name, declarator);
        return;
    case TK_REF:
        strbuf_printf(b, "T_%s %s", n->name, declarator);
        return;
    case TK_POINTER:
        snprintf(inner, sizeof(inner), TK_ARRAY == n->child[0]->kind ? "(*%s)" : "*%s", declarator);
        decl(b, n->child[0], inner);
        return;
    case TK_ARRAY: {
        size_t used = (size_t)snprintf(inner, sizeof(inner), "%s", declarator);
        for (size_t i = 0; i + 1 < n->nchild; i++) {
            used += (size_t)snprintf(inner + used, sizeof(inner) - used, "[%lld]", (long long)n->child[i]->n);
        }
        decl(b, n->child[n->nchild - 1], inner);
        return;
    }
    default:
        members(b, n);
        strbuf_printf(b, " %s", declarator);
        return;
    }
}

static void emit_named(strbuf_t *b, const named_t *nt, char *done);

static void emit_refs(strbuf_t *b, const tnode_t *n, char *done)
{
    if (TK_REF == n->kind) {
        emit_named(b, n->target, done);
    }
    for (size_t i = 0; i < n->nchild; i++) {
        emit_refs(b, n->child[i], done);
    }
}

/* done[i]: declaration order index i is written. */
static void emit_named(strbuf_t *b, const named_t *nt, char *done)
{
    size_t i = nt->id - DROVER_DECLARED_ID_MIN;
    if (done[i]) {
        return;
    }
    done[i] = 1;
    emit_refs(b, nt->root, done);
    char name[128];
    snprintf(name, sizeof(name), "T_%s", nt->name);
    strbuf_printf(b, "typedef ");
    decl(b, nt->root, name);
    strbuf_printf(b, ";\n");
}

static size_t asserts;

static void check_offsets(strbuf_t *b, const named_t *nt, const tnode_t *n, const char *prefix,
                          size_t base)
{
    while (TK_REF == n->kind) {
        n = n->target->root;
    }
    if (TK_STRUCT != n->kind && TK_TUPLE != n->kind) {
        return;
    }
    for (size_t i = 0; i < n->nchild; i++) {
        const tnode_t *m = n->child[i];
        char path[512];
        if (NULL != m->name) {
            snprintf(path, sizeof(path), "%s%s", prefix, m->name);
        } else {
            snprintf(path, sizeof(path), "%s_%zu", prefix, i);
        }
        strbuf_printf(b, "_Static_assert(offsetof(T_%s, %s) == %zu, \"%s.%s\");\n", nt->name, path,
                      base + m->off, nt->name, path);
        asserts++;
        char deeper[520];
        snprintf(deeper, sizeof(deeper), "%s.", path);
        check_offsets(b, nt, m->child[0], deeper, base + m->off);
    }
}

int main(int argc, char **argv)
{
    char *errors = NULL;
    if (2 != argc || PMIX_SUCCESS != drover_types_load_file(argv[1], 0, &errors)) {
        fprintf(stderr, "usage: layout_c FILE.yml (a file that loads)\n%s", NULL == errors ? "" : errors);
        free(errors);
        return 2;
    }
    size_t n = types_count();
    char *done = calloc(n + 1, 1);
    strbuf_t b = STRBUF_INIT;
    strbuf_printf(&b, "#include <stddef.h>\n#include <stdint.h>\n");
    for (size_t i = 0; i < n; i++) {
        emit_named(&b, types_at(i), done);
    }
    for (size_t i = 0; i < n; i++) {
        const named_t *nt = types_at(i);
        strbuf_printf(&b, "_Static_assert(sizeof(T_%s) == %zu, \"sizeof %s\");\n", nt->name,
                      nt->root->size, nt->name);
        strbuf_printf(&b, "_Static_assert(_Alignof(T_%s) == %zu, \"_Alignof %s\");\n", nt->name,
                      nt->root->align, nt->name);
        asserts += 2;
        check_offsets(&b, nt, nt->root, "", 0);
    }
    char *text = strbuf_finish(&b);
    fputs(text, stdout);
    fprintf(stderr, "%zu\n", asserts);
    free(text);
    free(done);
    return 0;
}
