/*
 * convert.c - assignment of one element to another of a different type or
 * kind, as intrinsic assignment does it.
 *
 * Numbers go through the widest representation of their class: integers
 * through __int128, reals through __float128 (which holds every real kind
 * exactly), complex numbers as two reals. Characters are converted between
 * kinds 1 and 4 character by character and padded with blanks or truncated.
 */
#include <string.h>

#include "caf.h"

typedef struct wide {
    bool is_int;
    __int128 i;
    __float128 re, im;
} wide_t;

static bool load_int(const void *p, int kind, __int128 *out)
{
    switch (kind) {
    case 1: *out = *(const int8_t *)p; return true;
    case 2: *out = *(const int16_t *)p; return true;
    case 4: *out = *(const int32_t *)p; return true;
    case 8: *out = *(const int64_t *)p; return true;
    case 16: memcpy(out, p, sizeof(*out)); return true;
    default: return false;
    }
}

static bool store_int(void *p, int kind, __int128 v)
{
    switch (kind) {
    case 1: *(int8_t *)p = (int8_t)v; return true;
    case 2: *(int16_t *)p = (int16_t)v; return true;
    case 4: *(int32_t *)p = (int32_t)v; return true;
    case 8: *(int64_t *)p = (int64_t)v; return true;
    case 16: memcpy(p, &v, sizeof(v)); return true;
    default: return false;
    }
}

static bool load_real(const void *p, int kind, __float128 *out)
{
    switch (kind) {
    case 4: *out = *(const float *)p; return true;
    case 8: *out = *(const double *)p; return true;
    case 10: *out = *(const long double *)p; return true;
    case 16: memcpy(out, p, sizeof(*out)); return true;
    default: return false;
    }
}

static bool store_real(void *p, int kind, __float128 v)
{
    switch (kind) {
    case 4: *(float *)p = (float)v; return true;
    case 8: *(double *)p = (double)v; return true;
    case 10: *(long double *)p = (long double)v; return true;
    case 16: memcpy(p, &v, sizeof(v)); return true;
    default: return false;
    }
}

/* Bytes of one real of `kind` as stored (real(10) occupies 16). */
static size_t real_bytes(int kind)
{
    return 10 == kind ? 16 : (size_t)kind;
}

static bool load(const void *p, caf_elem_t t, wide_t *w)
{
    w->im = 0;
    switch (t.type) {
    case CAF_BT_INTEGER:
    case CAF_BT_LOGICAL:
        w->is_int = true;
        return load_int(p, t.kind, &w->i);
    case CAF_BT_REAL:
        w->is_int = false;
        return load_real(p, t.kind, &w->re);
    case CAF_BT_COMPLEX:
        w->is_int = false;
        return load_real(p, t.kind, &w->re) &&
               load_real((const char *)p + real_bytes(t.kind), t.kind, &w->im);
    default:
        return false;
    }
}

static bool store(void *p, caf_elem_t t, const wide_t *w)
{
    switch (t.type) {
    case CAF_BT_INTEGER:
        return store_int(p, t.kind, w->is_int ? w->i : (__int128)w->re);
    case CAF_BT_REAL:
        return store_real(p, t.kind, w->is_int ? (__float128)w->i : w->re);
    case CAF_BT_COMPLEX:
        return store_real(p, t.kind, w->is_int ? (__float128)w->i : w->re) &&
               store_real((char *)p + real_bytes(t.kind), t.kind, w->is_int ? 0 : w->im);
    default:
        return false;
    }
}

static void convert_chars(void *dst, caf_elem_t dt, const void *src, caf_elem_t st)
{
    size_t dlen = dt.size / (size_t)dt.kind, slen = st.size / (size_t)st.kind;
    size_t n = dlen < slen ? dlen : slen;
    if (dt.kind == st.kind) {
        memmove(dst, src, n * (size_t)dt.kind);
    } else {
        for (size_t i = 0; i < n; i++) {
            uint32_t c = 1 == st.kind ? ((const uint8_t *)src)[i] : ((const uint32_t *)src)[i];
            if (1 == dt.kind) {
                ((uint8_t *)dst)[i] = c > 255 ? '?' : (uint8_t)c;
            } else {
                ((uint32_t *)dst)[i] = c;
            }
        }
    }
    for (size_t i = n; i < dlen; i++) {
        if (1 == dt.kind) {
            ((uint8_t *)dst)[i] = ' ';
        } else {
            ((uint32_t *)dst)[i] = ' ';
        }
    }
}

bool caf_convert(void *dst, caf_elem_t dt, const void *src, caf_elem_t st)
{
    if (dt.type == st.type && dt.kind == st.kind && dt.size == st.size) {
        memmove(dst, src, dt.size);
        return true;
    }
    if (CAF_BT_CHARACTER == dt.type || CAF_BT_CHARACTER == st.type) {
        if (dt.type != st.type || (1 != dt.kind && 4 != dt.kind) || (1 != st.kind && 4 != st.kind)) {
            return false;
        }
        convert_chars(dst, dt, src, st);
        return true;
    }
    if (CAF_BT_DERIVED == dt.type || CAF_BT_DERIVED == st.type) {
        if (dt.type != st.type || dt.size != st.size) {
            return false;
        }
        memmove(dst, src, dt.size);
        return true;
    }
    if (CAF_BT_LOGICAL == dt.type || CAF_BT_LOGICAL == st.type) {
        __int128 v;
        if (dt.type != st.type || !load_int(src, st.kind, &v)) {
            return false;
        }
        return store_int(dst, dt.kind, 0 != v);
    }
    wide_t w;
    return load(src, st, &w) && store(dst, dt, &w);
}
