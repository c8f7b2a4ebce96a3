/*
 * init.c - start and end of the runtime, image indices, error reporting.
 *
 * caf_init maps the segments (segment.c), sets up the initial team and waits
 * until every image has mapped every segment, then unlinks its own segment
 * name. caf_finalize is the normal termination of an image: it marks the
 * image stopped and waits until every image has stopped or failed, because
 * the others may still read this image's coarrays until then.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caf.h"

caf_state_t caf;

static int *identity_members(int n)
{
    int *members = malloc((size_t)n * sizeof(int));
    if (NULL == members) {
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        members[i] = i;
    }
    return members;
}

CAF_EXPORT void _gfortran_caf_init(int *argc, char ***argv)
{
    if (caf.running) {
        return;
    }
    if (0 != caf_segment_setup()) {
        caf_segment_teardown();
        exit(1);
    }
    caf.sync_done = calloc((size_t)caf.n, sizeof(uint32_t));
    caf.initial = (caf_team_rt_t){
        .number = -1,
        .size = caf.n,
        .index = caf.me + 1,
        .members = identity_members(caf.n),
        .barrier = &caf_ctl(0)->barrier,
        .gather = caf_segment(0) + caf.slot_offset + 2 * CAF_SLOT_BYTES,
    };
    if (NULL == caf.sync_done || NULL == caf.initial.members) {
        fprintf(stderr, "libcaf_drover: out of memory\n");
        exit(1);
    }
    caf.team = &caf.initial;
    caf.running = true;
    /* Once everyone has mapped everything, the names can go. */
    caf_barrier(&caf.initial);
    caf_segment_unlink();
    caf_choose_spin();
}

static bool all_inactive(void *arg)
{
    return atomic_load(&caf_ctl(0)->inactive) >= (uint32_t)caf.n;
}

CAF_EXPORT void _gfortran_caf_finalize(void)
{
    if (!caf.running) {
        return;
    }
    if (0 == atomic_load(&caf_ctl(caf.me)->status)) {
        caf_mark_inactive(CAF_STAT_STOPPED_IMAGE);
    }
    caf_wait_until(all_inactive, NULL);
    caf.running = false;
    while (caf.team != &caf.initial) {
        caf.team = caf.team->parent;
    }
    free(caf.sync_done);
    free(caf.initial.members);
    caf.sync_done = NULL;
    caf_segment_teardown();
}

CAF_EXPORT int _gfortran_caf_this_image(int distance)
{
    return caf.team->index;
}

CAF_EXPORT int _gfortran_caf_num_images(int distance, int failed)
{
    if (failed < 0) {
        return caf.team->size;
    }
    int nfailed = 0;
    for (int i = 0; i < caf.team->size; i++) {
        nfailed += CAF_STAT_FAILED_IMAGE == atomic_load(&caf_ctl(caf.team->members[i])->status);
    }
    return failed ? nfailed : caf.team->size - nfailed;
}

int caf_rank_of(int image)
{
    /* gfortran passes 0 for a variable that is not coindexed. */
    if (0 == image) {
        return caf.me;
    }
    if (image < 1 || image > caf.team->size) {
        caf_fatal("image index %d is out of range (the current team has %d images)", image,
                  caf.team->size);
    }
    return caf.team->members[image - 1];
}

static void vreport(char *buf, size_t len, const char *fmt, va_list ap)
{
    vsnprintf(buf, len, fmt, ap);
}

void caf_error(int *stat, char *errmsg, size_t errmsg_len, int code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vreport(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (NULL == stat) {
        caf_fatal("%s", msg);
    }
    *stat = code;
    if (errmsg && errmsg_len) {
        size_t n = strlen(msg);
        if (n > errmsg_len) {
            n = errmsg_len;
        }
        memcpy(errmsg, msg, n);
        memset(errmsg + n, ' ', errmsg_len - n);
    }
}

_Noreturn void caf_fatal(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vreport(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fprintf(stderr, "libcaf_drover: image %d: error: %s\n", caf.me + 1, msg);
    fflush(NULL);
    caf_segment_abort(1, msg);
    exit(1);
}
