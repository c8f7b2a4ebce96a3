/*
 * mpi_spawn.c - MPI_Comm_spawn under mpirun on drover's library: the
 * parents spawn two children of this same program, reduce across the
 * intercommunicator both ways, and disconnect. Parents and children print
 * one PASS line each.
 */
#include <mpi.h>
#include <stdio.h>

#define CHILDREN 2

int main(int argc, char **argv)
{
    MPI_Comm parent, inter;
    int rank, size, remote, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int child = MPI_COMM_NULL != parent;
    if (!child) {
        MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, CHILDREN, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                       MPI_ERRCODES_IGNORE);
    } else {
        inter = parent;
    }
    MPI_Comm_remote_size(inter, &remote);
    /* Parents contribute 1 each, children 10 each: each side gets the
     * other's total. */
    int mine = child ? 10 : 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter);
    int expected = child ? remote : 10 * remote;
    if ((child ? size : remote) != CHILDREN || sum != expected) {
        fprintf(stderr, "mpi_spawn: %s %d: remote size %d, sum %d (expected %d)\n",
                child ? "child" : "parent", rank, remote, sum, expected);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    printf("PASS %s %d: %d on the other side, sum %d\n", child ? "child" : "parent", rank, remote,
           sum);
    MPI_Comm_disconnect(&inter);
    MPI_Finalize();
    return 0;
}
