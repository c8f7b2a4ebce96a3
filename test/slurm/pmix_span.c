/*
 * pmix_span.c - a PMIx program built only against OpenPMIx's headers and
 * library, across Slurm nodes: every rank puts a value, commits, fences
 * with data collection and reads every other rank's value; the node count
 * must be NODES. Each rank prints "rank R on HOST: inode I: PMIX-VERSION"
 * (I: the inode of the libpmix file /proc/self/maps shows it mapped, which
 * tells drover's from OpenPMIx's whatever the path), rank 0 then
 * "PASS pmix_span".
 *
 * usage: pmix_span NODES [BYTES [ROUNDS]]
 *   with BYTES, each rank puts BYTES of data and the fence is repeated
 *   ROUNDS times; rank 0 prints "fence-us N" (mean microseconds per fence).
 */
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pmix_proc_t me;
static int failures;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            printf("not ok - rank %u: ", me.rank);                         \
            printf(__VA_ARGS__);                                           \
            printf("\n");                                                  \
            failures++;                                                    \
        }                                                                  \
    } while (0)

/* The inode of the libpmix this process has mapped, or 0. */
static unsigned long libpmix_inode(void)
{
    char line[1024];
    unsigned long inode = 0;
    FILE *maps = fopen("/proc/self/maps", "r");

    while (NULL != maps && 0 == inode && NULL != fgets(line, sizeof(line), maps)) {
        if (NULL != strstr(line, "/libpmix.so") &&
            1 != sscanf(line, "%*s %*s %*s %*s %lu", &inode)) {
            inode = 0;
        }
    }
    if (NULL != maps) {
        fclose(maps);
    }
    return inode;
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Repeated fences with bytes of data per rank: the mean time of one. */
static void time_fences(size_t bytes, int rounds)
{
    pmix_info_t collect;
    bool yes = true;
    pmix_value_t val;
    pmix_byte_object_t bo = {.bytes = calloc(1, bytes), .size = bytes};

    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    double total = 0;
    for (int i = 0; i < rounds; i++) {
        val.type = PMIX_BYTE_OBJECT;
        val.data.bo = bo;
        PMIx_Put(PMIX_GLOBAL, "span.blob", &val); /* the same key: 1 KiB per fence */
        PMIx_Commit();
        double t0 = now_us();
        CHECK(PMIX_SUCCESS == PMIx_Fence(NULL, 0, &collect, 1), "fence %d", i);
        total += now_us() - t0;
    }
    free(bo.bytes);
    if (0 == me.rank) {
        printf("fence-us %.1f\n", total / rounds);
    }
}

int main(int argc, char **argv)
{
    pmix_proc_t wild, peer;
    pmix_value_t *v = NULL, val;
    pmix_info_t collect;
    bool yes = true;
    char host[256] = "";
    pmix_status_t rc;

    if (PMIX_SUCCESS != (rc = PMIx_Init(&me, NULL, 0))) {
        fprintf(stderr, "PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    gethostname(host, sizeof(host) - 1);
    printf("rank %u on %s: inode %lu: %s\n", me.rank, host, libpmix_inode(), PMIx_Get_version());
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    rc = PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v);
    CHECK(PMIX_SUCCESS == rc && NULL != v, "job size: %s", PMIx_Error_string(rc));
    uint32_t size = PMIX_SUCCESS == rc ? v->data.uint32 : 0;
    if (NULL != v) {
        PMIX_VALUE_RELEASE(v);
    }
    rc = PMIx_Get(&wild, PMIX_NUM_NODES, NULL, 0, &v);
    CHECK(PMIX_SUCCESS == rc && NULL != v && (uint32_t)atoi(argv[1]) == v->data.uint32,
          "number of nodes: %s", PMIx_Error_string(rc));
    if (NULL != v) {
        PMIX_VALUE_RELEASE(v);
    }
    PMIX_VALUE_LOAD(&val, host, PMIX_STRING);
    PMIx_Put(PMIX_GLOBAL, "span.host", &val);
    PMIX_VALUE_DESTRUCT(&val);
    PMIx_Commit();
    PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    rc = PMIx_Fence(NULL, 0, &collect, 1);
    CHECK(PMIX_SUCCESS == rc, "fence: %s", PMIx_Error_string(rc));
    for (uint32_t r = 0; r < size; r++) {
        PMIX_LOAD_PROCID(&peer, me.nspace, r);
        rc = PMIx_Get(&peer, "span.host", NULL, 0, &v);
        CHECK(PMIX_SUCCESS == rc && NULL != v && PMIX_STRING == v->type,
              "rank %u's host: %s", r, PMIx_Error_string(rc));
        if (NULL != v) {
            PMIX_VALUE_RELEASE(v);
        }
    }
    if (argc > 2) {
        time_fences((size_t)atol(argv[2]), argc > 3 ? atoi(argv[3]) : 100);
    }
    int total = failures;
    if (0 == me.rank && 0 == total) {
        printf("PASS pmix_span\n");
    }
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return 0 == failures ? 0 : 1;
}
