/*
 * mpi_job.c - an MPI program for mpirun on drover's library: an allreduce,
 * a token passed around a ring, and proof that this rank runs drover's
 * libpmix.so.2 (from $DROVER_LIBDIR). Each rank prints one PASS line.
 * With the argument "abort", rank 1 calls MPI_Abort(3) after the
 * allreduce instead.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libpmix_of.h"

static int rank;

static void fail(const char *what)
{
    fprintf(stderr, "mpi_job: rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv)
{
    int size, sum = 0, token = 0;
    const char *libdir = getenv("DROVER_LIBDIR");
    bool seen;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (NULL == libdir || !libpmix_from(getpid(), libdir, &seen)) {
        fail(seen ? "libpmix.so.2 is not drover's" : "no libpmix.so.2 loaded");
    }

    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size * (size - 1) / 2) {
        fail("wrong allreduce sum");
    }
    if (argc > 1 && 0 == strcmp(argv[1], "abort") && 1 == rank) {
        MPI_Abort(MPI_COMM_WORLD, 3);
    }

    /* Each rank adds its rank to the token on the way round. */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (0 == rank) {
        MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (token != sum) {
            fail("wrong token after the ring");
        }
    } else {
        MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token += rank;
        MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
    }
    printf("PASS rank %d of %d: allreduce %d, ring\n", rank, size, sum);
    MPI_Finalize();
    return 0;
}
