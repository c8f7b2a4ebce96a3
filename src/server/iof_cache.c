/*
 * iof_cache.c - output the host delivered before anyone pulled it, kept
 * for the first pull that covers it.
 *
 * Design notes:
 *  - A tool that spawns a job and then pulls its output asks a moment
 *    after the processes have started: what they wrote in between would
 *    be lost. The server keeps every delivery that no pull matched, and a
 *    new pull gets the kept pieces it covers, in the order they came, and
 *    they leave the cache (as an OpenPMIx server does).
 *  - The cache is bounded: IOF_CACHE_BYTES of output and IOF_CACHE_PIECES
 *    pieces at most; the oldest go first. A piece larger than the whole
 *    bound is not kept.
 *  - Only the progress thread touches it.
 */
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "server.h"

#define IOF_CACHE_BYTES (1024 * 1024)
#define IOF_CACHE_PIECES 4096

typedef struct piece {
    pmix_proc_t source;
    pmix_iof_channel_t channel;
    pmix_byte_object_t bo;
    pmix_info_t *info;
    size_t ninfo;
    struct piece *next;
} piece_t;

static piece_t *oldest, **newest = &oldest;
static size_t npieces, nbytes;

static void piece_free(piece_t *p)
{
    free(p->bo.bytes);
    if (NULL != p->info) {
        PMIX_INFO_FREE(p->info, p->ninfo);
    }
    free(p);
}

/* Unlink *at (newest follows when it was the last). */
static piece_t *unlink_piece(piece_t **at)
{
    piece_t *p = *at;
    *at = p->next;
    if (newest == &p->next) {
        newest = at;
    }
    npieces--;
    nbytes -= p->bo.size;
    return p;
}

void iof_cache_keep(const pmix_proc_t *source, pmix_iof_channel_t channel,
                    const pmix_byte_object_t *bo, const pmix_info_t *info, size_t ninfo)
{
    if (0 == bo->size || bo->size > IOF_CACHE_BYTES) {
        return;
    }
    piece_t *p = calloc(1, sizeof(*p));
    if (NULL == p || NULL == (p->bo.bytes = malloc(bo->size))) {
        free(p);
        return;
    }
    memcpy(p->bo.bytes, bo->bytes, bo->size);
    p->bo.size = bo->size;
    p->source = *source;
    p->channel = channel;
    if (ninfo > 0) {
        PMIX_INFO_CREATE(p->info, ninfo);
        for (size_t i = 0; NULL != p->info && i < ninfo; i++) {
            PMIx_Info_xfer(&p->info[i], &info[i]);
        }
        p->ninfo = NULL == p->info ? 0 : ninfo;
    }
    while (NULL != oldest &&
           (npieces + 1 > IOF_CACHE_PIECES || nbytes + bo->size > IOF_CACHE_BYTES)) {
        piece_free(unlink_piece(&oldest));
    }
    *newest = p;
    newest = &p->next;
    npieces++;
    nbytes += p->bo.size;
}

void iof_cache_replay(iof_cache_match_fn match, iof_cache_send_fn send, void *arg)
{
    piece_t **at = &oldest;
    while (NULL != *at) {
        if (!match(arg, &(*at)->source, (*at)->channel)) {
            at = &(*at)->next;
            continue;
        }
        piece_t *p = unlink_piece(at);
        send(arg, &p->source, p->channel, &p->bo, p->info, p->ninfo);
        piece_free(p);
    }
}

void iof_cache_clear(void)
{
    while (NULL != oldest) {
        piece_free(unlink_piece(&oldest));
    }
}
