/*
 * trace.c - `drover run --trace FILE`: a timeline of the run, written as
 *           Chrome/Perfetto trace-event JSON.
 *
 * Design notes:
 *  - Recording is cheap and conversion is late. Each moment is a
 *    fixed-size record appended to its thread's own log, so no lock is
 *    taken: the server library reports every request and reply of its
 *    clients from its progress thread (the DROVER_SERVER_TRACE hook), the
 *    main thread reports forks and exits. The JSON is made once, when the
 *    run is over and the server has stopped, from the two logs merged in
 *    time order, by pairing each reply with its request (same connection
 *    and tag).
 *  - One process per job (pid = job index + 1, named after the job: pid 0
 *    is the kernel's in Perfetto), one thread per rank (tid = rank), and
 *    one more (tid = the job's size) for the server's view of the job's
 *    collectives (fence, connect, disconnect, group construct and
 *    destruct): the K-th of a kind from the first rank's arrival at its
 *    K-th to the last release. Times are microseconds since the recorder
 *    started.
 *  - Per rank: "rank R" spans the process from fork to reaping, holding
 *    "fork+exec", each served request ("PMIx_Init", "PMIx_Fence K" with
 *    the bytes the rank committed since its previous fence and the bytes
 *    it received, "PMIx_Get", "PMIx_Spawn", "PMIx_Finalize", ...),
 *    "PMIx_Commit" instants and the "exit" instant. A request never
 *    answered (the job failed) ends when the recording ends, marked
 *    unfinished.
 *  - The file is written whatever the ending (failure, signal), under a
 *    temporary name made O_EXCL | O_NOFOLLOW in the target's directory,
 *    then renamed over the target: a reader never sees half a file, and a
 *    symlink planted at the target is replaced, not followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "drover.h"
#include "launcher.h"
#include "pmix.h"

#define NO_JOB UINT32_MAX
/* Records kept per thread (64 bytes each): a run that makes more keeps
 * its first ones and says how many it left out. */
#define MAX_RECORDS (1u << 22)

typedef enum {
    REC_REQUEST,
    REC_REPLY,
    REC_LAUNCH,
    REC_EXIT
} record_kind_t;

typedef struct record {
    double t; /* microseconds since the recorder started */
    double began; /* REC_LAUNCH: when the fork began */
    uint64_t conn; /* the connection; REC_LAUNCH: the pid */
    uint64_t bytes;
    const char *call; /* static */
    uint32_t job; /* NO_JOB: not known (yet) */
    uint32_t rank;
    uint32_t tag;
    int32_t status; /* a reply's; REC_EXIT: the exit code */
    uint8_t kind;
} record_t;

typedef struct trace_job {
    char *name; /* "job K: program (nspace)" */
    unsigned nprocs;
} trace_job_t;

/* The records of one thread, in time order. */
typedef struct record_log {
    record_t *recs;
    size_t n, cap;
    size_t dropped; /* past MAX_RECORDS, or for want of memory */
} record_log_t;

struct trace {
    char *dir; /* the target's directory and name */
    char *base;
    double t0;
    size_t prefix_len; /* of the run's namespaces' prefix (session_name_prefix) */
    char *prefix;
    record_log_t server; /* written by the server's progress thread */
    record_log_t main; /* written by the main thread */
    trace_job_t *jobs;
    unsigned njobs;
};

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

/* Append r to the log, timed now; drops it when the log is full or
 * memory runs out (a trace with a gap beats a failed run). */
static void append(const trace_t *t, record_log_t *log, record_t r)
{
    if (log->n == log->cap) {
        size_t cap = 0 == log->cap ? 4096 : 2 * log->cap;
        record_t *grown = cap > MAX_RECORDS ? NULL : realloc(log->recs, cap * sizeof(*grown));
        if (NULL == grown) {
            log->dropped++;
            return;
        }
        log->recs = grown;
        log->cap = cap;
    }
    r.t = now_us() - t->t0;
    log->recs[log->n++] = r;
}

/* The job index of one of the run's namespaces, or NO_JOB. */
static uint32_t job_of(const trace_t *t, const char *nspace)
{
    if (0 != strncmp(nspace, t->prefix, t->prefix_len)) {
        return NO_JOB;
    }
    char *end;
    unsigned long k = strtoul(nspace + t->prefix_len, &end, 10);
    return '\0' == *end && end != nspace + t->prefix_len && k < NO_JOB ? (uint32_t)k : NO_JOB;
}

void trace_server_event(trace_t *t, const drover_trace_event_t *ev)
{
    uint32_t job = job_of(t, ev->proc->nspace);
    append(t, &t->server,
           (record_t){.kind = ev->reply ? REC_REPLY : REC_REQUEST,
                      .call = ev->call,
                      .conn = ev->connection,
                      .tag = ev->tag,
                      .bytes = ev->bytes,
                      .status = ev->status,
                      .job = job,
                      .rank = NO_JOB == job ? 0 : ev->proc->rank});
}

trace_t *trace_create(const char *path)
{
    trace_t *t = calloc(1, sizeof(*t));
    char *d = strdup(path), *b = strdup(path);
    if (NULL == t || NULL == d || NULL == b || NULL == (t->dir = strdup(dirname(d))) ||
        NULL == (t->base = strdup(basename(b)))) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        free(d);
        free(b);
        trace_destroy(t);
        return NULL;
    }
    free(d);
    free(b);
    if ('\0' == path[0] || '/' == path[strlen(path) - 1] || 0 == strcmp(t->base, ".") ||
        0 == strcmp(t->base, "..")) {
        fprintf(stderr, LAUNCHER_NAME ": --trace %s: not a file name\n", path);
        trace_destroy(t);
        return NULL;
    }
    /* Checked now, so that a run is not spent on a trace that cannot be
     * written. */
    struct stat st;
    if (0 == stat(path, &st) && S_ISDIR(st.st_mode)) {
        fprintf(stderr, LAUNCHER_NAME ": --trace %s: a directory\n", path);
        trace_destroy(t);
        return NULL;
    }
    if (0 != access(t->dir, W_OK | X_OK)) {
        fprintf(stderr, LAUNCHER_NAME ": --trace %s: cannot write in %s: %s\n", path, t->dir,
                strerror(errno));
        trace_destroy(t);
        return NULL;
    }
    t->t0 = now_us();
    if (NULL == (t->prefix = session_name_prefix())) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        trace_destroy(t);
        return NULL;
    }
    t->prefix_len = strlen(t->prefix);
    return t;
}

void trace_job(trace_t *t, const launcher_job_t *job)
{
    if (job->index >= t->njobs) {
        trace_job_t *grown = realloc(t->jobs, (job->index + 1) * sizeof(*grown));
        if (NULL == grown) {
            return;
        }
        memset(grown + t->njobs, 0, (job->index + 1 - t->njobs) * sizeof(*grown));
        t->jobs = grown;
        t->njobs = job->index + 1;
    }
    trace_job_t *tj = &t->jobs[job->index];
    free(tj->name);
    if (asprintf(&tj->name, "job %u: %s (%s)", job->index, job->apps[0].argv[0], job->nspace) < 0) {
        tj->name = NULL;
    }
    tj->nprocs = job->nprocs;
}

double trace_now(void)
{
    return now_us();
}

void trace_launched(trace_t *t, const launcher_job_t *job, unsigned rank, double began, pid_t pid)
{
    append(t, &t->main,
           (record_t){.kind = REC_LAUNCH,
                      .job = job->index,
                      .rank = rank,
                      .began = began - t->t0,
                      .conn = (uint64_t)pid});
}

void trace_exited(trace_t *t, const launcher_job_t *job, unsigned rank, int exit_code)
{
    append(t, &t->main,
           (record_t){.kind = REC_EXIT, .job = job->index, .rank = rank, .status = exit_code});
}

/* ---- conversion ------------------------------------------------------- */

/* The collectives, numbered per rank (the K-th fence) and shown as the
 * server saw them. */
static const char *const collectives[] = {"PMIx_Fence", "PMIx_Connect", "PMIx_Disconnect",
                                          "PMIx_Group_construct", "PMIx_Group_destruct"};
#define NCOLLECTIVES (sizeof(collectives) / sizeof(collectives[0]))

/* What the conversion knows of one rank. */
typedef struct rank_state {
    double start, end; /* fork began, reaped (< 0: not seen) */
    int exit_code;
    pid_t pid;
    unsigned entered[NCOLLECTIVES]; /* collectives of each kind so far */
    uint64_t committed; /* bytes committed since its last fence */
} rank_state_t;

/* The server's view of the K-th collective of a kind in a job. */
typedef struct span {
    double first, last;
    unsigned ranks;
    uint64_t received;
} span_t;

typedef struct span_list {
    span_t *spans; /* by K - 1 */
    unsigned n;
} span_list_t;

/* What the conversion knows of one job. */
typedef struct job_state {
    rank_state_t *ranks;
    span_list_t collectives[NCOLLECTIVES];
} job_state_t;

/* The requests of one connection not yet answered (a few at most). */
typedef struct open_list {
    const record_t **reqs;
    size_t n;
} open_list_t;

typedef struct convert {
    FILE *out;
    const trace_t *t;
    job_state_t *jobs;
    open_list_t *open; /* requests not yet answered, by connection */
    size_t nconns;
    double end;
    bool first;
} convert_t;

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    json_escape(out, s);
    fputc('"', out);
}

/* Start one event: {"name":...,"ph":...,"pid":...,"tid":...,"ts":... */
static void event_head(convert_t *c, const char *name, const char *ph, unsigned pid, unsigned tid,
                       double ts)
{
    fprintf(c->out, "%s\n{\"name\":", c->first ? "" : ",");
    c->first = false;
    json_string(c->out, name);
    fprintf(c->out, ",\"ph\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":%.3f", ph, pid, tid, ts);
}

static void metadata(convert_t *c, const char *what, unsigned pid, unsigned tid, const char *name)
{
    event_head(c, what, "M", pid, tid, 0);
    fprintf(c->out, ",\"args\":{\"name\":");
    json_string(c->out, name);
    fprintf(c->out, "}}");
}

static rank_state_t *rank_of(convert_t *c, uint32_t job, uint32_t rank)
{
    if (job >= c->t->njobs || NULL == c->jobs[job].ranks || rank >= c->t->jobs[job].nprocs) {
        return NULL;
    }
    return &c->jobs[job].ranks[rank];
}

/* Which collective call is, or NCOLLECTIVES. */
static size_t collective_of(const char *call)
{
    size_t k = 0;
    while (k < NCOLLECTIVES && 0 != strcmp(call, collectives[k])) {
        k++;
    }
    return k;
}

/* A rank's part in the k-th collective of its kind: the server's span of
 * it runs from the first arrival to the last release. */
static void note_collective(span_list_t *list, unsigned k, double begin, double end,
                            uint64_t received)
{
    if (k > list->n) {
        span_t *grown = realloc(list->spans, k * sizeof(*grown));
        if (NULL == grown) {
            return;
        }
        for (unsigned i = list->n; i < k; i++) {
            grown[i] = (span_t){.first = -1};
        }
        list->spans = grown;
        list->n = k;
    }
    span_t *f = &list->spans[k - 1];
    if (f->first < 0 || begin < f->first) {
        f->first = begin;
    }
    if (end > f->last) {
        f->last = end;
    }
    f->ranks++;
    f->received += received;
}

/* A request and its reply (NULL: never answered) as one complete event on
 * the rank's track. */
static void served(convert_t *c, const record_t *req, const record_t *rep, uint32_t job,
                   uint32_t rank)
{
    rank_state_t *rs = rank_of(c, job, rank);
    if (NULL == rs || (rs->end >= 0 && req->t > rs->end)) {
        /* A request the server read off the socket of a process already
         * gone is not part of that process's life. */
        return;
    }
    double end = NULL != rep ? rep->t : c->end;
    if (rs->end >= 0 && end > rs->end) {
        /* Answered (or dropped) after the process had gone: its part
         * ended with it. */
        end = rs->end;
    }
    const char *call = NULL != rep ? rep->call : req->call;
    uint64_t received = NULL != rep ? rep->bytes : 0;
    size_t kind = collective_of(call);
    char name[64];
    snprintf(name, sizeof(name), "%s", call);
    if (kind < NCOLLECTIVES) {
        unsigned k = ++rs->entered[kind];
        snprintf(name, sizeof(name), "%s %u", call, k);
        note_collective(&c->jobs[job].collectives[kind], k, req->t, end, received);
    }
    event_head(c, name, "X", job + 1, rank, req->t);
    fprintf(c->out, ",\"dur\":%.3f,\"cat\":\"pmix\",\"args\":{", end - req->t);
    if (0 == kind) {
        fprintf(c->out, "\"contributed\":%" PRIu64 ",\"received\":%" PRIu64 ",", rs->committed,
                received);
        rs->committed = 0;
    } else {
        fprintf(c->out, "\"request_bytes\":%" PRIu64 ",\"reply_bytes\":%" PRIu64 ",", req->bytes,
                NULL != rep ? rep->bytes : 0);
    }
    if (NULL != rep) {
        fprintf(c->out, "\"status\":");
        json_string(c->out, PMIx_Error_string(rep->status));
    } else {
        fprintf(c->out, "\"unfinished\":true");
    }
    fprintf(c->out, "}}");
}

static void request(convert_t *c, const record_t *r)
{
    if (0 == strcmp(r->call, "PMIx_Commit")) {
        rank_state_t *rs = rank_of(c, r->job, r->rank);
        if (NULL != rs) {
            rs->committed += r->bytes;
            event_head(c, "PMIx_Commit", "i", r->job + 1, r->rank, r->t);
            fprintf(c->out, ",\"s\":\"t\",\"cat\":\"pmix\",\"args\":{\"bytes\":%" PRIu64 "}}",
                    r->bytes);
        }
        return;
    }
    open_list_t *list = &c->open[r->conn];
    for (size_t i = 0; i < list->n; i++) {
        if (list->reqs[i]->tag == r->tag) {
            return; /* a deferred request, seen again */
        }
    }
    const record_t **grown = realloc(list->reqs, (list->n + 1) * sizeof(*grown));
    if (NULL != grown) {
        list->reqs = grown;
        list->reqs[list->n++] = r;
    }
}

static void reply(convert_t *c, const record_t *r)
{
    open_list_t *list = &c->open[r->conn];
    for (size_t i = 0; i < list->n; i++) {
        const record_t *req = list->reqs[i];
        if (req->tag == r->tag) {
            list->reqs[i] = list->reqs[--list->n];
            /* A HELLO's request does not know who asks, nor whether it
             * opens a second connection; its reply does. */
            served(c, req, r, r->job, r->rank);
            return;
        }
    }
}

static void launched(convert_t *c, const record_t *r)
{
    rank_state_t *rs = rank_of(c, r->job, r->rank);
    if (NULL == rs) {
        return;
    }
    rs->start = r->began;
    rs->pid = (pid_t)r->conn;
    event_head(c, "fork+exec", "X", r->job + 1, r->rank, r->began);
    fprintf(c->out, ",\"dur\":%.3f,\"cat\":\"launch\",\"args\":{\"pid\":%" PRIu64 "}}",
            r->t - r->began, r->conn);
}

static void exited(convert_t *c, const record_t *r)
{
    rank_state_t *rs = rank_of(c, r->job, r->rank);
    if (NULL == rs) {
        return;
    }
    rs->end = r->t;
    rs->exit_code = r->status;
    event_head(c, "exit", "i", r->job + 1, r->rank, r->t);
    fprintf(c->out, ",\"s\":\"t\",\"cat\":\"launch\",\"args\":{\"exit_code\":%d}}", r->status);
}

/* The spans known only at the end: each rank's life, each collective as the
 * server saw it. */
static void closing_spans(convert_t *c)
{
    const trace_t *t = c->t;
    for (unsigned j = 0; j < t->njobs; j++) {
        for (unsigned r = 0; NULL != c->jobs[j].ranks && r < t->jobs[j].nprocs; r++) {
            rank_state_t *rs = &c->jobs[j].ranks[r];
            if (rs->start < 0) {
                continue;
            }
            char name[32];
            snprintf(name, sizeof(name), "rank %u", r);
            double end = rs->end < 0 ? c->end : rs->end;
            event_head(c, name, "X", j + 1, r, rs->start);
            fprintf(c->out, ",\"dur\":%.3f,\"cat\":\"process\",\"args\":{\"pid\":%ld,",
                    end - rs->start, (long)rs->pid);
            if (rs->end < 0) {
                fprintf(c->out, "\"unfinished\":true}}");
            } else {
                fprintf(c->out, "\"exit_code\":%d}}", rs->exit_code);
            }
        }
        for (size_t kind = 0; kind < NCOLLECTIVES; kind++) {
            const span_list_t *list = &c->jobs[j].collectives[kind];
            for (unsigned k = 0; k < list->n; k++) {
                const span_t *f = &list->spans[k];
                if (f->first < 0) {
                    continue;
                }
                char name[64];
                snprintf(name, sizeof(name), "%s %u", collectives[kind], k + 1);
                event_head(c, name, "X", j + 1, t->jobs[j].nprocs, f->first);
                fprintf(c->out,
                        ",\"dur\":%.3f,\"cat\":\"server\",\"args\":{\"ranks\":%u,"
                        "\"received\":%" PRIu64 "}}",
                        f->last - f->first, f->ranks, f->received);
            }
        }
    }
}

static void names(convert_t *c)
{
    const trace_t *t = c->t;
    for (unsigned j = 0; j < t->njobs; j++) {
        char name[32];
        metadata(c, "process_name", j + 1, 0, NULL != t->jobs[j].name ? t->jobs[j].name : "job");
        for (unsigned r = 0; r < t->jobs[j].nprocs; r++) {
            snprintf(name, sizeof(name), "rank %u", r);
            metadata(c, "thread_name", j + 1, r, name);
        }
        metadata(c, "thread_name", j + 1, t->jobs[j].nprocs, "PMIx server");
    }
}

static double last_time(const record_log_t *log)
{
    return log->n > 0 ? log->recs[log->n - 1].t : 0;
}

static int convert(const trace_t *t, FILE *out)
{
    convert_t c = {
        .out = out, .t = t, .first = true, .end = fmax(last_time(&t->server), last_time(&t->main))};
    c.jobs = calloc(t->njobs + 1, sizeof(*c.jobs));
    /* Connections are numbered from 1 up, in the order they opened. */
    for (size_t i = 0; i < t->server.n; i++) {
        c.nconns = t->server.recs[i].conn >= c.nconns ? t->server.recs[i].conn + 1 : c.nconns;
    }
    c.open = calloc(c.nconns + 1, sizeof(*c.open));
    int rc = NULL == c.jobs || NULL == c.open ? -1 : 0;
    for (unsigned j = 0; 0 == rc && j < t->njobs; j++) {
        rank_state_t *ranks = calloc(t->jobs[j].nprocs + 1, sizeof(*ranks));
        if (NULL == ranks) {
            rc = -1;
            break;
        }
        for (unsigned r = 0; r < t->jobs[j].nprocs; r++) {
            ranks[r] = (rank_state_t){.start = -1, .end = -1};
        }
        c.jobs[j].ranks = ranks;
    }
    if (0 == rc) {
        fprintf(out, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[");
        names(&c);
        /* The two logs, merged in time order. */
        for (size_t i = 0, m = 0; i < t->server.n || m < t->main.n;) {
            const record_t *r =
                m >= t->main.n || (i < t->server.n && t->server.recs[i].t <= t->main.recs[m].t)
                    ? &t->server.recs[i++]
                    : &t->main.recs[m++];
            switch (r->kind) {
            case REC_REQUEST:
                request(&c, r);
                break;
            case REC_REPLY:
                reply(&c, r);
                break;
            case REC_LAUNCH:
                launched(&c, r);
                break;
            default:
                exited(&c, r);
            }
        }
        for (size_t k = 0; k < c.nconns; k++) {
            for (size_t i = 0; i < c.open[k].n; i++) {
                served(&c, c.open[k].reqs[i], NULL, c.open[k].reqs[i]->job,
                       c.open[k].reqs[i]->rank);
            }
        }
        closing_spans(&c);
        fprintf(out, "\n]}\n");
    }
    for (unsigned j = 0; NULL != c.jobs && j < t->njobs; j++) {
        free(c.jobs[j].ranks);
        for (size_t kind = 0; kind < NCOLLECTIVES; kind++) {
            free(c.jobs[j].collectives[kind].spans);
        }
    }
    free(c.jobs);
    for (size_t k = 0; NULL != c.open && k < c.nconns; k++) {
        free(c.open[k].reqs);
    }
    free(c.open);
    return rc;
}

int trace_write(trace_t *t)
{
    char tmp[64];
    uint64_t random = 0;
    if (sizeof(random) != getrandom(&random, sizeof(random), 0)) {
        random = (uint64_t)now_us();
    }
    snprintf(tmp, sizeof(tmp), ".drover-trace.%016" PRIx64, random);
    int dirfd = open(t->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    int fd = dirfd < 0
                 ? -1
                 : openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    FILE *out = fd < 0 ? NULL : fdopen(fd, "w");
    int rc = -1;
    if (NULL != out) {
        rc = convert(t, out);
        if (0 != fclose(out)) {
            rc = -1;
        }
        fd = -1;
        if (0 == rc && 0 != renameat(dirfd, tmp, dirfd, t->base)) {
            rc = -1;
        }
        if (0 != rc) {
            unlinkat(dirfd, tmp, 0);
        }
    }
    int err = errno;
    if (fd >= 0) {
        close(fd);
        unlinkat(dirfd, tmp, 0);
    }
    if (dirfd >= 0) {
        close(dirfd);
    }
    if (0 != rc) {
        fprintf(stderr, LAUNCHER_NAME ": cannot write the trace %s/%s: %s\n", t->dir, t->base,
                strerror(err));
    } else if (t->server.dropped + t->main.dropped > 0) {
        fprintf(stderr, LAUNCHER_NAME ": the trace %s/%s lacks the last %zu events (%u kept)\n",
                t->dir, t->base, t->server.dropped + t->main.dropped, MAX_RECORDS);
    }
    return rc;
}

void trace_destroy(trace_t *t)
{
    if (NULL == t) {
        return;
    }
    for (unsigned j = 0; j < t->njobs; j++) {
        free(t->jobs[j].name);
    }
    free(t->jobs);
    free(t->server.recs);
    free(t->main.recs);
    free(t->prefix);
    free(t->dir);
    free(t->base);
    free(t);
}
