/*
 * fuzz_output_frames.c - libFuzzer harness for the frames a daemon's job
 * sends its ranks' output in (src/launcher/output_frames.c): arbitrary
 * bytes, cut into pieces whose sizes the first byte chooses (1 byte to a
 * whole read), go through the daemon's reader. Nothing may crash, leak or
 * read out of bounds; every frame handed on has 1 to OUTPUT_FRAME_MAX
 * bytes from within the input, a channel of 1 or 2 and a rank within
 * bounds; and, until the stream breaks, the frames taken, re-encoded, and
 * what the reader still holds are the input read so far, byte for byte.
 *
 * The seed corpus comes from fuzz_output_frames_seed.c; run-fuzz.sh drives
 * both.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output_frames.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what)
{
    fprintf(stderr, "fuzz_output_frames: %s\n", what);
    abort();
}

/* What the frames taken so far re-encode to. */
typedef struct taken {
    const uint8_t *input;
    size_t at; /* bytes of the input they account for */
} taken_t;

static void on_frame(void *arg, const output_frame_t *f)
{
    taken_t *t = arg;
    unsigned char header[OUTPUT_FRAME_HEADER];
    if (0 == f->len || f->len > OUTPUT_FRAME_MAX || (1 != f->channel && 2 != f->channel) ||
        f->rank > OUTPUT_FRAME_RANK_MAX) {
        broken("a frame out of bounds was handed on");
    }
    output_frames_header(header, f);
    if (0 != memcmp(header, t->input + t->at, sizeof(header)) ||
        0 != memcmp(f->bytes, t->input + t->at + sizeof(header), f->len)) {
        broken("a frame is not what the input said");
    }
    t->at += sizeof(header) + f->len;
}

/* The size of the next piece: 1, a little, or as much as there is room
 * for, as the mode's bits say. */
static size_t piece(unsigned mode, size_t step, size_t left, size_t room)
{
    size_t n = 0 == (mode & 1) ? room : 1 + ((mode >> 1) * 7 + step * 13) % 97;
    n = n < room ? n : room;
    return n < left ? n : left;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    output_frames_reader_t r;
    if (0 == size || 0 != output_frames_init(&r)) {
        return 0;
    }
    unsigned mode = data[0];
    taken_t t = {.input = data + 1};
    size_t read = 0;
    for (size_t step = 0; read < size - 1; step++) {
        size_t room;
        unsigned char *at = output_frames_room(&r, &room);
        if (0 == room) {
            break;
        }
        size_t n = piece(mode, step, size - 1 - read, room);
        memcpy(at, data + 1 + read, n);
        read += n;
        if (0 != output_frames_take(&r, n, on_frame, &t)) {
            output_frames_room(&r, &room);
            if (0 != room || 0 == output_frames_take(&r, 0, on_frame, &t)) {
                broken("a broken stream takes more");
            }
            break;
        }
        if (t.at + r.len != read || 0 != memcmp(r.buf, t.input + t.at, r.len)) {
            broken("what the reader holds is not the rest of the input");
        }
    }
    output_frames_release(&r);
    return 0;
}
