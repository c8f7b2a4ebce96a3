/*
 * trace_cmd.c - `drover trace summary FILE`: per-phase statistics of a
 *               trace written by `drover run --trace`.
 *
 * Design notes:
 *  - Per job (a trace process other than the server's, pid 0) and per
 *    rank (a thread holding a "rank R" span), the phases are: fork+exec;
 *    init, from the fork to the answer to the rank's PMIx_Init; each
 *    PMIx_Fence K, from its arrival to its release; finalize, from the
 *    PMIx_Finalize request to the rank's exit; total, from the fork to
 *    the exit; and the number of PMIx_Get requests the server answered.
 *    Each phase prints min, median and max over the ranks that had it.
 *  - A file that is not a trace-event JSON file, or holds no rank of a
 *    drover run, is refused in one line (exit status 1).
 *  - `drover trace JOB` prints the trace of a job submitted to the
 *    daemon, which its run wrote in the job's directory of the daemon's
 *    state directory (daemon_jobs.c), checked as every daemon command
 *    checks it.
 */
#include <ctype.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "daemon.h"
#include "launcher.h"

#define NAME "drover trace"

/* One rank's phases, in milliseconds (NAN: it did not have it). */
typedef struct rank_phases {
    long tid;
    double start, end; /* the "rank R" span, microseconds */
    double fork_exec, init_end, finalize_begin;
    double *fences; /* by fence number - 1 */
    unsigned nfences;
    unsigned gets;
} rank_phases_t;

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* min, median and max of n values (sorted in place); the row is left out
 * when no rank had the phase. */
static void row(const char *phase, double *v, size_t n, int decimals, const char *unit)
{
    if (0 == n) {
        return;
    }
    qsort(v, n, sizeof(*v), compare_doubles);
    double median = 0 == n % 2 ? (v[n / 2 - 1] + v[n / 2]) / 2 : v[n / 2];
    printf("  %-16s %6zu %12.*f %12.*f %12.*f  %s\n", phase, n, decimals, v[0], decimals, median,
           decimals, v[n - 1], unit);
}

static int compare_tids(const void *a, const void *b)
{
    long x = ((const rank_phases_t *)a)->tid, y = ((const rank_phases_t *)b)->tid;
    return x < y ? -1 : x > y;
}

/* ranks is sorted by tid. */
static rank_phases_t *find_rank(rank_phases_t *ranks, size_t n, long tid)
{
    rank_phases_t key = {.tid = tid};
    return n > 0 ? bsearch(&key, ranks, n, sizeof(*ranks), compare_tids) : NULL;
}

/* The ranks of job pid: a "rank R" span starts each. */
static rank_phases_t *collect(const trace_events_t *tr, long pid, size_t *nranks)
{
    rank_phases_t *ranks = NULL;
    size_t n = 0;
    for (size_t i = 0; i < tr->n; i++) {
        const trace_event_t *e = &tr->events[i];
        if (e->pid != pid || 'X' != e->ph || 0 != strncmp(e->name, "rank ", 5)) {
            continue;
        }
        rank_phases_t *grown = realloc(ranks, (n + 1) * sizeof(*grown));
        if (NULL == grown) {
            break;
        }
        ranks = grown;
        ranks[n++] = (rank_phases_t){.tid = e->tid,
                                     .start = e->ts,
                                     .end = e->ts + e->dur,
                                     .fork_exec = NAN,
                                     .init_end = NAN,
                                     .finalize_begin = NAN};
    }
    if (n > 0) {
        qsort(ranks, n, sizeof(*ranks), compare_tids);
    }
    for (size_t i = 0; i < tr->n; i++) {
        const trace_event_t *e = &tr->events[i];
        rank_phases_t *rp = e->pid == pid && 'X' == e->ph ? find_rank(ranks, n, e->tid) : NULL;
        unsigned k;
        if (NULL == rp) {
            continue;
        }
        if (0 == strcmp(e->name, "fork+exec")) {
            rp->fork_exec = e->dur / 1e3;
        } else if (0 == strcmp(e->name, "PMIx_Init") && isnan(rp->init_end)) {
            rp->init_end = e->ts + e->dur;
        } else if (0 == strcmp(e->name, "PMIx_Finalize")) {
            rp->finalize_begin = e->ts;
        } else if (0 == strcmp(e->name, "PMIx_Get")) {
            rp->gets++;
        } else if (1 == sscanf(e->name, "PMIx_Fence %u", &k) && k > 0 && k <= 1u << 20) {
            if (k > rp->nfences) {
                double *grown = realloc(rp->fences, k * sizeof(*grown));
                if (NULL == grown) {
                    continue;
                }
                for (unsigned f = rp->nfences; f < k; f++) {
                    grown[f] = NAN;
                }
                rp->fences = grown;
                rp->nfences = k;
            }
            rp->fences[k - 1] = e->dur / 1e3;
        }
    }
    *nranks = n;
    return ranks;
}

/* The phases of a rank; a fence is its number - 1 (from 0 up). */
enum {
    PHASE_FORK_EXEC = -1,
    PHASE_INIT = -2,
    PHASE_FINALIZE = -3,
    PHASE_TOTAL = -4,
    PHASE_GETS = -5
};

/* The values of one phase over the ranks that had it. */
static size_t gather(const rank_phases_t *ranks, size_t n, double *v, int phase)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const rank_phases_t *rp = &ranks[i];
        double x;
        switch (phase) {
        case PHASE_FORK_EXEC:
            x = rp->fork_exec;
            break;
        case PHASE_INIT:
            x = (rp->init_end - rp->start) / 1e3;
            break;
        case PHASE_FINALIZE:
            x = (rp->end - rp->finalize_begin) / 1e3;
            break;
        case PHASE_TOTAL:
            x = (rp->end - rp->start) / 1e3;
            break;
        case PHASE_GETS:
            x = rp->gets;
            break;
        default:
            x = (unsigned)phase < rp->nfences ? rp->fences[phase] : NAN;
        }
        if (!isnan(x)) {
            v[m++] = x;
        }
    }
    return m;
}

static void summarise_job(const trace_events_t *tr, long pid, const char *label)
{
    size_t n;
    rank_phases_t *ranks = collect(tr, pid, &n);
    double *v = calloc(n + 1, sizeof(*v));
    if (NULL == v) {
        fprintf(stderr, NAME ": out of memory\n");
        n = 0;
    }
    unsigned fences = 0;
    for (size_t i = 0; i < n; i++) {
        fences = ranks[i].nfences > fences ? ranks[i].nfences : fences;
    }
    printf("%s: %zu rank%s\n", label, n, 1 == n ? "" : "s");
    printf("  %-16s %6s %12s %12s %12s\n", "phase", "ranks", "min", "median", "max");
    row("fork+exec", v, gather(ranks, n, v, PHASE_FORK_EXEC), 3, "ms");
    row("init", v, gather(ranks, n, v, PHASE_INIT), 3, "ms");
    for (unsigned k = 0; k < fences; k++) {
        char name[32];
        snprintf(name, sizeof(name), "PMIx_Fence %u", k + 1);
        row(name, v, gather(ranks, n, v, (int)k), 3, "ms");
    }
    row("finalize", v, gather(ranks, n, v, PHASE_FINALIZE), 3, "ms");
    row("total", v, gather(ranks, n, v, PHASE_TOTAL), 3, "ms");
    row("gets served", v, gather(ranks, n, v, PHASE_GETS), 1, "requests");
    for (size_t i = 0; i < n; i++) {
        free(ranks[i].fences);
    }
    free(ranks);
    free(v);
}

static int summary(const char *path)
{
    trace_events_t tr;
    char why[256];
    if (0 != trace_read(path, &tr, why, sizeof(why))) {
        fprintf(stderr, NAME ": %s: %s\n", path, why);
        return 1;
    }
    /* Jobs in the order of their pids; each named by its metadata. */
    long done = 0;
    int shown = 0;
    for (;;) {
        long next = -1;
        for (size_t i = 0; i < tr.n; i++) {
            const trace_event_t *e = &tr.events[i];
            if ('X' == e->ph && e->pid > done && 0 == strncmp(e->name, "rank ", 5) &&
                (next < 0 || e->pid < next)) {
                next = e->pid;
            }
        }
        if (next < 0) {
            break;
        }
        char label[sizeof(tr.events[0].label) + 16];
        snprintf(label, sizeof(label), "pid %ld", next);
        for (size_t i = 0; i < tr.n; i++) {
            const trace_event_t *e = &tr.events[i];
            if ('M' == e->ph && e->pid == next && 0 == strcmp(e->name, "process_name")) {
                snprintf(label, sizeof(label), "%s", e->label);
            }
        }
        printf("%s", shown++ ? "\n" : "");
        summarise_job(&tr, next, label);
        done = next;
    }
    trace_events_free(&tr);
    if (0 == shown) {
        fprintf(stderr,
                NAME ": %s: holds no ranks of a drover run (not written by drover run "
                     "--trace)\n",
                path);
        return 1;
    }
    return 0;
}

/* The trace of daemon job id, to stdout. */
static int job_trace(const char *id)
{
    char dir[PATH_MAX], sub[64];
    for (const char *p = id; '\0' != *p || p == id; p++) {
        if (!isdigit((unsigned char)*p) || p - id > 9) {
            fprintf(stderr, NAME ": '%s' is not a job id\n", id);
            return 2;
        }
    }
    int dirfd = daemon_dir_open(dir, false, NAME);
    if (dirfd < 0) {
        return 1;
    }
    snprintf(sub, sizeof(sub), DAEMON_JOBS "/%s/trace.json", id);
    int fd = openat(dirfd, sub, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    close(dirfd);
    if (fd < 0) {
        fprintf(stderr,
                NAME ": job %s has no trace (no such job, still running, or run with drover "
                     "run --daemon, whose --trace FILE is the caller's)\n",
                id);
        return 1;
    }
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof(buf))) > 0 && (size_t)n == fwrite(buf, 1, (size_t)n, stdout)) {
    }
    close(fd);
    if (0 != n || 0 != fflush(stdout)) {
        fprintf(stderr, NAME ": cannot copy the trace of job %s\n", id);
        return 1;
    }
    return 0;
}

static int trace_command(int argc, char **argv)
{
    if (3 == argc && 0 == strcmp(argv[1], "summary")) {
        return summary(argv[2]);
    }
    if (2 == argc && '-' != argv[1][0] && 0 != strcmp(argv[1], "summary")) {
        return job_trace(argv[1]);
    }
    if (2 == argc && (0 == strcmp(argv[1], "-h") || 0 == strcmp(argv[1], "--help"))) {
        printf("usage: drover trace summary FILE\n"
               "       drover trace JOB\n\n"
               "Per-phase statistics (min, median, max over the ranks) of a trace\n"
               "written by `drover run --trace FILE`; or the trace of a job submitted\n"
               "to the daemon, to stdout.\n");
        return 0;
    }
    fprintf(stderr, "usage: drover trace summary FILE | drover trace JOB\n");
    return 2;
}

const drover_command_t command_trace = {
    .name = "trace",
    .usage = "summary FILE | JOB",
    .summary = "per-phase statistics of a drover run --trace file",
    .run = trace_command,
};
