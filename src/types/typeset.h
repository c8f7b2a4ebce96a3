/*
 * typeset.h - the declared types of this process, for the rest of the
 * library and the drover command.
 */
#ifndef DROVER_TYPES_TYPESET_H
#define DROVER_TYPES_TYPESET_H

#include "drover.h"
#include "layout.h"

/* Load text as drover_types_load_string does, naming it file. */
pmix_status_t types_load(const char *file, const char *text, size_t len, unsigned flags,
                         char **errors);

/* Read a whole file (at most 16 MiB) into *text (NUL-terminated, caller
 * frees); on failure *errors (caller frees) says why in one line. */
pmix_status_t types_read_file(const char *path, char **text, size_t *len, char **errors);

/* Declare a tree built in C under name (NULL: "type.<id>"): checked, laid out with the
 * current bindings (which it must not lack) and registered with the next
 * id. root is consumed, whatever the outcome. *errors (may be NULL) as for
 * a load. */
pmix_status_t types_declare_tree(const char *name, tnode_t *root, pmix_data_type_t *id,
                                 char **errors);

/* The declared type of that name, or NULL; the i-th in declaration order
 * (NULL past the last); how many there are. Borrowed, valid for the life
 * of the process. */
const named_t *types_named(const char *name);
const named_t *types_at(size_t i);
size_t types_count(void);

#endif /* DROVER_TYPES_TYPESET_H */
