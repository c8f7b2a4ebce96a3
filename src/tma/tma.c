/*
 * tma.c - allocator handles: the heap behind a NULL handle, and the arena.
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
 *    what such allocators usually mean. realloc cannot be built that way,
 *    because the size of the old block is unknown, so tma_realloc fails on
 *    a handle without one.
 *  - The arena is a bump allocator over a caller region. Each allocation
 *    starts at the next 16-byte aligned address (aligned in absolute terms,
 *    whatever the alignment of the region itself) and occupies at least one
 *    byte, so two allocations never share an address and "the most recent
 *    allocation" is always well defined.
 *  - The arena keeps no per-block header. realloc of an older block copies
 *    at most the bytes between the block and the end of the used part, an
 *    upper bound of its size that never leaves the region.
 *  - All size arithmetic compares against the remaining space instead of
 *    adding first, so no request, however large, can wrap around.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tma.h"

#define ARENA_ALIGN 16u

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

void *tma_realloc(drover_tma_t *tma, void *ptr, size_t size)
{
    if (NULL == tma) {
        return realloc(ptr, size);
    }
    if (NULL == tma->realloc) {
        return NULL;
    }
    return tma->realloc(tma, ptr, size);
}

/* ---- Arena ------------------------------------------------------------- */

static tma_arena_t *arena_of(drover_tma_t *tma)
{
    return (tma_arena_t *)tma;
}

/* Offset of the first aligned address at or after offset from, or SIZE_MAX
 * when that address lies past the end of the region. */
static size_t arena_aligned_offset(const tma_arena_t *a, size_t from)
{
    uintptr_t addr = (uintptr_t)a->base + from;
    size_t pad = (size_t)(-addr & (ARENA_ALIGN - 1));

    if (from > a->size || pad > a->size - from) {
        return SIZE_MAX;
    }
    return from + pad;
}

/* True when ptr is the arena's most recent allocation. */
static bool arena_is_last(const tma_arena_t *a, const void *ptr)
{
    return a->used > a->last && (const char *)ptr == a->base + a->last;
}

static void *arena_malloc(drover_tma_t *tma, size_t size)
{
    tma_arena_t *a = arena_of(tma);
    size_t need = (0 == size) ? 1 : size;
    size_t off = arena_aligned_offset(a, a->used);

    if (SIZE_MAX == off || need > a->size - off) {
        return NULL;
    }
    a->last = off;
    a->used = off + need;
    return a->base + off;
}

static void *arena_calloc(drover_tma_t *tma, size_t nmemb, size_t size)
{
    size_t total;
    void *p;

    if (__builtin_mul_overflow(nmemb, size, &total)) {
        return NULL;
    }
    /* The region may be reused after a reset, so it is not known to be
     * zero. */
    p = arena_malloc(tma, total);
    if (NULL != p) {
        memset(p, 0, total);
    }
    return p;
}

static void *arena_realloc(drover_tma_t *tma, void *ptr, size_t size)
{
    tma_arena_t *a = arena_of(tma);
    size_t need = (0 == size) ? 1 : size;
    size_t avail;
    void *p;

    if (NULL == ptr) {
        return arena_malloc(tma, size);
    }
    if ((char *)ptr < a->base || (char *)ptr >= a->base + a->used) {
        return NULL;
    }
    if (arena_is_last(a, ptr)) {
        if (need > a->size - a->last) {
            return NULL;
        }
        a->used = a->last + need;
        return ptr;
    }
    /* The old block ends at or before the used mark: copying up to there
     * covers all of it without reading outside the region. */
    avail = (size_t)(a->base + a->used - (char *)ptr);
    p = arena_malloc(tma, size);
    if (NULL != p) {
        memcpy(p, ptr, need < avail ? need : avail);
    }
    return p;
}

static char *arena_strdup(drover_tma_t *tma, const char *s)
{
    size_t len = strlen(s) + 1;
    char *p = arena_malloc(tma, len);

    if (NULL != p) {
        memcpy(p, s, len);
    }
    return p;
}

/* Individual blocks are never returned: the whole arena is reset at once. */
static void arena_free(drover_tma_t *tma, void *ptr)
{
}

void tma_arena_init(tma_arena_t *arena, void *region, size_t size)
{
    arena->tma.malloc = arena_malloc;
    arena->tma.calloc = arena_calloc;
    arena->tma.realloc = arena_realloc;
    arena->tma.strdup = arena_strdup;
    arena->tma.free = arena_free;
    arena->base = region;
    arena->size = (NULL == region) ? 0 : size;
    tma_arena_reset(arena);
}

void tma_arena_reset(tma_arena_t *arena)
{
    arena->used = 0;
    arena->last = 0;
}

size_t tma_arena_used(const tma_arena_t *arena)
{
    return arena->used;
}
