/*
 * server_entry.h - what the PMIx API functions shared by every role call
 * when the process is a server (role.h). Private to the library.
 *
 * PMIx_Notify_event, for instance, is one exported function: in a client
 * it sends the event to its server, in a server it delivers the event to
 * the server's clients through server_entry_notify.
 */
#ifndef DROVER_SERVER_ENTRY_H
#define DROVER_SERVER_ENTRY_H

#include "pmix_common.h"

/* Deliver an event raised by the host to the local clients in range.
 * info is copied; cbfunc (may be NULL) runs once delivered, unless an
 * error is returned. */
pmix_status_t server_entry_notify(pmix_status_t code, const pmix_proc_t *source,
                                  pmix_data_range_t range, const pmix_info_t *info,
                                  size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata);

#endif /* DROVER_SERVER_ENTRY_H */
