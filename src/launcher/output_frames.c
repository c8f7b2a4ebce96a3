/*
 * output_frames.c - the framed output of a daemon's job: its run sends
 *   what each rank writes to the daemon as frames (source, channel,
 *   bytes) on one pipe, and the daemon takes them apart here.
 *
 * Design notes:
 *  - The header is 16 bytes in the host's byte order (both ends run on
 *    one node, from one drover): the length (uint32), the rank (uint32),
 *    the run's job index (uint32), the channel (uint8) and three reserved
 *    zero bytes. docs/protocol.md describes it.
 *  - The reader trusts nothing: a header with a length of 0 or above
 *    OUTPUT_FRAME_MAX, a channel other than 1 or 2, a rank above
 *    OUTPUT_FRAME_RANK_MAX or a reserved byte set breaks the stream, and
 *    nothing after it is taken (there is no way to find the next frame).
 *  - It reads into its own buffer, which holds one whole frame at most:
 *    a frame is handed on as soon as it is whole, and what is left of the
 *    read (the start of the next) moves to the front. Pieces may be of
 *    any size, down to one byte.
 */
#include <stdlib.h>
#include <string.h>

#include "output_frames.h"

#define FRAME_BUFFER (OUTPUT_FRAME_HEADER + OUTPUT_FRAME_MAX)

void output_frames_header(unsigned char header[OUTPUT_FRAME_HEADER], const output_frame_t *f)
{
    uint32_t len = (uint32_t)f->len;
    memcpy(header, &len, 4);
    memcpy(header + 4, &f->rank, 4);
    memcpy(header + 8, &f->job, 4);
    header[12] = f->channel;
    memset(header + 13, 0, 3);
}

int output_frames_init(output_frames_reader_t *r)
{
    *r = (output_frames_reader_t){.buf = malloc(FRAME_BUFFER)};
    return NULL == r->buf ? -1 : 0;
}

void output_frames_release(output_frames_reader_t *r)
{
    free(r->buf);
    r->buf = NULL;
    r->len = 0;
}

unsigned char *output_frames_room(output_frames_reader_t *r, size_t *room)
{
    *room = r->broken ? 0 : FRAME_BUFFER - r->len;
    return r->buf + r->len;
}

/* The header at h, checked. False when it is malformed. */
static bool parse_header(const unsigned char *h, output_frame_t *f)
{
    uint32_t len;
    memcpy(&len, h, 4);
    memcpy(&f->rank, h + 4, 4);
    memcpy(&f->job, h + 8, 4);
    f->channel = h[12];
    f->len = len;
    return len > 0 && len <= OUTPUT_FRAME_MAX && (1 == f->channel || 2 == f->channel) &&
           f->rank <= OUTPUT_FRAME_RANK_MAX && 0 == h[13] && 0 == h[14] && 0 == h[15];
}

int output_frames_take(output_frames_reader_t *r, size_t added, output_frames_fn fn, void *arg)
{
    if (r->broken || added > FRAME_BUFFER - r->len) {
        r->broken = true;
        return -1;
    }
    r->len += added;
    size_t at = 0;
    output_frame_t f;
    while (r->len - at >= OUTPUT_FRAME_HEADER) {
        if (!parse_header(r->buf + at, &f)) {
            r->broken = true;
            r->len = 0;
            return -1;
        }
        if (r->len - at - OUTPUT_FRAME_HEADER < f.len) {
            break;
        }
        f.bytes = (const char *)r->buf + at + OUTPUT_FRAME_HEADER;
        fn(arg, &f);
        at += OUTPUT_FRAME_HEADER + f.len;
    }
    memmove(r->buf, r->buf + at, r->len - at);
    r->len -= at;
    return 0;
}

bool output_frames_partial(const output_frames_reader_t *r)
{
    return r->len > 0;
}
