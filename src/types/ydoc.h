/*
 * ydoc.h - a YAML document read into a tree with source positions, with
 * the limits a loader of untrusted files needs.
 *
 * Anchored nodes are shared by their aliases, not copied. Refused while
 * reading: nesting deeper than YDOC_MAX_DEPTH, more than YDOC_MAX_NODES
 * nodes, aliases that would expand the document past YDOC_MAX_WEIGHT
 * nodes (billion laughs), an alias to a node that contains it, input
 * above YDOC_MAX_BYTES, and more than one document. Duplicate keys are
 * reported (all of them) but kept, so the reader of the tree sees them.
 */
#ifndef DROVER_TYPES_YDOC_H
#define DROVER_TYPES_YDOC_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

#define YDOC_MAX_DEPTH 64
#define YDOC_MAX_NODES 100000
#define YDOC_MAX_WEIGHT 200000
#define YDOC_MAX_BYTES ((size_t)16 << 20)

typedef enum ykind { YN_SCALAR, YN_SEQ, YN_MAP } ykind_t;

typedef struct ynode ynode_t;
struct ynode {
    ykind_t kind;
    span_t span;
    char *text;           /* scalar: NUL-terminated value */
    bool plain;           /* scalar: written without quotes */
    ynode_t **items;      /* seq: items; map: key, value, key, value ... */
    size_t n;             /* entries in items */
    size_t cap;
    size_t weight;        /* nodes it stands for once aliases are expanded */
    bool open;            /* still being read */
};

typedef struct ydoc {
    ynode_t *root;        /* NULL for an empty document */
    ynode_t **all;        /* every node, for freeing */
    size_t nall;
    size_t cap;
} ydoc_t;

#define YDOC_INIT {NULL, NULL, 0, 0}

/* Read text (len bytes) into doc. file names the source in messages and
 * must outlive doc. False, with messages in d, when the text is not
 * acceptable YAML; doc then holds what was read (free it anyway). True
 * when the whole text was read, though d may hold errors about it
 * (duplicate or non-scalar keys). */
bool ydoc_parse(ydoc_t *doc, const char *file, const char *text, size_t len, diags_t *d);

/* Free every node. Accepts an empty doc. */
void ydoc_free(ydoc_t *doc);

/* Flow-style text of a node (for attributes); caller frees, NULL on OOM. */
char *ydoc_flow(const ynode_t *n);

#endif /* DROVER_TYPES_YDOC_H */
