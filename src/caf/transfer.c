/*
 * transfer.c - coindexed access: get, send and sendget.
 *
 * Every image's coarrays are mapped in this process, so a transfer is a copy
 * between two views: the remote side is the coarray's instance on the target
 * image plus the offset gfortran computed from the local instance (memory is
 * symmetric), walked with the remote descriptor's shape and any vector
 * subscripts. Overlap is possible only when both sides are on this image;
 * then gfortran's may_require_tmp asks for a staged copy.
 */
#include "caf.h"

/* A failed image's data is not to be used: STAT_FAILED_IMAGE. Images that
 * stopped keep their coarrays readable until every image has stopped. */
static bool reachable(int rank, int *stat)
{
    if (CAF_STAT_FAILED_IMAGE == atomic_load(&caf_ctl(rank)->status)) {
        caf_error(stat, NULL, 0, CAF_STAT_FAILED_IMAGE, "image %d has failed", rank + 1);
        return false;
    }
    return true;
}

static void copy_or_fail(caf_view_t *dst, caf_elem_t dt, caf_view_t *src, caf_elem_t st,
                         bool via_tmp, int *stat)
{
    if (0 != caf_copy(dst, dt, src, st, via_tmp)) {
        caf_error(stat, NULL, 0, 1,
                  "cannot assign %zu elements of type %d kind %d to %zu of type %d kind %d",
                  caf_view_count(src), st.type, st.kind, caf_view_count(dst), dt.type, dt.kind);
    }
}

CAF_EXPORT void _gfortran_caf_get(caf_token_t token, size_t offset, int image, caf_desc_t *src,
                                  caf_vector_t *src_vector, caf_desc_t *dst, int src_kind,
                                  int dst_kind, bool may_require_tmp, int *stat)
{
    caf_ok(stat);
    int rank = caf_rank_of(image);
    if (!reachable(rank, stat)) {
        return;
    }
    caf_view_t sv, dv;
    caf_view_desc(&sv, src, caf_token_mem(token, rank) + offset, src_vector);
    caf_view_desc(&dv, dst, dst->base_addr, NULL);
    copy_or_fail(&dv, caf_elem_of(dst, dst_kind), &sv, caf_elem_of(src, src_kind),
                 may_require_tmp && rank == caf.me, stat);
}

CAF_EXPORT void _gfortran_caf_send(caf_token_t token, size_t offset, int image, caf_desc_t *dst,
                                   caf_vector_t *dst_vector, caf_desc_t *src, int dst_kind,
                                   int src_kind, bool may_require_tmp, int *stat)
{
    caf_ok(stat);
    int rank = caf_rank_of(image);
    if (!reachable(rank, stat)) {
        return;
    }
    caf_view_t sv, dv;
    caf_view_desc(&dv, dst, caf_token_mem(token, rank) + offset, dst_vector);
    caf_view_desc(&sv, src, src->base_addr, NULL);
    copy_or_fail(&dv, caf_elem_of(dst, dst_kind), &sv, caf_elem_of(src, src_kind),
                 may_require_tmp && rank == caf.me, stat);
}

CAF_EXPORT void _gfortran_caf_sendget(caf_token_t dst_token, size_t dst_offset, int dst_image,
                                      caf_desc_t *dst, caf_vector_t *dst_vector,
                                      caf_token_t src_token, size_t src_offset, int src_image,
                                      caf_desc_t *src, caf_vector_t *src_vector, int dst_kind,
                                      int src_kind, bool may_require_tmp, int *stat)
{
    caf_ok(stat);
    int drank = caf_rank_of(dst_image), srank = caf_rank_of(src_image);
    if (!reachable(drank, stat) || !reachable(srank, stat)) {
        return;
    }
    caf_view_t sv, dv;
    caf_view_desc(&dv, dst, caf_token_mem(dst_token, drank) + dst_offset, dst_vector);
    caf_view_desc(&sv, src, caf_token_mem(src_token, srank) + src_offset, src_vector);
    copy_or_fail(&dv, caf_elem_of(dst, dst_kind), &sv, caf_elem_of(src, src_kind),
                 may_require_tmp && drank == srank, stat);
}
