/*
 * maps.c - PMIx_generate_regex and PMIx_generate_ppn, and reading their
 * output back (maps.h has the format).
 *
 * Design notes:
 *  - Both encoders are single passes over their input: a million ranks
 *    encode in milliseconds (OpenPMIx's ppn encoder is known to take
 *    seconds there).
 *  - Node names are grouped only with their neighbours, so the order of
 *    the nodes, which the rank map relies on, is kept exactly.
 *  - Readers refuse anything malformed or absurdly large with an error
 *    rather than guessing.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "maps.h"
#include "pmix.h"
#include "pmix_server.h"
#include "strbuf.h"

#define PREFIX "pmix:"
#define PREFIX_LEN 5
/* No node holds more ranks than this, and no map names more nodes than
 * MAX_NODES (the largest machines have some ten thousand). */
#define MAX_ITEMS (1u << 24)
#define MAX_NODES (1u << 20)

/* ---- Encoding --------------------------------------------------------- */

/* A node name cut around its last run of digits. */
typedef struct name_parts {
    const char *name;
    size_t len;
    size_t digits_at;    /* == len when there are no digits */
    size_t ndigits;
    unsigned width;      /* zero padding to keep, 0 for none */
    uint64_t number;
} name_parts_t;

static void cut_name(const char *name, size_t len, name_parts_t *p)
{
    size_t end = len;
    *p = (name_parts_t){.name = name, .len = len, .digits_at = len};
    while (end > 0 && !isdigit((unsigned char)name[end - 1])) {
        end--;
    }
    size_t start = end;
    while (start > 0 && isdigit((unsigned char)name[start - 1])) {
        start--;
    }
    if (start == end || end - start > 18) {
        return;
    }
    p->digits_at = start;
    p->ndigits = end - start;
    p->width = '0' == name[start] && p->ndigits > 1 ? (unsigned)p->ndigits : 0;
    p->number = strtoull(name + start, NULL, 10);
}

static bool same_group(const name_parts_t *a, const name_parts_t *b)
{
    return a->digits_at < a->len && b->digits_at < b->len && a->width == b->width &&
           a->digits_at == b->digits_at && 0 == memcmp(a->name, b->name, a->digits_at) &&
           a->len - a->digits_at - a->ndigits == b->len - b->digits_at - b->ndigits &&
           0 == strncmp(a->name + a->digits_at + a->ndigits, b->name + b->digits_at + b->ndigits,
                        a->len - a->digits_at - a->ndigits);
}

/* Append "a-b" or "a" runs of the n numbers, comma-separated. */
static void put_ranges(strbuf_t *b, const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && v[j + 1] == v[j] + 1) {
            j++;
        }
        strbuf_printf(b, i > 0 ? ",%" PRIu64 : "%" PRIu64, v[i]);
        if (j > i) {
            strbuf_printf(b, "-%" PRIu64, v[j]);
        }
        i = j + 1;
    }
}

static void put_group(strbuf_t *b, const name_parts_t *g, size_t n, uint64_t *numbers)
{
    if (1 == n) {
        strbuf_append(b, g[0].name, g[0].len);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        numbers[i] = g[i].number;
    }
    strbuf_append(b, g[0].name, g[0].digits_at);
    strbuf_printf(b, "[%u:", g[0].width);
    put_ranges(b, numbers, n);
    strbuf_append(b, "]", 1);
    size_t tail = g[0].digits_at + g[0].ndigits;
    strbuf_append(b, g[0].name + tail, g[0].len - tail);
}

PMIX_EXPORT pmix_status_t PMIx_generate_regex(const char *input, char **regex)
{
    size_t count = 1, n = 0;
    name_parts_t *parts;
    uint64_t *numbers;
    strbuf_t b = STRBUF_INIT;

    if (NULL == input || NULL == regex || NULL != strpbrk(input, "[]:;")) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (const char *p = input; '\0' != *p; p++) {
        count += ',' == *p;
    }
    parts = calloc(count, sizeof(*parts));
    numbers = calloc(count, sizeof(*numbers));
    if (NULL == parts || NULL == numbers) {
        free(parts);
        free(numbers);
        return PMIX_ERR_NOMEM;
    }
    for (const char *p = input;; p++) {
        const char *end = strchr(p, ',');
        size_t len = NULL == end ? strlen(p) : (size_t)(end - p);
        cut_name(p, len, &parts[n++]);
        if (NULL == end) {
            break;
        }
        p = end;
    }
    strbuf_append(&b, PREFIX, PREFIX_LEN);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && same_group(&parts[i], &parts[j])) {
            j++;
        }
        if (i > 0) {
            strbuf_append(&b, ",", 1);
        }
        put_group(&b, &parts[i], j - i, numbers);
        i = j;
    }
    free(parts);
    free(numbers);
    *regex = strbuf_finish(&b);
    return NULL == *regex ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

/* Parse an unsigned decimal at *p, advancing it. */
static bool read_number(const char **p, uint64_t *out)
{
    char *end;
    if (!isdigit((unsigned char)**p)) {
        return false;
    }
    errno = 0;
    *out = strtoull(*p, &end, 10);
    if (0 != errno) {
        return false;
    }
    *p = end;
    return true;
}

PMIX_EXPORT pmix_status_t PMIx_generate_ppn(const char *input, char **ppn)
{
    strbuf_t b = STRBUF_INIT;
    uint64_t *numbers = NULL;
    size_t cap = 0;

    if (NULL == input || NULL == ppn) {
        return PMIX_ERR_BAD_PARAM;
    }
    strbuf_append(&b, PREFIX, PREFIX_LEN);
    for (const char *p = input;;) {
        size_t n = 0;
        while ('\0' != *p && ';' != *p) {
            uint64_t v;
            if (!read_number(&p, &v) || v > UINT32_MAX || (',' != *p && ';' != *p && '\0' != *p)) {
                free(numbers);
                free(strbuf_finish(&b));
                return PMIX_ERR_BAD_PARAM;
            }
            if (n == cap) {
                size_t grown_cap = 0 == cap ? 64 : 2 * cap;
                uint64_t *grown = realloc(numbers, grown_cap * sizeof(*grown));
                if (NULL == grown) {
                    free(numbers);
                    free(strbuf_finish(&b));
                    return PMIX_ERR_NOMEM;
                }
                numbers = grown;
                cap = grown_cap;
            }
            numbers[n++] = v;
            p += ',' == *p;
        }
        put_ranges(&b, numbers, n);
        if ('\0' == *p) {
            break;
        }
        strbuf_append(&b, ";", 1);
        p++;
    }
    free(numbers);
    *ppn = strbuf_finish(&b);
    return NULL == *ppn ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

/* ---- Decoding --------------------------------------------------------- */

/* Skip a known method prefix. */
static const char *body_of(const char *map)
{
    if (0 == strncmp(map, PREFIX, PREFIX_LEN)) {
        return map + PREFIX_LEN;
    }
    if (0 == strncmp(map, "raw:", 4)) {
        return map + 4;
    }
    return map;
}

/* Read "a-b" or "a" at *p into [*lo, *hi]. */
static bool read_range(const char **p, uint64_t *lo, uint64_t *hi)
{
    if (!read_number(p, lo)) {
        return false;
    }
    *hi = *lo;
    if ('-' == **p) {
        (*p)++;
        if (!read_number(p, hi) || *hi < *lo || *hi - *lo >= MAX_ITEMS) {
            return false;
        }
    }
    return true;
}

/* The NULL-terminated argv being built by maps_parse_nodes. */
typedef struct name_list {
    char **names;
    size_t n;
    size_t cap;
} name_list_t;

/* Appends in amortised constant time: a map naming a million nodes must
 * not cost a million scans of the list so far. */
static pmix_status_t add_name(name_list_t *list, const char *name)
{
    if (list->n >= MAX_NODES) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (list->n + 1 >= list->cap) {
        size_t cap = 0 == list->cap ? 16 : 2 * list->cap;
        char **grown = realloc(list->names, cap * sizeof(*grown));
        if (NULL == grown) {
            return PMIX_ERR_NOMEM;
        }
        list->names = grown;
        list->cap = cap;
    }
    if (NULL == (list->names[list->n] = strdup(name))) {
        return PMIX_ERR_NOMEM;
    }
    list->names[++list->n] = NULL;
    return PMIX_SUCCESS;
}

/* Expand "prefix[width:ranges]suffix" (item of length len). */
static pmix_status_t expand_item(const char *item, size_t len, name_list_t *list)
{
    const char *open = memchr(item, '[', len);
    const char *close = NULL == open ? NULL : memchr(open, ']', len - (size_t)(open - item));
    uint64_t width, lo, hi;
    const char *p;
    char buf[512];

    if (NULL == open) {
        if (len >= sizeof(buf)) {
            return PMIX_ERR_BAD_PARAM;
        }
        memcpy(buf, item, len);
        buf[len] = '\0';
        return add_name(list, buf);
    }
    p = open + 1;
    if (NULL == close || !read_number(&p, &width) || ':' != *p++ || width > 18) {
        return PMIX_ERR_BAD_PARAM;
    }
    int plen = (int)(open - item), slen = (int)(len - (size_t)(close + 1 - item));
    while (p < close) {
        if (!read_range(&p, &lo, &hi) || (',' != *p && ']' != *p)) {
            return PMIX_ERR_BAD_PARAM;
        }
        for (uint64_t v = lo; v <= hi; v++) {
            int w = snprintf(buf, sizeof(buf), "%.*s%0*" PRIu64 "%.*s", plen, item, (int)width, v,
                             slen, close + 1);
            pmix_status_t rc = w < 0 || (size_t)w >= sizeof(buf) ? PMIX_ERR_BAD_PARAM
                                                                 : add_name(list, buf);
            if (PMIX_SUCCESS != rc) {
                return rc;
            }
        }
        p += ',' == *p;
    }
    return PMIX_SUCCESS;
}

pmix_status_t maps_parse_nodes(const char *map, char ***names)
{
    name_list_t list = {0};
    pmix_status_t rc = PMIX_SUCCESS;

    *names = NULL;
    if (NULL == map) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (const char *p = body_of(map); '\0' != *p && PMIX_SUCCESS == rc;) {
        const char *end = p;
        int depth = 0;
        while ('\0' != *end && (',' != *end || depth > 0)) {
            depth += ('[' == *end) - (']' == *end);
            end++;
        }
        rc = expand_item(p, (size_t)(end - p), &list);
        p = '\0' == *end ? end : end + 1;
    }
    if (PMIX_SUCCESS != rc) {
        pmix_argv_free(list.names);
        return rc;
    }
    *names = list.names;
    return PMIX_SUCCESS;
}

pmix_status_t maps_node_ranks(const char *map, size_t node_index, pmix_rank_t **ranks, size_t *n)
{
    const char *p;
    size_t cap = 0;

    *ranks = NULL;
    *n = 0;
    if (NULL == map) {
        return PMIX_ERR_BAD_PARAM;
    }
    p = body_of(map);
    for (size_t i = 0; i < node_index; i++) {
        if (NULL == (p = strchr(p, ';'))) {
            return PMIX_ERR_NOT_FOUND;
        }
        p++;
    }
    while ('\0' != *p && ';' != *p) {
        uint64_t lo, hi;
        if (!read_range(&p, &lo, &hi) || hi > UINT32_MAX || (',' != *p && ';' != *p && '\0' != *p)) {
            free(*ranks);
            *ranks = NULL;
            *n = 0;
            return PMIX_ERR_BAD_PARAM;
        }
        for (uint64_t v = lo; v <= hi; v++) {
            if (*n == cap) {
                cap = 0 == cap ? 16 : 2 * cap;
                pmix_rank_t *grown = cap > MAX_ITEMS ? NULL : realloc(*ranks, cap * sizeof(*grown));
                if (NULL == grown) {
                    free(*ranks);
                    *ranks = NULL;
                    *n = 0;
                    return PMIX_ERR_NOMEM;
                }
                *ranks = grown;
            }
            (*ranks)[(*n)++] = (pmix_rank_t)v;
        }
        p += ',' == *p;
    }
    return PMIX_SUCCESS;
}
