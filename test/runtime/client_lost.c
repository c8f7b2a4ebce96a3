/*
 * client_lost.c - the server disappears while clients wait in a fence:
 * they must return PMIX_ERR_LOST_CONNECTION, their handler for it must
 * run, and later calls must fail at once instead of hanging.
 *
 * usage: client_lost DIR  (under minihost; rank 0 kills the server, the
 * others write DIR/rank.<r> with "ok" or what went wrong)
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pmix.h"

static volatile int handler_ran;

static void lost(size_t id, pmix_status_t status, const pmix_proc_t *source, pmix_info_t info[],
                 size_t ninfo, pmix_info_t *results, size_t nresults,
                 pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    handler_ran = 1;
    cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
}

int main(int argc, char **argv)
{
    pmix_proc_t me;
    pmix_status_t code = PMIX_ERR_LOST_CONNECTION;
    char path[4096];

    if (argc < 2 || PMIX_SUCCESS != PMIx_Init(&me, NULL, 0)) {
        return 2;
    }
    PMIx_Register_event_handler(&code, 1, NULL, 0, lost, NULL, NULL);
    PMIx_Fence(NULL, 0, NULL, 0);
    if (0 == me.rank) {
        /* Leave the others in the next fence, then take the server away. */
        usleep(200000);
        kill(getppid(), SIGKILL);
        return 0;
    }
    pmix_status_t fence = PMIx_Fence(NULL, 0, NULL, 0);
    for (int i = 0; i < 500 && !handler_ran; i++) {
        usleep(10000);
    }
    pmix_status_t after = PMIx_Fence(NULL, 0, NULL, 0);
    snprintf(path, sizeof(path), "%s/rank.%u", argv[1], me.rank);
    FILE *f = fopen(path, "w");
    if (NULL == f) {
        return 1;
    }
    if (PMIX_ERR_LOST_CONNECTION == fence && handler_ran && PMIX_SUCCESS != after) {
        fprintf(f, "ok\n");
    } else {
        fprintf(f, "fence %s, handler %d, then %s\n", PMIx_Error_string(fence), handler_ran,
                PMIx_Error_string(after));
    }
    fclose(f);
    PMIx_Finalize(NULL, 0);
    return 0;
}
