/*
 * spec.h - PDI's specification-tree dialect: a YAML document's types:,
 * metadata: and data: sections turned into type trees.
 */
#ifndef DROVER_TYPES_SPEC_H
#define DROVER_TYPES_SPEC_H

#include "layout.h"
#include "ydoc.h"

/* One declaration read from a file: a named type (types:) or the type of
 * a named value (metadata:, data:). */
typedef struct spec_decl {
    named_t *named;          /* owned until handed on */
    bool is_value;
} spec_decl_t;

/* Convert docs (declarations in that order; their types:, metadata: and
 * data: sections merge: a document's include: is read by include.c).
 * A type name declared in two of them is an error. known lists the names of types declared earlier (for
 * references and suggestions). Every problem goes to d; lenient turns
 * unknown keys into warnings. *decls (caller frees each named with
 * types_named_free, then the array) holds every declaration in file
 * order; one with errors has no tree (root NULL). False when memory ran
 * out. */
bool spec_read(ydoc_t *const *docs, size_t ndocs, const char *const *known, size_t nknown,
               bool lenient, diags_t *d, spec_decl_t **decls, size_t *ndecls);

/* Free a named type that was never registered. Accepts NULL. */
void types_named_free(named_t *nt);

#endif /* DROVER_TYPES_SPEC_H */
