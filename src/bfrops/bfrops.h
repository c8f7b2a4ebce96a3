/*
 * bfrops.h - the datatype registry and the operations that dispatch
 * through it. Private to the library.
 *
 * Every datatype, standard or registered by a program, is one
 * drover_datatype_t record (see drover.h). The functions here look the
 * record up and apply its per-element function to each of n elements, so
 * no code outside a datatype's own file needs to know how a type is laid
 * out. Nothing else in drover switches on a pmix_data_type_t.
 */
#ifndef DROVER_BFROPS_H
#define DROVER_BFROPS_H

#include <stdbool.h>
#include <stddef.h>

#include "drover.h"
#include "pmix_common.h"
#include "wire.h"

/* The record whose function this thread is running: set around every call
 * of a record's function (NULL outside them), so that one set of functions
 * can serve many records (the declared types of src/types share theirs). */
extern _Thread_local const drover_datatype_t *bfrops_current
    __attribute__((tls_model("initial-exec")));

/* The record for id, or NULL if no such type is registered. Borrowed. */
const drover_datatype_t *bfrops_lookup(pmix_data_type_t id);

/* Calls fn once for every registered type, in id order. */
void bfrops_foreach(void (*fn)(const drover_datatype_t *type, void *arg), void *arg);

/* Pack and unpack n elements with a type tag and count in front, the form
 * PMIx_Data_pack writes: [u16 type][u32 n][elements]. The unpack refuses a
 * tag other than type (PMIX_ERR_TYPE_MISMATCH) and a count above *n
 * (PMIX_ERR_UNPACK_INADEQUATE_SPACE); on success *n is the count read. */
pmix_status_t bfrops_pack_tagged(drover_writer_t *w, const void *src, size_t n,
                                 pmix_data_type_t type);
pmix_status_t bfrops_unpack_tagged(drover_reader_t *r, void *dest, size_t *n,
                                   pmix_data_type_t type);

/* Unpack one tagged group whatever its count, into an array allocated
 * through r->tma (NULL when the count is 0). The caller releases it with
 * bfrops_release then drover_tma_free. On failure nothing is allocated and
 * the reader has not moved. */
pmix_status_t bfrops_unpack_tagged_alloc(drover_reader_t *r, void **dest, size_t *n,
                                         pmix_data_type_t type);

/* Deep copy of n elements into dest (room for n, uninitialised). On failure
 * nothing is left allocated. */
pmix_status_t bfrops_copy(void *dest, const void *src, size_t n, pmix_data_type_t type,
                          drover_tma_t *tma);

/* Compare n elements pairwise; the first difference decides. */
pmix_value_cmp_t bfrops_compare(const void *a, const void *b, size_t n, pmix_data_type_t type);

/* Free what n elements own (not the elements' storage). Unknown types and
 * NULL elems are ignored. */
void bfrops_release(void *elems, size_t n, pmix_data_type_t type, drover_tma_t *tma);

/* Text for one element; caller frees with free(). NULL when the type is
 * unknown or memory runs out. */
char *bfrops_print(const void *elem, pmix_data_type_t type);

/* Where a pmix_value_t keeps its element: inside data for inline types,
 * behind data.ptr otherwise (NULL when nothing is stored). */
void *bfrops_value_elem(const pmix_value_t *v);

#endif /* DROVER_BFROPS_H */
