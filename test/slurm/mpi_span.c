/*
 * mpi_span.c - an unmodified Open MPI program across Slurm nodes.
 *
 * usage: mpi_span NODES [abort CODE | kill]
 *   Allreduce, bcast and alltoall across the world, checked by every rank,
 *   and the number of nodes Open MPI sees (one MPI_COMM_TYPE_SHARED
 *   communicator per node) must be NODES. Rank 0 prints "PASS mpi_span".
 *   "abort CODE": then the last rank calls MPI_Abort(CODE) while the
 *   others wait in a barrier; "kill": the last rank kills itself.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../mpi/mpicheck.h"

int main(int argc, char **argv)
{
    int rank, size, local_rank, nodes = 0, leader;
    long sum = 0, mine;
    MPI_Comm shared;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = rank + 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK((long)size * (size + 1) / 2 == sum, "allreduce sum %ld", sum);
    int token = rank == size - 1 ? 4242 : 0;
    MPI_Bcast(&token, 1, MPI_INT, size - 1, MPI_COMM_WORLD);
    CHECK(4242 == token, "bcast from the last rank: %d", token);
    int *out = malloc(size * sizeof(int)), *in = malloc(size * sizeof(int));
    for (int i = 0; i < size; i++) {
        out[i] = rank * 1000 + i;
    }
    MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++) {
        CHECK(in[i] == i * 1000 + rank, "alltoall from %d: %d", i, in[i]);
    }
    free(out);
    free(in);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
    MPI_Comm_rank(shared, &local_rank);
    leader = 0 == local_rank;
    MPI_Allreduce(&leader, &nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(argc > 1 && atoi(argv[1]) == nodes, "%d nodes seen, expected %s", nodes,
          argc > 1 ? argv[1] : "?");
    MPI_Comm_free(&shared);
    if (argc > 2 && rank == size - 1) {
        if (0 == strcmp(argv[2], "kill")) {
            raise(SIGKILL);
        }
        MPI_Abort(MPI_COMM_WORLD, argc > 3 ? atoi(argv[3]) : 1);
    }
    if (argc > 2) {
        MPI_Barrier(MPI_COMM_WORLD); /* the last rank never comes */
    }
    int rc = mpicheck_verdict(MPI_COMM_WORLD, "mpi_span");
    MPI_Finalize();
    return rc;
}
