/*
 * scalars.c - the scalar names PDI knows, with their C types and sizes on
 * this ABI.
 *
 * Design notes:
 *  - Sizes come from sizeof of the C type, so the table is right on any
 *    ABI the library is built for; the C name is what the layout test and
 *    the C writer print.
 *  - PDI classes char as unsigned (its value range on this ABI is not what
 *    matters to it); here char is signed, as the C compiler has it on
 *    x86_64, so values compare and print as C would.
 *  - Fortran kinds are byte sizes (gfortran's convention); 0 is the
 *    default kind.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tnode.h"

#define S(yaml, ctype, cls) {yaml, #ctype, sizeof(ctype), cls}

static const scalar_t table[] = {
    S("char", char, SC_SIGNED),
    S("byte", unsigned char, SC_BYTE),
    S("short", short, SC_SIGNED),
    S("int", int, SC_SIGNED),
    S("long", long, SC_SIGNED),
    S("long long", long long, SC_SIGNED),
    S("unsigned short", unsigned short, SC_UNSIGNED),
    S("unsigned long", unsigned long, SC_UNSIGNED),
    S("unsigned long long", unsigned long long, SC_UNSIGNED),
    S("float", float, SC_FLOAT),
    S("double", double, SC_FLOAT),
    S("int8", int8_t, SC_SIGNED),
    S("int16", int16_t, SC_SIGNED),
    S("int32", int32_t, SC_SIGNED),
    S("int64", int64_t, SC_SIGNED),
    S("int8_t", int8_t, SC_SIGNED),
    S("int16_t", int16_t, SC_SIGNED),
    S("int32_t", int32_t, SC_SIGNED),
    S("int64_t", int64_t, SC_SIGNED),
    S("uint8", uint8_t, SC_UNSIGNED),
    S("uint16", uint16_t, SC_UNSIGNED),
    S("uint32", uint32_t, SC_UNSIGNED),
    S("uint64", uint64_t, SC_UNSIGNED),
    S("uint8_t", uint8_t, SC_UNSIGNED),
    S("uint16_t", uint16_t, SC_UNSIGNED),
    S("uint32_t", uint32_t, SC_UNSIGNED),
    S("uint64_t", uint64_t, SC_UNSIGNED),
    S("int_least8", int_least8_t, SC_SIGNED),
    S("int_least16", int_least16_t, SC_SIGNED),
    S("int_least32", int_least32_t, SC_SIGNED),
    S("int_least64", int_least64_t, SC_SIGNED),
    S("int_least8_t", int_least8_t, SC_SIGNED),
    S("int_least16_t", int_least16_t, SC_SIGNED),
    S("int_least32_t", int_least32_t, SC_SIGNED),
    S("int_least64_t", int_least64_t, SC_SIGNED),
    S("int_fast8", int_fast8_t, SC_SIGNED),
    S("int_fast16", int_fast16_t, SC_SIGNED),
    S("int_fast32", int_fast32_t, SC_SIGNED),
    S("int_fast64", int_fast64_t, SC_SIGNED),
    S("int_fast8_t", int_fast8_t, SC_SIGNED),
    S("int_fast16_t", int_fast16_t, SC_SIGNED),
    S("int_fast32_t", int_fast32_t, SC_SIGNED),
    S("int_fast64_t", int_fast64_t, SC_SIGNED),
    S("intmax", intmax_t, SC_SIGNED),
    S("intmax_t", intmax_t, SC_SIGNED),
    S("intptr", intptr_t, SC_SIGNED),
    S("intptr_t", intptr_t, SC_SIGNED),
    S("ptrdiff", ptrdiff_t, SC_SIGNED),
    S("ptrdiff_t", ptrdiff_t, SC_SIGNED),
    S("uint_least8", uint_least8_t, SC_UNSIGNED),
    S("uint_least16", uint_least16_t, SC_UNSIGNED),
    S("uint_least32", uint_least32_t, SC_UNSIGNED),
    S("uint_least64", uint_least64_t, SC_UNSIGNED),
    S("uint_least8_t", uint_least8_t, SC_UNSIGNED),
    S("uint_least16_t", uint_least16_t, SC_UNSIGNED),
    S("uint_least32_t", uint_least32_t, SC_UNSIGNED),
    S("uint_least64_t", uint_least64_t, SC_UNSIGNED),
    S("uint_fast8", uint_fast8_t, SC_UNSIGNED),
    S("uint_fast16", uint_fast16_t, SC_UNSIGNED),
    S("uint_fast32", uint_fast32_t, SC_UNSIGNED),
    S("uint_fast64", uint_fast64_t, SC_UNSIGNED),
    S("uint_fast8_t", uint_fast8_t, SC_UNSIGNED),
    S("uint_fast16_t", uint_fast16_t, SC_UNSIGNED),
    S("uint_fast32_t", uint_fast32_t, SC_UNSIGNED),
    S("uint_fast64_t", uint_fast64_t, SC_UNSIGNED),
    S("uintmax", uintmax_t, SC_UNSIGNED),
    S("uintmax_t", uintmax_t, SC_UNSIGNED),
    S("uintptr", uintptr_t, SC_UNSIGNED),
    S("uintptr_t", uintptr_t, SC_UNSIGNED),
    S("size_t", size_t, SC_UNSIGNED),
};
#define NTABLE (sizeof(table) / sizeof(table[0]))

static const char *const names[] = {
    "char", "byte", "short", "int", "long", "long long", "unsigned short", "unsigned long",
    "unsigned long long", "float", "double", "int8", "int16", "int32", "int64", "int8_t",
    "int16_t", "int32_t", "int64_t", "uint8", "uint16", "uint32", "uint64", "uint8_t",
    "uint16_t", "uint32_t", "uint64_t", "int_least8", "int_least16", "int_least32",
    "int_least64", "int_least8_t", "int_least16_t", "int_least32_t", "int_least64_t",
    "int_fast8", "int_fast16", "int_fast32", "int_fast64", "int_fast8_t", "int_fast16_t",
    "int_fast32_t", "int_fast64_t", "intmax", "intmax_t", "intptr", "intptr_t", "ptrdiff",
    "ptrdiff_t", "uint_least8", "uint_least16", "uint_least32", "uint_least64",
    "uint_least8_t", "uint_least16_t", "uint_least32_t", "uint_least64_t", "uint_fast8",
    "uint_fast16", "uint_fast32", "uint_fast64", "uint_fast8_t", "uint_fast16_t",
    "uint_fast32_t", "uint_fast64_t", "uintmax", "uintmax_t", "uintptr", "uintptr_t",
    "size_t", "character", "integer", "logical", "real",
};
_Static_assert(sizeof(names) / sizeof(names[0]) == NTABLE + 4, "one name per scalar");

const scalar_t *scalar_find(const char *name)
{
    for (size_t i = 0; i < NTABLE; i++) {
        if (0 == strcmp(name, table[i].name)) {
            return &table[i];
        }
    }
    return NULL;
}

typedef struct fortran {
    const char *name;
    size_t default_kind;
    sclass_t cls;
} fortran_t;

static const fortran_t fortran[] = {
    {"character", 1, SC_UNSIGNED},
    {"integer", 4, SC_SIGNED},
    {"logical", 4, SC_UNSIGNED},
    {"real", 4, SC_FLOAT},
};

bool scalar_is_fortran(const char *name)
{
    for (size_t i = 0; i < sizeof(fortran) / sizeof(fortran[0]); i++) {
        if (0 == strcmp(name, fortran[i].name)) {
            return true;
        }
    }
    return false;
}

bool scalar_fortran(const char *name, int64_t kind, scalar_t *out)
{
    static const char *const c_int[] = {"int8_t", "int16_t", NULL, "int32_t", NULL, NULL, NULL, "int64_t"};
    static const char *const c_uint[] = {"uint8_t", "uint16_t", NULL, "uint32_t", NULL, NULL, NULL, "uint64_t"};
    for (size_t i = 0; i < sizeof(fortran) / sizeof(fortran[0]); i++) {
        const fortran_t *f = &fortran[i];
        if (0 != strcmp(name, f->name)) {
            continue;
        }
        size_t size = 0 == kind ? f->default_kind : (size_t)kind;
        if (kind < 0 || kind > 8 || NULL == c_int[size - 1]) {
            return false;
        }
        const char *c_name = SC_SIGNED == f->cls ? c_int[size - 1] : c_uint[size - 1];
        if (SC_FLOAT == f->cls) {
            if (4 != size && 8 != size) {
                return false;
            }
            c_name = 4 == size ? "float" : "double";
        }
        *out = (scalar_t){f->name, c_name, size, f->cls};
        return true;
    }
    return false;
}

const char *const *scalar_names(size_t *n)
{
    *n = sizeof(names) / sizeof(names[0]);
    return names;
}
