/*
 * mpi_names.c - MPI name publishing and connect/accept under mpirun on
 * drover's library (PMIx_Publish, _Lookup and _Unpublish reach mpirun's
 * data server through drover's server). Rank 0 opens a port and publishes
 * it; the last rank looks it up; the two connect and exchange a number;
 * after unpublishing, the name is no longer found. Run with 2 or more
 * ranks; each prints one PASS line.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define SERVICE "drover-mpirun-test"

static int rank;

static void fail(const char *what)
{
    fprintf(stderr, "mpi_names: rank %d: %s\n", rank, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv)
{
    char port[MPI_MAX_PORT_NAME] = "", found[MPI_MAX_PORT_NAME] = "";
    int size, value = 0;
    MPI_Comm other;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int last = size - 1;

    if (0 == rank) {
        MPI_Open_port(MPI_INFO_NULL, port);
        if (MPI_SUCCESS != MPI_Publish_name(SERVICE, MPI_INFO_NULL, port)) {
            fail("publish");
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (last == rank) {
        if (MPI_SUCCESS != MPI_Lookup_name(SERVICE, MPI_INFO_NULL, found)) {
            fail("lookup of a published name");
        }
        MPI_Comm_connect(found, MPI_INFO_NULL, 0, MPI_COMM_SELF, &other);
        MPI_Recv(&value, 1, MPI_INT, 0, 0, other, MPI_STATUS_IGNORE);
        if (42 != value) {
            fail("wrong number over the connection");
        }
        MPI_Comm_disconnect(&other);
    } else if (0 == rank) {
        MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &other);
        value = 42;
        MPI_Send(&value, 1, MPI_INT, 0, 0, other);
        MPI_Comm_disconnect(&other);
        if (MPI_SUCCESS != MPI_Unpublish_name(SERVICE, MPI_INFO_NULL, port)) {
            fail("unpublish");
        }
        MPI_Close_port(port);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (last == rank && MPI_SUCCESS == MPI_Lookup_name(SERVICE, MPI_INFO_NULL, found)) {
        fail("an unpublished name is still found");
    }
    printf("PASS rank %d: names and connect/accept\n", rank);
    MPI_Finalize();
    return 0;
}
