/*
 * proctitle.c - a standby run shows its job's command line and
 *   environment as its own (/proc/<pid>/cmdline and environ, so `ps`).
 *
 * Design notes:
 *  - The kernel shows the bytes between the bounds it set at exec
 *    (procstat_arg_env_bounds), whatever argv and environ point to later:
 *    a standby that takes a job after its exec can only write the job's
 *    words there, NUL-separated, the rest zeroed. So the daemon starts
 *    the standby with room to spare (a padding argument and variable,
 *    daemon_standby.c), and hands it only a job that fits.
 *  - The environment's room is written only once environ points
 *    elsewhere (the job's message): the standby's own variables live
 *    there until then.
 */
#include <string.h>

#include "launcher.h"
#include "procstat.h"

size_t proctitle_size(const char *first, char *const *words)
{
    size_t size = NULL == first ? 0 : strlen(first) + 1;
    for (; NULL != words && NULL != *words; words++) {
        size += strlen(*words) + 1;
    }
    return size;
}

/* first (unless NULL) and words, NUL-separated, at start; the rest of
 * the room up to end zeroed. The caller checked that they fit. */
static void lay_out(char *start, const char *end, const char *first, char *const *words)
{
    char *at = start;
    if (NULL != first) {
        size_t len = strlen(first) + 1;
        memcpy(at, first, len);
        at += len;
    }
    for (; NULL != words && NULL != *words; words++) {
        size_t len = strlen(*words) + 1;
        memcpy(at, *words, len);
        at += len;
    }
    memset(at, 0, (size_t)(end - at));
}

bool proctitle_show(const char *first, char *const *args, char *const *env)
{
    /* Set at exec: read once (reading /proc/self/stat took 30 us of the
     * standby's start of its job). */
    static uintptr_t b[4];
    static bool known;
    if (!known) {
        known = procstat_arg_env_bounds(b);
    }
    if (!known || proctitle_size(first, args) > b[1] - b[0] ||
        (NULL != env && proctitle_size(NULL, env) > b[3] - b[2])) {
        return false;
    }
    lay_out((char *)b[0], (const char *)b[1], first, args);
    if (NULL != env) {
        lay_out((char *)b[2], (const char *)b[3], NULL, env);
    }
    return true;
}
