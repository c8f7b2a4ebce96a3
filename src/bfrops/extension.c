/*
 * extension.c - drover_register_datatype and drover_datatype_lookup: the
 * public face of the datatype registry (see drover.h).
 *
 * Design notes:
 *  - Everything about a record is checked before the registry is touched,
 *    so a refused registration changes nothing.
 *  - Besides what drover.h lists, a passed-by-value type must be exactly
 *    one pointer wide (the single-element calls hand over that pointer and
 *    store it in place), and unknown flag bits are refused so a record
 *    written for a later drover is not misread by this one.
 */
#include "bfrops.h"
#include "registry.h"

#define KNOWN_FLAGS (DROVER_DATATYPE_VALUE_INLINE | DROVER_DATATYPE_PASSED_BY_VALUE)

static bool record_is_valid(const drover_datatype_t *type)
{
    if (NULL == type->name || NULL == type->pack || NULL == type->unpack ||
        NULL == type->print) {
        return false;
    }
    if ((NULL == type->pack_array) != (NULL == type->unpack_array)) {
        return false;
    }
    if (0 == type->size || 0 == type->min_wire || 0 != (type->flags & ~KNOWN_FLAGS)) {
        return false;
    }
    if ((type->flags & DROVER_DATATYPE_VALUE_INLINE) &&
        type->size > sizeof(((pmix_value_t *)NULL)->data)) {
        return false;
    }
    if ((type->flags & DROVER_DATATYPE_PASSED_BY_VALUE) && type->size != sizeof(void *)) {
        return false;
    }
    return true;
}

PMIX_EXPORT pmix_status_t drover_register_datatype(const drover_datatype_t *type)
{
    if (NULL == type || type->id < DROVER_DATATYPE_USER_MIN ||
        type->id > DROVER_DATATYPE_USER_MAX || !record_is_valid(type)) {
        return PMIX_ERR_BAD_PARAM;
    }
    return registry_insert(type);
}

PMIX_EXPORT const drover_datatype_t *drover_datatype_lookup(pmix_data_type_t id)
{
    return bfrops_lookup(id);
}
