/*
 * register.c - coarray registration: tokens and memory.
 *
 * Collective registrations (static and allocatable coarrays, locks,
 * critical constructs, events) take memory from the symmetric heap, whose
 * offsets agree on every image; so the instance on image r of a coarray is
 * at caf_remote(mem, r). Allocatable components are allocated by one image
 * alone (kinds 7 and 8), from the local heap of that image's segment: other
 * images reach them through the base addresses stored in the owner's
 * memory, which are valid everywhere because every segment is mapped at the
 * same address in every image. Tokens live in the local heap for the same
 * reason: gfortran stores component tokens in coarray memory.
 *
 * Static coarrays are registered from constructors, before main() calls
 * caf_init, so the first registration starts the runtime.
 *
 * gfortran emits the SYNC ALL that follows ALLOCATE itself; DEALLOCATE of a
 * coarray synchronizes here, before the memory is given back.
 */

#include "caf.h"

/* Lock words are 32 bits (owner image + contended bit); events are a count
 * and a spare word. */
#define LOCK_BYTES 4
#define EVENT_BYTES 8

char *caf_token_mem(caf_token_t token, int rank)
{
    caf_tok_t *tok = token;
    return rank == caf.me ? tok->mem : caf_remote(tok->mem, rank);
}

static bool collective(int kind)
{
    return CAF_REG_ALLOC_REGISTER_ONLY != kind && CAF_REG_ALLOC_ALLOCATE_ONLY != kind;
}

static size_t bytes_for(int kind, size_t size)
{
    switch (kind) {
    case CAF_REG_LOCK_STATIC:
    case CAF_REG_LOCK_ALLOC:
    case CAF_REG_CRITICAL:
        return size * LOCK_BYTES;
    case CAF_REG_EVENT_STATIC:
    case CAF_REG_EVENT_ALLOC:
        return size * EVENT_BYTES;
    default:
        return size;
    }
}

CAF_EXPORT void _gfortran_caf_register(size_t size, int kind, caf_token_t *token,
                                       caf_desc_t *desc, int *stat, char *errmsg,
                                       size_t errmsg_len)
{
    caf_ok(stat);
    /* Static coarrays are registered by constructors that run before main
     * calls caf_init. */
    _gfortran_caf_init(NULL, NULL);
    if (kind < CAF_REG_COARRAY_STATIC || kind > CAF_REG_ALLOC_ALLOCATE_ONLY) {
        caf_error(stat, errmsg, errmsg_len, 1, "unknown coarray registration kind %d", kind);
        return;
    }
    caf_tok_t *tok;
    if (CAF_REG_ALLOC_ALLOCATE_ONLY == kind) {
        tok = *token;
        if (NULL == tok) {
            caf_error(stat, errmsg, errmsg_len, 1, "allocating a component without a token");
            return;
        }
    } else {
        tok = caf_heap_alloc(&caf.local, sizeof(*tok));
        if (NULL == tok) {
            caf_error(stat, errmsg, errmsg_len, 1, "out of coarray token memory");
            return;
        }
        *tok = (caf_tok_t){.kind = kind, .desc = desc};
    }
    if (CAF_REG_ALLOC_REGISTER_ONLY != kind) {
        size_t bytes = bytes_for(kind, size);
        caf_heap_t *heap = collective(kind) ? &caf.sym : &caf.local;
        /* Locks and events start unlocked and at zero. Static ones get
         * memory never used before, already zero: writing it could wipe an
         * early EVENT POST of an image that started sooner. */
        char *mem = bytes != size ? caf_heap_alloc_zeroed(heap, bytes ? bytes : 1)
                                  : caf_heap_alloc(heap, bytes ? bytes : 1);
        if (NULL == mem) {
            if (tok != *token) {
                caf_heap_free(&caf.local, tok);
            }
            caf_error(stat, errmsg, errmsg_len, 1,
                      "cannot allocate a coarray of %zu bytes: the %s heap is full "
                      "(DROVER_CAF_HEAP sets its size)", bytes,
                      heap == &caf.sym ? "symmetric" : "local");
            return;
        }
        tok->mem = mem;
        tok->size = bytes;
        tok->desc = desc;
        if (NULL != desc) {
            desc->base_addr = mem;
        }
    }
    *token = tok;
}

CAF_EXPORT void _gfortran_caf_deregister(caf_token_t *token, int type, int *stat, char *errmsg,
                                         size_t errmsg_len)
{
    caf_ok(stat);
    caf_tok_t *tok = *token;
    if (NULL == tok) {
        return;
    }
    if (collective(tok->kind)) {
        int code = caf_barrier(caf.team);
        if (code && stat) {
            *stat = code;
        }
        caf_heap_free(&caf.sym, tok->mem);
    } else {
        caf_heap_free(&caf.local, tok->mem);
    }
    tok->mem = NULL;
    tok->size = 0;
    if (CAF_DEREG_DEALLOCATE_ONLY == type) {
        return;
    }
    caf_heap_free(&caf.local, tok);
    *token = NULL;
}
