/*
 * abi.h - the gfortran 12 coarray library interface (-fcoarray=lib).
 *
 * These are interface facts: the layouts gfortran 12 builds before calling
 * _gfortran_caf_* and the numeric codes it passes. Only what libcaf_drover
 * reads is declared; names are ours.
 */
#ifndef DROVER_CAF_ABI_H
#define DROVER_CAF_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CAF_EXPORT __attribute__((visibility("default")))

#define CAF_MAX_DIM 15

typedef void *caf_token_t;
typedef void *caf_team_t;

/* Kinds of registration (caf_register_t). */
enum {
    CAF_REG_COARRAY_STATIC = 0,
    CAF_REG_COARRAY_ALLOC = 1,
    CAF_REG_LOCK_STATIC = 2,
    CAF_REG_LOCK_ALLOC = 3,
    CAF_REG_CRITICAL = 4,
    CAF_REG_EVENT_STATIC = 5,
    CAF_REG_EVENT_ALLOC = 6,
    CAF_REG_ALLOC_REGISTER_ONLY = 7,
    CAF_REG_ALLOC_ALLOCATE_ONLY = 8,
};

/* Kinds of deregistration (caf_deregister_t). */
enum { CAF_DEREG_DEREGISTER = 0, CAF_DEREG_DEALLOCATE_ONLY = 1 };

/* STAT= values, as ISO_FORTRAN_ENV defines them in gfortran 12. */
enum {
    CAF_STAT_UNLOCKED = 0,
    CAF_STAT_LOCKED = 1,
    CAF_STAT_LOCKED_OTHER_IMAGE = 2,
    /* Not in gfortran: OpenCoarrays' value for a repeated SYNC IMAGES
     * entry, which its tests check for. */
    CAF_STAT_DUP_SYNC_IMAGES = 3,
    CAF_STAT_STOPPED_IMAGE = 6000,
    CAF_STAT_FAILED_IMAGE = 6001,
};

/* Type codes in a descriptor's dtype.type. */
enum {
    CAF_BT_INTEGER = 1,
    CAF_BT_LOGICAL = 2,
    CAF_BT_REAL = 3,
    CAF_BT_COMPLEX = 4,
    CAF_BT_DERIVED = 5,
    CAF_BT_CHARACTER = 6,
    CAF_BT_VOID = 10, /* e.g. the hidden coarray token of a component */
};

/* atomic_op operation codes. */
enum { CAF_ATOMIC_ADD = 1, CAF_ATOMIC_AND = 2, CAF_ATOMIC_OR = 3, CAF_ATOMIC_XOR = 4 };

/* co_reduce opr_flags. */
enum {
    CAF_OP_BYREF = 1 << 0,     /* result passed by reference as first argument */
    CAF_OP_HIDDENLEN = 1 << 1, /* hidden string length arguments follow */
    CAF_OP_ARG_VALUE = 1 << 2, /* arguments are passed by value */
    CAF_OP_ARG_DESC = 1 << 3,  /* arguments are descriptors */
};

typedef struct caf_dtype {
    size_t elem_len;
    int version;
    signed char rank;
    signed char type;
    short attribute;
} caf_dtype_t;

typedef struct caf_dim {
    ptrdiff_t stride;
    ptrdiff_t lbound;
    ptrdiff_t ubound;
} caf_dim_t;

/* gfc_descriptor_t: dim[] has `rank` entries. */
typedef struct caf_desc {
    void *base_addr;
    size_t offset;
    caf_dtype_t dtype;
    ptrdiff_t span;
    caf_dim_t dim[];
} caf_desc_t;

/* One dimension of a coindexed section: a vector subscript when nvec > 0,
 * otherwise the descriptor's own dimension applies. */
typedef struct caf_vector {
    size_t nvec;
    union {
        struct {
            void *vector;
            int kind;
        } v;
        struct {
            ptrdiff_t lower_bound, upper_bound, stride;
        } triplet;
    } u;
} caf_vector_t;

enum { CAF_REF_COMPONENT = 0, CAF_REF_ARRAY = 1, CAF_REF_STATIC_ARRAY = 2 };

enum {
    CAF_ARR_NONE = 0,
    CAF_ARR_VECTOR = 1,
    CAF_ARR_FULL = 2,
    CAF_ARR_RANGE = 3,
    CAF_ARR_SINGLE = 4,
    CAF_ARR_OPEN_END = 5,
    CAF_ARR_OPEN_START = 6,
};

/* One link of a reference chain (get_by_ref and friends). */
typedef struct caf_ref {
    struct caf_ref *next;
    int type;
    size_t item_size;
    union {
        struct {
            ptrdiff_t offset;
            ptrdiff_t caf_token_offset; /* non-zero: allocatable or pointer component */
        } c;
        struct {
            unsigned char mode[CAF_MAX_DIM];
            int static_array_type;
            union {
                struct {
                    ptrdiff_t start, end, stride;
                } s;
                struct {
                    void *vector;
                    size_t nvec;
                    int kind;
                } v;
            } dim[CAF_MAX_DIM];
        } a;
    } u;
} caf_ref_t;

#endif /* DROVER_CAF_ABI_H */
