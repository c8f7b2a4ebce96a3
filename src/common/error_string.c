/*
 * error_string.c - the status registry and PMIx_Error_string.
 *
 * Design notes:
 *  - The codes come from src/common/tables/status.tbl through the generated
 *    constants_table.c, sorted by value, so a lookup is a binary search over
 *    constant data and needs no initialisation or locking.
 *  - PMIx_Error_string returns OpenPMIx 4.2's text for the code, such as
 *    "NOT-FOUND" for PMIX_ERR_NOT_FOUND: programs print it and scripts
 *    and users match it, so it is an interface fact kept in the table
 *    (test/dropin/strings_match.c compares every value with OpenPMIx).
 *  - An unknown code yields OpenPMIx's fixed string, never NULL, because
 *    callers pass the result straight to printf.
 */
#include "attributes.h"
#include "pmix.h"

/* What PMIx_Error_string returns for a value no name has. */
#define UNKNOWN_STATUS "ERROR STRING NOT FOUND"

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

/* Codes private to OpenPMIx (no header names them) that it still gives
 * text: a program linked against it may have received one and print it. */
static const char *openpmix_private_text(pmix_status_t status)
{
    switch (status) {
    case -1363:
        return "FABRIC_NOT_PARSEABLE";
    case -1366:
        return "TAKE-NEXT-OPTION";
    case -1367:
        return "PMIX TEMPORARILY UNAVAILABLE";
    default:
        return UNKNOWN_STATUS;
    }
}

PMIX_EXPORT const char *PMIx_Error_string(pmix_status_t status)
{
    const attributes_status_t *s = error_string_lookup(status);

    return NULL != s ? s->text : openpmix_private_text(status);
}
