/*
 * spread.c - with more images than cores, one image per core in turn.
 *
 * A barrier needs every image to run once, so with images outnumbering
 * cores it costs as many context switches as the busiest core has images.
 * Left to itself the scheduler often runs five images on one core and three
 * on the other, and keeps them so, which makes every barrier of the run a
 * third slower. So when the launcher bound nothing (the image may run on
 * more cores than one) and the images outnumber those cores, image i binds
 * itself to the (i mod cores)-th of them. A launcher's binding, or
 * DROVER_CAF_SPREAD=0, leaves placement alone.
 *
 * Whether waiters may poll before they yield depends on the placement too:
 * only when the images together may run on at least as many processors as
 * there are images. Counting the node's processors is not enough: a
 * container or `taskset` may confine the whole job to fewer, and then a
 * polling image keeps the processor from the very image it waits for.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "caf.h"

#define SPIN_POLLS 4000

/* Binds this image to one of the `allowed` cores, in turn by rank. */
static void bind_in_turn(const cpu_set_t *allowed, int cores)
{
    int want = caf.me % cores;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, allowed) && 0 == want--) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            sched_setaffinity(0, sizeof(one), &one);
            return;
        }
    }
}

void caf_spread(void)
{
    cpu_set_t *mine = &caf_ctl(caf.me)->cpus;
    if (0 != sched_getaffinity(0, sizeof(*mine), mine)) {
        /* Unknown: as if the image could run anywhere on the node. */
        CPU_ZERO(mine);
        for (long cpu = 0; cpu < sysconf(_SC_NPROCESSORS_ONLN) && cpu < CPU_SETSIZE; cpu++) {
            CPU_SET(cpu, mine);
        }
        return;
    }
    const char *env = getenv("DROVER_CAF_SPREAD");
    int cores = CPU_COUNT(mine);
    if ((env && 0 == strcmp(env, "0")) || cores < 2 || caf.n <= cores) {
        return;
    }
    bind_in_turn(mine, cores);
    sched_getaffinity(0, sizeof(*mine), mine);
}

void caf_choose_spin(void)
{
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int r = 0; r < caf.n; r++) {
        CPU_OR(&all, &all, &caf_ctl(r)->cpus);
    }
    caf.spin = caf.n <= CPU_COUNT(&all) ? SPIN_POLLS : 0;
}
