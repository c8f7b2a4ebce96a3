/*
 * pmix_server.h - the PMIx server API: what a host (a launcher or resource
 * manager daemon) calls, and the module of functions it hands the library.
 *
 * The prototypes, the function-pointer types and the layout of
 * pmix_server_module_t are those of OpenPMIx 4.2.2, so a host built against
 * that library links and runs against drover's. The comments are drover's
 * own. The client API of pmix.h is not included here; a host that also
 * needs it includes pmix.h itself.
 *
 * Rules every comment below relies on:
 *  - Calls into the library: arguments are borrowed, until return for a
 *    blocking call and until the callback has run for a non-blocking one.
 *    A call that takes a cbfunc and returns PMIX_SUCCESS runs it exactly
 *    once later, from the library's progress thread and never inside the
 *    call itself, even when the host makes the call from inside one of its
 *    module functions; any other return means it never runs. Where noted,
 *    a NULL cbfunc makes the call block, and success is then reported as
 *    PMIX_OPERATION_SUCCEEDED.
 *  - Calls from the library into the host (the module below): the host must
 *    return quickly and finish the work asynchronously. It returns
 *    PMIX_SUCCESS and later calls cbfunc exactly once; returns
 *    PMIX_OPERATION_SUCCEEDED when it finished at once and will not call
 *    cbfunc; or returns an error and never calls cbfunc. Everything the
 *    library passes in is the library's, borrowed until cbfunc has been
 *    called (or, if it is not to be called, until the function returns);
 *    what the host passes back through cbfunc stays the host's and may be
 *    freed once cbfunc returns, or once the library calls the release_fn
 *    the host supplied.
 *  - The host may call cbfunc from any thread, including inside the module
 *    function, holding its own locks: the library only records the answer
 *    there, and acts on it (replies, calls release_fn) from its progress
 *    thread after the module function has returned. Slurm's fence_nb, for
 *    one, answers inline while holding a lock its release_fn takes.
 *  - A client whose connection drops before PMIx_Finalize is reported to
 *    the event handlers the host registered in its own process
 *    (PMIx_Register_event_handler) as PMIX_ERR_LOST_CONNECTION, with the
 *    client as source, as OpenPMIx 4.2 does; hosts end the job on it.
 *  - Registration: PMIX_NUM_NODES and PMIX_NODE_LIST are derived from a
 *    PMIX_NODE_MAP the host gives (unless it gives them too; a node map
 *    that cannot be read fails the registration with PMIX_ERR_BAD_PARAM);
 *    PMIX_NODE_MAP and PMIX_PROC_MAP themselves are not returned to
 *    clients' PMIx_Get, as with OpenPMIx.
 */
#ifndef PMIx_SERVER_API_H
#define PMIx_SERVER_API_H

#include <pmix_common.h>

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* ---- Host module: client lifecycle ------------------------------------ */

/* A registered client has connected. As in OpenPMIx 4.2, the client has
 * already been answered and goes on: the library calls this afterwards
 * with a NULL cbfunc and waits for nothing. An error return closes the
 * client's connection. server_object is the pointer the host gave
 * PMIx_server_register_client (the host's, never freed by the library).
 * Superseded by client_connected2. */
typedef pmix_status_t (*pmix_server_client_connected_fn_t)(const pmix_proc_t *proc,
                                                           void *server_object,
                                                           pmix_op_cbfunc_t cbfunc, void *cbdata);

/* As pmix_server_client_connected_fn_t, with the information the client
 * sent (borrowed, like every input), but its return is ignored (as in
 * OpenPMIx 4.2). Used instead of client_connected when both are set. */
typedef pmix_status_t (*pmix_server_client_connected2_fn_t)(const pmix_proc_t *proc,
                                                            void *server_object,
                                                            pmix_info_t info[], size_t ninfo,
                                                            pmix_op_cbfunc_t cbfunc,
                                                            void *cbdata);

/* A client called PMIx_Finalize and is held until cbfunc runs. */
typedef pmix_status_t (*pmix_server_client_finalized_fn_t)(const pmix_proc_t *proc,
                                                           void *server_object,
                                                           pmix_op_cbfunc_t cbfunc, void *cbdata);

/* A client called PMIx_Abort: terminate procs (NULL: the client's whole
 * namespace) reporting status and msg; the client is held until cbfunc
 * runs. */
typedef pmix_status_t (*pmix_server_abort_fn_t)(const pmix_proc_t *proc, void *server_object,
                                                int status, const char msg[], pmix_proc_t procs[],
                                                size_t nprocs, pmix_op_cbfunc_t cbfunc,
                                                void *cbdata);

/* ---- Host module: data exchange --------------------------------------- */

/* All local participants of a fence over procs have arrived: run the
 * collective across the involved hosts, contributing data (ndata bytes,
 * NULL when there is none), and pass the combined data to cbfunc. data
 * becomes the host's, to release with free(), as with OpenPMIx. */
typedef pmix_status_t (*pmix_server_fencenb_fn_t)(const pmix_proc_t procs[], size_t nprocs,
                                                  const pmix_info_t info[], size_t ninfo,
                                                  char *data, size_t ndata,
                                                  pmix_modex_cbfunc_t cbfunc, void *cbdata);

/* Fetch proc's posted data from the server of the node hosting it (through
 * PMIx_server_dmodex_request there) and pass it to cbfunc. */
typedef pmix_status_t (*pmix_server_dmodex_req_fn_t)(const pmix_proc_t *proc,
                                                     const pmix_info_t info[], size_t ninfo,
                                                     pmix_modex_cbfunc_t cbfunc, void *cbdata);

/* Store the key-value pairs proc publishes (default range: the session),
 * refusing a key already published in that range. Here and in lookup and
 * unpublish, info ends with the requestor's PMIX_USERID and PMIX_GRPID. */
typedef pmix_status_t (*pmix_server_publish_fn_t)(const pmix_proc_t *proc,
                                                  const pmix_info_t info[], size_t ninfo,
                                                  pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Look up the NULL-terminated keys for proc and pass what was found, with
 * each publisher's identity, to cbfunc. */
typedef pmix_status_t (*pmix_server_lookup_fn_t)(const pmix_proc_t *proc, char **keys,
                                                 const pmix_info_t info[], size_t ninfo,
                                                 pmix_lookup_cbfunc_t cbfunc, void *cbdata);

/* Delete proc's publications under the NULL-terminated keys. */
typedef pmix_status_t (*pmix_server_unpublish_fn_t)(const pmix_proc_t *proc, char **keys,
                                                    const pmix_info_t info[], size_t ninfo,
                                                    pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ---- Host module: jobs and connections -------------------------------- */

/* Launch apps for proc; call cbfunc with the new namespace once every
 * process has started, or with an error after tearing the job down. */
typedef pmix_status_t (*pmix_server_spawn_fn_t)(const pmix_proc_t *proc,
                                                const pmix_info_t job_info[], size_t ninfo,
                                                const pmix_app_t apps[], size_t napps,
                                                pmix_spawn_cbfunc_t cbfunc, void *cbdata);

/* Every local member of procs called PMIx_Connect: complete the collective
 * across hosts and treat the set as connected (failures are reported). */
typedef pmix_status_t (*pmix_server_connect_fn_t)(const pmix_proc_t procs[], size_t nprocs,
                                                  const pmix_info_t info[], size_t ninfo,
                                                  pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Every local member of procs called PMIx_Disconnect: complete the
 * collective across hosts, or fail if they were not connected. */
typedef pmix_status_t (*pmix_server_disconnect_fn_t)(const pmix_proc_t procs[], size_t nprocs,
                                                     const pmix_info_t info[], size_t ninfo,
                                                     pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ---- Host module: events ---------------------------------------------- */

/* Start passing the host's events with these codes to the library (events
 * about registered namespaces are always passed). */
typedef pmix_status_t (*pmix_server_register_events_fn_t)(pmix_status_t *codes, size_t ncodes,
                                                          const pmix_info_t info[], size_t ninfo,
                                                          pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Stop passing events with these codes. */
typedef pmix_status_t (*pmix_server_deregister_events_fn_t)(pmix_status_t *codes, size_t ncodes,
                                                            pmix_op_cbfunc_t cbfunc,
                                                            void *cbdata);

/* Deliver event code raised by source to the processes in range beyond this
 * server's own clients. */
typedef pmix_status_t (*pmix_server_notify_event_fn_t)(pmix_status_t code,
                                                       const pmix_proc_t *source,
                                                       pmix_data_range_t range, pmix_info_t info[],
                                                       size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                                       void *cbdata);

/* ---- Host module: connection listener --------------------------------- */

/* The library's handler for a connection the host accepted: it takes over
 * the socket incoming_sd. */
typedef void (*pmix_connection_cbfunc_t)(int incoming_sd, void *cbdata);

/* Watch listening_sd in the host's own thread, accept each connection and
 * hand the new socket to cbfunc. When the host provides no listener the
 * library runs its own. */
typedef pmix_status_t (*pmix_server_listener_fn_t)(int listening_sd,
                                                   pmix_connection_cbfunc_t cbfunc, void *cbdata);

/* ---- Host module: queries and tools ----------------------------------- */

/* Answer queries from proct that the library cannot answer itself. */
typedef pmix_status_t (*pmix_server_query_fn_t)(pmix_proc_t *proct, pmix_query_t *queries,
                                                size_t nqueries, pmix_info_cbfunc_t cbfunc,
                                                void *cbdata);

/* How the host tells the library the identity it assigned to a connecting
 * tool; proc is borrowed until the function returns. */
typedef void (*pmix_tool_connection_cbfunc_t)(pmix_status_t status, pmix_proc_t *proc,
                                              void *cbdata);

/* A tool is connecting (info carries its uid, gid and forwarding wishes):
 * assign it a namespace and rank and report them through cbfunc, which must
 * always be called since this function returns nothing. */
typedef void (*pmix_server_tool_connection_fn_t)(pmix_info_t *info, size_t ninfo,
                                                 pmix_tool_connection_cbfunc_t cbfunc,
                                                 void *cbdata);

/* ---- Host module: logging, allocation, control, monitoring ------------ */

/* Log data for client on a channel chosen by directives, without calling
 * PMIx_Log (which would come straight back here). Returns nothing, so cbfunc
 * must always be called. */
typedef void (*pmix_server_log_fn_t)(const pmix_proc_t *client, const pmix_info_t data[],
                                     size_t ndata, const pmix_info_t directives[], size_t ndirs,
                                     pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Carry out client's PMIx_Allocation_request. */
typedef pmix_status_t (*pmix_server_alloc_fn_t)(const pmix_proc_t *client,
                                                pmix_alloc_directive_t directive,
                                                const pmix_info_t data[], size_t ndata,
                                                pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Carry out requestor's PMIx_Job_control on targets. */
typedef pmix_status_t (*pmix_server_job_control_fn_t)(const pmix_proc_t *requestor,
                                                      const pmix_proc_t targets[], size_t ntargets,
                                                      const pmix_info_t directives[], size_t ndirs,
                                                      pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Carry out requestor's PMIx_Process_monitor. */
typedef pmix_status_t (*pmix_server_monitor_fn_t)(const pmix_proc_t *requestor,
                                                  const pmix_info_t *monitor, pmix_status_t error,
                                                  const pmix_info_t directives[], size_t ndirs,
                                                  pmix_info_cbfunc_t cbfunc, void *cbdata);

/* ---- Host module: security -------------------------------------------- */

/* Issue a credential for proc from the host's security service. */
typedef pmix_status_t (*pmix_server_get_cred_fn_t)(const pmix_proc_t *proc,
                                                   const pmix_info_t directives[], size_t ndirs,
                                                   pmix_credential_cbfunc_t cbfunc, void *cbdata);

/* Check the credential cred presented by proc. */
typedef pmix_status_t (*pmix_server_validate_cred_fn_t)(const pmix_proc_t *proc,
                                                        const pmix_byte_object_t *cred,
                                                        const pmix_info_t directives[],
                                                        size_t ndirs,
                                                        pmix_validation_cbfunc_t cbfunc,
                                                        void *cbdata);

/* ---- Host module: I/O forwarding -------------------------------------- */

/* Forward the output channels of procs to this server (or stop, given
 * PMIX_IOF_STOP); stdin is never requested this way. */
typedef pmix_status_t (*pmix_server_iof_fn_t)(const pmix_proc_t procs[], size_t nprocs,
                                              const pmix_info_t directives[], size_t ndirs,
                                              pmix_iof_channel_t channels,
                                              pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Carry the stdin bytes bo from source to the servers hosting targets. */
typedef pmix_status_t (*pmix_server_stdin_fn_t)(const pmix_proc_t *source,
                                                const pmix_proc_t targets[], size_t ntargets,
                                                const pmix_info_t directives[], size_t ndirs,
                                                const pmix_byte_object_t *bo,
                                                pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ---- Host module: groups and fabric ----------------------------------- */

/* Run the collective behind a group construct or destruct (op) of grp over
 * procs, including requested actions such as assigning a context id, and
 * pass their results to cbfunc. */
typedef pmix_status_t (*pmix_server_grp_fn_t)(pmix_group_operation_t op, char grp[],
                                              const pmix_proc_t procs[], size_t nprocs,
                                              const pmix_info_t directives[], size_t ndirs,
                                              pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Obtain fabric information (op) for requestor from the host. */
typedef pmix_status_t (*pmix_server_fabric_fn_t)(const pmix_proc_t *requestor,
                                                 pmix_fabric_operation_t op,
                                                 const pmix_info_t directives[], size_t ndirs,
                                                 pmix_info_cbfunc_t cbfunc, void *cbdata);

/* ---- The host module -------------------------------------------------- */

/* The functions a host offers the library; a NULL entry means "not
 * supported". PMIx_server_init copies the struct. The member order is part
 * of the ABI: members were only ever appended, one block per standard
 * version. */
typedef struct pmix_server_module_4_0_0_t {
    /* PMIx v1 */
    pmix_server_client_connected_fn_t client_connected;
    pmix_server_client_finalized_fn_t client_finalized;
    pmix_server_abort_fn_t abort;
    pmix_server_fencenb_fn_t fence_nb;
    pmix_server_dmodex_req_fn_t direct_modex;
    pmix_server_publish_fn_t publish;
    pmix_server_lookup_fn_t lookup;
    pmix_server_unpublish_fn_t unpublish;
    pmix_server_spawn_fn_t spawn;
    pmix_server_connect_fn_t connect;
    pmix_server_disconnect_fn_t disconnect;
    pmix_server_register_events_fn_t register_events;
    pmix_server_deregister_events_fn_t deregister_events;
    pmix_server_listener_fn_t listener;
    /* PMIx v2 */
    pmix_server_notify_event_fn_t notify_event;
    pmix_server_query_fn_t query;
    pmix_server_tool_connection_fn_t tool_connected;
    pmix_server_log_fn_t log;
    pmix_server_alloc_fn_t allocate;
    pmix_server_job_control_fn_t job_control;
    pmix_server_monitor_fn_t monitor;
    /* PMIx v3 */
    pmix_server_get_cred_fn_t get_credential;
    pmix_server_validate_cred_fn_t validate_credential;
    pmix_server_iof_fn_t iof_pull;
    pmix_server_stdin_fn_t push_stdin;
    /* PMIx v4 */
    pmix_server_grp_fn_t group;
    pmix_server_fabric_fn_t fabric;
    pmix_server_client_connected2_fn_t client_connected2;
} pmix_server_module_t;

/* ---- Server lifecycle ------------------------------------------------- */

/* Start the server library in the host: copy *module (NULL: no host
 * functions), create the rendezvous points clients and tools connect to.
 * Blocks until ready; info is borrowed for the call. */
PMIX_EXPORT pmix_status_t PMIx_server_init(pmix_server_module_t *module, pmix_info_t info[],
                                           size_t ninfo);

/* Stop the server library, close its connections and free everything it
 * holds. Blocks. */
PMIX_EXPORT pmix_status_t PMIx_server_finalize(void);

/* ---- Compact node and rank maps --------------------------------------- */

/* Encode a comma-separated list of node names in a compact form tagged by
 * its method ("pmix:" or "blob:"), for PMIX_NODE_MAP. Does not block. Caller
 * frees *regex with free(). */
PMIX_EXPORT pmix_status_t PMIx_generate_regex(const char *input, char **regex);

/* Encode the ranks on each node (';' between nodes, in the order given to
 * PMIx_generate_regex) the same way, for PMIX_PROC_MAP. Does not block.
 * Caller frees *ppn with free(). */
PMIX_EXPORT pmix_status_t PMIx_generate_ppn(const char *input, char **ppn);

/* ---- Registering jobs, clients and resources -------------------------- */

/* Describe job nspace (info: its job, app, node and process data) with
 * nlocalprocs clients on this node, before any of them starts. Non-blocking
 * with cbfunc; blocking when cbfunc is NULL. When the call returns an error,
 * cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_server_register_nspace(const pmix_nspace_t nspace, int nlocalprocs,
                                                      pmix_info_t info[], size_t ninfo,
                                                      pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Forget job nspace and all its clients. Returns nothing, so cbfunc (if not
 * NULL) is always called (inside the call only when the server is not
 * running or memory runs out); with cbfunc NULL the call blocks. */
PMIX_EXPORT void PMIx_server_deregister_nspace(const pmix_nspace_t nspace, pmix_op_cbfunc_t cbfunc,
                                               void *cbdata);

/* Expect client proc to connect with uid and gid. server_object (the
 * host's, never freed by the library) is handed back in module calls about
 * this client. Non-blocking with cbfunc, blocking when NULL; when the call
 * returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_server_register_client(const pmix_proc_t *proc, uid_t uid,
                                                      gid_t gid, void *server_object,
                                                      pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Forget client proc, normally only after a failure (deregistering the
 * namespace covers it otherwise). Returns nothing, so cbfunc (if not NULL)
 * is always called (inside the call only when the server is not running
 * or memory runs out); with cbfunc NULL the call blocks. */
PMIX_EXPORT void PMIx_server_deregister_client(const pmix_proc_t *proc, pmix_op_cbfunc_t cbfunc,
                                               void *cbdata);

/* Add to *env the variables client proc needs to find this server. *env is
 * a NULL-terminated malloc'd array the caller owns (it may be reallocated);
 * free it and its strings when done. Does not block. */
PMIX_EXPORT pmix_status_t PMIx_server_setup_fork(const pmix_proc_t *proc, char ***env);

/* Record information that concerns no single job (node, fabric or
 * scheduler data). Non-blocking with cbfunc, blocking when NULL; when the
 * call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_server_register_resources(pmix_info_t info[], size_t ninfo,
                                                         pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Remove information recorded by PMIx_server_register_resources.
 * Non-blocking with cbfunc, blocking when NULL; when the call returns an
 * error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_server_deregister_resources(pmix_info_t info[], size_t ninfo,
                                                           pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ---- Direct modex ----------------------------------------------------- */

/* How the library returns a local client's data to the host; data is the
 * library's and is freed when the function returns. */
typedef void (*pmix_dmodex_response_fn_t)(pmix_status_t status, char *data, size_t sz,
                                          void *cbdata);

/* A remote server asked for the data of local client proc: cbfunc receives
 * it once the client has committed it. Non-blocking. When the call returns
 * an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_server_dmodex_request(const pmix_proc_t *proc,
                                                     pmix_dmodex_response_fn_t cbfunc,
                                                     void *cbdata);

/* ---- Preparing applications ------------------------------------------- */

/* How the library returns application setup data: info is the library's
 * until the host calls cbfunc(status, cbdata) to say it is done with it.
 * provided_cbdata is the cbdata given to PMIx_server_setup_application. */
typedef void (*pmix_setup_application_cbfunc_t)(pmix_status_t status, pmix_info_t info[],
                                                size_t ninfo, void *provided_cbdata,
                                                pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Before launching job nspace, gather what it needs from the library's
 * plugins (environment, network credentials...), delivered to cbfunc for
 * distribution with the job. Non-blocking. When the call returns an error,
 * cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_server_setup_application(const pmix_nspace_t nspace,
                                                        pmix_info_t info[], size_t ninfo,
                                                        pmix_setup_application_cbfunc_t cbfunc,
                                                        void *cbdata);

/* On each node, prepare local support for job nspace from the data that
 * PMIx_server_setup_application produced. Non-blocking with cbfunc,
 * blocking when NULL; when the call returns an error, cbfunc is never
 * called. */
PMIX_EXPORT pmix_status_t PMIx_server_setup_local_support(const pmix_nspace_t nspace,
                                                          pmix_info_t info[], size_t ninfo,
                                                          pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ---- I/O forwarding --------------------------------------------------- */

/* Deliver output bo from source on channel to the local clients and tools
 * that asked for it; bo must stay valid until cbfunc runs. Non-blocking with
 * cbfunc, blocking when NULL; when the call returns an error, cbfunc is
 * never called. */
PMIX_EXPORT pmix_status_t PMIx_server_IOF_deliver(const pmix_proc_t *source,
                                                  pmix_iof_channel_t channel,
                                                  const pmix_byte_object_t *bo,
                                                  const pmix_info_t info[], size_t ninfo,
                                                  pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ---- Inventory -------------------------------------------------------- */

/* Collect the node's resource inventory; cbfunc receives it, valid until
 * the receiver calls its release_fn. Non-blocking. When the call returns an
 * error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_server_collect_inventory(pmix_info_t directives[], size_t ndirs,
                                                        pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Hand an inventory collected elsewhere to the library for storage.
 * Non-blocking with cbfunc, blocking when NULL; when the call returns an
 * error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_server_deliver_inventory(pmix_info_t info[], size_t ninfo,
                                                        pmix_info_t directives[], size_t ndirs,
                                                        pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ---- Attribute registration ------------------------------------------- */

/* Declare which attributes (NULL-terminated names) the host supports for
 * the module function named function ("allocate", "spawn", ...). Both are
 * copied. Does not block. */
PMIX_EXPORT pmix_status_t PMIx_Register_attributes(char *function, char *attrs[]);

/* ---- Locality and cpuset strings -------------------------------------- */

/* The PMIX_LOCALITY_STRING for a client bound to cpuset. Does not block.
 * Caller frees *locality with free(). */
PMIX_EXPORT pmix_status_t PMIx_server_generate_locality_string(const pmix_cpuset_t *cpuset,
                                                               char **locality);

/* The PMIX_CPUSET string for a client bound to cpuset. Does not block.
 * Caller frees *cpuset_string with free(). */
PMIX_EXPORT pmix_status_t PMIx_server_generate_cpuset_string(const pmix_cpuset_t *cpuset,
                                                             char **cpuset_string);

/* ---- Process sets ----------------------------------------------------- */

/* Define process set pset_name with the given members (both copied) and
 * announce it to local clients. Blocks until recorded. */
PMIX_EXPORT pmix_status_t PMIx_server_define_process_set(const pmix_proc_t *members,
                                                         size_t nmembers, const char *pset_name);

/* Delete process set pset_name and announce it. Blocks until recorded;
 * pset_name stays the caller's. */
PMIX_EXPORT pmix_status_t PMIx_server_delete_process_set(char *pset_name);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIx_SERVER_API_H */
