/* abort.c - rank argv[1] calls MPI_Abort with code argv[2]; the others
 * wait in a barrier it never reaches. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 2 && rank == atoi(argv[1])) {
        MPI_Abort(MPI_COMM_WORLD, atoi(argv[2]));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d passed a barrier\n", rank);
    MPI_Finalize();
    return 0;
}
