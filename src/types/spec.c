/*
 * spec.c - reading PDI's specification-tree type dialect (see spec.h and
 * docs/datatypes.md).
 *
 * Design notes:
 *  - Two passes over the document: the first collects the names of types:
 *    and of metadata:/data: values, so references may come in any order
 *    and misspellings get suggestions; the second converts each entry.
 *  - Every entry is converted even after an error in another, and inside
 *    an entry every key is checked, so one run reports every problem. An
 *    entry with an error is not handed on: a half-converted tree would only
 *    produce follow-on errors.
 *  - Where PDI is lax this is strict: unknown keys (PDI ignores them) are
 *    errors (warnings when lenient), as are references to values no
 *    metadata:/data: entry declares, use-site keys on a named type, and
 *    start + subsize past size (checked at layout).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hashmap.h"
#include "plan.h"
#include "spec.h"

typedef struct spec {
    diags_t *d;
    bool lenient;
    path_t path;
    const char **names;        /* candidates for type-name suggestions */
    size_t nnames;
    size_t cap;
    hashmap_t types;           /* names of types: here and earlier */
    hashmap_t values;          /* names of metadata:/data: values */
    const char **vnames;
    size_t nvnames;
    size_t errors;             /* errors in the entry being converted */
    bool oom;
} spec_t;

static void err(spec_t *s, const ynode_t *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void err(spec_t *s, const ynode_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diags_verror(s->d, NULL == at ? NULL : &at->span, s->path.s, fmt, ap);
    va_end(ap);
    s->errors++;
}

/* Unknown keys are errors, or warnings when lenient. */
static void unknown(spec_t *s, const ynode_t *at, const char *what, const char *key,
                    const char *const *valid, size_t nvalid)
{
    size_t mark = path_push(&s->path, "%s%s", 0 == s->path.len ? "" : ".", key);
    diags_unknown_key(s->d, s->lenient, &at->span, s->path.s, what, key, valid, nvalid);
    if (!s->lenient) {
        s->errors++;
    }
    path_pop(&s->path, mark);
}

static const ynode_t *get(const ynode_t *map, const char *key)
{
    for (size_t i = 0; i + 1 < map->n; i += 2) {
        if (YN_SCALAR == map->items[i]->kind && 0 == strcmp(map->items[i]->text, key)) {
            return map->items[i + 1];
        }
    }
    return NULL;
}

/* A key written, even if its value had errors. */
static bool has_key(const ynode_t *y, const char *key)
{
    return YN_MAP == y->kind && NULL != get(y, key);
}

static tnode_t *node(spec_t *s, tkind_t kind, const ynode_t *at)
{
    tnode_t *n = tnode_new(kind, &at->span);
    if (NULL == n) {
        s->oom = true;
    }
    return n;
}

/* Append, or free child; false when either is missing or refused. */
static bool add(spec_t *s, tnode_t *parent, tnode_t *child)
{
    char *e = NULL;
    if (NULL == parent || NULL == child || !tnode_append(parent, child, &e)) {
        if (NULL != e) {
            diags_error(s->d, &child->span, s->path.s, "%s", e);
            s->errors++;
        }
        free(e);
        tnode_free(child);
        return false;
    }
    return true;
}

/* ---- expressions ---- */

typedef struct name_check {
    spec_t *s;
    const ynode_t *at;
} name_check_t;

static void check_value_name(const char *name, void *arg)
{
    name_check_t *c = arg;
    spec_t *s = c->s;
    if (NULL != hashmap_find_str(&s->values, name)) {
        return;
    }
    const char *near = diags_suggest(name, s->vnames, s->nvnames);
    if (s->lenient) {
        diags_warn(s->d, &c->at->span, s->path.s, "'$%s' is not declared in metadata: or data:", name);
    } else if (NULL != near) {
        err(s, c->at, "'$%s' is not declared in metadata: or data:; did you mean '$%s'?", name, near);
    } else {
        err(s, c->at, "'$%s' is not declared in metadata: or data:", name);
    }
}

static tnode_t *conv_expr(spec_t *s, const ynode_t *y, const char *what)
{
    if (YN_SCALAR != y->kind) {
        err(s, y, "`%s' must be an integer or a $-expression", what);
        return NULL;
    }
    char *why = NULL;
    expr_t *e = expr_parse(y->text, &why);
    if (NULL == e) {
        err(s, y, "`%s': '%s' is not an integer expression (%s)", what, y->text,
            NULL == why ? "out of memory" : why);
        free(why);
        return NULL;
    }
    name_check_t c = {s, y};
    expr_foreach_name(e, check_value_name, &c);
    tnode_t *n = node(s, TK_EXPR, y);
    if (NULL == n) {
        expr_free(e);
        return NULL;
    }
    n->expr = e;
    return n;
}

/* ---- datatypes ---- */

static tnode_t *conv_type(spec_t *s, const ynode_t *y, bool member, tnode_t **disp);

static const char *const kinds[] = {"array", "struct", "record", "tuple", "pointer"};

static tnode_t *conv_name(spec_t *s, const char *name, const ynode_t *at)
{
    scalar_t f;
    const scalar_t *sc = scalar_find(name);
    if (NULL == sc && scalar_fortran(name, 0, &f)) {
        sc = &f;
    }
    if (NULL != sc) {
        tnode_t *n = node(s, TK_SCALAR, at);
        if (NULL != n) {
            n->scalar = *sc;
        }
        return n;
    }
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        if (0 == strcmp(name, kinds[i])) {
            err(s, at, "'%s' needs its parameters: write a mapping with `type: %s'", name, name);
            return NULL;
        }
    }
    if (NULL == hashmap_find_str(&s->types, name)) {
        const char *near = diags_suggest(name, s->names, s->nnames);
        if (NULL != near) {
            err(s, at, "unknown type '%s'; did you mean '%s'?", name, near);
        } else {
            err(s, at, "unknown type '%s'", name);
        }
        return NULL;
    }
    tnode_t *n = node(s, TK_REF, at);
    if (NULL != n && NULL == (n->name = strdup(name))) {
        s->oom = true;
        tnode_free(n);
        return NULL;
    }
    return n;
}

/* The expressions of a size-like key: one, or one per dimension. */
static size_t conv_dims(spec_t *s, const ynode_t *y, const char *key, tnode_t **out, size_t max)
{
    size_t mark = path_push(&s->path, ".%s", key);
    size_t n = 0;
    if (YN_SEQ == y->kind) {
        if (0 == y->n) {
            err(s, y, "`%s' needs at least one dimension", key);
        }
        for (size_t i = 0; i < y->n && n < max; i++) {
            size_t m = path_push(&s->path, "[%zu]", i);
            out[n++] = conv_expr(s, y->items[i], key);
            path_pop(&s->path, m);
        }
        if (y->n > max) {
            err(s, y, "more than %zu dimensions", max);
        }
    } else {
        out[n++] = conv_expr(s, y, key);
    }
    path_pop(&s->path, mark);
    return n;
}

#define MAX_DIMS 32

static tnode_t *conv_array(spec_t *s, const ynode_t *y)
{
    tnode_t *sizes[MAX_DIMS] = {NULL}, *subs[MAX_DIMS] = {NULL}, *starts[MAX_DIMS] = {NULL};
    const ynode_t *ysize = get(y, "size"), *ysub = get(y, "subsize"), *ystart = get(y, "start");
    const ynode_t *ytype = get(y, "subtype"), *yorder = get(y, "order");
    size_t nsize = 0, nsub = 0, nstart = 0;
    size_t before = s->errors;
    if (NULL == ysize) {
        err(s, y, "an array needs a `size'");
    } else {
        nsize = conv_dims(s, ysize, "size", sizes, MAX_DIMS);
    }
    if (NULL != ysub) {
        nsub = conv_dims(s, ysub, "subsize", subs, MAX_DIMS);
    }
    if (NULL != ystart) {
        nstart = conv_dims(s, ystart, "start", starts, MAX_DIMS);
        if (NULL == ysub) {
            err(s, ystart, "an array with a `start' needs a `subsize'");
        }
    }
    if (NULL != ysub && NULL != ysize && nsub != nsize) {
        err(s, ysub, "`subsize' must have the same rank as `size': %zu != %zu", nsub, nsize);
    }
    if (NULL != ystart && NULL != ysize && nstart != nsize) {
        err(s, ystart, "`start' must have the same rank as `size': %zu != %zu", nstart, nsize);
    }
    /* Fortran order lists dimensions first index first: the tree keeps C
     * order, reversed, and +order: fortran says how it was declared. */
    bool fortran = NULL != yorder && YN_SCALAR == yorder->kind &&
                   (0 == strcmp(yorder->text, "Fortran") || 0 == strcmp(yorder->text, "fortran"));
    if (NULL != yorder && !fortran &&
        (YN_SCALAR != yorder->kind ||
         (0 != strcmp(yorder->text, "C") && 0 != strcmp(yorder->text, "c")))) {
        err(s, yorder, "`order' is C or Fortran");
    }
    tnode_t *sub = NULL;
    if (NULL == ytype) {
        err(s, y, "an array needs a `subtype'");
    } else {
        size_t mark = path_push(&s->path, ".subtype");
        sub = conv_type(s, ytype, false, NULL);
        path_pop(&s->path, mark);
    }
    tnode_t *n = NULL;
    if (s->errors == before && !s->oom) {
        n = node(s, TK_ARRAY, y);
    }
    if (NULL != n && fortran && !tnode_add_attr(n, "order", "fortran")) {
        s->oom = true;
        tnode_free(n);
        n = NULL;
    }
    for (size_t d = 0; NULL != n && d < nsize; d++) {
        size_t i = fortran ? nsize - 1 - d : d;
        tnode_t *parts[3] = {sizes[i], subs[i], starts[i]};
        sizes[i] = subs[i] = starts[i] = NULL;
        tnode_t *dim = node(s, TK_DIM, ysize);
        bool ok = NULL != dim;
        for (size_t k = 0; k < 3; k++) {
            if (ok && NULL != parts[k]) {
                ok = add(s, dim, parts[k]);
            } else {
                tnode_free(parts[k]);
            }
        }
        if (!ok) {
            tnode_free(dim);
            dim = NULL;
        }
        if (!add(s, n, dim)) {
            tnode_free(n);
            n = NULL;
        }
    }
    for (size_t i = 0; i < MAX_DIMS; i++) {
        tnode_free(sizes[i]);
        tnode_free(subs[i]);
        tnode_free(starts[i]);
    }
    if (!add(s, n, sub)) {
        tnode_free(n);
        return NULL;
    }
    return n;
}

static tnode_t *member(spec_t *s, const ynode_t *at, const char *name, tnode_t *type, tnode_t *disp)
{
    tnode_t *m = NULL == type ? NULL : node(s, TK_MEMBER, at);
    if (NULL != m && NULL != name && NULL == (m->name = strdup(name))) {
        s->oom = true;
    }
    bool ok = add(s, m, type);
    if (ok && NULL != disp) {
        ok = add(s, m, disp);
    } else {
        tnode_free(disp);
    }
    if (!ok || s->oom) {
        tnode_free(m);
        return NULL;
    }
    return m;
}

/* struct: members is a sequence of one-key mappings, in order. */
static void conv_struct_members(spec_t *s, tnode_t *n, const ynode_t *ym)
{
    size_t mark = path_push(&s->path, ".members");
    if (YN_SEQ != ym->kind) {
        err(s, ym, "expected an ordered mapping (a sequence of `- name: type'), found %s",
            YN_MAP == ym->kind ? "an (unordered) mapping" : "a value");
        path_pop(&s->path, mark);
        return;
    }
    for (size_t i = 0; i < ym->n; i++) {
        const ynode_t *item = ym->items[i];
        size_t m = path_push(&s->path, "[%zu]", i);
        if (YN_MAP != item->kind || 2 != item->n) {
            err(s, item, "a struct member is a mapping with exactly one key, its name");
        } else {
            size_t k = path_push(&s->path, ".%s", item->items[0]->text);
            tnode_t *t = conv_type(s, item->items[1], false, NULL);
            add(s, n, member(s, item->items[0], item->items[0]->text, t, NULL));
            path_pop(&s->path, k);
        }
        path_pop(&s->path, m);
    }
    path_pop(&s->path, mark);
}

/* record: members is a mapping name -> type with disp. */
static void conv_record_members(spec_t *s, tnode_t *n, const ynode_t *ym)
{
    size_t mark = path_push(&s->path, ".members");
    if (YN_MAP != ym->kind) {
        err(s, ym, "the members of a record are a mapping of names to types with `disp'");
        path_pop(&s->path, mark);
        return;
    }
    for (size_t i = 0; i + 1 < ym->n; i += 2) {
        const ynode_t *key = ym->items[i];
        size_t k = path_push(&s->path, ".%s", key->text);
        tnode_t *disp = NULL;
        tnode_t *t = conv_type(s, ym->items[i + 1], true, &disp);
        if (NULL != t && NULL == disp && !has_key(ym->items[i + 1], "disp")) {
            err(s, ym->items[i + 1], "every record member needs a `disp'");
        }
        add(s, n, member(s, key, key->text, t, disp));
        path_pop(&s->path, k);
    }
    path_pop(&s->path, mark);
}

static void conv_tuple_elements(spec_t *s, tnode_t *n, const ynode_t *ye, bool with_disp)
{
    size_t mark = path_push(&s->path, ".elements");
    if (YN_SEQ != ye->kind) {
        err(s, ye, "`elements' is a sequence of types");
        path_pop(&s->path, mark);
        return;
    }
    for (size_t i = 0; i < ye->n; i++) {
        size_t m = path_push(&s->path, "[%zu]", i);
        tnode_t *disp = NULL;
        tnode_t *t = conv_type(s, ye->items[i], true, &disp);
        if (NULL != t && with_disp && NULL == disp && !has_key(ye->items[i], "disp")) {
            err(s, ye->items[i], "a tuple with `buffersize' needs a `disp' on every element");
        } else if (NULL != t && !with_disp && NULL != disp) {
            err(s, ye->items[i], "a tuple without `buffersize' takes no `disp'");
        }
        add(s, n, member(s, ye->items[i], NULL, t, disp));
        path_pop(&s->path, m);
    }
    path_pop(&s->path, mark);
}

static tnode_t *conv_layout(spec_t *s, const ynode_t *y, tkind_t kind)
{
    const ynode_t *ybuf = get(y, "buffersize");
    const ynode_t *ym = get(y, TK_TUPLE == kind ? "elements" : "members");
    /* A record without buffersize is an error; its members are still read
     * for their own errors, into a node that accepts them without one (the
     * entry is dropped anyway). */
    tnode_t *n = node(s, TK_RECORD == kind && NULL == ybuf ? TK_TUPLE : kind, y);
    if (TK_STRUCT != kind && NULL != ybuf) {
        size_t mark = path_push(&s->path, ".buffersize");
        add(s, n, conv_expr(s, ybuf, "buffersize"));
        path_pop(&s->path, mark);
    } else if (TK_RECORD == kind) {
        err(s, y, "a record needs a `buffersize'");
    }
    if (TK_TUPLE == kind && NULL == ym) {
        err(s, y, "a tuple needs `elements'");
    } else if (NULL != ym && TK_STRUCT == kind) {
        conv_struct_members(s, n, ym);
    } else if (NULL != ym && TK_RECORD == kind) {
        conv_record_members(s, n, ym);
    } else if (NULL != ym) {
        conv_tuple_elements(s, n, ym, NULL != ybuf);
    }
    return n;
}

static tnode_t *conv_pointer(spec_t *s, const ynode_t *y)
{
    const ynode_t *ytype = get(y, "subtype");
    if (NULL == ytype) {
        err(s, y, "a pointer needs a `subtype'");
        return NULL;
    }
    size_t mark = path_push(&s->path, ".subtype");
    tnode_t *sub = conv_type(s, ytype, false, NULL);
    path_pop(&s->path, mark);
    tnode_t *n = NULL == sub ? NULL : node(s, TK_POINTER, y);
    if (!add(s, n, sub)) {
        tnode_free(n);
        return NULL;
    }
    return n;
}

static tnode_t *conv_fortran(spec_t *s, const ynode_t *y, const char *name)
{
    const ynode_t *ykind = get(y, "kind");
    int64_t kind = 0;
    if (NULL != ykind) {
        char *end = NULL;
        errno = 0;
        kind = YN_SCALAR == ykind->kind ? strtoll(ykind->text, &end, 0) : -1;
        if (NULL == end || '\0' != *end || 0 != errno) {
            kind = -1;
        }
    }
    scalar_t sc;
    if (!scalar_fortran(name, kind, &sc)) {
        err(s, NULL == ykind ? y : ykind, "`kind' of %s must be %s", name,
            0 == strcmp(name, "real") ? "4 or 8" : "1, 2, 4 or 8");
        return NULL;
    }
    tnode_t *n = node(s, TK_SCALAR, y);
    if (NULL != n) {
        n->scalar = sc;
    }
    return n;
}

/* The keys each form takes besides `type', `disp' (members) and +attrs. */
typedef struct form {
    const char *kind;
    const char *keys[6];
    size_t nkeys;
} form_t;

static const form_t forms[] = {
    {"array", {"size", "subtype", "subsize", "start", "order"}, 5},
    {"struct", {"members"}, 1},
    {"record", {"buffersize", "members"}, 2},
    {"tuple", {"elements", "buffersize"}, 2},
    {"pointer", {"subtype"}, 1},
    {"character", {"kind"}, 1},
    {"integer", {"kind"}, 1},
    {"logical", {"kind"}, 1},
    {"real", {"kind"}, 1},
};

static void check_keys(spec_t *s, const ynode_t *y, const char *kind, bool member)
{
    const char *valid[8] = {"type"};
    size_t nvalid = 1;
    for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
        if (0 == strcmp(kind, forms[i].kind)) {
            for (size_t k = 0; k < forms[i].nkeys; k++) {
                valid[nvalid++] = forms[i].keys[k];
            }
        }
    }
    if (member) {
        valid[nvalid++] = "disp";
    }
    for (size_t i = 0; i + 1 < y->n; i += 2) {
        const char *key = y->items[i]->text;
        bool ok = '+' == key[0];
        for (size_t k = 0; k < nvalid && !ok; k++) {
            ok = 0 == strcmp(key, valid[k]);
        }
        if (!ok) {
            char what[96];
            snprintf(what, sizeof(what), "type %s", kind);
            unknown(s, y->items[i], what, key, valid, nvalid);
        }
    }
}

static void add_attrs(spec_t *s, tnode_t *n, const ynode_t *y)
{
    for (size_t i = 0; NULL != n && i + 1 < y->n; i += 2) {
        const char *key = y->items[i]->text;
        if ('+' != key[0]) {
            continue;
        }
        char *v = ydoc_flow(y->items[i + 1]);
        if (NULL == v || !tnode_add_attr(n, key + 1, v)) {
            s->oom = true;
        }
        free(v);
    }
}

static tnode_t *conv_type(spec_t *s, const ynode_t *y, bool member, tnode_t **disp)
{
    if (YN_SCALAR == y->kind) {
        return conv_name(s, y->text, y);
    }
    if (YN_MAP != y->kind) {
        err(s, y, "expected a type: a name, or a mapping with `type'");
        return NULL;
    }
    const ynode_t *yt = get(y, "type");
    if (NULL == yt || YN_SCALAR != yt->kind) {
        err(s, NULL == yt ? y : yt, NULL == yt ? "a type needs a `type'" : "`type' must be a name");
        return NULL;
    }
    const char *kind = yt->text;
    bool known_kind = scalar_is_fortran(kind);
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        known_kind = known_kind || 0 == strcmp(kind, kinds[i]);
    }
    if (!known_kind && NULL == hashmap_find_str(&s->types, kind)) {
        return conv_name(s, kind, yt);   /* reports the unknown type alone */
    }
    check_keys(s, y, kind, member);
    tnode_t *n;
    if (0 == strcmp(kind, "array")) {
        n = conv_array(s, y);
    } else if (0 == strcmp(kind, "struct")) {
        n = conv_layout(s, y, TK_STRUCT);
    } else if (0 == strcmp(kind, "record")) {
        n = conv_layout(s, y, TK_RECORD);
    } else if (0 == strcmp(kind, "tuple")) {
        n = conv_layout(s, y, TK_TUPLE);
    } else if (0 == strcmp(kind, "pointer")) {
        n = conv_pointer(s, y);
    } else if (scalar_is_fortran(kind)) {
        n = conv_fortran(s, y, kind);
    } else {
        n = conv_name(s, kind, yt);
        if (NULL != n) {
            n->span = y->span;
        }
    }
    const ynode_t *yd = member ? get(y, "disp") : NULL;
    if (NULL != yd) {
        size_t mark = path_push(&s->path, ".disp");
        *disp = conv_expr(s, yd, "disp");
        path_pop(&s->path, mark);
    }
    add_attrs(s, n, y);
    return n;
}

/* ---- the document ---- */

static bool note_name(hashmap_t *set, const char *name, const char ***list, size_t *n,
                      size_t *cap)
{
    bool created;
    if (NULL == hashmap_insert_str(set, name, &created)) {
        return false;
    }
    if (*n == *cap) {
        size_t c = 0 == *cap ? 64 : 2 * *cap;
        const char **v = realloc(*list, c * sizeof(*v));
        if (NULL == v) {
            return false;
        }
        *list = v;
        *cap = c;
    }
    (*list)[(*n)++] = name;
    return true;
}

static const char *const root_keys[] = {"types", "metadata", "data"};

static bool collect_names(spec_t *s, const ynode_t *root, const char *const *known, size_t nknown)
{
    size_t vcap = 0;
    size_t nsc;
    const char *const *sc = scalar_names(&nsc);
    for (size_t i = 0; i < nsc; i++) {
        if (!note_name(&s->types, sc[i], &s->names, &s->nnames, &s->cap)) {
            return false;
        }
    }
    hashmap_t kindset = HASHMAP_INIT;
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        if (!note_name(&kindset, kinds[i], &s->names, &s->nnames, &s->cap)) {
            hashmap_clear(&kindset, NULL);
            return false;
        }
    }
    hashmap_clear(&kindset, NULL);
    for (size_t i = 0; i < nknown; i++) {
        if (!note_name(&s->types, known[i], &s->names, &s->nnames, &s->cap)) {
            return false;
        }
    }
    for (size_t i = 0; i + 1 < root->n; i += 2) {
        const char *section = root->items[i]->text;
        const ynode_t *body = root->items[i + 1];
        bool is_types = 0 == strcmp(section, "types");
        if (YN_MAP != body->kind || (!is_types && 0 != strcmp(section, "metadata") &&
                                     0 != strcmp(section, "data"))) {
            continue;
        }
        for (size_t k = 0; k + 1 < body->n; k += 2) {
            const char *name = body->items[k]->text;
            bool ok = is_types ? note_name(&s->types, name, &s->names, &s->nnames, &s->cap)
                               : note_name(&s->values, name, &s->vnames, &s->nvnames, &vcap);
            if (!ok) {
                return false;
            }
        }
    }
    return true;
}

void types_named_free(named_t *nt)
{
    if (NULL != nt) {
        free(nt->name);
        free(nt->path);
        free(nt->signature);
        free(nt->shape);
        plan_free(nt->plan);
        tnode_free(nt->root);
        free(nt);
    }
}

static bool emit(const ynode_t *key, const char *section, tnode_t *root, bool is_value,
                 spec_decl_t **decls, size_t *n, size_t *cap)
{
    if (*n == *cap) {
        size_t c = 2 * *cap + 8;
        spec_decl_t *v = realloc(*decls, c * sizeof(*v));
        if (NULL == v) {
            tnode_free(root);
            return false;
        }
        *decls = v;
        *cap = c;
    }
    named_t *nt = calloc(1, sizeof(*nt));
    if (NULL == nt) {
        tnode_free(root);
        return false;
    }
    nt->root = root;
    nt->span = key->span;
    nt->name = strdup(key->text);
    if (asprintf(&nt->path, "%s.%s", section, key->text) < 0) {
        nt->path = NULL;
    }
    if (NULL == nt->name || NULL == nt->path) {
        types_named_free(nt);
        return false;
    }
    (*decls)[(*n)++] = (spec_decl_t){nt, is_value};
    return true;
}

static void read_section(spec_t *s, const ynode_t *key, const ynode_t *body, bool is_value,
                         spec_decl_t **decls, size_t *n, size_t *cap, hashmap_t *seen)
{
    const char *section = key->text;
    size_t mark = path_push(&s->path, "%s", section);
    if (YN_MAP != body->kind) {
        err(s, body, "`%s' is a mapping of names to types", section);
        path_pop(&s->path, mark);
        return;
    }
    path_pop(&s->path, mark);
    for (size_t i = 0; i + 1 < body->n && !s->oom; i += 2) {
        const ynode_t *k = body->items[i];
        bool created = true;
        if (!is_value && NULL == hashmap_insert_str(seen, k->text, &created)) {
            s->oom = true;
            break;
        }
        if (!created) {
            continue;   /* a duplicate key, already reported */
        }
        size_t m = path_push(&s->path, "%s.%s", section, k->text);
        if (!is_value && (NULL != scalar_find(k->text) || scalar_is_fortran(k->text))) {
            err(s, k, "'%s' is a builtin type and cannot be declared again", k->text);
            path_pop(&s->path, m);
            continue;
        }
        size_t before = s->errors;
        tnode_t *t = conv_type(s, body->items[i + 1], false, NULL);
        if (s->errors != before) {
            /* Kept without a tree, so references to it are not reported
             * again as unknown. */
            tnode_free(t);
            t = NULL;
        }
        if ((NULL != t || s->errors != before) && !emit(k, section, t, is_value, decls, n, cap)) {
            s->oom = true;
        }
        path_pop(&s->path, m);
    }
}

bool spec_read(const ydoc_t *doc, const char *const *known, size_t nknown, bool lenient,
               diags_t *d, spec_decl_t **decls, size_t *ndecls)
{
    spec_t s = {.d = d, .lenient = lenient};
    size_t cap = 0;
    hashmap_t seen = HASHMAP_INIT;
    *decls = NULL;
    *ndecls = 0;
    const ynode_t *root = doc->root;
    if (NULL == root || YN_MAP != root->kind) {
        diags_error(d, NULL == root ? NULL : &root->span, NULL,
                    "the document must be a mapping with a `types:' section");
        return true;
    }
    if (!collect_names(&s, root, known, nknown)) {
        s.oom = true;
    }
    for (size_t i = 0; i + 1 < root->n && !s.oom; i += 2) {
        const ynode_t *key = root->items[i];
        const char *section = key->text;
        if (0 == strcmp(section, "types")) {
            read_section(&s, key, root->items[i + 1], false, decls, ndecls, &cap, &seen);
        } else if (0 == strcmp(section, "metadata") || 0 == strcmp(section, "data")) {
            read_section(&s, key, root->items[i + 1], true, decls, ndecls, &cap, &seen);
        } else if ('.' != section[0] && 0 != strcmp(section, "plugins") &&
                   0 != strcmp(section, "logging")) {
            unknown(&s, key, "a document", section, root_keys, 3);
        }
    }
    hashmap_clear(&seen, NULL);
    hashmap_clear(&s.types, NULL);
    hashmap_clear(&s.values, NULL);
    free(s.names);
    free(s.vnames);
    return !s.oom;
}
