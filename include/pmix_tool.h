/*
 * pmix_tool.h - the PMIx tool API: what a debugger, launcher front end or
 * monitor calls to attach to servers, plus the I/O forwarding calls.
 *
 * A tool is also a client, so this header includes pmix.h and the whole
 * client API is available to it. Prototypes and types are those of
 * OpenPMIx 4.2.2 (binary compatible); the comments are drover's own and
 * follow the rules stated at the top of pmix.h: arguments are borrowed,
 * and a non-blocking call that does not return PMIX_SUCCESS never calls
 * its callback. The older PMIx_tool_connect_to_server is declared in
 * pmix_deprecated.h.
 */
#ifndef PMIx_TOOL_API_H
#define PMIx_TOOL_API_H

#include <pmix.h>

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* ---- Tool initialisation and finalisation ----------------------------- */

/* Start the tool library and, as info directs, connect to a server (or run
 * without one). Blocks until connected. Calls nest like PMIx_Init; the
 * tool's identity is written to *proc (caller's storage; may be NULL). */
PMIX_EXPORT pmix_status_t PMIx_tool_init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo);

/* Undo one PMIx_tool_init; the last one closes every server connection.
 * Blocks. Nothing to free. */
PMIX_EXPORT pmix_status_t PMIx_tool_finalize(void);

/* ---- Server connections ----------------------------------------------- */

/* Connect to the server info designates (system server, URI, namespace or
 * pid; info may not be NULL) and make it the primary one. Blocks. The
 * tool's identity goes to *myproc and the server's to *server (caller's
 * storage; either may be NULL). */
PMIX_EXPORT pmix_status_t PMIx_tool_attach_to_server(pmix_proc_t *myproc, pmix_proc_t *server,
                                                     pmix_info_t info[], size_t ninfo);

/* Close the connection to server, keeping the library initialised. Blocks;
 * nothing to free. */
PMIX_EXPORT pmix_status_t PMIx_tool_disconnect(const pmix_proc_t *server);

/* The identities of every server the tool is connected to. Blocks only
 * briefly (no server is contacted). Caller frees *servers with
 * PMIX_PROC_FREE(*servers, *nservers). */
PMIX_EXPORT pmix_status_t PMIx_tool_get_servers(pmix_proc_t *servers[], size_t *nservers);

/* Make the already connected server the primary one, to which requests are
 * sent. Blocks; nothing to free. */
PMIX_EXPORT pmix_status_t PMIx_tool_set_server(const pmix_proc_t *server, pmix_info_t info[],
                                               size_t ninfo);

/* ---- I/O forwarding --------------------------------------------------- */

/* Receives forwarded output: handler iofhdlr got payload (not
 * NUL-terminated, possibly several writes) on channel from source. Every
 * argument is borrowed until the function returns. */
typedef void (*pmix_iof_cbfunc_t)(size_t iofhdlr, pmix_iof_channel_t channel,
                                  pmix_proc_t *source, pmix_byte_object_t *payload,
                                  pmix_info_t info[], size_t ninfo);

/* Ask for the output channels (never stdin) of procs to be delivered to
 * cbfunc (NULL: written to this process's stdout/stderr). With regcbfunc the
 * call does not block and regcbfunc receives the handler reference; with
 * regcbfunc NULL it blocks and returns the reference (>= 0) or an error.
 * When the call returns an error, regcbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_IOF_pull(const pmix_proc_t procs[], size_t nprocs,
                                        const pmix_info_t directives[], size_t ndirs,
                                        pmix_iof_channel_t channel, pmix_iof_cbfunc_t cbfunc,
                                        pmix_hdlr_reg_cbfunc_t regcbfunc, void *regcbdata);

/* Cancel the PMIx_IOF_pull registration iofhdlr (output already under way
 * may still arrive). Non-blocking with cbfunc, blocking when cbfunc is NULL.
 * When the call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_IOF_deregister(size_t iofhdlr, const pmix_info_t directives[],
                                              size_t ndirs, pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Send the bytes bo to the stdin of targets (bo NULL with
 * PMIX_IOF_PUSH_STDIN: keep forwarding this process's own stdin); bo must
 * stay valid until cbfunc runs. Non-blocking with cbfunc, blocking when
 * cbfunc is NULL. When the call returns an error, cbfunc is never called. */
PMIX_EXPORT pmix_status_t PMIx_IOF_push(const pmix_proc_t targets[], size_t ntargets,
                                        pmix_byte_object_t *bo, const pmix_info_t directives[],
                                        size_t ndirs, pmix_op_cbfunc_t cbfunc, void *cbdata);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIx_TOOL_API_H */
