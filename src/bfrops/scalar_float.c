/*
 * scalar_float.c - PMIX_FLOAT and PMIX_DOUBLE.
 *
 * Design notes:
 *  - A float travels as its IEEE 754 bit pattern in a u32, a double in a
 *    u64, so every value comes back bit for bit: NaN payloads, -0.0,
 *    subnormals and infinities included. (OpenPMIx sends them as "%f"
 *    text and loses all but six decimals.) Moving bit patterns is what
 *    scalar_int.c's 32- and 64-bit pack and unpack do, so they are reused.
 *  - Comparison follows IEEE 754's totalOrder: -NaN < -inf < ... < -0.0 <
 *    +0.0 < ... < +inf < +NaN, with NaNs ordered by payload. Unlike the
 *    arithmetic comparison it is a total order and equality is bitwise, so
 *    a value always compares PMIX_EQUAL to its own copy, even a NaN.
 *  - Text uses 9 (float) or 17 (double) significant digits, enough to read
 *    the same value back; a NaN shows its payload.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "scalar_int.h"

_Static_assert(sizeof(float) == 4 && sizeof(double) == 8, "IEEE 754 binary32 and binary64");

/* Map an IEEE bit pattern of width bits to an unsigned key whose order is
 * totalOrder: negative values have all bits flipped (so larger magnitudes
 * sort first), positive values get the sign bit set (so they follow). */
static uint64_t total_order_key(uint64_t bits, unsigned width)
{
    uint64_t sign = (uint64_t)1 << (width - 1);
    uint64_t mask = 64 == width ? UINT64_MAX : ((uint64_t)1 << width) - 1;
    return (bits & sign) ? ~bits & mask : bits | sign;
}

static uint32_t float_bits(const void *elem)
{
    uint32_t bits;
    memcpy(&bits, elem, 4);
    return bits;
}

static uint64_t double_bits(const void *elem)
{
    uint64_t bits;
    memcpy(&bits, elem, 8);
    return bits;
}

static pmix_value_cmp_t compare_float(const void *a, const void *b)
{
    return scalar_int_order_u64(total_order_key(float_bits(a), 32),
                                total_order_key(float_bits(b), 32));
}

static pmix_value_cmp_t compare_double(const void *a, const void *b)
{
    return scalar_int_order_u64(total_order_key(double_bits(a), 64),
                                total_order_key(double_bits(b), 64));
}

/* The text of x, which has digits significant decimal digits of
 * precision; a NaN shows the mantissa bits given in payload. */
static char *print_real(double x, int digits, uint64_t payload)
{
    if (isnan(x)) {
        return scalar_int_format("%snan(0x%" PRIx64 ")", signbit(x) ? "-" : "", payload);
    }
    return scalar_int_format("%.*g", digits, x);
}

static char *print_float(const void *elem)
{
    float x;
    memcpy(&x, elem, 4);
    return print_real(x, 9, float_bits(elem) & 0x7fffffu);
}

static char *print_double(const void *elem)
{
    double x;
    memcpy(&x, elem, 8);
    return print_real(x, 17, double_bits(elem) & 0xfffffffffffffu);
}

const drover_datatype_t bfrops_type_float = {
    .name = "PMIX_FLOAT",
    .id = PMIX_FLOAT,
    .size = sizeof(float),
    .min_wire = 4,
    .flags = DROVER_DATATYPE_VALUE_INLINE,
    .pack = scalar_int_pack_32,
    .unpack = scalar_int_unpack_32,
    .compare = compare_float,
    .print = print_float,
};

const drover_datatype_t bfrops_type_double = {
    .name = "PMIX_DOUBLE",
    .id = PMIX_DOUBLE,
    .size = sizeof(double),
    .min_wire = 8,
    .flags = DROVER_DATATYPE_VALUE_INLINE,
    .pack = scalar_int_pack_64,
    .unpack = scalar_int_unpack_64,
    .compare = compare_double,
    .print = print_double,
};
