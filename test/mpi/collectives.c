/*
 * collectives.c - allreduce, bcast, alltoall, gather and barrier on
 * MPI_COMM_WORLD, with results every rank checks; and the locality Open MPI
 * derived from drover's job description: all ranks share one node
 * (MPI_COMM_TYPE_SHARED spans the world).
 */
#include <stdlib.h>

#include "mpicheck.h"

enum { BCAST_LEN = 4096 };

static void allreduce(int rank, int size)
{
    long sum = 0, mine = rank + 1;
    int max = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK((long)size * (size + 1) / 2 == sum, "allreduce sum %ld", sum);
    MPI_Allreduce(&rank, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(size - 1 == max, "allreduce max %d", max);
}

static void bcast(int rank, int size)
{
    int root = size - 1, wrong = 0;
    int *buf = malloc(BCAST_LEN * sizeof(int));
    for (int i = 0; i < BCAST_LEN; i++) {
        buf[i] = rank == root ? i * 3 + 1 : -1;
    }
    MPI_Bcast(buf, BCAST_LEN, MPI_INT, root, MPI_COMM_WORLD);
    for (int i = 0; i < BCAST_LEN; i++) {
        wrong += buf[i] != i * 3 + 1;
    }
    CHECK(0 == wrong, "bcast from %d: %d elements wrong", root, wrong);
    free(buf);
}

static void alltoall(int rank, int size)
{
    int *out = malloc(size * sizeof(int)), *in = malloc(size * sizeof(int));
    int wrong = 0;
    for (int i = 0; i < size; i++) {
        out[i] = rank * 1000 + i;
    }
    MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < size; i++) {
        wrong += in[i] != i * 1000 + rank;
    }
    CHECK(0 == wrong, "alltoall: %d elements wrong", wrong);
    free(out);
    free(in);
}

static void gather(int rank, int size)
{
    int *all = malloc(size * sizeof(int)), wrong = 0;
    MPI_Gather(&rank, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int i = 0; 0 == rank && i < size; i++) {
        wrong += all[i] != i;
    }
    CHECK(0 == wrong, "gather: %d ranks wrong", wrong);
    free(all);
}

static void one_node(int size)
{
    MPI_Comm node;
    int node_size = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    CHECK(size == node_size, "%d of %d ranks share my node", node_size, size);
    MPI_Comm_free(&node);
}

int main(int argc, char **argv)
{
    int rank, size;
    char what[64];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    allreduce(rank, size);
    bcast(rank, size);
    alltoall(rank, size);
    gather(rank, size);
    one_node(size);
    MPI_Barrier(MPI_COMM_WORLD);
    snprintf(what, sizeof(what), "collectives on %d ranks", size);
    int rc = mpicheck_verdict(MPI_COMM_WORLD, what);
    MPI_Finalize();
    return rc;
}
