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

/* Most $-dependent bounds one type may carry on the wire. */
#define TYPES_MAX_SHAPE 256

#endif /* DROVER_TYPES_TYPES_H */
