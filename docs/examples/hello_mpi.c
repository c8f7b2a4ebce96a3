/*
 * hello_mpi.c - an ordinary Open MPI program, built with Debian's mpicc
 * and nothing of drover's: under `drover run` it wires up through drover's
 * libpmix.so.2 and talks to its peers over shared memory.
 *
 *     mpicc hello_mpi.c -o hello_mpi && drover run -n 4 ./hello_mpi
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, sum = 0;
    char node[MPI_MAX_PROCESSOR_NAME];
    int len;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(node, &len);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("MPI rank %d of %d on %s: the ranks add up to %d\n", rank, size, node, sum);
    MPI_Finalize();
    return sum == size * (size - 1) / 2 ? 0 : 1;
}
