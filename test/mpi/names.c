/*
 * names.c - MPI_Publish_name, MPI_Lookup_name and MPI_Unpublish_name:
 * rank 0 publishes a port under a service name, every rank finds it, rank
 * 0 withdraws it, after which nobody finds it and publishing it anew works.
 */
#include <string.h>

#include "mpicheck.h"

static const char service[] = "drover-test-names";

static int lookup(char *port)
{
    return MPI_Lookup_name(service, MPI_INFO_NULL, port);
}

int main(int argc, char **argv)
{
    int rank, size;
    char port[MPI_MAX_PORT_NAME] = "", found[MPI_MAX_PORT_NAME] = "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Name-service errors are raised on MPI_COMM_WORLD (MPI-3) or
     * MPI_COMM_SELF (MPI-4): return them from both. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    if (0 == rank) {
        MPI_Open_port(MPI_INFO_NULL, port);
        CHECK(MPI_SUCCESS == MPI_Publish_name(service, MPI_INFO_NULL, port), "publish");
    }
    MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_SUCCESS == lookup(found), "lookup of the published name");
    CHECK(0 == strcmp(found, port), "lookup found '%s', not '%s'", found, port);
    MPI_Barrier(MPI_COMM_WORLD);

    if (0 == rank) {
        CHECK(MPI_SUCCESS == MPI_Unpublish_name(service, MPI_INFO_NULL, port), "unpublish");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_SUCCESS != lookup(found), "lookup after unpublish found '%s'", found);
    MPI_Barrier(MPI_COMM_WORLD);

    if (size - 1 == rank) {
        CHECK(MPI_SUCCESS == MPI_Publish_name(service, MPI_INFO_NULL, "again"), "publish again");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_SUCCESS == lookup(found) && 0 == strcmp(found, "again"),
          "lookup of the name published again found '%s'", found);
    MPI_Barrier(MPI_COMM_WORLD);
    if (size - 1 == rank) {
        CHECK(MPI_SUCCESS == MPI_Unpublish_name(service, MPI_INFO_NULL, "again"),
              "unpublish again");
    }
    if (0 == rank) {
        MPI_Close_port(port);
    }
    int rc = mpicheck_verdict(MPI_COMM_WORLD, "name publishing");
    MPI_Finalize();
    return rc;
}
