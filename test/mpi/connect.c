/*
 * connect.c - MPI_Open_port, MPI_Comm_accept and MPI_Comm_connect, then
 * MPI_Comm_disconnect:
 *   connect job     the lower half of the ranks accepts, the upper half
 *                   connects (the port name travels over MPI_COMM_WORLD);
 *   connect spawn   the job publishes a port, spawns two processes, which
 *                   look the port up and connect to it: a second
 *                   intercommunicator beside the one spawning made.
 * On every new intercommunicator each side sums the other's ranks.
 */
#include <stdlib.h>
#include <string.h>

#include "mpicheck.h"

static const char service[] = "drover-test-connect";

/* Both sides of inter add up the other side's (rank + 1)s. */
static void check_remote(MPI_Comm inter, const char *what)
{
    int rank, remote = 0, sum = 0;
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_remote_size(inter, &remote);
    int mine = rank + 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter);
    CHECK(remote * (remote + 1) / 2 == sum, "%s: sum %d over %d remote ranks", what, sum,
          remote);
}

static void within_job(void)
{
    int rank, size;
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm half, inter;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int accepting = rank < size / 2;
    MPI_Comm_split(MPI_COMM_WORLD, accepting, rank, &half);
    if (0 == rank) {
        MPI_Open_port(MPI_INFO_NULL, port);
    }
    MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (accepting) {
        MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter);
    } else {
        MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &inter);
    }
    check_remote(inter, accepting ? "accept" : "connect");
    MPI_Comm_disconnect(&inter);
    if (0 == rank) {
        MPI_Close_port(port);
    }
    MPI_Comm_free(&half);
}

static void parent(const char *program)
{
    int rank;
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm children, inter;
    char *argv[] = {"child", NULL};
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (0 == rank) {
        MPI_Open_port(MPI_INFO_NULL, port);
        MPI_Publish_name(service, MPI_INFO_NULL, port);
    }
    MPI_Comm_spawn(program, argv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children,
                   MPI_ERRCODES_IGNORE);
    check_remote(children, "spawned");
    MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    check_remote(inter, "accept from spawned");
    MPI_Comm_disconnect(&inter);
    MPI_Comm_disconnect(&children);
    if (0 == rank) {
        MPI_Unpublish_name(service, MPI_INFO_NULL, port);
        MPI_Close_port(port);
    }
}

static int child(MPI_Comm parent_comm)
{
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm inter;
    check_remote(parent_comm, "spawned (child)");
    MPI_Lookup_name(service, MPI_INFO_NULL, port);
    MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    check_remote(inter, "connect to the parent job");
    MPI_Comm_disconnect(&inter);
    MPI_Comm_disconnect(&parent_comm);
    return mpicheck_verdict(MPI_COMM_WORLD, "connect from spawned processes");
}

int main(int argc, char **argv)
{
    MPI_Comm parent_comm;
    int rc;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent_comm);
    if (MPI_COMM_NULL != parent_comm) {
        rc = child(parent_comm);
    } else if (argc == 2 && 0 == strcmp(argv[1], "job")) {
        within_job();
        rc = mpicheck_verdict(MPI_COMM_WORLD, "connect/accept within a job");
    } else if (argc == 2 && 0 == strcmp(argv[1], "spawn")) {
        parent(argv[0]);
        rc = mpicheck_verdict(MPI_COMM_WORLD, "accept from spawned processes");
    } else {
        fprintf(stderr, "usage: connect job|spawn\n");
        rc = 2;
    }
    MPI_Finalize();
    return rc;
}
