/*
 * scalar_int.c - the integer datatypes (PMIX_BYTE, PMIX_INT and PMIX_UINT,
 * PMIX_INT8..PMIX_INT64 and PMIX_UINT8..PMIX_UINT64, PMIX_SIZE, PMIX_PID,
 * PMIX_STATUS, PMIX_PROC_RANK) and the width-generic functions that every
 * fixed-size integer, enumeration and flag datatype shares (scalar_int.h).
 *
 * Design notes:
 *  - Every integer travels at its width in memory, little-endian (see
 *    docs/protocol.md). The C types whose width the standard leaves open
 *    (int, unsigned int, size_t, pid_t) are pinned by the assertions below
 *    to the widths of the x86_64 ABI that libpmix.so.2 serves; a port to a
 *    platform where they differ must choose wire widths here first.
 *  - Elements are read and written with memcpy at their exact width, so an
 *    element may sit at any alignment inside a caller's struct or array.
 *  - Each exported variant is a one-line call into a function taking the
 *    width (and signedness) as an argument; the logic exists once, and the
 *    records differ only in name, id and width (SCALAR_INT_RECORD).
 *  - Comparison is numeric, not bytewise: on a little-endian host memcmp
 *    would order 256 before 1.
 *  - Only ranks print specially, because their reserved values mean
 *    something (wildcard, undefined...).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "scalar_int.h"

_Static_assert(sizeof(int) == 4 && sizeof(unsigned int) == 4, "int must be 32 bits");
_Static_assert(sizeof(size_t) == 8, "size_t must be 64 bits");
_Static_assert(sizeof(pid_t) == 4, "pid_t must be 32 bits");
_Static_assert(sizeof(pmix_status_t) == 4, "pmix_status_t must be 32 bits");
_Static_assert(sizeof(pmix_rank_t) == 4, "pmix_rank_t must be 32 bits");

/* Zero-extend an unsigned integer of width bytes. */
static uint64_t load_unsigned(const void *elem, size_t width)
{
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64 = 0;
    switch (width) {
    case 1:
        memcpy(&u8, elem, 1);
        return u8;
    case 2:
        memcpy(&u16, elem, 2);
        return u16;
    case 4:
        memcpy(&u32, elem, 4);
        return u32;
    default:
        memcpy(&u64, elem, 8);
        return u64;
    }
}

/* Sign-extend a two's complement integer of width bytes. */
static int64_t load_signed(const void *elem, size_t width)
{
    int8_t s8;
    int16_t s16;
    int32_t s32;
    int64_t s64 = 0;
    switch (width) {
    case 1:
        memcpy(&s8, elem, 1);
        return s8;
    case 2:
        memcpy(&s16, elem, 2);
        return s16;
    case 4:
        memcpy(&s32, elem, 4);
        return s32;
    default:
        memcpy(&s64, elem, 8);
        return s64;
    }
}

/* Store the low width bytes of v. */
static void store_unsigned(void *elem, uint64_t v, size_t width)
{
    uint8_t u8 = (uint8_t)v;
    uint16_t u16 = (uint16_t)v;
    uint32_t u32 = (uint32_t)v;
    switch (width) {
    case 1:
        memcpy(elem, &u8, 1);
        break;
    case 2:
        memcpy(elem, &u16, 2);
        break;
    case 4:
        memcpy(elem, &u32, 4);
        break;
    default:
        memcpy(elem, &v, 8);
        break;
    }
}

static pmix_status_t pack_width(drover_writer_t *w, const void *elem, size_t width)
{
    uint64_t v = load_unsigned(elem, width);
    switch (width) {
    case 1:
        return wire_put_u8(w, (uint8_t)v);
    case 2:
        return wire_put_u16(w, (uint16_t)v);
    case 4:
        return wire_put_u32(w, (uint32_t)v);
    default:
        return wire_put_u64(w, v);
    }
}

static pmix_status_t unpack_width(drover_reader_t *r, void *elem, size_t width)
{
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t v;
    pmix_status_t rc;
    switch (width) {
    case 1:
        rc = wire_get_u8(r, &u8);
        v = u8;
        break;
    case 2:
        rc = wire_get_u16(r, &u16);
        v = u16;
        break;
    case 4:
        rc = wire_get_u32(r, &u32);
        v = u32;
        break;
    default:
        rc = wire_get_u64(r, &v);
        break;
    }
    if (PMIX_SUCCESS == rc) {
        store_unsigned(elem, v, width);
    }
    return rc;
}

pmix_value_cmp_t scalar_int_order_u64(uint64_t a, uint64_t b)
{
    if (a > b) {
        return PMIX_VALUE1_GREATER;
    }
    return a < b ? PMIX_VALUE2_GREATER : PMIX_EQUAL;
}

pmix_value_cmp_t scalar_int_order_s64(int64_t a, int64_t b)
{
    if (a > b) {
        return PMIX_VALUE1_GREATER;
    }
    return a < b ? PMIX_VALUE2_GREATER : PMIX_EQUAL;
}

static pmix_value_cmp_t compare_unsigned(const void *a, const void *b, size_t width)
{
    return scalar_int_order_u64(load_unsigned(a, width), load_unsigned(b, width));
}

static pmix_value_cmp_t compare_signed(const void *a, const void *b, size_t width)
{
    return scalar_int_order_s64(load_signed(a, width), load_signed(b, width));
}

char *scalar_int_format(const char *fmt, ...)
{
    va_list ap;
    char *text;
    va_start(ap, fmt);
    int n = vasprintf(&text, fmt, ap);
    va_end(ap);
    return n < 0 ? NULL : text;
}

static char *print_unsigned(const void *elem, size_t width)
{
    return scalar_int_format("%" PRIu64, load_unsigned(elem, width));
}

static char *print_signed(const void *elem, size_t width)
{
    return scalar_int_format("%" PRId64, load_signed(elem, width));
}

static char *print_hex(const void *elem, size_t width)
{
    return scalar_int_format("0x%0*" PRIx64, (int)(2 * width), load_unsigned(elem, width));
}

pmix_status_t scalar_int_pack_8(drover_writer_t *w, const void *elem)
{
    return pack_width(w, elem, 1);
}

pmix_status_t scalar_int_pack_16(drover_writer_t *w, const void *elem)
{
    return pack_width(w, elem, 2);
}

pmix_status_t scalar_int_pack_32(drover_writer_t *w, const void *elem)
{
    return pack_width(w, elem, 4);
}

pmix_status_t scalar_int_pack_64(drover_writer_t *w, const void *elem)
{
    return pack_width(w, elem, 8);
}

pmix_status_t scalar_int_unpack_8(drover_reader_t *r, void *elem)
{
    return unpack_width(r, elem, 1);
}

pmix_status_t scalar_int_unpack_16(drover_reader_t *r, void *elem)
{
    return unpack_width(r, elem, 2);
}

pmix_status_t scalar_int_unpack_32(drover_reader_t *r, void *elem)
{
    return unpack_width(r, elem, 4);
}

pmix_status_t scalar_int_unpack_64(drover_reader_t *r, void *elem)
{
    return unpack_width(r, elem, 8);
}

pmix_value_cmp_t scalar_int_compare_u8(const void *a, const void *b)
{
    return compare_unsigned(a, b, 1);
}

pmix_value_cmp_t scalar_int_compare_u16(const void *a, const void *b)
{
    return compare_unsigned(a, b, 2);
}

pmix_value_cmp_t scalar_int_compare_u32(const void *a, const void *b)
{
    return compare_unsigned(a, b, 4);
}

pmix_value_cmp_t scalar_int_compare_u64(const void *a, const void *b)
{
    return compare_unsigned(a, b, 8);
}

pmix_value_cmp_t scalar_int_compare_s8(const void *a, const void *b)
{
    return compare_signed(a, b, 1);
}

pmix_value_cmp_t scalar_int_compare_s16(const void *a, const void *b)
{
    return compare_signed(a, b, 2);
}

pmix_value_cmp_t scalar_int_compare_s32(const void *a, const void *b)
{
    return compare_signed(a, b, 4);
}

pmix_value_cmp_t scalar_int_compare_s64(const void *a, const void *b)
{
    return compare_signed(a, b, 8);
}

char *scalar_int_print_u8(const void *elem)
{
    return print_unsigned(elem, 1);
}

char *scalar_int_print_u16(const void *elem)
{
    return print_unsigned(elem, 2);
}

char *scalar_int_print_u32(const void *elem)
{
    return print_unsigned(elem, 4);
}

char *scalar_int_print_u64(const void *elem)
{
    return print_unsigned(elem, 8);
}

char *scalar_int_print_s8(const void *elem)
{
    return print_signed(elem, 1);
}

char *scalar_int_print_s16(const void *elem)
{
    return print_signed(elem, 2);
}

char *scalar_int_print_s32(const void *elem)
{
    return print_signed(elem, 4);
}

char *scalar_int_print_s64(const void *elem)
{
    return print_signed(elem, 8);
}

char *scalar_int_print_x8(const void *elem)
{
    return print_hex(elem, 1);
}

char *scalar_int_print_x16(const void *elem)
{
    return print_hex(elem, 2);
}

char *scalar_int_print_x32(const void *elem)
{
    return print_hex(elem, 4);
}

char *scalar_int_print_x64(const void *elem)
{
    return print_hex(elem, 8);
}

/* Names of the reserved ranks at the top of the range. */
static const struct {
    pmix_rank_t rank;
    const char *name;
} reserved_ranks[] = {
    {PMIX_RANK_UNDEF, "PMIX_RANK_UNDEF"},
    {PMIX_RANK_WILDCARD, "PMIX_RANK_WILDCARD"},
    {PMIX_RANK_LOCAL_NODE, "PMIX_RANK_LOCAL_NODE"},
    {PMIX_RANK_INVALID, "PMIX_RANK_INVALID"},
    {PMIX_RANK_LOCAL_PEERS, "PMIX_RANK_LOCAL_PEERS"},
};

static char *print_rank(const void *elem)
{
    const pmix_rank_t *rank = elem;
    for (size_t i = 0; i < sizeof(reserved_ranks) / sizeof(reserved_ranks[0]); i++) {
        if (reserved_ranks[i].rank == *rank) {
            return scalar_int_format("%s", reserved_ranks[i].name);
        }
    }
    return scalar_int_format("%u", (unsigned)*rank);
}

const drover_datatype_t bfrops_type_byte =
    SCALAR_INT_RECORD(PMIX_BYTE, 8, u, scalar_int_print_x8);
const drover_datatype_t bfrops_type_int =
    SCALAR_INT_RECORD(PMIX_INT, 32, s, scalar_int_print_s32);
const drover_datatype_t bfrops_type_int8 =
    SCALAR_INT_RECORD(PMIX_INT8, 8, s, scalar_int_print_s8);
const drover_datatype_t bfrops_type_int16 =
    SCALAR_INT_RECORD(PMIX_INT16, 16, s, scalar_int_print_s16);
const drover_datatype_t bfrops_type_int32 =
    SCALAR_INT_RECORD(PMIX_INT32, 32, s, scalar_int_print_s32);
const drover_datatype_t bfrops_type_int64 =
    SCALAR_INT_RECORD(PMIX_INT64, 64, s, scalar_int_print_s64);
const drover_datatype_t bfrops_type_uint =
    SCALAR_INT_RECORD(PMIX_UINT, 32, u, scalar_int_print_u32);
const drover_datatype_t bfrops_type_uint8 =
    SCALAR_INT_RECORD(PMIX_UINT8, 8, u, scalar_int_print_u8);
const drover_datatype_t bfrops_type_uint16 =
    SCALAR_INT_RECORD(PMIX_UINT16, 16, u, scalar_int_print_u16);
const drover_datatype_t bfrops_type_uint32 =
    SCALAR_INT_RECORD(PMIX_UINT32, 32, u, scalar_int_print_u32);
const drover_datatype_t bfrops_type_uint64 =
    SCALAR_INT_RECORD(PMIX_UINT64, 64, u, scalar_int_print_u64);
const drover_datatype_t bfrops_type_size =
    SCALAR_INT_RECORD(PMIX_SIZE, 64, u, scalar_int_print_u64);
const drover_datatype_t bfrops_type_pid =
    SCALAR_INT_RECORD(PMIX_PID, 32, s, scalar_int_print_s32);
const drover_datatype_t bfrops_type_status =
    SCALAR_INT_RECORD(PMIX_STATUS, 32, s, scalar_int_print_s32);
const drover_datatype_t bfrops_type_proc_rank =
    SCALAR_INT_RECORD(PMIX_PROC_RANK, 32, u, print_rank);
