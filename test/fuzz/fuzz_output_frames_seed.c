/*
 * fuzz_output_frames_seed.c - writes the seed corpus of fuzz_output_frames:
 * streams of well-formed frames (one, several, one of 4 KiB from the
 * largest rank, one cut short) and broken headers of each kind, each read
 * whole and in small pieces (the first byte).
 *
 * Usage: fuzz_output_frames_seed DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output_frames.h"

/* Append a frame to buf at *len; the header's bytes as given, for the
 * broken ones. */
static void frame(unsigned char *buf, size_t *len, uint32_t n, uint32_t rank, uint32_t job,
                  uint8_t channel, uint8_t reserved)
{
    memcpy(buf + *len, &n, 4);
    memcpy(buf + *len + 4, &rank, 4);
    memcpy(buf + *len + 8, &job, 4);
    buf[*len + 12] = channel;
    buf[*len + 13] = reserved;
    buf[*len + 14] = buf[*len + 15] = 0;
    *len += OUTPUT_FRAME_HEADER;
    for (uint32_t i = 0; i < n && i < 4096; i++) {
        buf[(*len)++] = (unsigned char)('a' + i % 26);
    }
}

static int save(const char *dir, const char *name, const unsigned char *buf, size_t len)
{
    for (unsigned char mode = 0; mode < 2; mode++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s-%u", dir, name, mode);
        FILE *f = fopen(path, "wb");
        if (NULL == f) {
            perror(path);
            return 1;
        }
        fputc(mode, f);
        fwrite(buf, 1, len, f);
        fclose(f);
    }
    return 0;
}

int main(int argc, char **argv)
{
    static unsigned char buf[65536];
    size_t len = 0;
    int rc = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_output_frames_seed DIR\n");
        return 2;
    }
    frame(buf, &len, 12, 0, 0, 1, 0);
    rc |= save(argv[1], "one", buf, len);
    frame(buf, &len, 30, 1, 0, 2, 0);
    frame(buf, &len, 5, 2, 3, 1, 0);
    rc |= save(argv[1], "three", buf, len);
    rc |= save(argv[1], "cut", buf, len - 3);
    len = 0;
    frame(buf, &len, 4096, OUTPUT_FRAME_RANK_MAX, 0xffffffffu, 2, 0);
    rc |= save(argv[1], "long", buf, len);
    static const struct {
        const char *name;
        uint32_t n, rank;
        uint8_t channel, reserved;
    } bad[] = {{"empty", 0, 0, 1, 0},      {"too-long", OUTPUT_FRAME_MAX + 1, 0, 1, 0},
               {"channel", 4, 0, 3, 0},    {"rank", 4, OUTPUT_FRAME_RANK_MAX + 1, 1, 0},
               {"reserved", 4, 0, 1, 1}};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        len = 0;
        frame(buf, &len, 3, 0, 0, 1, 0);
        frame(buf, &len, bad[i].n, bad[i].rank, 0, bad[i].channel, bad[i].reserved);
        rc |= save(argv[1], bad[i].name, buf, len);
    }
    return rc;
}
