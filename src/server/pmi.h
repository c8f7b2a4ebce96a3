/*
 * pmi.h - what pmi.c, pmi1.c and pmi2.c share: a PMI wire connection and
 * the requests it makes of the rest of the server. Private.
 *
 * A PMI connection is a server_peer_t whose bytes are PMI text. Each
 * command becomes the request a PMIx client would send (HELLO, COMMIT,
 * FENCE, GET, ...), dispatched as if read from the socket, so PMI ranks
 * and PMIx ranks share one store, one fence and one host. The reply comes
 * back to the command's continuation, which words the PMI answer. A PMI
 * client waits for each answer, so one request at a time is in flight;
 * input that arrives meanwhile waits in the buffer.
 */
#ifndef DROVER_PMI_H
#define DROVER_PMI_H

#include "pmi_parse.h"
#include "server.h"

typedef struct pmi_spawn pmi_spawn_t;

/* The answer to a request: its status and the reply's body after it. */
typedef void (*pmi_done_t)(server_peer_t *peer, pmix_status_t status, pmix_data_buffer_t *body);

typedef struct pmi_conn {
    int version;                 /* 1 until "init pmi_version=2" */
    pmix_proc_t proc;            /* whom the connection serves ... */
    bool identified;             /* ... once known (PMI_PORT: after initack) */
    bool initialized;            /* HELLO accepted */
    char *in;                    /* input not yet handled */
    size_t len;
    bool peeking;                /* reads leave the bytes in the socket ... */
    size_t peeked;               /* ... these many, until taken ... */
    uint32_t held;               /* ... with these many commands answered */
    bool processing;             /* in handle_input: no re-entry */
    bool busy;                   /* a request is in flight */
    uint32_t tag;                /* ... with this tag */
    pmi_done_t done;             /* ... answered by this */
    char key[PMIX_MAX_KEYLEN + 1]; /* the name a LOOKUP asked for */
    char thrid[64];              /* PMI-2: the thread id to echo */
    pmi_spawn_t *spawn;          /* PMI-1: spawn segments gathered so far */
    long spawn_total;            /* ... of this many */
    pmi_cmd_t cmd;               /* the command being handled (its pairs
                                  * point into in) */
} pmi_conn_t;

/* ---- pmi.c ------------------------------------------------------------ */

/* Dispatch a request (payload packed, or packed is the error that stopped
 * it) as if the client had sent it; done (NULL: no answer awaited) gets
 * the reply, perhaps before this returns. The payload is destructed. */
void pmi_request(server_peer_t *peer, uint16_t command, pmix_data_buffer_t *payload,
                 pmix_status_t packed, pmi_done_t done);

/* Send PMI text: as is for PMI-1, behind its length prefix for PMI-2. */
void pmi_send(server_peer_t *peer, const char *text, size_t len);

/* A protocol error: the connection is closed. */
void pmi_fail(server_peer_t *peer);

/* Become the client (HELLO); done gets the answer. */
void pmi_hello(server_peer_t *peer, pmi_done_t done);

/* Put key=value as the client's committed, global data. */
pmix_status_t pmi_put(server_peer_t *peer, const char *key, const char *value);

/* Fence the client's whole job, its data exchanged. */
void pmi_fence(server_peer_t *peer, pmi_done_t done);

/* The value of key put by any process of job nspace (NULL or unknown: the
 * client's own), as text (caller frees): PMIX_ERR_NOT_FOUND when absent,
 * PMIX_ERR_TYPE_MISMATCH when the value is not text (a PMIx process put a
 * number). */
pmix_status_t pmi_get(server_peer_t *peer, const char *nspace, const char *key, char **value);

/* The job attributes hydra gives a PMI client, by their PMI names
 * (PMI_process_mapping, universeSize, ...), as text (caller frees);
 * PMIX_ERR_NOT_FOUND for any other key. */
pmix_status_t pmi_job_attr(server_peer_t *peer, const char *key, char **value);

/* The client's appnum, its job's size, the universe's, and its node. */
uint32_t pmi_appnum(server_peer_t *peer);
uint32_t pmi_job_size(server_peer_t *peer);
uint32_t pmi_universe_size(server_peer_t *peer);
uint32_t pmi_node_id(server_peer_t *peer);

/* The namespace of the job that spawned the client's (caller frees), or
 * NULL when it was not spawned. */
char *pmi_parent(server_peer_t *peer);

/* Hold the connection's input while it waits for something other than a
 * request (a node attribute); pmi_resume, after answering, takes it up
 * again. */
void pmi_hold(server_peer_t *peer);
void pmi_resume(server_peer_t *peer);

/* Publish, look up and unpublish a service name (port: its value). */
void pmi_publish(server_peer_t *peer, const char *name, const char *port, pmi_done_t done);
void pmi_lookup(server_peer_t *peer, const char *name, pmi_done_t done);
void pmi_unpublish(server_peer_t *peer, const char *name, pmi_done_t done);

/* The port a LOOKUP answer found (caller frees). */
pmix_status_t pmi_lookup_value(pmix_data_buffer_t *body, const char *name, char **port);

/* Abort the job with exit code and message; no answer is due. */
void pmi_abort(server_peer_t *peer, int code, const char *msg);

/* PMIx_Finalize; done gets the answer. */
void pmi_finalize(server_peer_t *peer, pmi_done_t done);

/* Serve a PMI connection on fd (taken over whatever happens) for proc, or
 * for whoever identifies itself first (proc NULL: a PMI_PORT connection
 * of a socket owned by uid). */
pmix_status_t pmi_adopt(int fd, const pmix_proc_t *proc, uid_t uid, gid_t gid);

/* ---- pmi_port.c --------------------------------------------------------- */

/* "127.0.0.1:<port>" for PMI_PORT; "" before pmi_port_open. Static. */
const char *pmi_port_address(void);

/* A new PMI_ID that identifies proc on the port. */
pmix_status_t pmi_port_id(const pmix_proc_t *proc, uint32_t *id);

/* initack pmiid=id: make peer the process id was given to, if its socket
 * belongs to that process's user. */
bool pmi_port_identify(server_peer_t *peer, long id);

/* A port connection closes. */
void pmi_port_forget(server_peer_t *peer);

/* ---- pmi_spawn.c -------------------------------------------------------- */

/* A spawn being described. pmi_spawn_free accepts NULL. */
pmi_spawn_t *pmi_spawn_new(void);
void pmi_spawn_free(pmi_spawn_t *s);

/* Apps added so far. */
size_t pmi_spawn_count(const pmi_spawn_t *s);

/* A key=value the new job's key-value space starts with. */
pmix_status_t pmi_spawn_preput(pmi_spawn_t *s, const char *key, const char *value);

/* Add an app: the program, how many processes, its arguments (argv[1]
 * on) and MPI_Comm_spawn's info pairs. */
pmix_status_t pmi_spawn_app(pmi_spawn_t *s, const char *cmd, long maxprocs,
                            const char *const *args, size_t nargs, const char *const *keys,
                            const char *const *values, size_t ninfo);

/* Send the SPAWN request (s is taken over); done's body goes to
 * pmi_spawn_jobid. */
void pmi_spawn_start(server_peer_t *peer, pmi_spawn_t *s, pmi_done_t done);

/* The new job's namespace in a SPAWN answer (caller frees). */
pmix_status_t pmi_spawn_jobid(pmix_data_buffer_t *body, char **nspace);

/* In the progress thread, for a process about to start: store the preput
 * variables of env (NULL-terminated) as nspace's job-level data. */
pmix_status_t pmi_spawn_take_preputs(const char *nspace, char *const *env);

/* A preput value of nspace, or NULL. Borrowed. */
const char *pmi_spawn_preput_value(const char *nspace, const char *key);

/* ---- pmi1.c / pmi2.c ------------------------------------------------- */

/* Handle one parsed command. */
void pmi1_command(server_peer_t *peer, pmi_cmd_t *cmd);
void pmi2_command(server_peer_t *peer, pmi_cmd_t *cmd);

/* The connection is closing: forget what of it waits in pmi2.c. */
void pmi2_peer_closed(server_peer_t *peer);


#endif /* DROVER_PMI_H */
