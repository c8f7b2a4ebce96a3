/*
 * random.c - RANDOM_INIT.
 *
 * The seed is made here and installed with libgfortran's RANDOM_SEED(PUT=).
 * Its material is the job seed (random, drawn by image 1 at start and shared
 * through its control block), mixed with the image index when
 * IMAGE_DISTINCT is true and with a count of calls when REPEATABLE is false:
 * so REPEATABLE gives the same seed at every call within a run (different
 * runs differ), and IMAGE_DISTINCT=.false. gives the same seed on every
 * image. REPEATABLE=.false. with IMAGE_DISTINCT=.true. draws fresh
 * randomness from the kernel.
 */
#include <stdlib.h>
#include <sys/random.h>

#include "caf.h"

/* libgfortran's RANDOM_SEED for default integers. */
extern void _gfortran_random_seed_i4(int32_t *size, caf_desc_t *put, caf_desc_t *get);

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

CAF_EXPORT void _gfortran_caf_random_init(bool repeatable, bool image_distinct)
{
    static uint64_t calls;
    calls++;
    uint64_t state = caf_ctl(0)->job_seed;
    if (!repeatable && image_distinct) {
        if (sizeof(state) != getrandom(&state, sizeof(state), 0)) {
            state ^= (uint64_t)(uintptr_t)&state ^ calls;
        }
    } else {
        state ^= repeatable ? 0x5eedULL : calls * 0xd1b54a32d192ed03ULL;
        if (image_distinct) {
            state ^= (uint64_t)(caf.me + 1) * 0xa0761d6478bd642fULL;
        }
    }
    int32_t size = 0;
    _gfortran_random_seed_i4(&size, NULL, NULL);
    if (size <= 0) {
        return;
    }
    int32_t *seed = malloc((size_t)size * sizeof(int32_t));
    caf_desc_t *put = malloc(sizeof(caf_desc_t) + sizeof(caf_dim_t));
    if (NULL == seed || NULL == put) {
        caf_fatal("RANDOM_INIT: out of memory");
    }
    for (int32_t i = 0; i < size; i++) {
        seed[i] = (int32_t)splitmix(&state);
    }
    *put = (caf_desc_t){
        .base_addr = seed,
        .offset = (size_t)-1,
        .dtype = {.elem_len = sizeof(int32_t), .rank = 1, .type = CAF_BT_INTEGER},
        .span = sizeof(int32_t),
    };
    put->dim[0] = (caf_dim_t){.stride = 1, .lbound = 1, .ubound = size};
    _gfortran_random_seed_i4(NULL, put, NULL);
    free(seed);
    free(put);
}
