/*
 * daemon_connect.c - PMIx_Connect, PMIx_Disconnect and PMIx_Group_construct
 *                    and _destruct across the daemon's jobs: the daemon is
 *                    where their runs meet.
 *
 * Design notes:
 *  - Each run's server gathers its own participants first; then its run
 *    sends "connect JOB TIMEOUT N NSPACE RANK ... [NSPACE DESCRIPTION]..."
 *    (or "disconnect ...") on a connection of its own, with the
 *    participants as its server sorted them (the same list, in the same
 *    order, in every run) and, for a connect, the description of each of
 *    its jobs named (what its server was given, in hex; never read
 *    here). Requests with the same verb and list are one meeting.
 *  - A meeting waits for every job that owns a namespace of the list (a
 *    queued one may still start and join). When the last has joined,
 *    each run is answered "ok" followed by the other runs' descriptions,
 *    which it registers before its processes return.
 *  - Nobody hangs: a namespace no job owns is PMIX_ERR_NOT_FOUND at once;
 *    a job that has ended, ends while the others wait, or whose run hangs
 *    up, fails the meeting for everyone with PMIX_ERR_PROC_TERM_WO_SYNC;
 *    the first request's PMIX_TIMEOUT bounds the wait for everyone
 *    (PMIX_ERR_TIMEOUT). A run that joins again a meeting it is in (its
 *    server gave up and started over) replaces its earlier request, which
 *    is answered PMIX_ERR_TIMEOUT.
 *  - A job's spawned jobs ("<prefix>.<id>-N") belong to its run: they are
 *    owned by the job "<prefix>.<id>-0".
 *  - A group is a meeting too: "group-construct JOB TIMEOUT N NSPACE
 *    RANK ... NAME CONTEXT ENDPOINTS [NSPACE DESCRIPTION]..." (CONTEXT 1
 *    when a context id is asked for; ENDPOINTS what the run's members
 *    gave, in hex, or "-") or "group-destruct ... NAME", the name part of
 *    the meeting's signature. A construct's answer is "ok CONTEXT N" and
 *    the N runs' ENDPOINTS, the same for every run (so every member gets
 *    the same results), then the others' descriptions. Context ids start
 *    at 2^32: each run numbers the groups of its own ranks from 1, so a
 *    group across jobs never takes a number a run gave.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon.h"
#include "pmix.h"

/* A bound on the participants of one request. */
#define CONNECT_MAX_PROCS 65536
#define GROUP_CONSTRUCT "group-construct"
#define GROUP_DESTRUCT "group-destruct"

/* A job named in a meeting, and its run's request once it has joined. */
typedef struct member {
    unsigned job;
    int fd; /* -1 until joined */
    struct event *hangup;
    char **descriptions; /* NSPACE HEX pairs, copied */
    size_t ndescriptions; /* words */
    char *endpoints; /* a group construct's, copied */
    bool wants_context;
} member_t;

typedef struct meeting {
    struct meeting *next;
    char *signature; /* the verb, a group's name, and the participants */
    bool construct; /* a group construct */
    member_t *members;
    size_t nmembers;
    size_t joined;
    struct event *timer;
} meeting_t;

static meeting_t *meetings;
/* 2^32 on 64-bit systems: past any number a run gives its own groups,
 * and within what a signed 64-bit integer holds (as the server reads it). */
static size_t next_context_id = (size_t)1 << (4 * sizeof(size_t));

static void answer_status(int fd, pmix_status_t status)
{
    char text[16];
    snprintf(text, sizeof(text), "%d", status);
    daemon_wire_sendv(fd, "error", text, NULL);
}

static void forget_request(member_t *m)
{
    if (NULL != m->hangup) {
        event_free(m->hangup);
        m->hangup = NULL;
    }
    if (m->fd >= 0) {
        close(m->fd);
        m->fd = -1;
    }
    for (size_t i = 0; i < m->ndescriptions; i++) {
        free(m->descriptions[i]);
    }
    free(m->descriptions);
    m->descriptions = NULL;
    m->ndescriptions = 0;
    free(m->endpoints);
    m->endpoints = NULL;
}

static void meeting_free(meeting_t *mt)
{
    for (meeting_t **p = &meetings; NULL != *p; p = &(*p)->next) {
        if (*p == mt) {
            *p = mt->next;
            break;
        }
    }
    for (size_t i = 0; i < mt->nmembers; i++) {
        forget_request(&mt->members[i]);
    }
    if (NULL != mt->timer) {
        event_free(mt->timer);
    }
    free(mt->members);
    free(mt->signature);
    free(mt);
}

/* Answer every run that has joined with status, and end the meeting. */
static void fail(meeting_t *mt, pmix_status_t status)
{
    for (size_t i = 0; i < mt->nmembers; i++) {
        if (mt->members[i].fd >= 0) {
            answer_status(mt->members[i].fd, status);
        }
    }
    meeting_free(mt);
}

/* A group construct's answer before the descriptions, into words:
 * CONTEXT N ENDPOINTS...; their number. */
static size_t construct_words(meeting_t *mt, char **words, char *context, size_t context_size,
                              char *count, size_t count_size)
{
    bool wanted = false;
    for (size_t i = 0; i < mt->nmembers; i++) {
        wanted = wanted || mt->members[i].wants_context;
    }
    if (wanted) {
        snprintf(context, context_size, "%zu", next_context_id++);
    } else {
        snprintf(context, context_size, "-");
    }
    snprintf(count, count_size, "%zu", mt->nmembers);
    words[0] = context;
    words[1] = count;
    for (size_t i = 0; i < mt->nmembers; i++) {
        words[2 + i] = mt->members[i].endpoints;
    }
    return 2 + mt->nmembers;
}

/* Everyone is there: each run gets "ok" and the others' descriptions
 * (after, for a group construct, what construct_words says). */
static void complete(meeting_t *mt)
{
    size_t total = 0;
    char context[24], count[24];
    for (size_t i = 0; i < mt->nmembers; i++) {
        total += mt->members[i].ndescriptions;
    }
    char **words = calloc(1 + 2 + mt->nmembers + total, sizeof(*words));
    if (NULL == words) {
        fail(mt, PMIX_ERR_NOMEM);
        return;
    }
    words[0] = "ok";
    size_t first = 1 + (mt->construct ? construct_words(mt, words + 1, context, sizeof(context),
                                                        count, sizeof(count))
                                      : 0);
    for (size_t i = 0; i < mt->nmembers; i++) {
        size_t n = first;
        for (size_t k = 0; k < mt->nmembers; k++) {
            const member_t *other = &mt->members[k];
            for (size_t w = 0; k != i && w < other->ndescriptions; w++) {
                words[n++] = other->descriptions[w];
            }
        }
        if (0 != daemon_wire_send(mt->members[i].fd, words, n, NULL, 0)) {
            answer_status(mt->members[i].fd, PMIX_ERR_NOMEM);
        }
    }
    free(words);
    meeting_free(mt);
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
    fail(arg, PMIX_ERR_TIMEOUT);
}

/* The run of a member hung up (it ended): the meeting cannot complete. */
static void on_hangup(evutil_socket_t fd, short what, void *arg)
{
    for (meeting_t *mt = meetings; NULL != mt; mt = mt->next) {
        for (size_t i = 0; i < mt->nmembers; i++) {
            if (&mt->members[i] == arg) {
                forget_request(&mt->members[i]);
                fail(mt, PMIX_ERR_PROC_TERM_WO_SYNC);
                return;
            }
        }
    }
}

unsigned daemon_connect_owner(const daemon_jobs_t *jobs, const char *nspace)
{
    char first[DAEMON_NSPACE_MAX];
    const char *dash = strrchr(nspace, '-');
    size_t stem = NULL == dash ? 0 : (size_t)(dash - nspace) + 1;
    if (0 == stem || stem + 2 > sizeof(first) || '\0' == dash[1] ||
        strspn(dash + 1, "0123456789") != strlen(dash + 1)) {
        return 0;
    }
    memcpy(first, nspace, stem);
    strcpy(first + stem, "0");
    return daemon_jobs_find(jobs, first);
}

/* The jobs named by the participants, each once, into ids (room for n);
 * their number, or 0 after answering fd. */
static size_t jobs_named(const daemon_jobs_t *jobs, int fd, char *const *procs, size_t n,
                         unsigned *ids)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned id = daemon_connect_owner(jobs, procs[2 * i]);
        if (0 == id) {
            answer_status(fd, PMIX_ERR_NOT_FOUND);
            return 0;
        }
        if (JOB_ENDED == daemon_jobs_state(jobs, id)) {
            answer_status(fd, PMIX_ERR_PROC_TERM_WO_SYNC);
            return 0;
        }
        size_t k = 0;
        while (k < count && ids[k] != id) {
            k++;
        }
        if (k == count) {
            ids[count++] = id;
        }
    }
    return count;
}

/* The verb, a group's name (or NULL) and the participants' n words, one
 * string. NULL when memory runs out. */
static char *make_signature(const char *verb, const char *name, char *const *procs, size_t n)
{
    size_t len = strlen(verb) + 1 + (NULL == name ? 0 : strlen(name) + 1);
    for (size_t i = 0; i < n; i++) {
        len += strlen(procs[i]) + 1;
    }
    char *sig = malloc(len);
    if (NULL != sig) {
        size_t at = (size_t)sprintf(sig, "%s", verb);
        if (NULL != name) {
            at += (size_t)sprintf(sig + at, "\n%s", name);
        }
        for (size_t i = 0; i < n; i++) {
            at += (size_t)sprintf(sig + at, "\n%s", procs[i]);
        }
    }
    return sig;
}

static meeting_t *find(const char *signature)
{
    for (meeting_t *mt = meetings; NULL != mt; mt = mt->next) {
        if (0 == strcmp(mt->signature, signature)) {
            return mt;
        }
    }
    return NULL;
}

/* A new meeting of the jobs ids, taking sig over. NULL when memory runs
 * out (sig freed). */
static meeting_t *meeting_new(char *sig, const unsigned *ids, size_t nids, unsigned timeout,
                              struct event_base *base)
{
    meeting_t *mt = calloc(1, sizeof(*mt));
    if (NULL == mt) {
        free(sig);
        return NULL;
    }
    mt->signature = sig;
    mt->next = meetings;
    meetings = mt;
    struct timeval tv = {(time_t)timeout, 0};
    if (NULL == (mt->members = calloc(nids, sizeof(*mt->members))) ||
        (timeout > 0 && (NULL == (mt->timer = evtimer_new(base, on_timeout, mt)) ||
                         0 != evtimer_add(mt->timer, &tv)))) {
        meeting_free(mt);
        return NULL;
    }
    mt->nmembers = nids;
    for (size_t i = 0; i < nids; i++) {
        mt->members[i] = (member_t){.job = ids[i], .fd = -1};
    }
    return mt;
}

/* The meeting of the request (of group name, or NULL), started if new;
 * NULL after answering fd. */
static meeting_t *meeting_of(const daemon_jobs_t *jobs, int fd, char *const *words, size_t nprocs,
                             const char *name, unsigned timeout, struct event_base *base)
{
    char *sig = make_signature(words[0], name, words + 4, 2 * nprocs);
    meeting_t *mt = NULL == sig ? NULL : find(sig);
    unsigned *ids = NULL == sig || NULL != mt ? NULL : malloc(nprocs * sizeof(*ids));
    if (NULL != mt || NULL == ids) {
        free(sig);
        if (NULL == mt) {
            answer_status(fd, PMIX_ERR_NOMEM);
        }
        return mt;
    }
    size_t nids = jobs_named(jobs, fd, words + 4, nprocs, ids);
    if (0 == nids) {
        free(sig);
    } else if (NULL == (mt = meeting_new(sig, ids, nids, timeout, base))) {
        answer_status(fd, PMIX_ERR_NOMEM);
    } else {
        mt->construct = 0 == strcmp(words[0], GROUP_CONSTRUCT);
    }
    free(ids);
    return mt;
}

/* What a request says beyond its participants. */
typedef struct said {
    const char *name; /* a group's, or NULL */
    const char *endpoints; /* a group construct's, or NULL */
    bool wants_context;
    char *const *descriptions;
    size_t ndescriptions; /* words */
} said_t;

/* Keep the request of member m: its fd, its descriptions of the
 * namespaces its job owns and a construct's endpoints. 0, or -1 when
 * memory runs out. */
static int join(const daemon_jobs_t *jobs, member_t *m, int fd, const said_t *said,
                struct event_base *base)
{
    char *const *descriptions = said->descriptions;
    size_t n = said->ndescriptions;
    if (m->fd >= 0) {
        answer_status(m->fd, PMIX_ERR_TIMEOUT);
        forget_request(m);
    }
    m->wants_context = said->wants_context;
    if ((n > 0 && NULL == (m->descriptions = calloc(n, sizeof(*m->descriptions)))) ||
        (NULL != said->endpoints && NULL == (m->endpoints = strdup(said->endpoints)))) {
        forget_request(m);
        return -1;
    }
    for (size_t i = 0; i + 1 < n; i += 2) {
        if (daemon_connect_owner(jobs, descriptions[i]) != m->job) {
            continue;
        }
        char **pair = m->descriptions + m->ndescriptions;
        pair[0] = strdup(descriptions[i]);
        pair[1] = strdup(descriptions[i + 1]);
        m->ndescriptions += 2;
        if (NULL == pair[0] || NULL == pair[1]) {
            forget_request(m);
            return -1;
        }
    }
    m->hangup = event_new(base, fd, EV_READ, on_hangup, m);
    if (NULL == m->hangup || 0 != event_add(m->hangup, NULL)) {
        forget_request(m);
        return -1;
    }
    m->fd = fd;
    return 0;
}

/* The decimal number word holds, if it is one no larger than max. */
static bool number(const char *word, unsigned long max, unsigned long *value)
{
    char *end;
    *value = strtoul(word, &end, 10);
    return '0' <= word[0] && word[0] <= '9' && '\0' == *end && *value <= max;
}

bool daemon_connect_verb(const char *verb)
{
    return 0 == strcmp(verb, "connect") || 0 == strcmp(verb, "disconnect") ||
           0 == strcmp(verb, GROUP_CONSTRUCT) || 0 == strcmp(verb, GROUP_DESTRUCT);
}

/* Hex digits, or "-". */
static bool endpoints_word(const char *word)
{
    size_t len = strlen(word);
    return 0 == strcmp(word, "-") ||
           (len > 0 && 0 == len % 2 && strspn(word, "0123456789abcdef") == len);
}

/* What follows the n participants' words in words (nwords in all), into
 * *said: false when it is malformed. */
static bool read_said(char *const *words, size_t nwords, size_t n, said_t *said)
{
    bool construct = 0 == strcmp(words[0], GROUP_CONSTRUCT);
    bool group = construct || 0 == strcmp(words[0], GROUP_DESTRUCT);
    size_t first = 4 + 2 * n, extra = construct ? 3 : group ? 1 : 0;
    if (first + extra > nwords || 0 != (nwords - first - extra) % 2) {
        return false;
    }
    *said =
        (said_t){.descriptions = words + first + extra, .ndescriptions = nwords - first - extra};
    if (group) {
        said->name = words[first];
        /* A newline would blur the signature's parts. */
        if ('\0' == said->name[0] || strlen(said->name) > PMIX_MAX_NSLEN ||
            NULL != strchr(said->name, '\n')) {
            return false;
        }
    }
    if (construct) {
        said->wants_context = 0 == strcmp(words[first + 1], "1");
        said->endpoints = words[first + 2];
        return (said->wants_context || 0 == strcmp(words[first + 1], "0")) &&
               endpoints_word(said->endpoints);
    }
    return true;
}

bool daemon_connect_request(const daemon_jobs_t *jobs, struct event_base *base, int fd,
                            char *const *words, size_t nwords)
{
    unsigned long job, timeout, nprocs;
    said_t said;
    bool ok = nwords >= 6 && number(words[1], UINT32_MAX, &job) &&
              number(words[2], INT32_MAX, &timeout) &&
              number(words[3], CONNECT_MAX_PROCS, &nprocs) && nprocs > 0 &&
              4 + 2 * nprocs <= nwords && read_said(words, nwords, nprocs, &said);
    for (size_t i = 0; ok && i < nprocs; i++) {
        ok = strlen(words[4 + 2 * i]) <= PMIX_MAX_NSLEN;
    }
    if (!ok) {
        answer_status(fd, PMIX_ERR_BAD_PARAM);
        return false;
    }
    meeting_t *mt = meeting_of(jobs, fd, words, nprocs, said.name, (unsigned)timeout, base);
    if (NULL == mt) {
        return false;
    }
    member_t *m = NULL;
    for (size_t i = 0; i < mt->nmembers; i++) {
        if (mt->members[i].job == job) {
            m = &mt->members[i];
        }
    }
    if (NULL == m) {
        /* A run connects its own processes with others. */
        answer_status(fd, PMIX_ERR_BAD_PARAM);
        if (0 == mt->joined) {
            meeting_free(mt);
        }
        return false;
    }
    bool again = m->fd >= 0;
    if (0 != join(jobs, m, fd, &said, base)) {
        answer_status(fd, PMIX_ERR_NOMEM);
        mt->joined -= again ? 1 : 0;
        if (0 == mt->joined) {
            meeting_free(mt);
        }
        return false;
    }
    mt->joined += again ? 0 : 1;
    if (mt->joined == mt->nmembers) {
        complete(mt);
    }
    return true;
}

void daemon_connect_job_ended(unsigned job)
{
    meeting_t *mt = meetings;
    while (NULL != mt) {
        meeting_t *next = mt->next;
        for (size_t i = 0; i < mt->nmembers; i++) {
            if (mt->members[i].job == job) {
                fail(mt, PMIX_ERR_PROC_TERM_WO_SYNC);
                break;
            }
        }
        mt = next;
    }
}

void daemon_connect_cancel(void)
{
    while (NULL != meetings) {
        fail(meetings, PMIX_ERR_UNREACH);
    }
}
