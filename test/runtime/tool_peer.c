/*
 * tool_peer.c - the rank a tool works with (tool_basic.c): it says it is
 * ready until the tool says hello (the tool may connect before or after
 * it), echoes the stdin the tool forwards to it, and finishes when the
 * tool says it is done.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tool_codes.h"

pmix_proc_t me;
static volatile bool hello, done;

static void handler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                    pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    /* Only a tool (another namespace) says these. */
    if (!PMIX_CHECK_NSPACE(source->nspace, me.nspace)) {
        hello = hello || TOOL_HELLO == status;
        done = done || TOOL_DONE == status;
    }
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

int main(void)
{
    pmix_status_t codes[] = {TOOL_HELLO, TOOL_DONE};
    char line[256];

    CHECK_RC(PMIx_Init(&me, NULL, 0), PMIX_SUCCESS, "init");
    CHECK(PMIx_Register_event_handler(codes, 2, NULL, 0, handler, NULL, NULL) >= 0, "handler");
    for (int i = 0; i < 200 && !hello; i++) {
        CHECK_RC(PMIx_Notify_event(RANK_READY, NULL, PMIX_RANGE_LOCAL, NULL, 0, NULL, NULL),
                 PMIX_SUCCESS, "ready");
        wait_for(&hello, 1);
    }
    CHECK(hello, "the tool's hello");
    /* A bare host cannot forward stdin: nothing will come. */
    while (NULL == getenv("MINIHOST_BARE") && NULL != fgets(line, sizeof(line), stdin)) {
        printf("rank0 got: %s", line);
        fflush(stdout);
    }
    printf("rank0 stdin done\n");
    fflush(stdout);
    CHECK(wait_for(&done, 20), "the tool done");
    CHECK_RC(PMIx_Finalize(NULL, 0), PMIX_SUCCESS, "finalize");
    return 0;
}
