/*
 * event.c - PMIx_Register_event_handler, PMIx_Deregister_event_handler
 * and PMIx_Notify_event: a client's event handlers and the events it
 * raises.
 *
 * Design notes:
 *  - Handlers live here, not at the server: the server sends each event
 *    to every client in its range and the client picks the handlers.
 *  - The chain for one event runs in the progress thread, in PMIx's
 *    order: the handler registered with PMIX_EVENT_HDLR_FIRST, handlers
 *    for that single code, handlers for several codes including it,
 *    default handlers (unless the event says PMIX_EVENT_NON_DEFAULT), and
 *    the PMIX_EVENT_HDLR_LAST one. Within a category, PMIX_EVENT_HDLR_
 *    PREPEND / FIRST_IN_CATEGORY go to the front, others to the back.
 *  - Each handler passes the baton by calling the cbfunc it was given; the
 *    next handler is started from the progress thread's queue, never from
 *    inside that call, so long chains do not grow the stack.
 *    PMIX_EVENT_ACTION_COMPLETE ends the chain; results accumulate and
 *    are shown to later handlers.
 *  - A process does not receive its own event back from the server; it
 *    runs its own handlers only for PMIX_RANGE_PROC_LOCAL events.
 *  - A server's host may register handlers as well (Open MPI's mpirun
 *    waits for the registration callback, which then runs in the server's
 *    thread); the server finalizing forgets them.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "pmix.h"
#include "role.h"
#include "server_entry.h"

typedef enum { CAT_FIRST, CAT_SINGLE, CAT_MULTI, CAT_DEFAULT, CAT_LAST, NCATS } category_t;

typedef struct handler {
    size_t id;
    pmix_status_t *codes;
    size_t ncodes;
    pmix_notification_fn_t fn;
    void *return_object;
    bool has_return_object;
    category_t cat;
    long order;                  /* position within the category */
    struct handler *next;
} handler_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static handler_t *handlers;
static size_t next_id;
static long front = 0, back = 0;

typedef struct step {
    size_t id;
    pmix_notification_fn_t fn;
    void *return_object;
    bool has_return_object;
} step_t;

typedef struct chain {
    pmix_status_t code;
    pmix_proc_t source;
    pmix_info_t *info;           /* the event's info and one spare slot */
    size_t ninfo;
    step_t *steps;
    size_t nsteps, next;
    pmix_info_t *results;
    size_t nresults;
    bool done;
} chain_t;

static bool matches(const handler_t *h, pmix_status_t code)
{
    for (size_t i = 0; i < h->ncodes; i++) {
        if (h->codes[i] == code) {
            return true;
        }
    }
    return 0 == h->ncodes;
}

static int compare_steps(const void *a, const void *b)
{
    const handler_t *x = *(handler_t *const *)a, *y = *(handler_t *const *)b;
    if (x->cat != y->cat) {
        return x->cat < y->cat ? -1 : 1;
    }
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The handlers for code in running order (lock held). */
static pmix_status_t build_steps(chain_t *c, bool non_default)
{
    size_t n = 0;
    for (handler_t *h = handlers; NULL != h; h = h->next) {
        n += matches(h, c->code) && !(non_default && CAT_DEFAULT == h->cat);
    }
    if (0 == n) {
        return PMIX_SUCCESS;
    }
    handler_t **list = malloc(n * sizeof(*list));
    if (NULL == list || NULL == (c->steps = calloc(n, sizeof(*c->steps)))) {
        free(list);
        return PMIX_ERR_NOMEM;
    }
    size_t k = 0;
    for (handler_t *h = handlers; NULL != h; h = h->next) {
        if (matches(h, c->code) && !(non_default && CAT_DEFAULT == h->cat)) {
            list[k++] = h;
        }
    }
    qsort(list, n, sizeof(*list), compare_steps);
    for (size_t i = 0; i < n; i++) {
        c->steps[i] = (step_t){.id = list[i]->id, .fn = list[i]->fn,
                               .return_object = list[i]->return_object,
                               .has_return_object = list[i]->has_return_object};
    }
    c->nsteps = n;
    free(list);
    return PMIX_SUCCESS;
}

static void free_chain(chain_t *c)
{
    /* The spare slot holds at most a pointer: nothing to destruct. */
    PMIX_INFO_FREE(c->info, c->ninfo + 1);
    PMIX_INFO_FREE(c->results, c->nresults);
    free(c->steps);
    free(c);
}

static void run_next(void *arg);

/* The cbfunc a handler calls when it is done with the event. */
static void handler_done(pmix_status_t status, pmix_info_t *results, size_t nresults,
                         pmix_op_cbfunc_t cbfunc, void *thiscbdata, void *notification_cbdata)
{
    chain_t *c = notification_cbdata;
    if (nresults > 0 && NULL != results) {
        pmix_info_t *grown = realloc(c->results, (c->nresults + nresults) * sizeof(*grown));
        if (NULL != grown) {
            c->results = grown;
            for (size_t i = 0; i < nresults; i++) {
                PMIX_INFO_CONSTRUCT(&grown[c->nresults]);
                PMIx_Info_xfer(&grown[c->nresults++], &results[i]);
            }
        }
    }
    if (NULL != cbfunc) {
        cbfunc(PMIX_SUCCESS, thiscbdata);
    }
    c->done = PMIX_EVENT_ACTION_COMPLETE == status;
    if (PMIX_SUCCESS != client_post(run_next, c)) {
        free_chain(c);
    }
}

static void run_next(void *arg)
{
    chain_t *c = arg;
    if (c->done || c->next == c->nsteps) {
        free_chain(c);
        return;
    }
    const step_t *s = &c->steps[c->next++];
    size_t ninfo = c->ninfo;
    PMIX_INFO_DESTRUCT(&c->info[c->ninfo]);
    if (s->has_return_object) {
        PMIx_Info_load(&c->info[ninfo++], PMIX_EVENT_RETURN_OBJECT, s->return_object,
                       PMIX_POINTER);
    }
    s->fn(s->id, c->code, &c->source, c->info, ninfo, c->results, c->nresults, handler_done, c);
}

void event_run_local(pmix_status_t code, const pmix_proc_t *source, const pmix_info_t *info,
                     size_t ninfo)
{
    chain_t *c = calloc(1, sizeof(*c));
    if (NULL == c) {
        return;
    }
    c->code = code;
    c->source = *source;
    PMIX_INFO_CREATE(c->info, ninfo + 1);
    if (NULL == c->info) {
        free(c);
        return;
    }
    c->ninfo = ninfo;
    for (size_t i = 0; i < ninfo; i++) {
        PMIx_Info_xfer(&c->info[i], &info[i]);
    }
    pthread_mutex_lock(&lock);
    pmix_status_t rc = build_steps(c, client_flag(info, ninfo, PMIX_EVENT_NON_DEFAULT));
    pthread_mutex_unlock(&lock);
    if (PMIX_SUCCESS != rc || 0 == c->nsteps) {
        free_chain(c);
        return;
    }
    run_next(c);
}

void event_received(pmix_data_buffer_t *payload)
{
    pmix_status_t code;
    pmix_proc_t source;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    int32_t n = 1;

    if (PMIX_SUCCESS == PMIx_Data_unpack(NULL, payload, &code, &n, PMIX_STATUS) &&
        PMIX_SUCCESS == PMIx_Data_unpack(NULL, payload, &source, &n, PMIX_PROC) &&
        PMIX_SUCCESS == protocol_unpack_array(payload, PMIX_INFO, (void **)&info, &ninfo)) {
        event_run_local(code, &source, info, ninfo);
    }
    protocol_free_array(info, ninfo, PMIX_INFO);
}

void event_lost_connection(void)
{
    pmix_proc_t source;
    PMIX_LOAD_PROCID(&source, client.me.nspace, PMIX_RANK_WILDCARD);
    event_run_local(PMIX_ERR_LOST_CONNECTION, &source, NULL, 0);
}

void event_clear_all(void)
{
    pthread_mutex_lock(&lock);
    while (NULL != handlers) {
        handler_t *h = handlers;
        handlers = h->next;
        free(h->codes);
        free(h);
    }
    pthread_mutex_unlock(&lock);
}

/* ---- Registration ----------------------------------------------------- */

typedef struct reg_done {
    pmix_hdlr_reg_cbfunc_t fn;
    pmix_op_cbfunc_t op_fn;
    pmix_status_t status;
    size_t id;
    void *cbdata;
} reg_done_t;

static void run_reg_done(void *arg)
{
    reg_done_t *d = arg;
    if (NULL != d->fn) {
        d->fn(d->status, d->id, d->cbdata);
    } else {
        d->op_fn(d->status, d->cbdata);
    }
    free(d);
}

/* Call a registration callback from the progress thread. */
static pmix_status_t post_done(pmix_hdlr_reg_cbfunc_t fn, pmix_op_cbfunc_t op_fn,
                               pmix_status_t status, size_t id, void *cbdata)
{
    reg_done_t *d = malloc(sizeof(*d));
    if (NULL == d) {
        return PMIX_ERR_NOMEM;
    }
    *d = (reg_done_t){.fn = fn, .op_fn = op_fn, .status = status, .id = id, .cbdata = cbdata};
    pmix_status_t rc = client_post(run_reg_done, d);
    if (PMIX_SUCCESS != rc) {
        free(d);
    }
    return rc;
}

static void place(handler_t *h, const pmix_info_t *info, size_t ninfo)
{
    h->cat = 0 == h->ncodes ? CAT_DEFAULT : 1 == h->ncodes ? CAT_SINGLE : CAT_MULTI;
    if (client_flag(info, ninfo, PMIX_EVENT_HDLR_FIRST)) {
        h->cat = CAT_FIRST;
    } else if (client_flag(info, ninfo, PMIX_EVENT_HDLR_LAST)) {
        h->cat = CAT_LAST;
    }
    if (client_flag(info, ninfo, PMIX_EVENT_HDLR_FIRST_IN_CATEGORY)) {
        h->order = LONG_MIN;
    } else if (client_flag(info, ninfo, PMIX_EVENT_HDLR_LAST_IN_CATEGORY)) {
        h->order = LONG_MAX;
    } else if (client_flag(info, ninfo, PMIX_EVENT_HDLR_PREPEND)) {
        h->order = --front;
    } else {
        h->order = ++back;
    }
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], PMIX_EVENT_RETURN_OBJECT) &&
            PMIX_POINTER == info[i].value.type) {
            h->return_object = info[i].value.data.ptr;
            h->has_return_object = true;
        }
    }
}

PMIX_EXPORT pmix_status_t PMIx_Register_event_handler(pmix_status_t codes[], size_t ncodes,
                                                      pmix_info_t info[], size_t ninfo,
                                                      pmix_notification_fn_t evhdlr,
                                                      pmix_hdlr_reg_cbfunc_t cbfunc,
                                                      void *cbdata)
{
    handler_t *h;

    if (!client_local_ready()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == evhdlr || (NULL == codes && 0 != ncodes) || (NULL == info && 0 != ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (h = calloc(1, sizeof(*h))) ||
        (ncodes > 0 && NULL == (h->codes = malloc(ncodes * sizeof(*codes))))) {
        free(h);
        return PMIX_ERR_NOMEM;
    }
    if (ncodes > 0) {
        memcpy(h->codes, codes, ncodes * sizeof(*codes));
    }
    h->ncodes = ncodes;
    h->fn = evhdlr;
    pthread_mutex_lock(&lock);
    place(h, info, ninfo);
    h->id = next_id++;
    h->next = handlers;
    handlers = h;
    size_t id = h->id;
    pthread_mutex_unlock(&lock);
    if (NULL == cbfunc) {
        /* Blocking form: the id is the return value. */
        return (pmix_status_t)id;
    }
    pmix_status_t rc = post_done(cbfunc, NULL, PMIX_SUCCESS, id, cbdata);
    if (PMIX_SUCCESS != rc) {
        PMIx_Deregister_event_handler(id, NULL, NULL);
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Deregister_event_handler(size_t evhdlr_ref, pmix_op_cbfunc_t cbfunc,
                                                        void *cbdata)
{
    handler_t *found = NULL;

    if (!client_local_ready()) {
        return PMIX_ERR_INIT;
    }
    pthread_mutex_lock(&lock);
    for (handler_t **p = &handlers; NULL != *p; p = &(*p)->next) {
        if ((*p)->id == evhdlr_ref) {
            found = *p;
            *p = found->next;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    pmix_status_t status = NULL == found ? PMIX_ERR_NOT_FOUND : PMIX_SUCCESS;
    if (NULL != found) {
        free(found->codes);
        free(found);
    }
    if (NULL == cbfunc) {
        return status;
    }
    /* An unknown reference is reported through the callback, as OpenPMIx
     * does: programs wait for it whatever the outcome. */
    return post_done(NULL, cbfunc, status, 0, cbdata);
}

/* ---- Raising events --------------------------------------------------- */

typedef struct notify_op {
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
    pmix_status_t code;
    pmix_proc_t source;
    pmix_info_t *info;
    size_t ninfo;
} notify_op_t;

static void notify_answered(pmix_status_t status, pmix_data_buffer_t *reply, void *arg)
{
    notify_op_t *op = arg;
    if (NULL != op->cbfunc) {
        op->cbfunc(status, op->cbdata);
    }
    free(op);
}

static void notify_locally(void *arg)
{
    notify_op_t *op = arg;
    event_run_local(op->code, &op->source, op->info, op->ninfo);
    PMIX_INFO_FREE(op->info, op->ninfo);
    notify_answered(PMIX_SUCCESS, NULL, op);
}

PMIX_EXPORT pmix_status_t PMIx_Notify_event(pmix_status_t status, const pmix_proc_t *source,
                                            pmix_data_range_t range, const pmix_info_t info[],
                                            size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t msg;
    notify_op_t *op;
    pmix_status_t rc;

    if (NULL == info && 0 != ninfo) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (ROLE_SERVER == role_current()) {
        return server_entry_notify(status, source, range, info, ninfo, cbfunc, cbdata);
    }
    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == (op = calloc(1, sizeof(*op)))) {
        return PMIX_ERR_NOMEM;
    }
    *op = (notify_op_t){.cbfunc = cbfunc, .cbdata = cbdata, .code = status,
                        .source = NULL == source ? client.me : *source};
    if (PMIX_RANGE_PROC_LOCAL == range || client.singleton) {
        PMIX_INFO_CREATE(op->info, ninfo);
        op->ninfo = ninfo;
        for (size_t i = 0; i < ninfo; i++) {
            PMIx_Info_xfer(&op->info[i], &info[i]);
        }
        if (PMIX_SUCCESS != (rc = conn_post(notify_locally, op))) {
            PMIX_INFO_FREE(op->info, op->ninfo);
            free(op);
        }
        return rc;
    }
    PMIX_DATA_BUFFER_CONSTRUCT(&msg);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, &status, 1, PMIX_STATUS)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, &op->source, 1, PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, &range, 1, PMIX_DATA_RANGE)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)info, (int32_t)ninfo,
                                             PMIX_INFO))) {
        rc = conn_request(PROTOCOL_NOTIFY, &msg, 0, notify_answered, op);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&msg);
    if (PMIX_SUCCESS != rc) {
        free(op);
    }
    return rc;
}
