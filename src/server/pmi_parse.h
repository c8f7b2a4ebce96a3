/*
 * pmi_parse.h - the PMI wire formats: PMI-1 lines ("cmd=get key=k\n"),
 * PMI-1 multi-line commands ("mcmd=spawn\n...endcmd\n") and PMI-2's
 * length-prefixed commands ("25    cmd=kvs-fence;thrid=1;"). Private to
 * the server library.
 *
 * Pure functions over bytes, with no server state, so the fuzzers drive
 * them directly. Parsing is in place: the text is cut with '\0' and the
 * pairs point into it.
 */
#ifndef DROVER_PMI_PARSE_H
#define DROVER_PMI_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "pmix_common.h"

/* Most pairs in one command: a spawn of many arguments is the longest. */
#define PMI_MAX_PAIRS 512

/* The longest command accepted (PMI-2's own limit is 64 KiB). */
#define PMI_MAX_COMMAND (64 * 1024)

/* Bytes of PMI-2's length prefix. */
#define PMI2_LENGTH_DIGITS 6

typedef struct pmi_pair {
    const char *key;
    const char *value;
} pmi_pair_t;

typedef struct pmi_cmd {
    pmi_pair_t pairs[PMI_MAX_PAIRS];
    size_t n;
} pmi_cmd_t;

/* Where the next whole PMI-1 command (a line, or an mcmd block up to its
 * "endcmd" line) ends in buf: PMIX_SUCCESS with *cmdlen its bytes
 * including the last newline; PMIX_ERR_WOULD_BLOCK when incomplete;
 * PMIX_ERR_BAD_PARAM when it cannot become a command within
 * PMI_MAX_COMMAND bytes. */
pmix_status_t pmi_frame_v1(const char *buf, size_t len, size_t *cmdlen);

/* The same for PMI-2: *start is where the command's text begins (after the
 * length prefix), *cmdlen the whole command's bytes. */
pmix_status_t pmi_frame_v2(const char *buf, size_t len, size_t *start, size_t *cmdlen);

/* Split a PMI-1 command of len bytes (text[len] must be writable): a line
 * of space-separated key=value pairs, or an mcmd block of one pair per
 * line. The first pair is "cmd" (or "mcmd"). PMIX_ERR_BAD_PARAM when
 * malformed or when it has too many pairs. */
pmix_status_t pmi_parse_v1(char *text, size_t len, pmi_cmd_t *cmd);

/* Split a PMI-2 command's text: key=value pairs each ended by ';', a ';'
 * inside a value written ";;". The first pair is "cmd". */
pmix_status_t pmi_parse_v2(char *text, size_t len, pmi_cmd_t *cmd);

/* The value of the first pair named key, or NULL; _in: among the pairs
 * from index from to before index to. */
const char *pmi_value(const pmi_cmd_t *cmd, const char *key);
const char *pmi_value_in(const pmi_cmd_t *cmd, size_t from, size_t to, const char *key);

/* The value of key as an integer in [min, max]: false when absent, not a
 * whole decimal number, or out of range. */
bool pmi_int(const pmi_cmd_t *cmd, const char *key, long min, long max, long *out);
bool pmi_int_in(const pmi_cmd_t *cmd, size_t from, size_t to, const char *key, long min,
                long max, long *out);

/* The values of prefix<base> .. prefix<base + n - 1> (among pairs from ..
 * to) into out[0 .. n - 1]: false when one is missing. */
bool pmi_indexed(const pmi_cmd_t *cmd, size_t from, size_t to, const char *prefix, long base,
                 long n, const char **out);

#endif /* DROVER_PMI_PARSE_H */
