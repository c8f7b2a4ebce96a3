/*
 * pmix.h - the PMIx client API: what an application process calls.
 *
 * The prototypes, their order of parameters and their constness are those
 * of OpenPMIx 4.2.2, so a binary built against that library links and runs
 * against drover's. The comments are drover's own. The value and info
 * helpers (PMIx_Value_load, PMIx_Info_list_*, ...) are declared in
 * pmix_deprecated.h, which pmix_common.h includes; pmix_server.h and
 * pmix_tool.h add what hosts and tools call.
 *
 * Rules every comment below relies on:
 *  - Arguments are borrowed: a blocking call reads them only until it
 *    returns, a non-blocking (_nb) call until its callback has run, and the
 *    caller keeps ownership in both cases.
 *  - A non-blocking call that returns PMIX_SUCCESS runs its callback exactly
 *    once, possibly on the library's progress thread. Any other return (an
 *    error, or PMIX_OPERATION_SUCCEEDED for "already done") means the
 *    callback is never called.
 *  - A blocking call waits for the library's progress thread, so it must not
 *    be made from inside a PMIx callback or event handler.
 *  - Results the library allocates name the macro or function that frees
 *    them; the macros are defined by pmix_common.h.
 */
#ifndef PMIx_H
#define PMIx_H

#include <pmix_common.h>

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* ---- Initialisation and finalisation ---------------------------------- */

/* Connect to the local server found through the environment, blocking until
 * the handshake completes. Calls nest: each successful call must be matched
 * by one PMIx_Finalize. The caller's identity is written to *proc (caller's
 * storage; proc may be NULL). */
PMIX_EXPORT pmix_status_t PMIx_Init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo);

/* Undo one PMIx_Init; the last one disconnects from the server (after a
 * barrier when PMIX_EMBED_BARRIER is given). Blocks. Nothing to free. */
PMIX_EXPORT pmix_status_t PMIx_Finalize(const pmix_info_t info[], size_t ninfo);

/* Nonzero while the library is initialised (as a client, tool or server).
 * Does not block or contact the server; nothing to free. */
PMIX_EXPORT int PMIx_Initialized(void);

/* Ask the host to terminate procs (NULL: the caller's whole namespace),
 * reporting status and msg (msg may be NULL). Blocks until the server has
 * the request; when the caller is a target it may never return. */
PMIX_EXPORT pmix_status_t PMIx_Abort(int status, const char msg[], pmix_proc_t procs[],
                                     size_t nprocs);

/* ---- Key-value exchange: put, commit, fence, get ---------------------- */

/* Stage a copy of val under key, to be shared within scope once
 * PMIx_Commit runs. Does not block; val stays the caller's. */
PMIX_EXPORT pmix_status_t PMIx_Put(pmix_scope_t scope, const char key[], pmix_value_t *val);

/* Send everything staged by PMIx_Put to the local server. Returns without
 * waiting for the server to acknowledge; nothing to free. */
PMIX_EXPORT pmix_status_t PMIx_Commit(void);

/* Barrier across procs (NULL: the caller's namespace; rank
 * PMIX_RANK_WILDCARD: a whole namespace), exchanging committed data when
 * PMIX_COLLECT_DATA is set. Blocks until every participant has arrived. */
PMIX_EXPORT pmix_status_t PMIx_Fence(const pmix_proc_t procs[], size_t nprocs,
                                     const pmix_info_t info[], size_t ninfo);

/* Non-blocking PMIx_Fence: cbfunc receives the outcome once every
 * participant has arrived. When the call returns an error, cbfunc is never
 * called. */
PMIX_EXPORT pmix_status_t PMIx_Fence_nb(const pmix_proc_t procs[], size_t nprocs,
                                        const pmix_info_t info[], size_t ninfo,
                                        pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Fetch the value proc posted under key (or job, node or app information),
 * blocking until it is available or a PMIX_TIMEOUT expires. On success *val
 * is a new value: caller frees with PMIX_VALUE_RELEASE. */
PMIX_EXPORT pmix_status_t PMIx_Get(const pmix_proc_t *proc, const char key[],
                                   const pmix_info_t info[], size_t ninfo, pmix_value_t **val);

/* Non-blocking PMIx_Get: cbfunc receives the value (NULL when not found),
 * which then belongs to the receiver: free with PMIX_VALUE_RELEASE. When the
 * call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Get_nb(const pmix_proc_t *proc, const char key[],
                                      const pmix_info_t info[], size_t ninfo,
                                      pmix_value_cbfunc_t cbfunc, void *cbdata);

/* ---- Publish, lookup, unpublish --------------------------------------- */

/* Publish the key-value pairs in info for other processes to look up
 * (default range: the session). Blocks until the server has stored them;
 * info stays the caller's. */
PMIX_EXPORT pmix_status_t PMIx_Publish(const pmix_info_t info[], size_t ninfo);

/* Non-blocking PMIx_Publish: cbfunc runs once the data is stored. When the
 * call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Publish_nb(const pmix_info_t info[], size_t ninfo,
                                          pmix_op_cbfunc_t cbfunc, void *cbdata);

/* For each data[i].key, fill data[i].value and data[i].proc with what was
 * published; keys not found keep type PMIX_UNDEF. Blocks for the server's
 * answer (waits for publication only with PMIX_WAIT). The filled values live
 * in the caller's array: release with PMIX_PDATA_DESTRUCT or PMIX_PDATA_FREE. */
PMIX_EXPORT pmix_status_t PMIx_Lookup(pmix_pdata_t data[], size_t ndata,
                                      const pmix_info_t info[], size_t ninfo);

/* Non-blocking lookup of the NULL-terminated keys: cbfunc receives a pdata
 * array borrowed until it returns (copy what must be kept). When the call
 * returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Lookup_nb(char **keys, const pmix_info_t info[], size_t ninfo,
                                         pmix_lookup_cbfunc_t cbfunc, void *cbdata);

/* Withdraw the caller's publications under the NULL-terminated keys (NULL:
 * all of them). Blocks until the server has removed them; nothing to free. */
PMIX_EXPORT pmix_status_t PMIx_Unpublish(char **keys, const pmix_info_t info[], size_t ninfo);

/* Non-blocking PMIx_Unpublish: cbfunc runs once the data is removed. When
 * the call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Unpublish_nb(char **keys, const pmix_info_t info[], size_t ninfo,
                                            pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ---- Spawning jobs ---------------------------------------------------- */

/* Launch a new job made of apps with job-level directives job_info.
 * Blocks until the job has started or failed; the new namespace is copied
 * into nspace (caller's buffer; may be NULL). */
PMIX_EXPORT pmix_status_t PMIx_Spawn(const pmix_info_t job_info[], size_t ninfo,
                                     const pmix_app_t apps[], size_t napps, pmix_nspace_t nspace);

/* Non-blocking PMIx_Spawn: cbfunc receives the status and the new namespace,
 * borrowed until it returns. When the call returns an error, cbfunc is never
 * called. */
PMIX_EXPORT pmix_status_t PMIx_Spawn_nb(const pmix_info_t job_info[], size_t ninfo,
                                        const pmix_app_t apps[], size_t napps,
                                        pmix_spawn_cbfunc_t cbfunc, void *cbdata);

/* ---- Connect and disconnect ------------------------------------------- */

/* Collective over procs: afterwards each knows the others' job data and is
 * told of their failures. Blocks until every process named has called it;
 * nothing to free. */
PMIX_EXPORT pmix_status_t PMIx_Connect(const pmix_proc_t procs[], size_t nprocs,
                                       const pmix_info_t info[], size_t ninfo);

/* Non-blocking PMIx_Connect: cbfunc runs when all have joined. When the
 * call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Connect_nb(const pmix_proc_t procs[], size_t nprocs,
                                          const pmix_info_t info[], size_t ninfo,
                                          pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Collective undoing an earlier PMIx_Connect over the same procs. Blocks
 * until every process named has called it; nothing to free. */
PMIX_EXPORT pmix_status_t PMIx_Disconnect(const pmix_proc_t procs[], size_t nprocs,
                                          const pmix_info_t info[], size_t ninfo);

/* Non-blocking PMIx_Disconnect: cbfunc runs when all have left. When the
 * call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Disconnect_nb(const pmix_proc_t procs[], size_t nprocs,
                                             const pmix_info_t info[], size_t ninfo,
                                             pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ---- Resolving processes and nodes ------------------------------------ */

/* List the processes of nspace (NULL or empty: of every namespace) placed
 * on nodename. May block for the server. *procs is NULL and *nprocs 0 when
 * there are none; otherwise caller frees with PMIX_PROC_FREE(*procs, *nprocs). */
PMIX_EXPORT pmix_status_t PMIx_Resolve_peers(const char *nodename, const pmix_nspace_t nspace,
                                             pmix_proc_t **procs, size_t *nprocs);

/* Comma-separated names of the nodes hosting processes of nspace. May block
 * for the server. Caller frees *nodelist with free(). */
PMIX_EXPORT pmix_status_t PMIx_Resolve_nodes(const pmix_nspace_t nspace, char **nodelist);

/* ---- Queries and logging ---------------------------------------------- */

/* Answer queries from local data or from the server and host. Blocks; may
 * return PMIX_ERR_PARTIAL_SUCCESS with the answers found. Caller frees
 * *results with PMIX_INFO_FREE(*results, *nresults). */
PMIX_EXPORT pmix_status_t PMIx_Query_info(pmix_query_t queries[], size_t nqueries,
                                          pmix_info_t **results, size_t *nresults);

/* Non-blocking PMIx_Query_info: the answers passed to cbfunc stay valid
 * until the receiver calls the release_fn it is given. When the call returns
 * an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Query_info_nb(pmix_query_t queries[], size_t nqueries,
                                             pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Have the host record data on a logging channel chosen by directives.
 * Blocks until the host has handled it; nothing to free. */
PMIX_EXPORT pmix_status_t PMIx_Log(const pmix_info_t data[], size_t ndata,
                                   const pmix_info_t directives[], size_t ndirs);

/* Non-blocking PMIx_Log: data must stay valid until cbfunc runs. When the
 * call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Log_nb(const pmix_info_t data[], size_t ndata,
                                      const pmix_info_t directives[], size_t ndirs,
                                      pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ---- Allocation, job control and monitoring --------------------------- */

/* Ask the scheduler to grow, extend, release, lend or reacquire resources,
 * as directive says. Blocks for the answer. Caller frees *results with
 * PMIX_INFO_FREE(*results, *nresults). */
PMIX_EXPORT pmix_status_t PMIx_Allocation_request(pmix_alloc_directive_t directive,
                                                  pmix_info_t *info, size_t ninfo,
                                                  pmix_info_t **results, size_t *nresults);

/* Non-blocking PMIx_Allocation_request: cbfunc's answers stay valid until
 * the receiver calls its release_fn. When the call returns an error, cbfunc
 * is never called. */
PMIX_EXPORT pmix_status_t PMIx_Allocation_request_nb(pmix_alloc_directive_t directive,
                                                     pmix_info_t *info, size_t ninfo,
                                                     pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Apply a control action (pause, resume, signal, kill, checkpoint...) to
 * targets (NULL: the caller's namespace). Blocks for the answer. Caller frees
 * *results with PMIX_INFO_FREE(*results, *nresults). */
PMIX_EXPORT pmix_status_t PMIx_Job_control(const pmix_proc_t targets[], size_t ntargets,
                                           const pmix_info_t directives[], size_t ndirs,
                                           pmix_info_t **results, size_t *nresults);

/* Non-blocking PMIx_Job_control: cbfunc's answers stay valid until the
 * receiver calls its release_fn. When the call returns an error, cbfunc is
 * never called. */
PMIX_EXPORT pmix_status_t PMIx_Job_control_nb(const pmix_proc_t targets[], size_t ntargets,
                                              const pmix_info_t directives[], size_t ndirs,
                                              pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Ask the host to watch for the condition described by monitor (missed
 * heartbeats, a file that stops changing...) and raise event code error when
 * it occurs. Blocks for the answer. Caller frees *results with
 * PMIX_INFO_FREE(*results, *nresults). */
PMIX_EXPORT pmix_status_t PMIx_Process_monitor(const pmix_info_t *monitor, pmix_status_t error,
                                               const pmix_info_t directives[], size_t ndirs,
                                               pmix_info_t **results, size_t *nresults);

/* Non-blocking PMIx_Process_monitor (cbfunc may be NULL when no answer is
 * wanted): cbfunc's answers stay valid until the receiver calls its
 * release_fn. When the call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Process_monitor_nb(const pmix_info_t *monitor, pmix_status_t error,
                                                  const pmix_info_t directives[], size_t ndirs,
                                                  pmix_info_cbfunc_t cbfunc, void *cbdata);

/* Send one heartbeat to a PMIX_SEND_HEARTBEAT monitor. Does not block, asks
 * for no answer and leaves nothing to free. A statement, as in the standard. */
#define PMIx_Heartbeat()                                                                    \
    do {                                                                                    \
        pmix_info_t _drover_hb;                                                             \
        PMIX_INFO_CONSTRUCT(&_drover_hb);                                                   \
        PMIX_INFO_LOAD(&_drover_hb, PMIX_SEND_HEARTBEAT, NULL, PMIX_POINTER);               \
        PMIx_Process_monitor_nb(&_drover_hb, PMIX_SUCCESS, NULL, 0, NULL, NULL);            \
        PMIX_INFO_DESTRUCT(&_drover_hb);                                                    \
    } while (0)

/* ---- Credentials ------------------------------------------------------ */

/* Obtain a credential for the caller from the host's security service.
 * Blocks. The bytes are written into *credential (caller's struct): free
 * them with PMIX_BYTE_OBJECT_DESTRUCT. */
PMIX_EXPORT pmix_status_t PMIx_Get_credential(const pmix_info_t info[], size_t ninfo,
                                              pmix_byte_object_t *credential);

/* Non-blocking PMIx_Get_credential: the credential and info passed to
 * cbfunc are borrowed until it returns. When the call returns an error,
 * cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Get_credential_nb(const pmix_info_t info[], size_t ninfo,
                                                 pmix_credential_cbfunc_t cbfunc, void *cbdata);

/* Have the host's security service check cred. Blocks. Caller frees
 * *results (what the credential grants) with PMIX_INFO_FREE(*results,
 * *nresults). */
PMIX_EXPORT pmix_status_t PMIx_Validate_credential(const pmix_byte_object_t *cred,
                                                   const pmix_info_t info[], size_t ninfo,
                                                   pmix_info_t **results, size_t *nresults);

/* Non-blocking PMIx_Validate_credential: the info passed to cbfunc is
 * borrowed until it returns. When the call returns an error, cbfunc is
 * never called. */
PMIX_EXPORT pmix_status_t PMIx_Validate_credential_nb(const pmix_byte_object_t *cred,
                                                      const pmix_info_t info[], size_t ninfo,
                                                      pmix_validation_cbfunc_t cbfunc,
                                                      void *cbdata);

/* ---- Process groups --------------------------------------------------- */

/* Collective: form the group grp (at most PMIX_MAX_NSLEN characters) out of
 * procs. Blocks until every member has called it, one has failed, or a
 * PMIX_TIMEOUT expires. Caller frees *results (e.g. the context id) with
 * PMIX_INFO_FREE(*results, *nresults). */
PMIX_EXPORT pmix_status_t PMIx_Group_construct(const char grp[], const pmix_proc_t procs[],
                                               size_t nprocs, const pmix_info_t directives[],
                                               size_t ndirs, pmix_info_t **results,
                                               size_t *nresults);

/* Non-blocking PMIx_Group_construct: cbfunc's results stay valid until the
 * receiver calls its release_fn. When the call returns an error, cbfunc is
 * never called. */
PMIX_EXPORT pmix_status_t PMIx_Group_construct_nb(const char grp[], const pmix_proc_t procs[],
                                                  size_t nprocs, const pmix_info_t info[],
                                                  size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                                  void *cbdata);

/* Invite procs into grp, with the caller as leader; they answer through
 * PMIx_Group_join. Blocks until the group is complete or abandoned. Caller
 * frees *results with PMIX_INFO_FREE(*results, *nresults). */
PMIX_EXPORT pmix_status_t PMIx_Group_invite(const char grp[], const pmix_proc_t procs[],
                                            size_t nprocs, const pmix_info_t info[], size_t ninfo,
                                            pmix_info_t **results, size_t *nresults);

/* Non-blocking PMIx_Group_invite: cbfunc's results stay valid until the
 * receiver calls its release_fn. When the call returns an error, cbfunc is
 * never called. */
PMIX_EXPORT pmix_status_t PMIx_Group_invite_nb(const char grp[], const pmix_proc_t procs[],
                                               size_t nprocs, const pmix_info_t info[],
                                               size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                               void *cbdata);

/* Accept or decline (opt) leader's invitation to grp. Blocks until the group
 * is complete or abandoned, so never call it from the handler that delivered
 * the invitation. Caller frees *results with PMIX_INFO_FREE(*results,
 * *nresults). */
PMIX_EXPORT pmix_status_t PMIx_Group_join(const char grp[], const pmix_proc_t *leader,
                                          pmix_group_opt_t opt, const pmix_info_t info[],
                                          size_t ninfo, pmix_info_t **results, size_t *nresults);

/* Non-blocking PMIx_Group_join, safe inside an event handler: cbfunc's
 * results stay valid until the receiver calls its release_fn. When the call
 * returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Group_join_nb(const char grp[], const pmix_proc_t *leader,
                                             pmix_group_opt_t opt, const pmix_info_t info[],
                                             size_t ninfo, pmix_info_cbfunc_t cbfunc,
                                             void *cbdata);

/* Leave grp on one's own, telling the other members. Blocks only until the
 * departure is announced locally; nothing to free. */
PMIX_EXPORT pmix_status_t PMIx_Group_leave(const char grp[], const pmix_info_t info[],
                                           size_t ninfo);

/* Non-blocking PMIx_Group_leave. When the call returns an error, cbfunc is
 * never called. */
PMIX_EXPORT pmix_status_t PMIx_Group_leave_nb(const char grp[], const pmix_info_t info[],
                                              size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Collective: dissolve grp. Blocks until every member has called it;
 * nothing to free. */
PMIX_EXPORT pmix_status_t PMIx_Group_destruct(const char grp[], const pmix_info_t info[],
                                              size_t ninfo);

/* Non-blocking PMIx_Group_destruct. When the call returns an error, cbfunc
 * is never called. */
PMIX_EXPORT pmix_status_t PMIx_Group_destruct_nb(const char grp[], const pmix_info_t info[],
                                                 size_t ninfo, pmix_op_cbfunc_t cbfunc,
                                                 void *cbdata);

/* ---- Events ----------------------------------------------------------- */

/* Install evhdlr for the events in codes (NULL: every event). With cbfunc,
 * the call does not block and cbfunc receives the handler's reference; with
 * cbfunc NULL it blocks and returns the reference (>= 0) or an error. When
 * the call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Register_event_handler(pmix_status_t codes[], size_t ncodes,
                                                      pmix_info_t info[], size_t ninfo,
                                                      pmix_notification_fn_t evhdlr,
                                                      pmix_hdlr_reg_cbfunc_t cbfunc, void *cbdata);

/* Remove the handler with reference evhdlr_ref. Non-blocking with cbfunc,
 * blocking when cbfunc is NULL. When the call returns an error, cbfunc is
 * never called. */
PMIX_EXPORT pmix_status_t PMIx_Deregister_event_handler(size_t evhdlr_ref, pmix_op_cbfunc_t cbfunc,
                                                        void *cbdata);

/* Raise event status on behalf of source (NULL: the caller) to the
 * processes in range. Non-blocking with cbfunc, which runs once the event is
 * queued; blocking when cbfunc is NULL. When the call returns an error,
 * cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Notify_event(pmix_status_t status, const pmix_proc_t *source,
                                            pmix_data_range_t range, const pmix_info_t info[],
                                            size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ---- Fabric ----------------------------------------------------------- */

/* Attach fabric information (cost matrix, vertices) to *fabric, the
 * caller's struct. Blocks. Release what was attached with
 * PMIx_Fabric_deregister. */
PMIX_EXPORT pmix_status_t PMIx_Fabric_register(pmix_fabric_t *fabric,
                                               const pmix_info_t directives[], size_t ndirs);

/* Non-blocking PMIx_Fabric_register: *fabric must not be touched until
 * cbfunc runs. When the call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Fabric_register_nb(pmix_fabric_t *fabric,
                                                  const pmix_info_t directives[], size_t ndirs,
                                                  pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Refresh the information attached to a registered *fabric. Blocks;
 * ownership is unchanged. */
PMIX_EXPORT pmix_status_t PMIx_Fabric_update(pmix_fabric_t *fabric);

/* Non-blocking PMIx_Fabric_update: *fabric must not be touched until cbfunc
 * runs. When the call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Fabric_update_nb(pmix_fabric_t *fabric, pmix_op_cbfunc_t cbfunc,
                                                void *cbdata);

/* Release what PMIx_Fabric_register attached to *fabric; the struct itself
 * stays the caller's. Blocks. */
PMIX_EXPORT pmix_status_t PMIx_Fabric_deregister(pmix_fabric_t *fabric);

/* Non-blocking PMIx_Fabric_deregister. When the call returns an error,
 * cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Fabric_deregister_nb(pmix_fabric_t *fabric,
                                                    pmix_op_cbfunc_t cbfunc, void *cbdata);

/* ---- Topology, cpusets and locality ----------------------------------- */

/* Distances from cpuset to the node's devices in topo. Blocks. Caller frees
 * *distances with PMIX_DEVICE_DIST_FREE(*distances, *ndist). */
PMIX_EXPORT pmix_status_t PMIx_Compute_distances(pmix_topology_t *topo, pmix_cpuset_t *cpuset,
                                                 pmix_info_t info[], size_t ninfo,
                                                 pmix_device_distance_t *distances[],
                                                 size_t *ndist);

/* Non-blocking PMIx_Compute_distances: the array passed to cbfunc stays
 * valid until the receiver calls its release_fn. When the call returns an
 * error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_Compute_distances_nb(pmix_topology_t *topo, pmix_cpuset_t *cpuset,
                                                    pmix_info_t info[], size_t ninfo,
                                                    pmix_device_dist_cbfunc_t cbfunc,
                                                    void *cbdata);

/* Fill *topo (caller's struct; topo->source may name the wanted provider)
 * with the node's hardware topology. Blocks. Release with
 * PMIx_Topology_destruct. */
PMIX_EXPORT pmix_status_t PMIx_Load_topology(pmix_topology_t *topo);

/* Release what PMIx_Load_topology attached to *topo; the struct stays the
 * caller's. Does not block. */
PMIX_EXPORT void PMIx_Topology_destruct(pmix_topology_t *topo);

/* Turn the string form of a cpuset (as stored under PMIX_CPUSET) into a
 * bitmap in *cpuset. Does not block. Release with PMIx_Cpuset_destruct. */
PMIX_EXPORT pmix_status_t PMIx_Parse_cpuset_string(const char *cpuset_string,
                                                   pmix_cpuset_t *cpuset);

/* The current binding of the calling process or thread (ref) as a bitmap in
 * *cpuset. Does not block. Release with PMIx_Cpuset_destruct. */
PMIX_EXPORT pmix_status_t PMIx_Get_cpuset(pmix_cpuset_t *cpuset, pmix_bind_envelope_t ref);

/* Release the bitmap held by *cpuset; the struct stays the caller's. */
PMIX_EXPORT void PMIx_Cpuset_destruct(pmix_cpuset_t *cpuset);

/* Which hardware two local processes share, computed from their
 * PMIX_LOCALITY_STRING values into *locality. Does not block; nothing to
 * free. */
PMIX_EXPORT pmix_status_t PMIx_Get_relative_locality(const char *locality1,
                                                     const char *locality2,
                                                     pmix_locality_t *locality);

/* Run one pass of the library's event loop, for programs that drive
 * progress themselves. Blocks until at least one event is ready; nothing to
 * free. */
PMIX_EXPORT void PMIx_Progress(void);

/* ---- Names of values -------------------------------------------------- */

/* Each returns a static string naming its argument (an unknown value gives a
 * placeholder). Borrowed for the life of the process: never free it. */
PMIX_EXPORT const char *PMIx_Error_string(pmix_status_t status);
PMIX_EXPORT const char *PMIx_Proc_state_string(pmix_proc_state_t state);
PMIX_EXPORT const char *PMIx_Scope_string(pmix_scope_t scope);
PMIX_EXPORT const char *PMIx_Persistence_string(pmix_persistence_t persist);
PMIX_EXPORT const char *PMIx_Data_range_string(pmix_data_range_t range);
PMIX_EXPORT const char *PMIx_Data_type_string(pmix_data_type_t type);
PMIX_EXPORT const char *PMIx_Alloc_directive_string(pmix_alloc_directive_t directive);
PMIX_EXPORT const char *PMIx_IOF_channel_string(pmix_iof_channel_t channel);
PMIX_EXPORT const char *PMIx_Job_state_string(pmix_job_state_t state);

/* Translate an attribute's macro name ("PMIX_TIMEOUT") into its key string,
 * and back. NULL when unknown; otherwise static, never free it. */
PMIX_EXPORT const char *PMIx_Get_attribute_string(const char *attribute);
PMIX_EXPORT const char *PMIx_Get_attribute_name(const char *attrstring);

/* Static names, like the string functions above: never free them. */
PMIX_EXPORT const char *PMIx_Link_state_string(pmix_link_state_t state);
PMIX_EXPORT const char *PMIx_Device_type_string(pmix_device_type_t type);
PMIX_EXPORT const char *PMIx_Value_comparison_string(pmix_value_cmp_t cmp);

/* Readable renderings built on each call. Caller frees the result with
 * free(); NULL when memory runs out. */
PMIX_EXPORT char *PMIx_Info_string(const pmix_info_t *info);
PMIX_EXPORT char *PMIx_Value_string(const pmix_value_t *value);
PMIX_EXPORT char *PMIx_Info_directives_string(pmix_info_directives_t directives);

/* The library's version string. Static: never free it. */
PMIX_EXPORT const char *PMIx_Get_version(void);

/* ---- Process-local store ---------------------------------------------- */

/* Store a copy of val under key for proc in this process's own data store,
 * where PMIx_Get finds it; it is never sent to the server. Does not block;
 * val stays the caller's. */
PMIX_EXPORT pmix_status_t PMIx_Store_internal(const pmix_proc_t *proc, const char key[],
                                              pmix_value_t *val);

/* ---- Data buffers: pack, unpack, copy, print -------------------------- */

/* Append num_vals elements of type stored contiguously at src (strings as
 * char *[]) to buffer, for a reader running target's library version (NULL:
 * ours). Does not block; src stays the caller's, the bytes belong to buffer. */
PMIX_EXPORT pmix_status_t PMIx_Data_pack(const pmix_proc_t *target, pmix_data_buffer_t *buffer,
                                         void *src, int32_t num_vals, pmix_data_type_t type);

/* Read up to *max_num_values elements of type into dest (caller's storage
 * for that many) and set *max_num_values to the number read. Memory the
 * elements point to is new: caller frees it as for the type (free() for
 * strings, the type's _DESTRUCT macro for structures). */
PMIX_EXPORT pmix_status_t PMIx_Data_unpack(const pmix_proc_t *source, pmix_data_buffer_t *buffer,
                                           void *dest, int32_t *max_num_values,
                                           pmix_data_type_t type);

/* Deep-copy one element of type at src (for PMIX_STRING, the char * itself)
 * into a new *dest. Caller frees *dest with free() for flat types and
 * strings, or the type's _RELEASE/_FREE macro for structures. */
PMIX_EXPORT pmix_status_t PMIx_Data_copy(void **dest, void *src, pmix_data_type_t type);

/* Render one element of type at src (for PMIX_STRING, the char * itself)
 * as text preceded by prefix (may be NULL). Caller frees *output with
 * free(). */
PMIX_EXPORT pmix_status_t PMIx_Data_print(char **output, char *prefix, void *src,
                                          pmix_data_type_t type);

/* Append a copy of the part of src not yet unpacked to dest. src is
 * unchanged; the copied bytes belong to dest. */
PMIX_EXPORT pmix_status_t PMIx_Data_copy_payload(pmix_data_buffer_t *dest,
                                                 pmix_data_buffer_t *src);

/* Move buffer's unread bytes into *payload, leaving buffer empty. Caller
 * frees them with PMIX_BYTE_OBJECT_DESTRUCT. */
PMIX_EXPORT pmix_status_t PMIx_Data_unload(pmix_data_buffer_t *buffer,
                                           pmix_byte_object_t *payload);

/* Replace buffer's contents with the bytes of *payload, taking them over:
 * payload is left empty and the bytes are freed with the buffer. */
PMIX_EXPORT pmix_status_t PMIx_Data_load(pmix_data_buffer_t *buffer, pmix_byte_object_t *payload);

/* Like PMIx_Data_load but copies: *payload is untouched and stays the
 * caller's. */
PMIX_EXPORT pmix_status_t PMIx_Data_embed(pmix_data_buffer_t *buffer,
                                          const pmix_byte_object_t *payload);

/* Compress size bytes at inbytes. True only when the result is smaller; then
 * caller frees *outbytes (*nbytes long) with free(). False allocates
 * nothing. */
PMIX_EXPORT bool PMIx_Data_compress(const uint8_t *inbytes, size_t size, uint8_t **outbytes,
                                    size_t *nbytes);

/* Undo PMIx_Data_compress. On true, caller frees *outbytes (*nbytes long)
 * with free(); false allocates nothing. */
PMIX_EXPORT bool PMIx_Data_decompress(const uint8_t *inbytes, size_t size, uint8_t **outbytes,
                                      size_t *nbytes);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIx_H */
