/*
 * stop.c - STOP, ERROR STOP, FAIL IMAGE and the image status queries.
 *
 * STOP is normal termination of one image: it is marked stopped (syncs with
 * it then report STAT_STOPPED_IMAGE), waits in caf_finalize until every
 * image has stopped or failed, and exits with its code; the others go on.
 * ERROR STOP is error termination of the whole program: PMIx_Abort asks the
 * launcher to end every image with the code. FAIL IMAGE marks the image
 * failed and parks it until the others are done, so it no longer takes part
 * in anything and its memory stays mapped for the others.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caf.h"

void caf_mark_inactive(uint32_t status)
{
    atomic_store(&caf_ctl(caf.me)->status, status);
    atomic_fetch_add(&caf_ctl(0)->inactive, 1);
    for (int r = 0; r < caf.n; r++) {
        if (r != caf.me) {
            caf_ring(r);
        }
    }
    for (caf_team_rt_t *team = caf.team; team; team = team->parent) {
        caf_barrier_poke(team);
    }
}

static _Noreturn void stop(int code)
{
    fflush(NULL);
    _gfortran_caf_finalize();
    exit(code);
}

static _Noreturn void error_stop(int code, const char *msg)
{
    fflush(NULL);
    if (caf.running && caf.n > 1) {
        caf_segment_abort(code, msg);
    }
    exit(code);
}

CAF_EXPORT void _gfortran_caf_stop_numeric(int code, bool quiet)
{
    if (!quiet) {
        fprintf(stderr, "STOP %d\n", code);
    }
    stop(code);
}

CAF_EXPORT void _gfortran_caf_stop_str(const char *string, size_t len, bool quiet)
{
    if (!quiet && string && len) {
        fprintf(stderr, "STOP %.*s\n", (int)len, string);
    }
    stop(0);
}

CAF_EXPORT void _gfortran_caf_error_stop(int code, bool quiet)
{
    char msg[64];
    snprintf(msg, sizeof(msg), "ERROR STOP %d", code);
    if (!quiet) {
        fprintf(stderr, "%s\n", msg);
    }
    error_stop(code, msg);
}

CAF_EXPORT void _gfortran_caf_error_stop_str(const char *string, size_t len, bool quiet)
{
    if (!quiet) {
        fprintf(stderr, "ERROR STOP %.*s\n", string ? (int)len : 0, string ? string : "");
    }
    error_stop(1, "ERROR STOP");
}

CAF_EXPORT void _gfortran_caf_fail_image(void)
{
    fflush(NULL);
    caf_mark_inactive(CAF_STAT_FAILED_IMAGE);
    _gfortran_caf_finalize();
    exit(0);
}

CAF_EXPORT int _gfortran_caf_image_status(int image, caf_team_t *team)
{
    if (image < 1 || image > caf.team->size) {
        caf_fatal("IMAGE_STATUS: image %d is out of range", image);
    }
    return (int)atomic_load(&caf_ctl(caf.team->members[image - 1])->status);
}

/* Fills `array` (rank 1, allocated here) with the indices of the current
 * team's images whose status is `status`. */
static void images_with(caf_desc_t *array, int *kind, uint32_t status, const char *what)
{
    int k = kind ? *kind : 4;
    if (1 != k && 2 != k && 4 != k && 8 != k) {
        caf_fatal("%s: unsupported integer kind %d", what, k);
    }
    caf_team_rt_t *team = caf.team;
    char *mem = malloc((size_t)(team->size ? team->size : 1) * (size_t)k);
    if (NULL == mem) {
        caf_fatal("%s: out of memory", what);
    }
    ptrdiff_t n = 0;
    for (int i = 0; i < team->size; i++) {
        if (atomic_load(&caf_ctl(team->members[i])->status) != status) {
            continue;
        }
        int64_t image = i + 1;
        switch (k) {
        case 1: ((int8_t *)mem)[n] = (int8_t)image; break;
        case 2: ((int16_t *)mem)[n] = (int16_t)image; break;
        case 4: ((int32_t *)mem)[n] = (int32_t)image; break;
        default: ((int64_t *)mem)[n] = image; break;
        }
        n++;
    }
    /* gfortran rebases the result itself: it expects bounds 0..n-1. */
    array->base_addr = mem;
    array->offset = 0;
    array->dtype.elem_len = (size_t)k;
    array->dtype.rank = 1;
    array->dtype.type = CAF_BT_INTEGER;
    array->span = k;
    array->dim[0] = (caf_dim_t){.stride = 1, .lbound = 0, .ubound = n - 1};
}

CAF_EXPORT void _gfortran_caf_failed_images(caf_desc_t *array, caf_team_t *team, int *kind)
{
    images_with(array, kind, CAF_STAT_FAILED_IMAGE, "FAILED_IMAGES");
}

CAF_EXPORT void _gfortran_caf_stopped_images(caf_desc_t *array, caf_team_t *team, int *kind)
{
    images_with(array, kind, CAF_STAT_STOPPED_IMAGE, "STOPPED_IMAGES");
}
