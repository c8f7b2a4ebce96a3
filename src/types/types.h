/*
 * types.h - the declared-type table shared by the files of src/types.
 */
#ifndef DROVER_TYPES_TYPES_H
#define DROVER_TYPES_TYPES_H

#include "drover.h"
#include "layout.h"

/* The declared type registered under id, or NULL. Lock-free: a type is
 * filed here before its registry record is published. Borrowed, valid for
 * the life of the process. */
const named_t *types_by_id(pmix_data_type_t id);

/* The registry record of a laid-out named type, with the generic
 * functions of generic.c. */
drover_datatype_t generic_record(const named_t *nt);

/* The registry record of a named type for a process that only stores and
 * forwards its values: they are kept as their packed bytes (relay.c). */
drover_datatype_t relay_record(const named_t *nt);

/* The MPI lower bound of a laid-out node, where its bytes in memory start
 * relative to its origin: a struct's, record's or tuple's +lb attribute,
 * an array's element's, a reference's target's, 0 otherwise. */
int64_t types_lb(const tnode_t *n);

/* Bytes of a packed element's fixed header: fingerprint, bound count and
 * data length. */
#define GENERIC_HEADER 16

/* Most $-dependent bounds one type may carry on the wire. */
#define TYPES_MAX_SHAPE 256

#endif /* DROVER_TYPES_TYPES_H */
