/*
 * bench_common.h - what types_bench.c and mpi_pack.c share: the clock and
 * the struct both pack.
 */
#ifndef DROVER_BENCH_TYPES_COMMON_H
#define DROVER_BENCH_TYPES_COMMON_H

#include <time.h>

#define REPEAT 5

typedef struct cell {
    char a;
    int b[5][10];
} cell_t;

/* CPU time of this thread in ns: on a shared machine, wall time measures
 * the neighbours as much as the code. */
static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#endif /* DROVER_BENCH_TYPES_COMMON_H */
