/*
 * server_fdlimit.c - a server that has run out of descriptors does not
 * spin on its listener, and serves the waiting connection once
 * descriptors are free again.
 *
 * The process limits itself to a few open files (soft and hard, so the
 * server cannot raise them), starts the server library, makes a socket,
 * fills every free descriptor and only then connects: the server's accept
 * fails with EMFILE. Its CPU time over a second must stay small (it spun at a whole
 * core before). Then the descriptors are closed, and the connection must
 * be accepted and answered (a frame with a wrong magic is closed at once).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "pmix_server.h"
#include "server.h"

#define FILE_LIMIT 64
#define MAX_CPU_SECONDS 0.3

static int failures;

static void expect(bool ok, const char *what)
{
    printf("%s - %s\n", ok ? "ok" : "not ok", what);
    failures += !ok;
}

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static bool connect_to(int fd, const char *path)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
    return 0 == connect(fd, (struct sockaddr *)&addr, sizeof(addr));
}

/* Whether the server closes fd within seconds of a frame it must refuse. */
static bool refused_within(int fd, int seconds)
{
    static const uint8_t bad[PROTOCOL_HEADER_SIZE] = "not a frame....";
    struct pollfd p = {.fd = fd, .events = POLLIN};
    char c;
    if (write(fd, bad, sizeof(bad)) != (ssize_t)sizeof(bad)) {
        return false;
    }
    return 1 == poll(&p, 1, seconds * 1000) && recv(fd, &c, 1, 0) <= 0;
}

int main(void)
{
    struct rlimit rl = {FILE_LIMIT, FILE_LIMIT};
    int fillers[FILE_LIMIT], nfillers = 0;

    if (0 != setrlimit(RLIMIT_NOFILE, &rl)) {
        perror("server_fdlimit: setrlimit");
        return 1;
    }
    if (PMIX_SUCCESS != PMIx_server_init(NULL, NULL, 0)) {
        fprintf(stderr, "server_fdlimit: PMIx_server_init failed\n");
        return 1;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    while (nfillers < FILE_LIMIT && (fillers[nfillers] = open("/dev/null", O_RDONLY)) >= 0) {
        nfillers++;
    }
    expect(EMFILE == errno, "every descriptor is taken");
    expect(fd >= 0 && connect_to(fd, server.socket_path), "connected to the server");
    /* Let the server meet EMFILE, then measure. */
    usleep(200000);
    double before = cpu_seconds();
    sleep(1);
    double used = cpu_seconds() - before;
    char what[128];
    snprintf(what, sizeof(what), "no busy loop while accept fails: %.3f s of CPU in 1 s", used);
    expect(used < MAX_CPU_SECONDS, what);
    while (nfillers > 0) {
        close(fillers[--nfillers]);
    }
    expect(fd >= 0 && refused_within(fd, 10),
           "once descriptors are free the waiting connection is served");
    if (fd >= 0) {
        close(fd);
    }
    PMIx_server_finalize();
    return 0 == failures ? 0 : 1;
}
