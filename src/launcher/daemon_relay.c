/*
 * daemon_relay.c - PMIx_Job_control directives and PMIx_Query_info keys
 *                  that the daemon passes to a job's run, which carries
 *                  them out as for a tool of its own server.
 *
 * Design notes:
 *  - The daemon knows its jobs from outside (state, pids, exit status);
 *    what only the run knows (pausing and resuming its ranks, checkpoint
 *    and preemptible marks, the job's size, process sets, groups, time
 *    left...) is asked of the run on the job's control socket (fd 4 of
 *    the run, a SOCK_SEQPACKET socketpair: one message each way).
 *  - A request is "jobctl ID\n" followed by two packed pmix_value_t (data
 *    arrays of the targets, PMIX_PROC, and the directives, PMIX_INFO), or
 *    "query ID\n" and one (a data array of one PMIX_QUERY). The run
 *    answers "relayed ID STATUS\n" and a data array of PMIX_INFO: the
 *    results (none for job control). Values are packed with
 *    PMIx_Data_pack, so every datatype a directive may carry passes.
 *  - The run carries a request out with control.c and query.c as it does
 *    for its own clients and tools (the requester is its job).
 *  - Every request is answered once: by the run, by PMIX_ERR_TIMEOUT
 *    after RELAY_TIMEOUT seconds, by PMIX_ERR_UNREACH when its job ends
 *    or the daemon stops.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <event2/event.h>

#include "daemon.h"
#include "launcher.h"
#include "pmix.h"

#define RELAY_TIMEOUT 30

/* ---- messages ------------------------------------------------------------ */

pmix_status_t daemon_relay_pack(const char *header, pmix_value_t *values, size_t n, char **msg,
                                size_t *len)
{
    pmix_data_buffer_t buf;
    pmix_byte_object_t bo = {NULL, 0};
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    pmix_status_t rc = PMIX_SUCCESS;
    /* One by one, as daemon_relay_unpack unpacks them. */
    for (size_t i = 0; PMIX_SUCCESS == rc && i < n; i++) {
        rc = PMIx_Data_pack(NULL, &buf, &values[i], 1, PMIX_VALUE);
    }
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Data_unload(&buf, &bo);
    }
    size_t hlen = strlen(header);
    if (PMIX_SUCCESS == rc && NULL == (*msg = malloc(hlen + bo.size))) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS == rc) {
        memcpy(*msg, header, hlen);
        if (bo.size > 0) {
            memcpy(*msg + hlen, bo.bytes, bo.size);
        }
        *len = hlen + bo.size;
    }
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    return rc;
}

pmix_status_t daemon_relay_unpack(const char *msg, size_t len, pmix_value_t *values, size_t n,
                                  const pmix_data_type_t *types)
{
    const char *body = memchr(msg, '\n', len);
    if (NULL == body) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    body++;
    pmix_byte_object_t bo = {NULL, len - (size_t)(body - msg)};
    if (0 == bo.size || NULL == (bo.bytes = malloc(bo.size))) {
        return 0 == bo.size ? PMIX_ERR_UNPACK_FAILURE : PMIX_ERR_NOMEM;
    }
    memcpy(bo.bytes, body, bo.size);
    pmix_data_buffer_t buf;
    PMIX_DATA_BUFFER_CONSTRUCT(&buf);
    pmix_status_t rc = PMIx_Data_load(&buf, &bo);
    if (PMIX_SUCCESS != rc) {
        PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    }
    size_t got = 0;
    for (; PMIX_SUCCESS == rc && got < n; got++) {
        int32_t one = 1;
        PMIX_VALUE_CONSTRUCT(&values[got]);
        rc = PMIx_Data_unpack(NULL, &buf, &values[got], &one, PMIX_VALUE);
        if (PMIX_SUCCESS == rc &&
            (PMIX_DATA_ARRAY != values[got].type || NULL == values[got].data.darray ||
             types[got] != values[got].data.darray->type)) {
            rc = PMIX_ERR_UNPACK_FAILURE;
        }
    }
    if (PMIX_SUCCESS != rc) {
        for (size_t i = 0; i < got; i++) {
            PMIX_VALUE_DESTRUCT(&values[i]);
        }
    }
    PMIX_DATA_BUFFER_DESTRUCT(&buf);
    return rc;
}

pmix_value_t daemon_relay_array(pmix_data_array_t *array, void *items, size_t n,
                                pmix_data_type_t type)
{
    *array = (pmix_data_array_t){.type = type, .size = n, .array = 0 == n ? NULL : items};
    return (pmix_value_t){.type = PMIX_DATA_ARRAY, .data.darray = array};
}

/* ---- the daemon's side -------------------------------------------------- */

typedef struct relay {
    struct relay *next;
    unsigned long id;
    unsigned job;
    daemon_relay_fn fn;
    void *arg;
    struct event *timer;
} relay_t;

static relay_t *relays;
static unsigned long next_id;

static void finish(relay_t *r, pmix_status_t status, const pmix_info_t *info, size_t ninfo)
{
    for (relay_t **p = &relays; NULL != *p; p = &(*p)->next) {
        if (*p == r) {
            *p = r->next;
            break;
        }
    }
    if (NULL != r->timer) {
        event_free(r->timer);
    }
    r->fn(status, info, ninfo, r->arg);
    free(r);
}

static void on_timeout(evutil_socket_t fd, short what, void *arg)
{
    finish(arg, PMIX_ERR_TIMEOUT, NULL, 0);
}

/* Send "verb ID\n" and values to job id's run; fn gets its answer. */
static pmix_status_t send_request(daemon_jobs_t *jobs, struct event_base *base, unsigned id,
                                  const char *verb, pmix_value_t *values, size_t n,
                                  daemon_relay_fn fn, void *arg)
{
    relay_t *r = calloc(1, sizeof(*r));
    char header[64], *msg = NULL;
    size_t len = 0;
    if (NULL == r) {
        return PMIX_ERR_NOMEM;
    }
    snprintf(header, sizeof(header), "%s %lu\n", verb, ++next_id);
    struct timeval tv = {RELAY_TIMEOUT, 0};
    pmix_status_t rc = daemon_relay_pack(header, values, n, &msg, &len);
    if (PMIX_SUCCESS == rc && (NULL == (r->timer = evtimer_new(base, on_timeout, r)) ||
                               0 != evtimer_add(r->timer, &tv))) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS == rc && 0 != daemon_jobs_control_bytes(jobs, id, msg, len)) {
        rc = PMIX_ERR_UNREACH;
    }
    free(msg);
    if (PMIX_SUCCESS != rc) {
        if (NULL != r->timer) {
            event_free(r->timer);
        }
        free(r);
        return rc;
    }
    *r = (relay_t){
        .next = relays, .id = next_id, .job = id, .fn = fn, .arg = arg, .timer = r->timer};
    relays = r;
    return PMIX_SUCCESS;
}

pmix_status_t daemon_relay_control(daemon_jobs_t *jobs, struct event_base *base, unsigned id,
                                   const pmix_proc_t *targets, size_t ntargets,
                                   const pmix_info_t *dirs, size_t ndirs, daemon_relay_fn fn,
                                   void *arg)
{
    pmix_data_array_t arrays[2];
    pmix_value_t values[2] = {
        daemon_relay_array(&arrays[0], (void *)targets, ntargets, PMIX_PROC),
        daemon_relay_array(&arrays[1], (void *)dirs, ndirs, PMIX_INFO),
    };
    return send_request(jobs, base, id, "jobctl", values, 2, fn, arg);
}

pmix_status_t daemon_relay_query(daemon_jobs_t *jobs, struct event_base *base, unsigned id,
                                 const pmix_query_t *query, daemon_relay_fn fn, void *arg)
{
    pmix_data_array_t array;
    pmix_value_t value = daemon_relay_array(&array, (void *)query, 1, PMIX_QUERY);
    return send_request(jobs, base, id, "query", &value, 1, fn, arg);
}

void daemon_relay_answered(const char *msg, size_t len)
{
    unsigned long id;
    int status;
    if (2 != sscanf(msg, "relayed %lu %d", &id, &status)) {
        return;
    }
    for (relay_t *r = relays; NULL != r; r = r->next) {
        if (r->id != id) {
            continue;
        }
        pmix_value_t results;
        static const pmix_data_type_t type = PMIX_INFO;
        if (PMIX_SUCCESS != daemon_relay_unpack(msg, len, &results, 1, &type)) {
            finish(r, PMIX_ERR_UNPACK_FAILURE, NULL, 0);
            return;
        }
        finish(r, status, results.data.darray->array, results.data.darray->size);
        PMIX_VALUE_DESTRUCT(&results);
        return;
    }
}

void daemon_relay_job_ended(unsigned job)
{
    for (relay_t *r = relays, *next; NULL != r; r = next) {
        next = r->next;
        if (r->job == job) {
            finish(r, PMIX_ERR_UNREACH, NULL, 0);
        }
    }
}

void daemon_relay_cancel(void)
{
    while (NULL != relays) {
        finish(relays, PMIX_ERR_UNREACH, NULL, 0);
    }
}

/* ---- the run's side ----------------------------------------------------- */

typedef struct answer_to {
    int fd;
    unsigned long id;
} answer_to_t;

/* "relayed ID STATUS\n" and the results, on the control socket. */
static void answer(const answer_to_t *to, pmix_status_t status, pmix_info_t *info, size_t ninfo)
{
    char header[64], *msg = NULL;
    size_t len = 0;
    pmix_data_array_t array;
    pmix_value_t value = daemon_relay_array(&array, info, ninfo, PMIX_INFO);
    snprintf(header, sizeof(header), "relayed %lu %d\n", to->id, (int)status);
    if (PMIX_SUCCESS != daemon_relay_pack(header, &value, 1, &msg, &len)) {
        snprintf(header, sizeof(header), "relayed %lu %d\n", to->id, (int)PMIX_ERR_NOMEM);
        value = daemon_relay_array(&array, NULL, 0, PMIX_INFO);
        if (PMIX_SUCCESS != daemon_relay_pack(header, &value, 1, &msg, &len)) {
            return; /* the daemon's timer answers */
        }
    }
    /* One message; a daemon gone is the run's end anyway. */
    (void)send(to->fd, msg, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    free(msg);
}

static void query_answered(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                           pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    answer(cbdata, status, info, ninfo);
    if (NULL != release_fn) {
        release_fn(release_cbdata);
    }
}

bool daemon_relay_serve(launcher_t *run, const launcher_job_t *job, int fd, const char *msg,
                        size_t len)
{
    answer_to_t to = {.fd = fd};
    bool control = 1 == sscanf(msg, "jobctl %lu", &to.id);
    if (!control && 1 != sscanf(msg, "query %lu", &to.id)) {
        return false;
    }
    static const pmix_data_type_t control_types[2] = {PMIX_PROC, PMIX_INFO};
    static const pmix_data_type_t query_type = PMIX_QUERY;
    pmix_value_t values[2];
    pmix_proc_t requester;
    PMIX_LOAD_PROCID(&requester, job->nspace, PMIX_RANK_WILDCARD);
    pmix_status_t rc = daemon_relay_unpack(msg, len, values, control ? 2 : 1,
                                           control ? control_types : &query_type);
    if (PMIX_SUCCESS != rc) {
        answer(&to, rc, NULL, 0);
        return true;
    }
    const pmix_data_array_t *a = values[0].data.darray;
    if (control) {
        const pmix_data_array_t *d = values[1].data.darray;
        answer(&to,
               0 == a->size ? PMIX_ERR_BAD_PARAM
                            : control_job(run, &requester, a->array, a->size, d->array, d->size),
               NULL, 0);
        PMIX_VALUE_DESTRUCT(&values[1]);
    } else {
        /* query.c answers at once: to outlives the call. */
        query_answer(run, &requester, a->array, a->size, query_answered, &to);
    }
    PMIX_VALUE_DESTRUCT(&values[0]);
    return true;
}
