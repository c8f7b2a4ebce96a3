/*
 * drover.h - drover's documented extensions to the PMIx API.
 *
 * Everything here is specific to drover: a program that uses it will not
 * build against another PMIx implementation. Two facilities are offered:
 *
 *  - an allocator handle (drover_tma_t) through which copies and unpacked
 *    values may be placed in memory other than the heap, and
 *  - run-time registration of new datatypes, after which PMIx_Data_pack,
 *    PMIx_Data_unpack, PMIx_Data_copy, PMIx_Data_print and the
 *    PMIx_Value_* functions handle them like the standard ones.
 *
 * docs/adding-a-datatype.md walks through a complete example.
 */
#ifndef DROVER_H
#define DROVER_H

#include <pmix_common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Allocator handles ------------------------------------------------ */

/* An allocator. NULL wherever a drover_tma_t * is accepted means the heap
 * (malloc and friends). The functions receive the handle so an allocator
 * can keep its state next to them. */
typedef struct drover_tma drover_tma_t;
struct drover_tma {
    void *(*malloc)(drover_tma_t *tma, size_t size);
    void *(*calloc)(drover_tma_t *tma, size_t nmemb, size_t size);
    void *(*realloc)(drover_tma_t *tma, void *ptr, size_t size);
    char *(*strdup)(drover_tma_t *tma, const char *s);
    /* May be a no-op (an arena frees everything at once). */
    void (*free)(drover_tma_t *tma, void *ptr);
};

/* Allocate through tma (NULL: the heap). Caller frees with drover_tma_free
 * on the same handle. They return NULL when memory runs out. */
PMIX_EXPORT void *drover_tma_malloc(drover_tma_t *tma, size_t size);
PMIX_EXPORT void *drover_tma_calloc(drover_tma_t *tma, size_t nmemb, size_t size);
PMIX_EXPORT char *drover_tma_strdup(drover_tma_t *tma, const char *s);
/* Accepts NULL ptr. */
PMIX_EXPORT void drover_tma_free(drover_tma_t *tma, void *ptr);

/* ---- Datatype registration -------------------------------------------- */

/* Ids of datatypes a program registers must lie in this range; the ids
 * below it belong to the PMIx standard and to drover itself. */
#define DROVER_DATATYPE_USER_MIN 1024
#define DROVER_DATATYPE_USER_MAX 65534

/* Opaque cursors handed to a datatype's pack and unpack functions. */
typedef struct drover_writer drover_writer_t;
typedef struct drover_reader drover_reader_t;

/* Pack n elements of a registered type, stored contiguously at src, with no
 * type tag: the matching drover_unpack must name the same type and count.
 * This is how a datatype's pack function writes its members. */
PMIX_EXPORT pmix_status_t drover_pack(drover_writer_t *w, const void *src, size_t n,
                                      pmix_data_type_t type);

/* Unpack n elements written by drover_pack into dest (room for n elements,
 * which need not be initialised). Memory the elements own is allocated
 * through drover_reader_tma(r). On failure nothing is left allocated and
 * the reader must not be used further. */
PMIX_EXPORT pmix_status_t drover_unpack(drover_reader_t *r, void *dest, size_t n,
                                        pmix_data_type_t type);

/* The allocator an unpack must use for what it allocates. Borrowed. */
PMIX_EXPORT drover_tma_t *drover_reader_tma(drover_reader_t *r);

/* Flags of a datatype record. */
/* The element is stored inside pmix_value_t.data (it must fit there); without
 * this flag a pmix_value_t holds a pointer to a copy in data.ptr. */
#define DROVER_DATATYPE_VALUE_INLINE 0x1u
/* Single-element calls (PMIx_Data_copy, PMIx_Data_print, PMIx_Value_load)
 * receive the element itself, as for PMIX_STRING where they are passed the
 * char *, rather than the address of the element. */
#define DROVER_DATATYPE_PASSED_BY_VALUE 0x2u

/* One datatype: everything drover needs to move, copy, compare, print and
 * free values of it. Each function handles a single element. */
typedef struct drover_datatype {
    const char *name;      /* printable name, e.g. "PMIX_BOOL" */
    pmix_data_type_t id;
    size_t size;           /* bytes one element occupies in memory */
    size_t min_wire;       /* fewest bytes one element can occupy packed, at
                              least 1: unpack uses it to refuse counts the
                              input cannot hold before allocating */
    unsigned flags;        /* DROVER_DATATYPE_* */

    /* Required. Write one element. */
    pmix_status_t (*pack)(drover_writer_t *w, const void *elem);
    /* Required. Read one element into zeroed storage; on failure release
     * whatever was allocated and leave it zeroed. */
    pmix_status_t (*unpack)(drover_reader_t *r, void *elem);
    /* Optional (NULL: bytewise copy). dest is uninitialised storage. */
    pmix_status_t (*copy)(void *dest, const void *src, drover_tma_t *tma);
    /* Optional (NULL: bytewise comparison). */
    pmix_value_cmp_t (*compare)(const void *a, const void *b);
    /* Required. A text rendering the caller frees with free(). */
    char *(*print)(const void *elem);
    /* Optional (NULL: the element owns nothing). Free what the element owns,
     * not the element itself. */
    void (*release)(void *elem, drover_tma_t *tma);
} drover_datatype_t;

/* Register a datatype. The record is copied; its name must stay valid for
 * the life of the process. Returns PMIX_ERR_BAD_PARAM for an id outside
 * [DROVER_DATATYPE_USER_MIN, DROVER_DATATYPE_USER_MAX], a missing required
 * function, a zero size or min_wire, or an inline type too large for
 * pmix_value_t; PMIX_ERR_DUPLICATE_KEY when the id is already registered;
 * PMIX_ERR_OUT_OF_RESOURCE when the registry is full. Thread-safe. */
PMIX_EXPORT pmix_status_t drover_register_datatype(const drover_datatype_t *type);

/* The record registered for id, or NULL. Borrowed, valid for the life of
 * the process. */
PMIX_EXPORT const drover_datatype_t *drover_datatype_lookup(pmix_data_type_t id);

/* ---- Introspection ------------------------------------------------------ */

/* One PMIx attribute as drover knows it. */
typedef struct drover_attribute {
    const char *name;         /* macro name, e.g. "PMIX_JOB_SIZE" */
    const char *key;          /* key string, e.g. "pmix.job.size" */
    pmix_data_type_t type;    /* type of its value; PMIX_UNDEF when it varies */
    const char *description;  /* one line */
    bool deprecated;
} drover_attribute_t;

/* The index-th known attribute, in name order, or NULL past the last one.
 * Borrowed, valid for the life of the process. */
PMIX_EXPORT const drover_attribute_t *drover_attribute_at(size_t index);

/* ---- PMI wire protocols ------------------------------------------------- */

/* Serve the PMI-1 wire protocol ("simple" PMI, as MPICH's hydra does) to
 * proc, a client registered with this server, over a new socket pair: the
 * library keeps one end; *fd is the other, for the process to inherit.
 * Adds PMI_FD (that descriptor's number), PMI_RANK, PMI_SIZE and PMI_JOBID
 * to *env. *fd is close-on-exec: the host clears that flag in the child
 * before exec, and closes its own copy after the fork. On failure nothing
 * is left open and *env may have gained some of the variables. */
PMIX_EXPORT pmix_status_t drover_server_setup_pmi(const pmix_proc_t *proc, char ***env, int *fd);

#ifdef __cplusplus
}
#endif

#endif /* DROVER_H */
