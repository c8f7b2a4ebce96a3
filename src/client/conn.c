/*
 * conn.c - the client's connection to its server and its progress thread.
 *
 * Design notes:
 *  - Requests are written by the calling thread itself (under a send
 *    lock), so a request costs no thread hand-off on the way out.
 *  - One progress thread polls the socket and an eventfd. It matches
 *    replies to requests by tag, runs event handlers, expires requests
 *    whose PMIX_TIMEOUT has passed, and runs work posted by other threads
 *    (callbacks PMIx says must not run in the caller's thread).
 *  - A request is entered in the pending list before it is sent, so its
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
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "errno_status.h"
#include "pmix.h"

/* Extra time the client gives a request past its PMIX_TIMEOUT, so the
 * server's own timeout answer (which also cleans up there) comes first. */
#define TIMEOUT_GRACE_MS 500
#define READ_CHUNK 65536

typedef struct pending {
    uint32_t tag;
    conn_reply_fn fn;
    void *arg;
    struct timespec deadline;     /* tv_sec 0: none */
    struct pending *next;
} pending_t;

typedef struct posted {
    void (*fn)(void *arg);
    void *arg;
    struct posted *next;
} posted_t;

static struct {
    pthread_mutex_t lock;         /* everything below but the input */
    pthread_mutex_t send_lock;    /* whole frames go out one at a time */
    int fd;                       /* -1: not connected */
    int wake_fd;
    bool running;
    bool stop;
    pthread_t thread;
    pending_t *pending;
    posted_t *posts, *posts_tail;
    uint32_t next_tag;
    uint8_t *in;                  /* bytes read, not yet a whole frame */
    size_t in_len, in_cap;
} conn = {.lock = PTHREAD_MUTEX_INITIALIZER, .send_lock = PTHREAD_MUTEX_INITIALIZER,
          .fd = -1, .wake_fd = -1};

bool conn_in_progress_thread(void)
{
    return conn.running && pthread_equal(pthread_self(), conn.thread);
}

bool conn_connected(void)
{
    pthread_mutex_lock(&conn.lock);
    bool up = conn.fd >= 0;
    pthread_mutex_unlock(&conn.lock);
    return up;
}

static void wake(void)
{
    uint64_t one = 1;
    while (write(conn.wake_fd, &one, sizeof(one)) < 0 && EINTR == errno) {
    }
}

pmix_status_t conn_post(void (*fn)(void *arg), void *arg)
{
    posted_t *p = malloc(sizeof(*p));
    if (NULL == p) {
        return PMIX_ERR_NOMEM;
    }
    *p = (posted_t){.fn = fn, .arg = arg};
    pthread_mutex_lock(&conn.lock);
    if (!conn.running) {
        pthread_mutex_unlock(&conn.lock);
        free(p);
        return PMIX_ERR_INIT;
    }
    if (NULL == conn.posts_tail) {
        conn.posts = p;
    } else {
        conn.posts_tail->next = p;
    }
    conn.posts_tail = p;
    pthread_mutex_unlock(&conn.lock);
    wake();
    return PMIX_SUCCESS;
}

/* ---- The progress thread ---------------------------------------------- */

static void run_posts(void)
{
    pthread_mutex_lock(&conn.lock);
    posted_t *list = conn.posts;
    conn.posts = conn.posts_tail = NULL;
    pthread_mutex_unlock(&conn.lock);
    while (NULL != list) {
        posted_t *p = list;
        list = p->next;
        p->fn(p->arg);
        free(p);
    }
}

/* Take the pending request with tag out of the list. */
static pending_t *take_pending(uint32_t tag)
{
    pthread_mutex_lock(&conn.lock);
    for (pending_t **p = &conn.pending; NULL != *p; p = &(*p)->next) {
        if ((*p)->tag == tag) {
            pending_t *found = *p;
            *p = found->next;
            pthread_mutex_unlock(&conn.lock);
            return found;
        }
    }
    pthread_mutex_unlock(&conn.lock);
    return NULL;
}

/* The server is gone: fail everything, once. */
static void lost(void)
{
    pthread_mutex_lock(&conn.lock);
    if (conn.fd < 0) {
        pthread_mutex_unlock(&conn.lock);
        return;
    }
    close(conn.fd);
    conn.fd = -1;
    pending_t *list = conn.pending;
    conn.pending = NULL;
    pthread_mutex_unlock(&conn.lock);
    conn.in_len = 0;
    while (NULL != list) {
        pending_t *p = list;
        list = p->next;
        p->fn(PMIX_ERR_LOST_CONNECTION, NULL, p->arg);
        free(p);
    }
    event_lost_connection();
}

static void handle_frame(const protocol_header_t *h, pmix_data_buffer_t *payload)
{
    if (0 == (h->command & PROTOCOL_REPLY)) {
        if (PROTOCOL_EVENT == h->command) {
            event_received(payload);
        }
        return;
    }
    pending_t *p = take_pending(h->tag);
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

/* Hand every whole frame in the input to handle_frame. */
static void parse_input(void)
{
    size_t off = 0;
    while (conn.in_len - off >= PROTOCOL_HEADER_SIZE) {
        protocol_header_t h;
        if (PMIX_SUCCESS != protocol_decode_header(conn.in + off, &h)) {
            lost();
            return;
        }
        if (conn.in_len - off - PROTOCOL_HEADER_SIZE < h.length) {
            break;
        }
        pmix_data_buffer_t payload;
        PMIX_DATA_BUFFER_CONSTRUCT(&payload);
        if (h.length > 0) {
            pmix_byte_object_t bo = {.bytes = malloc(h.length), .size = h.length};
            if (NULL == bo.bytes) {
                lost();
                return;
            }
            memcpy(bo.bytes, conn.in + off + PROTOCOL_HEADER_SIZE, h.length);
            PMIx_Data_load(&payload, &bo);
        }
        off += PROTOCOL_HEADER_SIZE + h.length;
        handle_frame(&h, &payload);
        PMIX_DATA_BUFFER_DESTRUCT(&payload);
    }
    memmove(conn.in, conn.in + off, conn.in_len - off);
    conn.in_len -= off;
}

static void read_socket(int fd)
{
    for (;;) {
        if (conn.in_cap - conn.in_len < READ_CHUNK) {
            size_t cap = conn.in_cap + READ_CHUNK;
            if (cap > PROTOCOL_MAX_PAYLOAD + PROTOCOL_HEADER_SIZE + READ_CHUNK) {
                lost();
                return;
            }
            uint8_t *grown = realloc(conn.in, cap);
            if (NULL == grown) {
                lost();
                return;
            }
            conn.in = grown;
            conn.in_cap = cap;
        }
        ssize_t n = recv(fd, conn.in + conn.in_len, conn.in_cap - conn.in_len, MSG_DONTWAIT);
        if (n > 0) {
            conn.in_len += (size_t)n;
            continue;
        }
        if (n < 0 && (EINTR == errno)) {
            continue;
        }
        if (n < 0 && (EAGAIN == errno || EWOULDBLOCK == errno)) {
            break;
        }
        parse_input();
        lost();
        return;
    }
    parse_input();
}

static long ms_until(const struct timespec *t, const struct timespec *now)
{
    return (t->tv_sec - now->tv_sec) * 1000 + (t->tv_nsec - now->tv_nsec) / 1000000;
}

/* Fail expired requests; returns the poll timeout until the next one. */
static int expire_requests(void)
{
    struct timespec now;
    pending_t *expired = NULL;
    long next = -1;

    clock_gettime(CLOCK_MONOTONIC, &now);
    pthread_mutex_lock(&conn.lock);
    for (pending_t **p = &conn.pending; NULL != *p;) {
        pending_t *q = *p;
        if (0 == q->deadline.tv_sec) {
            p = &q->next;
            continue;
        }
        long left = ms_until(&q->deadline, &now);
        if (left <= 0) {
            *p = q->next;
            q->next = expired;
            expired = q;
            continue;
        }
        if (next < 0 || left < next) {
            next = left;
        }
        p = &q->next;
    }
    pthread_mutex_unlock(&conn.lock);
    while (NULL != expired) {
        pending_t *q = expired;
        expired = q->next;
        q->fn(PMIX_ERR_TIMEOUT, NULL, q->arg);
        free(q);
    }
    return next > 100000 ? 100000 : (int)next;
}

static void *progress(void *arg)
{
    for (;;) {
        int timeout = expire_requests();
        pthread_mutex_lock(&conn.lock);
        bool stop = conn.stop;
        int fd = conn.fd;
        pthread_mutex_unlock(&conn.lock);
        if (stop) {
            break;
        }
        struct pollfd fds[2] = {{.fd = conn.wake_fd, .events = POLLIN},
                                {.fd = fd, .events = POLLIN}};
        int n = poll(fds, fd >= 0 ? 2 : 1, timeout);
        if (n < 0) {
            continue;
        }
        if (fds[0].revents & POLLIN) {
            uint64_t count;
            while (read(conn.wake_fd, &count, sizeof(count)) < 0 && EINTR == errno) {
            }
        }
        run_posts();
        if (fd >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            read_socket(fd);
        }
    }
    run_posts();
    return NULL;
}

static pmix_status_t start_thread(void)
{
    conn.stop = false;
    if ((conn.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
        return errno_status(errno);
    }
    conn.running = true;
    if (0 != pthread_create(&conn.thread, NULL, progress, NULL)) {
        conn.running = false;
        close(conn.wake_fd);
        conn.wake_fd = -1;
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

/* HELLO and its answer, before the progress thread exists. */
static pmix_status_t handshake(int fd, const pmix_proc_t *proc, const pmix_info_t *info,
                               size_t ninfo, pmix_data_buffer_t *welcome)
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
    if (PMIX_SUCCESS != (rc = handshake(fd, proc, info, ninfo, welcome))) {
        close(fd);
        return rc;
    }
    conn.fd = fd;
    conn.next_tag = 1;
    if (PMIX_SUCCESS != (rc = start_thread())) {
        conn.fd = -1;
        close(fd);
        PMIX_DATA_BUFFER_DESTRUCT(welcome);
    }
    return rc;
}

pmix_status_t conn_open_local(void)
{
    conn.fd = -1;
    return start_thread();
}

void conn_close(void)
{
    if (!conn.running) {
        return;
    }
    pthread_mutex_lock(&conn.lock);
    conn.stop = true;
    pthread_mutex_unlock(&conn.lock);
    wake();
    pthread_join(conn.thread, NULL);
    pthread_mutex_lock(&conn.lock);
    conn.running = false;
    pending_t *list = conn.pending;
    conn.pending = NULL;
    if (conn.fd >= 0) {
        close(conn.fd);
        conn.fd = -1;
    }
    pthread_mutex_unlock(&conn.lock);
    /* Requests still waiting learn the connection is gone. */
    while (NULL != list) {
        pending_t *p = list;
        list = p->next;
        p->fn(PMIX_ERR_LOST_CONNECTION, NULL, p->arg);
        free(p);
    }
    close(conn.wake_fd);
    conn.wake_fd = -1;
    free(conn.in);
    conn.in = NULL;
    conn.in_len = conn.in_cap = 0;
}

/* ---- Requests --------------------------------------------------------- */

static pmix_status_t send_frame(int fd, uint16_t command, uint32_t tag,
                                const pmix_data_buffer_t *payload)
{
    pthread_mutex_lock(&conn.send_lock);
    pmix_status_t rc = protocol_send(fd, command, tag, payload);
    pthread_mutex_unlock(&conn.send_lock);
    return rc;
}

pmix_status_t conn_send(uint16_t command, const pmix_data_buffer_t *payload)
{
    pthread_mutex_lock(&conn.lock);
    int fd = conn.fd;
    pthread_mutex_unlock(&conn.lock);
    return fd < 0 ? PMIX_ERR_LOST_CONNECTION : send_frame(fd, command, 0, payload);
}

pmix_status_t conn_request(uint16_t command, const pmix_data_buffer_t *payload, int timeout,
                           conn_reply_fn fn, void *arg)
{
    pending_t *p = calloc(1, sizeof(*p));
    if (NULL == p) {
        return PMIX_ERR_NOMEM;
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
    pthread_mutex_lock(&conn.lock);
    int fd = conn.fd;
    if (fd < 0) {
        pthread_mutex_unlock(&conn.lock);
        free(p);
        return PMIX_ERR_LOST_CONNECTION;
    }
    p->tag = conn.next_tag++;
    if (0 == conn.next_tag) {
        conn.next_tag = 1;
    }
    uint32_t tag = p->tag;
    p->next = conn.pending;
    conn.pending = p;
    pthread_mutex_unlock(&conn.lock);
    if (timeout > 0) {
        wake(); /* the thread must see the new deadline */
    }
    pmix_status_t rc = send_frame(fd, command, tag, payload);
    if (PMIX_SUCCESS != rc) {
        /* Unless the thread already failed it, the request is ours to
         * withdraw: then its callback never runs. */
        pending_t *mine = take_pending(tag);
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
    pmix_status_t rc = conn_request(command, payload, timeout, call_answered, &c);
    if (PMIX_SUCCESS != rc) {
        client_wait_done(&c.wait, rc);
    }
    rc = client_wait(&c.wait);
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
    w->status = PMIX_SUCCESS;
}

pmix_status_t client_wait(client_wait_t *w)
{
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
