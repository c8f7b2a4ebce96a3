/*
 * pmi2_api.c - a program written to the PMI-2 API, linked with drover's
 * libpmi2.so.0: every call, checked; one PASS line per rank.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <slurm/pmi2.h>

#include "pmicheck.h"

int main(void)
{
    int spawned = -1, size, appnum = -1, found = 0, len, outlen, ints[4];
    char jobid[256], key[300], value[1024], want[1024];

    check(PMI2_SUCCESS == PMI2_Init(&spawned, &size, &rank, &appnum) && 0 == spawned &&
              0 == appnum, "PMI2_Init");
    check(PMI2_Initialized(), "PMI2_Initialized");
    check(PMI2_SUCCESS == PMI2_Job_GetId(jobid, sizeof(jobid)) &&
              0 == strcmp(jobid, getenv("PMIX_NAMESPACE")), "job id");

    snprintf(key, sizeof(key), "k%d", rank);
    snprintf(value, sizeof(value), "a;b%d", rank);
    check(PMI2_SUCCESS == PMI2_KVS_Put(key, value), "put");
    check(PMI2_SUCCESS == PMI2_KVS_Fence(), "fence");
    for (int r = 0; r < size; r++) {
        snprintf(key, sizeof(key), "k%d", r);
        snprintf(want, sizeof(want), "a;b%d", r);
        check(PMI2_SUCCESS == PMI2_KVS_Get(jobid, r, key, value, sizeof(value), &len) &&
                  0 == strcmp(value, want) && len == (int)strlen(want), "get %s", key);
    }
    snprintf(want, sizeof(want), "(vector,(0,1,%d))", size);
    check(PMI2_SUCCESS == PMI2_Info_GetJobAttr("PMI_process_mapping", value, sizeof(value),
                                               &found) && found && 0 == strcmp(value, want),
          "process mapping");
    check(PMI2_SUCCESS == PMI2_Info_GetJobAttr("nokey", value, sizeof(value), &found) && !found,
          "a missing job attribute is not found");
    check(PMI2_SUCCESS == PMI2_Info_GetJobAttrIntArray("universeSize", ints, 4, &outlen, &found) &&
              found && 1 == outlen && ints[0] >= size, "universe size as an array");

    /* Rank 0 puts a node attribute a moment after the others start to
     * wait for it. */
    if (0 == rank) {
        check(PMI2_SUCCESS == PMI2_Info_GetNodeAttr("shm", value, sizeof(value), &found, 0) &&
                  !found, "no node attribute yet");
        usleep(200000);
        check(PMI2_SUCCESS == PMI2_Info_PutNodeAttr("shm", "/dev/shm/seg"), "put node attr");
    }
    check(PMI2_SUCCESS == PMI2_Info_GetNodeAttr("shm", value, sizeof(value), &found, 1) &&
              found && 0 == strcmp(value, "/dev/shm/seg"), "a waiting node attribute get");

    snprintf(key, sizeof(key), "svc2-%s", jobid);
    if (0 == rank) {
        check(PMI2_SUCCESS == PMI2_Nameserv_publish(key, NULL, "p;1"), "publish");
    }
    check(PMI2_SUCCESS == PMI2_KVS_Fence(), "fence");
    check(PMI2_SUCCESS == PMI2_Nameserv_lookup(key, NULL, value, sizeof(value)) &&
              0 == strcmp(value, "p;1"), "lookup");
    check(PMI2_SUCCESS == PMI2_KVS_Fence(), "fence");
    if (0 == rank) {
        check(PMI2_SUCCESS == PMI2_Nameserv_unpublish(key, NULL), "unpublish");
        check(PMI2_SUCCESS != PMI2_Nameserv_lookup(key, NULL, value, sizeof(value)),
              "lookup after unpublish");
    }
    check(PMI2_SUCCESS == PMI2_Finalize(), "finalize");
    printf("PASS pmi2 rank %d of %d\n", rank, size);
    return 0;
}
