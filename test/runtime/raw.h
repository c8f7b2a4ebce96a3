/*
 * raw.h - what the test ranks that speak to their server over a raw
 * socket share (client_hostile, client_flood): connecting, frames out,
 * replies in, a HELLO. They link the core archive for the framing
 * functions. Nothing here waits forever: a connection's reads and writes
 * give up after 10 s.
 */
#ifndef RUNTIME_RAW_H
#define RUNTIME_RAW_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "pmix.h"
#include "protocol.h"

/* A new connection to the server named in the environment; exits on
 * failure. */
static inline int connect_server(void)
{
    const char *uri = getenv(PROTOCOL_URI_ENV);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (NULL == uri || 0 != strncmp(uri, PROTOCOL_URI_PREFIX, strlen(PROTOCOL_URI_PREFIX))) {
        fprintf(stderr, "%s: no server\n", program_invocation_short_name);
        exit(1);
    }
    snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", uri + strlen(PROTOCOL_URI_PREFIX));
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0 || 0 != connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
        fprintf(stderr, "%s: connect: %s\n", program_invocation_short_name, strerror(errno));
        exit(1);
    }
    struct timeval tv = {.tv_sec = 10};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    return fd;
}

/* A frame with any header fields, and n bytes of payload. */
static inline void send_raw(int fd, uint32_t magic, uint16_t version, uint16_t command,
                            uint32_t length, const void *payload, size_t n)
{
    protocol_header_t h = {.magic = magic, .version = version, .command = command, .tag = 7,
                           .length = length};
    uint8_t raw[PROTOCOL_HEADER_SIZE];
    protocol_encode_header(&h, raw);
    if (write(fd, raw, sizeof(raw)) != (ssize_t)sizeof(raw) ||
        (n > 0 && write(fd, payload, n) != (ssize_t)n)) {
        fprintf(stderr, "%s: write: %s\n", program_invocation_short_name, strerror(errno));
    }
}

/* The status of the next reply, or 1 when none came; its command in
 * *command, and the payload after the status in *rest when rest is not
 * NULL (caller destructs it). */
static inline pmix_status_t reply_payload(int fd, uint16_t *command, pmix_data_buffer_t *rest)
{
    protocol_header_t h;
    pmix_data_buffer_t payload;
    pmix_status_t status;
    if (PMIX_SUCCESS != protocol_recv(fd, &h, &payload)) {
        return 1;
    }
    *command = h.command;
    if (PMIX_SUCCESS != protocol_unpack_status(&payload, &status)) {
        status = 2;
    }
    if (NULL != rest) {
        *rest = payload;
    } else {
        PMIX_DATA_BUFFER_DESTRUCT(&payload);
    }
    return status;
}

static inline pmix_status_t reply_status(int fd, uint16_t *command)
{
    return reply_payload(fd, command, NULL);
}

/* Say HELLO on fd as p, with info (a tool's says so there); returns the
 * answer's status. */
static inline pmix_status_t say_hello(int fd, const pmix_proc_t *p, const pmix_info_t *info,
                                      size_t ninfo)
{
    pmix_data_buffer_t b;
    pid_t pid = getpid();
    bool direct = false;
    uint16_t cmd;
    PMIX_DATA_BUFFER_CONSTRUCT(&b);
    PMIx_Data_pack(NULL, &b, (void *)p, 1, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, &pid, 1, PMIX_PID);
    PMIx_Data_pack(NULL, &b, (void *)info, (int32_t)ninfo, PMIX_INFO);
    PMIx_Data_pack(NULL, &b, &direct, 1, PMIX_BOOL);
    protocol_send(fd, PROTOCOL_HELLO, 1, &b);
    PMIX_DATA_BUFFER_DESTRUCT(&b);
    return reply_status(fd, &cmd);
}

#endif /* RUNTIME_RAW_H */
