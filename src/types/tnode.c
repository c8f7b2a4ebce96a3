/*
 * tnode.c - type tree nodes and the one table of which children each kind
 * accepts (see tnode.h).
 *
 * Design notes:
 *  - Each kind's row is a list of slots, each a set of kinds with a
 *    repetition (one, optional, any number, at least one). Both the check
 *    on insertion and the format text in messages are derived from the
 *    row, so they cannot disagree (PSyIR keeps the two by hand).
 *  - Matching runs the children through the row as a small automaton whose
 *    states are (slot, slot already matched): a child is accepted when some
 *    state survives it; the tree is complete when the end is reachable.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "tnode.h"

typedef enum rep { R_ONE, R_OPT, R_STAR, R_PLUS } rep_t;

typedef struct slot {
    uint32_t kinds;      /* bit per tkind_t */
    rep_t rep;
} slot_t;

#define BIT(k) (1u << (k))
#define DATATYPE (BIT(TK_SCALAR) | BIT(TK_ARRAY) | BIT(TK_STRUCT) | BIT(TK_RECORD) | \
                  BIT(TK_TUPLE) | BIT(TK_POINTER) | BIT(TK_REF))
#define MAX_SLOTS 4

typedef struct kind_row {
    const char *name;
    size_t nslots;
    slot_t slots[MAX_SLOTS];
} kind_row_t;

static const kind_row_t rows[TK_COUNT] = {
    [TK_SCALAR] = {"scalar", 0, {{0, R_ONE}}},
    [TK_ARRAY] = {"array", 3, {{BIT(TK_DIM), R_ONE}, {BIT(TK_DIM), R_STAR}, {DATATYPE, R_ONE}}},
    [TK_STRUCT] = {"struct", 1, {{BIT(TK_MEMBER), R_STAR}}},
    [TK_RECORD] = {"record", 2, {{BIT(TK_EXPR), R_ONE}, {BIT(TK_MEMBER), R_STAR}}},
    [TK_TUPLE] = {"tuple", 2, {{BIT(TK_EXPR), R_OPT}, {BIT(TK_MEMBER), R_STAR}}},
    [TK_POINTER] = {"pointer", 1, {{DATATYPE, R_ONE}}},
    [TK_REF] = {"ref", 0, {{0, R_ONE}}},
    [TK_DIM] = {"dim", 3, {{BIT(TK_EXPR), R_ONE}, {BIT(TK_EXPR), R_OPT}, {BIT(TK_EXPR), R_OPT}}},
    [TK_MEMBER] = {"member", 2, {{DATATYPE, R_ONE}, {BIT(TK_EXPR), R_OPT}}},
    [TK_EXPR] = {"expr", 0, {{0, R_ONE}}},
};

const char *tnode_kind_name(tkind_t kind)
{
    return kind < TK_COUNT ? rows[kind].name : "?";
}

/* ---- format text, derived from the rows ---- */

static char formats[TK_COUNT][128];
static pthread_once_t formats_once = PTHREAD_ONCE_INIT;

static void kinds_text(uint32_t kinds, char *out, size_t len)
{
    if (DATATYPE == kinds) {
        snprintf(out, len, "datatype");
        return;
    }
    size_t used = 0;
    out[0] = '\0';
    for (tkind_t k = 0; k < TK_COUNT; k++) {
        if (kinds & BIT(k)) {
            used += (size_t)snprintf(out + used, len - used, "%s%s", 0 == used ? "" : " | ",
                                     rows[k].name);
        }
    }
}

static void build_formats(void)
{
    for (tkind_t k = 0; k < TK_COUNT; k++) {
        const kind_row_t *r = &rows[k];
        size_t used = 0;
        size_t len = sizeof(formats[k]);
        for (size_t i = 0; i < r->nslots; i++) {
            char what[64];
            kinds_text(r->slots[i].kinds, what, sizeof(what));
            static const char *const open[] = {"", "[", "[", "["};
            static const char *const close[] = {"", "]", "]*", "]+"};
            rep_t rep = r->slots[i].rep;
            used += (size_t)snprintf(formats[k] + used, len - used, "%s%s%s%s", 0 == i ? "" : ", ",
                                     open[rep], what, close[rep]);
        }
    }
}

const char *tnode_format(tkind_t kind)
{
    pthread_once(&formats_once, build_formats);
    return kind < TK_COUNT ? formats[kind] : "";
}

/* ---- matching ---- */

/* States: bit 2p is "at slot p, not matched yet", 2p+1 "matched once". */
static uint64_t closure(const kind_row_t *r, uint64_t states)
{
    for (size_t p = 0; p < r->nslots; p++) {
        rep_t rep = r->slots[p].rep;
        bool may_skip = R_OPT == rep || R_STAR == rep;
        if ((states & (1ull << (2 * p))) && may_skip) {
            states |= 1ull << (2 * (p + 1));
        }
        if ((states & (1ull << (2 * p + 1))) && (R_STAR == rep || R_PLUS == rep)) {
            states |= 1ull << (2 * (p + 1));
        }
    }
    return states;
}

static uint64_t step(const kind_row_t *r, uint64_t states, tkind_t k)
{
    uint64_t next = 0;
    states = closure(r, states);
    for (size_t p = 0; p < r->nslots; p++) {
        if (!(r->slots[p].kinds & BIT(k)) || !(states & (3ull << (2 * p)))) {
            continue;
        }
        rep_t rep = r->slots[p].rep;
        if (R_ONE == rep || R_OPT == rep) {
            next |= (states & (1ull << (2 * p))) ? 1ull << (2 * (p + 1)) : 0;
        } else {
            next |= 1ull << (2 * p + 1);
        }
    }
    return next;
}

static uint64_t run(const tnode_t *n, size_t upto)
{
    const kind_row_t *r = &rows[n->kind];
    uint64_t states = 1;
    for (size_t i = 0; i < upto && 0 != states; i++) {
        states = step(r, states, n->child[i]->kind);
    }
    return states;
}

bool tnode_complete(const tnode_t *n)
{
    const kind_row_t *r = &rows[n->kind];
    return 0 != (closure(r, run(n, n->nchild)) & (1ull << (2 * r->nslots)));
}

bool tnode_append(tnode_t *parent, tnode_t *child, char **err)
{
    *err = NULL;
    const kind_row_t *r = &rows[parent->kind];
    if (NULL != child->parent) {
        if (asprintf(err, "item '%s' can't be added as child of '%s' because it is not an orphan. "
                          "It already has a '%s' as a parent.",
                     rows[child->kind].name, r->name, rows[child->parent->kind].name) < 0) {
            *err = NULL;
        }
        return false;
    }
    if (0 == step(r, run(parent, parent->nchild), child->kind)) {
        int rc = 0 == r->nslots
                     ? asprintf(err, "item '%s' can't be child %zu of '%s'. %s is a leaf and doesn't accept children.",
                                rows[child->kind].name, parent->nchild, r->name, r->name)
                     : asprintf(err, "item '%s' can't be child %zu of '%s'. The valid format is: '%s'.",
                                rows[child->kind].name, parent->nchild, r->name,
                                tnode_format(parent->kind));
        if (rc < 0) {
            *err = NULL;
        }
        return false;
    }
    if (parent->nchild == parent->cap) {
        size_t cap = 0 == parent->cap ? 4 : 2 * parent->cap;
        tnode_t **v = realloc(parent->child, cap * sizeof(*v));
        if (NULL == v) {
            *err = strdup("out of memory");
            return false;
        }
        parent->child = v;
        parent->cap = cap;
    }
    parent->child[parent->nchild++] = child;
    child->parent = parent;
    return true;
}

/* ---- life cycle ---- */

tnode_t *tnode_new(tkind_t kind, const span_t *sp)
{
    tnode_t *n = calloc(1, sizeof(*n));
    if (NULL != n) {
        n->kind = kind;
        if (NULL != sp) {
            n->span = *sp;
        }
    }
    return n;
}

void tnode_free(tnode_t *n)
{
    if (NULL == n) {
        return;
    }
    for (size_t i = 0; i < n->nchild; i++) {
        tnode_free(n->child[i]);
    }
    for (size_t i = 0; i < n->nattrs; i++) {
        free(n->attrs[i].name);
        free(n->attrs[i].value);
    }
    free(n->attrs);
    free(n->child);
    free(n->name);
    expr_free(n->expr);
    free(n);
}

bool tnode_add_attr(tnode_t *n, const char *name, const char *value)
{
    attr_t *v = realloc(n->attrs, (n->nattrs + 1) * sizeof(*v));
    if (NULL == v) {
        return false;
    }
    n->attrs = v;
    attr_t a = {strdup(name), strdup(value)};
    if (NULL == a.name || NULL == a.value) {
        free(a.name);
        free(a.value);
        return false;
    }
    n->attrs[n->nattrs++] = a;
    return true;
}

const char *tnode_attr(const tnode_t *n, const char *name)
{
    for (size_t i = 0; i < n->nattrs; i++) {
        if (0 == strcmp(name, n->attrs[i].name)) {
            return n->attrs[i].value;
        }
    }
    return NULL;
}

tnode_t *tnode_dup(const tnode_t *n)
{
    tnode_t *c = tnode_new(n->kind, &n->span);
    if (NULL == c) {
        return NULL;
    }
    c->scalar = n->scalar;
    bool ok = (NULL == n->name || NULL != (c->name = strdup(n->name))) &&
              (NULL == n->expr || NULL != (c->expr = expr_dup(n->expr)));
    for (size_t i = 0; ok && i < n->nattrs; i++) {
        ok = tnode_add_attr(c, n->attrs[i].name, n->attrs[i].value);
    }
    for (size_t i = 0; ok && i < n->nchild; i++) {
        tnode_t *k = tnode_dup(n->child[i]);
        char *err = NULL;
        ok = NULL != k && tnode_append(c, k, &err);
        if (!ok) {
            tnode_free(k);
        }
        free(err);
    }
    if (!ok) {
        tnode_free(c);
        return NULL;
    }
    return c;
}
