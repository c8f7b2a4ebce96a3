/*
 * fuzz_server.c - libFuzzer harness for the server's handling of client
 * requests, the bytes a PMIx server receives from processes it does not
 * control, and for the node and rank map readers.
 *
 * Input layout: [u8 selector][body].
 *  - selector < PROTOCOL_COMMAND_MAX + 2: the body is the payload of a
 *    request with that command from a registered client, handled in the
 *    server's progress thread exactly as one read off a socket (its
 *    replies are dropped: the fake connection has no socket).
 *  - otherwise the body, as a string, goes through the node-map and
 *    rank-map readers.
 * Each request runs against a freshly registered job which is then
 * deregistered, with collectives and waiting requests cleared, so one
 * input cannot leak into the next and LeakSanitizer sees every leak.
 * Paths a request registers for cleanup are forgotten, never removed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "maps.h"
#include "pmix.h"
#include "server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char nspace[] = "fuzz.job";

/* The connection requests come from. Static, with a reference held for
 * good, because handlers keep references beyond the request. */
static server_peer_t fake_peer;

typedef struct request {
    const uint8_t *body;
    size_t size;
    uint16_t command;
} request_t;

static pmix_status_t run_request(void *arg)
{
    request_t *r = arg;
    pmix_proc_t me;
    server_peer_t *peer = &fake_peer;
    pmix_data_buffer_t payload;
    protocol_header_t h = {.magic = PROTOCOL_MAGIC, .version = PROTOCOL_VERSION,
                           .command = r->command, .tag = 1, .length = (uint32_t)r->size};

    PMIX_LOAD_PROCID(&me, nspace, 0);
    *peer = (server_peer_t){.refs = 1 << 30, .fd = -1, .proc = me, .uid = getuid(), .pid = getpid()};
    /* A HELLO must find the connection unidentified. */
    peer->client = PROTOCOL_HELLO == r->command ? NULL : nspace_find_client(&me);
    PMIX_DATA_BUFFER_CONSTRUCT(&payload);
    if (r->size > 0) {
        pmix_byte_object_t bo = {.bytes = malloc(r->size), .size = r->size};
        memcpy(bo.bytes, r->body, r->size);
        PMIx_Data_load(&payload, &bo);
    }
    peer_dispatch(peer, &h, &payload);
    PMIX_DATA_BUFFER_DESTRUCT(&payload);
    /* A job-control request may have registered paths for removal when
     * the job goes: the fuzzer must never delete real files. */
    server_nspace_t *ns = nspace_find(nspace);
    for (size_t i = 0; NULL != ns && i < ns->ncleanup; i++) {
        free(ns->cleanup[i]);
    }
    if (NULL != ns) {
        ns->ncleanup = 0;
    }
    /* Forget what the request left waiting, or made. */
    collective_clear_all();
    data_clear_all();
    group_clear_all();
    iof_clear_all();
    return PMIX_SUCCESS;
}

static void fuzz_request(uint16_t command, const uint8_t *body, size_t size)
{
    pmix_proc_t proc;
    uint32_t two = 2;
    pmix_info_t info;

    PMIx_Info_load(&info, PMIX_JOB_SIZE, &two, PMIX_UINT32);
    PMIx_server_register_nspace(nspace, 2, &info, 1, NULL, NULL);
    PMIX_INFO_DESTRUCT(&info);
    for (pmix_rank_t r = 0; r < 2; r++) {
        PMIX_LOAD_PROCID(&proc, nspace, r);
        PMIx_server_register_client(&proc, getuid(), getgid(), NULL, NULL, NULL);
    }
    request_t req = {.body = body, .size = size, .command = command};
    server_run_sync(run_request, &req);
    PMIx_server_deregister_nspace(nspace, NULL, NULL);
}

static void fuzz_maps(const uint8_t *body, size_t size)
{
    char *text = malloc(size + 1), **names = NULL;
    pmix_rank_t *ranks = NULL;
    size_t n;

    memcpy(text, body, size);
    text[size] = '\0';
    if (PMIX_SUCCESS == maps_parse_nodes(text, &names)) {
        PMIX_ARGV_FREE(names);
    }
    for (size_t node = 0; node < 4; node++) {
        if (PMIX_SUCCESS == maps_node_ranks(text, node, &ranks, &n)) {
            free(ranks);
        }
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool started;
    if (!started) {
        if (PMIX_SUCCESS != PMIx_server_init(NULL, NULL, 0)) {
            abort();
        }
        started = true;
    }
    if (0 == size) {
        return 0;
    }
    if (data[0] < PROTOCOL_COMMAND_MAX + 2) {
        fuzz_request(data[0], data + 1, size - 1);
    } else {
        fuzz_maps(data + 1, size - 1);
    }
    return 0;
}
