/*
 * abort.c RANK CODE - RANK calls MPI_Abort(MPI_COMM_WORLD, CODE) while
 * every other rank waits in a barrier that can never complete: the launcher
 * must end them all and exit with CODE.
 */
#include <stdlib.h>

#include "mpicheck.h"

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    if (argc != 3) {
        fprintf(stderr, "usage: abort RANK CODE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (atoi(argv[1]) == rank) {
        printf("rank %d aborts\n", rank);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, atoi(argv[2]));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d passed a barrier it should never pass\n", rank);
    MPI_Finalize();
    return 0;
}
