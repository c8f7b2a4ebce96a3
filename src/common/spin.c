/*
 * spin.c - poll briefly before going to sleep (spin.h says why).
 */
#include <sched.h>
#include <time.h>

#include "spin.h"

static long elapsed_ns(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000000000L + (now.tv_nsec - since->tv_nsec);
}

bool spin_until(bool (*poll)(void *arg), void *arg, long budget_ns)
{
    struct timespec started;

    clock_gettime(CLOCK_MONOTONIC, &started);
    while (!poll(arg)) {
        if (elapsed_ns(&started) >= budget_ns) {
            return false;
        }
        sched_yield();
    }
    return true;
}
