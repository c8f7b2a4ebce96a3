/*
 * attributes.h - run-time registries of PMIx attribute keys and status
 * codes. Private to the library.
 *
 * Both registries are built at compile time from the tables in
 * src/common/tables (see gen_constants.py there), the same tables that
 * produce the public #defines in pmix_constants.h, so the names a program
 * compiles against and the names the library knows cannot drift apart.
 * Everything here is read-only data: no initialisation, no locking.
 */
#ifndef DROVER_ATTRIBUTES_H
#define DROVER_ATTRIBUTES_H

#include <stdbool.h>
#include <stddef.h>

#include "drover.h"
#include "pmix_common.h"

/* One attribute: the macro a program writes, the key string that travels,
 * the PMIx datatype its value has (PMIX_UNDEF when that depends on use), a
 * one-line description, and whether the name is retired. It is the record
 * drover.h publishes, so drover_attribute_at hands out table entries as
 * they are. */
typedef drover_attribute_t attributes_entry_t;

/* One status code: its macro name, value and the text PMIx_Error_string
 * returns for it (OpenPMIx's). Several names may share a value; the
 * current name is the owner of the value. */
typedef struct attributes_status {
    const char *name;
    pmix_status_t value;
    const char *text;
    bool deprecated;
} attributes_status_t;

/* ---- Generated tables (constants_table.c) ------------------------------ */

/* Every attribute, sorted by name ignoring ASCII case. */
extern const attributes_entry_t constants_attributes[];
extern const size_t constants_attributes_count;
/* Indexes into constants_attributes sorted by key ignoring ASCII case;
 * of entries sharing a key, the one owning it comes first. */
extern const unsigned short constants_key_index[];
/* Every status code sorted by value; of names sharing a value, the owner
 * comes first. */
extern const attributes_status_t constants_status[];
extern const size_t constants_status_count;

/* ---- Attribute registry (attributes.c) --------------------------------- */

/* Lookups ignore case, as OpenPMIx's do. They return NULL for NULL or an
 * unknown string; results are borrowed, valid for the life of the process.
 * A key shared by several names yields the entry that owns it. */
const attributes_entry_t *attributes_by_key(const char *key);
const attributes_entry_t *attributes_by_name(const char *name);

/* The number of attributes, and the i-th in name order (NULL past the end).
 * Borrowed, valid for the life of the process. */
size_t attributes_count(void);
const attributes_entry_t *attributes_at(size_t i);

/* Whether a value of the given type may be stored under key: PMIX_SUCCESS
 * if the key is known and takes that type (or any type), PMIX_ERR_NOT_FOUND
 * for an unknown key, PMIX_ERR_TYPE_MISMATCH otherwise, PMIX_ERR_BAD_PARAM
 * for a NULL key. A key shared by several names accepts any of their types. */
pmix_status_t attributes_check_type(const char *key, pmix_data_type_t type);

/* ---- Status registry (error_string.c) ---------------------------------- */

/* The owner entry for a status value, or NULL if the value has no name.
 * Borrowed, valid for the life of the process. */
const attributes_status_t *error_string_lookup(pmix_status_t value);

/* The number of status names (aliases included), and the i-th in value
 * order (NULL past the end). Borrowed, valid for the life of the process. */
size_t error_string_count(void);
const attributes_status_t *error_string_at(size_t i);

#endif /* DROVER_ATTRIBUTES_H */
