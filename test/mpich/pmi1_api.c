/*
 * pmi1_api.c - a program written to the PMI-1 API, linked with drover's
 * libpmi.so.1 (which speaks PMIx to the server):
 *
 *   pmi1_api basic        every call, checked; one PASS line per rank
 *   pmi1_api spawn DIR    rank 0 spawns two of "DIR/pmi1_api child" in
 *                         /tmp with a preput key
 *   pmi1_api child        a spawned child checks what it was given
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/pmi.h>

#include "pmicheck.h"

static void basic(void)
{
    int spawned = -1, size, appnum, universe, len, initialized = 0, clique;
    char kvs[256], key[300], value[1024], want[1024];

    check(PMI_SUCCESS == PMI_Init(&spawned) && 0 == spawned, "PMI_Init");
    check(PMI_SUCCESS == PMI_Initialized(&initialized) && initialized, "PMI_Initialized");
    check(PMI_SUCCESS == PMI_Get_rank(&rank) && PMI_SUCCESS == PMI_Get_size(&size), "rank/size");
    check(rank == atoi(getenv("PMIX_RANK")), "rank %d", rank);
    check(PMI_SUCCESS == PMI_Get_appnum(&appnum) && 0 == appnum, "appnum");
    check(PMI_SUCCESS == PMI_Get_universe_size(&universe) && universe >= size, "universe");
    check(PMI_SUCCESS == PMI_KVS_Get_name_length_max(&len) && len <= (int)sizeof(kvs), "name max");
    check(PMI_SUCCESS == PMI_KVS_Get_my_name(kvs, len) &&
              0 == strcmp(kvs, getenv("PMIX_NAMESPACE")), "kvs name");
    check(PMI_ERR_INVALID_LENGTH == PMI_KVS_Get_my_name(kvs, 2), "a short buffer is refused");
    check(PMI_SUCCESS == PMI_KVS_Get_value_length_max(&len) && len >= 1024, "value max");

    snprintf(key, sizeof(key), "k%d", rank);
    snprintf(value, sizeof(value), "v%d", rank);
    check(PMI_SUCCESS == PMI_KVS_Put(kvs, key, value), "put");
    check(PMI_SUCCESS == PMI_KVS_Commit(kvs), "commit");
    check(PMI_SUCCESS == PMI_Barrier(), "barrier");
    for (int r = 0; r < size; r++) {
        snprintf(key, sizeof(key), "k%d", r);
        snprintf(want, sizeof(want), "v%d", r);
        check(PMI_SUCCESS == PMI_KVS_Get(kvs, key, value, sizeof(value)) &&
                  0 == strcmp(value, want), "get %s: %s", key, value);
    }
    check(PMI_SUCCESS != PMI_KVS_Get(kvs, "nokey", value, sizeof(value)), "a missing key");
    snprintf(want, sizeof(want), "(vector,(0,1,%d))", size);
    check(PMI_SUCCESS == PMI_KVS_Get(kvs, "PMI_process_mapping", value, sizeof(value)) &&
              0 == strcmp(value, want), "process mapping %s", value);
    check(PMI_SUCCESS == PMI_Get_clique_size(&clique) && clique == size, "clique size");
    int *ranks = calloc((size_t)size, sizeof(int));
    check(PMI_SUCCESS == PMI_Get_clique_ranks(ranks, size), "clique ranks");
    for (int r = 0; r < size; r++) {
        check(ranks[r] == r, "clique rank %d", r);
    }
    free(ranks);

    snprintf(key, sizeof(key), "svc-%s", kvs);
    if (0 == rank) {
        check(PMI_SUCCESS == PMI_Publish_name(key, "port-1"), "publish");
    }
    check(PMI_SUCCESS == PMI_Barrier(), "barrier");
    check(PMI_SUCCESS == PMI_Lookup_name(key, value) && 0 == strcmp(value, "port-1"), "lookup");
    check(PMI_SUCCESS == PMI_Barrier(), "barrier");
    if (0 == rank) {
        check(PMI_SUCCESS == PMI_Unpublish_name(key), "unpublish");
        check(PMI_SUCCESS != PMI_Lookup_name(key, value), "lookup after unpublish");
    }
    check(PMI_SUCCESS == PMI_Finalize(), "finalize");
    printf("PASS pmi1 rank %d of %d\n", rank, size);
}

static void spawn(const char *dir)
{
    int spawned;
    char cmd[512];
    const char *args[] = {"child", NULL};
    const char **argvs[] = {args};
    const char *cmds[] = {cmd};
    int maxprocs[] = {2}, ninfo[] = {1}, errors[2] = {-1, -1};
    PMI_keyval_t wdir = {.key = "wdir", .val = "/tmp"};
    const PMI_keyval_t *infos[] = {&wdir};
    PMI_keyval_t preput = {.key = "PARENT_ROOT_PORT_NAME", .val = "tag#0$port#7$"};

    snprintf(cmd, sizeof(cmd), "%s/pmi1_api", dir);
    check(PMI_SUCCESS == PMI_Init(&spawned) && PMI_SUCCESS == PMI_Get_rank(&rank), "init");
    if (0 == rank) {
        check(PMI_SUCCESS == PMI_Spawn_multiple(1, cmds, argvs, maxprocs, ninfo, infos, 1,
                                                &preput, errors) &&
                  0 == errors[0] && 0 == errors[1], "spawn");
    }
    check(PMI_SUCCESS == PMI_Finalize(), "finalize");
    printf("PASS pmi1 spawner rank %d\n", rank);
}

static void child(void)
{
    int spawned = 0, size;
    char kvs[256], value[256], cwd[256];

    check(PMI_SUCCESS == PMI_Init(&spawned) && 1 == spawned, "a child knows it was spawned");
    check(PMI_SUCCESS == PMI_Get_rank(&rank) && PMI_SUCCESS == PMI_Get_size(&size), "rank");
    check(PMI_SUCCESS == PMI_KVS_Get_my_name(kvs, sizeof(kvs)), "kvs");
    check(PMI_SUCCESS == PMI_KVS_Get(kvs, "PARENT_ROOT_PORT_NAME", value, sizeof(value)) &&
              0 == strcmp(value, "tag#0$port#7$"), "the preput key: %s", value);
    check(NULL != getcwd(cwd, sizeof(cwd)) && 0 == strcmp(cwd, "/tmp"), "wdir %s", cwd);
    check(PMI_SUCCESS == PMI_Finalize(), "finalize");
    printf("PASS pmi1 child rank %d of %d\n", rank, size);
}

int main(int argc, char **argv)
{
    if (argc > 1 && 0 == strcmp(argv[1], "basic")) {
        basic();
    } else if (argc > 2 && 0 == strcmp(argv[1], "spawn")) {
        spawn(argv[2]);
    } else if (argc > 1 && 0 == strcmp(argv[1], "child")) {
        child();
    } else {
        fprintf(stderr, "usage: pmi1_api basic|spawn DIR|child\n");
        return 2;
    }
    return 0;
}
