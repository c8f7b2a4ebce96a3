/*
 * client_get.c - PMIx_Get beyond the basics, run by minihost with 2 ranks
 * as "client_get PART":
 *  - nodes: node-level keys of a node named by a PMIX_HOSTNAME or
 *    PMIX_NODEID qualifier, and a host name longer than any key;
 *  - replies: the first get of a process's key brings all the process
 *    committed; later ones bring only the key asked for, not everything
 *    the process holds by then (the bytes this process receives are
 *    counted by wrapping recv); a later get of another key of that
 *    process still finds it, and a get of all its keys brings all it
 *    committed;
 *  - timeouts: PMIX_TIMEOUT given as each integer type is honoured by a
 *    get and by a fence the server times out, and by a blocking request
 *    the host never answers.
 */
#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "minihost.h"

pmix_proc_t me;

/* ---- Counting what arrives --------------------------------------------- */

static atomic_size_t received;

/* The library's recv resolves to this one: it counts and passes on. */
ssize_t recv(int fd, void *buf, size_t len, int flags)
{
    static ssize_t (*real)(int, void *, size_t, int);
    if (NULL == real) {
        real = (ssize_t (*)(int, void *, size_t, int))dlsym(RTLD_NEXT, "recv");
    }
    ssize_t n = real(fd, buf, len, flags);
    if (n > 0) {
        atomic_fetch_add(&received, (size_t)n);
    }
    return n;
}

/* ---- Node qualifiers ----------------------------------------------------- */

typedef struct answer {
    volatile bool done;
    pmix_status_t status;
    uint32_t value;
} answer_t;

static void got(pmix_status_t status, pmix_value_t *v, void *cbdata)
{
    answer_t *a = cbdata;
    a->status = status;
    if (PMIX_SUCCESS == status && PMIX_UINT32 == v->type) {
        a->value = v->data.uint32;
    }
    a->done = true;
}

/* PMIX_NODE_SIZE of the job with one qualifier; the status, *size the
 * value. */
static pmix_status_t node_size(const pmix_info_t *qualifier, uint32_t *size)
{
    pmix_proc_t wild;
    pmix_value_t *v = NULL;
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    pmix_status_t rc = PMIx_Get(&wild, PMIX_NODE_SIZE, qualifier, NULL == qualifier ? 0 : 1, &v);
    if (PMIX_SUCCESS == rc) {
        CHECK(PMIX_UINT32 == v->type, "node size type %d", v->type);
        *size = v->data.uint32;
        PMIX_VALUE_RELEASE(v);
    }
    return rc;
}

static void node_qualifiers(uint32_t nranks)
{
    char host[256] = "";
    char longname[1000];
    pmix_info_t q;
    uint32_t size = 0, other = 1;

    gethostname(host, sizeof(host) - 1);

    PMIX_INFO_LOAD(&q, PMIX_HOSTNAME, host, PMIX_STRING);
    CHECK_RC(node_size(&q, &size), PMIX_SUCCESS, "node size of this host");
    CHECK(nranks == size, "node size of this host: %u", size);
    PMIX_INFO_DESTRUCT(&q);

    PMIX_INFO_LOAD(&q, PMIX_HOSTNAME, MINIHOST_OTHER_NODE, PMIX_STRING);
    CHECK_RC(node_size(&q, &size), PMIX_SUCCESS, "node size of the other host");
    CHECK(MINIHOST_OTHER_NODE_SIZE == size, "node size of the other host: %u", size);
    PMIX_INFO_DESTRUCT(&q);

    PMIX_INFO_LOAD(&q, PMIX_NODEID, &other, PMIX_UINT32);
    CHECK_RC(node_size(&q, &size), PMIX_SUCCESS, "node size of node 1");
    CHECK(MINIHOST_OTHER_NODE_SIZE == size, "node size of node 1: %u", size);

    /* A name longer than a key, a namespace or any host buffer. */
    memset(longname, 'h', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    PMIX_INFO_LOAD(&q, PMIX_HOSTNAME, longname, PMIX_STRING);
    CHECK_RC(node_size(&q, &size), PMIX_ERR_NOT_FOUND, "node size of an unknown long name");
    /* Job-level keys are still found with a node named. */
    pmix_proc_t wild;
    pmix_value_t *v = NULL;
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    CHECK_RC(PMIx_Get(&wild, PMIX_JOB_SIZE, &q, 1, &v), PMIX_SUCCESS, "job size, host named");
    CHECK(nranks == v->data.uint32, "job size, host named: %u", v->data.uint32);
    PMIX_VALUE_RELEASE(v);
    PMIX_INFO_DESTRUCT(&q);

    /* The non-blocking get keeps the name past the call. */
    answer_t a = {0};
    pmix_info_t *heap;
    PMIX_INFO_CREATE(heap, 1);
    PMIX_INFO_LOAD(heap, PMIX_HOSTNAME, MINIHOST_OTHER_NODE, PMIX_STRING);
    CHECK_RC(PMIx_Get_nb(&wild, PMIX_NODE_SIZE, heap, 1, got, &a), PMIX_SUCCESS, "get_nb");
    PMIX_INFO_FREE(heap, 1);
    CHECK(wait_for(&a.done, 10), "get_nb answered");
    CHECK(PMIX_SUCCESS == a.status && MINIHOST_OTHER_NODE_SIZE == a.value,
          "get_nb of the other host: %s, %u", PMIx_Error_string(a.status), a.value);
}

/* ---- What a keyed get brings back ---------------------------------------- */

#define BULK_KEYS 2000
#define BULK_BYTES 512

static void put_string(const char *key, const char *s)
{
    pmix_value_t val;
    PMIX_VALUE_LOAD(&val, s, PMIX_STRING);
    CHECK_RC(PMIx_Put(PMIX_GLOBAL, key, &val), PMIX_SUCCESS, key);
    PMIX_VALUE_DESTRUCT(&val);
}

/* The string under key of rank (from rank), and how many bytes arrived
 * meanwhile. */
static size_t get_counted(pmix_rank_t rank, const char *key, const char *want)
{
    pmix_proc_t peer;
    pmix_value_t *v = NULL;
    PMIX_LOAD_PROCID(&peer, me.nspace, rank);
    size_t before = atomic_load(&received);
    CHECK_RC(PMIx_Get(&peer, key, NULL, 0, &v), PMIX_SUCCESS, key);
    size_t bytes = atomic_load(&received) - before;
    CHECK(PMIX_STRING == v->type && 0 == strcmp(v->data.string, want), "value of %s", key);
    PMIX_VALUE_RELEASE(v);
    return bytes;
}

/* Rank 1 commits two keys, and once rank 0 has read one, many more, one
 * at a time as far as rank 0 can tell. */
static void keyed_replies(void)
{
    char key[PMIX_MAX_KEYLEN + 1], value[BULK_BYTES];

    if (1 == me.rank) {
        put_string("early.1", "one");
        put_string("early.2", "two");
        CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "commit of the early keys");
        get_counted(0, "replies.ready", "ready");
        for (int i = 0; i < BULK_KEYS; i++) {
            snprintf(key, sizeof(key), "bulk.%d", i);
            memset(value, 'a' + i % 26, sizeof(value) - 1);
            value[sizeof(value) - 1] = '\0';
            put_string(key, value);
        }
        put_string("bulk.last", "last");
        CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "commit of the bulk");
        return;
    }
    /* The first get of a process brings all it has committed. */
    get_counted(1, "early.1", "one");
    CHECK(0 == get_counted(1, "early.2", "two"), "the first answer brought all there was");
    put_string("replies.ready", "ready");
    CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "commit of ready");
    /* Held at the server until rank 1 commits, then answered with the key
     * alone. */
    size_t bytes = get_counted(1, "bulk.last", "last");
    CHECK(bytes < 16 * 1024, "a get of one key brought %zu bytes of %d keys", bytes, BULK_KEYS);
    /* Another key of the same process is asked for again. */
    memset(value, 'a' + 7, sizeof(value) - 1);
    value[sizeof(value) - 1] = '\0';
    bytes = get_counted(1, "bulk.7", value);
    CHECK(bytes < 16 * 1024, "a get of a second key brought %zu bytes", bytes);
    /* Found locally now: nothing arrives. */
    CHECK(0 == get_counted(1, "bulk.7", value), "a cached key is asked for again");
    /* All of its keys: everything it committed, not only what is cached,
     * with its registration. */
    pmix_proc_t peer;
    pmix_value_t *v = NULL;
    PMIX_LOAD_PROCID(&peer, me.nspace, 1);
    CHECK_RC(PMIx_Get(&peer, NULL, NULL, 0, &v), PMIX_SUCCESS, "all keys");
    CHECK(PMIX_DATA_ARRAY == v->type && PMIX_INFO == v->data.darray->type, "all keys: type");
    const pmix_info_t *all = v->data.darray->array;
    size_t nall = v->data.darray->size;
    CHECK(NULL != find_info(all, nall, "bulk.1999") && NULL != find_info(all, nall, "bulk.last") &&
              NULL != find_info(all, nall, PMIX_LOCAL_RANK),
          "all keys: %zu of them, some missing", nall);
    PMIX_VALUE_RELEASE(v);
}

/* ---- PMIX_TIMEOUT ---------------------------------------------------------- */

/* The same timeout of one second as each integer type. */
static const pmix_data_type_t timeout_types[] = {PMIX_INT,   PMIX_UINT32, PMIX_INT64,  PMIX_INT8,
                                                 PMIX_INT16, PMIX_INT32,  PMIX_UINT,   PMIX_UINT8,
                                                 PMIX_UINT16, PMIX_UINT64, PMIX_SIZE};
#define NTYPES (sizeof(timeout_types) / sizeof(timeout_types[0]))
/* Fences take a second each: the first types of the list. */
#define NFENCE_TYPES 3

static void load_timeout(pmix_info_t *info, pmix_data_type_t type, int seconds)
{
    pmix_value_t v = {.type = type};
    switch (type) {
    case PMIX_INT: v.data.integer = seconds; break;
    case PMIX_INT8: v.data.int8 = (int8_t)seconds; break;
    case PMIX_INT16: v.data.int16 = (int16_t)seconds; break;
    case PMIX_INT32: v.data.int32 = seconds; break;
    case PMIX_INT64: v.data.int64 = seconds; break;
    case PMIX_UINT: v.data.uint = (unsigned)seconds; break;
    case PMIX_UINT8: v.data.uint8 = (uint8_t)seconds; break;
    case PMIX_UINT16: v.data.uint16 = (uint16_t)seconds; break;
    case PMIX_UINT32: v.data.uint32 = (uint32_t)seconds; break;
    case PMIX_UINT64: v.data.uint64 = (uint64_t)seconds; break;
    default: v.data.size = (size_t)seconds; break;
    }
    PMIX_INFO_CONSTRUCT(info);
    PMIX_LOAD_KEY(info->key, PMIX_TIMEOUT);
    CHECK_RC(PMIx_Value_xfer(&info->value, &v), PMIX_SUCCESS, "timeout value");
}

/* Gets of a key rank 1 never posts, all at once: each ends with
 * PMIX_ERR_TIMEOUT. */
static void get_timeouts(void)
{
    pmix_proc_t peer;
    pmix_info_t t[NTYPES];
    answer_t a[NTYPES] = {0};
    PMIX_LOAD_PROCID(&peer, me.nspace, 1);
    for (size_t i = 0; i < NTYPES; i++) {
        load_timeout(&t[i], timeout_types[i], 1);
        CHECK_RC(PMIx_Get_nb(&peer, "never.posted", &t[i], 1, got, &a[i]), PMIX_SUCCESS,
                 "get_nb");
    }
    for (size_t i = 0; i < NTYPES; i++) {
        const char *type = PMIx_Data_type_string(timeout_types[i]);
        CHECK(wait_for(&a[i].done, 20), "a get with a %s timeout is answered", type);
        CHECK(PMIX_ERR_TIMEOUT == a[i].status, "a get with a %s timeout: %s", type,
              PMIx_Error_string(a[i].status));
        PMIX_INFO_DESTRUCT(&t[i]);
    }
}

/* A blocking request the host never answers ends at its PMIX_TIMEOUT in
 * the client (the server keeps no timer for what it relays). */
static void unanswered_timeouts(void)
{
    for (size_t i = 0; i < 2; i++) { /* PMIX_INT and PMIX_UINT32 */
        pmix_info_t t, *results = NULL;
        size_t nresults = 0;
        load_timeout(&t, timeout_types[i], 1);
        CHECK_RC(PMIx_Allocation_request(PMIX_ALLOC_REAQUIRE, &t, 1, &results, &nresults),
                 PMIX_ERR_TIMEOUT, PMIx_Data_type_string(timeout_types[i]));
        CHECK(NULL == results && 0 == nresults, "no results from a request timed out");
        PMIX_INFO_DESTRUCT(&t);
    }
}

/* Rank 0 fences with rank 1 alone under a timeout: the server gives up on
 * that fence, so when rank 1 (told through a key) joins, a new fence of
 * the two completes. A fence the server did not time out would still
 * hold rank 0's first contribution. */
static void fence_timeouts(void)
{
    pmix_proc_t both[2], zero;
    pmix_info_t t, patience;
    char key[PMIX_MAX_KEYLEN + 1];
    PMIX_LOAD_PROCID(&both[0], me.nspace, 0);
    PMIX_LOAD_PROCID(&both[1], me.nspace, 1);
    PMIX_LOAD_PROCID(&zero, me.nspace, 0);
    /* Bounds the second fence, so a failure does not hang. */
    load_timeout(&patience, PMIX_INT, 20);
    for (size_t i = 0; i < NFENCE_TYPES; i++) {
        const char *type = PMIx_Data_type_string(timeout_types[i]);
        snprintf(key, sizeof(key), "fence.timed.out.%zu", i);
        if (0 == me.rank) {
            load_timeout(&t, timeout_types[i], 1);
            CHECK_RC(PMIx_Fence(both, 2, &t, 1), PMIX_ERR_TIMEOUT, type);
            PMIX_INFO_DESTRUCT(&t);
            put_string(key, type);
            CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "commit");
        } else {
            pmix_value_t *v = NULL;
            CHECK_RC(PMIx_Get(&zero, key, NULL, 0, &v), PMIX_SUCCESS, key);
            PMIX_VALUE_RELEASE(v);
        }
        CHECK_RC(PMIx_Fence(both, 2, &patience, 1), PMIX_SUCCESS, type);
    }
    PMIX_INFO_DESTRUCT(&patience);
}

int main(int argc, char **argv)
{
    pmix_proc_t wild;
    pmix_value_t *v = NULL;
    const char *part = argc > 1 ? argv[1] : "";

    CHECK_RC(PMIx_Init(&me, NULL, 0), PMIX_SUCCESS, "init");
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    CHECK_RC(PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v), PMIX_SUCCESS, "job size");
    uint32_t nranks = v->data.uint32;
    PMIX_VALUE_RELEASE(v);
    CHECK(2 == nranks, "run with 2 ranks, not %u", nranks);

    if (0 == strcmp(part, "nodes")) {
        node_qualifiers(nranks);
    } else if (0 == strcmp(part, "replies")) {
        keyed_replies();
    } else if (0 == strcmp(part, "timeouts")) {
        if (0 == me.rank) {
            get_timeouts();
            unanswered_timeouts();
        }
        fence_timeouts();
    } else {
        CHECK(false, "usage: client_get nodes|replies|timeouts");
    }
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "last fence");
    CHECK_RC(PMIx_Finalize(NULL, 0), PMIX_SUCCESS, "finalize");
    return 0;
}
