/*
 * client_hostile.c - a rank that speaks to its server over a raw socket
 * with malformed frames: each must get a clear error (or a closed
 * connection) and leave the server serving. At the end the rank
 * initialises normally and fences with the others.
 */
#include "raw.h"

static int failures;

#define EXPECT(cond, what)                                      \
    do {                                                        \
        if (!(cond)) {                                          \
            fprintf(stderr, "client_hostile: %s\n", what);      \
            failures++;                                         \
        }                                                       \
    } while (0)

static bool closed(int fd)
{
    char c;
    return 0 == recv(fd, &c, 1, 0);
}

/* Say HELLO as p on a new connection; returns the answer's status, *fd
 * the connection. */
static pmix_status_t hello(const pmix_proc_t *p, int *out)
{
    *out = connect_server();
    return say_hello(*out, p, NULL, 0);
}

int main(void)
{
    pmix_proc_t me;
    uint16_t cmd = 0;
    int fd;
    static char junk[64] = "not a pmix payload at all.....";

    PMIX_LOAD_PROCID(&me, getenv("PMIX_NAMESPACE"), (pmix_rank_t)atoi(getenv("PMIX_RANK")));

    fd = connect_server();
    send_raw(fd, PROTOCOL_MAGIC, PROTOCOL_VERSION + 1, PROTOCOL_HELLO, 0, NULL, 0);
    EXPECT(PMIX_ERR_NOT_SUPPORTED == reply_status(fd, &cmd), "another version: NOT_SUPPORTED");
    EXPECT(closed(fd), "another version: then closed");
    close(fd);

    fd = connect_server();
    send_raw(fd, 0xdeadbeef, PROTOCOL_VERSION, PROTOCOL_HELLO, 0, NULL, 0);
    EXPECT(closed(fd), "a wrong magic closes the connection");
    close(fd);

    fd = connect_server();
    send_raw(fd, PROTOCOL_MAGIC, PROTOCOL_VERSION, PROTOCOL_HELLO, 0xffffffffu, NULL, 0);
    EXPECT(closed(fd), "an oversized length closes the connection");
    close(fd);

    fd = connect_server();
    send_raw(fd, PROTOCOL_MAGIC, PROTOCOL_VERSION, PROTOCOL_FENCE, 0, NULL, 0);
    EXPECT(PMIX_ERR_NO_PERMISSIONS == reply_status(fd, &cmd), "a request before HELLO is refused");
    EXPECT(closed(fd), "and the connection closed");
    close(fd);

    fd = connect_server();
    send_raw(fd, PROTOCOL_MAGIC, PROTOCOL_VERSION, PROTOCOL_HELLO, sizeof(junk), junk,
             sizeof(junk));
    EXPECT(PMIX_SUCCESS != reply_status(fd, &cmd), "a garbage HELLO is refused");
    close(fd);

    pmix_proc_t stranger;
    PMIX_LOAD_PROCID(&stranger, "no.such.job", 0);
    EXPECT(PMIX_ERR_NOT_FOUND == hello(&stranger, &fd), "a HELLO of an unknown process fails");
    close(fd);

    /* Registered identity, then garbage payloads for every command. */
    EXPECT(PMIX_SUCCESS == hello(&me, &fd), "a proper HELLO is accepted");
    for (uint16_t c = PROTOCOL_FINALIZE; c < PROTOCOL_COMMAND_MAX + 3; c++) {
        if (PROTOCOL_FINALIZE == c || PROTOCOL_COMMIT == c || PROTOCOL_EVENT == c ||
            PROTOCOL_ABORT == c) {
            continue;
        }
        send_raw(fd, PROTOCOL_MAGIC, PROTOCOL_VERSION, c, sizeof(junk), junk, sizeof(junk));
        pmix_status_t st = reply_status(fd, &cmd);
        if (PMIX_SUCCESS == st || 1 == st) {
            fprintf(stderr, "client_hostile: command %u with garbage got %d\n", c, st);
            failures++;
        }
    }
    /* A truncated payload: a tagged group announcing more than it holds. */
    pmix_data_buffer_t b;
    PMIX_DATA_BUFFER_CONSTRUCT(&b);
    uint32_t zero = 0;
    PMIx_Data_pack(NULL, &b, &zero, 1, PMIX_UINT32);
    PMIx_Data_pack(NULL, &b, &me, 1, PMIX_PROC);
    send_raw(fd, PROTOCOL_MAGIC, PROTOCOL_VERSION, PROTOCOL_GET, (uint32_t)b.bytes_used - 3,
             b.base_ptr, b.bytes_used - 3);
    EXPECT(PMIX_SUCCESS != reply_status(fd, &cmd), "a truncated GET is refused");
    PMIX_DATA_BUFFER_DESTRUCT(&b);
    /* Leave properly, or the others' fence would see this rank gone. */
    send_raw(fd, PROTOCOL_MAGIC, PROTOCOL_VERSION, PROTOCOL_FINALIZE, 0, NULL, 0);
    EXPECT(PMIX_SUCCESS == reply_status(fd, &cmd), "FINALIZE is answered");
    close(fd);

    /* The server is still serving: a real client session works. */
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    EXPECT(PMIX_SUCCESS == rc, "PMIx_Init after the abuse");
    EXPECT(PMIX_SUCCESS == PMIx_Fence(NULL, 0, NULL, 0), "a fence after the abuse");
    PMIx_Finalize(NULL, 0);
    if (0 != failures) {
        fprintf(stderr, "client_hostile: %d failures\n", failures);
        return 1;
    }
    printf("client_hostile: rank %u ok\n", me.rank);
    return 0;
}
