/*
 * error_string.c - the status registry and PMIx_Error_string.
 *
 * Design notes:
 *  - The codes come from src/common/tables/status.tbl through the generated
 *    constants_table.c, sorted by value, so a lookup is a binary search over
 *    constant data and needs no initialisation or locking.
 *  - PMIx_Error_string returns the name of the code, such as
 *    "PMIX_ERR_NOT_FOUND": it is unambiguous, greppable in any header, and
 *    never goes stale. Where several names share a value the current one is
 *    returned, never a deprecated spelling.
 *  - An unknown code yields a fixed string, never NULL, because callers
 *    pass the result straight to printf.
 */
#include "attributes.h"
#include "pmix.h"

/* What PMIx_Error_string returns for a value no name has. */
#define UNKNOWN_STATUS "UNKNOWN STATUS"

const attributes_status_t *error_string_lookup(pmix_status_t value)
{
    size_t lo = 0, hi = constants_status_count;

    /* Find the first entry not below value: where names share a value, the
     * owner is stored first, so this lands on it. */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (constants_status[mid].value < value) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < constants_status_count && constants_status[lo].value == value) {
        return &constants_status[lo];
    }
    return NULL;
}

size_t error_string_count(void)
{
    return constants_status_count;
}

const attributes_status_t *error_string_at(size_t i)
{
    return i < constants_status_count ? &constants_status[i] : NULL;
}

PMIX_EXPORT const char *PMIx_Error_string(pmix_status_t status)
{
    const attributes_status_t *s = error_string_lookup(status);

    return NULL != s ? s->name : UNKNOWN_STATUS;
}
