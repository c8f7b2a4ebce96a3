/*
 * tool.c - the tool API: PMIx_tool_init, _finalize, _attach_to_server,
 * _connect_to_server, _disconnect, _get_servers and _set_server.
 *
 * Design notes:
 *  - A tool is a client that no host registered: its HELLO says so
 *    (PMIX_REQUESTOR_IS_TOOL) and the server gives it an identity (the one
 *    it asked for with PMIX_TOOL_NSPACE/PMIX_TOOL_RANK, or one of the
 *    host's or the server's choosing). Once connected it uses the whole
 *    client API: queries, logs, job control, events, I/O forwarding...
 *  - The server is designated by PMIX_SERVER_URI, a PMIX_TOOL_ATTACHMENT_FILE
 *    holding a URI, PMIX_SERVER_PIDINFO (the drover server of that process,
 *    found in the kernel's table of listening sockets and checked by the
 *    process id the kernel reports for it), or else
 *    the URI its environment names. With none of these, or with
 *    PMIX_TOOL_DO_NOT_CONNECT, the tool runs alone like a singleton; with
 *    PMIX_TOOL_CONNECT_OPTIONAL a designated server that cannot be
 *    reached leaves it alone too. PMIX_CONNECT_MAX_RETRIES and
 *    PMIX_CONNECT_RETRY_DELAY retry an unreachable server.
 *  - The tool keeps the identity it was first given when it attaches to
 *    further servers. It remembers every server it attached to; one, the
 *    primary, is connected at a time and receives its requests and sends
 *    it events. Making another primary (PMIx_tool_set_server, or attaching)
 *    switches the connection; disconnecting the primary leaves the tool
 *    initialised but unconnected, its requests failing with
 *    PMIX_ERR_UNREACH until it attaches again.
 *  - The system server is the user's drover daemon (docs/daemon.md):
 *    PMIX_CONNECT_TO_SYSTEM connects to it or fails, PMIX_CONNECT_SYSTEM_
 *    FIRST tries it before the server the environment names. It is found
 *    by the rendezvous file OpenPMIx's system servers write, pmix.sys.<host>
 *    (URI on its first line), but in the user's own state directory
 *    rather than the shared /tmp: a file there is the user's or refused,
 *    so no other user can pose as the system server. PMIX_SERVER_NSPACE
 *    cannot be looked up.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "client.h"
#include "directive.h"
#include "pmix.h"
#include "pmix_tool.h"
#include "statedir.h"

/* The flag /proc/net/unix shows on a listening socket (__SO_ACCEPTCON). */
#define ACCEPTING 0x10000UL

typedef struct known_server {
    pmix_proc_t proc;
    char *uri;
} known_server_t;

/* Guards the list and the switching of connections. */
static pthread_mutex_t tool_lock = PTHREAD_MUTEX_INITIALIZER;
static known_server_t *servers;
static size_t nservers;
static size_t primary = SIZE_MAX;  /* index into servers; SIZE_MAX: none */

/* A count the tool gave (retries, a delay), 0 when absent or not one. */
static uint32_t find_uint32(const pmix_info_t *info, size_t ninfo, const char *key)
{
    const pmix_value_t *v = directive_find(info, ninfo, key);
    int64_t n;

    return NULL != v && PMIX_SUCCESS == directive_integer(v, &n) && n > 0 && n <= UINT32_MAX
               ? (uint32_t)n
               : 0;
}

/* The first line of the file open as fd (closed here), as a URI. */
static pmix_status_t read_uri(int fd, char **uri)
{
    char line[4096];
    FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

    if (NULL == f) {
        if (fd >= 0) {
            close(fd);
        }
        return PMIX_ERR_UNREACH; /* no file: no way to that server */
    }
    char *got = fgets(line, sizeof(line), f);
    fclose(f);
    if (NULL == got) {
        return PMIX_ERR_BAD_PARAM;
    }
    line[strcspn(line, "\r\n")] = '\0';
    *uri = strdup(line);
    return NULL == *uri ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

/* The URI of the user's system server: the drover daemon's, from the
 * pmix.sys.<host> rendezvous in the user's state directory. The file is
 * used only if the directory and the file are the user's own (not a
 * link): another user cannot point the tool at a server of theirs. */
static pmix_status_t system_server(char **uri)
{
    char dir[PATH_MAX], name[300];
    const char *why;
    struct stat st;
    int dirfd, fd = -1;

    if (0 != statedir_path(dir, sizeof(dir)) || 0 != statedir_system_name(name, sizeof(name)) ||
        (dirfd = statedir_open(dir, &why)) < 0) {
        return PMIX_ERR_UNREACH;
    }
    fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    close(dirfd);
    if (fd >= 0 && (0 != fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
        close(fd);
        fd = -1;
    }
    return read_uri(fd, uri);
}

/* Whether the socket at path belongs to a server run by process pid. */
static bool served_by(const char *path, pid_t pid)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    struct ucred cred;
    socklen_t len = sizeof(cred);
    bool match = false;

    if (strlen(path) >= sizeof(addr.sun_path)) {
        return false;
    }
    strcpy(addr.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return false;
    }
    if (0 == connect(fd, (struct sockaddr *)&addr, sizeof(addr)) &&
        0 == getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
        match = cred.pid == pid;
    }
    close(fd);
    return match;
}

/* Whether path names a drover server's socket, server.sock in a
 * drover-server.XXXXXX directory. */
static bool server_socket_path(const char *path)
{
    const char *name = strrchr(path, '/');
    const char *dir = name;

    if (NULL == name || 0 != strcmp(name, "/server.sock")) {
        return false;
    }
    while (dir > path && '/' != dir[-1]) {
        dir--;
    }
    return 0 == strncmp(dir, "drover-server.", strlen("drover-server."));
}

/* The URI of the drover server run by process pid. The kernel's table of
 * the Unix sockets in that process's network namespace names every
 * listening socket; the one at a drover server's path whose listener is
 * pid is it, wherever its temporary directory is (a run keeps it inside
 * its session directory). */
static pmix_status_t find_by_pid(pid_t pid, char **uri)
{
    char table[64], line[PATH_MAX + 128];
    unsigned long flags;
    int at;

    snprintf(table, sizeof(table), "/proc/%ld/net/unix", (long)pid);
    FILE *f = pid > 0 ? fopen(table, "r") : NULL;
    if (NULL == f) {
        return PMIX_ERR_UNREACH; /* no such process */
    }
    *uri = NULL;
    while (NULL == *uri && NULL != fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = '\0';
        /* Num RefCount Protocol Flags Type St Inode Path */
        if (1 != sscanf(line, "%*s %*s %*s %lx %*s %*s %*s %n", &flags, &at) ||
            0 == (flags & ACCEPTING) || !server_socket_path(line + at) ||
            !served_by(line + at, pid)) {
            continue;
        }
        if (asprintf(uri, "%s%s", PROTOCOL_URI_PREFIX, line + at) < 0) {
            fclose(f);
            *uri = NULL;
            return PMIX_ERR_NOMEM;
        }
    }
    fclose(f);
    return NULL == *uri ? PMIX_ERR_UNREACH : PMIX_SUCCESS;
}

/* The URI of the server info designates (use_env: or the environment):
 * PMIX_SUCCESS with *uri (caller frees), PMIX_ERR_NOT_FOUND when none is
 * designated, or why the designated one cannot be found. */
static pmix_status_t designated(const pmix_info_t *info, size_t ninfo, bool use_env, char **uri)
{
    const pmix_value_t *v;

    *uri = NULL;
    if (NULL != (v = directive_find(info, ninfo, PMIX_SERVER_URI))) {
        if (PMIX_STRING != v->type || NULL == v->data.string) {
            return PMIX_ERR_BAD_PARAM;
        }
        *uri = strdup(v->data.string);
        return NULL == *uri ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
    }
    if (NULL != (v = directive_find(info, ninfo, PMIX_TOOL_ATTACHMENT_FILE))) {
        return PMIX_STRING == v->type && NULL != v->data.string
                   ? read_uri(open(v->data.string, O_RDONLY | O_CLOEXEC), uri)
                   : PMIX_ERR_BAD_PARAM;
    }
    if (NULL != (v = directive_find(info, ninfo, PMIX_SERVER_PIDINFO))) {
        return PMIX_PID == v->type ? find_by_pid(v->data.pid, uri) : PMIX_ERR_BAD_PARAM;
    }
    if (client_flag(info, ninfo, PMIX_CONNECT_TO_SYSTEM)) {
        return system_server(uri);
    }
    if (client_flag(info, ninfo, PMIX_CONNECT_SYSTEM_FIRST) && PMIX_SUCCESS == system_server(uri)) {
        return PMIX_SUCCESS;
    }
    if (NULL != directive_find(info, ninfo, PMIX_SERVER_NSPACE)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    const char *env = use_env ? client_uri_from_env() : NULL;
    if (NULL == env) {
        return PMIX_ERR_NOT_FOUND;
    }
    *uri = strdup(env);
    return NULL == *uri ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

/* HELLO as a tool asking for identity asked (empty namespace: any), with
 * retries as info says. On success *me and *server are filled and the
 * connection is up. */
static pmix_status_t hello(const char *uri, const pmix_proc_t *asked, const pmix_info_t *info,
                           size_t ninfo, pmix_proc_t *me, pmix_proc_t *server)
{
    pmix_info_t *mine;
    pmix_data_buffer_t welcome;
    uint32_t tries = 1 + find_uint32(info, ninfo, PMIX_CONNECT_MAX_RETRIES);
    uint32_t delay = find_uint32(info, ninfo, PMIX_CONNECT_RETRY_DELAY);
    int32_t n = 1;
    pmix_status_t rc;

    PMIX_INFO_CREATE(mine, ninfo + 1);
    if (NULL == mine) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < ninfo; i++) {
        PMIx_Info_xfer(&mine[i], &info[i]);
    }
    PMIx_Info_load(&mine[ninfo], PMIX_REQUESTOR_IS_TOOL, NULL, PMIX_BOOL);
    do {
        rc = conn_open(uri, asked, mine, ninfo + 1, &welcome);
        if (PMIX_ERR_UNREACH == rc && tries > 1 && delay > 0) {
            sleep(delay);
        }
    } while (PMIX_ERR_UNREACH == rc && --tries > 0);
    PMIX_INFO_FREE(mine, ninfo + 1);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, &welcome, me, &n, PMIX_PROC)) ||
        PMIX_SUCCESS != (rc = PMIx_Data_unpack(NULL, &welcome, server, &n, PMIX_PROC))) {
        conn_close();
    }
    PMIX_DATA_BUFFER_DESTRUCT(&welcome);
    return rc;
}

/* Remember server at uri (taken over) as the primary one. */
static pmix_status_t remember(const pmix_proc_t *server, char *uri)
{
    for (size_t i = 0; i < nservers; i++) {
        if (PMIX_CHECK_PROCID(&servers[i].proc, server) || 0 == strcmp(servers[i].uri, uri)) {
            free(servers[i].uri);
            servers[i] = (known_server_t){.proc = *server, .uri = uri};
            primary = i;
            return PMIX_SUCCESS;
        }
    }
    known_server_t *grown = realloc(servers, (nservers + 1) * sizeof(*grown));
    if (NULL == grown) {
        free(uri);
        return PMIX_ERR_NOMEM;
    }
    servers = grown;
    servers[nservers] = (known_server_t){.proc = *server, .uri = uri};
    primary = nservers++;
    return PMIX_SUCCESS;
}

/* Make the server at uri (taken over) the connected one, under tool_lock.
 * On failure the previous connection, if any, is restored. */
static pmix_status_t switch_to(char *uri, const pmix_info_t *info, size_t ninfo,
                               pmix_proc_t *server)
{
    pmix_proc_t me, asked = client.me, theirs;
    bool was_alone = client.singleton;
    pmix_status_t rc;

    conn_close();
    rc = hello(uri, &asked, info, ninfo, &me, &theirs);
    if (PMIX_SUCCESS == rc) {
        pthread_mutex_lock(&client.lock);
        bool first = '\0' == client.me.nspace[0] || was_alone;
        client.me = me;
        client.singleton = false;
        pthread_mutex_unlock(&client.lock);
        if (first) {
            rc = client_register_self();
        }
        if (PMIX_SUCCESS == rc) {
            rc = remember(&theirs, uri);
            uri = NULL;
        }
        if (NULL != server && PMIX_SUCCESS == rc) {
            *server = theirs;
        }
        free(uri);
        return rc;
    }
    free(uri);
    if (SIZE_MAX != primary && PMIX_SUCCESS == hello(servers[primary].uri, &asked, NULL, 0, &me,
                                                      &theirs)) {
        return rc;
    }
    primary = SIZE_MAX;
    if (PMIX_SUCCESS != conn_open_local()) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    return rc;
}

/* The identity info asks for, or an empty one. */
static void asked_identity(const pmix_info_t *info, size_t ninfo, pmix_proc_t *asked)
{
    const pmix_value_t *v = directive_find(info, ninfo, PMIX_TOOL_NSPACE);
    PMIX_LOAD_PROCID(asked, NULL, 0);
    if (NULL != v && PMIX_STRING == v->type && NULL != v->data.string) {
        PMIX_LOAD_NSPACE(asked->nspace, v->data.string);
        asked->rank = find_uint32(info, ninfo, PMIX_TOOL_RANK);
    }
}

/* Run without a server, as the identity asked for or tool.<host>.<pid>. */
static pmix_status_t go_alone(void)
{
    if ('\0' == client.me.nspace[0]) {
        char host[256] = "localhost";
        gethostname(host, sizeof(host) - 1);
        snprintf(client.me.nspace, sizeof(client.me.nspace), "tool.%.200s.%ld", host,
                 (long)getpid());
        client.me.rank = 0;
    }
    return client_start_alone();
}

static pmix_status_t setup_tool(const pmix_info_t *info, size_t ninfo)
{
    char *uri = NULL;
    pmix_status_t rc = PMIX_ERR_NOT_FOUND;

    asked_identity(info, ninfo, &client.me);
    if (!client_flag(info, ninfo, PMIX_TOOL_DO_NOT_CONNECT)) {
        rc = designated(info, ninfo, true, &uri);
    }
    if (PMIX_SUCCESS == rc) {
        client.singleton = true; /* until connected */
        pthread_mutex_lock(&tool_lock);
        rc = switch_to(uri, info, ninfo, NULL);
        pthread_mutex_unlock(&tool_lock);
        if (PMIX_SUCCESS == rc) {
            return rc;
        }
        conn_close();
        if (!client_flag(info, ninfo, PMIX_TOOL_CONNECT_OPTIONAL)) {
            return rc;
        }
    } else if (PMIX_ERR_NOT_FOUND != rc && !client_flag(info, ninfo, PMIX_TOOL_CONNECT_OPTIONAL)) {
        return rc;
    }
    return go_alone();
}

PMIX_EXPORT pmix_status_t PMIx_tool_init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo)
{
    return client_start(ROLE_TOOL, setup_tool, info, ninfo, proc);
}

static void forget_servers(void)
{
    for (size_t i = 0; i < nservers; i++) {
        free(servers[i].uri);
    }
    free(servers);
    servers = NULL;
    nservers = 0;
    primary = SIZE_MAX;
}

PMIX_EXPORT pmix_status_t PMIx_tool_finalize(void)
{
    pmix_status_t rc = client_finish(ROLE_TOOL, NULL, 0);
    pthread_mutex_lock(&tool_lock);
    if (PMIX_SUCCESS == rc && !client_initialized()) {
        forget_servers();
    }
    pthread_mutex_unlock(&tool_lock);
    return rc;
}

/* The tool API needs an initialised tool. */
static pmix_status_t check_tool(void)
{
    return ROLE_TOOL == role_current() && client_initialized() ? PMIX_SUCCESS : PMIX_ERR_INIT;
}

PMIX_EXPORT pmix_status_t PMIx_tool_attach_to_server(pmix_proc_t *myproc, pmix_proc_t *server,
                                                     pmix_info_t info[], size_t ninfo)
{
    char *uri = NULL;
    pmix_status_t rc = check_tool();

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL == info || 0 == ninfo) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = designated(info, ninfo, false, &uri))) {
        return PMIX_ERR_NOT_FOUND == rc ? PMIX_ERR_BAD_PARAM : rc;
    }
    pthread_mutex_lock(&tool_lock);
    rc = switch_to(uri, info, ninfo, server);
    pthread_mutex_unlock(&tool_lock);
    if (PMIX_SUCCESS == rc && NULL != myproc) {
        *myproc = client.me;
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_tool_connect_to_server(pmix_proc_t *proc, pmix_info_t info[],
                                                      size_t ninfo)
{
    return PMIx_tool_attach_to_server(proc, NULL, info, ninfo);
}

static size_t find_server(const pmix_proc_t *server)
{
    for (size_t i = 0; NULL != server && i < nservers; i++) {
        if (PMIX_CHECK_PROCID(&servers[i].proc, server)) {
            return i;
        }
    }
    return SIZE_MAX;
}

PMIX_EXPORT pmix_status_t PMIx_tool_disconnect(const pmix_proc_t *server)
{
    pmix_status_t rc = check_tool();
    size_t i;

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL == server) {
        return PMIX_ERR_BAD_PARAM;
    }
    pthread_mutex_lock(&tool_lock);
    if (SIZE_MAX == (i = find_server(server))) {
        pthread_mutex_unlock(&tool_lock);
        return PMIX_ERR_NOT_FOUND;
    }
    if (i == primary) {
        if (conn_connected()) {
            conn_call(PROTOCOL_FINALIZE, NULL, 30, NULL);
        }
        conn_close();
        primary = SIZE_MAX;
        rc = conn_open_local();
    }
    free(servers[i].uri);
    servers[i] = servers[--nservers];
    if (primary == nservers) {
        primary = i;
    }
    pthread_mutex_unlock(&tool_lock);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_tool_get_servers(pmix_proc_t *servers_out[], size_t *nservers_out)
{
    pmix_status_t rc = check_tool();

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL == servers_out || NULL == nservers_out) {
        return PMIX_ERR_BAD_PARAM;
    }
    *servers_out = NULL;
    *nservers_out = 0;
    pthread_mutex_lock(&tool_lock);
    if (nservers > 0) {
        PMIX_PROC_CREATE(*servers_out, nservers);
        if (NULL == *servers_out) {
            rc = PMIX_ERR_NOMEM;
        }
        for (size_t i = 0; PMIX_SUCCESS == rc && i < nservers; i++) {
            (*servers_out)[i] = servers[i].proc;
        }
        *nservers_out = PMIX_SUCCESS == rc ? nservers : 0;
    }
    pthread_mutex_unlock(&tool_lock);
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_tool_set_server(const pmix_proc_t *server, pmix_info_t info[],
                                               size_t ninfo)
{
    pmix_status_t rc = check_tool();
    size_t i;
    char *uri;

    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL == server || (NULL == info && 0 != ninfo)) {
        return PMIX_ERR_BAD_PARAM;
    }
    pthread_mutex_lock(&tool_lock);
    if (SIZE_MAX == (i = find_server(server))) {
        rc = PMIX_ERR_NOT_FOUND;
    } else if (i != primary || !conn_connected()) {
        rc = NULL == (uri = strdup(servers[i].uri)) ? PMIX_ERR_NOMEM
                                                     : switch_to(uri, info, ninfo, NULL);
    }
    pthread_mutex_unlock(&tool_lock);
    return rc;
}
