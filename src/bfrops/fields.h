/*
 * fields.h - structured datatypes described as tables of fields.
 *
 * Most PMIx structs are a fixed sequence of members that are themselves
 * registered datatypes (a pmix_proc_t is a PMIX_PROC_NSPACE and a
 * PMIX_PROC_RANK), plus a few shapes the registry has no type for: a
 * pmix_key_t, a NULL-terminated argv, a pointer to a counted array, a
 * pointer to one optional element. A family file describes such a struct
 * once, as a fields_layout_t, and gets pack, unpack, copy, compare, print
 * and release from the functions below, which apply the registry to each
 * member in table order. The wire form of a struct is therefore the
 * concatenation of its members' wire forms (docs/protocol.md, "Structured
 * types"). Private to the library.
 */
#ifndef DROVER_BFROPS_FIELDS_H
#define DROVER_BFROPS_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bfrops.h"

/* How a member is stored. */
typedef enum fields_kind {
    /* One element of a registered type, in place. */
    FIELDS_ELEM,
    /* A pmix_key_t: travels as a string of at most PMIX_MAX_KEYLEN bytes. */
    FIELDS_KEY,
    /* A char ** ending with NULL; NULL and an empty argv are the same. */
    FIELDS_ARGV,
    /* A pointer to count elements of a registered type, the count being a
     * size_t member; a NULL pointer and a zero count are the same. */
    FIELDS_ARRAY,
    /* A pointer to one element of a registered type, or NULL. */
    FIELDS_OPTIONAL,
} fields_kind_t;

typedef struct fields_field {
    const char *name;        /* printed before the member's text */
    fields_kind_t kind;
    pmix_data_type_t type;   /* element type for ELEM, ARRAY and OPTIONAL */
    size_t offset;           /* of the member */
    size_t count_offset;     /* of the size_t count, for ARRAY */
    /* Two structs that differ in this member describe different things
     * (another fabric, another view) rather than ordered values: compare
     * then answers PMIX_VALUE_INCOMPATIBLE_OBJECTS. */
    bool identity;
} fields_field_t;

typedef struct fields_layout {
    size_t size;             /* of the whole struct */
    const fields_field_t *fields;
    size_t nfields;
} fields_layout_t;

/* Table entries, so a layout reads as a list of members. */
#define FIELDS_MEMBER(st, member, dtype) \
    {.name = #member, .kind = FIELDS_ELEM, .type = (dtype), .offset = offsetof(st, member)}
#define FIELDS_IDENTITY(st, member, dtype)                                                    \
    {.name = #member, .kind = FIELDS_ELEM, .type = (dtype), .offset = offsetof(st, member), \
     .identity = true}
#define FIELDS_KEY_MEMBER(st, member) \
    {.name = #member, .kind = FIELDS_KEY, .offset = offsetof(st, member)}
#define FIELDS_ARGV_MEMBER(st, member) \
    {.name = #member, .kind = FIELDS_ARGV, .type = PMIX_STRING, .offset = offsetof(st, member)}
#define FIELDS_ARRAY_MEMBER(st, member, count, dtype)                                    \
    {.name = #member, .kind = FIELDS_ARRAY, .type = (dtype), .offset = offsetof(st, member), \
     .count_offset = offsetof(st, count)}
#define FIELDS_OPTIONAL_MEMBER(st, member, dtype) \
    {.name = #member, .kind = FIELDS_OPTIONAL, .type = (dtype), .offset = offsetof(st, member)}

#define FIELDS_LAYOUT(st, table) \
    {.size = sizeof(st), .fields = (table), .nfields = sizeof(table) / sizeof((table)[0])}

/* The six record functions for a struct described by layout; each has the
 * contract of the matching drover_datatype_t member. */
pmix_status_t fields_pack(drover_writer_t *w, const void *elem, const fields_layout_t *layout);
pmix_status_t fields_unpack(drover_reader_t *r, void *elem, const fields_layout_t *layout);
pmix_status_t fields_copy(void *dest, const void *src, const fields_layout_t *layout,
                          drover_tma_t *tma);
pmix_value_cmp_t fields_compare(const void *a, const void *b, const fields_layout_t *layout);
/* "{name=text, ...}"; caller frees with free(). NULL when memory runs out. */
char *fields_print(const void *elem, const fields_layout_t *layout);
/* Frees what the struct owns through tma and zeroes it. */
void fields_release(void *elem, const fields_layout_t *layout, drover_tma_t *tma);

/* Defines the six record functions for a struct described by layout, as
 * static prefix_pack ... prefix_release forwarding to the functions above,
 * and the record bfrops_type_<prefix> naming them (see datatypes.def).
 * minimum is the record's min_wire: what a zeroed element packs to (NULL
 * strings, empty arrays, an undefined value), the smallest any element
 * can be; test_types_struct checks that no element packs smaller. */
#define FIELDS_DATATYPE(prefix, tid, st, minimum, dflags, layout)                        \
    static pmix_status_t prefix##_pack(drover_writer_t *w, const void *elem)              \
    {                                                                                     \
        return fields_pack(w, elem, &(layout));                                           \
    }                                                                                     \
    static pmix_status_t prefix##_unpack(drover_reader_t *r, void *elem)                  \
    {                                                                                     \
        return fields_unpack(r, elem, &(layout));                                         \
    }                                                                                     \
    static pmix_status_t prefix##_copy(void *dest, const void *src, drover_tma_t *tma)    \
    {                                                                                     \
        return fields_copy(dest, src, &(layout), tma);                                    \
    }                                                                                     \
    static pmix_value_cmp_t prefix##_compare(const void *a, const void *b)                \
    {                                                                                     \
        return fields_compare(a, b, &(layout));                                           \
    }                                                                                     \
    static char *prefix##_print(const void *elem)                                         \
    {                                                                                     \
        return fields_print(elem, &(layout));                                             \
    }                                                                                     \
    static void prefix##_release(void *elem, drover_tma_t *tma)                           \
    {                                                                                     \
        fields_release(elem, &(layout), tma);                                             \
    }                                                                                     \
    const drover_datatype_t bfrops_type_##prefix = {                                      \
        .name = #tid,                                                                     \
        .id = tid,                                                                        \
        .size = sizeof(st),                                                               \
        .min_wire = (minimum),                                                            \
        .flags = (dflags),                                                                \
        .pack = prefix##_pack,                                                            \
        .unpack = prefix##_unpack,                                                        \
        .copy = prefix##_copy,                                                            \
        .compare = prefix##_compare,                                                      \
        .print = prefix##_print,                                                          \
        .release = prefix##_release,                                                      \
    };

/* ---- Pieces the hand-written structs share ------------------------------ */

/* A counted array of a registered type: [u32 n][n elements]. The unpack
 * refuses a count the input cannot hold and an unknown type with a
 * non-zero count; *array is allocated through the reader's allocator
 * (NULL when n is 0). */
pmix_status_t fields_put_array(drover_writer_t *w, const void *array, size_t n,
                               pmix_data_type_t type);
pmix_status_t fields_get_array(drover_reader_t *r, void **array, size_t *n,
                               pmix_data_type_t type);
/* Deep copy of n elements into a new block allocated through tma, or NULL
 * when n is 0; on failure *dest is NULL and nothing is left allocated. */
pmix_status_t fields_copy_array(void **dest, const void *src, size_t n, pmix_data_type_t type,
                                drover_tma_t *tma);
/* Count first, then element by element. */
pmix_value_cmp_t fields_compare_array(const void *a, size_t na, const void *b, size_t nb,
                                      pmix_data_type_t type);
/* Releases the n elements and frees the block through tma. */
void fields_free_array(void *array, size_t n, pmix_data_type_t type, drover_tma_t *tma);

/* The ordering of two counts or lengths. */
pmix_value_cmp_t fields_order(size_t a, size_t b);

/* Text building for print functions. Each call appends; after the first
 * failure the others do nothing, and fields_text_close reports it by
 * returning NULL. The text fields_text_close returns is the caller's, to
 * free with free(). */
typedef struct fields_text {
    FILE *out;
    char *buf;
    size_t len;
    bool ok;
} fields_text_t;

void fields_text_open(fields_text_t *t);
void fields_text_printf(fields_text_t *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The registry's text for one element of type. */
void fields_text_elem(fields_text_t *t, const void *elem, pmix_data_type_t type);
/* "[text, text, ...]" for n elements of type. */
void fields_text_array(fields_text_t *t, const void *array, size_t n, pmix_data_type_t type);
char *fields_text_close(fields_text_t *t);

#endif /* DROVER_BFROPS_FIELDS_H */
