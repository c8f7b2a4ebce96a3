/*
 * darray_cases.h - the distributed arrays darray_mpi.c (Open MPI's
 * MPI_Type_create_darray) and darray_drover.c (drover_type_create_darray)
 * both describe, for run_darray.sh to compare. Codes are this file's own;
 * each program maps them to its library's constants.
 */
#ifndef DROVER_TEST_DARRAY_CASES_H
#define DROVER_TEST_DARRAY_CASES_H

enum { BLK, CYC, NON };     /* distributions */
enum { ORD_C, ORD_F };      /* orders */
#define DFLT (-1000)        /* the default distribution argument */

typedef struct darray_case {
    int size, ndims;
    int gsizes[3], distribs[3], dargs[3], psizes[3];
    int order;
} darray_case_t;

/* Every rank of each case is described; some own nothing. */
static const darray_case_t darray_cases[] = {
    {4, 2, {8, 6}, {BLK, CYC}, {DFLT, 2}, {2, 2}, ORD_C},
    {4, 2, {8, 6}, {BLK, CYC}, {DFLT, 2}, {2, 2}, ORD_F},
    {6, 3, {5, 4, 3}, {CYC, BLK, NON}, {2, DFLT, DFLT}, {3, 2, 1}, ORD_C},
    {6, 3, {5, 4, 3}, {CYC, BLK, NON}, {2, DFLT, DFLT}, {3, 2, 1}, ORD_F},
    {3, 1, {10}, {BLK}, {4}, {3}, ORD_C},
    {4, 2, {9, 9}, {CYC, CYC}, {DFLT, 3}, {2, 2}, ORD_F},
    {2, 2, {7, 3}, {BLK, CYC}, {DFLT, DFLT}, {1, 2}, ORD_C},
    {5, 1, {11}, {CYC}, {3}, {5}, ORD_C},
    {4, 2, {6, 6}, {NON, BLK}, {DFLT, DFLT}, {1, 4}, ORD_F},
    {8, 3, {4, 6, 5}, {BLK, CYC, CYC}, {DFLT, 1, 2}, {2, 2, 2}, ORD_F},
};
#define DARRAY_NCASES (sizeof(darray_cases) / sizeof(darray_cases[0]))

/* Largest global array of the cases, in elements. */
#define DARRAY_MAX_ELEMS 256

#endif /* DROVER_TEST_DARRAY_CASES_H */
