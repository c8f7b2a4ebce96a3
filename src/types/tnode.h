/*
 * tnode.h - validated type trees: the nodes a declared type is made of.
 *
 * A tree is built by appending children (tnode_append), which checks each
 * child against its parent's row of the child table at once, and is then
 * checked as a whole and laid out by layout_commit (layout.h). The YAML
 * loader and the C constructors build trees through the same calls.
 *
 * Node kinds and their children (the table in tnode.c is the reference):
 *   scalar, ref, expr        no children
 *   array                    dim, [dim]*, datatype
 *   dim                      expr, [expr], [expr]      size, subsize, start
 *   struct                   [member]*
 *   record                   expr, [member]*           buffersize first
 *   tuple                    [expr], [member]*         optional buffersize
 *   pointer                  datatype
 *   member                   datatype, [expr]          optional disp
 * where datatype is any of scalar, array, struct, record, tuple, pointer,
 * ref.
 */
#ifndef DROVER_TYPES_TNODE_H
#define DROVER_TYPES_TNODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "expr.h"
#include "pmix_common.h"

typedef enum tkind {
    TK_SCALAR,
    TK_ARRAY,
    TK_STRUCT,
    TK_RECORD,
    TK_TUPLE,
    TK_POINTER,
    TK_REF,
    TK_DIM,
    TK_MEMBER,
    TK_EXPR,
    TK_COUNT
} tkind_t;

/* How a scalar's values compare and print. */
typedef enum sclass { SC_SIGNED, SC_UNSIGNED, SC_FLOAT, SC_BYTE } sclass_t;

typedef struct scalar {
    const char *name;     /* as written in YAML: "unsigned long", "int32_t" */
    const char *c_name;   /* the C type with that layout */
    size_t size;          /* 1, 2, 4 or 8; also the alignment */
    sclass_t cls;
} scalar_t;

typedef struct attr {
    char *name;           /* without the '+' */
    char *value;          /* the YAML value as flow text */
} attr_t;

typedef struct named named_t;
typedef struct tnode tnode_t;

struct tnode {
    tkind_t kind;
    tnode_t *parent;
    tnode_t **child;
    size_t nchild;
    size_t cap;
    span_t span;
    char *name;              /* member: its name (NULL in a tuple); ref: target */
    scalar_t scalar;         /* scalar: a copy (Fortran kinds make new sizes) */
    expr_t *expr;            /* expr */
    attr_t *attrs;
    size_t nattrs;
    named_t *target;         /* ref: resolved at commit */

    /* Filled by layout_commit. */
    bool laid;
    size_t size;             /* bytes of one element in memory */
    size_t align;
    size_t off;              /* member: byte offset in its parent */
    int64_t n, sub, start;   /* dim: size, subsize, start */
    bool dense;              /* every byte is data, no pointer: copy as bytes */
    bool has_ptr;            /* holds a pointer somewhere: copy and release walk it */
    bool shaped;             /* dim: some bound depends on a binding */
    size_t min_wire;         /* fewest packed bytes of the element's data */
    unsigned height;         /* nesting below and including this node */
    pmix_data_type_t anon;   /* id decoding gave this unnamed part, or 0 */
};

/* Kind names as messages print them ("array", "member", ...). */
const char *tnode_kind_name(tkind_t kind);

/* The valid-children text of a kind, e.g. "dim, [dim]*, datatype". */
const char *tnode_format(tkind_t kind);

/* A new childless node; NULL when memory runs out. sp may be NULL. */
tnode_t *tnode_new(tkind_t kind, const span_t *sp);

/* Append child to parent. A child the parent's table refuses at this
 * position, or one that already has a parent, is refused: *err then holds
 * "item 'K' can't be child I of 'P'. The valid format is: 'F'." (caller
 * frees) and nothing changes; the caller still owns child. On success the
 * parent owns child. */
bool tnode_append(tnode_t *parent, tnode_t *child, char **err);

/* True when the children form a complete sequence for the kind (the arity
 * check of commit). */
bool tnode_complete(const tnode_t *n);

/* Free a node and its children (not ref targets). Accepts NULL. */
void tnode_free(tnode_t *n);

/* A deep copy with no parent, without layout; NULL when memory runs out. */
tnode_t *tnode_dup(const tnode_t *n);

/* Add an attribute (name without '+'); false when memory runs out. */
bool tnode_add_attr(tnode_t *n, const char *name, const char *value);

/* The value of n's attribute name (without '+'), or NULL. */
const char *tnode_attr(const tnode_t *n, const char *name);

/* Builtin scalars by YAML name (C, fixed-width, stdint families), or NULL. */
const scalar_t *scalar_find(const char *name);

/* A Fortran scalar (character, integer, logical, real) of the given kind
 * (0: the compiler's default); false for another name or a kind that is
 * not 1, 2, 4 or 8. */
bool scalar_fortran(const char *name, int64_t kind, scalar_t *out);
bool scalar_is_fortran(const char *name);

/* Every builtin scalar name, for suggestions. */
const char *const *scalar_names(size_t *n);

#endif /* DROVER_TYPES_TNODE_H */
