/*
 * host_events.c - events the server library raises to the handlers its
 * host registered in its own process (PMIx_Register_event_handler made by
 * the host).
 *
 * Design notes:
 *  - As with OpenPMIx 4.2, a client whose connection drops before
 *    PMIx_Finalize is reported as PMIX_ERR_LOST_CONNECTION with the client
 *    as source, to the host's handlers only (range PMIX_RANGE_PROC_LOCAL).
 *    Hosts end the job on it: Slurm's default handler kills the step.
 *  - The handlers run from the loop, never inside the code that noticed
 *    the loss, so a handler may call back into the library.
 */
#include <stdlib.h>

#include "server.h"
#include "server_entry.h"

static void run_lost_handlers(void *arg)
{
    pmix_proc_t *proc = arg;
    event_run_local(PMIX_ERR_LOST_CONNECTION, proc, NULL, 0);
    free(proc);
}

void host_events_lost(const pmix_proc_t *proc)
{
    pmix_proc_t *copy = malloc(sizeof(*copy));
    if (NULL == copy) {
        return;
    }
    *copy = *proc;
    if (PMIX_SUCCESS != server_post(run_lost_handlers, copy)) {
        free(copy); /* finalizing: no handler is listening any more */
    }
}
