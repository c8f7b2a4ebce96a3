/*
 * pmi_parse.c - the PMI wire formats, framing and splitting (see
 * pmi_parse.h).
 *
 * Design notes:
 *  - A PMI-1 command is one line, except a spawn, sent as several lines
 *    between "mcmd=spawn" and "endcmd" whose values may hold spaces (the
 *    program's arguments): those values run to the end of their line.
 *  - Keys are never empty; a value may be. A value runs to the next
 *    separator, so it may itself contain '=' (a base64 value does).
 *  - Nothing here allocates: a hostile command costs no more memory than
 *    its own bytes, which the caller bounds with PMI_MAX_COMMAND.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmi_parse.h"

static const char mcmd_prefix[] = "mcmd=";
static const char end_line[] = "endcmd\n";

pmix_status_t pmi_frame_v1(const char *buf, size_t len, size_t *cmdlen)
{
    size_t limit = len < PMI_MAX_COMMAND ? len : PMI_MAX_COMMAND;
    bool mcmd = len >= sizeof(mcmd_prefix) - 1 &&
                0 == memcmp(buf, mcmd_prefix, sizeof(mcmd_prefix) - 1);

    for (size_t i = 0; i < limit; i++) {
        if ('\n' != buf[i]) {
            continue;
        }
        if (!mcmd) {
            *cmdlen = i + 1;
            return PMIX_SUCCESS;
        }
        /* An mcmd block ends with its "endcmd" line. */
        size_t line = i + 1;
        size_t n = sizeof(end_line) - 1;
        if (line + n <= limit && 0 == memcmp(buf + line, end_line, n)) {
            *cmdlen = line + n;
            return PMIX_SUCCESS;
        }
    }
    return len >= PMI_MAX_COMMAND ? PMIX_ERR_BAD_PARAM : PMIX_ERR_WOULD_BLOCK;
}

pmix_status_t pmi_frame_v2(const char *buf, size_t len, size_t *start, size_t *cmdlen)
{
    size_t value = 0;
    bool digits = false, done = false;

    if (len < PMI2_LENGTH_DIGITS) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    /* Decimal digits, padded with spaces on either side. */
    for (size_t i = 0; i < PMI2_LENGTH_DIGITS; i++) {
        if (buf[i] >= '0' && buf[i] <= '9' && !done) {
            value = value * 10 + (size_t)(buf[i] - '0');
            digits = true;
        } else if (' ' == buf[i]) {
            done = digits;
        } else {
            return PMIX_ERR_BAD_PARAM;
        }
    }
    if (!digits || 0 == value || value > PMI_MAX_COMMAND) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (len - PMI2_LENGTH_DIGITS < value) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    *start = PMI2_LENGTH_DIGITS;
    *cmdlen = PMI2_LENGTH_DIGITS + value;
    return PMIX_SUCCESS;
}

static pmix_status_t add_pair(pmi_cmd_t *cmd, char *token)
{
    char *eq = strchr(token, '=');
    if (NULL == eq || eq == token || cmd->n >= PMI_MAX_PAIRS) {
        return PMIX_ERR_BAD_PARAM;
    }
    *eq = '\0';
    cmd->pairs[cmd->n].key = token;
    cmd->pairs[cmd->n].value = eq + 1;
    cmd->n++;
    return PMIX_SUCCESS;
}

/* The first pair names the command. */
static pmix_status_t check_first(const pmi_cmd_t *cmd, const char *a, const char *b)
{
    if (0 == cmd->n || (0 != strcmp(cmd->pairs[0].key, a) &&
                        (NULL == b || 0 != strcmp(cmd->pairs[0].key, b)))) {
        return PMIX_ERR_BAD_PARAM;
    }
    return '\0' == cmd->pairs[0].value[0] ? PMIX_ERR_BAD_PARAM : PMIX_SUCCESS;
}

pmix_status_t pmi_parse_v1(char *text, size_t len, pmi_cmd_t *cmd)
{
    bool mcmd = len >= sizeof(mcmd_prefix) - 1 &&
                0 == memcmp(text, mcmd_prefix, sizeof(mcmd_prefix) - 1);
    char *end = text + len;
    pmix_status_t rc = PMIX_SUCCESS;

    cmd->n = 0;
    text[len] = '\0';
    if (NULL != memchr(text, '\0', len)) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (char *p = text; p < end && PMIX_SUCCESS == rc;) {
        /* mcmd: one pair per line; a line: pairs between spaces. */
        size_t n = mcmd ? strcspn(p, "\n") : strcspn(p, " \t\r\n");
        char *next = p + n + (p + n < end ? 1 : 0);
        if (0 == n) {
            p = next;
            continue;
        }
        p[n] = '\0';
        if (!mcmd || 0 != strcmp(p, "endcmd")) {
            rc = add_pair(cmd, p);
        }
        p = next;
    }
    return PMIX_SUCCESS == rc ? check_first(cmd, "cmd", "mcmd") : rc;
}

pmix_status_t pmi_parse_v2(char *text, size_t len, pmi_cmd_t *cmd)
{
    char *end = text + len, *out = text;

    cmd->n = 0;
    if (NULL != memchr(text, '\0', len)) {
        return PMIX_ERR_BAD_PARAM;
    }
    /* Values are unescaped in place: out never passes the reader. */
    for (char *p = text; p < end;) {
        char *key = out;
        while (p < end && '=' != *p && ';' != *p) {
            *out++ = *p++;
        }
        if (p == end || ';' == *p || out == key || cmd->n >= PMI_MAX_PAIRS) {
            return PMIX_ERR_BAD_PARAM;
        }
        *out++ = '\0';
        p++;
        char *value = out;
        for (;;) {
            if (p == end) {
                return PMIX_ERR_BAD_PARAM; /* every value ends with ';' */
            }
            if (';' == *p && p + 1 < end && ';' == p[1]) {
                *out++ = ';';
                p += 2;
            } else if (';' == *p) {
                p++;
                break;
            } else {
                *out++ = *p++;
            }
        }
        *out++ = '\0';
        cmd->pairs[cmd->n].key = key;
        cmd->pairs[cmd->n].value = value;
        cmd->n++;
    }
    return check_first(cmd, "cmd", NULL);
}

const char *pmi_value_in(const pmi_cmd_t *cmd, size_t from, size_t to, const char *key)
{
    for (size_t i = from; i < to && i < cmd->n; i++) {
        if (0 == strcmp(cmd->pairs[i].key, key)) {
            return cmd->pairs[i].value;
        }
    }
    return NULL;
}

const char *pmi_value(const pmi_cmd_t *cmd, const char *key)
{
    return pmi_value_in(cmd, 0, cmd->n, key);
}

bool pmi_int_in(const pmi_cmd_t *cmd, size_t from, size_t to, const char *key, long min,
                long max, long *out)
{
    const char *v = pmi_value_in(cmd, from, to, key);
    char *end;

    if (NULL == v || '\0' == v[0]) {
        return false;
    }
    errno = 0;
    long n = strtol(v, &end, 10);
    if (0 != errno || '\0' != *end || n < min || n > max) {
        return false;
    }
    *out = n;
    return true;
}

bool pmi_int(const pmi_cmd_t *cmd, const char *key, long min, long max, long *out)
{
    return pmi_int_in(cmd, 0, cmd->n, key, min, max, out);
}

bool pmi_indexed(const pmi_cmd_t *cmd, size_t from, size_t to, const char *prefix, long base,
                 long n, const char **out)
{
    for (long i = 0; i < n; i++) {
        char key[64];
        snprintf(key, sizeof(key), "%s%ld", prefix, base + i);
        if (NULL == (out[i] = pmi_value_in(cmd, from, to, key))) {
            return false;
        }
    }
    return true;
}
