/*
 * caf.h - private interface between the files of libcaf_drover.
 *
 * Memory model: every image owns one shared-memory segment, and every image
 * maps all segments at the same addresses (segment i at caf.base + i *
 * caf.stride). A pointer into any segment therefore means the same thing in
 * every image: tokens, component descriptors and their base addresses can be
 * read from another image's memory and used as they are. A segment holds a
 * control block (status, synchronisation counters, barrier), two collective
 * scratch slots, the symmetric heap (collective allocations, the same offsets
 * on every image) and the local heap (allocatable components and tokens).
 */
#ifndef DROVER_CAF_H
#define DROVER_CAF_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi.h"
#include "entry.h"

#define CAF_SLOT_BYTES ((size_t)64 * 1024) /* one collective scratch slot */
#define CAF_GATHER_BYTES ((size_t)4096)    /* small collectives: all contributions */
#define CAF_RESULT_BYTES ((size_t)64)      /* small collectives: the result */
/* Two gather areas, each followed by a result area: one set per team. */
#define CAF_GATHER_AREAS_BYTES (2 * (CAF_GATHER_BYTES + CAF_RESULT_BYTES))
/* Per segment: two scratch slots, then the initial team's gather areas
 * (used in image 1's segment only). */
#define CAF_SCRATCH_BYTES (2 * CAF_SLOT_BYTES + CAF_GATHER_AREAS_BYTES)

/* ---- heap.c: a deterministic first-fit allocator over a byte range ---- */

typedef struct caf_heap {
    char *base;
    size_t size;
    size_t top;            /* everything from here on is unused */
    size_t fresh;          /* everything from here on was never allocated */
    struct caf_free *free; /* free blocks sorted by offset (private memory) */
    size_t nfree, capfree;
} caf_heap_t;

/* Sets up `heap` over [base, base + size). */
void caf_heap_init(caf_heap_t *heap, char *base, size_t size);
/* Returns 64-byte aligned memory, or NULL when the heap is exhausted. The same
 * sequence of calls gives the same addresses relative to heap->base. */
void *caf_heap_alloc(caf_heap_t *heap, size_t size);
/* caf_heap_alloc, with the memory zeroed; memory never allocated before is
 * known to be zero and is not written. */
void *caf_heap_alloc_zeroed(caf_heap_t *heap, size_t size);
/* Returns memory from caf_heap_alloc; NULL is ignored. */
void caf_heap_free(caf_heap_t *heap, void *mem);
/* Releases the allocator's private bookkeeping. */
void caf_heap_fini(caf_heap_t *heap);

/* ---- shared control structures (live in the segments) ---- */

typedef struct caf_barrier {
    _Atomic uint64_t word; /* generation << 32 | images arrived */
    _Atomic uint32_t sleepers;
    uint32_t unused;
} caf_barrier_t;

typedef struct caf_ctl {
    _Atomic uint32_t status;   /* 0 running, CAF_STAT_STOPPED_IMAGE or CAF_STAT_FAILED_IMAGE */
    _Atomic uint32_t doorbell; /* bumped whenever something this image may wait for changes */
    _Atomic uint32_t sleeping; /* non-zero while this image sleeps on its doorbell */
    _Atomic uint32_t inactive; /* image 1 only: images stopped or failed */
    uint64_t job_seed;         /* image 1 only: random, the same for the whole job */
    cpu_set_t cpus;            /* the processors this image may run on (spread.c) */
    caf_barrier_t barrier __attribute__((aligned(64))); /* image 1 only: initial team */
    /* sync_count[j]: how many SYNC IMAGES image j has addressed to this image. */
    _Atomic uint32_t sync_count[] __attribute__((aligned(64)));
} caf_ctl_t;

/* ---- teams ---- */

typedef struct caf_team_rt_t {
    struct caf_team_rt_t *parent; /* the team this one was formed in */
    int number;                 /* team_number, -1 for the initial team */
    int size;
    int index;                  /* this image's index in the team, 1-based */
    int *members;               /* global ranks in team order */
    caf_barrier_t *barrier;     /* shared; in the first member's local heap */
    /* Shared gather areas for small reductions (collective.c): each team
     * has its own, because a team and its parent may have the same first
     * member and run collectives at the same time (an image leaves END
     * TEAM while its parent's other teams are still busy). */
    char *gather;
    unsigned coll_seq;          /* collectives done in this team: picks the scratch slot */
} caf_team_rt_t;

/* A coarray's token; lives in the owner's local heap. */
typedef struct caf_tok {
    char *mem;        /* this image's instance; NULL until allocated (kind 7) */
    size_t size;
    caf_desc_t *desc; /* the coarray's descriptor on this image */
    int kind;         /* how it was registered */
} caf_tok_t;

/* ---- init.c: the runtime's state ---- */

typedef struct caf_state {
    int me;              /* global rank, 0-based */
    int n;               /* number of images */
    char *base;          /* where image 0's segment is mapped */
    size_t stride;       /* distance between two images' segments */
    size_t slot_offset;  /* collective scratch slots, from a segment's start */
    caf_team_rt_t *team;   /* current team */
    caf_team_rt_t initial;
    unsigned spin;       /* polls before yielding; 0 when images share processors */
    bool pmix;           /* PMIx_Init succeeded */
    bool running;        /* between init and finalize */
    uint32_t *sync_done; /* per image: SYNC IMAGES completed with it */
    caf_heap_t sym;      /* symmetric heap of this image */
    caf_heap_t local;    /* local heap of this image */
} caf_state_t;

extern caf_state_t caf;

static inline char *caf_segment(int rank)
{
    return caf.base + (size_t)rank * caf.stride;
}

static inline caf_ctl_t *caf_ctl(int rank)
{
    return (caf_ctl_t *)caf_segment(rank);
}

/* The address in image `rank` of what is at `local` in this image. */
static inline char *caf_remote(const void *local, int rank)
{
    return (char *)local + ((ptrdiff_t)rank - caf.me) * (ptrdiff_t)caf.stride;
}

/* Global rank of image `image` (1-based) of the current team, this image's
 * for 0 (what gfortran passes when the variable is not coindexed); error
 * termination if it is out of range. */
int caf_rank_of(int image);

/* Sets *stat (and errmsg) to `code`, or when stat is NULL ends the job with
 * an error naming the problem. */
void caf_error(int *stat, char *errmsg, size_t errmsg_len, int code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Error termination of the whole job. */
_Noreturn void caf_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Clears errmsg-less success: *stat = 0 when stat is given. */
static inline void caf_ok(int *stat)
{
    if (stat) {
        *stat = 0;
    }
}

/* ---- segment.c: bootstrap through PMIx and map the segments ---- */

/* Creates and maps every image's segment (or one private segment when
 * there is a single image); fills caf.n, caf.me, caf.base, caf.stride and
 * the heaps. Returns 0, or -1 after printing why. */
int caf_segment_setup(void);
/* Removes this image's segment name once every image has mapped it. */
void caf_segment_unlink(void);
/* Unmaps the segments and finalizes PMIx. */
void caf_segment_teardown(void);
/* Asks the launcher to end every image with `code`; -1 without PMIx. */
int caf_segment_abort(int code, const char *msg);

/* ---- spread.c ---- */

/* Binds this image to one core when images outnumber the cores it may run
 * on and nobody bound it; publishes where it may run in its control block. */
void caf_spread(void);
/* Once every image has published: lets waiters poll (caf.spin) when the
 * images may use as many processors as there are images. */
void caf_choose_spin(void);

/* ---- wait.c: sleeping waits and barriers ---- */

void caf_futex_wait(_Atomic uint32_t *word, uint32_t expected);
void caf_futex_wake(_Atomic uint32_t *word, int count);
/* Tells image `rank` that something it may be waiting for changed. */
void caf_ring(int rank);
/* Waits on this image's doorbell until ready(arg) is true. */
void caf_wait_until(bool (*ready)(void *arg), void *arg);
/* Number of members of `team` that stopped or failed. */
int caf_team_inactive(const caf_team_rt_t *team);
/* Barrier over the active members of `team`. Returns 0, CAF_STAT_FAILED_IMAGE
 * or CAF_STAT_STOPPED_IMAGE when members have failed or stopped. */
int caf_barrier(caf_team_rt_t *team);
/* caf_barrier, where the image that completes the barrier first runs
 * complete(arg) (it may not run when members stopped or failed). */
int caf_barrier_with(caf_team_rt_t *team, void (*complete)(void *arg), void *arg);
/* Completes `team`'s barrier if the members still active have all arrived
 * (called after a member stopped or failed). */
void caf_barrier_poke(caf_team_rt_t *team);

/* ---- view.c: element sequences and the copy engine ---- */

typedef struct caf_elem {
    int type;    /* CAF_BT_* */
    int kind;
    size_t size; /* bytes per element */
} caf_elem_t;

/* A sequence of elements in memory, walked in array element order. Either
 * a strided (optionally vector-subscripted) array, or an explicit list. */
typedef struct caf_view {
    char *base;
    int rank;
    ptrdiff_t extent[CAF_MAX_DIM];
    ptrdiff_t stride[CAF_MAX_DIM]; /* bytes */
    const void *vec[CAF_MAX_DIM];  /* index vector of a dimension, or NULL */
    int vec_kind[CAF_MAX_DIM];
    ptrdiff_t vec_lb[CAF_MAX_DIM];
    char **list;                   /* explicit element addresses, or NULL */
    size_t nlist;
} caf_view_t;

/* Describes the array `desc` whose first element is at `base`; `vector`
 * (may be NULL) adds vector subscripts. */
void caf_view_desc(caf_view_t *view, const caf_desc_t *desc, char *base,
                   const caf_vector_t *vector);
/* A contiguous one-dimensional view of `count` elements of `size` bytes. */
void caf_view_flat(caf_view_t *view, char *base, size_t count, size_t size);
size_t caf_view_count(const caf_view_t *view);
/* Element type of a descriptor with the given kind. */
caf_elem_t caf_elem_of(const caf_desc_t *desc, int kind);
/* Copies src into dst converting each element; a single-element src is
 * assigned to every element of dst. `via_tmp` stages src through a buffer
 * first (for overlapping source and destination). Returns 0, or -1 when
 * the element counts differ or the conversion is not possible. */
int caf_copy(caf_view_t *dst, caf_elem_t dt, caf_view_t *src, caf_elem_t st, bool via_tmp);

/* ---- convert.c ---- */

/* Converts one element; returns false for conversions Fortran forbids. */
bool caf_convert(void *dst, caf_elem_t dt, const void *src, caf_elem_t st);

/* ---- register.c ---- */

/* The memory of `token` on image `rank`. */
char *caf_token_mem(caf_token_t token, int rank);

/* ---- stop.c ---- */

/* Marks this image stopped or failed and wakes everyone who may wait on it. */
void caf_mark_inactive(uint32_t status);

/* ---- small_result.c ---- */

/* res = fn(a, b) for CO_REDUCE's operator returning a derived type of
 * `size` <= 16 bytes in registers. Returns 0, or -1 when the registers
 * that carry the result cannot be told apart (or on other machines). */
int caf_call_small(void *fn, void *res, const void *a, const void *b, size_t size);
/* res = fn(a, b) for CO_REDUCE's operator on a 16-byte real taken by
 * reference: real(10) or real(16), told apart by where the result comes
 * back. Returns the kind, or -1 on other machines. */
int caf_call_wide_real(void *fn, void *res, const void *a, const void *b);

/* ---- collective.c ---- */

/* Gathers `size` bytes from every member of `team` into out[] (team order). */
void caf_allgather(caf_team_rt_t *team, const void *mine, void *out, size_t size);

#endif /* DROVER_CAF_H */
