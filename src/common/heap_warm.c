/*
 * heap_warm.c - fault a thread's heap in before it is needed (heap_warm.h
 * says why).
 */
#include <stdlib.h>
#include <string.h>

#include "heap_warm.h"

#define PIECE (16 * 1024)
#define MAX_PIECES 64

void heap_warm(size_t bytes)
{
    void *pieces[MAX_PIECES];
    size_t n = 0;
    while (n < MAX_PIECES && n * PIECE < bytes && NULL != (pieces[n] = malloc(PIECE))) {
        memset(pieces[n], 0, PIECE);
        /* The pointer escapes: the compiler may drop neither the stores
         * nor the allocation. */
        __asm__ volatile("" : : "r"(pieces[n]) : "memory");
        n++;
    }
    while (n-- > 0) {
        free(pieces[n]);
    }
}
