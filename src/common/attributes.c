/*
 * attributes.c - the attribute registry: key <-> name lookups and type
 * checks, the public PMIx_Get_attribute_string / _name, and drover's
 * drover_attribute_at.
 *
 * Design notes:
 *  - The data is constants_table.c, generated from src/common/tables at
 *    build time; this file only searches it. The generator sorts the
 *    entries by name and writes a second, key-sorted index, so both
 *    directions are a binary search over constant data: no start-up work,
 *    no allocation, no locking.
 *  - Comparisons ignore case because OpenPMIx's lookups do, and programs
 *    may rely on PMIx_Get_attribute_string("pmix_job_size") working. They
 *    fold ASCII letters only, whatever the locale, so the order the
 *    generator sorted by is the order searched.
 *  - A few keys are spelled by more than one macro (an old name kept after
 *    a rename, or two attributes the standard gave the same string). The
 *    table marks the later spellings as aliases and the index puts the
 *    owner first, so a key maps back to its owner's name.
 *  - Unknown strings come back unchanged from the public functions, as in
 *    OpenPMIx: a caller printing the result never sees NULL for a bad name.
 */
#include "attributes.h"
#include "pmix.h"

/* strcasecmp for the C locale: folds A-Z only. strcasecmp itself follows
 * the program's locale, under which the table's order may not hold. */
static int ascii_casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z') {
            ca += 'a' - 'A';
        }
        if (cb >= 'A' && cb <= 'Z') {
            cb += 'a' - 'A';
        }
        if (ca != cb || 0 == ca) {
            return ca - cb;
        }
    }
}

/* Returns the string at sorted position i of one of the two orders. */
typedef const char *(*sorted_string_fn)(size_t i);

static const char *name_at(size_t i)
{
    return constants_attributes[i].name;
}

static const char *key_at(size_t i)
{
    return constants_attributes[constants_key_index[i]].key;
}

/* The first position in [0, n) whose string is not below s (ignoring
 * case). Finding the first such position, rather than any match, is what
 * makes an alias's owner the answer for a shared key. */
static size_t lower_bound(const char *s, size_t n, sorted_string_fn at)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ascii_casecmp(at(mid), s) < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* The first key-index position holding key, or constants_attributes_count
 * if key is unknown. */
static size_t first_key_position(const char *key)
{
    size_t pos = lower_bound(key, constants_attributes_count, key_at);

    if (pos < constants_attributes_count && 0 == ascii_casecmp(key_at(pos), key)) {
        return pos;
    }
    return constants_attributes_count;
}

const attributes_entry_t *attributes_by_key(const char *key)
{
    size_t pos;

    if (NULL == key) {
        return NULL;
    }
    pos = first_key_position(key);
    if (pos == constants_attributes_count) {
        return NULL;
    }
    return &constants_attributes[constants_key_index[pos]];
}

const attributes_entry_t *attributes_by_name(const char *name)
{
    size_t pos;

    if (NULL == name) {
        return NULL;
    }
    pos = lower_bound(name, constants_attributes_count, name_at);
    if (pos < constants_attributes_count && 0 == ascii_casecmp(name_at(pos), name)) {
        return &constants_attributes[pos];
    }
    return NULL;
}

size_t attributes_count(void)
{
    return constants_attributes_count;
}

const attributes_entry_t *attributes_at(size_t i)
{
    return i < constants_attributes_count ? &constants_attributes[i] : NULL;
}

PMIX_EXPORT const drover_attribute_t *drover_attribute_at(size_t index)
{
    return attributes_at(index);
}

pmix_status_t attributes_check_type(const char *key, pmix_data_type_t type)
{
    size_t pos;

    if (NULL == key) {
        return PMIX_ERR_BAD_PARAM;
    }
    pos = first_key_position(key);
    if (pos == constants_attributes_count) {
        return PMIX_ERR_NOT_FOUND;
    }
    /* Every spelling of a shared key sits next to its owner in the index;
     * the value may have the type of any of them. */
    for (; pos < constants_attributes_count && 0 == ascii_casecmp(key_at(pos), key); pos++) {
        pmix_data_type_t want = constants_attributes[constants_key_index[pos]].type;
        if (PMIX_UNDEF == want || want == type) {
            return PMIX_SUCCESS;
        }
    }
    return PMIX_ERR_TYPE_MISMATCH;
}

PMIX_EXPORT const char *PMIx_Get_attribute_string(const char *attribute)
{
    const attributes_entry_t *e = attributes_by_name(attribute);

    return NULL != e ? e->key : attribute;
}

PMIX_EXPORT const char *PMIx_Get_attribute_name(const char *attrstring)
{
    const attributes_entry_t *e = attributes_by_key(attrstring);

    return NULL != e ? e->name : attrstring;
}
