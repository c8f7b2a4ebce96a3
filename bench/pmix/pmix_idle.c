/*
 * pmix_idle.c - a rank that connects and then waits, so the bench can
 * weigh the server with every client connected.
 *
 * usage: pmix_idle DIR [nopmix]
 * Each rank initialises PMIx (unless "nopmix": the baseline of processes
 * the launcher runs without any PMIx traffic), fences, creates
 * DIR/ready.<rank>, waits for DIR/go, and finishes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmix.h"

int main(int argc, char **argv)
{
    char path[4096];
    const char *rank = getenv("PMIX_RANK");
    bool use_pmix = argc < 3 || 0 != strcmp(argv[2], "nopmix");
    pmix_proc_t me;

    if (argc < 2 || NULL == rank) {
        fprintf(stderr, "usage: pmix_idle DIR [nopmix], under drover run\n");
        return 2;
    }
    if (use_pmix && (PMIX_SUCCESS != PMIx_Init(&me, NULL, 0) ||
                     PMIX_SUCCESS != PMIx_Fence(NULL, 0, NULL, 0))) {
        fprintf(stderr, "pmix_idle: init/fence failed\n");
        return 1;
    }
    snprintf(path, sizeof(path), "%s/ready.%s", argv[1], rank);
    FILE *f = fopen(path, "w");
    if (NULL != f) {
        fclose(f);
    }
    snprintf(path, sizeof(path), "%s/go", argv[1]);
    while (0 != access(path, F_OK)) {
        usleep(20000);
    }
    if (use_pmix) {
        PMIx_Finalize(NULL, 0);
    }
    return 0;
}
