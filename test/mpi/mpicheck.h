/*
 * mpicheck.h - what the MPI test programs share: a check that reports a
 * failed condition with its rank, and the verdict every rank agrees on.
 */
#ifndef DROVER_TEST_MPICHECK_H
#define DROVER_TEST_MPICHECK_H

#include <mpi.h>
#include <stdio.h>

static int mpicheck_failures;

#define CHECK(cond, ...)                                                                \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            int rank_;                                                                  \
            MPI_Comm_rank(MPI_COMM_WORLD, &rank_);                                      \
            printf("not ok - rank %d: ", rank_);                                        \
            printf(__VA_ARGS__);                                                        \
            printf(" (%s:%d)\n", __FILE__, __LINE__);                                   \
            mpicheck_failures++;                                                        \
        }                                                                               \
    } while (0)

/* Rank 0 prints "PASS <what>" when no rank of comm failed a check; the
 * program's exit status says the same on every rank. */
static inline int mpicheck_verdict(MPI_Comm comm, const char *what)
{
    int total = 0, rank;
    MPI_Allreduce(&mpicheck_failures, &total, 1, MPI_INT, MPI_SUM, comm);
    MPI_Comm_rank(comm, &rank);
    if (0 == rank && 0 == total) {
        printf("PASS %s\n", what);
    }
    fflush(stdout);
    return 0 == total ? 0 : 1;
}

#endif
