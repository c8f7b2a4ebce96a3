/*
 * include.h - PDI's include: a document's `include:` (a file name or a
 * list of them) read as documents whose sections merge with its own.
 */
#ifndef DROVER_TYPES_INCLUDE_H
#define DROVER_TYPES_INCLUDE_H

#include "ydoc.h"

/* Most files one load may include, and deepest chain of includes. */
#define INCLUDE_MAX_FILES 64
#define INCLUDE_MAX_DEPTH 16

/* The documents a load reads: the included ones, each after those it
 * includes itself, then the main one last (the order their declarations
 * are taken in). */
typedef struct docs {
    ydoc_t **doc;
    size_t n, cap;
    ydoc_t *main;     /* borrowed, once it is on the list */
} docs_t;

#define DOCS_INIT {NULL, 0, 0, NULL}

/* Read what main (the document of file, the name its messages carry)
 * includes, file names relative to the directory of the file that names
 * them, each file once; then main itself joins docs (borrowed: not freed
 * by include_free). Missing or unreadable files, cycles, chains deeper
 * than INCLUDE_MAX_DEPTH, more than INCLUDE_MAX_FILES files and errors
 * inside included files go to d, located. False when memory ran out. */
bool include_read(ydoc_t *main, const char *file, diags_t *d, docs_t *docs);

/* Free the included documents and the list. */
void include_free(docs_t *docs);

#endif /* DROVER_TYPES_INCLUDE_H */
