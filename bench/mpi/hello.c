/*
 * hello.c - the smallest real MPI job: MPI_Init, one MPI_Allreduce,
 * MPI_Finalize. What it costs is almost all start-up and wire-up, the
 * part a launcher and its PMIx server decide.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int ok = sum == size * (size - 1) / 2;
    MPI_Finalize();
    return ok ? 0 : 1;
}
