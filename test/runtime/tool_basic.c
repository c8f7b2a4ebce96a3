/*
 * tool_basic.c - a tool attached to minihost's server (minihost -t): its
 * identity, the server's, queries, credentials, events with the rank
 * (tool_peer.c), I/O forwarding both ways (its own stdin forwarded with
 * PMIX_IOF_PUSH_STDIN, the rank's stdout pulled), disconnecting and
 * attaching again (by URI and by the server's pid), and a blocking call
 * that must end when the server goes away. MINIHOST_BARE in the
 * environment says the host is bare (no tool_connected, no push_stdin).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pmix_tool.h"
#include "tool_codes.h"

pmix_proc_t me;
static bool full;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char out[4096];

static void received(size_t iofhdlr, pmix_iof_channel_t channel, pmix_proc_t *source,
                     pmix_byte_object_t *payload, pmix_info_t info[], size_t ninfo)
{
    pthread_mutex_lock(&lock);
    size_t len = strlen(out);
    if (len + payload->size < sizeof(out)) {
        memcpy(out + len, payload->bytes, payload->size);
        out[len + payload->size] = '\0';
    }
    pthread_mutex_unlock(&lock);
}

static bool arrives(const char *text)
{
    struct timespec tick = {.tv_nsec = 10 * 1000 * 1000};
    for (int i = 0; i < 2000; i++) {
        pthread_mutex_lock(&lock);
        bool found = NULL != strstr(out, text);
        pthread_mutex_unlock(&lock);
        if (found) {
            return true;
        }
        nanosleep(&tick, NULL);
    }
    return false;
}

static pmix_status_t query_one(const char *key, pmix_info_t **results, size_t *nresults)
{
    pmix_query_t q;
    pmix_status_t rc;
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, key);
    rc = PMIx_Query_info(&q, 1, results, nresults);
    PMIX_QUERY_DESTRUCT(&q);
    return rc;
}

static volatile bool rank_ready;

static void ready(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                  size_t ninfo, pmix_info_t results[], size_t nresults,
                  pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    rank_ready = true;
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void notify(pmix_status_t code)
{
    CHECK_RC(PMIx_Notify_event(code, NULL, PMIX_RANGE_LOCAL, NULL, 0, NULL, NULL), PMIX_SUCCESS,
             "notify the rank");
}

static void identities(pmix_proc_t *server)
{
    pmix_proc_t *servers, again;
    size_t nservers;
    pmix_info_t *results;
    size_t nresults;

    if (full) {
        CHECK(PMIX_CHECK_NSPACE(me.nspace, "minihost.tools") && 0 == me.rank,
              "identity from the host: %s:%u", me.nspace, me.rank);
    } else {
        CHECK(NULL != strstr(me.nspace, ".tool.") && 0 == me.rank,
              "identity from the server: %s:%u", me.nspace, me.rank);
    }
    CHECK(PMIx_Initialized(), "initialised");
    CHECK_RC(PMIx_tool_init(&again, NULL, 0), PMIX_SUCCESS, "second init");
    CHECK(PMIX_CHECK_PROCID(&again, &me), "same identity");
    CHECK_RC(PMIx_tool_finalize(), PMIX_SUCCESS, "undo second init");
    CHECK_RC(PMIx_Init(&again, NULL, 0), PMIX_ERR_INIT, "a tool is no client");
    CHECK_RC(PMIx_tool_get_servers(&servers, &nservers), PMIX_SUCCESS, "servers");
    CHECK(1 == nservers && 0 == strncmp(servers[0].nspace, "drover-server.", 14),
          "one drover server (%s)", 1 == nservers ? servers[0].nspace : "");
    *server = servers[0];
    PMIX_PROC_FREE(servers, nservers);
    CHECK_RC(query_one(PMIX_SERVER_URI, &results, &nresults), PMIX_SUCCESS, "server uri");
    CHECK(0 == strcmp(results[0].value.data.string, getenv("PMIX_SERVER_URI41")), "uri");
    PMIX_INFO_FREE(results, nresults);
    CHECK_RC(query_one(PMIX_QUERY_NUM_PSETS, &results, &nresults), PMIX_SUCCESS, "psets");
    CHECK(1 == results[0].value.data.size, "one pset");
    PMIX_INFO_FREE(results, nresults);
}

/* A tool logs and controls jobs like a client. */
static void relays(void)
{
    pmix_info_t line, dir, *results;
    size_t nresults;

    PMIX_INFO_LOAD(&line, PMIX_LOG_STDERR, "tool_basic: a line logged by the tool\n",
                   PMIX_STRING);
    CHECK_RC(PMIx_Log(&line, 1, NULL, 0), PMIX_SUCCESS, "log");
    PMIX_INFO_DESTRUCT(&line);
    if (!full) {
        return; /* only the full host defines sets on request */
    }
    PMIX_INFO_LOAD(&dir, "minihost.pset.define", "tool.set", PMIX_STRING);
    CHECK_RC(PMIx_Job_control(NULL, 0, &dir, 1, NULL, NULL), PMIX_SUCCESS, "job control");
    PMIX_INFO_DESTRUCT(&dir);
    CHECK_RC(query_one(PMIX_QUERY_NUM_PSETS, &results, &nresults), PMIX_SUCCESS, "psets");
    CHECK(2 == results[0].value.data.size, "the tool's set defined");
    PMIX_INFO_FREE(results, nresults);
    PMIX_INFO_LOAD(&dir, "minihost.pset.delete", "tool.set", PMIX_STRING);
    CHECK_RC(PMIx_Job_control(NULL, 0, &dir, 1, NULL, NULL), PMIX_SUCCESS, "job control");
    PMIX_INFO_DESTRUCT(&dir);
}

static void credential(void)
{
    pmix_byte_object_t cred;
    pmix_info_t *results;
    size_t nresults;

    CHECK_RC(PMIx_Get_credential(NULL, 0, &cred), PMIX_SUCCESS, "tool credential");
    CHECK_RC(PMIx_Validate_credential(&cred, NULL, 0, &results, &nresults), PMIX_SUCCESS,
             "tool credential validated");
    PMIX_INFO_FREE(results, nresults);
    PMIX_BYTE_OBJECT_DESTRUCT(&cred);
}

static void forwarding(void)
{
    pmix_proc_t rank0;
    pmix_info_t fwd;

    PMIX_LOAD_PROCID(&rank0, "minihost.job", 0);
    pmix_status_t ref = PMIx_IOF_pull(&rank0, 1, NULL, 0, PMIX_FWD_STDOUT_CHANNEL, received,
                                      NULL, NULL);
    CHECK(ref >= 0, "pull: %s", PMIx_Error_string(ref));
    CHECK(wait_for(&rank_ready, 20), "the rank ready");
    notify(TOOL_HELLO);
    PMIX_INFO_LOAD(&fwd, PMIX_IOF_PUSH_STDIN, NULL, PMIX_BOOL);
    /* Under a bare host the forwarding starts, but nothing gets through. */
    CHECK_RC(PMIx_IOF_push(&rank0, 1, NULL, &fwd, 1, NULL, NULL), PMIX_SUCCESS,
             "forward my stdin");
    PMIX_INFO_DESTRUCT(&fwd);
    if (full) {
        CHECK(arrives("rank0 got: tool input\n"), "my stdin echoed (got '%s')", out);
    }
    CHECK(arrives("rank0 stdin done\n"), "end of the rank's stdin (got '%s')", out);
    CHECK_RC(PMIx_IOF_deregister((size_t)ref, NULL, 0, NULL, NULL), PMIX_SUCCESS, "deregister");
}

static void reattach(const pmix_proc_t *server)
{
    pmix_proc_t me2, srv2, *servers, bogus;
    size_t nservers;
    pmix_info_t *results, where;
    size_t nresults;
    char *uri = getenv("PMIX_SERVER_URI41");

    CHECK_RC(PMIx_tool_disconnect(server), PMIX_SUCCESS, "disconnect");
    CHECK_RC(PMIx_tool_get_servers(&servers, &nservers), PMIX_SUCCESS, "servers");
    CHECK(0 == nservers && NULL == servers, "no server left");
    CHECK(PMIX_SUCCESS != query_one(PMIX_SERVER_URI, &results, &nresults),
          "queries need a server");
    PMIX_INFO_LOAD(&where, PMIX_SERVER_URI, uri, PMIX_STRING);
    CHECK_RC(PMIx_tool_attach_to_server(&me2, &srv2, &where, 1), PMIX_SUCCESS, "attach by URI");
    PMIX_INFO_DESTRUCT(&where);
    CHECK(PMIX_CHECK_PROCID(&srv2, server), "the same server");
    CHECK(full ? PMIX_CHECK_NSPACE(me2.nspace, "minihost.tools") && 1 == me2.rank
               : PMIX_CHECK_PROCID(&me2, &me),
          "identity after attaching again: %s:%u", me2.nspace, me2.rank);
    CHECK_RC(query_one(PMIX_SERVER_URI, &results, &nresults), PMIX_SUCCESS, "query again");
    PMIX_INFO_FREE(results, nresults);

    pid_t host = (pid_t)atol(getenv("MINIHOST_PID"));
    PMIX_INFO_LOAD(&where, PMIX_SERVER_PIDINFO, &host, PMIX_PID);
    CHECK_RC(PMIx_tool_attach_to_server(NULL, &srv2, &where, 1), PMIX_SUCCESS, "attach by pid");
    PMIX_INFO_DESTRUCT(&where);
    CHECK(PMIX_CHECK_PROCID(&srv2, server), "found by pid");
    CHECK_RC(PMIx_tool_get_servers(&servers, &nservers), PMIX_SUCCESS, "servers");
    CHECK(1 == nservers, "the server is remembered once");
    PMIX_PROC_FREE(servers, nservers);

    char path[] = "/tmp/tool_basic.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && (ssize_t)strlen(uri) == write(fd, uri, strlen(uri)) && 1 == write(fd, "\n", 1),
          "attachment file");
    close(fd);
    PMIX_INFO_LOAD(&where, PMIX_TOOL_ATTACHMENT_FILE, path, PMIX_STRING);
    pmix_status_t rc = PMIx_tool_attach_to_server(NULL, &srv2, &where, 1);
    unlink(path);
    CHECK_RC(rc, PMIX_SUCCESS, "attach through a file");
    PMIX_INFO_DESTRUCT(&where);
    CHECK(PMIX_CHECK_PROCID(&srv2, server), "found through the file");

    PMIX_INFO_LOAD(&where, PMIX_SERVER_URI, "drover:///nonexistent/server.sock", PMIX_STRING);
    CHECK_RC(PMIx_tool_attach_to_server(NULL, NULL, &where, 1), PMIX_ERR_UNREACH,
             "attach to no server");
    PMIX_INFO_DESTRUCT(&where);
    CHECK_RC(query_one(PMIX_SERVER_URI, &results, &nresults), PMIX_SUCCESS,
             "still attached to the first");
    PMIX_INFO_FREE(results, nresults);
    CHECK_RC(PMIx_tool_set_server(server, NULL, 0), PMIX_SUCCESS, "set the primary");
    PMIX_LOAD_PROCID(&bogus, "no.such.server", 0);
    CHECK_RC(PMIx_tool_set_server(&bogus, NULL, 0), PMIX_ERR_NOT_FOUND, "set an unknown one");
    CHECK_RC(PMIx_tool_disconnect(&bogus), PMIX_ERR_NOT_FOUND, "disconnect an unknown one");
    CHECK_RC(PMIx_tool_attach_to_server(NULL, NULL, NULL, 0), PMIX_ERR_BAD_PARAM,
             "attach to nothing");
}

int main(void)
{
    pmix_proc_t server;
    pmix_info_t *results;
    size_t nresults;

    /* minihost says which host it runs (it passes a tool no arguments). */
    full = NULL == getenv("MINIHOST_BARE");
    pmix_status_t code = RANK_READY;
    CHECK_RC(PMIx_tool_init(&me, NULL, 0), PMIX_SUCCESS, "tool init");
    CHECK(PMIx_Register_event_handler(&code, 1, NULL, 0, ready, NULL, NULL) >= 0, "handler");
    identities(&server);
    relays();
    credential();
    forwarding();
    reattach(&server);
    /* The rank finishes, minihost finalizes its server: a blocking call
     * waiting on it must end. */
    notify(TOOL_DONE);
    pmix_status_t rc = PMIx_Group_join("g.never", NULL, PMIX_GROUP_ACCEPT, NULL, 0, &results,
                                       &nresults);
    CHECK(PMIX_ERR_LOST_CONNECTION == rc || PMIX_ERR_UNREACH == rc,
          "blocked call when the server left: %s", PMIx_Error_string(rc));
    CHECK(PMIX_SUCCESS != query_one(PMIX_SERVER_URI, &results, &nresults), "no server");
    CHECK_RC(PMIx_tool_finalize(), PMIX_SUCCESS, "tool finalize");
    CHECK_RC(PMIx_tool_finalize(), PMIX_ERR_INIT, "finalize twice");
    fprintf(stderr, "%s:%u: tool ok (%s host)\n", me.nspace, me.rank, full ? "full" : "bare");
    return 0;
}
