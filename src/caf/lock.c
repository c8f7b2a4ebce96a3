/*
 * lock.c - LOCK, UNLOCK and CRITICAL.
 *
 * A lock variable is a 32-bit word in the symmetric heap of the image it
 * belongs to: 0 when unlocked, otherwise the holder's global rank + 1, with
 * the top bit set once some image sleeps waiting for it. A waiter sets that
 * bit and sleeps on the word (a futex in shared memory); the holder wakes
 * one waiter at UNLOCK only if the bit is set. A woken image takes the lock
 * with the bit set, since others may still be asleep. CRITICAL is a lock on
 * image 1 (gfortran registers it as such).
 */
#include "caf.h"

#define CONTENDED 0x80000000u

static _Atomic uint32_t *lock_word(caf_token_t token, size_t index, int rank)
{
    return (_Atomic uint32_t *)(caf_token_mem(token, rank) + index * sizeof(uint32_t));
}

/* The image index to name in messages: 0 stands for this image. */
static int shown(int image)
{
    return 0 == image ? caf.team->index : image;
}

CAF_EXPORT void _gfortran_caf_lock(caf_token_t token, size_t index, int image, int *acquired,
                                   int *stat, char *errmsg, size_t errmsg_len)
{
    caf_ok(stat);
    int rank = caf_rank_of(image);
    image = shown(image);
    _Atomic uint32_t *word = lock_word(token, index, rank);
    uint32_t mine = (uint32_t)caf.me + 1;
    uint32_t seen = 0;
    if (atomic_compare_exchange_strong(word, &seen, mine)) {
        if (acquired) {
            *acquired = 1;
        }
        return;
    }
    if ((seen & ~CONTENDED) == mine) {
        caf_error(stat, errmsg, errmsg_len, CAF_STAT_LOCKED,
                  "LOCK: the lock variable on image %d is already locked by this image", image);
        return;
    }
    if (acquired) {
        *acquired = 0;
        return;
    }
    uint32_t take = mine;
    for (;;) {
        for (unsigned i = 0; i < caf.spin && 0 != (seen = atomic_load(word)); i++) {
        }
        seen = 0;
        if (atomic_compare_exchange_strong(word, &seen, take)) {
            return;
        }
        if (!(seen & CONTENDED) &&
            !atomic_compare_exchange_strong(word, &seen, seen | CONTENDED)) {
            continue;
        }
        caf_futex_wait(word, seen | CONTENDED);
        take = mine | CONTENDED;
    }
}

CAF_EXPORT void _gfortran_caf_unlock(caf_token_t token, size_t index, int image, int *stat,
                                     char *errmsg, size_t errmsg_len)
{
    caf_ok(stat);
    int rank = caf_rank_of(image);
    image = shown(image);
    _Atomic uint32_t *word = lock_word(token, index, rank);
    uint32_t mine = (uint32_t)caf.me + 1;
    uint32_t seen = atomic_load(word);
    if ((seen & ~CONTENDED) != mine) {
        if (0 == seen) {
            caf_error(stat, errmsg, errmsg_len, CAF_STAT_UNLOCKED,
                      "UNLOCK: the lock variable on image %d is not locked", image);
        } else {
            caf_error(stat, errmsg, errmsg_len, CAF_STAT_LOCKED_OTHER_IMAGE,
                      "UNLOCK: the lock variable on image %d is locked by image %u", image,
                      seen & ~CONTENDED);
        }
        return;
    }
    if (atomic_exchange(word, 0) & CONTENDED) {
        caf_futex_wake(word, 1);
    }
}
