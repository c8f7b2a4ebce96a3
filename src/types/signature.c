/*
 * signature.c - the canonical signature of a declared type and its
 * fingerprint, which travels with every packed value.
 *
 * Design notes:
 *  - The signature describes what decides the bytes on the wire and in
 *    memory: scalars by class and size ("i4", "f8": int and int32_t are
 *    the same), the shape of every array, displacements and extents.
 *    Attributes (but +lb, which moves MPI's bounds) and the type's own
 *    name are left out.
 *  - A type that needs no $-value is laid out first and signed in that
 *    form: a struct, record or tuple is its elements at their offsets,
 *    its extent and lb ("{@0:i1;@4:[5,10](i4);}(204)"), whatever kind
 *    and member names declared it, so the tuple a constructor rebuilds
 *    from a decoded struct is the same type. A type with $-values is
 *    signed as declared, its expressions in canonical form and its
 *    members' names included, the same in every process whatever it binds.
 *  - A reference to a named type contributes that type's fingerprint, not
 *    its text, so signatures stay short however deeply types share parts
 *    (expanding them inline would grow exponentially); a reference to a
 *    part decoding declared, and a type that is only a reference (a dup),
 *    spell the signature, as the declaration it came from does.
 *  - The fingerprint is 64-bit FNV-1a of the signature.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "signature.h"
#include "strbuf.h"
#include "types.h"

static void sig_node(const tnode_t *n, strbuf_t *b);

static void sig_expr(const tnode_t *e, strbuf_t *b)
{
    expr_print(e->expr, b);
}

static void sig_members(const tnode_t *n, strbuf_t *b, size_t first)
{
    strbuf_append(b, "{", 1);
    for (size_t i = first; i < n->nchild; i++) {
        const tnode_t *m = n->child[i];
        if (NULL != m->name) {
            strbuf_printf(b, "%s", m->name);
        }
        if (2 == m->nchild) {
            strbuf_append(b, "@", 1);
            sig_expr(m->child[1], b);
        }
        strbuf_append(b, ":", 1);
        sig_node(m->child[0], b);
        strbuf_append(b, ";", 1);
    }
    strbuf_append(b, "}", 1);
}

/* A laid-out array: its concrete dimensions. */
static void sig_laid_array(const tnode_t *n, strbuf_t *b)
{
    strbuf_append(b, "[", 1);
    for (size_t i = 0; i + 1 < n->nchild; i++) {
        const tnode_t *dim = n->child[i];
        strbuf_printf(b, "%s%" PRId64, 0 == i ? "" : ",", dim->n);
        if (dim->sub != dim->n || 0 != dim->start) {
            strbuf_printf(b, ":%" PRId64 "@%" PRId64, dim->sub, dim->start);
        }
    }
    strbuf_append(b, "](", 2);
    sig_node(n->child[n->nchild - 1], b);
    strbuf_append(b, ")", 1);
}

/* A laid-out struct, record or tuple. */
static void sig_laid_members(const tnode_t *n, strbuf_t *b)
{
    strbuf_append(b, "{", 1);
    for (size_t i = 0; i < n->nchild; i++) {
        const tnode_t *m = n->child[i];
        if (TK_MEMBER == m->kind) {
            strbuf_printf(b, "@%zu:", m->off);
            sig_node(m->child[0], b);
            strbuf_append(b, ";", 1);
        }
    }
    int64_t lb = types_lb(n);
    strbuf_printf(b, "}(%zu", n->size);
    if (0 != lb) {
        strbuf_printf(b, ",lb%" PRId64, lb);
    }
    strbuf_append(b, ")", 1);
}

static void sig_node(const tnode_t *n, strbuf_t *b)
{
    static const char classes[] = {'i', 'u', 'f', 'b'};
    if (n->laid && TK_ARRAY == n->kind) {
        sig_laid_array(n, b);
        return;
    }
    if (n->laid && (TK_STRUCT == n->kind || TK_RECORD == n->kind || TK_TUPLE == n->kind)) {
        sig_laid_members(n, b);
        return;
    }
    switch (n->kind) {
    case TK_SCALAR:
        strbuf_printf(b, "%c%zu", classes[n->scalar.cls], n->scalar.size);
        break;
    case TK_REF:
        if (n->target->part && NULL != n->target->signature) {
            strbuf_printf(b, "%s", n->target->signature);
        } else {
            strbuf_printf(b, "#%016" PRIx64, n->target->fingerprint);
        }
        break;
    case TK_POINTER:
        strbuf_append(b, "*(", 2);
        sig_node(n->child[0], b);
        strbuf_append(b, ")", 1);
        break;
    case TK_ARRAY:
        strbuf_append(b, "[", 1);
        for (size_t i = 0; i + 1 < n->nchild; i++) {
            const tnode_t *dim = n->child[i];
            static const char *const parts[] = {"", ":", "@"};
            strbuf_printf(b, "%s", 0 == i ? "" : ",");
            for (size_t k = 0; k < dim->nchild; k++) {
                strbuf_printf(b, "%s", parts[k]);
                sig_expr(dim->child[k], b);
            }
        }
        strbuf_append(b, "](", 2);
        sig_node(n->child[n->nchild - 1], b);
        strbuf_append(b, ")", 1);
        break;
    case TK_STRUCT:
        strbuf_append(b, "struct", 6);
        sig_members(n, b, 0);
        break;
    case TK_RECORD:
    case TK_TUPLE: {
        bool sized = 0 < n->nchild && TK_EXPR == n->child[0]->kind;
        strbuf_printf(b, "%s", TK_RECORD == n->kind ? "record" : "tuple");
        if (sized) {
            strbuf_append(b, "(", 1);
            sig_expr(n->child[0], b);
            strbuf_append(b, ")", 1);
        }
        sig_members(n, b, sized ? 1 : 0);
        break;
    }
    default:
        break;
    }
}

/* Whether n needs no $-value (the types it refers to are signed). */
static bool fixed(const tnode_t *n)
{
    if (TK_REF == n->kind) {
        return n->target->fixed;
    }
    if (TK_EXPR == n->kind) {
        return expr_is_constant(n->expr);
    }
    for (size_t i = 0; i < n->nchild; i++) {
        if (!fixed(n->child[i])) {
            return false;
        }
    }
    return true;
}

static void refs_first(tnode_t *n)
{
    if (TK_REF == n->kind && NULL != n->target) {
        sig_named(n->target);
    }
    for (size_t i = 0; i < n->nchild; i++) {
        refs_first(n->child[i]);
    }
}

uint64_t sig_fnv1a(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

bool sig_named(named_t *nt)
{
    if (NULL != nt->signature) {
        return true;
    }
    refs_first(nt->root);
    nt->fixed = !nt->broken && fixed(nt->root);
    if (nt->fixed && !nt->laid) {
        /* Its layout is the same now as at commit, which reports errors. */
        diags_t d = DIAGS_INIT;
        (void)layout_commit(nt, &d);
        diags_clear(&d);
    }
    strbuf_t b = STRBUF_INIT;
    if (TK_REF == nt->root->kind && NULL != nt->root->target->signature) {
        strbuf_printf(&b, "%s", nt->root->target->signature);
    } else {
        sig_node(nt->root, &b);
    }
    nt->signature = strbuf_finish(&b);
    if (NULL == nt->signature) {
        return false;
    }
    nt->fingerprint = sig_fnv1a(nt->signature, strlen(nt->signature));
    return true;
}
