/*
 * client.h - what the files of the client library share. Private.
 *
 * A client process talks to one server over a Unix socket, and a second,
 * direct one for blocking calls (conn.c). The caller's threads send
 * requests themselves; a progress thread (conn.c) reads the first socket's
 * replies and events and runs callbacks, as PMIx requires of non-blocking
 * calls, while a blocking call reads its reply on the direct socket
 * itself. Data a PMIx_Get can answer locally is kept in a
 * store guarded by client.lock, so such a Get never leaves the caller's
 * thread.
 *
 * Files, one API family each:
 *   init.c      PMIx_Init, PMIx_Initialized, PMIx_Finalize, singletons
 *   conn.c      the connection, the progress thread, request/reply
 *   put.c       PMIx_Put, PMIx_Commit, PMIx_Store_internal
 *   get.c       PMIx_Get, PMIx_Get_nb
 *   fence.c     PMIx_Fence, PMIx_Fence_nb
 *   event.c     event handlers, PMIx_Notify_event
 *   tool.c      PMIx_tool_*: a tool's life and its servers
 *   group.c     PMIx_Group_*
 *   debug.c     PMIX_DEBUG_STOP_IN_INIT: waiting for a debugger
 *   iof.c       PMIx_IOF_pull, _deregister, _push
 *   topology.c  topology, cpusets, locality, device distances
 *   ...         one file per further family (abort.c, query.c,
 *               credential.c, allocation.c, monitor.c, fabric.c, ...)
 *
 * Every _nb call keeps one contract: PMIX_SUCCESS means its callback runs
 * exactly once, later, in the progress thread; any other return (PMIX_
 * OPERATION_SUCCEEDED included) means it never runs. The one exception is
 * not the caller's to see: a blocking call whose request went over the
 * direct channel (client_wait_t below) reads that reply in its own thread,
 * so the library's callback completing it runs there, not in the progress
 * thread. An outcome found
 * while working (an unknown handler reference, say) goes to the callback,
 * as OpenPMIx does, so programs that wait for it are released. A NULL
 * callback is, as in OpenPMIx, a request nobody waits for, everywhere but
 * PMIx_Get_nb (whose result has nowhere else to go).
 */
#ifndef DROVER_CLIENT_H
#define DROVER_CLIENT_H

#include <pthread.h>
#include <stdbool.h>

#include "directive.h"
#include "hashmap.h"
#include "pmix_common.h"
#include "protocol.h"
#include "role.h"
#include "server_entry.h"
#include "store.h"

typedef struct client_state {
    pthread_mutex_t lock;        /* guards the fields below */
    int refcount;                /* PMIx_Init calls not yet finalized */
    bool singleton;              /* no server: everything is local */
    pmix_proc_t me;
    store_t store;               /* what PMIx_Get answers locally */
    hashmap_t pending[3];        /* puts not yet committed: local, remote,
                                  * global; key -> pmix_value_t * */
    uint32_t commits;            /* COMMITs sent so far: FENCE and GET carry
                                  * it, so the server handles them after
                                  * the commits that precede them */
} client_state_t;

/* The one client of the process. */
extern client_state_t client;

/* Whether PMIx_Init (or PMIx_tool_init) has succeeded and PMIx_Finalize
 * not yet undone it. */
bool client_initialized(void);

/* Whether the calls that need no server (the local store, event handler
 * registration) may be used: after PMIx_Init or PMIx_tool_init, or in a
 * server's host. Open MPI's mpirun and daemons register a handler, and
 * keep data of their own with PMIx_Store_internal and read it back with
 * PMIx_Get. */
bool client_local_ready(void);

/* Run fn(arg) where callbacks run: the client's progress thread or, in a
 * server's host, the server's. */
pmix_status_t client_post(void (*fn)(void *arg), void *arg);

/* PMIx_Init and PMIx_tool_init: counted, serialised, and for one role per
 * process. The first call claims role and runs setup, which connects (or
 * sets the process up alone) and sets client.me; on its failure nothing
 * is left behind. *proc (may be NULL) receives client.me. */
pmix_status_t client_start(role_t role, pmix_status_t (*setup)(const pmix_info_t *, size_t),
                           const pmix_info_t *info, size_t ninfo, pmix_proc_t *proc);

/* PMIx_Finalize and PMIx_tool_finalize: the last call of role tears down. */
pmix_status_t client_finish(role_t role, const pmix_info_t *info, size_t ninfo);

/* Register client.me's namespace locally as a job of one of which it is
 * rank 0 (a singleton's, or a tool's own). */
pmix_status_t client_register_self(void);

/* Run without a server as client.me, rank 0 of a job of one: its job data
 * registered locally and the progress thread started. */
pmix_status_t client_start_alone(void);

/* The server URI its host put in the environment, or NULL. Borrowed. */
const char *client_uri_from_env(void);

/* Start a FENCE or GET message with the number of commits sent so far
 * (see conn.c: the server then handles it after them). */
pmix_status_t client_pack_commits(pmix_data_buffer_t *msg);

/* Store the procdata entries of a reply (count, then entries) in the
 * local store; locks client.lock itself. */
pmix_status_t client_absorb_procdata(pmix_data_buffer_t *reply);

/* Store a job registration (one or more PMIX_INFO groups read from buf
 * until its end) as the namespace nspace. Caller holds client.lock. */
pmix_status_t client_absorb_registration(const char *nspace, pmix_data_buffer_t *buf);

/* ---- debug.c ---------------------------------------------------------- */

/* In PMIx_Init: when the job's PMIX_DEBUG_STOP_IN_INIT names this process,
 * announce PMIX_READY_FOR_DEBUG and wait for PMIX_DEBUGGER_RELEASE. */
pmix_status_t client_debug_stop_in_init(void);

/* ---- conn.c ----------------------------------------------------------- */

/* Runs in the progress thread with the reply's status and the reply
 * positioned after the status (borrowed for the call). When no reply came
 * (PMIX_ERR_LOST_CONNECTION, PMIX_ERR_TIMEOUT) reply is NULL. */
typedef void (*conn_reply_fn)(pmix_status_t status, pmix_data_buffer_t *reply, void *arg);

/* Connect to the server at uri ("drover://<socket>") as proc, say HELLO
 * with info, and start the progress thread. On success *welcome holds the
 * HELLO reply after the status (caller destructs it). */
pmix_status_t conn_open(const char *uri, const pmix_proc_t *proc, const pmix_info_t *info,
                        size_t ninfo, pmix_data_buffer_t *welcome);

/* Start the progress thread alone, for a process without a server. */
pmix_status_t conn_open_local(void);

/* Stop the progress thread and close the connection; pending requests
 * fail with PMIX_ERR_LOST_CONNECTION. */
void conn_close(void);

/* Whether there is a live connection to a server. */
bool conn_connected(void);

/* Send a request; fn(arg) runs exactly once in the progress thread unless
 * an error is returned. timeout in seconds, 0 for none. payload may be
 * NULL. */
pmix_status_t conn_request(uint16_t command, const pmix_data_buffer_t *payload, int timeout,
                           conn_reply_fn fn, void *arg);

/* Send a message that gets no reply. */
pmix_status_t conn_send(uint16_t command, const pmix_data_buffer_t *payload);

/* Send a request and wait for its reply: returns the reply's status; on
 * PMIX_SUCCESS *reply (if not NULL) holds what follows the status (caller
 * destructs). PMIX_ERR_WOULD_BLOCK when called from the progress thread. */
pmix_status_t conn_call(uint16_t command, const pmix_data_buffer_t *payload, int timeout,
                        pmix_data_buffer_t *reply);

/* Run fn(arg) in the progress thread, soon. */
pmix_status_t conn_post(void (*fn)(void *arg), void *arg);

/* True in the progress thread. */
bool conn_in_progress_thread(void);

/* ---- Waiting for a non-blocking call ------------------------------------ */

/* A blocking call is its non-blocking twin plus a wait on one of these.
 * Between client_wait_init and client_wait, the first request the thread
 * sends may go over the process's direct channel (conn.c), whose reply
 * this thread then reads itself instead of waiting for the progress
 * thread: a blocking call costs one wake-up, not two. */
typedef struct client_wait {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done;
    bool direct;              /* its request went over the direct channel */
    pmix_status_t status;
} client_wait_t;

void client_wait_init(client_wait_t *w);
/* Wait for client_wait_done and return its status; destroys w. */
pmix_status_t client_wait(client_wait_t *w);
void client_wait_done(client_wait_t *w, pmix_status_t status);
/* A pmix_op_cbfunc_t that completes the client_wait_t at cbdata. */
void client_wait_op_cb(pmix_status_t status, void *cbdata);

/* The end of every blocking form: started is what its non-blocking twin
 * returned (an error means the callback will never come). Waits, and
 * returns the final status. */
pmix_status_t client_wait_started(client_wait_t *w, pmix_status_t started);

/* ---- results.c: requests answered by a status or an info array ---------- */

/* Send a request whose reply is a status only; cbfunc runs in the progress
 * thread (the calling thread for a blocking call's direct-channel request)
 * unless an error is returned. With a NULL cbfunc nobody waits. */
pmix_status_t client_request_op(uint16_t command, const pmix_data_buffer_t *msg, int timeout,
                                pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Send a request whose reply is a status and PMIX_INFO[]; cbfunc gets the
 * infos, valid until it calls the release function it is handed. With a
 * NULL cbfunc nobody waits: the reply, whatever it says, is dropped. */
pmix_status_t client_request_infos(uint16_t command, const pmix_data_buffer_t *msg, int timeout,
                                   pmix_info_cbfunc_t cbfunc, void *cbdata);

/* What a blocking call collects from a pmix_info_cbfunc_t. */
typedef struct client_results {
    client_wait_t wait;
    pmix_info_t *info;
    size_t ninfo;
} client_results_t;

/* A pmix_info_cbfunc_t keeping a copy of the infos in the client_results_t
 * at cbdata and completing its wait. */
void client_results_cb(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                       pmix_release_cbfunc_t release_fn, void *release_cbdata);

/* The start of a blocking call answered with infos: clear *info and
 * *ninfo (both NULL, or neither, for "discard the results"), refuse the
 * progress thread, and make res ready to wait on. */
pmix_status_t client_results_start(client_results_t *res, pmix_info_t **info, size_t *ninfo);

/* Wait for res (whose call returned started: an error completes it at
 * once) and hand its infos to the caller (PMIX_INFO_FREE; NULL info:
 * discard them). Returns the status. */
pmix_status_t client_wait_results(client_results_t *res, pmix_status_t started,
                                  pmix_info_t **info, size_t *ninfo);

/* Whether this process can send requests: PMIX_ERR_INIT before PMIx_Init
 * (or PMIx_tool_init), PMIX_ERR_NOT_SUPPORTED with no server to ask (a
 * singleton, a tool alone), else PMIX_SUCCESS. */
pmix_status_t client_can_ask(void);

/* ---- Directives common to many calls ------------------------------------ */

/* PMIX_TIMEOUT is read by directive_timeout (directive.h). */

/* Whether the boolean attribute key is set true among info: directive_flag
 * (directive.h), by the name the client files call it. */
bool client_flag(const pmix_info_t *info, size_t ninfo, const char *key);

/* ---- event.c ---------------------------------------------------------- */

/* An EVENT message from the server: run the handlers (progress thread). */
void event_received(pmix_data_buffer_t *payload);

/* The server is gone: fail over to PMIX_ERR_LOST_CONNECTION handlers. */
void event_lost_connection(void);

/* Forget every handler (finalize). */
void event_clear_all(void);

/* ---- iof.c ------------------------------------------------------------ */

/* An IOF message from the server: hand the output to the handlers it
 * names (progress thread). */
void iof_received(pmix_data_buffer_t *payload);

/* Stop forwarding stdin and forget every output handler (finalize). */
void iof_forget_all(void);

/* Declare the datatypes the job carries under DROVER_JOB_TYPES (none:
 * nothing to do). PMIX_ERR_TYPE_MISMATCH, with the reasons on stderr,
 * when they conflict with this process's own declarations. */
pmix_status_t client_job_types(const pmix_proc_t *me);

#endif /* DROVER_CLIENT_H */
