/*
 * spawn.c - dynamic processes:
 *   spawn one            MPI_Comm_spawn of 2 children;
 *   spawn multiple       MPI_Comm_spawn_multiple of 1 + 2 children running
 *                        two argument lists;
 *   spawn status CODE    2 children that exit with CODE after MPI_Finalize;
 *   spawn missing        (one rank) a program that does not exist:
 *                        MPI_Comm_spawn returns an error (errors return
 *                        here) and the job goes on. With more ranks Open
 *                        MPI's other ranks would wait for the root forever,
 *                        under mpirun as well.
 * Parents and children merge the intercommunicator and check a sum over
 * both; every child prints one "child" line (the launcher forwards it) and
 * checks its MPI_APPNUM against the argument list it got.
 */
#include <stdlib.h>
#include <string.h>

#include "mpicheck.h"

/* All ranks of the merged communicator add up their (rank + 1)s. */
static void check_merged(MPI_Comm inter, int high, const char *what)
{
    MPI_Comm all;
    int size, rank, sum = 0;
    MPI_Intercomm_merge(inter, high, &all);
    MPI_Comm_size(all, &size);
    MPI_Comm_rank(all, &rank);
    int mine = rank + 1;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, all);
    CHECK(size * (size + 1) / 2 == sum, "%s: merged sum %d over %d ranks", what, sum, size);
    MPI_Comm_free(&all);
}

static void spawn(const char *program, const char *mode, const char *code)
{
    MPI_Comm children;
    int errcodes[3] = {-1, -1, -1}, nchildren;
    if (0 == strcmp(mode, "multiple")) {
        char *commands[2] = {(char *)program, (char *)program};
        char *argv_a[] = {"child", "0", NULL}, *argv_b[] = {"child", "1", NULL};
        char **argvs[2] = {argv_a, argv_b};
        int counts[2] = {1, 2};
        MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
        MPI_Comm_spawn_multiple(2, commands, argvs, counts, infos, 0, MPI_COMM_WORLD,
                                &children, errcodes);
        nchildren = 3;
    } else {
        char *argv[] = {"child", "0", (char *)code, NULL};
        MPI_Comm_spawn(program, argv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children, errcodes);
        nchildren = 2;
    }
    int remote = 0;
    MPI_Comm_remote_size(children, &remote);
    CHECK(nchildren == remote, "%d children, expected %d", remote, nchildren);
    for (int i = 0; i < nchildren; i++) {
        CHECK(MPI_SUCCESS == errcodes[i], "error code %d for child %d", errcodes[i], i);
    }
    check_merged(children, 0, "parent");
    MPI_Comm_disconnect(&children);
}

static void spawn_missing(void)
{
    MPI_Comm children = MPI_COMM_NULL;
    int errcodes[2] = {MPI_SUCCESS, MPI_SUCCESS};
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Comm_spawn("/nonexistent/drover-test-program", MPI_ARGV_NULL, 2, MPI_INFO_NULL,
                            0, MPI_COMM_WORLD, &children, errcodes);
    CHECK(MPI_SUCCESS != rc, "spawning a missing program succeeded");
}

static int child(MPI_Comm parent, int argc, char **argv)
{
    int rank, size, *appnum, flag = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
    CHECK(argc >= 3 && flag && *appnum == atoi(argv[2]), "appnum %d for argument list %s",
          flag ? *appnum : -1, argc >= 3 ? argv[2] : "?");
    check_merged(parent, 1, "child");
    MPI_Comm_disconnect(&parent);
    printf("child %d of %d, app %d\n", rank, size, flag ? *appnum : -1);
    int rc = mpicheck_verdict(MPI_COMM_WORLD, "spawned children");
    MPI_Finalize();
    return 0 == rc && argc == 4 ? atoi(argv[3]) : rc;
}

int main(int argc, char **argv)
{
    MPI_Comm parent;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (MPI_COMM_NULL != parent) {
        return child(parent, argc, argv);
    }
    if (argc == 2 && 0 == strcmp(argv[1], "missing")) {
        spawn_missing();
    } else if (argc < 2 ||
               (0 != strcmp(argv[1], "one") && 0 != strcmp(argv[1], "multiple") &&
                (0 != strcmp(argv[1], "status") || argc != 3))) {
        fprintf(stderr, "usage: spawn one|multiple|status CODE|missing\n");
        MPI_Finalize();
        return 2;
    } else {
        spawn(argv[0], argv[1], argc == 3 ? argv[2] : NULL);
    }
    int rc = mpicheck_verdict(MPI_COMM_WORLD, "spawning parents");
    MPI_Finalize();
    return rc;
}
