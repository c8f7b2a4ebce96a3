/*
 * mpi_jobs.c - Open MPI's name service between two jobs of the daemon:
 *   mpi_jobs serve    rank 0 opens a port, publishes it as "drover-jobs",
 *                     prints "port PORT", and waits (bounded) until the
 *                     other job has published "drover-jobs-done"; then it
 *                     unpublishes its name;
 *   mpi_jobs client   every rank looks "drover-jobs" up (retrying, bounded:
 *                     MPI_Lookup_name does not wait), prints "found PORT",
 *                     and rank 0 publishes "drover-jobs-done", which it
 *                     unpublishes once "drover-jobs" has gone (its
 *                     publication would go with its job).
 *   mpi_jobs accept / connect
 *                     the same exchange, then MPI_Comm_accept/connect on
 *                     the port, and an allreduce over the new
 *                     intercommunicator: prints "connected, remote sum S"
 *                     (S: the other job's ranks + 1, added up).
 * Exit status 0 when every step worked.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

static const char service[] = "drover-jobs";
static const char done[] = "drover-jobs-done";

/* Wait up to 30 s until name is there (or, with gone, is not). */
static int find(const char *name, char *port, int gone)
{
    for (int tries = 0; tries < 300; tries++) {
        if ((MPI_SUCCESS == MPI_Lookup_name(name, MPI_INFO_NULL, port)) != gone) {
            return 0;
        }
        usleep(100000);
    }
    return 1;
}

int main(int argc, char **argv)
{
    int rank, failed = 0;
    char port[MPI_MAX_PORT_NAME] = "", other[MPI_MAX_PORT_NAME] = "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    const char *mode = argc > 1 ? argv[1] : "";
    int serving = 0 == strcmp(mode, "serve") || 0 == strcmp(mode, "accept");
    if (serving && 0 == rank) {
        MPI_Open_port(MPI_INFO_NULL, port);
        failed = MPI_SUCCESS != MPI_Publish_name(service, MPI_INFO_NULL, port);
        printf("port %s\n", port);
        fflush(stdout);
    } else if (!serving) {
        failed = find(service, port, 0);
        printf("found %s\n", failed ? "nothing" : port);
        fflush(stdout);
        if (0 == rank && !failed) {
            failed = MPI_SUCCESS != MPI_Publish_name(done, MPI_INFO_NULL, "yes") ||
                     find(service, other, 1) ||
                     MPI_SUCCESS != MPI_Unpublish_name(done, MPI_INFO_NULL, "yes");
        }
    }
    if (serving && 0 == rank && !failed) {
        failed =
            find(done, other, 0) || MPI_SUCCESS != MPI_Unpublish_name(service, MPI_INFO_NULL, port);
    }
    if (!failed && (0 == strcmp(mode, "accept") || 0 == strcmp(mode, "connect"))) {
        MPI_Comm inter;
        MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
        int rc = serving ? MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter)
                         : MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
        failed = MPI_SUCCESS != rc;
        if (!failed) {
            int mine = rank + 1, sum = 0;
            failed = MPI_SUCCESS != MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter);
            printf("connected, remote sum %d\n", sum);
            MPI_Comm_disconnect(&inter);
        } else {
            printf("not connected\n");
        }
    }
    int any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    MPI_Finalize();
    return any;
}
