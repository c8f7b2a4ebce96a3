/*
 * layout.h - committing a type tree: the whole-tree checks, and the
 * layout (size, alignment, offsets) the C compiler would give it.
 */
#ifndef DROVER_TYPES_LAYOUT_H
#define DROVER_TYPES_LAYOUT_H

#include "diag.h"
#include "pmix_common.h"
#include "tnode.h"

/* Deepest nesting of a type (through named references too), and the
 * largest element, in bytes. */
#define TYPES_MAX_DEPTH 64
#define TYPES_MAX_SIZE ((size_t)1 << 30)

/* A named type: the unit that is registered, looked up and fingerprinted. */
struct named {
    char *name;
    char *path;              /* key path of its declaration: "types.grid" */
    tnode_t *root;           /* its datatype node */
    span_t span;
    pmix_data_type_t id;     /* 0 until assigned */
    uint64_t fingerprint;
    char *signature;         /* canonical text, owned */
    unsigned visit;          /* cycle search: 0 new, 1 on the path, 2 done */
    bool broken;             /* layout_check found errors in it */
    bool laid;               /* layout fixed for good */
    bool registered;
    bool relay;              /* registered with relay_record */
    int64_t *shape;          /* concrete $-dependent bounds, on the wire */
    size_t nshape;
    bool shape_done;
    struct plan *plan;       /* pointer-free types: packing as copies (plan.h) */
    bool fixed;              /* needs no $-value: signed in its laid-out form */
    bool built;              /* made in C (types_declare_tree): may be empty,
                              * as MPI's count 0; a file's type may not */
    bool part;               /* declared by decoding for an unnamed part:
                              * references spell its signature (signature.c) */
};

/* Finds a named type by name for references; NULL when unknown. */
typedef named_t *(*layout_find_t)(const char *name, void *arg);

/* The checks that do not depend on bindings: every node complete, every
 * reference resolved (setting target), no cycle through references,
 * members named as their parent needs and displacements given all or
 * none as it needs. Errors go to d with paths under nt->path. */
bool layout_check(named_t *nt, layout_find_t find, void *arg, diags_t *d);

/* Evaluate nt's expressions with the current bindings and lay it out
 * (named types it refers to first). PMIX_ERR_NOT_AVAILABLE, without a
 * message, when a name is not bound yet: nothing is fixed then and a
 * later call may succeed. PMIX_ERR_BAD_PARAM with messages in d for
 * values out of bounds, overflow or size limits. On success nt->laid. */
pmix_status_t layout_commit(named_t *nt, diags_t *d);

#endif /* DROVER_TYPES_LAYOUT_H */
