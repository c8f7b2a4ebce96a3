/*
 * describe.h - text and JSON views of declared types.
 */
#ifndef DROVER_TYPES_DESCRIBE_H
#define DROVER_TYPES_DESCRIBE_H

#include <stdbool.h>

#include "layout.h"
#include "strbuf.h"

/* Append nt's tree to b: indented text, or one JSON object (first: no
 * separating comma before it). */
void describe_named(strbuf_t *b, const named_t *nt, bool json, bool first);

#endif /* DROVER_TYPES_DESCRIBE_H */
