/*
 * launcher.h - what the files of `drover run` share.
 *
 * `drover run` is a PMIx host, as mpirun or slurmstepd are: it starts the
 * server library through the public pmix_server.h API, describes each job
 * (namespace) to it, forks the processes and runs one event loop (libevent,
 * in the main thread) until every process of every job has ended. The
 * first job comes from the command line; PMIx_Spawn adds more, in the same
 * run. One file per concern:
 *
 *   run.c      the command itself: the steps of a run, in order; signals,
 *              --timeout and the exit status
 *   options.c  the command line
 *   jobfile.c  YAML job files: MPMD apps and the options' settings
 *   mapping.c  hwloc: slots, where each process goes and what it is bound to
 *   limits.c   the open files a run needs, against RLIMIT_NOFILE
 *   session.c  the session directory, the process group of every job and
 *              the anchor process that cleans both up if drover dies
 *   launch.c   environments, the program's path, fork and exec
 *   launch_threads.c  a job's processes forked from two threads at once
 *   iof.c      stdin to rank 0, stdout and stderr back in whole lines
 *   job.c      jobs and their processes: start, reap, end, events
 *   jobinfo.c  the job description handed to PMIx_server_register_nspace
 *   host.c     the pmix_server_module_t the server library calls, and the
 *              queue that carries its requests to the main thread
 *   pubsub.c   the publish/lookup store
 *   query.c    PMIx_Query_info answers about jobs and processes
 *   spawn.c    PMIx_Spawn: a new job from a client's apps
 *   debug.c    debugger directives: ranks stopped in PMIx_Init, at exec or
 *              in the application until a tool releases them
 *   slurm.c    inside a Slurm allocation of several nodes: srun --mpi=pmix
 *
 * Threads: everything runs in the main thread except the module functions
 * of host.c, which the server library calls from its progress thread; they
 * copy their arguments into a request and queue it for the main thread;
 * and launch_threads.c's helper, which only forks and execs.
 *
 * Errors (docs/style.md): a function returns what its caller acts on, and
 * its comment says which. A step of the command returns an exit status (0
 * or LAUNCHER_EXIT_*) after printing the one line naming the problem; work
 * for the server library or a job returns a pmix_status_t; a wrapper of a
 * single system call returns an errno.
 */
#ifndef DROVER_LAUNCHER_H
#define DROVER_LAUNCHER_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <hwloc.h>

#include "drover.h"
#include "options.h"
#include "pmix_common.h"

struct event_base;
struct event;

typedef struct launcher launcher_t;
typedef struct launcher_job launcher_job_t;

/* ---- slurm.c ---------------------------------------------------------- */

/* The number of nodes of the Slurm allocation drover runs in (outside any
 * step of it), or 0 when drover is to run the job itself. */
unsigned slurm_allocation_nodes(void);

/* Hand the job to srun --mpi=pmix across the allocation's nodes: returns
 * only on failure (a one-line message printed), with the exit status. */
int slurm_run(const launcher_options_t *opts, unsigned nodes);

/* ---- mapping.c -------------------------------------------------------- */

typedef struct launcher_topology {
    hwloc_topology_t topology;   /* loaded once, without I/O devices */
    hwloc_obj_type_t slot_type;  /* HWLOC_OBJ_CORE or HWLOC_OBJ_PU */
    unsigned slots;
} launcher_topology_t;

/* Where the processes of one job run. */
typedef struct launcher_map {
    launcher_policy_t map_by;    /* as applied: never DEFAULT */
    launcher_policy_t bind_to;
    unsigned nprocs;
    hwloc_bitmap_t *cpusets;     /* per process: the CPUs it may run on (the
                                  * whole node when unbound) */
    bool oversubscribed;         /* more processes than slots on the node */
} launcher_map_t;

/* Load this node's topology into *topo (zeroed, or loaded already: then
 * only its slots are counted again, with use_hwthreads). Returns 0, or
 * LAUNCHER_EXIT_FAILURE after a one-line message. Release with
 * mapping_unload. */
int mapping_load(launcher_topology_t *topo, bool use_hwthreads);

/* Load the topology now, for the next mapping_load to take (a standby
 * run, daemon_standby.c, does it before its job comes). 0 or -1. */
int mapping_preload(void);

void mapping_unload(launcher_topology_t *topo);

/* Place nprocs processes after the `running` already on the node (they
 * take the following slots). Refuses (a one-line message naming what,
 * PMIX_ERR_OUT_OF_RESOURCE) more processes than slots without
 * --oversubscribe. On failure nothing is left allocated; on success release
 * with mapping_release. */
pmix_status_t mapping_place(launcher_map_t *map, const launcher_topology_t *topo,
                            const launcher_options_t *opts, unsigned nprocs, unsigned running,
                            const char *what);

/* The glibc affinity mask binding process p, for the child to apply before
 * exec; NULL when unbound or out of memory. *size is its size in bytes.
 * Caller frees with CPU_FREE. */
cpu_set_t *mapping_affinity(const launcher_map_t *map, const launcher_topology_t *topo,
                            unsigned p, size_t *size);

/* Free the placements. Accepts a zeroed struct. */
void mapping_release(launcher_map_t *map);

/* ---- limits.c --------------------------------------------------------- */

/* Raise the soft limit on open files to the hard one and check that
 * nprocs more processes fit beside the running ones. Refuses (a one-line
 * message, PMIX_ERR_OUT_OF_RESOURCE) a job that does not. */
pmix_status_t limits_fit(unsigned nprocs, unsigned running);

/* Grow the descriptor table to what launching nprocs processes takes. Call
 * while the process has a single thread, when that costs nothing. */
void limits_reserve(unsigned nprocs);

/* ---- cgroup.c --------------------------------------------------------- */

/* A cgroup of the run's processes (all descriptors -1 when none). */
typedef struct launcher_cgroup {
    int parent_fd;    /* the cgroup drover is in (O_PATH) */
    int dir_fd;       /* the run's, below it */
    int procs_fd;     /* its cgroup.procs: a child writes "0" to join
                       * where clone3 cannot start it there */
    char name[64];    /* "drover-<pid>.<random>" */
} launcher_cgroup_t;

/* Make the run's cgroup below drover's own if cgroup v2 lets this user;
 * otherwise leave cg without one. */
void cgroup_create(launcher_cgroup_t *cg);

/* Send sig to every process in the cgroup (SIGKILL through cgroup.kill
 * where the kernel has it). Returns how many there were. */
unsigned cgroup_signal(const launcher_cgroup_t *cg, int sig);

/* Kill what is in the cgroup, remove it and close its descriptors.
 * Accepts a cg without a cgroup. */
void cgroup_remove(launcher_cgroup_t *cg);

/* ---- session.c -------------------------------------------------------- */

typedef struct launcher_session {
    char *dir;        /* the session directory: PMIX_SERVER_TMPDIR and
                       * PMIX_TMPDIR of every job */
    char *shm_prefix; /* "drover-<pid>-": every job's /dev/shm segments */
    pid_t pgid;       /* the anchor's pid: the process group of every job */
    bool anchor_alive;
    int anchor_fd;    /* closing it tells the anchor drover is gone */
    int tmp_fd;       /* the directory holding dir (O_PATH) */
    int dir_fd;       /* dir, as made: removed through these, never by
                       * its path */
    int shm_fd;       /* /dev/shm (O_PATH), or -1 */
    char label[64];   /* "DROVER_RUN=<pid>.<random>", in the environment of
                       * every process of the run: the anchor finds by it
                       * those that left the process group */
    launcher_cgroup_t cgroup;
} launcher_session_t;

/* A session not (or no longer) created. */
#define SESSION_NONE                                                                 \
    ((launcher_session_t){.pgid = -1, .anchor_fd = -1, .tmp_fd = -1, .dir_fd = -1, \
                          .shm_fd = -1,                                              \
                          .cgroup = {.parent_fd = -1, .dir_fd = -1, .procs_fd = -1}})

/* Create the session directory and the anchor. Call before any thread
 * starts. Returns 0, or LAUNCHER_EXIT_FAILURE after a one-line message with
 * nothing left behind. */
/* What every job's namespace and /dev/shm segments of this run start with
 * ("drover-<pid>-", or the daemon's name for its job); NULL: no memory. */
char *session_name_prefix(void);
int session_create(launcher_session_t *s, double grace);
/* A daemon's standby: make the session before the job comes (as
 * session_create, with a prefix of its own). The next session_create takes
 * it over, with the job's prefix and grace. */
int session_prepare(double grace);
/* The session prepared, if no job came for it: destroyed. */
void session_unprepare(void);

/* The prepared session's directory (session_prepare), or NULL: none, or
 * no longer there (removed while the standby waited). */
const char *session_prepared_dir(void);

/* Make dir/<name>, mode 0700. Caller frees the path. NULL on failure. */
char *session_mkdir(const char *dir, const char *name);

/* Make a new directory /dev/shm/<session prefix><suffix>.<random>, mode
 * 0700, which goes with the session's segments (even when drover is
 * killed). Caller frees the path. NULL on failure. */
char *session_shm_mkdir(const launcher_session_t *s, const char *suffix);

/* env (freed) with the session's label (DROVER_RUN) set; NULL when
 * memory runs out. Caller frees with launch_free_env. */
char **session_label_env(const launcher_session_t *s, char **env);

/* Send sig to every process in the session's process group but the anchor
 * (and, with adopted, to every child drover adopted as subreaper). */
void session_signal_all(const launcher_session_t *s, int sig, bool adopted);

/* Kill whatever is left, reap it, remove the session directory and the
 * jobs' shared-memory segments and release s. Accepts a session never
 * created. */
void session_destroy(launcher_session_t *s);

/* ---- iof.c ------------------------------------------------------------ */

typedef struct iof iof_t;

/* Start forwarding; closed(arg) runs in the loop whenever an output
 * stream reaches its end, broken(arg) when drover's stdout or stderr has
 * lost its reader (EPIPE; once for each). Caller frees with iof_destroy. */
iof_t *iof_create(struct event_base *base, bool tag_output, void (*closed)(void *arg),
                  void (*broken)(void *arg), void *arg);

/* A daemon's job: its processes' output goes to the daemon as frames on
 * fd (output_frames.h), not to drover's stdout and stderr. fd stays the
 * caller's. */
void iof_send_frames(iof_t *iof, int fd);

/* Make n pipes now, for the next iof_prepare calls to take (a daemon's
 * standby, before its job comes); those left are closed with the iof. */
void iof_pipes_ahead(unsigned n);

/* Make the pipes of rank of the run's job index job (0: the first; with
 * --tag-output its lines are tagged "[rank] ", or "[job.rank] "); fds
 * receives the descriptors the child must dup2 onto 0, 1 and 2 (all
 * close-on-exec; stdin is /dev/null unless with_stdin). *stream is the
 * handle for the other calls. Returns 0 or an errno. */
int iof_prepare(iof_t *iof, unsigned job, unsigned rank, bool with_stdin, int fds[3],
                void **stream);

/* After fork: close the child's ends and start reading its output
 * (started) or, when the fork failed, drop everything (!started). */
void iof_launched(iof_t *iof, void *stream, bool started);

/* The process has exited: stop forwarding stdin to it. */
void iof_exited(iof_t *iof, void *stream);

/* Output streams still open. */
unsigned iof_open_streams(const iof_t *iof);

/* Write text to drover's fd 1 or 2 as whole lines, as if from the stream
 * (tagged alike; NULL: untagged), adding a newline if text lacks one. */
void iof_message(iof_t *iof, void *stream, int fd, const char *text);

/* Stop everything, writing out what is buffered. Accepts NULL. */
void iof_destroy(iof_t *iof);

/* ---- openmpi.c -------------------------------------------------------- */

/* The directory for Open MPI's shared-memory files of the session's jobs
 * (see openmpi.c). Caller frees. NULL if it cannot be made. */
char *openmpi_shm_dir(const launcher_session_t *s);

/* env (a process's, freed on failure) with what Open MPI needs to run as
 * a direct-launched job of map, its shared-memory files in shm_dir (NULL:
 * Open MPI's default place); variables the user set are kept. NULL when
 * memory runs out. */
char **openmpi_env(char **env, const launcher_map_t *map, const char *shm_dir);

/* ---- proctitle.c ------------------------------------------------------ */

/* The bytes first (unless NULL) and words (NULL-terminated) take
 * NUL-separated: what proctitle_show needs room for. */
size_t proctitle_size(const char *first, char *const *words);

/* Show first and args as this process's command line and, unless NULL,
 * env as its environment (/proc/<pid>/cmdline and environ), in the room
 * the kernel gave them at exec, the rest zeroed. env's strings must not
 * be this process's environ's. False, and nothing changed, unless all
 * of it fits. */
bool proctitle_show(const char *first, char *const *args, char *const *env);

/* ---- launch.c --------------------------------------------------------- */

/* The environment every process starts from: drover's, without variables
 * of an enclosing PMIx job (PMIX_*), with the -x settings applied and, by
 * default, drover's libpmix.so.2 directory first on LD_LIBRARY_PATH. NULL
 * when memory runs out. Caller frees with launch_free_env. */
char **launch_base_env(const launcher_options_t *opts);


/* The whole text of the regular file at path (*len bytes), or NULL when it
 * cannot be read, is larger than the YAML reader takes (YDOC_MAX_BYTES) or
 * holds a NUL byte. Caller frees. */
char *launch_read_text(const char *path, size_t *len);

/* The directory of the libpmix.so.2 this process uses. Static; NULL if
 * unknown. */
const char *launch_libpmix_dir(void);

/* Find the program as execve in wdir would, searching env's PATH when the
 * name has no '/'. Returns 0 with *path (caller frees), or
 * LAUNCHER_EXIT_NOTFOUND / LAUNCHER_EXIT_NOEXEC with *why set to a static
 * reason. */
int launch_resolve(const char *name, char *const *env, const char *wdir, char **path,
                   const char **why);

/* What the child of fork needs; all prepared in the parent. */
typedef struct launch_child {
    const char *path;
    char *const *argv;
    char *const *env;
    const char *wdir;     /* NULL: stay */
    const char *procdir;  /* directory the child creates, or NULL */
    int fds[3];           /* onto 0, 1, 2 */
    pid_t pgid;           /* process group to join */
    int cgroup_dir;       /* the cgroup to start in, or -1 */
    int cgroup_procs;     /* its cgroup.procs (where clone3 cannot start
                           * a process in a cgroup), or -1 */
    cpu_set_t *affinity;  /* NULL: unbound */
    size_t affinity_size;
    int inherit_fd;       /* > 2: a close-on-exec descriptor the program
                           * keeps (its PMI_FD) */
    bool trace_exec;      /* stop at exec for a debugger (debug.c) */
    const sigset_t *handled; /* back to their default in the child
                              * (launch_handled_signals) */
} launch_child_t;

/* The signals whose disposition the child of a fork must set back to the
 * default: drover's handlers, and SIGPIPE. */
void launch_handled_signals(sigset_t *set);

/* Fork and exec. Returns the pid, or -1 with errno set. */
pid_t launch_fork(const launch_child_t *child);

/* ---- launch_threads.c ------------------------------------------------- */

/* How the start of one child went. */
typedef struct launch_result {
    pid_t pid;      /* started; -1: failed with err; 0: not tried (an
                     * earlier start failed) */
    int err;
    double began;   /* trace_now() as its start began */
} launch_result_t;

/* Start children[0..n) as launch_fork does, from this thread and a
 * helper thread at once (see the file's notes), each result in
 * results[i]. The first failure stops further starts. */
void launch_fork_all(const launch_child_t *children, size_t n, launch_result_t *results);

/* Make the helper thread now (a daemon's standby, before its job). */
void launch_threads_start(void);

/* A launch_fork_all of two or more children is near: the helper (made
 * now if need be) polls for it a while rather than sleep. */
void launch_threads_expect(void);

/* ---- vfork_cgroup.c --------------------------------------------------- */

/* vfork, the child starting in the cgroup open as cgroup_fd and running
 * fn(arg) on a stack of its own; fn must exec or _exit (a return exits
 * with 127). Returns the child's pid once it has, or -1 with errno:
 * ENOSYS where this cannot be done (see the file's notes). */
pid_t vfork_cgroup(int cgroup_fd, void (*fn)(const void *), const void *arg);

/* ---- job.c ------------------------------------------------------------ */

typedef struct launcher_app {
    char **argv;          /* owned */
    char **env;           /* the app's processes' environment, owned */
    char *wdir;           /* owned; NULL: drover's working directory */
    char *program;        /* resolved path, owned */
    unsigned nprocs;
    unsigned first_rank;
} launcher_app_t;

typedef struct launcher_proc {
    pid_t pid;             /* 0 until launched */
    unsigned app;
    bool alive;            /* launched and not yet reaped */
    bool registered;       /* PMIx_server_register_client done */
    bool connected;        /* called PMIx_Init */
    bool finalized;        /* called PMIx_Finalize */
    bool requested_end;    /* signalled through PMIx_Job_control/Abort */
    bool terminating;      /* SIGTERM sent: SIGKILL when the grace ends */
    int exit_code;         /* once reaped: status, or 128+signal */
    void *stream;          /* iof.c's */
    bool traced;           /* to stop at exec: traced until it has */
    bool held;             /* stopped at exec until a debugger releases it */
} launcher_proc_t;

struct launcher_job {
    launcher_t *run;
    unsigned index;                   /* 0: the command line's job */
    char nspace[PMIX_MAX_NSLEN + 1];
    bool spawned;
    pmix_proc_t parent;               /* when spawned */
    launcher_app_t *apps;
    unsigned napps;
    unsigned nprocs;
    unsigned node_rank_base;          /* processes on the node before it */
    launcher_proc_t *procs;
    launcher_map_t map;
    char *nsdir;
    unsigned nalive;
    bool registered;                  /* register_nspace done */
    bool notify_completion;           /* tell the parent when it ends */
    bool preemptible;                 /* PMIX_JOB_CTRL_PREEMPTIBLE */
    int checkpoint_signal;            /* its declared checkpoint method:
                                       * this signal, or 0: the event */
    pmix_job_state_t state;
    int exit_code;                    /* first non-zero of its processes */
    pmix_info_t *debug;               /* its debugger directives (debug.c) */
    size_t ndebug;
    struct job_asked *asked;          /* job_register's, until job_start */
};

/* Free an array of napps apps and what they own. Accepts NULL. */
void job_free_apps(launcher_app_t *apps, size_t napps);

/* Create a job of napps apps (apps are moved into the job, which owns them
 * afterwards even on failure) and add it to the run. Returns NULL after a
 * message when memory runs out. */
launcher_job_t *job_create(launcher_t *run, launcher_app_t *apps, unsigned napps,
                           const pmix_proc_t *parent);

/* Place job and ask the server's thread to register it and its clients,
 * without waiting: job_start, which must follow, takes the answer (a run
 * does other work meanwhile). A failure is said and returned by job_start
 * (or here, for want of memory). */
pmix_status_t job_register(launcher_job_t *job);

/* Place and register job (unless job_register did) and launch every
 * process of it. On failure returns an error after a one-line message; the
 * processes started are ended (the run reaps them) and the job stays in
 * the run's list. */
pmix_status_t job_start(launcher_job_t *job);

/* The job whose namespace is nspace, or NULL. */
launcher_job_t *job_find(launcher_t *run, const char *nspace);

/* The process proc names, or NULL (unknown, or a wildcard rank). */
launcher_proc_t *job_find_proc(launcher_t *run, const pmix_proc_t *proc, launcher_job_t **job);

/* Reap every child that has exited and act on it. */
void job_reap(launcher_t *run);

/* End the run because of a failure: the first call fixes the exit status,
 * prints the one-line message (when fmt is not NULL) and terminates every
 * process still running. Later calls only print their message. */
void job_fail(launcher_t *run, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* End every running process: sig (SIGTERM, or the signal drover got),
 * then SIGKILL after the grace period. */
void job_end_all(launcher_t *run, int sig);

/* SIGTERM one process on request of a client, SIGKILL after the grace
 * period; its death is then not a failure of the run. */
void job_terminate_proc(launcher_t *run, launcher_proc_t *proc);

/* The grace period is over: SIGKILL what was asked to terminate. */
void job_grace_expired(launcher_t *run);

/* Send sig to one process on request of a client: its death by sig is
 * then not a failure of the run. */
void job_signal_proc(launcher_t *run, launcher_proc_t *proc, int sig);

/* Deregister the job's clients and namespace and free it. */
void job_destroy(launcher_job_t *job);

/* ---- jobinfo.c -------------------------------------------------------- */

/* The job's description for PMIx_server_register_nspace, its own
 * server's (job.c) or another's (pubsub_daemon.c): *info (of *ninfo) is
 * the caller's, freed with PMIX_INFO_FREE. */
pmix_status_t jobinfo_describe(const launcher_job_t *job, pmix_info_t **info, size_t *ninfo);

/* ---- debug.c ---------------------------------------------------------- */

/* Check the debugger directives among a spawn's job info (a bool, a rank
 * or processes). PMIX_ERR_BAD_PARAM after a one-line message. */
pmix_status_t debug_check(const pmix_info_t *info, size_t ninfo);

/* Keep the (checked) debugger directives among info with job, to be
 * registered as its job information. */
pmix_status_t debug_take(launcher_job_t *job, const pmix_info_t *info, size_t ninfo);

/* The same for the command line's --stop-* options. */
pmix_status_t debug_take_options(launcher_job_t *job, const launcher_options_t *opts);

/* Whether rank of job is to stop at exec. */
bool debug_stops_at_exec(const launcher_job_t *job, unsigned rank);

/* The reaper saw child pid stopped by sig: a traced process reaching exec
 * is detached and held stopped, and announced ready for debug. */
void debug_stopped(launcher_t *run, pid_t pid, int sig);

/* A tool's PMIX_DEBUGGER_RELEASE (info: the event's): continue the held
 * processes it names. */
void debug_release(launcher_t *run, const pmix_info_t *info, size_t ninfo);

/* ---- host.c ----------------------------------------------------------- */

/* How host_start starts the server. */
typedef struct host_setup {
    const char *tmpdir; /* the server's directory: the session's */
    bool daemon_job;    /* a daemon's job: other jobs, the daemon's tools */
    bool traced;        /* what clients ask goes to run->trace, there now
                         * or set later (with __atomic_store_n) */
    unsigned pmi_procs; /* the ranks about to start: their PMI socket
                         * pairs are made with the server */
} host_setup_t;

/* Start the server library with drover's module. Returns PMIX_SUCCESS or
 * the server's error; on failure nothing is left running. */
pmix_status_t host_start(launcher_t *run, const host_setup_t *setup);

/* Carry out every queued request now (before tearing the run down). */
void host_flush(launcher_t *run);

/* Stop the server library (its socket and directory go away) and drop
 * requests still queued. Accepts a host never started. */
void host_stop(launcher_t *run);

/* Raise event code about proc (rank PMIX_RANK_WILDCARD: its job) for the
 * clients, with the exit code when known. */
void host_notify(launcher_t *run, pmix_status_t code, const pmix_proc_t *proc, int exit_code);

/* Raise event code from source over range with info (made with
 * PMIX_INFO_CREATE, ninfo of them; taken over whatever happens). */
pmix_status_t host_raise(launcher_t *run, pmix_status_t code, const pmix_proc_t *source,
                         pmix_data_range_t range, pmix_info_t *info, size_t ninfo);

/* A deep copy of n items of type through the datatype registry (for a
 * module function's borrowed arguments); NULL when there are none or on
 * failure. The caller frees it with that type's free macro. */
void *host_copy_array(const void *src, size_t n, pmix_data_type_t type);

/* ---- daemon_client.c --------------------------------------------------- */

/* In a daemon's job: pass proc's PMIX_READY_FOR_DEBUG (its info: the
 * breakpoint) to the daemon, whose tools are the debuggers. */
void daemon_client_ready(const pmix_proc_t *proc, const pmix_info_t *info, size_t ninfo);

/* ---- control.c -------------------------------------------------------- */

/* Apply fn to every running process procs names (wildcard ranks
 * included). */
void control_for_each(launcher_t *run, const pmix_proc_t *procs, size_t nprocs,
                      void (*fn)(launcher_t *run, launcher_proc_t *p, int arg), int arg);

/* Carry out PMIx_Job_control directives of requestor on targets (its job
 * when none). PMIX_ERR_NOT_SUPPORTED when no directive was one drover
 * acts on. */
pmix_status_t control_job(launcher_t *run, const pmix_proc_t *requestor,
                          const pmix_proc_t *targets, size_t ntargets, const pmix_info_t *dirs,
                          size_t ndirs);

/* Carry out requestor's PMIx_Process_monitor request (heartbeats). */
pmix_status_t control_monitor(launcher_t *run, const pmix_proc_t *requestor,
                              const pmix_info_t *monitor, pmix_status_t error,
                              const pmix_info_t *dirs, size_t ndirs);

/* Stop every heartbeat watch. */
void control_stop(void);

/* Wait, in the main thread, for a server call taking a pmix_op_cbfunc_t:
 * host_op_begin gives the cbfunc and cbdata to pass, host_op_wait waits
 * for the given number of callbacks and returns the first error. */
typedef struct host_op host_op_t;
host_op_t *host_op_begin(void);
void host_op_cbfunc(pmix_status_t status, void *cbdata);
pmix_status_t host_op_wait(host_op_t *op, unsigned ncalls);

/* PMIx_server_register_nspace, waited for (info is borrowed for the
 * call). */
pmix_status_t host_register_nspace(const char *nspace, int nlocal, pmix_info_t *info,
                                   size_t ninfo);

/* ---- pubsub.c --------------------------------------------------------- */

typedef struct pubsub pubsub_t;

/* Caller frees with pubsub_destroy, which answers waiting lookups. */
pubsub_t *pubsub_create(struct event_base *base);
void pubsub_destroy(pubsub_t *ps);

/* The module requests, in the main thread; they own nothing passed, and
 * answer through the callback (which may be NULL for the ops), at once
 * or, for what the daemon keeps, later. */
void pubsub_publish(pubsub_t *ps, const pmix_proc_t *proc, const pmix_info_t *info, size_t ninfo,
                    pmix_op_cbfunc_t cbfunc, void *cbdata);
void pubsub_lookup(pubsub_t *ps, const pmix_proc_t *proc, char **keys, const pmix_info_t *info,
                   size_t ninfo, pmix_lookup_cbfunc_t cbfunc, void *cbdata);
void pubsub_unpublish(pubsub_t *ps, const pmix_proc_t *proc, char **keys, const pmix_info_t *info,
                      size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata);

/* Drop what outlives nothing any more: data of proc published with
 * PMIX_PERSIST_PROC (rank is a real rank), or of its job with
 * PMIX_PERSIST_APP (rank PMIX_RANK_WILDCARD). */
void pubsub_forget(pubsub_t *ps, const pmix_proc_t *proc);

/* The host's direct modex: in a daemon's job, the data of a process of
 * another job, fetched through the daemon; else PMIX_ERR_NOT_FOUND. */
void pubsub_modex(pubsub_t *ps, const pmix_proc_t *proc, pmix_modex_cbfunc_t cbfunc,
                  void *cbdata);

/* The host's connect or disconnect, once the server has gathered this
 * run's participants (mine: the run's jobs among procs): in a daemon's
 * job, the other jobs' runs are met through the daemon, and a connect
 * registers their jobs with the server before it completes; else
 * PMIX_ERR_NOT_FOUND (no other job is known). timeout: seconds, 0 for
 * none. Borrows its arguments for the call only. */
void pubsub_connect(pubsub_t *ps, const pmix_proc_t *procs, size_t nprocs,
                    launcher_job_t *const *mine, size_t nmine, int timeout, bool disconnect,
                    pmix_op_cbfunc_t cbfunc, void *cbdata);

/* A group of the server has these members now (none: it is gone): in a
 * daemon's job, the other jobs' namespaces it names stay registered while
 * it lives (foreign.c). Borrows its arguments for the call only. */
void pubsub_group(pubsub_t *ps, const char *name, const pmix_proc_t *members, size_t n);

/* The host's group construct or destruct of group name, once the server
 * has gathered this run's members, when some of procs are other jobs'
 * (mine: the run's jobs among procs; info: the directives and the
 * members' PMIX_GROUP_ENDPT_DATA): in a daemon's job, the other jobs'
 * runs are met through the daemon, which gives a context id if one is
 * asked for, every run's endpoint data and, for a construct, the other
 * jobs' descriptions (registered with the server while the group names
 * them); else PMIX_ERR_NOT_FOUND. Borrows its arguments for the call. */
void pubsub_group_op(pubsub_t *ps, bool destruct, const char *name, const pmix_proc_t *procs,
                     size_t nprocs, launcher_job_t *const *mine, size_t nmine,
                     const pmix_info_t *info, size_t ninfo, pmix_info_cbfunc_t cbfunc,
                     void *cbdata);

/* ---- pubsub_daemon.c -------------------------------------------------- */

/* A daemon job's link to the daemon's store (daemon_store.c): requests
 * answered later in the run's loop, through the callbacks. */
typedef struct pubsub_daemon pubsub_daemon_t;

pubsub_daemon_t *pubsub_daemon_create(struct event_base *base, unsigned job);
/* Answers what is still open PMIX_ERR_UNREACH. */
void pubsub_daemon_destroy(pubsub_daemon_t *pd);
void pubsub_daemon_publish(pubsub_daemon_t *pd, const pmix_proc_t *proc,
                           const pmix_info_t *data[], size_t ndata,
                           pmix_persistence_t persistence, pmix_op_cbfunc_t cbfunc, void *cbdata);
/* needed: 0 for no waiting, else the number of keys to wait for;
 * timeout: seconds, 0 for none. */
void pubsub_daemon_lookup(pubsub_daemon_t *pd, const pmix_proc_t *proc, char **keys,
                          size_t needed, int timeout, pmix_lookup_cbfunc_t cbfunc, void *cbdata);
void pubsub_daemon_unpublish(pubsub_daemon_t *pd, const pmix_proc_t *proc, char **keys,
                             pmix_op_cbfunc_t cbfunc, void *cbdata);
/* proc ended (PROC data), or its job (rank PMIX_RANK_WILDCARD: APP). */
void pubsub_daemon_forget(pubsub_daemon_t *pd, const pmix_proc_t *proc);
/* The data of proc, a process of another of the daemon's jobs: the blob
 * its run's PMIx_server_dmodex_request gives, through the daemon. */
void pubsub_daemon_modex(pubsub_daemon_t *pd, const pmix_proc_t *proc, pmix_modex_cbfunc_t cbfunc,
                         void *cbdata);
/* Meet the runs of the other jobs among procs at the daemon (as
 * pubsub_connect), sending the descriptions of mine with a connect. */
void pubsub_daemon_connect(pubsub_daemon_t *pd, const pmix_proc_t *procs, size_t nprocs,
                           launcher_job_t *const *mine, size_t nmine, int timeout,
                           bool disconnect, pmix_op_cbfunc_t cbfunc, void *cbdata);
/* As pubsub_group. */
void pubsub_daemon_group(pubsub_daemon_t *pd, const char *name, const pmix_proc_t *members,
                         size_t n);
/* As pubsub_group_op. */
void pubsub_daemon_group_op(pubsub_daemon_t *pd, bool destruct, const char *name,
                            const pmix_proc_t *procs, size_t nprocs, launcher_job_t *const *mine,
                            size_t nmine, const pmix_info_t *info, size_t ninfo,
                            pmix_info_cbfunc_t cbfunc, void *cbdata);

/* ---- foreign.c -------------------------------------------------------- */

/* In a daemon's job: the other jobs' namespaces registered with the run's
 * server for its ranks' connects, each counted (one reference per connect
 * that named it, one per live group with members of it) and deregistered
 * when its last reference goes. Caller frees with foreign_destroy (NULL
 * accepted), which deregisters nothing: the server is ending. NULL when
 * memory runs out. */
typedef struct foreign foreign_t;

foreign_t *foreign_create(void);
void foreign_destroy(foreign_t *f);

/* A connect brought the description of nspace (info, borrowed): it is
 * registered with the server unless it is already, and counted. */
pmix_status_t foreign_connected(foreign_t *f, const char *nspace, pmix_info_t *info,
                                size_t ninfo);

/* One reference to nspace less (a connect that failed after all); the
 * last one gone, the server forgets the namespace. Unknown: nothing. */
void foreign_release(foreign_t *f, const char *nspace);

/* A disconnect of procs (sorted by namespace, as the server gives them):
 * one reference less to each namespace among them. */
void foreign_disconnected(foreign_t *f, const pmix_proc_t *procs, size_t nprocs);

/* Group name has these members now (none: it is gone): it holds one
 * reference to each registered namespace among them, and lets go of
 * those it held before. */
void foreign_group(foreign_t *f, const char *name, const pmix_proc_t *members, size_t n);

/* ---- query.c ---------------------------------------------------------- */

/* Answer requester's queries about the run's jobs and processes through
 * cbfunc. */
void query_answer(launcher_t *run, const pmix_proc_t *requester, const pmix_query_t *queries,
                  size_t nqueries, pmix_info_cbfunc_t cbfunc, void *cbdata);

/* ---- spawn.c ---------------------------------------------------------- */

/* Start a new job for requestor from apps; cbfunc gets its namespace once
 * every process has started, or an error. */
void spawn_job(launcher_t *run, const pmix_proc_t *requestor, const pmix_info_t *job_info,
               size_t ninfo, const pmix_app_t *apps, size_t napps, pmix_spawn_cbfunc_t cbfunc,
               void *cbdata);

/* ---- json.c ----------------------------------------------------------- */

/* Write s as the contents of a JSON string (without the quotes). */
void json_escape(FILE *out, const char *s);

/* ---- trace.c ---------------------------------------------------------- */

typedef struct trace trace_t;

/* A recorder for `--trace path` (path's directory must be writable now),
 * or NULL after a one-line message. Caller frees with trace_destroy. */
trace_t *trace_create(const char *path);

/* What the server's DROVER_SERVER_TRACE hook saw (host.c passes it on):
 * a request or reply, in the server's progress thread. */
void trace_server_event(trace_t *t, const drover_trace_event_t *ev);

/* The main thread's moments: a job about to start; process rank forked
 * (the fork began at began, a trace_now time, and exec has happened);
 * process rank reaped with exit_code (128 + signal when killed). */
void trace_job(trace_t *t, const launcher_job_t *job);
double trace_now(void);
void trace_launched(trace_t *t, const launcher_job_t *job, unsigned rank, double began, pid_t pid);
void trace_exited(trace_t *t, const launcher_job_t *job, unsigned rank, int exit_code);

/* Write what was recorded to the file, atomically. Call once the server
 * has stopped. Returns 0, or -1 after a one-line message. */
int trace_write(trace_t *t);

/* Accepts NULL. */
void trace_destroy(trace_t *t);

/* ---- trace_read.c ----------------------------------------------------- */

/* One event of a trace-event file, as far as a summary needs it. */
typedef struct trace_event {
    char name[64];
    char label[128];      /* a metadata event's args.name */
    char ph;
    long pid, tid;        /* -1: absent, or not a number */
    double ts, dur;       /* microseconds; dur -1: absent */
} trace_event_t;

typedef struct trace_events {
    trace_event_t *events;
    size_t n, cap;
} trace_events_t;

/* Read the events of a trace-event JSON file. Returns 0 (free with
 * trace_events_free), or -1 with why (a phrase naming the problem and
 * where) and nothing allocated. */
int trace_read(const char *path, trace_events_t *out, char *why, size_t size);
void trace_events_free(trace_events_t *events);

/* ---- run.c: the run itself -------------------------------------------- */

struct launcher {
    const launcher_options_t *opts;
    struct event_base *base;
    launcher_topology_t topo;
    launcher_session_t session;
    iof_t *iof;
    pubsub_t *pubsub;
    trace_t *trace;               /* --trace, or NULL */
    char hostname[256];
    char **base_env;              /* launch_base_env */
    char *openmpi_shm;            /* openmpi_shm_dir, or NULL */
    launcher_job_t **jobs;
    unsigned njobs;
    unsigned nalive;              /* processes of every job */
    host_op_t *reaped;            /* the deregistrations of reaped processes */
    unsigned nreaped;
    unsigned nlaunched;           /* ever, for node ranks and mapping */
    bool server_up;
    bool status_fixed;            /* the exit status is decided */
    int status;
    bool ending;                  /* terminating everything */
    int interrupted_by;           /* signal that made drover end, or 0 */
    struct event *grace_timer;
    struct event *drain_timer;
    struct event *signals[4];     /* SIGCHLD, then those passed on */
    char *server_dir;             /* where the server was started */
    double started;               /* monotonic seconds */
};

/* Check whether the run is over (every process reaped, output drained)
 * and stop the loop if so. */
void run_check_done(launcher_t *run);

/* Monotonic time in seconds. */
double run_now(void);

/* How many ranks' descriptors a standby reserves before its server's
 * thread exists (limits_reserve): a larger job grows the table later,
 * which then waits for the kernel (RCU) at each doubling. */
#define STANDBY_RESERVED_RANKS 256

/* The ranks whose output pipes and PMI socket pairs a standby makes
 * before its job comes (a launch waits for them otherwise); a larger job
 * makes the rest as it launches. */
#define STANDBY_RANKS_AHEAD 8

/* A daemon's standby (daemon_standby.c): this process's run gets its
 * topology, event loop and server before its job comes, the server in
 * session_dir (the prepared session's). 0, or -1 with nothing left
 * running (the job's run then starts them). */
int run_prestart(const char *session_dir);

/* No job came: what run_prestart started, stopped. */
void run_unprestart(void);

#endif /* DROVER_LAUNCHER_H */
