/*
 * plan.h - copy plans: the packed image of an array of a pointer-free
 * declared type as a constant header and, per element, the runs of
 * element bytes its data is made of.
 */
#ifndef DROVER_TYPES_PLAN_H
#define DROVER_TYPES_PLAN_H

#include "drover.h"
#include "layout.h"

/* Most runs a plan holds; a type scattered into more packs through its
 * tree. */
#define PLAN_MAX_RUNS 65536

typedef struct run {
    size_t off, len;          /* bytes of the element, in wire order */
} run_t;

typedef struct plan {
    uint8_t *hdr;             /* fingerprint, bounds and data length */
    size_t hlen;
    size_t data;              /* bytes of data after the header */
    run_t *runs;
    size_t nruns;
} plan_t;

/* The plan of a laid-out, pointer-free type whose shape is collected, or
 * NULL: a type with pointers or without data, a big-endian host (scalars
 * are not their wire bytes there), too many runs, or no memory. */
plan_t *plan_build(const named_t *nt);
void plan_free(plan_t *p);

/* Pack n >= 1 elements at src, size bytes apart: the header once, then
 * each element's runs. */
pmix_status_t plan_pack(drover_writer_t *w, const plan_t *p, const void *src, size_t n,
                        size_t size);

/* Copy the data of n elements, n * p->data bytes at in (the caller made
 * sure they are there), into the elements at dest, size bytes apart. */
void plan_unpack(const plan_t *p, const uint8_t *in, void *dest, size_t n, size_t size);

#endif /* DROVER_TYPES_PLAN_H */
