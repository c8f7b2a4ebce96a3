/*
 * tool_alone.c - a tool without a server: PMIX_TOOL_DO_NOT_CONNECT, an
 * identity of its own asking, a designated server that is not there (an
 * error, or running alone with PMIX_TOOL_CONNECT_OPTIONAL), counted
 * init/finalize, and the tool API's refusals when not initialised. Run
 * directly, with no server in its environment.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pmix_tool.h"

pmix_proc_t me;

int main(void)
{
    pmix_info_t info[3], *results;
    pmix_proc_t *servers, other;
    size_t nservers, nresults;
    pmix_value_t *v;
    pmix_query_t q;
    uint32_t rank = 3;
    pmix_status_t rc;

    unsetenv("PMIX_SERVER_URI41");
    CHECK_RC(PMIx_tool_finalize(), PMIX_ERR_INIT, "finalize before init");
    CHECK_RC(PMIx_tool_get_servers(&servers, &nservers), PMIX_ERR_INIT, "servers before init");

    /* No server named anywhere: alone. */
    CHECK_RC(PMIx_tool_init(&me, NULL, 0), PMIX_SUCCESS, "init alone");
    CHECK(0 == strncmp(me.nspace, "tool.", 5) && 0 == me.rank, "own identity %s", me.nspace);
    CHECK_RC(PMIx_Get(&me, PMIX_JOB_SIZE, NULL, 0, &v), PMIX_SUCCESS, "own job size");
    CHECK(PMIX_UINT32 == v->type && 1 == v->data.uint32, "a job of one");
    PMIX_VALUE_RELEASE(v);
    CHECK_RC(PMIx_tool_get_servers(&servers, &nservers), PMIX_SUCCESS, "servers");
    CHECK(0 == nservers && NULL == servers, "no server");
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_NAMESPACES);
    CHECK_RC(rc, PMIX_SUCCESS, "query key");
    CHECK_RC(PMIx_Query_info(&q, 1, &results, &nresults), PMIX_ERR_NOT_SUPPORTED,
             "no one to query");
    PMIX_QUERY_DESTRUCT(&q);
    PMIX_LOAD_PROCID(&other, "some.server", 0);
    CHECK_RC(PMIx_tool_set_server(&other, NULL, 0), PMIX_ERR_NOT_FOUND, "set unknown server");
    CHECK_RC(PMIx_tool_finalize(), PMIX_SUCCESS, "finalize");

    /* An identity asked for, and told not to connect. */
    PMIX_INFO_LOAD(&info[0], PMIX_TOOL_NSPACE, "mytool", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_TOOL_RANK, &rank, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[2], PMIX_TOOL_DO_NOT_CONNECT, NULL, PMIX_BOOL);
    CHECK_RC(PMIx_tool_init(&me, info, 3), PMIX_SUCCESS, "init as mytool");
    CHECK(PMIX_CHECK_NSPACE(me.nspace, "mytool") && 3 == me.rank, "asked identity");
    CHECK_RC(PMIx_tool_init(NULL, NULL, 0), PMIX_SUCCESS, "nested init");
    CHECK_RC(PMIx_tool_finalize(), PMIX_SUCCESS, "nested finalize");
    CHECK(PMIx_Initialized(), "still initialised");
    CHECK_RC(PMIx_tool_finalize(), PMIX_SUCCESS, "last finalize");
    CHECK(!PMIx_Initialized(), "finalized");
    for (int i = 0; i < 3; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }

    /* A server named but not there. */
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_URI, "drover:///nonexistent/server.sock", PMIX_STRING);
    CHECK_RC(PMIx_tool_init(&me, info, 1), PMIX_ERR_UNREACH, "unreachable server");
    CHECK(!PMIx_Initialized(), "a failed init leaves nothing");
    PMIX_INFO_LOAD(&info[1], PMIX_TOOL_CONNECT_OPTIONAL, NULL, PMIX_BOOL);
    CHECK_RC(PMIx_tool_init(&me, info, 2), PMIX_SUCCESS, "optional connection");
    CHECK_RC(PMIx_tool_finalize(), PMIX_SUCCESS, "finalize");
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_URI, "tcp4://127.0.0.1:1", PMIX_STRING);
    CHECK_RC(PMIx_tool_init(&me, info, 1), PMIX_ERR_NOT_SUPPORTED, "not a drover server");
    PMIX_INFO_DESTRUCT(&info[0]);
    pid_t nobody = 1;
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_PIDINFO, &nobody, PMIX_PID);
    CHECK_RC(PMIx_tool_init(&me, info, 1), PMIX_ERR_UNREACH, "no server of that pid");
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_LOAD(&info[0], PMIX_TOOL_ATTACHMENT_FILE, "/nonexistent/attach", PMIX_STRING);
    CHECK_RC(PMIx_tool_init(&me, info, 1), PMIX_ERR_UNREACH, "no attachment file");
    PMIX_INFO_DESTRUCT(&info[0]);
    CHECK_RC(PMIx_tool_init(&me, NULL, 1), PMIX_ERR_BAD_PARAM, "NULL info");

    /* The process may be a client once the tool has gone. */
    CHECK_RC(PMIx_Init(&me, NULL, 0), PMIX_SUCCESS, "client after tool");
    CHECK_RC(PMIx_tool_init(NULL, NULL, 0), PMIX_ERR_INIT, "tool while a client");
    CHECK_RC(PMIx_tool_finalize(), PMIX_ERR_INIT, "tool finalize while a client");
    CHECK_RC(PMIx_Finalize(NULL, 0), PMIX_SUCCESS, "client finalize");
    printf("tool alone ok\n");
    return 0;
}
