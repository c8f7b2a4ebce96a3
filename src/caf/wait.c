/*
 * wait.c - how images wait for each other: short spin, then futex sleep.
 *
 * Futexes work across processes on shared mappings, so a waiting image
 * sleeps in the kernel on a word in shared memory and the image that changes
 * the word wakes it. Every image has a doorbell (its control block's
 * `doorbell`): whoever changes something the image may wait for (a SYNC
 * IMAGES counter, an event count, another image's status) bumps it, and
 * wakes the image only when it announced itself asleep, so a wake costs no
 * system call when nobody sleeps. Before sleeping a waiter stays busy for
 * a short while: polling when every image has a processor of its own
 * (caf.spin, see spread.c), then yielding the processor for BUSY_NS, so
 * that an image it waits for that shares its processor runs at once.
 *
 * Barriers are counters: one 64-bit word holding the generation (high half)
 * and the images arrived (low half). The image that completes a generation
 * (arrived + inactive members == team size) moves it on with one CAS and
 * wakes all sleepers with one FUTEX_WAKE on the generation half. An image
 * that stops or fails counts as arrived from then on; it pokes the barriers
 * of its teams so that those already waiting do not wait for it.
 * Generations step by two; the low bit of the new generation says whether
 * it completed without some members, which is what the barrier reports
 * (an image that stops just after a complete barrier does not count). A
 * waiter reads that bit safely: the generation cannot move again before
 * the waiter itself arrives at the next barrier.
 */
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "caf.h"

void caf_futex_wait(_Atomic uint32_t *word, uint32_t expected)
{
    /* EAGAIN (changed already) and EINTR both mean: look again. */
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, expected, NULL, NULL, 0);
}

void caf_futex_wake(_Atomic uint32_t *word, int count)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, count, NULL, NULL, 0);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* How long a waiter stays on the processor, in nanoseconds, before it
 * sleeps: it polls (when every image has a core) and then yields to the
 * images it waits for (always). Waits that end within it cost no wake-up
 * from an idle core, which on virtual machines takes tens of microseconds. */
#define BUSY_NS 50000

static long elapsed_ns(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000000000L + (now.tv_nsec - since->tv_nsec);
}

/* Spins, then yields, until done(arg) or the budget is spent; returns
 * done(arg). */
static bool busy_wait(bool (*done)(void *arg), void *arg)
{
    for (unsigned i = 0; i < caf.spin; i++) {
        if (done(arg)) {
            return true;
        }
        cpu_relax();
    }
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (unsigned i = 1;; i++) {
        if (done(arg)) {
            return true;
        }
        sched_yield();
        if (0 == i % 8 && elapsed_ns(&start) > BUSY_NS) {
            return done(arg);
        }
    }
}

typedef struct generation_arg {
    _Atomic uint32_t *word;
    uint32_t gen;
} generation_arg_t;

static bool generation_moved(void *arg)
{
    const generation_arg_t *g = arg;
    return atomic_load(g->word) != g->gen;
}

void caf_ring(int rank)
{
    caf_ctl_t *ctl = caf_ctl(rank);
    atomic_fetch_add(&ctl->doorbell, 1);
    if (atomic_load(&ctl->sleeping)) {
        caf_futex_wake(&ctl->doorbell, INT_MAX);
    }
}

void caf_wait_until(bool (*ready)(void *arg), void *arg)
{
    if (busy_wait(ready, arg)) {
        return;
    }
    caf_ctl_t *ctl = caf_ctl(caf.me);
    for (;;) {
        uint32_t bell = atomic_load(&ctl->doorbell);
        if (ready(arg)) {
            return;
        }
        atomic_fetch_add(&ctl->sleeping, 1);
        /* Whoever made us ready bumped the doorbell after doing so: either
         * the bump came before `bell` was read (then ready() saw it) or the
         * futex sees a changed value and returns at once. */
        caf_futex_wait(&ctl->doorbell, bell);
        atomic_fetch_sub(&ctl->sleeping, 1);
    }
}

int caf_team_inactive(const caf_team_rt_t *team)
{
    if (0 == atomic_load(&caf_ctl(0)->inactive)) {
        return 0;
    }
    int count = 0;
    for (int i = 0; i < team->size; i++) {
        count += 0 != atomic_load(&caf_ctl(team->members[i])->status);
    }
    return count;
}

static _Atomic uint32_t *generation_word(caf_barrier_t *barrier)
{
    /* The high half of the little-endian 64-bit word. */
    return (_Atomic uint32_t *)((char *)&barrier->word + 4);
}

/* Moves generation `gen` on when every active member has arrived. Returns
 * true once `gen` is over (by our hand or another's). When every member has
 * arrived, only the last to arrive (`last`) completes, running complete()
 * first: so it runs exactly once, before anyone leaves the barrier. When
 * members have stopped or failed, whoever sees it completes, without it. */
static bool try_complete(caf_team_rt_t *team, uint32_t gen, bool last, void (*complete)(void *),
                         void *arg)
{
    caf_barrier_t *barrier = team->barrier;
    for (;;) {
        uint64_t word = atomic_load(&barrier->word);
        if ((uint32_t)(word >> 32) != gen) {
            return true;
        }
        uint32_t arrived = (uint32_t)word;
        bool everyone = (int)arrived >= team->size;
        if (everyone && !last) {
            return false;
        }
        if (!everyone && (0 == arrived || (int)arrived + caf_team_inactive(team) < team->size)) {
            return false;
        }
        if (everyone && complete) {
            complete(arg);
        }
        uint32_t partial = !everyone;
        uint64_t next = (uint64_t)(((gen & ~1u) + 2) | partial) << 32;
        if (atomic_compare_exchange_strong(&barrier->word, &word, next)) {
            if (atomic_load(&barrier->sleepers)) {
                caf_futex_wake(generation_word(barrier), INT_MAX);
            }
            return true;
        }
    }
}

static int team_condition(const caf_team_rt_t *team)
{
    if (0 == atomic_load(&caf_ctl(0)->inactive)) {
        return 0;
    }
    int code = 0;
    for (int i = 0; i < team->size; i++) {
        uint32_t status = atomic_load(&caf_ctl(team->members[i])->status);
        if (CAF_STAT_FAILED_IMAGE == status) {
            return CAF_STAT_FAILED_IMAGE;
        }
        if (0 != status) {
            code = CAF_STAT_STOPPED_IMAGE;
        }
    }
    return code;
}

int caf_barrier(caf_team_rt_t *team)
{
    return caf_barrier_with(team, NULL, NULL);
}

int caf_barrier_with(caf_team_rt_t *team, void (*complete)(void *arg), void *arg)
{
    caf_barrier_t *barrier = team->barrier;
    _Atomic uint32_t *genword = generation_word(barrier);
    uint64_t word = atomic_fetch_add(&barrier->word, 1);
    uint32_t gen = (uint32_t)(word >> 32);
    bool last = (int)(uint32_t)word + 1 == team->size;
    if (!try_complete(team, gen, last, complete, arg)) {
        generation_arg_t moved = {genword, gen};
        busy_wait(generation_moved, &moved);
        while (atomic_load(genword) == gen) {
            atomic_fetch_add(&barrier->sleepers, 1);
            caf_futex_wait(genword, gen);
            atomic_fetch_sub(&barrier->sleepers, 1);
        }
    }
    return atomic_load(genword) & 1 ? team_condition(team) : 0;
}

void caf_barrier_poke(caf_team_rt_t *team)
{
    uint64_t word = atomic_load(&team->barrier->word);
    try_complete(team, (uint32_t)(word >> 32), false, NULL, NULL);
}
