/*
 * scalar_enum.c - PMIX_BOOL and the small enumeration and flag datatypes:
 * persistence, scope, data range, command, info directives, data type,
 * proc state, alloc directive, IOF channel, job state, link state, device
 * type, locality and the four storage types.
 *
 * Design notes:
 *  - An enumeration is an integer of a fixed width, so its record is built
 *    from scalar_int.c's width-generic functions; flag sets (directives,
 *    channels, device types, localities, storage) print in hexadecimal.
 *  - A bool is one byte on the wire, 0 or 1. Any other byte is malformed
 *    input and is refused rather than read as true: a C bool holding 2 is
 *    undefined behaviour waiting to happen in the receiver.
 *  - A data type prints with its registered name, so the text stays right
 *    for types registered at run time.
 */
#include <stdbool.h>
#include <stdint.h>

#include "scalar_int.h"

_Static_assert(sizeof(bool) == 1, "bool must be one byte");

static pmix_status_t pack_bool(drover_writer_t *w, const void *elem)
{
    const bool *flag = elem;
    return wire_put_u8(w, *flag ? 1 : 0);
}

static pmix_status_t unpack_bool(drover_reader_t *r, void *elem)
{
    uint8_t byte;
    pmix_status_t rc = wire_get_u8(r, &byte);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (byte > 1) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    *(bool *)elem = 1 == byte;
    return PMIX_SUCCESS;
}

static pmix_value_cmp_t compare_bool(const void *a, const void *b)
{
    return scalar_int_order_u64(*(const bool *)a, *(const bool *)b);
}

static char *print_bool(const void *elem)
{
    return scalar_int_format("%s", *(const bool *)elem ? "true" : "false");
}

static char *print_data_type(const void *elem)
{
    const pmix_data_type_t *id = elem;
    const drover_datatype_t *type = bfrops_lookup(*id);
    if (NULL == type) {
        return scalar_int_format("%u", (unsigned)*id);
    }
    return scalar_int_format("%s", type->name);
}

const drover_datatype_t bfrops_type_bool = {
    .name = "PMIX_BOOL",
    .id = PMIX_BOOL,
    .size = sizeof(bool),
    .min_wire = 1,
    .flags = DROVER_DATATYPE_VALUE_INLINE,
    .pack = pack_bool,
    .unpack = unpack_bool,
    .compare = compare_bool,
    .print = print_bool,
};

/* The widths below are those of the C types in pmix_common.h; the
 * assertions keep the two in step. PMIX_COMMAND has no public C type:
 * OpenPMIx's command is one byte. */
_Static_assert(sizeof(pmix_persistence_t) == 1 && sizeof(pmix_scope_t) == 1 &&
                   sizeof(pmix_data_range_t) == 1 && sizeof(pmix_proc_state_t) == 1 &&
                   sizeof(pmix_alloc_directive_t) == 1 && sizeof(pmix_job_state_t) == 1 &&
                   sizeof(pmix_link_state_t) == 1,
               "one-byte enumerations");
_Static_assert(sizeof(pmix_data_type_t) == 2 && sizeof(pmix_iof_channel_t) == 2 &&
                   sizeof(pmix_locality_t) == 2 && sizeof(pmix_storage_access_type_t) == 2,
               "two-byte enumerations");
_Static_assert(sizeof(pmix_info_directives_t) == 4, "four-byte enumerations");
_Static_assert(sizeof(pmix_device_type_t) == 8 && sizeof(pmix_storage_medium_t) == 8 &&
                   sizeof(pmix_storage_accessibility_t) == 8 &&
                   sizeof(pmix_storage_persistence_t) == 8,
               "eight-byte enumerations");

const drover_datatype_t bfrops_type_persist =
    SCALAR_INT_RECORD(PMIX_PERSIST, 8, u, scalar_int_print_u8);
const drover_datatype_t bfrops_type_scope =
    SCALAR_INT_RECORD(PMIX_SCOPE, 8, u, scalar_int_print_u8);
const drover_datatype_t bfrops_type_data_range =
    SCALAR_INT_RECORD(PMIX_DATA_RANGE, 8, u, scalar_int_print_u8);
const drover_datatype_t bfrops_type_command =
    SCALAR_INT_RECORD(PMIX_COMMAND, 8, u, scalar_int_print_u8);
const drover_datatype_t bfrops_type_info_directives =
    SCALAR_INT_RECORD(PMIX_INFO_DIRECTIVES, 32, u, scalar_int_print_x32);
const drover_datatype_t bfrops_type_data_type =
    SCALAR_INT_RECORD(PMIX_DATA_TYPE, 16, u, print_data_type);
const drover_datatype_t bfrops_type_proc_state =
    SCALAR_INT_RECORD(PMIX_PROC_STATE, 8, u, scalar_int_print_u8);
const drover_datatype_t bfrops_type_alloc_directive =
    SCALAR_INT_RECORD(PMIX_ALLOC_DIRECTIVE, 8, u, scalar_int_print_u8);
const drover_datatype_t bfrops_type_iof_channel =
    SCALAR_INT_RECORD(PMIX_IOF_CHANNEL, 16, u, scalar_int_print_x16);
const drover_datatype_t bfrops_type_job_state =
    SCALAR_INT_RECORD(PMIX_JOB_STATE, 8, u, scalar_int_print_u8);
const drover_datatype_t bfrops_type_link_state =
    SCALAR_INT_RECORD(PMIX_LINK_STATE, 8, u, scalar_int_print_u8);
const drover_datatype_t bfrops_type_devtype =
    SCALAR_INT_RECORD(PMIX_DEVTYPE, 64, u, scalar_int_print_x64);
const drover_datatype_t bfrops_type_loctype =
    SCALAR_INT_RECORD(PMIX_LOCTYPE, 16, u, scalar_int_print_x16);
const drover_datatype_t bfrops_type_stor_medium =
    SCALAR_INT_RECORD(PMIX_STOR_MEDIUM, 64, u, scalar_int_print_x64);
const drover_datatype_t bfrops_type_stor_access =
    SCALAR_INT_RECORD(PMIX_STOR_ACCESS, 64, u, scalar_int_print_x64);
const drover_datatype_t bfrops_type_stor_persist =
    SCALAR_INT_RECORD(PMIX_STOR_PERSIST, 64, u, scalar_int_print_x64);
const drover_datatype_t bfrops_type_stor_access_type =
    SCALAR_INT_RECORD(PMIX_STOR_ACCESS_TYPE, 16, u, scalar_int_print_x16);
