/*
 * construct.h - building type trees in C: the constructors of drover.h and
 * the parts decoding needs.
 */
#ifndef DROVER_TYPES_CONSTRUCT_H
#define DROVER_TYPES_CONSTRUCT_H

#include "layout.h"

/* The builtin id for a scalar's class and size (PMIX_INT32 for int and
 * int32_t alike). */
pmix_data_type_t construct_scalar_id(const scalar_t *s);

/* A leaf standing for type id: a scalar for a builtin scalar id, a
 * reference for a declared type. PMIX_ERR_NOT_SUPPORTED for other types. */
pmix_status_t construct_leaf(pmix_data_type_t id, tnode_t **out);

/* Extent, alignment and lb of a type a constructor may use as an element
 * (a builtin scalar or a laid-out declared type); false for other types. */
bool construct_old(pmix_data_type_t id, size_t *extent, size_t *align, int64_t *lb);

/* Give tuple t the +lb attribute lb (none when 0); false when memory runs
 * out. */
bool construct_lb(tnode_t *t, int64_t lb);

/* An expression node of constant value v; NULL when memory runs out. */
tnode_t *construct_value(int64_t v);

/* The combiner a node decodes as when it is a type's root (decode.c). */
int decode_combiner(const tnode_t *n);

/* Append child to parent, or free child; false when refused or NULL. */
bool construct_add(tnode_t *parent, tnode_t *child);

/* An array node of the given dimensions (subsizes and starts NULL: no
 * slice) around leaf (consumed); NULL when memory runs out. */
tnode_t *construct_array(int ndims, const int sizes[], const int subsizes[], const int starts[],
                         tnode_t *leaf);

/* Append to tuple t an element of type leaf (consumed; NULL: memory ran
 * out) at byte disp; false when memory runs out. */
bool construct_element(tnode_t *t, tnode_t *leaf, int64_t disp);

#endif /* DROVER_TYPES_CONSTRUCT_H */
