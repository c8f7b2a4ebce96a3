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
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "caf.h"

void caf_spread(void)
{
    const char *env = getenv("DROVER_CAF_SPREAD");
    if (env && 0 == strcmp(env, "0")) {
        return;
    }
    cpu_set_t allowed;
    if (0 != sched_getaffinity(0, sizeof(allowed), &allowed)) {
        return;
    }
    int cores = CPU_COUNT(&allowed);
    if (cores < 2 || caf.n <= cores) {
        return;
    }
    int want = caf.me % cores;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &allowed) && 0 == want--) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            sched_setaffinity(0, sizeof(one), &one);
            return;
        }
    }
}
