/*
 * conn.c - the client's connections to its server and its progress
 * thread.
 *
 * Design notes:
 *  - Requests are written by the calling thread itself, so a request
 *    costs no thread hand-off on the way out.
 *  - The main connection is read by one progress thread, which polls it
 *    and an eventfd. It matches replies to requests by tag, runs event
 *    handlers, expires requests whose PMIX_TIMEOUT has passed, and runs
 *    work posted by other threads (callbacks PMIx says must not run in
 *    the caller's thread).
 *  - A second, direct connection serves blocking calls: the calling
 *    thread sends its request there and reads the reply itself, so the
 *    reply wakes one thread instead of two (on a loaded node that halves
 *    a fence's cost). One thread at a time owns it (sync_lock, taken
 *    with trylock); a blocking call made while another thread owns it
 *    uses the main connection and waits like a non-blocking one, so no
 *    call can wait behind another. The server never sends events there.
 *    It is opened at the first blocking call.
 *  - Requests on the two connections can overtake each other; the only
 *    order that matters, a COMMIT before the FENCE or GET that follows,
 *    is restored by the server from the commit count those carry.
 *  - A request is entered in its pending list before it is sent, so its
 *    reply can never arrive unexpected.
 *  - When the server goes away every pending request fails with
 *    PMIX_ERR_LOST_CONNECTION and PMIX_ERR_LOST_CONNECTION handlers run;
 *    later requests fail at once. Nothing waits forever on a dead server.
 *  - A process without a server (a singleton) still gets the thread, for
 *    the callbacks of its non-blocking calls.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "errno_status.h"
#include "eventq.h"
#include "pmix.h"
#include "spin.h"

/* Extra time the client gives a request past its PMIX_TIMEOUT, so the
 * server's own timeout answer (which also cleans up there) comes first. */
#define TIMEOUT_GRACE_MS 500

typedef struct pending {
    uint32_t tag;
    conn_reply_fn fn;
    void *arg;
    struct timespec deadline;     /* tv_sec 0: none */
    struct pending *next;
} pending_t;

/* One socket to the server, with its unparsed input and its requests. */
typedef struct channel {
    int fd;                       /* -1: closed */
    protocol_inbuf_t in;
    pending_t *pending;
} channel_t;

static struct {
    pthread_mutex_t lock;         /* main: fd, pending; stop; tags */
    pthread_mutex_t send_lock;    /* whole frames go out one at a time */
    channel_t main;
    eventq_t posts;               /* work for the progress thread */
    bool running;
    bool stop;
    pthread_t thread;
    uint32_t next_tag;
    pthread_mutex_t sync_lock;    /* owns the direct channel */
    channel_t direct;             /* touched only by the owner */
    bool direct_failed;           /* could not be opened: do not retry */
    char *uri;                    /* to open the direct channel */
    pmix_proc_t me;
} conn = {.lock = PTHREAD_MUTEX_INITIALIZER, .send_lock = PTHREAD_MUTEX_INITIALIZER,
          .sync_lock = PTHREAD_MUTEX_INITIALIZER, .main = {.fd = -1}, .direct = {.fd = -1},
          .posts = EVENTQ_INITIALIZER};

/* The blocking call this thread is making, between client_wait_init and
 * its first request (or client_wait). initial-exec, as bfrops_current
 * (bfrops.c). */
static __thread client_wait_t *current_wait __attribute__((tls_model("initial-exec")));

bool conn_in_progress_thread(void)
{
    return conn.running && pthread_equal(pthread_self(), conn.thread);
}

bool conn_connected(void)
{
    pthread_mutex_lock(&conn.lock);
    bool up = conn.main.fd >= 0;
    pthread_mutex_unlock(&conn.lock);
    return up;
}

pmix_status_t conn_post(void (*fn)(void *arg), void *arg)
{
    return eventq_post(&conn.posts, fn, arg);
}

/* ---- Channels --------------------------------------------------------- */

static pending_t *unlink_pending(pending_t **list, uint32_t tag)
{
    for (pending_t **p = list; NULL != *p; p = &(*p)->next) {
        if ((*p)->tag == tag) {
            pending_t *found = *p;
            *p = found->next;
            return found;
        }
    }
    return NULL;
}

/* Take the request with tag out of c's list (the main list under lock). */
static pending_t *take_pending(channel_t *c, uint32_t tag)
{
    if (c != &conn.main) {
        return unlink_pending(&c->pending, tag);
    }
    pthread_mutex_lock(&conn.lock);
    pending_t *p = unlink_pending(&c->pending, tag);
    pthread_mutex_unlock(&conn.lock);
    return p;
}

static void fail_all(pending_t *list, pmix_status_t status)
{
    while (NULL != list) {
        pending_t *p = list;
        list = p->next;
        p->fn(status, NULL, p->arg);
        free(p);
    }
}

/* c's socket failed or closed: fail its requests. For the main channel
 * the server is gone, which handlers hear about. */
static void channel_lost(channel_t *c)
{
    bool is_main = c == &conn.main;
    if (is_main) {
        pthread_mutex_lock(&conn.lock);
    }
    if (c->fd < 0) {
        if (is_main) {
            pthread_mutex_unlock(&conn.lock);
        }
        return;
    }
    close(c->fd);
    c->fd = -1;
    pending_t *list = c->pending;
    c->pending = NULL;
    if (is_main) {
        pthread_mutex_unlock(&conn.lock);
    }
    protocol_inbuf_free(&c->in);
    fail_all(list, PMIX_ERR_LOST_CONNECTION);
    if (is_main) {
        event_lost_connection();
    }
}

static void handle_frame(channel_t *c, const protocol_header_t *h, pmix_data_buffer_t *payload)
{
    if (0 == (h->command & PROTOCOL_REPLY)) {
        if (PROTOCOL_EVENT == h->command && c == &conn.main) {
            event_received(payload);
        } else if (PROTOCOL_IOF == h->command && c == &conn.main) {
            iof_received(payload);
        }
        return;
    }
    pending_t *p = take_pending(c, h->tag);
    if (NULL == p) {
        return; /* its requester gave up (timeout) */
    }
    pmix_status_t status;
    if (PMIX_SUCCESS != protocol_unpack_status(payload, &status)) {
        p->fn(PMIX_ERR_UNPACK_FAILURE, NULL, p->arg);
    } else {
        p->fn(status, payload, p->arg);
    }
    free(p);
}

/* Read what is waiting on c and handle the whole frames. */
static void channel_read(channel_t *c)
{
    protocol_header_t h;
    pmix_data_buffer_t payload;
    pmix_status_t filled = protocol_inbuf_fill(&c->in, c->fd), rc;

    /* Frames that arrived whole before an end of stream still count. */
    while (c->fd >= 0 && PMIX_SUCCESS == (rc = protocol_inbuf_next(&c->in, &h, &payload))) {
        handle_frame(c, &h, &payload);
        PMIX_DATA_BUFFER_DESTRUCT(&payload);
    }
    if (c->fd >= 0 && (PMIX_ERR_WOULD_BLOCK != rc ||
                       (PMIX_SUCCESS != filled && PMIX_ERR_WOULD_BLOCK != filled))) {
        channel_lost(c);
    }
}

static long ms_until(const struct timespec *t, const struct timespec *now)
{
    return (t->tv_sec - now->tv_sec) * 1000 + (t->tv_nsec - now->tv_nsec) / 1000000;
}

/* Fail c's expired requests; returns the poll timeout until the next
 * deadline (-1: none). */
static int expire(channel_t *c)
{
    struct timespec now;
    pending_t *expired = NULL;
    long next = -1;
    bool is_main = c == &conn.main;

    if (NULL == c->pending) {
        return -1; /* unlocked peek: a new request wakes the thread anyway */
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (is_main) {
        pthread_mutex_lock(&conn.lock);
    }
    for (pending_t **p = &c->pending; NULL != *p;) {
        pending_t *q = *p;
        long left = 0 == q->deadline.tv_sec ? -1 : ms_until(&q->deadline, &now);
        if (0 != q->deadline.tv_sec && left <= 0) {
            *p = q->next;
            q->next = expired;
            expired = q;
            continue;
        }
        if (left >= 0 && (next < 0 || left < next)) {
            next = left;
        }
        p = &q->next;
    }
    if (is_main) {
        pthread_mutex_unlock(&conn.lock);
    }
    fail_all(expired, PMIX_ERR_TIMEOUT);
    return next > 100000 ? 100000 : (int)next;
}

/* ---- The progress thread ---------------------------------------------- */

static void *progress(void *arg)
{
    for (;;) {
        int timeout = expire(&conn.main);
        pthread_mutex_lock(&conn.lock);
        bool stop = conn.stop;
        int fd = conn.main.fd;
        pthread_mutex_unlock(&conn.lock);
        if (stop) {
            break;
        }
        struct pollfd fds[2] = {{.fd = conn.posts.fd, .events = POLLIN},
                                {.fd = fd, .events = POLLIN}};
        if (poll(fds, fd >= 0 ? 2 : 1, timeout) < 0) {
            continue;
        }
        if (fds[0].revents & POLLIN) {
            eventq_run(&conn.posts);
        }
        if (fd >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            channel_read(&conn.main);
        }
    }
    eventq_run(&conn.posts);
    return NULL;
}

static pmix_status_t start_thread(void)
{
    conn.stop = false;
    pmix_status_t rc = eventq_open(&conn.posts);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    conn.running = true;
    if (0 != pthread_create(&conn.thread, NULL, progress, NULL)) {
        conn.running = false;
        eventq_close(&conn.posts);
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    return PMIX_SUCCESS;
}

/* ---- Opening and closing ---------------------------------------------- */

static pmix_status_t connect_socket(const char *uri, int *out)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    size_t plen = strlen(PROTOCOL_URI_PREFIX);

    if (0 != strncmp(uri, PROTOCOL_URI_PREFIX, plen)) {
        /* Another PMIx implementation's server: we cannot speak to it. */
        fprintf(stderr, "drover: PMIx server '%s' is not a drover server\n", uri);
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (strlen(uri + plen) >= sizeof(addr.sun_path)) {
        return PMIX_ERR_BAD_PARAM;
    }
    strcpy(addr.sun_path, uri + plen);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return errno_status(errno);
    }
    while (0 != connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
        if (EINTR != errno) {
            close(fd);
            return PMIX_ERR_UNREACH;
        }
    }
    *out = fd;
    return PMIX_SUCCESS;
}

/* HELLO and its answer, read on the spot. The direct channel says it is
 * one (direct); its answer carries nothing after the status. */
static pmix_status_t handshake(int fd, const pmix_proc_t *proc, const pmix_info_t *info,
                               size_t ninfo, bool direct, pmix_data_buffer_t *welcome)
{
    pmix_data_buffer_t hello;
    protocol_header_t h;
    pid_t pid = getpid();
    pmix_status_t rc, status;

    PMIX_DATA_BUFFER_CONSTRUCT(&hello);
    if (PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &hello, (void *)proc, 1, PMIX_PROC)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &hello, &pid, 1, PMIX_PID)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &hello, (void *)info, (int32_t)ninfo,
                                             PMIX_INFO)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_pack(NULL, &hello, &direct, 1, PMIX_BOOL)) ||
        PMIX_SUCCESS != (rc = protocol_send(fd, PROTOCOL_HELLO, 1, &hello))) {
        PMIX_DATA_BUFFER_DESTRUCT(&hello);
        return rc;
    }
    PMIX_DATA_BUFFER_DESTRUCT(&hello);
    if (PMIX_SUCCESS != (rc = protocol_recv(fd, &h, welcome))) {
        return PMIX_ERR_NOT_SUPPORTED == rc ? rc : PMIX_ERR_UNREACH;
    }
    if ((PROTOCOL_HELLO | PROTOCOL_REPLY) != h.command || 1 != h.tag ||
        PMIX_SUCCESS != protocol_unpack_status(welcome, &status)) {
        PMIX_DATA_BUFFER_DESTRUCT(welcome);
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if (PMIX_SUCCESS != status) {
        char *msg = NULL;
        int32_t n = 1;
        if (PMIX_SUCCESS == PMIx_Data_unpack(NULL, welcome, &msg, &n, PMIX_STRING) && NULL != msg) {
            fprintf(stderr, "drover: the PMIx server refused this client: %s\n", msg);
            free(msg);
        }
        PMIX_DATA_BUFFER_DESTRUCT(welcome);
    }
    return status;
}

pmix_status_t conn_open(const char *uri, const pmix_proc_t *proc, const pmix_info_t *info,
                        size_t ninfo, pmix_data_buffer_t *welcome)
{
    int fd = -1;
    pmix_status_t rc = connect_socket(uri, &fd);

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (PMIX_SUCCESS != (rc = handshake(fd, proc, info, ninfo, false, welcome))) {
        close(fd);
        return rc;
    }
    if (NULL == (conn.uri = strdup(uri))) {
        close(fd);
        PMIX_DATA_BUFFER_DESTRUCT(welcome);
        return PMIX_ERR_NOMEM;
    }
    conn.me = *proc;
    conn.main.fd = fd;
    conn.next_tag = 1;
    conn.direct_failed = false;
    if (PMIX_SUCCESS != (rc = start_thread())) {
        conn.main.fd = -1;
        close(fd);
        free(conn.uri);
        conn.uri = NULL;
        PMIX_DATA_BUFFER_DESTRUCT(welcome);
    }
    return rc;
}

pmix_status_t conn_open_local(void)
{
    conn.main.fd = -1;
    return start_thread();
}

/* Open the direct channel if it is not (sync_lock held). */
static bool direct_ready(void)
{
    pmix_data_buffer_t answer;
    int fd = -1;

    if (conn.direct.fd >= 0) {
        return true;
    }
    if (conn.direct_failed || NULL == conn.uri) {
        return false;
    }
    conn.direct_failed = true;
    if (PMIX_SUCCESS != connect_socket(conn.uri, &fd)) {
        return false;
    }
    if (PMIX_SUCCESS != handshake(fd, &conn.me, NULL, 0, true, &answer)) {
        close(fd);
        return false;
    }
    PMIX_DATA_BUFFER_DESTRUCT(&answer);
    conn.direct.fd = fd;
    conn.direct_failed = false;
    return true;
}

static void free_channel(channel_t *c)
{
    if (c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
    protocol_inbuf_free(&c->in);
}

void conn_close(void)
{
    if (!conn.running) {
        return;
    }
    pthread_mutex_lock(&conn.lock);
    conn.stop = true;
    pthread_mutex_unlock(&conn.lock);
    eventq_wake(&conn.posts);
    pthread_join(conn.thread, NULL);
    eventq_stop(&conn.posts);
    pthread_mutex_lock(&conn.lock);
    conn.running = false;
    pending_t *list = conn.main.pending;
    conn.main.pending = NULL;
    pthread_mutex_unlock(&conn.lock);
    /* Requests still waiting learn the connection is gone. */
    fail_all(list, PMIX_ERR_LOST_CONNECTION);
    free_channel(&conn.main);
    pthread_mutex_lock(&conn.sync_lock);
    free_channel(&conn.direct);
    pthread_mutex_unlock(&conn.sync_lock);
    eventq_close(&conn.posts);
    free(conn.uri);
    conn.uri = NULL;
}

/* ---- Requests --------------------------------------------------------- */

static pending_t *new_pending(conn_reply_fn fn, void *arg, int timeout)
{
    pending_t *p = calloc(1, sizeof(*p));
    if (NULL == p) {
        return NULL;
    }
    p->fn = fn;
    p->arg = arg;
    if (timeout > 0) {
        clock_gettime(CLOCK_MONOTONIC, &p->deadline);
        p->deadline.tv_sec += timeout;
        p->deadline.tv_nsec += TIMEOUT_GRACE_MS * 1000000L;
        if (p->deadline.tv_nsec >= 1000000000L) {
            p->deadline.tv_sec++;
            p->deadline.tv_nsec -= 1000000000L;
        }
    }
    return p;
}

static uint32_t new_tag(void)
{
    uint32_t tag = conn.next_tag++;
    if (0 == conn.next_tag) {
        conn.next_tag = 1;
    }
    return tag;
}

/* Send over the direct channel on behalf of the blocking call w, if this
 * thread can own the channel. True when sent (w->direct is then set and
 * the thread owns sync_lock until client_wait). */
static bool send_direct(client_wait_t *w, uint16_t command, const pmix_data_buffer_t *payload,
                        pending_t *p)
{
    if (0 != pthread_mutex_trylock(&conn.sync_lock)) {
        return false;
    }
    if (!direct_ready()) {
        pthread_mutex_unlock(&conn.sync_lock);
        return false;
    }
    pthread_mutex_lock(&conn.lock);
    p->tag = new_tag();
    pthread_mutex_unlock(&conn.lock);
    if (PMIX_SUCCESS != protocol_send(conn.direct.fd, command, p->tag, payload)) {
        free_channel(&conn.direct);
        pthread_mutex_unlock(&conn.sync_lock);
        return false;
    }
    p->next = conn.direct.pending;
    conn.direct.pending = p;
    w->direct = true;
    return true;
}

pmix_status_t conn_send(uint16_t command, const pmix_data_buffer_t *payload)
{
    pthread_mutex_lock(&conn.lock);
    int fd = conn.main.fd;
    pthread_mutex_unlock(&conn.lock);
    if (fd < 0) {
        return PMIX_ERR_LOST_CONNECTION;
    }
    pthread_mutex_lock(&conn.send_lock);
    pmix_status_t rc = protocol_send(fd, command, 0, payload);
    pthread_mutex_unlock(&conn.send_lock);
    return rc;
}

pmix_status_t conn_request(uint16_t command, const pmix_data_buffer_t *payload, int timeout,
                           conn_reply_fn fn, void *arg)
{
    client_wait_t *w = current_wait;
    pending_t *p = new_pending(fn, arg, timeout);

    current_wait = NULL;
    if (NULL == p) {
        return PMIX_ERR_NOMEM;
    }
    if (!conn_connected()) {
        free(p);
        return PMIX_ERR_LOST_CONNECTION;
    }
    if (NULL != w && send_direct(w, command, payload, p)) {
        return PMIX_SUCCESS;
    }
    pthread_mutex_lock(&conn.lock);
    int fd = conn.main.fd;
    if (fd < 0) {
        pthread_mutex_unlock(&conn.lock);
        free(p);
        return PMIX_ERR_LOST_CONNECTION;
    }
    p->tag = new_tag();
    uint32_t tag = p->tag;
    p->next = conn.main.pending;
    conn.main.pending = p;
    pthread_mutex_unlock(&conn.lock);
    if (timeout > 0) {
        eventq_wake(&conn.posts); /* the thread must see the new deadline */
    }
    pthread_mutex_lock(&conn.send_lock);
    pmix_status_t rc = protocol_send(fd, command, tag, payload);
    pthread_mutex_unlock(&conn.send_lock);
    if (PMIX_SUCCESS != rc) {
        /* Unless the thread already failed it, the request is ours to
         * withdraw: then its callback never runs. */
        pending_t *mine = take_pending(&conn.main, tag);
        if (NULL == mine) {
            return PMIX_SUCCESS;
        }
        free(mine);
    }
    return rc;
}

typedef struct call {
    client_wait_t wait;
    pmix_data_buffer_t *reply;
} call_t;

static void call_answered(pmix_status_t status, pmix_data_buffer_t *reply, void *arg)
{
    call_t *c = arg;
    if (NULL != reply && NULL != c->reply && NULL != reply->unpack_ptr &&
        reply->unpack_ptr < reply->pack_ptr) {
        pmix_status_t rc = PMIx_Data_copy_payload(c->reply, reply);
        if (PMIX_SUCCESS != rc && PMIX_SUCCESS == status) {
            status = rc;
        }
    }
    client_wait_done(&c->wait, status);
}

pmix_status_t conn_call(uint16_t command, const pmix_data_buffer_t *payload, int timeout,
                        pmix_data_buffer_t *reply)
{
    call_t c = {.reply = reply};

    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    if (NULL != reply) {
        PMIX_DATA_BUFFER_CONSTRUCT(reply);
    }
    client_wait_init(&c.wait);
    pmix_status_t rc = client_wait_started(
        &c.wait, conn_request(command, payload, timeout, call_answered, &c));
    if (PMIX_SUCCESS != rc && NULL != reply) {
        PMIX_DATA_BUFFER_DESTRUCT(reply);
    }
    return rc;
}

/* ---- Waiting ---------------------------------------------------------- */

void client_wait_init(client_wait_t *w)
{
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->cond, NULL);
    w->done = false;
    w->direct = false;
    w->status = PMIX_SUCCESS;
    current_wait = w;
}

/* One look at the direct channel; true once w is answered or the channel
 * is gone. */
static bool direct_answered(void *arg)
{
    client_wait_t *w = arg;
    if (!w->done && conn.direct.fd >= 0) {
        channel_read(&conn.direct);
    }
    return w->done || conn.direct.fd < 0;
}

/* Read the direct channel until w is done (this thread owns it). */
static void read_direct(client_wait_t *w)
{
    spin_until(direct_answered, w, SPIN_BEFORE_SLEEP_NS);
    while (!w->done) {
        if (conn.direct.fd < 0) {
            fail_all(conn.direct.pending, PMIX_ERR_LOST_CONNECTION);
            conn.direct.pending = NULL;
            break;
        }
        struct pollfd p = {.fd = conn.direct.fd, .events = POLLIN};
        int timeout = expire(&conn.direct);
        if (w->done) {
            break; /* expired: polling on would wait for nothing, forever */
        }
        int n = poll(&p, 1, timeout);
        if (n > 0) {
            channel_read(&conn.direct);
        }
    }
    pthread_mutex_unlock(&conn.sync_lock);
}

pmix_status_t client_wait(client_wait_t *w)
{
    if (current_wait == w) {
        current_wait = NULL;
    }
    if (w->direct) {
        read_direct(w);
    }
    pthread_mutex_lock(&w->lock);
    while (!w->done) {
        pthread_cond_wait(&w->cond, &w->lock);
    }
    pthread_mutex_unlock(&w->lock);
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->lock);
    return w->status;
}

void client_wait_done(client_wait_t *w, pmix_status_t status)
{
    pthread_mutex_lock(&w->lock);
    w->status = status;
    w->done = true;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

void client_wait_op_cb(pmix_status_t status, void *cbdata)
{
    client_wait_done(cbdata, status);
}

pmix_status_t client_wait_started(client_wait_t *w, pmix_status_t started)
{
    if (PMIX_SUCCESS != started) {
        client_wait_done(w, started);
    }
    return client_wait(w);
}
