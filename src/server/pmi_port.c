/*
 * pmi_port.c - PMI_PORT: PMI clients that connect to an address instead
 * of inheriting a connected PMI_FD (MPICH's simple PMI does when PMI_FD is
 * unset), and say who they are with "cmd=initack pmiid=<PMI_ID>".
 *
 * Design notes:
 *  - The port listens on 127.0.0.1 only, opened at the first process set
 *    up for PMI, or at init when the host says it will have such
 *    processes (DROVER_SERVER_PMI_PROCS: drover's runs, whose launch would
 *    otherwise wait for it); it closes with the server.
 *  - Any local user can reach a TCP port, so a connection is trusted with
 *    nothing until it is identified, and then twice over: its PMI_ID must
 *    be one handed out (random, so not guessed from a rank), and the
 *    kernel must say (in /proc/net/tcp) that the connecting socket belongs
 *    to the user the process was registered with. A user with the id but
 *    not the uid gets nothing.
 *  - Connections not yet identified are capped, so opening many costs the
 *    opener, not the server.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/event.h>

#include "pmi.h"

/* Connections not yet identified beyond this are refused. */
#define MAX_UNIDENTIFIED 64

static int port_fd = -1;
static struct event *port_event;
static struct sockaddr_in port_addr;
static char address[32];
static hashmap_t ids = HASHMAP_INIT;   /* uint32 id -> pmix_proc_t * */
static unsigned unidentified;

/* The owner of the socket connected to ours from peer_addr, as the kernel
 * lists it in /proc/net/tcp: its local end is peer_addr, its remote end
 * our port. */
static bool socket_owner(const struct sockaddr_in *peer_addr, uid_t *uid)
{
    FILE *f = fopen("/proc/net/tcp", "re");
    char line[512];
    bool found = false;

    if (NULL == f) {
        return false;
    }
    while (!found && NULL != fgets(line, sizeof(line), f)) {
        unsigned local_ip, local_port, rem_ip, rem_port, owner;
        if (5 == sscanf(line, " %*u: %X:%X %X:%X %*X %*X:%*X %*X:%*X %*X %u", &local_ip,
                        &local_port, &rem_ip, &rem_port, &owner) &&
            local_ip == peer_addr->sin_addr.s_addr &&
            local_port == ntohs(peer_addr->sin_port) &&
            rem_ip == port_addr.sin_addr.s_addr && rem_port == ntohs(port_addr.sin_port)) {
            *uid = (uid_t)owner;
            found = true;
        }
    }
    fclose(f);
    return found;
}

static void on_accept(evutil_socket_t fd, short what, void *arg)
{
    for (;;) {
        struct sockaddr_in from;
        socklen_t len = sizeof(from);
        int conn = accept4(fd, (struct sockaddr *)&from, &len, SOCK_CLOEXEC | SOCK_NONBLOCK);
        uid_t uid;
        if (conn < 0) {
            return; /* drained, or retried at the next readiness */
        }
        if (unidentified >= MAX_UNIDENTIFIED || sizeof(from) != len ||
            AF_INET != from.sin_family || !socket_owner(&from, &uid) || uid != geteuid()) {
            close(conn);
            continue;
        }
        if (PMIX_SUCCESS == pmi_adopt(conn, NULL, uid, getegid())) {
            unidentified++;
        }
    }
}

pmix_status_t pmi_port_open(void)
{
    socklen_t len = sizeof(port_addr);

    if (port_fd >= 0) {
        return PMIX_SUCCESS;
    }
    port_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    memset(&port_addr, 0, sizeof(port_addr));
    port_addr.sin_family = AF_INET;
    port_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (port_fd < 0 || 0 != bind(port_fd, (struct sockaddr *)&port_addr, sizeof(port_addr)) ||
        0 != getsockname(port_fd, (struct sockaddr *)&port_addr, &len) ||
        0 != listen(port_fd, 128) ||
        NULL == (port_event = event_new(server.base, port_fd, EV_READ | EV_PERSIST, on_accept,
                                        NULL)) ||
        0 != event_add(port_event, NULL)) {
        pmi_port_close();
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    snprintf(address, sizeof(address), "127.0.0.1:%u", (unsigned)ntohs(port_addr.sin_port));
    return PMIX_SUCCESS;
}

const char *pmi_port_address(void)
{
    return address;
}

pmix_status_t pmi_port_id(const pmix_proc_t *proc, uint32_t *id)
{
    for (int tries = 0; tries < 16; tries++) {
        uint32_t candidate;
        bool created = false;
        if (sizeof(candidate) != getrandom(&candidate, sizeof(candidate), 0)) {
            return PMIX_ERR_OUT_OF_RESOURCE;
        }
        /* MPICH reads PMI_ID with atoi: a positive int. */
        candidate = (candidate & 0x7fffffffu) | 1u;
        hashmap_entry_t *e = hashmap_insert(&ids, &candidate, sizeof(candidate), &created);
        if (NULL == e) {
            return PMIX_ERR_NOMEM;
        }
        if (!created) {
            continue;
        }
        if (NULL == (e->value = malloc(sizeof(pmix_proc_t)))) {
            hashmap_remove(&ids, &candidate, sizeof(candidate));
            return PMIX_ERR_NOMEM;
        }
        *(pmix_proc_t *)e->value = *proc;
        *id = candidate;
        return PMIX_SUCCESS;
    }
    return PMIX_ERR_OUT_OF_RESOURCE;
}

bool pmi_port_identify(server_peer_t *peer, long id)
{
    uint32_t key = (uint32_t)id;
    const hashmap_entry_t *e = id > 0 && id <= 0x7fffffff ? hashmap_find(&ids, &key, sizeof(key))
                                                          : NULL;
    const server_client_t *client = NULL == e ? NULL : nspace_find_client(e->value);

    if (NULL == client || client->uid != peer->uid) {
        return false;
    }
    peer->pmi->proc = client->proc;
    peer->pmi->identified = true;
    unidentified--;
    return true;
}

void pmi_port_forget(server_peer_t *peer)
{
    if (!peer->pmi->identified && unidentified > 0) {
        unidentified--;
    }
}

void pmi_port_close(void)
{
    if (NULL != port_event) {
        event_free(port_event);
        port_event = NULL;
    }
    if (port_fd >= 0) {
        close(port_fd);
        port_fd = -1;
    }
    address[0] = '\0';
    unidentified = 0;
    hashmap_clear(&ids, free);
}
