/*
 * scalar_int.h - width-generic pieces of the fixed-size datatypes: integers,
 * enumerations, flags. Private to bfrops.
 *
 * A fixed-size scalar travels as its bytes in little-endian order, at the
 * width it has in memory, so its pack and unpack depend only on the width
 * and its compare only on the width and signedness. The functions here are
 * those few shared variants; each datatype's record picks the ones that fit
 * (SCALAR_INT_RECORD), so twenty integer and enumeration types need no
 * functions of their own.
 */
#ifndef DROVER_BFROPS_SCALAR_INT_H
#define DROVER_BFROPS_SCALAR_INT_H

#include <stdint.h>

#include "bfrops.h"

/* Pack or unpack one element of 8, 16, 32 or 64 bits. */
pmix_status_t scalar_int_pack_8(drover_writer_t *w, const void *elem);
pmix_status_t scalar_int_pack_16(drover_writer_t *w, const void *elem);
pmix_status_t scalar_int_pack_32(drover_writer_t *w, const void *elem);
pmix_status_t scalar_int_pack_64(drover_writer_t *w, const void *elem);
pmix_status_t scalar_int_unpack_8(drover_reader_t *r, void *elem);
pmix_status_t scalar_int_unpack_16(drover_reader_t *r, void *elem);
pmix_status_t scalar_int_unpack_32(drover_reader_t *r, void *elem);
pmix_status_t scalar_int_unpack_64(drover_reader_t *r, void *elem);

/* Numeric order of two unsigned (u) or signed (s) integers. */
pmix_value_cmp_t scalar_int_compare_u8(const void *a, const void *b);
pmix_value_cmp_t scalar_int_compare_u16(const void *a, const void *b);
pmix_value_cmp_t scalar_int_compare_u32(const void *a, const void *b);
pmix_value_cmp_t scalar_int_compare_u64(const void *a, const void *b);
pmix_value_cmp_t scalar_int_compare_s8(const void *a, const void *b);
pmix_value_cmp_t scalar_int_compare_s16(const void *a, const void *b);
pmix_value_cmp_t scalar_int_compare_s32(const void *a, const void *b);
pmix_value_cmp_t scalar_int_compare_s64(const void *a, const void *b);

/* Decimal text of an unsigned (u) or signed (s) integer, hexadecimal text
 * (x, for flag sets). Caller frees with free(). */
char *scalar_int_print_u8(const void *elem);
char *scalar_int_print_u16(const void *elem);
char *scalar_int_print_u32(const void *elem);
char *scalar_int_print_u64(const void *elem);
char *scalar_int_print_s8(const void *elem);
char *scalar_int_print_s16(const void *elem);
char *scalar_int_print_s32(const void *elem);
char *scalar_int_print_s64(const void *elem);
char *scalar_int_print_x8(const void *elem);
char *scalar_int_print_x16(const void *elem);
char *scalar_int_print_x32(const void *elem);
char *scalar_int_print_x64(const void *elem);

/* The order of two numbers as a comparison result; order_s64(c, 0) turns
 * a strcmp or memcmp result into one. */
pmix_value_cmp_t scalar_int_order_u64(uint64_t a, uint64_t b);
pmix_value_cmp_t scalar_int_order_s64(int64_t a, int64_t b);

/* printf into a new string, for every family's print; caller frees with
 * free(). NULL when memory runs out. */
char *scalar_int_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The record of a fixed-size scalar stored in place in a pmix_value_t:
 * bits is its width, sign picks the compare (u or s), printer its text. */
#define SCALAR_INT_RECORD(ID, bits, sign, printer)                                      \
    {                                                                                   \
        .name = #ID, .id = (ID), .size = (bits) / 8, .min_wire = (bits) / 8,            \
        .flags = DROVER_DATATYPE_VALUE_INLINE, .pack = scalar_int_pack_##bits,          \
        .unpack = scalar_int_unpack_##bits, .compare = scalar_int_compare_##sign##bits, \
        .print = (printer),                                                             \
    }

#endif /* DROVER_BFROPS_SCALAR_INT_H */
