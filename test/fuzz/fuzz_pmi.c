/*
 * fuzz_pmi.c - libFuzzer harness for the PMI wire parsers, built twice:
 * PMI_WIRE=1 (PMI-1 lines and mcmd blocks) and PMI_WIRE=2 (PMI-2's
 * length-prefixed commands).
 *
 * The input is a stream as a client would send it. Commands are framed
 * off its front one by one, as the server does, each copied into a buffer
 * of its exact size (so ASan sees any read past it), split, and checked:
 * every pair lies inside the command, keys are not empty, lookups agree
 * with the pairs. A framing or parsing error ends the stream, as it ends
 * the connection.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmi_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pmi_cmd_t cmd;

static void check_pairs(const char *text, size_t room)
{
    for (size_t i = 0; i < cmd.n; i++) {
        const char *k = cmd.pairs[i].key, *v = cmd.pairs[i].value;
        if (k < text || k >= text + room || v < text || v >= text + room || '\0' == k[0] ||
            NULL == memchr(k, '\0', (size_t)(text + room - k)) ||
            NULL == memchr(v, '\0', (size_t)(text + room - v))) {
            abort();
        }
        if (NULL == pmi_value(&cmd, k)) {
            abort();
        }
    }
    long n;
    if (pmi_int(&cmd, "rank", 0, 100, &n) && (n < 0 || n > 100)) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = (const char *)data;
    size_t left = size;

    while (left > 0) {
        size_t start = 0, cmdlen = 0;
        pmix_status_t rc = 1 == PMI_WIRE ? pmi_frame_v1(in, left, &cmdlen)
                                         : pmi_frame_v2(in, left, &start, &cmdlen);
        if (PMIX_SUCCESS != rc) {
            break;
        }
        if (cmdlen > left || start > cmdlen || cmdlen > PMI_MAX_COMMAND + PMI2_LENGTH_DIGITS) {
            abort();
        }
        /* As the server parses it: PMI-1 without the final newline. */
        size_t len = 1 == PMI_WIRE ? cmdlen - 1 : cmdlen - start;
        char *text = malloc(len + 1);
        if (NULL == text) {
            return 0;
        }
        memcpy(text, in + start, len + (1 == PMI_WIRE ? 1 : 0));
        rc = 1 == PMI_WIRE ? pmi_parse_v1(text, len, &cmd) : pmi_parse_v2(text, len, &cmd);
        if (PMIX_SUCCESS == rc) {
            check_pairs(text, len + 1);
        }
        free(text);
        if (PMIX_SUCCESS != rc) {
            break;
        }
        in += cmdlen;
        left -= cmdlen;
    }
    return 0;
}
