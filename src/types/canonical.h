/*
 * canonical.h - declared types written back as canonical YAML.
 */
#ifndef DROVER_TYPES_CANONICAL_H
#define DROVER_TYPES_CANONICAL_H

#include "layout.h"
#include "strbuf.h"

/* Append a YAML document declaring types[0..n) (and the metadata names
 * their expressions use) to b. The types they refer to must be among
 * them for the document to load on its own. */
void canonical_yaml(strbuf_t *b, const named_t *const *types, size_t n);

#endif /* DROVER_TYPES_CANONICAL_H */
