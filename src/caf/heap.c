/*
 * heap.c - a deterministic first-fit allocator over a byte range.
 *
 * Symmetric coarrays rely on it: every image allocates and frees them in
 * the same order, so the same sequence of calls must give the same offsets
 * on every image. The allocator is first-fit over a free list sorted by
 * offset with full coalescing, keeps its bookkeeping in private memory, and
 * stores each block's size in a 64-byte header just before the block.
 */
#include <stdlib.h>
#include <string.h>

#include "caf.h"

#define ALIGN 64
#define HEADER ALIGN

struct caf_free {
    size_t off;
    size_t size;
};

void caf_heap_init(caf_heap_t *heap, char *base, size_t size)
{
    memset(heap, 0, sizeof(*heap));
    heap->base = base;
    heap->size = size;
}

void caf_heap_fini(caf_heap_t *heap)
{
    free(heap->free);
    heap->free = NULL;
    heap->nfree = heap->capfree = 0;
}

static int insert_at(caf_heap_t *heap, size_t i, size_t off, size_t size)
{
    if (heap->nfree == heap->capfree) {
        size_t cap = heap->capfree ? heap->capfree * 2 : 64;
        struct caf_free *grown = realloc(heap->free, cap * sizeof(*grown));
        if (NULL == grown) {
            return -1;
        }
        heap->free = grown;
        heap->capfree = cap;
    }
    memmove(&heap->free[i + 1], &heap->free[i], (heap->nfree - i) * sizeof(*heap->free));
    heap->free[i] = (struct caf_free){off, size};
    heap->nfree++;
    return 0;
}

static void remove_at(caf_heap_t *heap, size_t i)
{
    memmove(&heap->free[i], &heap->free[i + 1], (heap->nfree - i - 1) * sizeof(*heap->free));
    heap->nfree--;
}

void *caf_heap_alloc(caf_heap_t *heap, size_t size)
{
    size_t need = HEADER + ((size + ALIGN - 1) & ~(size_t)(ALIGN - 1));
    if (size > heap->size || need > heap->size) {
        return NULL;
    }
    size_t off = SIZE_MAX;
    for (size_t i = 0; i < heap->nfree; i++) {
        if (heap->free[i].size >= need) {
            off = heap->free[i].off;
            if (heap->free[i].size == need) {
                remove_at(heap, i);
            } else {
                heap->free[i].off += need;
                heap->free[i].size -= need;
            }
            break;
        }
    }
    if (SIZE_MAX == off) {
        /* Past the free list lies the untouched tail [top, size). */
        if (heap->size - heap->top < need) {
            return NULL;
        }
        off = heap->top;
        heap->top += need;
        if (heap->top > heap->fresh) {
            heap->fresh = heap->top;
        }
    }
    *(size_t *)(heap->base + off) = need;
    return heap->base + off + HEADER;
}

void caf_heap_free(caf_heap_t *heap, void *mem)
{
    if (NULL == mem) {
        return;
    }
    size_t off = (size_t)((char *)mem - heap->base) - HEADER;
    size_t size = *(size_t *)(heap->base + off);
    size_t lo = 0, hi = heap->nfree;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (heap->free[mid].off < off) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    bool merged = false;
    if (lo > 0 && heap->free[lo - 1].off + heap->free[lo - 1].size == off) {
        heap->free[lo - 1].size += size;
        merged = true;
        lo--;
    }
    if (!merged) {
        if (0 != insert_at(heap, lo, off, size)) {
            return; /* out of private memory: the block is leaked, never reused twice */
        }
    }
    if (lo + 1 < heap->nfree && heap->free[lo].off + heap->free[lo].size == heap->free[lo + 1].off) {
        heap->free[lo].size += heap->free[lo + 1].size;
        remove_at(heap, lo + 1);
    }
    /* A free block ending at the high-water mark goes back to the tail. */
    if (heap->nfree > 0 &&
        heap->free[heap->nfree - 1].off + heap->free[heap->nfree - 1].size == heap->top) {
        heap->top = heap->free[heap->nfree - 1].off;
        remove_at(heap, heap->nfree - 1);
    }
}

void *caf_heap_alloc_zeroed(caf_heap_t *heap, size_t size)
{
    size_t written = heap->fresh;
    char *mem = caf_heap_alloc(heap, size);
    if (NULL != mem) {
        /* Beyond the high-water mark the pages were never written: they are
         * still the zeros the kernel gave them, and may not be written now,
         * since other images may already use them. */
        size_t off = (size_t)(mem - heap->base);
        size_t dirty = off < written ? written - off : 0;
        memset(mem, 0, dirty < size ? dirty : size);
    }
    return mem;
}
