/*
 * fuzz_pmi_server.c - libFuzzer harness for the server's PMI connections:
 * the bytes a PMI-1 or PMI-2 client sends, as a stream, through the real
 * engine (pmi.c, pmi1.c, pmi2.c, pmi_spawn.c) in the server's progress
 * thread.
 *
 * Each input gets a freshly registered one-process job and a connection
 * served over a socket pair, as drover_server_setup_pmi makes them. The
 * input is written to the client's end, which is then shut for writing;
 * the harness reads the replies until the server hangs up, which it must
 * do at the end of the stream or earlier (a hang is a timeout finding).
 * The job is then deregistered, so one input cannot leak into the next.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pmi.h"
#include "pmix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char nspace[] = "fuzz.pmi";

typedef struct adopt_op {
    pmix_proc_t proc;
    int fd;
} adopt_op_t;

static pmix_status_t adopt_in_thread(void *arg)
{
    adopt_op_t *op = arg;
    return pmi_adopt(op->fd, &op->proc, getuid(), getgid());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool started;
    pmix_info_t info;
    uint32_t one = 1;
    int sv[2];
    char buf[4096];

    if (!started) {
        if (PMIX_SUCCESS != PMIx_server_init(NULL, NULL, 0)) {
            abort();
        }
        started = true;
    }
    PMIx_Info_load(&info, PMIX_JOB_SIZE, &one, PMIX_UINT32);
    PMIx_server_register_nspace(nspace, 1, &info, 1, NULL, NULL);
    PMIX_INFO_DESTRUCT(&info);
    adopt_op_t op = {.fd = -1};
    PMIX_LOAD_PROCID(&op.proc, nspace, 0);
    PMIx_server_register_client(&op.proc, getuid(), getgid(), NULL, NULL, NULL);
    if (0 != socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
        abort();
    }
    op.fd = sv[0];
    if (PMIX_SUCCESS != server_run_sync(adopt_in_thread, &op)) {
        abort();
    }
    /* The server may hang up before reading it all. */
    for (size_t off = 0; off < size;) {
        ssize_t n = send(sv[1], data + off, size - off, MSG_NOSIGNAL);
        if (n <= 0) {
            break;
        }
        off += (size_t)n;
    }
    shutdown(sv[1], SHUT_WR);
    for (;;) {
        ssize_t n = read(sv[1], buf, sizeof(buf));
        if (0 == n || (n < 0 && EINTR != errno)) {
            break;
        }
    }
    close(sv[1]);
    PMIx_server_deregister_nspace(nspace, NULL, NULL);
    return 0;
}
