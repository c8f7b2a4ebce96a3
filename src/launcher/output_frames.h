/*
 * output_frames.h - the frames a daemon's job sends its ranks' output in
 * (output_frames.c; the format is in docs/protocol.md).
 */
#ifndef DROVER_LAUNCHER_OUTPUT_FRAMES_H
#define DROVER_LAUNCHER_OUTPUT_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A frame: a 16-byte header, then 1 to OUTPUT_FRAME_MAX bytes. */
#define OUTPUT_FRAME_HEADER 16
#define OUTPUT_FRAME_MAX 65536
/* Ranks above this are refused: no run has that many. */
#define OUTPUT_FRAME_RANK_MAX 0x7fffffffu

/* What a frame carries: len bytes that rank of the run's job `job` (0:
 * its first job, n: the nth it spawned) wrote on channel 1 (stdout) or 2
 * (stderr). */
typedef struct output_frame {
    uint32_t rank;
    uint32_t job;
    uint8_t channel;
    const char *bytes;
    size_t len;
} output_frame_t;

/* The header of f (whose len is 1 to OUTPUT_FRAME_MAX) into header. */
void output_frames_header(unsigned char header[OUTPUT_FRAME_HEADER], const output_frame_t *f);

/* A frame taken from a stream; its bytes are borrowed for the call. */
typedef void (*output_frames_fn)(void *arg, const output_frame_t *f);

/* Reassembles frames from a stream read in pieces of any size. */
typedef struct output_frames_reader {
    unsigned char *buf; /* OUTPUT_FRAME_HEADER + OUTPUT_FRAME_MAX bytes */
    size_t len; /* held: the start of a frame not yet whole */
    bool broken; /* a malformed header was seen: nothing more is taken */
} output_frames_reader_t;

/* 0, or -1 when memory runs out. Release with output_frames_release. */
int output_frames_init(output_frames_reader_t *r);
void output_frames_release(output_frames_reader_t *r);

/* Where the next bytes of the stream go: *room of them (never 0 unless
 * broken). Borrowed until output_frames_take. */
unsigned char *output_frames_room(output_frames_reader_t *r, size_t *room);

/* added bytes were put in the room: fn is called for every frame now
 * whole, in order. 0, or -1 once the stream is malformed (a length of 0
 * or above OUTPUT_FRAME_MAX, a channel other than 1 or 2, a rank above
 * OUTPUT_FRAME_RANK_MAX or a reserved byte set): what follows it is
 * never taken. */
int output_frames_take(output_frames_reader_t *r, size_t added, output_frames_fn fn, void *arg);

/* Whether bytes are held that do not make a whole frame (a stream that
 * ends then was cut). */
bool output_frames_partial(const output_frames_reader_t *r);

#endif /* DROVER_LAUNCHER_OUTPUT_FRAMES_H */
