/*
 * ring.c - point-to-point: a token goes round the ring of ranks a few
 * times (blocking sends), then every rank swaps a large buffer with both
 * neighbours (non-blocking), which takes the transports' large-message
 * paths. Contents and counts are checked on every rank. With the
 * arguments `appnum A` (an app of an MPMD job), each rank also checks
 * that its MPI_APPNUM is A.
 */
#include <stdlib.h>
#include <string.h>

#include "mpicheck.h"

enum { LAPS = 3, BIG = 1 << 18 };

static void pass_token(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int token = 0;
    for (int lap = 0; lap < LAPS; lap++) {
        if (0 == rank) {
            token++;
            MPI_Send(&token, 1, MPI_INT, next, lap, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, prev, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token++;
            MPI_Send(&token, 1, MPI_INT, next, lap, MPI_COMM_WORLD);
        }
    }
    if (0 == rank) {
        CHECK(LAPS * size == token, "token %d after %d laps of %d ranks", token, LAPS, size);
    }
}

static void swap_with_neighbours(int rank, int size)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int *out = malloc(BIG * sizeof(int)), *from_prev = malloc(BIG * sizeof(int));
    int *from_next = malloc(BIG * sizeof(int));
    for (int i = 0; i < BIG; i++) {
        out[i] = rank * 7 + i;
    }
    MPI_Request req[4];
    MPI_Irecv(from_prev, BIG, MPI_INT, prev, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(from_next, BIG, MPI_INT, next, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(out, BIG, MPI_INT, next, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(out, BIG, MPI_INT, prev, 2, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    int wrong = 0;
    for (int i = 0; i < BIG; i++) {
        wrong += from_prev[i] != prev * 7 + i || from_next[i] != next * 7 + i;
    }
    CHECK(0 == wrong, "%d elements wrong in the buffers of ranks %d and %d", wrong, prev, next);
    free(out);
    free(from_prev);
    free(from_next);
}

int main(int argc, char **argv)
{
    int rank, size;
    char what[64];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (3 == argc && 0 == strcmp(argv[1], "appnum")) {
        int *appnum, flag = 0;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
        CHECK(flag && *appnum == atoi(argv[2]), "MPI_APPNUM %d, not %s", flag ? *appnum : -1,
              argv[2]);
    }
    pass_token(rank, size);
    swap_with_neighbours(rank, size);
    snprintf(what, sizeof(what), "ring of %d ranks", size);
    int rc = mpicheck_verdict(MPI_COMM_WORLD, what);
    MPI_Finalize();
    return rc;
}
