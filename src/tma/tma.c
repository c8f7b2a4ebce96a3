/*
 * tma.c - allocator handles: the heap behind a NULL handle.
 *
 * Every allocation drover makes on behalf of a value (copies, unpacked
 * elements) goes through a drover_tma_t so that a caller can place a whole
 * tree of values in memory of its choosing. A NULL handle means the C heap;
 * the drover_tma_* entry points hide that distinction from the rest of the
 * library.
 *
 * Design notes:
 *  - A handle supplied by a program may leave calloc, strdup or free unset;
 *    they are then built from its malloc (free becomes a no-op), which is
 *    what such allocators usually mean.
 *  - No allocator of drover's own stands behind a handle: every handle
 *    comes from a program, and the library itself uses the heap.
 */
#include <stdlib.h>
#include <string.h>

#include "drover.h"

/* ---- Entry points accepting a NULL handle ------------------------------ */

PMIX_EXPORT void *drover_tma_malloc(drover_tma_t *tma, size_t size)
{
    if (NULL == tma) {
        return malloc(size);
    }
    return tma->malloc(tma, size);
}

PMIX_EXPORT void *drover_tma_calloc(drover_tma_t *tma, size_t nmemb, size_t size)
{
    size_t total;
    void *p;

    /* Refused here for every allocator, so none has to be trusted with a
     * product that wraps. */
    if (__builtin_mul_overflow(nmemb, size, &total)) {
        return NULL;
    }
    if (NULL == tma) {
        return calloc(nmemb, size);
    }
    if (NULL != tma->calloc) {
        return tma->calloc(tma, nmemb, size);
    }
    p = tma->malloc(tma, total);
    if (NULL != p) {
        memset(p, 0, total);
    }
    return p;
}

PMIX_EXPORT char *drover_tma_strdup(drover_tma_t *tma, const char *s)
{
    size_t len;
    char *p;

    if (NULL == s) {
        return NULL;
    }
    if (NULL == tma) {
        return strdup(s);
    }
    if (NULL != tma->strdup) {
        return tma->strdup(tma, s);
    }
    len = strlen(s) + 1;
    p = tma->malloc(tma, len);
    if (NULL != p) {
        memcpy(p, s, len);
    }
    return p;
}

PMIX_EXPORT void drover_tma_free(drover_tma_t *tma, void *ptr)
{
    if (NULL == ptr) {
        return;
    }
    if (NULL == tma) {
        free(ptr);
    } else if (NULL != tma->free) {
        tma->free(tma, ptr);
    }
}
