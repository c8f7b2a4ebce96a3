/*
 * abort.c RANK CODE - RANK calls MPI_Abort(MPI_COMM_WORLD, CODE) while
 * every other rank waits in a barrier that can never complete: the launcher
 * must end them all and exit with CODE.
 * abort.c RANK skip - RANK ends (status 0) without calling MPI_Init, which
 * the others then cannot complete: they must fail, not wait forever.
 * abort.c RANK sleep - RANK sleeps for a minute before the barrier, so the
 * job stays in MPI until someone ends it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpicheck.h"

int main(int argc, char **argv)
{
    int rank;
    /* Before MPI_Init only the launcher's variable tells a rank who it is. */
    const char *pmix_rank = getenv("PMIX_RANK");
    if (argc == 3 && 0 == strcmp(argv[2], "skip") && NULL != pmix_rank &&
        atoi(pmix_rank) == atoi(argv[1])) {
        return 0;
    }
    MPI_Init(&argc, &argv);
    if (argc != 3) {
        fprintf(stderr, "usage: abort RANK CODE|skip|sleep\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (atoi(argv[1]) == rank && 0 == strcmp(argv[2], "sleep")) {
        printf("rank %d sleeps\n", rank);
        fflush(stdout);
        sleep(60);
    } else if (atoi(argv[1]) == rank) {
        printf("rank %d aborts\n", rank);
        fflush(stdout);
        MPI_Abort(MPI_COMM_WORLD, atoi(argv[2]));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d passed a barrier it should never pass\n", rank);
    MPI_Finalize();
    return 0;
}
