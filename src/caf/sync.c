/*
 * sync.c - SYNC ALL, SYNC IMAGES and SYNC MEMORY.
 *
 * SYNC ALL is the current team's barrier (wait.c). SYNC IMAGES pairs images
 * with counters: image a syncing with b adds one to b's sync_count[a] and
 * rings b; a then waits until its own sync_count[b] has passed the number of
 * SYNC IMAGES it completed with b. An image that stopped or failed ends the
 * wait with STAT_STOPPED_IMAGE or STAT_FAILED_IMAGE. The atomic operations
 * on both sides are sequentially consistent, so they also order the
 * coarray accesses of the segments they separate.
 */
#include <stdlib.h>
#include <string.h>

#include "caf.h"

/* The ERRMSG= buffer of a SYNC statement (see entry.h). */
static char *buffer(char **errmsg)
{
    return errmsg ? *errmsg : NULL;
}

static void report(int code, int *stat, char *errmsg, size_t errmsg_len, const char *what)
{
    if (CAF_STAT_FAILED_IMAGE == code) {
        caf_error(stat, errmsg, errmsg_len, code, "%s: an image has failed", what);
    } else if (CAF_STAT_STOPPED_IMAGE == code) {
        caf_error(stat, errmsg, errmsg_len, code, "%s: an image has stopped", what);
    }
}

CAF_EXPORT void _gfortran_caf_sync_all(int *stat, char **errmsg, size_t errmsg_len)
{
    caf_ok(stat);
    report(caf_barrier(caf.team), stat, buffer(errmsg), errmsg_len, "SYNC ALL");
}

CAF_EXPORT void _gfortran_caf_sync_memory(int *stat, char **errmsg, size_t errmsg_len)
{
    caf_ok(stat);
    atomic_thread_fence(memory_order_seq_cst);
}

typedef struct pair {
    int rank;
    uint32_t want;
} pair_t;

static bool partner_arrived(void *arg)
{
    const pair_t *p = arg;
    return atomic_load(&caf_ctl(caf.me)->sync_count[p->rank]) >= p->want ||
           0 != atomic_load(&caf_ctl(p->rank)->status);
}

static int compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* An image index that appears twice in images[], or 0. `scratch` holds
 * count ints. */
static int repeated(int count, const int images[], int *scratch)
{
    if (count < 2) {
        return 0;
    }
    memcpy(scratch, images, (size_t)count * sizeof(int));
    qsort(scratch, (size_t)count, sizeof(int), compare_int);
    for (int i = 1; i < count; i++) {
        if (scratch[i] == scratch[i - 1]) {
            return scratch[i];
        }
    }
    return 0;
}

/* Global ranks of the image set, without this image, in ranks[] (room for
 * count + 1); count < 0 means all images of the team. Returns the number,
 * or -1 after reporting a repeated or out-of-range image, before anyone is
 * signalled or waited for. The standard forbids repeated images; they are
 * looked for first, as OpenCoarrays does, so its programs see its stat. */
static int image_set(int count, const int images[], int *ranks, int *stat, char *errmsg,
                     size_t errmsg_len)
{
    caf_team_rt_t *team = caf.team;
    int n = 0;
    if (count < 0) {
        for (int i = 0; i < team->size; i++) {
            if (team->members[i] != caf.me) {
                ranks[n++] = team->members[i];
            }
        }
        return n;
    }
    int twice = repeated(count, images, ranks);
    if (0 != twice) {
        caf_error(stat, errmsg, errmsg_len, CAF_STAT_DUP_SYNC_IMAGES,
                  "SYNC IMAGES: image %d appears more than once in the image set", twice);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        int image = images[i];
        if (image < 1 || image > team->size) {
            caf_error(stat, errmsg, errmsg_len, 1,
                      "SYNC IMAGES: image %d is out of range (the team has %d images)", image,
                      team->size);
            return -1;
        }
        if (image != team->index) {
            ranks[n++] = team->members[image - 1];
        }
    }
    return n;
}

CAF_EXPORT void _gfortran_caf_sync_images(int count, int images[], int *stat, char **errmsg_ptr,
                                          size_t errmsg_len)
{
    caf_ok(stat);
    char *errmsg = buffer(errmsg_ptr);
    int *ranks = malloc(((size_t)(count < 0 ? caf.team->size : count) + 1) * sizeof(int));
    if (NULL == ranks) {
        caf_error(stat, errmsg, errmsg_len, 1, "SYNC IMAGES: out of memory");
        return;
    }
    int n = image_set(count, images, ranks, stat, errmsg, errmsg_len);
    atomic_thread_fence(memory_order_seq_cst);
    for (int i = 0; i < n; i++) {
        atomic_fetch_add(&caf_ctl(ranks[i])->sync_count[caf.me], 1);
        caf_ring(ranks[i]);
    }
    int code = 0;
    for (int i = 0; i < n; i++) {
        pair_t p = {.rank = ranks[i], .want = caf.sync_done[ranks[i]] + 1};
        caf_wait_until(partner_arrived, &p);
        if (atomic_load(&caf_ctl(caf.me)->sync_count[p.rank]) >= p.want) {
            caf.sync_done[p.rank]++;
            continue;
        }
        uint32_t status = atomic_load(&caf_ctl(p.rank)->status);
        if (CAF_STAT_FAILED_IMAGE == status || 0 == code) {
            code = (int)status;
        }
    }
    free(ranks);
    report(code, stat, errmsg, errmsg_len, "SYNC IMAGES");
}
