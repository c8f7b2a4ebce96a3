/*
 * server.h - what the files of the server library share. Private.
 *
 * The server library runs in the host's process. It owns one thread, the
 * progress thread, running a libevent loop; every piece of server state is
 * touched only there. Public calls made by the host in its own threads
 * post a closure to that thread (server_post) and, when blocking, wait for
 * it (server_run_sync). Calls into the host module are made from the
 * progress thread; the host's callbacks may come from any thread and are
 * posted back.
 *
 * Files, one job each. A request's handler is named after its file
 * (abort_request in abort.c, publish_lookup_request in publish.c): peer.c's
 * dispatch table leads to it in one step.
 *   server.c      PMIx_server_init/finalize, the thread, posting
 *   entry/server_entry.h  the one header the client library sees: what
 *                 the API code shared by both roles calls in a server
 *   setup.c       PMIx_server_setup_application, _setup_local_support,
 *                 inventory and resources: what a node prepares for a job
 *   listener.c    the rendezvous socket: accept, peer credentials
 *   peer.c        a client connection: frames in, dispatch, frames out
 *   nspace.c      registered jobs and clients, setup_fork, cleanup
 *   hello.c       HELLO and FINALIZE: a client's arrival and departure
 *   host_events.c events raised to the host's own handlers
 *   jobmaps.c     what a registration's node and rank maps imply
 *   locality.c    PMIx_server_generate_locality_string/_cpuset_string
 *   host_get.c    PMIx_Get made by the host, of what the library holds
 *   collective.c  gathering the local participants of a collective
 *   fence.c       FENCE: the collective and its data
 *   connect.c     CONNECT and DISCONNECT
 *   data.c        COMMIT and GET: committed data, direct modex
 *   notify.c      events to and from clients and the host
 *   relay.c       the skeleton of a request relayed to a host module
 *                 function: unpack, call, reply when it answers
 *   abort.c       ABORT                 query.c       QUERY
 *   job_control.c JOB_CONTROL           log.c         LOG
 *   publish.c     PUBLISH, LOOKUP, UNPUBLISH
 *   spawn.c       SPAWN                 allocation.c  ALLOCATE
 *   monitor.c     MONITOR               fabric.c      FABRIC
 *   group.c       groups: construct, destruct, leave, queries about them
 *   invite.c      groups by invitation: INVITE and JOIN
 *   iof.c         I/O forwarding: pulls, PMIx_server_IOF_deliver, pushes
 *   iof_cache.c   output delivered before it was pulled, for a late pull
 *   tool.c        tools connecting: their identity
 *   credential.c  credentials: the host's, or the library's native ones
 *   pset.c        process sets: define, delete, queries about them
 *   attrs.c       PMIx_Register_attributes and attribute-support queries
 *   pmi.c         PMI-1 and PMI-2 wire connections, as requests of the above
 *   pmi1.c        the PMI-1 commands; pmi2.c the PMI-2 ones
 *   pmi_parse.c   their wire formats; pmi_spawn.c their spawns;
 *   pmi_port.c    PMI_PORT, for PMI clients that connect by address
 * (PMIx_generate_regex/ppn are common/maps.c's: the client has them too.)
 */
#ifndef DROVER_SERVER_H
#define DROVER_SERVER_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#include "directive.h"
#include "drover.h"
#include "hashmap.h"
#include "pmix_common.h"
#include "pmix_server.h"
#include "protocol.h"
#include "store.h"

struct event_base;
struct event;
struct evbuffer;

/* Scope bits of committed data in the store (hashmap_entry_t.flags): who
 * may see it. Registration data carries no bits and is never exported. */
#define SCOPE_LOCAL 0x1u
#define SCOPE_REMOTE 0x2u

typedef struct server_nspace server_nspace_t;
typedef struct server_client server_client_t;
typedef struct server_peer server_peer_t;

/* A registered job. */
struct server_nspace {
    char name[PMIX_MAX_NSLEN + 1];
    uint32_t nlocal;             /* local processes, as registered */
    pmix_data_buffer_t reg;      /* the registration, packed once as PMIX_INFO[] */
    hashmap_t clients;           /* rank (4 bytes) -> server_client_t * */
    hashmap_t local_ranks;       /* ranks named by PMIX_LOCAL_PEERS */
    hashmap_t departed;          /* ranks whose clients were deregistered:
                                  * they will contribute to nothing more */
    char **cleanup;              /* paths to remove when the job goes */
    uint8_t *cleanup_mode;       /* cleanup_mode_t of each */
    size_t ncleanup;
};

/* A registered local process. */
struct server_client {
    server_nspace_t *ns;
    pmix_proc_t proc;
    uid_t uid;
    gid_t gid;
    void *server_object;         /* the host's */
    server_peer_t *peer;         /* its connection while connected */
    server_peer_t *direct_peer;  /* its direct connection, if open */
    bool finalized;              /* called PMIx_Finalize */
    bool gone;                   /* lost without finalizing, or deregistered */
    uint32_t commits;            /* COMMITs received */
    struct deferred *deferred;   /* requests waiting for earlier commits */
    pid_t pid;                   /* as the host told (0: not yet) */
    struct parked_hello *parked; /* HELLOs waiting for pid */
};

/* A connection from a client or tool. Reference counted: requests waiting
 * on the host hold a reference, so a reply to a connection that closed
 * meanwhile is dropped rather than sent into freed memory. */
struct server_peer {
    int refs;
    int fd;                      /* -1 once closed */
    struct event *reading;       /* readable: frames in */
    struct event *writing;       /* writable, while output waits */
    struct evbuffer *out;        /* what the socket would not take yet */
    protocol_inbuf_t in;
    server_client_t *client;     /* after HELLO */
    pmix_proc_t proc;            /* who it is (after HELLO) */
    uint64_t serial;             /* names it in traces, never reused */
    pid_t pid;
    uid_t uid;
    gid_t gid;
    bool close_when_flushed;
    bool throttled;              /* not read while its output drains */
    bool tool;                   /* a tool, not a registered client */
    bool direct;                 /* a client's second, direct connection:
                                  * requests and replies only, no events */
    struct pmi_conn *pmi;        /* a PMI-1/PMI-2 wire connection (pmi.c):
                                  * its requests come translated, its
                                  * replies go out as text */
    server_peer_t *prev, *next;  /* every open connection */
};

typedef struct server_state {
    bool initialized;
    pmix_server_module_t host;
    pmix_proc_t me;              /* the server's own identity */
    struct event_base *base;
    pthread_t thread;
    char *dir;                   /* private directory holding the socket */
    char *socket_path;
    char *uri;                   /* PROTOCOL_URI_PREFIX + socket_path */
    char *tmpdir;                /* PMIX_SERVER_TMPDIR as given or found */
    hashmap_t nspaces;           /* name -> server_nspace_t * */
    store_t data;                /* registrations and committed data */
    bool client_pids;            /* DROVER_SERVER_CLIENT_PIDS */
    bool pmi_early;              /* DROVER_SERVER_PMI_PROCS given */
    uint32_t pmi_procs_early;    /* its value */
    drover_server_trace_t trace; /* DROVER_SERVER_TRACE; record NULL: off */
    drover_server_groups_t groups; /* DROVER_SERVER_GROUPS; changed NULL: off */
    bool invites_across;         /* DROVER_SERVER_INVITES_ACROSS */
    int refusal_log;             /* DROVER_SERVER_REFUSAL_LOG, or -1 */
} server_state_t;

/* The one server of the process. Touched in the progress thread only
 * (initialized and the paths excepted, which are set before it starts). */
extern server_state_t server;

/* ---- server.c --------------------------------------------------------- */

/* Run fn(arg) in the progress thread, soon: always from the loop, never
 * inside the caller (even when called in the progress thread), so a host's
 * callback or call never sees its own callback run inside it. Returns
 * PMIX_ERR_INIT when the server is not running or finalizing (fn not
 * called). */
pmix_status_t server_post(void (*fn)(void *arg), void *arg);

/* Run fn(arg) in the progress thread and wait for its status. */
pmix_status_t server_run_sync(pmix_status_t (*fn)(void *arg), void *arg);

/* A host's call that defines or deletes something by name (a process set,
 * a group): PMIX_ERR_INIT without a server, PMIX_ERR_BAD_PARAM for an
 * empty name, else fn(arg) run as server_run_sync does; its success is
 * PMIX_OPERATION_SUCCEEDED, as OpenPMIx returns. */
pmix_status_t server_run_named(pmix_status_t (*fn)(void *arg), const char *name, void *arg);

/* True in the progress thread. */
bool server_in_thread(void);

/* ---- listener.c ------------------------------------------------------- */

/* Create the private directory and the listening socket in it, and start
 * accepting (in base). On failure nothing is left behind. */
pmix_status_t listener_start(void);

/* Stop accepting; remove the socket and the directory. */
void listener_stop(void);

/* A descriptor was freed: accepting resumes if it paused for want of
 * one. */
void listener_resume(void);

/* ---- peer.c ----------------------------------------------------------- */

/* Adopt an accepted socket whose credentials have been checked. */
void peer_adopt(int fd, pid_t pid, uid_t uid, gid_t gid);

/* Adopt fd as a connection read by on_read (NULL: frames of drover's
 * protocol), edge-triggered if edge is EV_ET (else 0). Returns the peer
 * (its one reference is the open connection's), or NULL with fd closed. */
server_peer_t *peer_open(int fd, pid_t pid, uid_t uid, gid_t gid,
                         void (*on_read)(int fd, short what, void *arg), short edge);

/* Queue bytes for the peer as they are (a PMI wire connection's text). */
void peer_write(server_peer_t *peer, const void *bytes, size_t len);

/* Close now, dropping what waits to be written. */
void peer_close(server_peer_t *peer);

/* Whether the connection is still open (replies to a closed one are
 * dropped). */
bool peer_is_open(const server_peer_t *peer);

void peer_retain(server_peer_t *peer);
void peer_release(server_peer_t *peer);

/* Send a reply (command | PROTOCOL_REPLY, tag) carrying status then the
 * unread bytes of body (may be NULL). Dropped when the peer has closed. */
void peer_reply(server_peer_t *peer, uint16_t command, uint32_t tag, pmix_status_t status,
                const pmix_data_buffer_t *body);

/* Send a message that needs no reply (events). */
void peer_send(server_peer_t *peer, uint16_t command, const pmix_data_buffer_t *payload);

/* Close after what is queued has been written. */
void peer_close_when_flushed(server_peer_t *peer);

/* Close every connection (finalize). */
void peer_close_all(void);

/* Run the requests of client that were waiting for the commits it has now
 * sent (or, when it is gone, drop them). */
void peer_run_deferred(server_client_t *client);

/* The main connection of the process that owns peer: peer itself, or for
 * a direct connection (which carries no events or output) the process's
 * main one. */
server_peer_t *peer_main(server_peer_t *peer);

/* The first open connection (then ->next), for walking them all. */
server_peer_t *peer_first(void);

/* A request handler: payload is positioned after the header; the handler
 * owns neither the peer reference nor the payload past its return. */
typedef void (*peer_handler_t)(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);

/* Handle one decoded frame from peer, as if it had just been read (the
 * server's unpack fuzzer feeds requests through here). */
void peer_dispatch(server_peer_t *peer, const protocol_header_t *h, pmix_data_buffer_t *payload);

/* ---- nspace.c --------------------------------------------------------- */

server_nspace_t *nspace_find(const char *name);
server_client_t *nspace_client(const server_nspace_t *ns, pmix_rank_t rank);
server_client_t *nspace_find_client(const pmix_proc_t *proc);

/* Whether rank's process has gone for good: its client dropped its
 * connection without finalizing, or was deregistered (its process ended,
 * whether it ever connected or not). */
bool nspace_rank_gone(const server_nspace_t *ns, pmix_rank_t rank);

/* How many local processes a participant entry stands for: 0 or 1 for a
 * rank, the job's local processes for a wildcard. */
uint32_t nspace_local_count(const pmix_proc_t *proc);

/* Whether rank of ns runs on this node (registered, or a local peer). */
bool nspace_is_local(const server_nspace_t *ns, pmix_rank_t rank);

/* How a path registered for cleanup goes: a file, an empty directory, or
 * a directory and everything under it. */
typedef enum { CLEANUP_FILE, CLEANUP_DIR, CLEANUP_TREE } cleanup_mode_t;

/* Remember an absolute path to remove when ns goes (PMIX_REGISTER_CLEANUP
 * and _CLEANUP_DIR). PMIX_ERR_BAD_PARAM for a relative path or "/". */
pmix_status_t nspace_add_cleanup(server_nspace_t *ns, const char *path, cleanup_mode_t mode);

/* A client is gone (lost its connection without finalizing, or was
 * deregistered): fail what waits on it. */
void nspace_client_gone(server_client_t *client);

/* Free every namespace (finalize). */
void nspace_clear_all(void);

/* ---- hello.c ---------------------------------------------------------- */

void hello_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void hello_finalize_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);

/* The peer's connection closed: if its client had not finalized, it is
 * gone. */
void hello_peer_closed(server_peer_t *peer);

/* ---- jobmaps.c -------------------------------------------------------- */

/* What a registration's node map implies that the host did not give
 * (PMIX_NUM_NODES, PMIX_NODE_LIST): into derived[0..*nderived), which
 * the caller destructs. Fails, deriving nothing, if the node map cannot
 * be read. */
pmix_status_t jobmaps_derive(const pmix_info_t *info, size_t ninfo, pmix_info_t derived[2],
                             size_t *nderived);

/* Hand info to take in consecutive pieces, as clients are to see it: the
 * host's entries as they are, each map under its key of maps.h. Returns
 * take's first failure. */
pmix_status_t jobmaps_walk(const pmix_info_t *info, size_t ninfo,
                           pmix_status_t (*take)(const pmix_info_t *piece, size_t n, void *arg),
                           void *arg);

/* ---- host_events.c --------------------------------------------------- */

/* proc lost its connection without finalizing: the host's own event
 * handlers see PMIX_ERR_LOST_CONNECTION from it, run from the loop. */
void host_events_lost(const pmix_proc_t *proc);

/* The host told client's pid (client->pid is set): admit or refuse the
 * HELLOs that waited for it. */
void hello_client_pid(server_client_t *client);

/* client is being deregistered: refuse the HELLOs that wait for its pid. */
void hello_client_dropped(server_client_t *client);

/* ---- collective.c ----------------------------------------------------- */

/* A collective over a set of processes (fence, connect, disconnect): the
 * server gathers its local participants, then hands it to the host once. */
typedef enum {
    COLLECTIVE_FENCE,
    COLLECTIVE_CONNECT,
    COLLECTIVE_DISCONNECT,
    COLLECTIVE_GROUP_CONSTRUCT,
    COLLECTIVE_GROUP_DESTRUCT
} collective_kind_t;

typedef struct collective_member {
    server_peer_t *peer;         /* a reference */
    uint32_t tag;
    uint16_t command;            /* its request's: the collective's kind,
                                  * or an invitation's (invite.c) */
    pmix_proc_t proc;
} collective_member_t;

typedef struct collective {
    collective_kind_t kind;
    char *signature;             /* kind, name and sorted participants */
    char *name;                  /* a group's name, or NULL */
    pmix_proc_t *procs;          /* participants, sorted, as the host sees them */
    size_t nprocs;
    pmix_info_t *info;           /* the first contributor's directives */
    size_t ninfo;
    uint32_t expected;           /* local participants */
    collective_member_t *members;
    size_t nmembers;
    bool collect_data;           /* fence: PMIX_COLLECT_DATA */
    pmix_data_buffer_t blob;     /* fence: the local participants' data */
    struct event *timer;         /* PMIX_TIMEOUT */
    bool at_host;                /* handed to the host, awaiting its answer;
                                  * set by who hands it over */
    bool abandoned;              /* failed while at the host: free on answer */
    bool optional;               /* PMIX_GROUP_OPTIONAL: lost participants
                                  * are left out instead of failing it */
    bool invited;                /* a group made by invitation whose leader
                                  * is here: it tells the members it is made */
    pmix_proc_t leader;          /* that leader */
    void (*ready)(struct collective *c); /* optional: start it once the
                                          * last participant still able
                                          * has come, or is lost */
    struct collective *next;
} collective_t;

/* Add peer's contribution (its request tag, the participants it named,
 * empty meaning its whole namespace, and its directives; the arrays are
 * taken over whatever happens). On success *c is the collective and
 * *complete tells whether every local participant is now in. On failure
 * the caller replies with the status. */
pmix_status_t collective_join(collective_kind_t kind, server_peer_t *peer, uint32_t tag,
                              pmix_proc_t *procs, size_t nprocs, pmix_info_t *info,
                              size_t ninfo, collective_t **c, bool *complete);

/* Whether p is among procs (a wildcard rank there stands for every rank
 * of its namespace). */
bool collective_includes(const pmix_proc_t *procs, size_t n, const pmix_proc_t *p);

/* Sort procs and drop duplicates; returns the new count. */
size_t collective_normalise(pmix_proc_t *procs, size_t n);

/* collective_join for a named collective (a group's): contributions find
 * each other by name as well as by participants. */
pmix_status_t collective_join_named(collective_kind_t kind, const char *name, server_peer_t *peer,
                                    uint32_t tag, pmix_proc_t *procs, size_t nprocs,
                                    pmix_info_t *info, size_t ninfo, collective_t **c,
                                    bool *complete);

/* Answer every member (as its request was) with status and body (may be
 * NULL) and free c (or leave it to the host's answer when it is at the
 * host). */
void collective_finish(collective_t *c, pmix_status_t status, const pmix_data_buffer_t *body);

/* The host answered c: true when c is to be finished now, false when it
 * was abandoned meanwhile (it has been freed). */
bool collective_host_answered(collective_t *c);

/* Any collective waiting on client fails. */
void collective_client_gone(server_client_t *client);
void collective_clear_all(void);

/* ---- connect.c -------------------------------------------------------- */

void connect_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void connect_disconnect_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);

/* ---- fence.c / data.c ------------------------------------------------- */

void fence_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void data_commit_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void data_get_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);

/* Store the data of processes received from elsewhere (a fence's combined
 * data, a direct modex answer): a sequence of procdata entries. Entries
 * of local processes are skipped: the server has them first hand. */
pmix_status_t data_absorb_blob(const char *blob, size_t size);

/* Append a procdata entry with proc's data visible to scope_mask, if it
 * has any (a wildcard rank: one entry per process of the namespace). */
pmix_status_t data_pack_proc(pmix_data_buffer_t *buf, const pmix_proc_t *proc,
                             uint32_t scope_mask, uint32_t *count);

/* Any GET waiting on client fails. */
void data_client_gone(server_client_t *client);
void data_clear_all(void);

/* ---- notify.c --------------------------------------------------------- */

void notify_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);

/* Deliver an event to the local clients in range (not to skip, if set). */
void notify_deliver(pmix_status_t code, const pmix_proc_t *source, pmix_data_range_t range,
                    const pmix_info_t *info, size_t ninfo, const server_peer_t *skip);

/* ---- relay.c ---------------------------------------------------------- */

/* A request relayed to a host module function. Everything unpacked from
 * it is "held" by the relay, since the host borrows it until it calls
 * back; the reply goes out when it does. */
#define RELAY_MAX_HELD 4
typedef struct relay {
    server_peer_t *peer;         /* a reference */
    uint32_t tag;
    uint16_t command;
    struct {
        void *array;
        size_t n;
        pmix_data_type_t type;
    } held[RELAY_MAX_HELD];
    size_t nheld;
    char **keys;                 /* NULL-terminated copy for lookup/unpublish */
    pmix_status_t status;        /* the host's answer */
    pmix_data_buffer_t body;     /* the reply after the status */
    void *extra;                 /* freed with the relay */
} relay_t;

/* Start relaying peer's request; NULL (the peer already answered) when
 * memory runs out. */
relay_t *relay_new(server_peer_t *peer, uint32_t tag, uint16_t command);

/* Reply with status (and on success the body packed so far), free r. */
void relay_finish(relay_t *r, pmix_status_t status);

/* The host has answered (any thread): r->body is packed; the reply goes
 * out from the progress thread. */
void relay_answered(relay_t *r, pmix_status_t status);

/* After calling the module function: its return rc other than
 * PMIX_SUCCESS (it will not call back) finishes r at once. */
void relay_called(relay_t *r, pmix_status_t rc);

/* Keep array (of n elements of type) alive until r is freed. */
void relay_hold(relay_t *r, void *array, size_t n, pmix_data_type_t type);

/* Unpack one array group and hold it; false (r finished) on error. */
bool relay_unpack(relay_t *r, pmix_data_buffer_t *payload, pmix_data_type_t type, void **array,
                  size_t *n);

/* Unpack a PMIX_STRING[] group as r->keys, NULL-terminated; false (r
 * finished) on error. */
bool relay_unpack_keys(relay_t *r, pmix_data_buffer_t *payload);

/* The host answered with n elements of type at data (packed at once, only
 * when status is PMIX_SUCCESS or PMIX_ERR_PARTIAL_SUCCESS): reply from the
 * progress thread. */
void relay_answered_with(relay_t *r, pmix_status_t status, void *data, size_t n,
                         pmix_data_type_t type);

/* Module callbacks answering a relay (cbdata): a status alone, or a status
 * and infos packed as PMIX_INFO[]. */
void relay_op_answered(pmix_status_t status, void *cbdata);
void relay_info_answered(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                         pmix_release_cbfunc_t release_fn, void *release_cbdata);

/* ---- The relayed requests, one file per API family -------------------- */

void abort_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void query_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void job_control_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void log_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void publish_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void publish_lookup_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void publish_unpublish_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void spawn_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void allocation_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void monitor_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void fabric_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);

/* ---- pmi.c ------------------------------------------------------------ */

/* The reply (status then body) to a request a PMI wire connection made. */
void pmi_reply(server_peer_t *peer, uint16_t command, uint32_t tag,
               const pmix_data_buffer_t *payload);

/* The connection is closing: free its PMI state. */
void pmi_peer_closed(server_peer_t *peer);

/* Its output is about to wait for the socket: stop peeking at its input
 * (libevent cannot watch one socket edge- and level-triggered at once). */
void pmi_output_waits(server_peer_t *peer);

/* Listen on 127.0.0.1 for PMI_PORT (once; later calls succeed at once):
 * at init when the host asks (DROVER_SERVER_PMI_PROCS), else for the first
 * PMI process. Before the progress thread runs, or in it. */
pmix_status_t pmi_port_open(void);

/* Make the socket pairs of the next n PMI processes (at init, when the
 * host asks): as many as can be, the rest as they are set up. */
void pmi_pairs_ahead(uint32_t n);

/* Close the pairs made ahead and not taken (finalize). */
void pmi_pairs_close(void);

/* Stop serving PMI_PORT (finalize). */
void pmi_port_close(void);

/* ---- env_set.c --------------------------------------------------------- */

/* The most variables one env_set_all sets. */
#define ENV_SET_MAX 12

/* Set each vars[i][0]=vars[i][1], every name beginning with prefix, in
 * the NULL-terminated array *env, in one pass over it: a name already
 * there is replaced where it is, the others are added at the end. On
 * failure (PMIX_ERR_NOMEM, PMIX_ERR_BAD_PARAM beyond ENV_SET_MAX) *env is
 * as it was. */
pmix_status_t env_set_all(char ***env, const char *prefix, const char *const vars[][2], size_t n);

/* ---- credential.c ----------------------------------------------------- */

void credential_get_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void credential_validate_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);

/* Forget the key native credentials are sealed with (finalize). */
void credential_clear(void);

/* ---- Queries the library answers itself -------------------------------- */

/* Each answers key (of query q) if it is one of its own: true, with *rc
 * the outcome and, on PMIX_SUCCESS, *result loaded (caller destructs).
 * False when the key is not its own. */
bool pset_query(const char *key, const pmix_query_t *q, pmix_info_t *result, pmix_status_t *rc);
bool group_query(const char *key, const pmix_query_t *q, pmix_info_t *result, pmix_status_t *rc);
bool attrs_query(const char *key, const pmix_query_t *q, pmix_info_t *result, pmix_status_t *rc);

/* Forget every process set / attribute registration (finalize). */
void pset_clear_all(void);
void attrs_clear_all(void);

/* ---- group.c / invite.c --------------------------------------------------- */

void group_construct_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void group_destruct_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void group_leave_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void group_invite_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void group_join_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);

/* Whether a group of that name has been built here. */
bool group_exists(const char *name);

/* Record a completed group, taking members over (sorted, heap-allocated)
 * whatever happens; context_id SIZE_MAX for none. PMIX_ERR_EXISTS if the
 * name is taken. local: built without the host. */
pmix_status_t group_record(const char *name, pmix_proc_t *members, size_t nmembers,
                           size_t context_id, bool notify_termination, bool local);

/* A context id no group of this server has had. */
size_t group_new_context_id(void);

/* procs with wildcard ranks expanded where the job's size is known,
 * sorted and without duplicates, in a new array (*out, caller frees). */
pmix_status_t group_expand(const pmix_proc_t *procs, size_t n, pmix_proc_t **out, size_t *nout);

/* Pack what a member gave in PMIX_GROUP_INFO among info (if anything) as
 * its PMIX_PROC and PMIX_INFO[], to follow the results of a group with a
 * context id (the members store it qualified by that id). */
pmix_status_t group_pack_given(pmix_data_buffer_t *out, const pmix_proc_t *proc,
                               const pmix_info_t *info, size_t ninfo);

/* Pack the results every member of a new group gets (PMIX_GROUP_ID,
 * PMIX_GROUP_MEMBERSHIP, PMIX_GROUP_CONTEXT_ID unless SIZE_MAX, then
 * extra) as one PMIX_INFO[] group. */
pmix_status_t group_pack_results(pmix_data_buffer_t *body, const char *name,
                                 const pmix_proc_t *members, size_t nmembers, size_t context_id,
                                 const pmix_info_t *extra, size_t nextra);

/* Whether every process named (a wildcard rank: all of its job) runs
 * here, as a client of this server. */
bool group_all_local(const pmix_proc_t *procs, size_t n);

/* Raise group event code from source for targets (non-default handlers,
 * PMIX_GROUP_ID name, then extra), here and through the host beyond. */
void group_announce(pmix_status_t code, const pmix_proc_t *source, const char *name,
                    const pmix_proc_t *targets, size_t ntargets, const pmix_info_t *extra,
                    size_t nextra);

/* Tell every member (through the host beyond this server) that the group
 * leader invited them to is made: PMIX_GROUP_CONSTRUCT_COMPLETE with
 * PMIX_GROUP_MEMBERSHIP and, unless SIZE_MAX, PMIX_GROUP_CONTEXT_ID. */
void group_announce_made(const pmix_proc_t *leader, const char *name, const pmix_proc_t *members,
                         size_t nmembers, size_t context_id);

/* A group made by invitation across servers: an INVITE or a JOIN held
 * here (tag, answered as command) becomes this server's part of the
 * construct of name over members (with PMIX_GROUP_ASSIGN_CONTEXT_ID when
 * assign_context), with what the processes here gave, packed (given, may
 * be empty). leader, when not NULL, is the invitation's leader, a client
 * of this server. */
void group_construct_invited(server_peer_t *peer, uint32_t tag, uint16_t command, const char *name,
                             const pmix_proc_t *members, size_t nmembers, bool assign_context,
                             const pmix_data_buffer_t *given, const pmix_proc_t *leader);

/* A client is gone: out of its groups, invitations and pending joins. */
void group_client_gone(server_client_t *client);
/* The host tells of event code: a member beyond this node that left a
 * group or failed (PMIX_GROUP_LEFT, PMIX_GROUP_MEMBER_FAILED) is taken
 * out of this server's record of the group too. */
void group_heard(pmix_status_t code, const pmix_info_t *info, size_t ninfo);
/* The host tells of an invitation's event from another server (an answer
 * to an invitation led here; the group complete, or the leader failed,
 * for a JOIN held here): true when it is the servers' own and no client
 * is to hear it. */
bool invite_heard(pmix_status_t code, const pmix_proc_t *source, const pmix_info_t *info,
                  size_t ninfo);
void invite_client_gone(server_client_t *client);
void group_clear_all(void);
void invite_clear_all(void);

/* ---- iof.c ------------------------------------------------------------ */

void iof_pull_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void iof_deregister_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);
void iof_push_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload);

/* The output of nspace on channels goes to peer (a tool that spawned it
 * asking for forwarding), under the number PROTOCOL_IOF_FORWARDED. */
void iof_forward(server_peer_t *peer, const char *nspace, pmix_iof_channel_t channels);

/* The connection closed: its pulls go. */
void iof_peer_closed(server_peer_t *peer);
void iof_clear_all(void);

/* ---- iof_cache.c ------------------------------------------------------ */

/* Keep a copy of output no pull wanted (within the cache's bounds). */
void iof_cache_keep(const pmix_proc_t *source, pmix_iof_channel_t channel,
                    const pmix_byte_object_t *bo, const pmix_info_t *info, size_t ninfo);

/* Hand every kept piece match(arg, ...) wants to send(arg, ...), oldest
 * first, and forget it. */
typedef bool (*iof_cache_match_fn)(void *arg, const pmix_proc_t *source,
                                   pmix_iof_channel_t channel);
typedef void (*iof_cache_send_fn)(void *arg, const pmix_proc_t *source,
                                  pmix_iof_channel_t channel, const pmix_byte_object_t *bo,
                                  const pmix_info_t *info, size_t ninfo);
void iof_cache_replay(iof_cache_match_fn match, iof_cache_send_fn send, void *arg);

/* Forget everything kept. */
void iof_cache_clear(void);

/* ---- tool.c ----------------------------------------------------------- */

/* Whether a HELLO's info says it comes from a tool. */
bool tool_requested(const pmix_info_t *info, size_t ninfo);

/* A tool's HELLO (asked: the identity it asked for, an empty namespace
 * for none; direct: its second connection). info is borrowed. */
void tool_hello(server_peer_t *peer, uint32_t tag, const pmix_proc_t *asked, bool direct,
                const pmix_info_t *info, size_t ninfo);

#endif /* DROVER_SERVER_H */
