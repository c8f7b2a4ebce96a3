/*
 * server_entry.h - the one meeting point of the client and the server
 * libraries: what the PMIx API functions shared by every role call when
 * the process is a server (role.h), and the two things the server needs
 * of that API code. Private to the library; neither side includes the
 * other's own header.
 *
 * PMIx_Notify_event, for instance, is one exported function: in a client
 * it sends the event to its server, in a server it delivers the event to
 * the server's clients through server_entry_notify.
 */
#ifndef DROVER_SERVER_ENTRY_H
#define DROVER_SERVER_ENTRY_H

#include "pmix_common.h"
#include "store.h"

/* Deliver an event raised by the host to the local clients in range.
 * info is copied; cbfunc (may be NULL) runs once delivered, unless an
 * error is returned. */
pmix_status_t server_entry_notify(pmix_status_t code, const pmix_proc_t *source,
                                  pmix_data_range_t range, const pmix_info_t *info,
                                  size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata);

/* PMIx_Get_credential and PMIx_Validate_credential made by the host:
 * answered by its module's security functions or the library's native
 * credentials (credential.c). Arguments are borrowed until cbfunc runs,
 * which it does once, from the progress thread, unless an error is
 * returned. */
pmix_status_t server_entry_get_credential(const pmix_info_t *info, size_t ninfo,
                                          pmix_credential_cbfunc_t cbfunc, void *cbdata);
pmix_status_t server_entry_validate_credential(const pmix_byte_object_t *cred,
                                               const pmix_info_t *info, size_t ninfo,
                                               pmix_validation_cbfunc_t cbfunc, void *cbdata);

/* PMIx_IOF_push made by the host: handed to its own push_stdin (iof.c)
 * from the progress thread; cbfunc then runs from the loop, never inside
 * the host's call (with a NULL cbfunc the call waits and returns
 * push_stdin's status). PMIX_ERR_NOT_SUPPORTED without one. */
pmix_status_t server_entry_iof_push(const pmix_proc_t *targets, size_t ntargets,
                                    const pmix_byte_object_t *bo, const pmix_info_t *dirs,
                                    size_t ndirs, pmix_op_cbfunc_t cbfunc, void *cbdata);

/* PMIx_Get made by the host, of a key the library holds for proc (a job's
 * registration, data its processes committed): *value is a copy (NULL
 * unless PMIX_SUCCESS). */
pmix_status_t server_entry_get(const pmix_proc_t *proc, const char *key,
                               const store_scope_t *scope, pmix_value_t **value);

/* Run fn(arg) in the server's progress thread (callbacks of the host's
 * own non-blocking calls). PMIX_ERR_INIT when no server runs. */
pmix_status_t server_entry_post(void (*fn)(void *arg), void *arg);

/* ---- Defined by the API code (src/client/), called by the server ------- */

/* Run this process's handlers for an event (progress thread). */
void event_run_local(pmix_status_t code, const pmix_proc_t *source, const pmix_info_t *info,
                     size_t ninfo);

/* Forget what a server's host left in the store and its event handlers
 * (PMIx_server_finalize). */
void client_forget_host(void);

#endif /* DROVER_SERVER_ENTRY_H */
