/* hello.c - an MPICH program: init, the rank and size, a sum over every
 * rank, finalize. Prints one PASS line (rank 0) when the sum is right. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("%s hello from %d ranks\n", sum == size * (size - 1) / 2 ? "PASS" : "FAIL", size);
    }
    MPI_Finalize();
    return 0;
}
