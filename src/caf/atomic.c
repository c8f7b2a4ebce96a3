/*
 * atomic.c - ATOMIC_DEFINE, ATOMIC_REF, ATOMIC_CAS and the ATOMIC_ADD, AND,
 * OR, XOR family (with and without FETCH).
 *
 * The atomic variable sits in the target image's segment, mapped here, so
 * every operation is one processor atomic on that address, sequentially
 * consistent. `kind` is the byte size of the integer or logical variable.
 */
#include "caf.h"

static char *atom(caf_token_t token, size_t offset, int image, int *stat)
{
    caf_ok(stat);
    return caf_token_mem(token, caf_rank_of(image)) + offset;
}

static bool supported(int kind, int *stat)
{
    if (1 == kind || 2 == kind || 4 == kind || 8 == kind) {
        return true;
    }
    caf_error(stat, NULL, 0, 1, "atomic operation on a variable of kind %d", kind);
    return false;
}

CAF_EXPORT void _gfortran_caf_atomic_define(caf_token_t token, size_t offset, int image,
                                            void *value, int *stat, int type, int kind)
{
    char *p = atom(token, offset, image, stat);
    if (!supported(kind, stat)) {
        return;
    }
    switch (kind) {
    case 1: __atomic_store((uint8_t *)p, (uint8_t *)value, __ATOMIC_SEQ_CST); break;
    case 2: __atomic_store((uint16_t *)p, (uint16_t *)value, __ATOMIC_SEQ_CST); break;
    case 4: __atomic_store((uint32_t *)p, (uint32_t *)value, __ATOMIC_SEQ_CST); break;
    default: __atomic_store((uint64_t *)p, (uint64_t *)value, __ATOMIC_SEQ_CST); break;
    }
}

CAF_EXPORT void _gfortran_caf_atomic_ref(caf_token_t token, size_t offset, int image, void *value,
                                         int *stat, int type, int kind)
{
    char *p = atom(token, offset, image, stat);
    if (!supported(kind, stat)) {
        return;
    }
    switch (kind) {
    case 1: __atomic_load((uint8_t *)p, (uint8_t *)value, __ATOMIC_SEQ_CST); break;
    case 2: __atomic_load((uint16_t *)p, (uint16_t *)value, __ATOMIC_SEQ_CST); break;
    case 4: __atomic_load((uint32_t *)p, (uint32_t *)value, __ATOMIC_SEQ_CST); break;
    default: __atomic_load((uint64_t *)p, (uint64_t *)value, __ATOMIC_SEQ_CST); break;
    }
}

CAF_EXPORT void _gfortran_caf_atomic_cas(caf_token_t token, size_t offset, int image, void *old,
                                         void *compare, void *new_val, int *stat, int type,
                                         int kind)
{
    char *p = atom(token, offset, image, stat);
    if (!supported(kind, stat)) {
        return;
    }
    /* On failure __atomic_compare_exchange stores the current value into
     * its expected operand; on success the current value was `compare`.
     * Either way `old` ends up holding what the variable held. */
    switch (kind) {
    case 1:
        *(uint8_t *)old = *(uint8_t *)compare;
        __atomic_compare_exchange((uint8_t *)p, (uint8_t *)old, (uint8_t *)new_val, false,
                                  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        break;
    case 2:
        *(uint16_t *)old = *(uint16_t *)compare;
        __atomic_compare_exchange((uint16_t *)p, (uint16_t *)old, (uint16_t *)new_val, false,
                                  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        break;
    case 4:
        *(uint32_t *)old = *(uint32_t *)compare;
        __atomic_compare_exchange((uint32_t *)p, (uint32_t *)old, (uint32_t *)new_val, false,
                                  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        break;
    default:
        *(uint64_t *)old = *(uint64_t *)compare;
        __atomic_compare_exchange((uint64_t *)p, (uint64_t *)old, (uint64_t *)new_val, false,
                                  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        break;
    }
}

static uint64_t fetch_op(int op, void *p, uint64_t v, int kind)
{
    switch (op) {
    case CAF_ATOMIC_ADD:
        switch (kind) {
        case 1: return __atomic_fetch_add((uint8_t *)p, (uint8_t)v, __ATOMIC_SEQ_CST);
        case 2: return __atomic_fetch_add((uint16_t *)p, (uint16_t)v, __ATOMIC_SEQ_CST);
        case 4: return __atomic_fetch_add((uint32_t *)p, (uint32_t)v, __ATOMIC_SEQ_CST);
        default: return __atomic_fetch_add((uint64_t *)p, v, __ATOMIC_SEQ_CST);
        }
    case CAF_ATOMIC_AND:
        switch (kind) {
        case 1: return __atomic_fetch_and((uint8_t *)p, (uint8_t)v, __ATOMIC_SEQ_CST);
        case 2: return __atomic_fetch_and((uint16_t *)p, (uint16_t)v, __ATOMIC_SEQ_CST);
        case 4: return __atomic_fetch_and((uint32_t *)p, (uint32_t)v, __ATOMIC_SEQ_CST);
        default: return __atomic_fetch_and((uint64_t *)p, v, __ATOMIC_SEQ_CST);
        }
    case CAF_ATOMIC_OR:
        switch (kind) {
        case 1: return __atomic_fetch_or((uint8_t *)p, (uint8_t)v, __ATOMIC_SEQ_CST);
        case 2: return __atomic_fetch_or((uint16_t *)p, (uint16_t)v, __ATOMIC_SEQ_CST);
        case 4: return __atomic_fetch_or((uint32_t *)p, (uint32_t)v, __ATOMIC_SEQ_CST);
        default: return __atomic_fetch_or((uint64_t *)p, v, __ATOMIC_SEQ_CST);
        }
    default:
        switch (kind) {
        case 1: return __atomic_fetch_xor((uint8_t *)p, (uint8_t)v, __ATOMIC_SEQ_CST);
        case 2: return __atomic_fetch_xor((uint16_t *)p, (uint16_t)v, __ATOMIC_SEQ_CST);
        case 4: return __atomic_fetch_xor((uint32_t *)p, (uint32_t)v, __ATOMIC_SEQ_CST);
        default: return __atomic_fetch_xor((uint64_t *)p, v, __ATOMIC_SEQ_CST);
        }
    }
}

static uint64_t load_value(const void *value, int kind)
{
    switch (kind) {
    case 1: return *(const uint8_t *)value;
    case 2: return *(const uint16_t *)value;
    case 4: return *(const uint32_t *)value;
    default: return *(const uint64_t *)value;
    }
}

static void store_value(void *out, uint64_t v, int kind)
{
    switch (kind) {
    case 1: *(uint8_t *)out = (uint8_t)v; break;
    case 2: *(uint16_t *)out = (uint16_t)v; break;
    case 4: *(uint32_t *)out = (uint32_t)v; break;
    default: *(uint64_t *)out = v; break;
    }
}

CAF_EXPORT void _gfortran_caf_atomic_op(int op, caf_token_t token, size_t offset, int image,
                                        void *value, void *old, int *stat, int type, int kind)
{
    char *p = atom(token, offset, image, stat);
    if (!supported(kind, stat)) {
        return;
    }
    if (op < CAF_ATOMIC_ADD || op > CAF_ATOMIC_XOR) {
        caf_error(stat, NULL, 0, 1, "unknown atomic operation %d", op);
        return;
    }
    uint64_t before = fetch_op(op, p, load_value(value, kind), kind);
    if (NULL != old) {
        store_value(old, before, kind);
    }
}
