/*
 * layout.c - commit of a type tree: whole-tree checks and C layout.
 *
 * Design notes:
 *  - Two passes. layout_check needs no values: arity, references, cycles,
 *    member naming and displacement rules; it runs once, at load. Layout
 *    needs the bindings; a type whose names are not bound yet is simply
 *    not laid out, and nothing about it is kept, so binding and retrying
 *    later gives the same result as if the values had been there first.
 *  - Layout follows the C rules for struct and tuple without disp (offset
 *    rounded up to each member's alignment, size to the largest), takes
 *    record and tuple displacements as given (unaligned is allowed, as in
 *    PDI) but refuses members outside buffersize or overlapping, and
 *    checks start + subsize <= size for every dimension. Sizes are
 *    computed with overflow checks and capped at TYPES_MAX_SIZE. +lb and
 *    +order are checked too, as they change bounds and decoding (extent.c,
 *    decode.c).
 *  - Paths in messages follow the YAML keys ("types.grid.members[2].b"),
 *    rebuilt from the tree so trees made through the C API get them too.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "construct.h"
#include "layout.h"
#include "types.h"

typedef struct check_ctx {
    layout_find_t find;
    void *arg;
    diags_t *d;
    path_t path;
    const char *stack[TYPES_MAX_DEPTH + 1];   /* named types being checked */
    size_t depth;
    bool ok;
} check_ctx_t;

static void check_named(check_ctx_t *c, named_t *nt, const tnode_t *via);

/* Path step for child i of n, in the YAML's spelling. */
static size_t push_child(path_t *p, const tnode_t *n, size_t i)
{
    const tnode_t *k = n->child[i];
    switch (n->kind) {
    case TK_ARRAY:
        return TK_DIM == k->kind ? path_push(p, "%s", "") : path_push(p, ".subtype");
    case TK_POINTER:
        return path_push(p, ".subtype");
    case TK_STRUCT:
        return path_push(p, ".members[%zu].%s", i, NULL == k->name ? "?" : k->name);
    case TK_RECORD:
    case TK_TUPLE:
        if (TK_EXPR == k->kind) {
            return path_push(p, ".buffersize");
        }
        if (TK_TUPLE == n->kind) {
            return path_push(p, ".elements[%zu]", i - (TK_EXPR == n->child[0]->kind));
        }
        return path_push(p, ".members.%s", NULL == k->name ? "?" : k->name);
    case TK_MEMBER:
        return 0 == i ? path_push(p, "%s", "") : path_push(p, ".disp");
    default:
        return path_push(p, "%s", "");
    }
}

static const span_t *span_of(const tnode_t *n)
{
    return NULL == n->span.file && 0 == n->span.line ? NULL : &n->span;
}

static void check_error(check_ctx_t *c, const tnode_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void check_error(check_ctx_t *c, const tnode_t *n, const char *fmt, ...)
{
    va_list ap;
    c->ok = false;
    va_start(ap, fmt);
    diags_verror(c->d, span_of(n), c->path.s, fmt, ap);
    va_end(ap);
}

static size_t members_from(const tnode_t *n)
{
    return (TK_RECORD == n->kind || TK_TUPLE == n->kind) && 0 < n->nchild &&
                   TK_EXPR == n->child[0]->kind
               ? 1
               : 0;
}

/* Naming and displacement rules of a struct, record or tuple's members. */
static void check_members(check_ctx_t *c, const tnode_t *n)
{
    size_t first = members_from(n);
    bool want_disp = TK_RECORD == n->kind || (TK_TUPLE == n->kind && 1 == first);
    for (size_t i = first; i < n->nchild; i++) {
        const tnode_t *m = n->child[i];
        bool has_disp = 2 == m->nchild;
        size_t mark = push_child(&c->path, n, i);
        if (TK_TUPLE != n->kind && NULL == m->name) {
            check_error(c, m, "a %s member needs a name", tnode_kind_name(n->kind));
        } else if (TK_TUPLE == n->kind && NULL != m->name) {
            check_error(c, m, "tuple elements have no names ('%s')", m->name);
        }
        if (want_disp && !has_disp) {
            if (TK_RECORD == n->kind) {
                check_error(c, m, "every record member needs a `disp'");
            } else {
                check_error(c, m, "a tuple with `buffersize' needs a `disp' on every element");
            }
        } else if (!want_disp && has_disp) {
            if (TK_STRUCT == n->kind) {
                check_error(c, m, "a struct member takes no `disp' (use a record)");
            } else {
                check_error(c, m, "a tuple without `buffersize' takes no `disp'");
            }
        }
        for (size_t j = first; NULL != m->name && j < i; j++) {
            if (NULL != n->child[j]->name && 0 == strcmp(n->child[j]->name, m->name)) {
                check_error(c, m, "member '%s' is declared twice", m->name);
                break;
            }
        }
        path_pop(&c->path, mark);
    }
}

static void check_node(check_ctx_t *c, tnode_t *n)
{
    if (!tnode_complete(n)) {
        check_error(c, n, "'%s' is incomplete. The valid format is: '%s'.", tnode_kind_name(n->kind),
                    tnode_format(n->kind));
        return;
    }
    if (TK_REF == n->kind) {
        n->target = c->find(n->name, c->arg);
        if (NULL == n->target) {
            check_error(c, n, "unknown type '%s'", n->name);
        } else {
            check_named(c, n->target, n);
        }
        return;
    }
    if (TK_STRUCT == n->kind || TK_RECORD == n->kind || TK_TUPLE == n->kind) {
        check_members(c, n);
    }
    for (size_t i = 0; i < n->nchild; i++) {
        size_t mark = push_child(&c->path, n, i);
        check_node(c, n->child[i]);
        path_pop(&c->path, mark);
    }
}

/* via: the reference that led here (NULL for the type being checked). */
static void check_named(check_ctx_t *c, named_t *nt, const tnode_t *via)
{
    if (NULL == nt->root) {
        nt->broken = true;   /* its errors are reported already */
        nt->visit = 2;
    }
    if (2 == nt->visit) {
        c->ok = c->ok && !nt->broken;
        return;
    }
    if (1 == nt->visit || c->depth >= TYPES_MAX_DEPTH) {
        /* Name the loop: from the first time nt appears on the stack. */
        char loop[512] = "";
        size_t used = 0;
        for (size_t i = 0; i < c->depth; i++) {
            if (0 == used && 0 != strcmp(c->stack[i], nt->name)) {
                continue;
            }
            used += (size_t)snprintf(loop + used, sizeof(loop) - used, "%s -> ", c->stack[i]);
            if (used >= sizeof(loop)) {
                break;
            }
        }
        if (used < sizeof(loop)) {
            snprintf(loop + used, sizeof(loop) - used, "%s", nt->name);
        }
        if (1 == nt->visit) {
            check_error(c, NULL == via ? nt->root : via, "type '%s' contains itself: %s", nt->name, loop);
        } else {
            check_error(c, NULL == via ? nt->root : via, "type '%s' nests too deeply", nt->name);
        }
        return;
    }
    path_t saved = c->path;
    bool outer_ok = c->ok;
    nt->visit = 1;
    c->stack[c->depth++] = nt->name;
    c->ok = true;
    path_pop(&c->path, 0);
    path_push(&c->path, "%s", nt->path);
    check_node(c, nt->root);
    nt->broken = !c->ok;
    c->depth--;
    nt->visit = 2;
    c->path = saved;
    c->ok = outer_ok && !nt->broken;
}

bool layout_check(named_t *nt, layout_find_t find, void *arg, diags_t *d)
{
    check_ctx_t *c = calloc(1, sizeof(*c));
    if (NULL == c) {
        d->oom = true;
        d->nerrors++;
        return false;
    }
    *c = (check_ctx_t){.find = find, .arg = arg, .d = d, .ok = true};
    check_named(c, nt, NULL);
    bool ok = c->ok;
    free(c);
    return ok;
}

/* ---- layout ---- */

typedef struct lay_ctx {
    diags_t *d;
    path_t path;
} lay_ctx_t;

static pmix_status_t lay_node(lay_ctx_t *c, tnode_t *n);

static pmix_status_t lay_error(lay_ctx_t *c, const tnode_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static pmix_status_t lay_error(lay_ctx_t *c, const tnode_t *n, const char *fmt, ...)
{
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&msg, fmt, ap) < 0) {
        msg = NULL;
    }
    va_end(ap);
    diags_error(c->d, span_of(n), c->path.s, "%s", NULL == msg ? "out of memory" : msg);
    free(msg);
    return PMIX_ERR_BAD_PARAM;
}

/* The value of an expr node, which must not be negative. */
static pmix_status_t eval_count(lay_ctx_t *c, const tnode_t *e, const char *what, int64_t *v)
{
    char *err = NULL;
    pmix_status_t rc = expr_eval(e->expr, v, &err);
    if (PMIX_ERR_NOT_AVAILABLE == rc) {
        free(err);
        return rc;
    }
    if (PMIX_SUCCESS != rc) {
        rc = lay_error(c, e, "%s: %s", what, NULL == err ? "out of memory" : err);
    } else if (*v < 0) {
        rc = lay_error(c, e, "%s is %" PRId64 ", which is negative", what, *v);
    }
    free(err);
    return rc;
}

/* The attributes that change bounds or decoding must be well-formed: a
 * struct's +lb an integer (its MPI lower bound), an array's +order c or
 * fortran (which order its subarray call named). */
static pmix_status_t check_attrs(lay_ctx_t *c, const tnode_t *n)
{
    bool bounded = TK_STRUCT == n->kind || TK_RECORD == n->kind || TK_TUPLE == n->kind;
    const char *lb = bounded ? tnode_attr(n, "lb") : NULL;
    const char *order = TK_ARRAY == n->kind ? tnode_attr(n, "order") : NULL;
    if (NULL != lb) {
        char *end;
        errno = 0;
        long long v = strtoll(lb, &end, 10);
        if (end == lb || '\0' != *end || 0 != errno || v < -(1ll << 62) || v > (1ll << 62)) {
            return lay_error(c, n, "+lb '%s' is not an integer of at most 62 bits", lb);
        }
    }
    if (NULL != order && 0 != strcmp(order, "c") && 0 != strcmp(order, "fortran")) {
        return lay_error(c, n, "+order '%s' is neither 'c' nor 'fortran'", order);
    }
    return PMIX_SUCCESS;
}

static size_t round_up(size_t v, size_t align)
{
    return (v + align - 1) / align * align;
}

static pmix_status_t lay_dim(lay_ctx_t *c, tnode_t *dim, size_t index)
{
    pmix_status_t rc = eval_count(c, dim->child[0], "size", &dim->n);
    dim->sub = dim->n;
    dim->start = 0;
    if (PMIX_SUCCESS == rc && 1 < dim->nchild) {
        rc = eval_count(c, dim->child[1], "subsize", &dim->sub);
    }
    if (PMIX_SUCCESS == rc && 2 < dim->nchild) {
        rc = eval_count(c, dim->child[2], "start", &dim->start);
    }
    if (PMIX_SUCCESS == rc && (dim->start > dim->n || dim->sub > dim->n - dim->start)) {
        rc = lay_error(c, dim, "dimension %zu: start %" PRId64 " + subsize %" PRId64
                               " is past its size %" PRId64, index, dim->start, dim->sub, dim->n);
    }
    dim->shaped = false;
    for (size_t i = 0; i < dim->nchild; i++) {
        dim->shaped = dim->shaped || !expr_is_constant(dim->child[i]->expr);
    }
    return rc;
}

static pmix_status_t lay_array(lay_ctx_t *c, tnode_t *n)
{
    tnode_t *sub = n->child[n->nchild - 1];
    size_t mark = path_push(&c->path, ".subtype");
    pmix_status_t rc = lay_node(c, sub);
    path_pop(&c->path, mark);
    size_t count = 1, used = 1;
    bool whole = true;
    for (size_t i = 0; PMIX_SUCCESS == rc && i + 1 < n->nchild; i++) {
        tnode_t *dim = n->child[i];
        rc = lay_dim(c, dim, i);
        if (PMIX_SUCCESS == rc && (__builtin_mul_overflow(count, (size_t)dim->n, &count) ||
                                   __builtin_mul_overflow(used, (size_t)dim->sub, &used))) {
            rc = lay_error(c, n, "the array's element count overflows");
        }
        whole = whole && dim->sub == dim->n;
    }
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (__builtin_mul_overflow(count, sub->size, &n->size) || n->size > TYPES_MAX_SIZE ||
        __builtin_mul_overflow(used, sub->min_wire, &n->min_wire)) {
        return lay_error(c, n, "the array is larger than %zu bytes", TYPES_MAX_SIZE);
    }
    if (0 != types_lb(sub) && DROVER_COMBINER_SUBARRAY == decode_combiner(n)) {
        return lay_error(c, n,
                         "a slice, several dimensions or Fortran order make a subarray, "
                         "which MPI gives lb 0, but its element's lb is %" PRId64
                         ": make it an array of one dimension",
                         types_lb(sub));
    }
    n->align = sub->align;
    n->dense = sub->dense && whole;
    n->has_ptr = sub->has_ptr;
    n->height = sub->height + 1;
    return PMIX_SUCCESS;
}

/* Struct, record or tuple. */
static pmix_status_t lay_members(lay_ctx_t *c, tnode_t *n)
{
    size_t first = members_from(n);
    bool explicit_layout = 1 == first;
    int64_t bufsize = 0;
    n->has_ptr = false;
    pmix_status_t rc = PMIX_SUCCESS;
    if (explicit_layout) {
        size_t mark = push_child(&c->path, n, 0);
        rc = eval_count(c, n->child[0], "buffersize", &bufsize);
        path_pop(&c->path, mark);
        if (PMIX_SUCCESS == rc && (size_t)bufsize > TYPES_MAX_SIZE) {
            rc = lay_error(c, n, "buffersize %" PRId64 " is larger than %zu bytes", bufsize, TYPES_MAX_SIZE);
        }
    }
    size_t off = 0, align = 1, min_wire = 0, covered = 0, hiend = 0;
    bool dense = true;
    unsigned height = 0;
    for (size_t i = first; PMIX_SUCCESS == rc && i < n->nchild; i++) {
        tnode_t *m = n->child[i];
        tnode_t *t = m->child[0];
        size_t mark = push_child(&c->path, n, i);
        rc = lay_node(c, t);
        int64_t disp = 0;
        if (PMIX_SUCCESS == rc && explicit_layout) {
            size_t dmark = path_push(&c->path, ".disp");
            rc = eval_count(c, m->child[1], "disp", &disp);
            path_pop(&c->path, dmark);
            if (PMIX_SUCCESS == rc && (disp > bufsize || t->size > (size_t)(bufsize - disp))) {
                rc = lay_error(c, m, "bytes %" PRId64 "..%zu are outside the buffersize of %" PRId64,
                               disp, (size_t)disp + t->size, bufsize);
            }
        }
        if (PMIX_SUCCESS == rc) {
            m->off = explicit_layout ? (size_t)disp : round_up(off, t->align);
            /* Members in increasing order (every block constructor's
             * common case) pass without the pairwise search. */
            if (explicit_layout && m->off < hiend) {
                for (size_t j = first; j < i && PMIX_SUCCESS == rc; j++) {
                    const tnode_t *o = n->child[j];
                    if (m->off < o->off + o->size && o->off < m->off + t->size && 0 != t->size &&
                        0 != o->size) {
                        rc = lay_error(c, m, "bytes %zu..%zu overlap %s (bytes %zu..%zu)", m->off,
                                       m->off + t->size, NULL == o->name ? "an earlier element" : o->name,
                                       o->off, o->off + o->size);
                    }
                }
            }
            m->size = t->size;
            hiend = 0 != t->size && m->off + t->size > hiend ? m->off + t->size : hiend;
            dense = dense && t->dense && m->off == covered;
            covered = m->off + t->size;
            off = m->off + t->size;
            align = t->align > align ? t->align : align;
            min_wire += t->min_wire;
            n->has_ptr = n->has_ptr || t->has_ptr;
            height = t->height > height ? t->height : height;
        }
        path_pop(&c->path, mark);
    }
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    n->size = explicit_layout ? (size_t)bufsize : round_up(0 == off ? 1 : off, align);
    n->align = align;
    n->dense = dense && covered == n->size;
    n->min_wire = min_wire;
    n->height = height + 1;
    if (n->size > TYPES_MAX_SIZE) {
        return lay_error(c, n, "the type is larger than %zu bytes", TYPES_MAX_SIZE);
    }
    return PMIX_SUCCESS;
}

static pmix_status_t lay_node(lay_ctx_t *c, tnode_t *n)
{
    pmix_status_t rc = PMIX_SUCCESS;
    if (n->laid) {
        return PMIX_SUCCESS;
    }
    switch (n->kind) {
    case TK_SCALAR:
        n->size = n->align = n->min_wire = n->scalar.size;
        n->dense = true;
        n->height = 1;
        break;
    case TK_POINTER: {
        size_t mark = path_push(&c->path, ".subtype");
        rc = lay_node(c, n->child[0]);
        path_pop(&c->path, mark);
        n->size = n->align = sizeof(void *);
        n->min_wire = 1;
        n->dense = false;
        n->has_ptr = true;
        n->height = n->child[0]->height + 1;
        break;
    }
    case TK_REF:
        rc = layout_commit(n->target, c->d);
        if (PMIX_SUCCESS == rc) {
            const tnode_t *t = n->target->root;
            n->size = t->size;
            n->align = t->align;
            n->min_wire = t->min_wire;
            n->dense = t->dense;
            n->has_ptr = t->has_ptr;
            n->height = t->height;
        }
        break;
    case TK_ARRAY:
        rc = lay_array(c, n);
        break;
    default:
        rc = lay_members(c, n);
        break;
    }
    if (PMIX_SUCCESS == rc) {
        rc = check_attrs(c, n);
    }
    if (PMIX_SUCCESS == rc && n->height > TYPES_MAX_DEPTH) {
        rc = lay_error(c, n, "the type nests deeper than %d levels", TYPES_MAX_DEPTH);
    }
    n->laid = PMIX_SUCCESS == rc;
    return rc;
}

/* Forget a failed layout, down to (not into) other named types. */
static void unlay(tnode_t *n)
{
    n->laid = false;
    for (size_t i = 0; i < n->nchild; i++) {
        unlay(n->child[i]);
    }
}

pmix_status_t layout_commit(named_t *nt, diags_t *d)
{
    if (nt->laid) {
        return PMIX_SUCCESS;
    }
    if (nt->broken) {
        return PMIX_ERR_BAD_PARAM;
    }
    lay_ctx_t *c = calloc(1, sizeof(*c));
    if (NULL == c) {
        return PMIX_ERR_NOMEM;
    }
    c->d = d;
    path_push(&c->path, "%s", nt->path);
    pmix_status_t rc = lay_node(c, nt->root);
    /* Empty as MPI's count 0 when made so in C or said so (buffersize 0);
     * an array of 0 elements in a file is more likely a mistake. */
    if (PMIX_SUCCESS == rc && 0 == nt->root->size && !nt->built && 1 != members_from(nt->root)) {
        rc = lay_error(c, nt->root, "the type has size 0");
    }
    free(c);
    if (PMIX_SUCCESS != rc) {
        unlay(nt->root);
        return rc;
    }
    nt->laid = true;
    return PMIX_SUCCESS;
}
