/*
 * iof.c - I/O forwarding for clients and tools: PMIx_IOF_pull,
 * PMIx_IOF_deregister and PMIx_IOF_push.
 *
 * Design notes:
 *  - A pull registers a handler here (its number is the reference the
 *    caller gets) and asks the server for the output; the server sends
 *    IOF messages naming the handlers whose pulls match, and the progress
 *    thread hands the bytes to each, or writes them to this process's
 *    stdout (stdout channel) or stderr (the others) when the handler has
 *    no callback. The handler is in place before the request goes out,
 *    so output racing the reply is not lost. The output of a job this
 *    tool spawned with PMIX_FWD_STDOUT and friends comes under a number
 *    of its own (PROTOCOL_IOF_FORWARDED) and is written likewise.
 *  - A push sends bytes for targets' stdin to the server, which hands
 *    them to its host. PMIX_IOF_PUSH_STDIN without bytes starts a thread
 *    that forwards this process's own stdin, chunk by chunk, until end of
 *    file (then PMIX_IOF_COMPLETE) or finalize.
 *  - In the server's own process a push goes straight to the host's
 *    push_stdin; a server pulls nothing (its host has the output).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "client.h"
#include "pmix.h"
#include "pmix_tool.h"
#include "role.h"
#include "server_entry.h"

#define PULLABLE (PMIX_FWD_ALL_CHANNELS & ~PMIX_FWD_STDIN_CHANNEL)
#define STDIN_CHUNK 4096

typedef struct iof_handler {
    size_t id;
    pmix_proc_t *procs;
    size_t nprocs;
    pmix_iof_channel_t channels;
    pmix_iof_cbfunc_t cbfunc;    /* NULL: write to stdout/stderr */
    struct iof_handler *next;
} iof_handler_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static iof_handler_t *handlers;
static size_t next_id;

static iof_handler_t *unlink_handler(size_t id)
{
    pthread_mutex_lock(&lock);
    for (iof_handler_t **h = &handlers; NULL != *h; h = &(*h)->next) {
        if ((*h)->id == id) {
            iof_handler_t *found = *h;
            *h = found->next;
            pthread_mutex_unlock(&lock);
            return found;
        }
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void free_handler(iof_handler_t *h)
{
    if (NULL != h) {
        free(h->procs);
        free(h);
    }
}

static void write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            return;
        }
        p += n;
        len -= (size_t)n;
    }
}

/* An IOF message: PMIX_SIZE[] handlers, PMIX_PROC source, PMIX_IOF_CHANNEL
 * channel, PMIX_BYTE_OBJECT data, PMIX_INFO[] info (progress thread). */
void iof_received(pmix_data_buffer_t *payload)
{
    size_t *ids = NULL, nids = 0, ninfo = 0;
    pmix_proc_t source;
    pmix_iof_channel_t channel;
    pmix_byte_object_t bo = {.bytes = NULL, .size = 0};
    pmix_info_t *info = NULL;
    int32_t n = 1;

    if (PMIX_SUCCESS == protocol_unpack_array(payload, PMIX_SIZE, (void **)&ids, &nids) &&
        PMIX_SUCCESS == PMIx_Data_unpack(NULL, payload, &source, &n, PMIX_PROC) &&
        PMIX_SUCCESS == PMIx_Data_unpack(NULL, payload, &channel, &n, PMIX_IOF_CHANNEL) &&
        PMIX_SUCCESS == PMIx_Data_unpack(NULL, payload, &bo, &n, PMIX_BYTE_OBJECT) &&
        PMIX_SUCCESS == protocol_unpack_array(payload, PMIX_INFO, (void **)&info, &ninfo)) {
        for (size_t i = 0; i < nids; i++) {
            pmix_iof_cbfunc_t fn = NULL;
            /* A spawn's forwarded output has no handler: it is written. */
            bool found = PROTOCOL_IOF_FORWARDED == ids[i];
            pthread_mutex_lock(&lock);
            for (const iof_handler_t *h = handlers; NULL != h && !found; h = h->next) {
                if (h->id == ids[i]) {
                    found = true;
                    fn = h->cbfunc;
                }
            }
            pthread_mutex_unlock(&lock);
            if (found && NULL != fn) {
                fn(ids[i], channel, &source, &bo, info, ninfo);
            } else if (found) {
                write_all(PMIX_FWD_STDOUT_CHANNEL == channel ? STDOUT_FILENO : STDERR_FILENO,
                          bo.bytes, bo.size);
            }
        }
    }
    free(ids);
    PMIX_BYTE_OBJECT_DESTRUCT(&bo);
    protocol_free_array(info, ninfo, PMIX_INFO);
}

/* ---- PMIx_IOF_pull -------------------------------------------------------- */

typedef struct pull_op {
    size_t id;
    pmix_hdlr_reg_cbfunc_t regcbfunc;
    void *regcbdata;
} pull_op_t;

static void pull_answered(pmix_status_t status, void *cbdata)
{
    pull_op_t *op = cbdata;
    if (PMIX_SUCCESS != status) {
        free_handler(unlink_handler(op->id));
    }
    op->regcbfunc(status, op->id, op->regcbdata);
    free(op);
}

typedef struct pull_wait {
    client_wait_t wait;
    size_t id;
} pull_wait_t;

static void pull_waited(pmix_status_t status, size_t id, void *cbdata)
{
    pull_wait_t *w = cbdata;
    w->id = id;
    client_wait_done(&w->wait, status);
}

PMIX_EXPORT pmix_status_t PMIx_IOF_pull(const pmix_proc_t procs[], size_t nprocs,
                                        const pmix_info_t directives[], size_t ndirs,
                                        pmix_iof_channel_t channel, pmix_iof_cbfunc_t cbfunc,
                                        pmix_hdlr_reg_cbfunc_t regcbfunc, void *regcbdata)
{
    pmix_data_buffer_t msg;
    iof_handler_t *h;
    pull_op_t *op;
    pmix_status_t rc;

    if (NULL == regcbfunc) {
        pull_wait_t w;
        if (conn_in_progress_thread()) {
            return PMIX_ERR_WOULD_BLOCK;
        }
        client_wait_init(&w.wait);
        rc = client_wait_started(&w.wait, PMIx_IOF_pull(procs, nprocs, directives, ndirs,
                                                        channel, cbfunc, pull_waited, &w));
        return PMIX_SUCCESS == rc ? (pmix_status_t)w.id : rc;
    }
    if (ROLE_SERVER == role_current()) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (PMIX_SUCCESS != (rc = client_can_ask())) {
        return rc;
    }
    if (NULL == procs || 0 == nprocs || (NULL == directives && 0 != ndirs) ||
        0 == (channel & PULLABLE)) {
        return PMIX_ERR_BAD_PARAM;
    }
    h = calloc(1, sizeof(*h));
    op = malloc(sizeof(*op));
    if (NULL == h || NULL == op || NULL == (h->procs = malloc(nprocs * sizeof(*procs)))) {
        free_handler(h);
        free(op);
        return PMIX_ERR_NOMEM;
    }
    memcpy(h->procs, procs, nprocs * sizeof(*procs));
    h->nprocs = nprocs;
    h->channels = channel & PULLABLE;
    h->cbfunc = cbfunc;
    pthread_mutex_lock(&lock);
    /* Numbers stay below INT32_MAX: the blocking form returns them. */
    h->id = next_id++ % INT32_MAX;
    h->next = handlers;
    handlers = h;
    pthread_mutex_unlock(&lock);
    *op = (pull_op_t){.id = h->id, .regcbfunc = regcbfunc, .regcbdata = regcbdata};
    PMIX_DATA_BUFFER_CONSTRUCT(&msg);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, &h->id, 1, PMIX_SIZE)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)procs, (int32_t)nprocs,
                                             PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, &h->channels, 1, PMIX_IOF_CHANNEL)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)directives, (int32_t)ndirs,
                                             PMIX_INFO))) {
        rc = client_request_op(PROTOCOL_IOF_PULL, &msg, directive_timeout(directives, ndirs),
                               pull_answered, op);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&msg);
    if (PMIX_SUCCESS != rc) {
        free_handler(unlink_handler(op->id));
        free(op);
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_IOF_deregister(size_t iofhdlr, const pmix_info_t directives[],
                                              size_t ndirs, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t msg;
    iof_handler_t *h;
    pmix_status_t rc;

    if (NULL == cbfunc) {
        client_wait_t wait;
        if (conn_in_progress_thread()) {
            return PMIX_ERR_WOULD_BLOCK;
        }
        client_wait_init(&wait);
        return client_wait_started(
            &wait, PMIx_IOF_deregister(iofhdlr, directives, ndirs, client_wait_op_cb, &wait));
    }
    if (!client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if (NULL == directives && 0 != ndirs) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (h = unlink_handler(iofhdlr))) {
        return PMIX_ERR_NOT_FOUND;
    }
    free_handler(h);
    PMIX_DATA_BUFFER_CONSTRUCT(&msg);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, &iofhdlr, 1, PMIX_SIZE)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)directives, (int32_t)ndirs,
                                             PMIX_INFO))) {
        rc = client_request_op(PROTOCOL_IOF_DEREGISTER, &msg, directive_timeout(directives, ndirs),
                               cbfunc, cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&msg);
    return rc;
}

/* ---- PMIx_IOF_push -------------------------------------------------------- */

/* IOF_PUSH: PMIX_PROC[] targets, PMIX_BYTE_OBJECT[] data (one), PMIX_INFO[]
 * directives. */
static pmix_status_t send_push(const pmix_proc_t *targets, size_t ntargets,
                               const pmix_byte_object_t *bo, const pmix_info_t *dirs,
                               size_t ndirs, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_data_buffer_t msg;
    pmix_status_t rc;

    PMIX_DATA_BUFFER_CONSTRUCT(&msg);
    if (PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)targets, (int32_t)ntargets,
                                             PMIX_PROC)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)bo, 1, PMIX_BYTE_OBJECT)) &&
        PMIX_SUCCESS == (rc = PMIx_Data_pack(NULL, &msg, (void *)dirs, (int32_t)ndirs,
                                             PMIX_INFO))) {
        rc = client_request_op(PROTOCOL_IOF_PUSH, &msg, directive_timeout(dirs, ndirs), cbfunc,
                               cbdata);
    }
    PMIX_DATA_BUFFER_DESTRUCT(&msg);
    return rc;
}

/* The forwarding of this process's own stdin. */
static struct {
    bool running;
    pthread_t thread;
    int stop_fd;
    pmix_proc_t *targets;
    size_t ntargets;
} forward = {.stop_fd = -1};

static void pushed(pmix_status_t status, void *cbdata)
{
}

static void *forward_stdin(void *arg)
{
    char buf[STDIN_CHUNK];
    pmix_info_t complete;

    for (;;) {
        struct pollfd fds[2] = {{.fd = STDIN_FILENO, .events = POLLIN},
                                {.fd = forward.stop_fd, .events = POLLIN}};
        if (poll(fds, 2, -1) < 0) {
            if (EINTR == errno) {
                continue;
            }
            break;
        }
        if (fds[1].revents & POLLIN) {
            return NULL; /* finalize: no end of input to announce */
        }
        ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
        if (n < 0 && EINTR == errno) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        pmix_byte_object_t bo = {.bytes = buf, .size = (size_t)n};
        if (PMIX_SUCCESS != send_push(forward.targets, forward.ntargets, &bo, NULL, 0, pushed,
                                      NULL)) {
            return NULL;
        }
    }
    pmix_byte_object_t none = {.bytes = NULL, .size = 0};
    PMIX_INFO_LOAD(&complete, PMIX_IOF_COMPLETE, NULL, PMIX_BOOL);
    send_push(forward.targets, forward.ntargets, &none, &complete, 1, pushed, NULL);
    PMIX_INFO_DESTRUCT(&complete);
    return NULL;
}

static pmix_status_t start_forwarding(const pmix_proc_t *targets, size_t ntargets)
{
    if (forward.running) {
        return PMIX_ERR_EXISTS;
    }
    if (NULL == (forward.targets = malloc(ntargets * sizeof(*targets)))) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(forward.targets, targets, ntargets * sizeof(*targets));
    forward.ntargets = ntargets;
    if ((forward.stop_fd = eventfd(0, EFD_CLOEXEC)) < 0 ||
        0 != pthread_create(&forward.thread, NULL, forward_stdin, NULL)) {
        if (forward.stop_fd >= 0) {
            close(forward.stop_fd);
        }
        forward.stop_fd = -1;
        free(forward.targets);
        forward.targets = NULL;
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    forward.running = true;
    return PMIX_SUCCESS;
}

static void stop_forwarding(void)
{
    uint64_t one = 1;

    if (!forward.running) {
        return;
    }
    while (write(forward.stop_fd, &one, sizeof(one)) < 0 && EINTR == errno) {
    }
    pthread_join(forward.thread, NULL);
    close(forward.stop_fd);
    forward.stop_fd = -1;
    free(forward.targets);
    forward.targets = NULL;
    forward.running = false;
}

typedef struct push_done {
    pmix_op_cbfunc_t cbfunc;
    void *cbdata;
} push_done_t;

static void report_started(void *arg)
{
    push_done_t *d = arg;
    d->cbfunc(PMIX_SUCCESS, d->cbdata);
    free(d);
}

PMIX_EXPORT pmix_status_t PMIx_IOF_push(const pmix_proc_t targets[], size_t ntargets,
                                        pmix_byte_object_t *bo, const pmix_info_t directives[],
                                        size_t ndirs, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    pmix_byte_object_t none = {.bytes = NULL, .size = 0};
    pmix_status_t rc;

    if (NULL == cbfunc) {
        client_wait_t wait;
        if (conn_in_progress_thread()) {
            return PMIX_ERR_WOULD_BLOCK;
        }
        client_wait_init(&wait);
        return client_wait_started(&wait, PMIx_IOF_push(targets, ntargets, bo, directives,
                                                        ndirs, client_wait_op_cb, &wait));
    }
    if (NULL == targets || 0 == ntargets || (NULL == directives && 0 != ndirs) ||
        (NULL != bo && NULL == bo->bytes && 0 != bo->size)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == bo && !client_flag(directives, ndirs, PMIX_IOF_PUSH_STDIN) &&
        !client_flag(directives, ndirs, PMIX_IOF_COMPLETE)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (ROLE_SERVER == role_current()) {
        return server_entry_iof_push(targets, ntargets, NULL == bo ? &none : bo, directives,
                                     ndirs, cbfunc, cbdata);
    }
    if (PMIX_SUCCESS != (rc = client_can_ask())) {
        return rc;
    }
    if (NULL != bo || !client_flag(directives, ndirs, PMIX_IOF_PUSH_STDIN)) {
        return send_push(targets, ntargets, NULL == bo ? &none : bo, directives, ndirs, cbfunc,
                         cbdata);
    }
    push_done_t *d = malloc(sizeof(*d));
    if (NULL == d) {
        return PMIX_ERR_NOMEM;
    }
    *d = (push_done_t){.cbfunc = cbfunc, .cbdata = cbdata};
    if (PMIX_SUCCESS != (rc = start_forwarding(targets, ntargets))) {
        free(d);
    } else if (PMIX_SUCCESS != (rc = conn_post(report_started, d))) {
        stop_forwarding();
        free(d);
    }
    return rc;
}

void iof_forget_all(void)
{
    stop_forwarding();
    pthread_mutex_lock(&lock);
    while (NULL != handlers) {
        iof_handler_t *h = handlers;
        handlers = h->next;
        free_handler(h);
    }
    pthread_mutex_unlock(&lock);
}
