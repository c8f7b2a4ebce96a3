/*
 * pubsub_daemon.c - a daemon job's run: the publications it shares with
 *                   the daemon's other jobs go to the daemon's store.
 *
 * Design notes:
 *  - One connection to the daemon per request (as the drover commands
 *    do): the request is sent at once (it is small), and the answer is
 *    waited for in the run's event loop, so that a lookup waiting for a
 *    later publish holds nothing but its connection.
 *  - Values travel packed (PMIx_Data_pack of the pmix_value_t) and in
 *    hex, since the messages are lists of strings; the daemon never reads
 *    them (daemon_store.c, docs/protocol.md).
 *  - Requests still open when the run ends are answered PMIX_ERR_UNREACH.
 *  - A connect (or disconnect) with processes of other jobs goes to the
 *    daemon with the descriptions of this run's jobs named in it (what
 *    jobinfo.c registers, packed as one PMIX_DATA_ARRAY value), and the
 *    daemon answers once every job named has joined, with the others'
 *    descriptions. Each is registered with the server, as a namespace
 *    with no local processes, before the connect completes: PMIx_Get of
 *    the other job's job-level and per-process keys is then answered by
 *    the server, and what its processes committed still comes through
 *    the daemon (pubsub_daemon_modex). The registrations are counted
 *    (foreign.c): a disconnect takes its connect's back, and the last one
 *    gone (no connect nor group of the run's ranks names the job any
 *    more), the server forgets the other job.
 *  - A group construct with processes of other jobs meets the same way
 *    (pubsub_daemon_group_op), with the group's name, whether a context
 *    id is wanted and what the run's members gave (PMIX_GROUP_ENDPT_DATA);
 *    the answer brings the context id, every run's endpoint data and the
 *    other jobs' descriptions, registered for as long as the group names
 *    them (the group's own references are taken before the meeting's are
 *    given back). A destruct is a meeting with nothing more.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon.h"
#include "directive.h"
#include "launcher.h"
#include "pmix.h"

typedef struct pending pending_t;

/* The answer (NULL when the daemon could not be reached or hung up). */
typedef void (*answer_fn)(pending_t *p, const wire_msg_t *answer);

struct pending {
    pending_t *next;
    pubsub_daemon_t *pd;
    int fd;
    struct event *ev;
    answer_fn answer;
    pmix_op_cbfunc_t op_cb;
    pmix_lookup_cbfunc_t lookup_cb;
    pmix_modex_cbfunc_t modex_cb;
    pmix_info_cbfunc_t info_cb;
    void *cbdata;
    pmix_proc_t *procs; /* a disconnect's or group's participants */
    size_t nprocs;
    char *group; /* a group's name */
    bool construct; /* a group construct */
};

struct pubsub_daemon {
    struct event_base *base;
    char job[16];
    pending_t *pending;
    foreign_t *foreign; /* other jobs' namespaces registered with the server */
};

pubsub_daemon_t *pubsub_daemon_create(struct event_base *base, unsigned job)
{
    pubsub_daemon_t *pd = calloc(1, sizeof(*pd));
    if (NULL == pd || NULL == (pd->foreign = foreign_create())) {
        free(pd);
        return NULL;
    }
    pd->base = base;
    snprintf(pd->job, sizeof(pd->job), "%u", job);
    return pd;
}

static void pending_free(pending_t *p)
{
    for (pending_t **q = &p->pd->pending; NULL != *q; q = &(*q)->next) {
        if (*q == p) {
            *q = p->next;
            break;
        }
    }
    if (NULL != p->ev) {
        event_free(p->ev);
    }
    if (p->fd >= 0) {
        close(p->fd);
    }
    free(p->procs);
    free(p->group);
    free(p);
}

static void on_answer(evutil_socket_t fd, short what, void *arg)
{
    pending_t *p = arg;
    wire_msg_t msg;
    if (0 == daemon_wire_recv(p->fd, &msg)) {
        p->answer(p, 0 < msg.nwords ? &msg : NULL);
        daemon_wire_release(&msg);
    } else {
        p->answer(p, NULL);
    }
    pending_free(p);
}

/* Send words to the daemon; answer gets its reply later. Returns false
 * (having answered nothing) when the daemon cannot be reached. proto's
 * procs and group are taken over either way. */
static bool ask(pubsub_daemon_t *pd, char *const *words, size_t nwords, answer_fn answer,
                pending_t *proto)
{
    pending_t *p = calloc(1, sizeof(*p));
    if (NULL == p) {
        free(proto->procs);
        free(proto->group);
        return false;
    }
    *p = *proto;
    p->pd = pd;
    p->answer = answer;
    p->fd = daemon_connect("drover run");
    p->next = pd->pending;
    pd->pending = p;
    if (p->fd < 0 || 0 != daemon_wire_send(p->fd, words, nwords, NULL, 0) ||
        NULL == (p->ev = event_new(pd->base, p->fd, EV_READ, on_answer, p)) ||
        0 != event_add(p->ev, NULL)) {
        pending_free(p);
        return false;
    }
    return true;
}

/* "ok", or "error STATUS" (a status number, or a message from the
 * daemon itself). */
static pmix_status_t status_of(const wire_msg_t *answer)
{
    if (NULL == answer) {
        return PMIX_ERR_UNREACH;
    }
    if (0 == strcmp(answer->words[0], "ok")) {
        return PMIX_SUCCESS;
    }
    char *end;
    long status = answer->nwords > 1 ? strtol(answer->words[1], &end, 10) : 0;
    return answer->nwords > 1 && '\0' == *end && status < 0 ? (pmix_status_t)status : PMIX_ERROR;
}

static void op_answer(pending_t *p, const wire_msg_t *answer)
{
    if (NULL != p->op_cb) {
        p->op_cb(status_of(answer), p->cbdata);
    }
}

static void proc_words(const pmix_proc_t *proc, char *rank, size_t size)
{
    if (PMIX_RANK_WILDCARD == proc->rank) {
        snprintf(rank, size, "*");
    } else {
        snprintf(rank, size, "%u", proc->rank);
    }
}

/* ---- values in hex ------------------------------------------------------ */

static char *value_hex(const pmix_value_t *value)
{
    pmix_data_buffer_t buf;
    pmix_byte_object_t bo = {NULL, 0};
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    pmix_value_t *v = (pmix_value_t *)value;
    char *hex = NULL;
    if (PMIX_SUCCESS == PMIx_Data_pack(NULL, &buf, v, 1, PMIX_VALUE) &&
        PMIX_SUCCESS == PMIx_Data_unload(&buf, &bo) && NULL != (hex = malloc(2 * bo.size + 1))) {
        for (size_t i = 0; i < bo.size; i++) {
            snprintf(hex + 2 * i, 3, "%02x", (unsigned char)bo.bytes[i]);
        }
        hex[2 * bo.size] = '\0';
    }
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    return hex;
}

static pmix_status_t hex_value(const char *hex, pmix_value_t *value)
{
    size_t len = strlen(hex);
    if (0 == len || 0 != len % 2) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    pmix_byte_object_t bo = {malloc(len / 2), len / 2};
    if (NULL == bo.bytes) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < bo.size; i++) {
        unsigned byte;
        if (1 != sscanf(hex + 2 * i, "%2x", &byte)) {
            free(bo.bytes);
            return PMIX_ERR_UNPACK_FAILURE;
        }
        bo.bytes[i] = (char)byte;
    }
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    pmix_status_t rc = PMIx_Data_load(&buf, &bo);
    int32_t n = 1;
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Data_unpack(NULL, &buf, value, &n, PMIX_VALUE);
    } else {
        PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    return rc;
}

/* ---- requests ----------------------------------------------------------- */

void pubsub_daemon_publish(pubsub_daemon_t *pd, const pmix_proc_t *proc, const pmix_info_t *data[],
                           size_t ndata, pmix_persistence_t persistence, pmix_op_cbfunc_t cbfunc,
                           void *cbdata)
{
    char rank[16], persist[8];
    proc_words(proc, rank, sizeof(rank));
    snprintf(persist, sizeof(persist), "%u", (unsigned)persistence);
    size_t nwords = 5 + 2 * ndata;
    char **words = calloc(nwords, sizeof(*words));
    bool ok = NULL != words;
    if (ok) {
        words[0] = "publish";
        words[1] = pd->job;
        words[2] = (char *)proc->nspace;
        words[3] = rank;
        words[4] = persist;
    }
    for (size_t i = 0; ok && i < ndata; i++) {
        words[5 + 2 * i] = (char *)data[i]->key;
        ok = NULL != (words[6 + 2 * i] = value_hex(&data[i]->value));
    }
    pending_t proto = {.op_cb = cbfunc, .cbdata = cbdata};
    ok = ok && ask(pd, words, nwords, op_answer, &proto);
    for (size_t i = 0; NULL != words && i < ndata; i++) {
        free(words[6 + 2 * i]);
    }
    free(words);
    if (!ok && NULL != cbfunc) {
        cbfunc(PMIX_ERR_UNREACH, cbdata);
    }
}

static void lookup_answer(pending_t *p, const wire_msg_t *answer)
{
    pmix_status_t rc = status_of(answer);
    if (PMIX_SUCCESS != rc) {
        p->lookup_cb(rc, NULL, 0, p->cbdata);
        return;
    }
    size_t n = (answer->nwords - 1) / 4;
    pmix_pdata_t *data = NULL;
    PMIX_PDATA_CREATE(data, n);
    if (NULL == data || 0 == n) {
        p->lookup_cb(NULL == data ? PMIX_ERR_NOMEM : PMIX_ERR_NOT_FOUND, NULL, 0, p->cbdata);
        return;
    }
    for (size_t i = 0; PMIX_SUCCESS == rc && i < n; i++) {
        char *const *w = answer->words + 1 + 4 * i;
        PMIX_LOAD_NSPACE(data[i].proc.nspace, w[0]);
        data[i].proc.rank =
            0 == strcmp(w[1], "*") ? PMIX_RANK_WILDCARD : (pmix_rank_t)strtoul(w[1], NULL, 10);
        PMIX_LOAD_KEY(data[i].key, w[2]);
        rc = hex_value(w[3], &data[i].value);
    }
    p->lookup_cb(rc, PMIX_SUCCESS == rc ? data : NULL, PMIX_SUCCESS == rc ? n : 0, p->cbdata);
    PMIX_PDATA_FREE(data, n);
}

/* Words: verb JOB NSPACE RANK extra... keys...; NULL when out of memory. */
static char **request_words(pubsub_daemon_t *pd, const char *verb, const pmix_proc_t *proc,
                            char *rank, char *const *extra, size_t nextra, char **keys,
                            size_t *nwords)
{
    size_t nkeys = 0;
    while (NULL != keys && NULL != keys[nkeys]) {
        nkeys++;
    }
    char **words = calloc(4 + nextra + nkeys, sizeof(*words));
    if (NULL != words) {
        words[0] = (char *)verb;
        words[1] = pd->job;
        words[2] = (char *)proc->nspace;
        words[3] = rank;
        for (size_t i = 0; i < nextra; i++) {
            words[4 + i] = extra[i];
        }
        for (size_t k = 0; k < nkeys; k++) {
            words[4 + nextra + k] = keys[k];
        }
        *nwords = 4 + nextra + nkeys;
    }
    return words;
}

void pubsub_daemon_lookup(pubsub_daemon_t *pd, const pmix_proc_t *proc, char **keys, size_t needed,
                          int timeout, pmix_lookup_cbfunc_t cbfunc, void *cbdata)
{
    char rank[16], wait[24], secs[16];
    proc_words(proc, rank, sizeof(rank));
    snprintf(wait, sizeof(wait), "%zu", needed);
    snprintf(secs, sizeof(secs), "%d", timeout);
    char *extra[] = {wait, secs};
    size_t nwords;
    char **words = request_words(pd, "lookup", proc, rank, extra, 2, keys, &nwords);
    pending_t proto = {.lookup_cb = cbfunc, .cbdata = cbdata};
    if (NULL == words || !ask(pd, words, nwords, lookup_answer, &proto)) {
        cbfunc(PMIX_ERR_UNREACH, NULL, 0, cbdata);
    }
    free(words);
}

void pubsub_daemon_unpublish(pubsub_daemon_t *pd, const pmix_proc_t *proc, char **keys,
                             pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    char rank[16];
    proc_words(proc, rank, sizeof(rank));
    size_t nwords;
    char **words = request_words(pd, "unpublish", proc, rank, NULL, 0, keys, &nwords);
    pending_t proto = {.op_cb = cbfunc, .cbdata = cbdata};
    if ((NULL == words || !ask(pd, words, nwords, op_answer, &proto)) && NULL != cbfunc) {
        cbfunc(PMIX_ERR_UNREACH, cbdata);
    }
    free(words);
}

void pubsub_daemon_forget(pubsub_daemon_t *pd, const pmix_proc_t *proc)
{
    char rank[16];
    proc_words(proc, rank, sizeof(rank));
    size_t nwords;
    char **words = request_words(pd, "forget", proc, rank, NULL, 0, NULL, &nwords);
    pending_t proto = {.op_cb = NULL};
    if (NULL != words) {
        ask(pd, words, nwords, op_answer, &proto);
    }
    free(words);
}

/* ---- another job's data ---------------------------------------------------- */

static void modex_answer(pending_t *p, const wire_msg_t *answer)
{
    pmix_status_t rc = status_of(answer);
    char *blob = NULL;
    size_t len = PMIX_SUCCESS == rc && answer->nwords > 1 ? strlen(answer->words[1]) / 2 : 0;
    if (len > 0 && NULL == (blob = malloc(len))) {
        rc = PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; NULL != blob && i < len; i++) {
        unsigned byte;
        if (1 != sscanf(answer->words[1] + 2 * i, "%2x", &byte)) {
            rc = PMIX_ERR_UNPACK_FAILURE;
            break;
        }
        blob[i] = (char)byte;
    }
    if (PMIX_SUCCESS != rc) {
        free(blob);
        blob = NULL;
        len = 0;
    }
    p->modex_cb(rc, blob, len, p->cbdata, free, blob);
}

void pubsub_daemon_modex(pubsub_daemon_t *pd, const pmix_proc_t *proc, pmix_modex_cbfunc_t cbfunc,
                         void *cbdata)
{
    char rank[16];
    proc_words(proc, rank, sizeof(rank));
    size_t nwords;
    char **words = request_words(pd, "modex", proc, rank, NULL, 0, NULL, &nwords);
    pending_t proto = {.modex_cb = cbfunc, .cbdata = cbdata};
    if (NULL == words || !ask(pd, words, nwords, modex_answer, &proto)) {
        cbfunc(PMIX_ERR_UNREACH, NULL, 0, cbdata, NULL, NULL);
    }
    free(words);
}

/* ---- connect across jobs ------------------------------------------------ */

/* Register another job's description (the hex of a PMIX_DATA_ARRAY of
 * infos) with the server, or count it again: no process of it is the
 * server's client. */
static pmix_status_t register_other(pubsub_daemon_t *pd, const char *nspace, const char *hex)
{
    size_t len = strnlen(nspace, PMIX_MAX_NSLEN + 1);
    if (0 == len || len > PMIX_MAX_NSLEN) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_value_t value;
    PMIX_VALUE_CONSTRUCT(&value);
    pmix_status_t rc = hex_value(hex, &value);
    if (PMIX_SUCCESS == rc && (PMIX_DATA_ARRAY != value.type || NULL == value.data.darray ||
                               PMIX_INFO != value.data.darray->type)) {
        rc = PMIX_ERR_UNPACK_FAILURE;
    }
    if (PMIX_SUCCESS == rc) {
        rc = foreign_connected(pd->foreign, nspace, value.data.darray->array,
                               value.data.darray->size);
    }
    PMIX_VALUE_DESTRUCT(&value);
    return rc;
}

/* "ok" and NSPACE HEX for each other job (none for a disconnect), or
 * "error STATUS". */
static void connect_answer(pending_t *p, const wire_msg_t *answer)
{
    pmix_status_t rc = status_of(answer);
    size_t done = 1;
    while (PMIX_SUCCESS == rc && done + 1 < answer->nwords) {
        rc = register_other(p->pd, answer->words[done], answer->words[done + 1]);
        done += PMIX_SUCCESS == rc ? 2 : 0;
    }
    /* A connect that fails holds none of the other jobs. */
    for (size_t i = 1; PMIX_SUCCESS != rc && i < done; i += 2) {
        foreign_release(p->pd->foreign, answer->words[i]);
    }
    if (PMIX_SUCCESS == rc && NULL != p->procs) {
        foreign_disconnected(p->pd->foreign, p->procs, p->nprocs);
    }
    if (NULL != p->op_cb) {
        p->op_cb(rc, p->cbdata);
    }
}

/* The hex of job's description, NULL when memory runs out. */
static char *description_hex(const launcher_job_t *job)
{
    pmix_info_t *info;
    size_t ninfo;
    if (PMIX_SUCCESS != jobinfo_describe(job, &info, &ninfo)) {
        return NULL;
    }
    pmix_data_array_t array = {.type = PMIX_INFO, .size = ninfo, .array = info};
    pmix_value_t value = {.type = PMIX_DATA_ARRAY, .data.darray = &array};
    char *hex = value_hex(&value);
    PMIX_INFO_FREE(info, ninfo);
    return hex;
}

/* Ask for a meeting of the runs of procs' jobs: "VERB JOB TIMEOUT N",
 * the participants, extra words, and the descriptions of the jobs mine.
 * False (proto's procs and group freed) when it could not be asked. */
static bool meet(pubsub_daemon_t *pd, const char *verb, const pmix_proc_t *procs, size_t nprocs,
                 int timeout, char *const *extra, size_t nextra, launcher_job_t *const *mine,
                 size_t nmine, answer_fn answer, pending_t *proto)
{
    size_t nwords = 4 + 2 * nprocs + nextra + 2 * nmine;
    char **words = calloc(nwords, sizeof(*words));
    char(*ranks)[16] = malloc(nprocs * sizeof(*ranks));
    char secs[16], count[24];
    bool ok = NULL != words && NULL != ranks;
    snprintf(secs, sizeof(secs), "%d", timeout > 0 ? timeout : 0);
    snprintf(count, sizeof(count), "%zu", nprocs);
    if (ok) {
        words[0] = (char *)verb;
        words[1] = pd->job;
        words[2] = secs;
        words[3] = count;
    }
    for (size_t i = 0; ok && i < nextra; i++) {
        words[4 + 2 * nprocs + i] = extra[i];
    }
    for (size_t i = 0; ok && i < nprocs; i++) {
        proc_words(&procs[i], ranks[i], sizeof(ranks[i]));
        words[4 + 2 * i] = (char *)procs[i].nspace;
        words[5 + 2 * i] = ranks[i];
    }
    char **desc = ok ? words + 4 + 2 * nprocs + nextra : NULL;
    for (size_t j = 0; ok && j < nmine; j++) {
        desc[2 * j] = mine[j]->nspace;
        ok = NULL != (desc[2 * j + 1] = description_hex(mine[j]));
    }
    bool asked = ok && ask(pd, words, nwords, answer, proto);
    if (!ok) {
        free(proto->procs);
        free(proto->group);
    }
    for (size_t j = 0; NULL != desc && j < nmine; j++) {
        free(desc[2 * j + 1]);
    }
    free(words);
    free(ranks);
    return asked;
}

void pubsub_daemon_connect(pubsub_daemon_t *pd, const pmix_proc_t *procs, size_t nprocs,
                           launcher_job_t *const *mine, size_t nmine, int timeout, bool disconnect,
                           pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pending_t proto = {.op_cb = cbfunc, .cbdata = cbdata};
    /* A disconnect's answer names nobody: its participants are kept. */
    bool ok = !disconnect || NULL != (proto.procs = host_copy_array(procs, nprocs, PMIX_PROC));
    proto.nprocs = disconnect ? nprocs : 0;
    if (!ok || !meet(pd, disconnect ? "disconnect" : "connect", procs, nprocs, timeout, NULL, 0,
                     mine, disconnect ? 0 : nmine, connect_answer, &proto)) {
        cbfunc(PMIX_ERR_UNREACH, cbdata);
    }
}

/* ---- groups across jobs ------------------------------------------------- */

/* A construct's results, released by the server once it has copied them. */
typedef struct results {
    pmix_info_t *info;
    size_t n;
} results_t;

static void results_release(void *arg)
{
    results_t *r = arg;
    PMIX_INFO_FREE(r->info, r->n);
    free(r);
}

/* From "ok CONTEXT N ENDPOINTS×N ...": PMIX_GROUP_CONTEXT_ID (unless
 * CONTEXT is "-") and a PMIX_GROUP_ENDPT_DATA per run that gave any,
 * into *out; *nwords, the words read. */
static pmix_status_t construct_results(const wire_msg_t *answer, results_t *out, size_t *nwords)
{
    char *end;
    unsigned long long n = answer->nwords >= 3 ? strtoull(answer->words[2], &end, 10) : 0;
    if (answer->nwords < 3 || '\0' != *end || n > answer->nwords - 3) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    *nwords = 3 + (size_t)n;
    PMIX_INFO_CREATE(out->info, 1 + (size_t)n);
    if (NULL == out->info) {
        return PMIX_ERR_NOMEM;
    }
    const char *context = answer->words[1];
    if (0 != strcmp(context, "-")) {
        size_t id = (size_t)strtoull(context, &end, 10);
        if ('\0' != *end) {
            return PMIX_ERR_UNPACK_FAILURE;
        }
        PMIX_INFO_LOAD(&out->info[out->n++], PMIX_GROUP_CONTEXT_ID, &id, PMIX_SIZE);
    }
    for (size_t i = 0; i < n; i++) {
        const char *hex = answer->words[3 + i];
        pmix_value_t value;
        PMIX_VALUE_CONSTRUCT(&value);
        pmix_status_t rc = 0 == strcmp(hex, "-") ? PMIX_SUCCESS : hex_value(hex, &value);
        if (PMIX_SUCCESS == rc && PMIX_BYTE_OBJECT == value.type) {
            PMIX_INFO_LOAD(&out->info[out->n++], PMIX_GROUP_ENDPT_DATA, &value.data.bo,
                           PMIX_BYTE_OBJECT);
        } else if (PMIX_SUCCESS == rc && PMIX_UNDEF != value.type) {
            rc = PMIX_ERR_UNPACK_FAILURE;
        }
        PMIX_VALUE_DESTRUCT(&value);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    return PMIX_SUCCESS;
}

/* A construct: "ok CONTEXT N ENDPOINTS... [NSPACE HEX]...", or "error
 * STATUS"; a destruct: "ok", or "error STATUS". */
static void group_answer(pending_t *p, const wire_msg_t *answer)
{
    pmix_status_t rc = status_of(answer);
    results_t *results = NULL;
    size_t first = 1;
    if (PMIX_SUCCESS == rc && p->construct) {
        results = calloc(1, sizeof(*results));
        rc = NULL == results ? PMIX_ERR_NOMEM : construct_results(answer, results, &first);
    }
    size_t done = first;
    while (PMIX_SUCCESS == rc && done + 1 < answer->nwords) {
        rc = register_other(p->pd, answer->words[done], answer->words[done + 1]);
        done += PMIX_SUCCESS == rc ? 2 : 0;
    }
    /* The group holds the other jobs now, before the meeting lets go of
     * them (its server tells of the group later: foreign_group again). */
    if (PMIX_SUCCESS == rc && p->construct) {
        foreign_group(p->pd->foreign, p->group, p->procs, p->nprocs);
    }
    for (size_t i = first; i < done; i += 2) {
        foreign_release(p->pd->foreign, answer->words[i]);
    }
    if (PMIX_SUCCESS != rc && NULL != results) {
        results_release(results);
        results = NULL;
    }
    if (NULL == results) {
        p->info_cb(rc, NULL, 0, p->cbdata, NULL, NULL);
    } else {
        p->info_cb(rc, results->info, results->n, p->cbdata, results_release, results);
    }
}

/* What the run's members gave, in hex, or "-"; NULL when memory runs out. */
static char *endpoints_hex(const pmix_info_t *info, size_t ninfo)
{
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_GROUP_ENDPT_DATA) &&
            PMIX_BYTE_OBJECT == info[i].value.type) {
            return value_hex(&info[i].value);
        }
    }
    return strdup("-");
}

void pubsub_daemon_group_op(pubsub_daemon_t *pd, bool destruct, const char *name,
                            const pmix_proc_t *procs, size_t nprocs, launcher_job_t *const *mine,
                            size_t nmine, const pmix_info_t *info, size_t ninfo,
                            pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    pending_t proto = {
        .info_cb = cbfunc, .cbdata = cbdata, .nprocs = nprocs, .construct = !destruct};
    char *endpoints = destruct ? NULL : endpoints_hex(info, ninfo);
    char *extra[] = {(char *)name,
                     directive_flag(info, ninfo, PMIX_GROUP_ASSIGN_CONTEXT_ID) ? "1" : "0",
                     endpoints};
    bool ok = (destruct || NULL != endpoints) &&
              NULL != (proto.procs = host_copy_array(procs, nprocs, PMIX_PROC)) &&
              NULL != (proto.group = strdup(name));
    if (!ok) {
        free(proto.procs);
        free(proto.group);
    }
    ok = ok && meet(pd, destruct ? "group-destruct" : "group-construct", procs, nprocs,
                    directive_timeout(info, ninfo), extra, destruct ? 1 : 3, mine,
                    destruct ? 0 : nmine, group_answer, &proto);
    free(endpoints);
    if (!ok) {
        cbfunc(PMIX_ERR_UNREACH, NULL, 0, cbdata, NULL, NULL);
    }
}

void pubsub_daemon_destroy(pubsub_daemon_t *pd)
{
    if (NULL == pd) {
        return;
    }
    while (NULL != pd->pending) {
        pending_t *p = pd->pending;
        p->answer(p, NULL);
        pending_free(p);
    }
    foreign_destroy(pd->foreign);
    free(pd);
}

void pubsub_daemon_group(pubsub_daemon_t *pd, const char *name, const pmix_proc_t *members,
                         size_t n)
{
    foreign_group(pd->foreign, name, members, n);
}
