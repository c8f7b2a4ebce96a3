/*
 * client_flood.c - a rank that tries to make its server hold more memory
 * than it should, over raw sockets; the server (minihost, this rank's
 * parent) must keep its resident size bounded and go on serving.
 *
 *  1. A stranger announces a 256 MiB frame before any HELLO and sends 64
 *     MiB of it: the server must hang up early and not buffer it.
 *  2. The rank says HELLO, commits a 1 MiB value, then asks for it in 200
 *     GETs and reads none of the replies (200 MiB if all were queued): the
 *     server must stop reading the rank's requests instead. Meanwhile a
 *     tool connection still gets its answers; then the rank reads every
 *     reply, whole: nothing was dropped.
 *  3. PMIx_Init with directives too large for a HELLO is refused with
 *     PMIX_ERR_BAD_PARAM (and a message), not left hanging.
 */
#include <time.h>

#include "raw.h"

#define BIG (1u << 20)
#define NGETS 200
#define STRANGER_BYTES (64u << 20)
#define MAX_GROWTH_KB (64L << 10)

static int failures;

#define EXPECT(cond, ...)                                       \
    do {                                                        \
        if (!(cond)) {                                          \
            fprintf(stderr, "client_flood: " __VA_ARGS__);      \
            fprintf(stderr, "\n");                              \
            failures++;                                         \
        }                                                       \
    } while (0)

/* The server's resident size, in KiB. */
static long server_rss_kb(void)
{
    char path[64], line[256];
    long kb = -1;
    snprintf(path, sizeof(path), "/proc/%d/status", (int)getppid());
    FILE *f = fopen(path, "r");
    while (NULL != f && NULL != fgets(line, sizeof(line), f)) {
        if (1 == sscanf(line, "VmRSS: %ld kB", &kb)) {
            break;
        }
    }
    if (NULL != f) {
        fclose(f);
    }
    return kb;
}

/* A GET of key of who, as the client library sends it (commits: how many
 * COMMITs the sender has sent). */
static void send_get(int fd, uint32_t commits, const pmix_proc_t *who, const char *key)
{
    pmix_data_buffer_t b;
    bool need_ns = false, whole = true;
    PMIX_DATA_BUFFER_CONSTRUCT(&b);
    PMIx_Data_pack(NULL, &b, &commits, 1, PMIX_UINT32);
    PMIx_Data_pack(NULL, &b, (void *)who, 1, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, &key, 1, PMIX_STRING);
    PMIx_Data_pack(NULL, &b, NULL, 0, PMIX_INFO);
    PMIx_Data_pack(NULL, &b, &need_ns, 1, PMIX_BOOL);
    PMIx_Data_pack(NULL, &b, &whole, 1, PMIX_BOOL);
    protocol_send(fd, PROTOCOL_GET, 2, &b);
    PMIX_DATA_BUFFER_DESTRUCT(&b);
}

/* Commit one value of BIG bytes under key (scopes local, remote, both). */
static void send_big_commit(int fd, const char *key)
{
    pmix_data_buffer_t b;
    pmix_byte_object_t bo = {.bytes = calloc(1, BIG), .size = BIG};
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, key, &bo, PMIX_BYTE_OBJECT);
    free(bo.bytes);
    PMIX_DATA_BUFFER_CONSTRUCT(&b);
    PMIx_Data_pack(NULL, &b, NULL, 0, PMIX_INFO);
    PMIx_Data_pack(NULL, &b, NULL, 0, PMIX_INFO);
    PMIx_Data_pack(NULL, &b, &info, 1, PMIX_INFO);
    protocol_send(fd, PROTOCOL_COMMIT, 0, &b);
    PMIX_DATA_BUFFER_DESTRUCT(&b);
    PMIX_INFO_DESTRUCT(&info);
}

/* 1. A stranger's huge frame before HELLO. */
static void stranger(void)
{
    long base = server_rss_kb();
    int fd = connect_server();
    protocol_header_t h = {.magic = PROTOCOL_MAGIC, .version = PROTOCOL_VERSION,
                           .command = PROTOCOL_HELLO, .tag = 1, .length = PROTOCOL_MAX_PAYLOAD};
    uint8_t raw[PROTOCOL_HEADER_SIZE];
    static char junk[1 << 16];
    size_t sent = 0;

    protocol_encode_header(&h, raw);
    if (send(fd, raw, sizeof(raw), MSG_NOSIGNAL) != (ssize_t)sizeof(raw)) {
        perror("client_flood: send");
    }
    while (sent < STRANGER_BYTES) {
        ssize_t n = send(fd, junk, sizeof(junk), MSG_NOSIGNAL);
        if (n <= 0) {
            break; /* hung up on, or no longer read */
        }
        sent += (size_t)n;
    }
    long growth = server_rss_kb() - base;
    EXPECT(sent < STRANGER_BYTES, "a 256 MiB frame before HELLO: all %zu bytes were taken", sent);
    EXPECT(growth < MAX_GROWTH_KB, "a 256 MiB frame before HELLO: the server grew by %ld KiB",
           growth);
    /* The answer, if it got through, refuses it; then the end. */
    uint16_t cmd;
    pmix_status_t st = reply_status(fd, &cmd);
    EXPECT(PMIX_ERR_BAD_PARAM == st || 1 == st, "the huge HELLO was answered %d", st);
    EXPECT(1 == reply_status(fd, &cmd), "the stranger's connection stays open");
    close(fd);
    printf("client_flood: a stranger's 256 MiB frame: %zu bytes taken, server +%ld KiB\n", sent,
           growth);
}

/* A tool's request is still answered while fd's replies pile up. */
static void others_served(const pmix_proc_t *me)
{
    pmix_proc_t none;
    pmix_info_t tool;
    bool yes = true;
    uint16_t cmd;
    int fd = connect_server();
    PMIX_LOAD_PROCID(&none, "", 0);
    PMIX_INFO_LOAD(&tool, PMIX_REQUESTOR_IS_TOOL, &yes, PMIX_BOOL);
    EXPECT(PMIX_SUCCESS == say_hello(fd, &none, &tool, 1), "a tool is accepted meanwhile");
    send_get(fd, 0, me, "flood.big");
    pmix_data_buffer_t rest;
    pmix_status_t st = reply_payload(fd, &cmd, &rest);
    EXPECT(PMIX_SUCCESS == st, "the tool's GET is answered meanwhile: %d", st);
    if (PMIX_SUCCESS == st) {
        PMIX_DATA_BUFFER_DESTRUCT(&rest);
    }
    close(fd);
}

/* 2. Replies never read. */
static void flood(const pmix_proc_t *me)
{
    uint16_t cmd;
    int fd = connect_server();
    EXPECT(PMIX_SUCCESS == say_hello(fd, me, NULL, 0), "HELLO as the rank");
    send_big_commit(fd, "flood.big");
    long base = server_rss_kb(), growth = 0;
    for (int i = 0; i < NGETS; i++) {
        send_get(fd, 1, me, "flood.big");
    }
    /* Give the server time to answer all of them, watching its size. */
    for (int i = 0; i < 30 && growth < MAX_GROWTH_KB; i++) {
        struct timespec ts = {0, 100000000};
        nanosleep(&ts, NULL);
        long now = server_rss_kb() - base;
        growth = now > growth ? now : growth;
    }
    EXPECT(growth < MAX_GROWTH_KB, "%d unread replies of 1 MiB: the server grew by %ld KiB",
           NGETS, growth);
    others_served(me);
    int whole = 0;
    for (int i = 0; i < NGETS; i++) {
        pmix_data_buffer_t rest;
        if (PMIX_SUCCESS != reply_payload(fd, &cmd, &rest)) {
            break;
        }
        whole += rest.bytes_used >= BIG;
        PMIX_DATA_BUFFER_DESTRUCT(&rest);
    }
    EXPECT(NGETS == whole, "%d of %d replies came, whole", whole, NGETS);
    /* Leave properly. */
    pmix_data_buffer_t none;
    PMIX_DATA_BUFFER_CONSTRUCT(&none);
    protocol_send(fd, PROTOCOL_FINALIZE, 3, &none);
    EXPECT(PMIX_SUCCESS == reply_status(fd, &cmd), "FINALIZE is answered");
    close(fd);
    printf("client_flood: %d unread 1 MiB replies: server +%ld KiB at most, %d read after\n",
           NGETS, growth, whole);
}

int main(void)
{
    pmix_proc_t me;
    const char *ns = getenv("PMIX_NAMESPACE"), *rank = getenv("PMIX_RANK");
    if (NULL == ns || NULL == rank) {
        fprintf(stderr, "client_flood: not started by a PMIx server\n");
        return 1;
    }
    PMIX_LOAD_PROCID(&me, ns, (pmix_rank_t)atoi(rank));
    stranger();
    flood(&me);
    /* The client library's own HELLO over the limit (directives too large
     * for PMIx_Init) is refused, not cut off. */
    size_t len = 2 * PROTOCOL_HELLO_MAX_PAYLOAD;
    char *big = malloc(len + 1);
    pmix_info_t info;
    memset(big, 'x', len);
    big[len] = '\0';
    PMIX_INFO_LOAD(&info, "client_flood.big", big, PMIX_STRING);
    free(big);
    pmix_status_t rc = PMIx_Init(&me, &info, 1);
    EXPECT(PMIX_ERR_BAD_PARAM == rc, "PMIx_Init with 32 KiB of directives: %s",
           PMIx_Error_string(rc));
    PMIX_INFO_DESTRUCT(&info);
    if (0 != failures) {
        fprintf(stderr, "client_flood: %d failures\n", failures);
        return 1;
    }
    return 0;
}
