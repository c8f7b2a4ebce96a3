/*
 * heap_warm.h - fault a thread's heap in before it is needed.
 *
 * A process that waits for work (a daemon's standby run, a server's
 * thread before its first registration) would otherwise pay, in the
 * middle of that work, for the malloc arena's creation and a page fault
 * for every page its first allocations touch: on 2 cores, a fifth of
 * the CPU a run spends before its ranks start.
 */
#ifndef DROVER_HEAP_WARM_H
#define DROVER_HEAP_WARM_H

#include <stddef.h>

/* Allocates about bytes from the calling thread's arena in pieces below
 * malloc's mmap threshold, writes them and frees them: the arena exists
 * and those pages are in memory. They stay so while the arena's free top
 * is below malloc's trim threshold (M_TRIM_THRESHOLD, 128 KiB unless
 * set). */
void heap_warm(size_t bytes);

#endif
