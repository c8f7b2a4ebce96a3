/*
 * tma.h - allocator handles, private part.
 *
 * drover.h declares drover_tma_t and the drover_tma_* calls that accept
 * NULL for the heap. Here are the allocators drover builds on them.
 */
#ifndef DROVER_TMA_H
#define DROVER_TMA_H

#include <stddef.h>

#include "drover.h"

/* Resize ptr, allocated through tma (NULL: the heap), as realloc does: the
 * result replaces ptr, which stays valid and owned by the caller when NULL
 * is returned. Fails on a handle that has no realloc. */
void *tma_realloc(drover_tma_t *tma, void *ptr, size_t size);

/* An arena carves allocations out of one caller-given region, bump-pointer
 * style, so a whole tree of values can live in a shared-memory segment.
 * free is a no-op; realloc of the most recent allocation grows in place.
 * Allocations are aligned to 16 bytes. */
typedef struct tma_arena {
    drover_tma_t tma;     /* first, so &arena->tma converts back */
    char *base;
    size_t size;
    size_t used;
    size_t last;          /* offset of the most recent allocation */
} tma_arena_t;

/* Set up an arena over [region, region + size). region must stay valid
 * while the arena is used; nothing is allocated. */
void tma_arena_init(tma_arena_t *arena, void *region, size_t size);

/* Forget every allocation made from the arena. */
void tma_arena_reset(tma_arena_t *arena);

/* Bytes handed out so far, alignment padding included. */
size_t tma_arena_used(const tma_arena_t *arena);

#endif /* DROVER_TMA_H */
