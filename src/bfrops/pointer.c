/*
 * pointer.c - PMIX_POINTER: an address within the process.
 *
 * Design notes:
 *  - The element is a void *, passed by value (PMIx_Value_load stores the
 *    pointer it is given) and kept in place in a pmix_value_t (data.ptr).
 *    It owns nothing: copying copies the address, releasing frees nothing.
 *  - It packs as the address value in a u64. The number means something
 *    only inside the process that packed it, which is the one use PMIx has
 *    for it (handing an object to a local callback through a buffer). An
 *    address that does not fit this host's pointers is refused on unpack.
 *  - Pointers order by address; text is "0x..." or "NULL".
 */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "scalar_int.h"

static uintptr_t address_of(const void *elem)
{
    void *p;
    memcpy(&p, elem, sizeof(p));
    return (uintptr_t)p;
}

static pmix_status_t pack_pointer(drover_writer_t *w, const void *elem)
{
    return wire_put_u64(w, address_of(elem));
}

static pmix_status_t unpack_pointer(drover_reader_t *r, void *elem)
{
    uint64_t addr;
    pmix_status_t rc = wire_get_u64(r, &addr);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if ((uint64_t)(uintptr_t)addr != addr) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    void *p = (void *)(uintptr_t)addr;
    memcpy(elem, &p, sizeof(p));
    return PMIX_SUCCESS;
}

static pmix_value_cmp_t compare_pointer(const void *a, const void *b)
{
    return scalar_int_order_u64(address_of(a), address_of(b));
}

static char *print_pointer(const void *elem)
{
    uintptr_t addr = address_of(elem);
    if (0 == addr) {
        return scalar_int_format("NULL");
    }
    return scalar_int_format("0x%" PRIxPTR, addr);
}

const drover_datatype_t bfrops_type_pointer = {
    .name = "PMIX_POINTER",
    .id = PMIX_POINTER,
    .size = sizeof(void *),
    .min_wire = 8,
    .flags = DROVER_DATATYPE_VALUE_INLINE | DROVER_DATATYPE_PASSED_BY_VALUE,
    .pack = pack_pointer,
    .unpack = unpack_pointer,
    .compare = compare_pointer,
    .print = print_pointer,
};
