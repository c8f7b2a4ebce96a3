/*
 * directive.h - reading the directives that come with a request, the same
 * way wherever they are read: in the client, the server and the launcher.
 */
#ifndef DROVER_DIRECTIVE_H
#define DROVER_DIRECTIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmix_common.h"

/* The number in v, whichever integer type carries it: PMIX_INT, PMIX_INT8
 * to PMIX_INT64, PMIX_UINT, PMIX_UINT8 to PMIX_UINT64, PMIX_SIZE, PMIX_PID
 * and PMIX_PROC_RANK, as OpenPMIx reads numbers. PMIX_ERR_BAD_PARAM for
 * another type or a value beyond INT64_MAX; *out is then unchanged. */
pmix_status_t directive_integer(const pmix_value_t *v, int64_t *out);

/* The PMIX_TIMEOUT among info, in seconds (at most INT32_MAX); 0, meaning
 * none, when it is absent, not an integer or not positive. */
int directive_timeout(const pmix_info_t *info, size_t ninfo);

/* The value of the first info named key, or NULL. Borrowed from info. */
const pmix_value_t *directive_find(const pmix_info_t *info, size_t ninfo, const char *key);

/* Whether the boolean attribute key is set true among info (its first
 * occurrence decides; absent is false). */
bool directive_flag(const pmix_info_t *info, size_t ninfo, const char *key);

/* The processes of the first info named key (PMIX_EVENT_CUSTOM_RANGE,
 * say): one PMIX_PROC or a PMIX_PROC array, borrowed from info, *n of
 * them; NULL with *n 0 when it is absent or of another type. */
const pmix_proc_t *directive_procs(const pmix_info_t *info, size_t ninfo, const char *key,
                                   size_t *n);

/* Whether a debugger directive's value (PMIX_DEBUG_STOP_IN_INIT,
 * _ON_EXEC, _IN_APP) names proc, in any of the standard's forms: a bool
 * (true: every rank), a pmix_rank_t (PMIX_RANK_WILDCARD: every rank), a
 * pmix_proc_t or an array of pmix_proc_t or of pmix_rank_t. A process
 * whose namespace is empty names a rank of proc's job (a tool does not
 * know the namespace of the job it is spawning). PMIX_ERR_BAD_PARAM for
 * another type; *named is then false. */
pmix_status_t directive_names_proc(const pmix_value_t *v, const pmix_proc_t *proc, bool *named);

#endif /* DROVER_DIRECTIVE_H */
