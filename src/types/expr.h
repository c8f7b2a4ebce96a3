/*
 * expr.h - PDI's $-expressions: integer arithmetic over values the program
 * binds by name (drover_type_bind).
 *
 * Grammar (docs/datatypes.md has it with examples):
 *   operation := term (op term)*    precedence low to high: |, &, =, < >, + -, * / %
 *   term      := integer | reference | '(' operation ')'
 *   integer   := C strtol base 0 (42, 0x2A, 052), optional sign
 *   reference := '$' iref [':' fmt] | '${' iref [':' fmt] '}'
 *   iref      := id ('[' operation ']' | '.' id)*
 * In text, '$(' operation ')' and references are replaced by their values;
 * '\\' and '\$' escape.
 */
#ifndef DROVER_TYPES_EXPR_H
#define DROVER_TYPES_EXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "pmix_common.h"
#include "strbuf.h"

typedef struct expr expr_t;

/* Parse text as an integer expression. On failure NULL, and *err holds a
 * one-line reason the caller frees with free() (NULL when memory ran
 * out). The result is freed with expr_free (which accepts NULL). */
expr_t *expr_parse(const char *text, char **err);
void expr_free(expr_t *e);

/* A deep copy, or NULL when memory runs out. */
expr_t *expr_dup(const expr_t *e);

/* Value of e with the current bindings. PMIX_ERR_NOT_AVAILABLE when a
 * name is not bound, PMIX_ERR_BAD_PARAM for a division by zero, an index
 * out of range or an overflow; *err then says which (caller frees). */
pmix_status_t expr_eval(const expr_t *e, int64_t *out, char **err);

/* True when e refers to no name (its value never changes). */
bool expr_is_constant(const expr_t *e);

/* The canonical text of e: decimal literals, references as ${a.b[i]},
 * every operation in parentheses. Two expressions with the same canonical
 * text always have the same value. */
void expr_print(const expr_t *e, strbuf_t *b);

/* Call fn with the first name of every reference in e. */
void expr_foreach_name(const expr_t *e, void (*fn)(const char *name, void *arg), void *arg);

/* text with its references and $( ) replaced by their values. Caller
 * frees; NULL and *err on failure, as expr_eval. */
char *expr_interpolate(const char *text, char **err);

/* Bound values: a copy of the n values bound to path ("n", "rec.sub"), or
 * PMIX_ERR_NOT_FOUND. *v is freed with free(). */
pmix_status_t bind_get(const char *path, int64_t **v, size_t *n);

#endif /* DROVER_TYPES_EXPR_H */
