/*
 * daemon.h - what the files of the drover daemon share.
 *
 * The daemon is one process per user per node that runs jobs for the
 * drover commands: each job is a `drover run` child of the daemon (the
 * same code as a standalone run, with its own PMIx server), its output
 * kept in the state directory. The commands are PMIx tools of the PMIx
 * server it hosts, but for `daemon stop|status` and `run --daemon`, which
 * use the daemon's own socket. One file per concern:
 *
 *   daemon.c         `drover daemon start|stop|status` and the daemon's loop
 *   daemon_dir.c     the per-user state directory, made and checked safely
 *   daemon_wire.c    the daemon's own requests: lists of strings, with fds
 *   daemon_jobs.c    the daemon's jobs: queue, fork, reap, `ps` rows
 *   daemon_output.c  a submitted job's output: files, ranks, kept directories
 *   daemon_standby.c a run started ahead, that a job's start takes over
 *   daemon_pmix.c    its PMIx server: spawn, queries, job control, events
 *   daemon_spawn.c   the run's command line for a tool's spawn
 *   daemon_relay.c   tools' job control and queries a job's run answers
 *   daemon_groups.c  jobs' groups, shown to the tools as groups and sets
 *   daemon_events.c  events whose range names processes of other jobs
 *   daemon_tools.c   submit, ps, wait, kill, output: PMIx tools
 *   daemon_client.c  `run --daemon`, and a job's report of its ranks
 *   daemon_store.c   publications shared by the daemon's jobs
 *   daemon_modex.c   another job's committed data, for a job's run
 *   daemon_connect.c PMIx_Connect across jobs: where their runs meet
 *   daemon_journal.c what outlives the daemon: job history, INDEF data
 *   pubsub_daemon.c  a job's run: its shared publications to the daemon
 *   foreign.c        a job's run: other jobs' namespaces it registered
 *
 * Files in the state directory: daemon.sock, daemon.pid, daemon.lock
 * (held with flock by the live daemon: a free lock means the other files
 * are stale), daemon.log, journal (kept when the daemon stops),
 * pmix.sys.<host> (the PMIx rendezvous), drover-server.XXXXXX (the PMIx
 * server's socket), and jobs/<id>/stdout, stderr, ranks and trace.json
 * (kept when the daemon stops, for the newest DAEMON_KEEP_OUTPUT jobs).
 */
#ifndef DROVER_LAUNCHER_DAEMON_H
#define DROVER_LAUNCHER_DAEMON_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>

#include "pmix_common.h"

struct event_base;
struct launcher;
struct launcher_job;

#define DAEMON_NAME "drover daemon"
#define DAEMON_SOCKET "daemon.sock"
#define DAEMON_PIDFILE "daemon.pid"
#define DAEMON_LOCKFILE "daemon.lock"
#define DAEMON_LOGFILE "daemon.log"
#define DAEMON_JOBS "jobs"
#define DAEMON_JOURNAL "journal"

/* Set in a job's environment by the daemon: the `drover run` it starts
 * then runs the job itself, whatever --daemon or DROVER_DAEMON say. */
#define DAEMON_JOB_ENV "DROVER_DAEMON_JOB"

/* Set in a job's environment by the daemon: the fd on which the run
 * reports its ranks (daemon_jobs.c). */
#define DAEMON_REPORT_ENV "DROVER_DAEMON_REPORT"

/* Set in a job's environment by the daemon: the fd of the socket on which
 * the run says which ranks are ready for a debugger ("ready RANK
 * BREAKPOINT") and the daemon passes a debugger's release ("release
 * RANK" or "release *"), a message each (daemon_client.c), and tools'
 * job control and queries (daemon_relay.c). */
#define DAEMON_CONTROL_ENV "DROVER_DAEMON_CONTROL"

/* Set in a submitted job's environment by the daemon: the fd on which
 * the run sends its ranks' output as frames (daemon_output.c). */
#define DAEMON_OUTPUT_ENV "DROVER_DAEMON_OUTPUT"
/* The run's fd of that pipe (the value of DAEMON_OUTPUT_ENV). */
#define DAEMON_FRAMES_FD 5
#define DAEMON_FRAMES_FD_TEXT "5"

/* The ended jobs whose directories (output, trace) are kept: those that
 * ended last. */
#define DAEMON_KEEP_OUTPUT 100

/* Set in a job's environment by the daemon: the prefix its run names its
 * jobs and shared-memory segments with ("<daemon's namespace>.<id>-"). */
#define DAEMON_PREFIX_ENV "DROVER_DAEMON_PREFIX"

/* Set by the daemon in the environment of its standby run: the fd on
 * which the run waits for its job (daemon_standby.c). */
#define DAEMON_STANDBY_ENV "DROVER_DAEMON_STANDBY"

/* Room for a job's namespace, "<daemon's namespace>.<id>-0". */
#define DAEMON_NSPACE_MAX 256

/* ---- daemon_dir.c ----------------------------------------------------- */

/* The state directory's path: $XDG_RUNTIME_DIR/drover, else
 * /tmp/drover-<uid>. With create, it is made (mode 0700) if missing. It is
 * refused unless it is a directory (not a symbolic link) owned by this
 * user with no group or other access. Returns an O_DIRECTORY fd and fills
 * path (PATH_MAX), or -1 after a one-line message prefixed with who. */
int daemon_dir_open(char *path, bool create, const char *who);

/* dir/name into buf (size bytes). -1 if it does not fit. */
int daemon_dir_join(char *buf, size_t size, const char *dir, const char *name);

/* The address of the daemon's socket in dir. -1 if it does not fit. */
int daemon_dir_socket(struct sockaddr_un *sa, const char *dir);

/* Connect to the user's daemon (checking the state directory and that
 * the daemon runs as this user). Returns the socket, or -1 after a
 * one-line message prefixed with who. */
int daemon_connect(const char *who);

/* Remove (as rmtree_at would) every entry of the directory sub of dirfd
 * ("." for dirfd itself) whose name doomed says must go. */
void daemon_dir_remove_if(int dirfd, const char *sub, bool (*doomed)(void *arg, const char *name),
                          void *arg);

/* ---- daemon_wire.c ---------------------------------------------------- */

/* A message is a list of strings (and up to 6 fds: requests that hand
 * over the caller's stdin, stdout and stderr; a standby's job, with its
 * report and control fds and a submitted job's frame pipe too). */
#define WIRE_MAX_FDS 6

typedef struct wire_msg {
    char **words;    /* NULL-terminated; one allocation with the text */
    size_t nwords;
    int fds[WIRE_MAX_FDS];
    size_t nfds;
} wire_msg_t;

/* Send words (and fds) as one message. 0, or -1 with errno. */
int daemon_wire_send(int sock, char *const *words, size_t nwords, const int *fds, size_t nfds);

/* Send a message of the given words (a NULL-terminated list). */
int daemon_wire_sendv(int sock, ...) __attribute__((sentinel));

/* Receive one message. 0; 1 at end of file; -1 with errno (EPROTO for a
 * malformed message). Release with daemon_wire_release. */
int daemon_wire_recv(int sock, wire_msg_t *msg);

/* Free the words and close the fds a message brought. */
void daemon_wire_release(wire_msg_t *msg);

/* The uid and pid of the process at the other end of sock. 0 or -1. */
int daemon_wire_peer(int sock, uid_t *uid, pid_t *pid);

/* ---- daemon_jobs.c ---------------------------------------------------- */

typedef struct daemon_jobs daemon_jobs_t;

typedef enum { JOB_QUEUED, JOB_RUNNING, JOB_ENDED, JOB_NONE } daemon_job_state_t;

/* A rank of a job, as its run reported it. */
typedef struct daemon_proc {
    pid_t pid;
    char *program;
} daemon_proc_t;

/* A job ended: its id and exit status (128+signal when killed). */
typedef void (*daemon_job_ended_fn)(void *arg, unsigned id, int status);

/* The rank of a piece of output that the job's run wrote itself. */
#define DAEMON_OUTPUT_RUN UINT32_MAX

/* A piece of a submitted job's output: len bytes that rank of the run's
 * job index job (0: its first; others, jobs its ranks spawned) wrote on
 * its stdout (fd 1) or stderr (2). */
typedef struct daemon_output_piece {
    unsigned job;
    uint32_t rank; /* DAEMON_OUTPUT_RUN: the run's own */
    int fd;
    const char *bytes;
    size_t len;
} daemon_output_piece_t;

/* Submitted job id wrote a piece of output (borrowed for the call). */
typedef void (*daemon_job_output_fn)(void *arg, unsigned id, const daemon_output_piece_t *piece);

/* The job table of a daemon whose state directory is dirfd, running at
 * most max_running jobs at a time with the drover executable exe, its
 * jobs' namespaces "<prefix>.<id>-0", their pipes watched in base. ended
 * is called when a job's run has been reaped; exited before, when the
 * run says its exit status ahead of its teardown (it may not). Caller
 * frees with daemon_jobs_destroy. NULL when memory runs out. */
daemon_jobs_t *daemon_jobs_create(struct event_base *base, int dirfd, const char *exe,
                                  const char *prefix, unsigned max_running,
                                  daemon_job_ended_fn ended, daemon_job_ended_fn exited,
                                  daemon_job_output_fn output, void *arg);
void daemon_jobs_destroy(daemon_jobs_t *jobs);

/* Queue a job: `drover run args...` in cwd with env (all copied). With
 * fds, the job runs on those (stdin, stdout, stderr: moved into the job);
 * else on /dev/null and files in jobs/<id>/. Returns the id, or 0 after
 * setting *why (static). */
unsigned daemon_jobs_submit(daemon_jobs_t *jobs, const char *cwd, char *const *args,
                            size_t nargs, char *const *env, int *fds, const char **why);

/* Start the standby run (daemon_standby.c), once the daemon's own
 * stdin, stdout and stderr are settled: the standby inherits them until
 * its job comes. */
void daemon_jobs_prepare(daemon_jobs_t *jobs);

/* Reap every job that has ended (calling ended) and start queued ones. */
void daemon_jobs_reap(daemon_jobs_t *jobs);

/* Signal a running job's drover run (which passes INT, TERM and HUP on to
 * its ranks). 0, or -1 with *why set. */
int daemon_jobs_signal(daemon_jobs_t *jobs, unsigned id, int sig, const char **why);

/* Pass a debugger's release of rank (a number or "*") to job id's run.
 * 0, or -1 (no such job, or it is not running). */
int daemon_jobs_release(daemon_jobs_t *jobs, unsigned id, const char *rank);

/* The job's exit status if it has ended (>= 0), -1 if it is queued or
 * running, -2 if there is no such job. */
int daemon_jobs_status(const daemon_jobs_t *jobs, unsigned id);

/* Whether the job keeps its output in files (not a `run --daemon` job).
 * False for an unknown job. */
bool daemon_jobs_has_output(const daemon_jobs_t *jobs, unsigned id);

/* Drop every queued job (ended with 128+SIGTERM) and send sig to every
 * running one. Returns the number still running. */
unsigned daemon_jobs_end_all(daemon_jobs_t *jobs, int sig);

/* Jobs queued or running. */
unsigned daemon_jobs_active(const daemon_jobs_t *jobs);

/* The job's state; JOB_NONE when there is no such job. */
daemon_job_state_t daemon_jobs_state(const daemon_jobs_t *jobs, unsigned id);

/* The id of the job whose namespace is nspace, 0 for none. */
unsigned daemon_jobs_find(const daemon_jobs_t *jobs, const char *nspace);

/* The job's namespace (borrowed), NULL for no such job. */
const char *daemon_jobs_nspace(const daemon_jobs_t *jobs, unsigned id);

/* Jobs ever submitted: their ids are 1 to this. */
unsigned daemon_jobs_count(const daemon_jobs_t *jobs);

/* The ranks the job's run reported (*n of them; borrowed, valid until
 * the next return to the loop). */
const daemon_proc_t *daemon_jobs_procs(const daemon_jobs_t *jobs, unsigned id, unsigned *n);

/* The table `drover ps` prints, or its JSON form. Caller frees. NULL
 * when memory runs out. */
char *daemon_jobs_table(const daemon_jobs_t *jobs, bool json);

/* What `ps` shows of a job, and what the journal keeps. */
typedef struct daemon_job_info {
    unsigned ranks;
    time_t start, end;
    int status;           /* -1 until the job ends */
    bool signalled;       /* ended on request (kill, stop) */
    bool lost;            /* its daemon died while it ran */
    const char *command;
} daemon_job_info_t;

/* A job's information (borrowed until the job table changes). False for
 * an unknown job. */
bool daemon_jobs_info(const daemon_jobs_t *jobs, unsigned id, daemon_job_info_t *info);

/* Send msg (one message) on the control socket of running job id. 0 or
 * -1. */
int daemon_jobs_control(daemon_jobs_t *jobs, unsigned id, const char *msg);

/* The same for a message of len bytes (NULs included). */
int daemon_jobs_control_bytes(daemon_jobs_t *jobs, unsigned id, const char *msg, size_t len);

/* A job of an earlier daemon, from its journal: known again as ended,
 * or, without an end (status -1), as lost (status 128+SIGKILL, as its
 * run died with that daemon). A known id is updated; ids in between are
 * lost jobs. 0, or -1 when memory runs out. */
int daemon_jobs_restore(daemon_jobs_t *jobs, unsigned id, const daemon_job_info_t *info);

/* The jobs of an earlier daemon (restored) keep their directories where
 * there still are some (trimmed to DAEMON_KEEP_OUTPUT); everything else
 * in jobs/ goes. */
void daemon_jobs_keep_restored(daemon_jobs_t *jobs);

/* ---- daemon_output.c -------------------------------------------------- */

typedef struct daemon_output daemon_output_t;

/* Job id's output: jobs/<id>/ made with stdout, stderr and ranks, and
 * three pipes watched in base, whose write ends go to child: the run's
 * stdout, stderr and frame pipe (DAEMON_OUTPUT_ENV; the caller closes
 * them once the child has them). What comes is written down and passed
 * to fn. Caller frees with daemon_output_close. NULL (child all -1) on
 * failure. */
daemon_output_t *daemon_output_open(struct event_base *base, int dirfd, unsigned id,
                                    daemon_job_output_fn fn, void *arg, int child[3]);

/* The run has ended: take what its pipes still hold. */
void daemon_output_drain(daemon_output_t *out);

/* Stop reading and close the files. Accepts NULL. */
void daemon_output_close(daemon_output_t *out);

/* jobs/ in the state directory dirfd, made if missing (anything else of
 * that name is removed first). 0 or -1. */
int daemon_output_dir(int dirfd);

/* Whether job id has its directory. */
bool daemon_output_kept(int dirfd, unsigned id);

/* Remove job id's directory. */
void daemon_output_remove(int dirfd, unsigned id);

/* Remove every entry of jobs/ but the directories of the jobs keep
 * keeps. */
void daemon_output_sweep(int dirfd, bool (*keep)(void *arg, unsigned id), void *arg);

/* In a daemon's job's run (daemon_job): take the frame pipe the daemon
 * gave (DAEMON_OUTPUT_ENV), which the ranks must not see. */
void daemon_output_take_env(bool daemon_job);

/* The frame pipe taken, or -1 (not a submitted job's run). */
int daemon_output_frames(void);

/* What `drover output --rank R` or `--tag-output` reads: the job's ranks
 * file and its stdout and stderr (open fds, the caller's). */
typedef struct daemon_output_reader {
    int index, files[2];
    off_t at;           /* the next record */
    bool every_rank;    /* else only rank of the run's first job */
    uint32_t rank;
    bool tag;           /* each line tagged "[rank] " */
    struct daemon_output_line {
        unsigned job;
        uint32_t rank;
        bool midline;
    } last[2];          /* the last piece on each channel */
} daemon_output_reader_t;

/* Print the pieces recorded since the last call (stdout's to stdout,
 * stderr's to stderr), in the order they came. 0, or -1 when the files
 * are malformed or cannot be read or printed. */
int daemon_output_read(daemon_output_reader_t *r);

/* ---- daemon_standby.c ------------------------------------------------- */

typedef struct daemon_standby daemon_standby_t;

/* The daemon's standby run, of the drover executable exe; none is
 * started until daemon_standby_fill. Caller frees with
 * daemon_standby_destroy, which ends and reaps a standby left. NULL when
 * memory runs out. */
daemon_standby_t *daemon_standby_create(const char *exe);
void daemon_standby_destroy(daemon_standby_t *s);

/* Start a standby run if there is none (quietly nothing on failure). */
void daemon_standby_fill(daemon_standby_t *s);

/* End and reap the standby, if any. */
void daemon_standby_drop(daemon_standby_t *s);

/* A child pid was reaped: whether it was the standby (then forgotten). */
bool daemon_standby_reaped(daemon_standby_t *s, pid_t pid);

/* Hand a job to the standby: it becomes `drover <args...>` (args[0] is
 * "run"; NULL-terminated, as env) in cwd, on nfds fds (stdin, stdout,
 * stderr, report, control and, for a submitted job, its output frames:
 * copies are sent). Returns the pid of the run that is
 * now the job (the standby is used up), or -1 when there is no standby
 * fit for the job: then the caller starts the run itself. */
pid_t daemon_standby_hand(daemon_standby_t *s, const char *cwd, char *const *args,
                          char *const *env, const int *fds, int nfds);

/* In a child the daemon forked to become a run (a job's or the
 * standby): its own process group, death with the daemon, default
 * signals. Exits if the daemon is gone already. Async-signal-safe. */
void daemon_standby_child_setup(pid_t daemon);

/* In `drover run` (argc, argv as given to it): if this run is a
 * standby, wait for its job and take it: its fds, working directory and
 * environment, and *argc, *argv become the job's run arguments (kept for
 * the life of the process). Returns -1 to go on running (a standby's job,
 * or not a standby), else the status to exit with at once (0: the daemon
 * went before sending a job), the session made for the job removed. */
int daemon_standby_take_job(int *argc, char ***argv);

/* A standby's taken job: its command line and environment (as the daemon
 * sent them) shown as the process's own (proctitle.c), once. Its run
 * calls this once its ranks are started: 0.03 ms that a launch otherwise
 * waits for. Nothing for any other run. */
void daemon_standby_show_job(void);

/* ---- daemon_journal.c ------------------------------------------------- */

typedef struct daemon_journal daemon_journal_t;

/* Compaction is considered past this size, when live records take less
 * than half of the file. */
#define DAEMON_JOURNAL_COMPACT_BYTES (256u << 10)

/* A replayed record: its words (borrowed for the call). */
typedef void (*daemon_journal_record_fn)(void *arg, char *const *words, size_t nwords);

/* What compaction keeps: written with daemon_journal_write(fd, size, ..).
 * 0 or -1. */
typedef int (*daemon_journal_live_fn)(void *arg, int fd, size_t *size);

/* Open (or create) the journal in the state directory dirfd and replay
 * its records through fn; *dropped is the size of a torn tail, which is
 * cut off. NULL with errno on failure. */
daemon_journal_t *daemon_journal_open(int dirfd, daemon_journal_record_fn fn, void *arg,
                                      size_t *dropped);

/* Append a record: written when this returns, on disk soon after (the
 * journal's thread syncs it). 0, or -1 with errno (and nothing of the
 * record kept). */
int daemon_journal_append(daemon_journal_t *j, char *const *words, size_t nwords);

bool daemon_journal_wants_compaction(const daemon_journal_t *j);

/* Replace the journal by the records live writes, atomically. 0 or -1. */
int daemon_journal_compact(daemon_journal_t *j, daemon_journal_live_fn live, void *arg);

/* For live functions: one record to fd, adding its size to *size. */
int daemon_journal_write(int fd, size_t *size, char *const *words, size_t nwords);

void daemon_journal_close(daemon_journal_t *j);

/* ---- daemon_store.c --------------------------------------------------- */

typedef struct daemon_store daemon_store_t;

/* The publications of the daemon's jobs; INDEF ones are journaled in
 * *journal once it is open. NULL when memory runs out. */
daemon_store_t *daemon_store_create(struct event_base *base, daemon_journal_t *const *journal);

/* Answers waiting lookups (not found) and frees everything. */
void daemon_store_destroy(daemon_store_t *store);

/* A request from the run of running job (publish, lookup, unpublish,
 * forget; docs/protocol.md), answered on fd. Returns true when the store
 * keeps fd for a later answer (a waiting lookup) and closes it itself. */
bool daemon_store_request(daemon_store_t *store, int fd, unsigned job, char *const *words,
                          size_t nwords);

/* Whether a request's verb is one of the store's. */
bool daemon_store_verb(const char *verb);

/* The job ended: its PROC, APP and SESSION publications go. */
void daemon_store_job_ended(daemon_store_t *store, unsigned job);

/* A journal record of the store's ("pub", "unpub"); others are ignored. */
void daemon_store_replay(daemon_store_t *store, char *const *words, size_t nwords);

/* Its live records, for compaction. 0 or -1. */
int daemon_store_dump(const daemon_store_t *store, int fd, size_t *size);

/* ---- daemon_pmix.c ----------------------------------------------------- */

/* What the daemon's PMIx server works with. */
typedef struct daemon_pmix_host {
    daemon_jobs_t *jobs;
    const char *dir;             /* the state directory */
    int logfd;                   /* daemon.log, for the server's refusals */
    /* A tool's spawn made job id (0: refused, why says why). */
    void (*spawned)(void *arg, unsigned id, const char *why);
    void *arg;
} daemon_pmix_host_t;

/* Start the PMIx server as nspace (its socket under the state directory,
 * open as dirfd) and write the system rendezvous there. Calls from it run
 * in base. 0, or -1 after a message. */
int daemon_pmix_start(const daemon_pmix_host_t *host, struct event_base *base, int dirfd,
                      const char *nspace);

/* The daemon is stopping: tools' spawns are refused (PMIX_ERR_NOT_AVAILABLE). */
void daemon_pmix_refuse_spawns(void);

/* Remove the rendezvous and stop the server (safe when not started). */
void daemon_pmix_stop(int dirfd);

/* Raise the events of job id's end to the tools. */
void daemon_pmix_job_ended(unsigned id, int status);

/* Raise PMIX_READY_FOR_DEBUG to the tools: rank of job id waits for a
 * debugger at breakpoint. */
void daemon_pmix_job_ready(unsigned id, unsigned rank, const char *breakpoint);

/* Forward a piece of job id's output to the tools that want it, from its
 * true source: the rank's namespace and rank, or the job's wildcard rank
 * for what the run wrote itself. */
void daemon_pmix_output(unsigned id, const daemon_output_piece_t *piece);

/* ---- daemon_modex.c --------------------------------------------------- */

/* "modex JOB NSPACE RANK" from a job's run: passed to the run of the job
 * owning NSPACE, answered on fd later. Returns true when fd is kept (and
 * closed by daemon_modex.c). */
bool daemon_modex_request(daemon_jobs_t *jobs, struct event_base *base, int fd,
                          char *const *words, size_t nwords);

/* A job's run answered ("modexdata ID STATUS HEX"). */
void daemon_modex_answered(const char *msg);

/* The daemon ends: every request is answered PMIX_ERR_UNREACH. */
void daemon_modex_cancel(void);

/* ---- daemon_connect.c ------------------------------------------------- */

/* "connect" or "disconnect JOB TIMEOUT N NSPACE RANK ... [NSPACE HEX]...",
 * or "group-construct" or "group-destruct" (daemon_connect.c), from a
 * job's run (docs/protocol.md): answered on fd once every job named has
 * joined, or failed. Returns true when fd is kept (and closed
 * by daemon_connect.c). */
bool daemon_connect_request(const daemon_jobs_t *jobs, struct event_base *base, int fd,
                            char *const *words, size_t nwords);

/* Whether verb is one daemon_connect_request serves: connect,
 * disconnect, group-construct, group-destruct. */
bool daemon_connect_verb(const char *verb);

/* The job that owns nspace: its own ("<prefix>.<id>-0") or one its run
 * spawned ("<prefix>.<id>-N"). 0 for none. */
unsigned daemon_connect_owner(const daemon_jobs_t *jobs, const char *nspace);

/* The job ended: the meetings it is named in fail. */
void daemon_connect_job_ended(unsigned job);

/* The daemon ends: every waiting request is answered PMIX_ERR_UNREACH. */
void daemon_connect_cancel(void);

/* ---- daemon_spawn.c --------------------------------------------------- */

/* The `drover run` arguments of a tool's spawn of napps apps with job
 * info: its debugger and mapping options, then given (drover's own
 * submit: the arguments as typed, ngiven of them) or each app's section.
 * *args (NULL-terminated, *nargs of them) is the caller's to free with
 * launch_free_env. PMIX_ERR_BAD_PARAM for a directive or env entry that
 * cannot be passed on. */
pmix_status_t daemon_spawn_args(const pmix_info_t *info, size_t ninfo, const pmix_app_t *apps,
                                size_t napps, char *const *given, size_t ngiven, char ***args,
                                size_t *nargs);

/* The directory a tool's app runs in: its cwd, else its PMIX_WDIR; NULL
 * for none. Borrowed from app. */
const char *daemon_spawn_dir(const pmix_app_t *app);

/* ---- daemon_relay.c --------------------------------------------------- */

/* The control socket's binary messages: header (a text line, with its
 * '\n') and the n values packed after it (PMIx_Data_pack, one by one),
 * as one message in *msg (caller frees) of *len bytes. */
pmix_status_t daemon_relay_pack(const char *header, pmix_value_t *values, size_t n, char **msg,
                                size_t *len);

/* The n values packed after the header line of msg (len bytes, from
 * another process: read within them), each a data array of types[i];
 * release each with PMIX_VALUE_DESTRUCT. PMIX_ERR_UNPACK_FAILURE for a
 * message that is not so. */
pmix_status_t daemon_relay_unpack(const char *msg, size_t len, pmix_value_t *values, size_t n,
                                  const pmix_data_type_t *types);

/* A data array value of the n items of type at items, through array
 * (both borrowed: the value is not to be destructed). */
pmix_value_t daemon_relay_array(pmix_data_array_t *array, void *items, size_t n,
                                pmix_data_type_t type);

/* A run's answer to a relayed request: its status and results (borrowed
 * for the call). */
typedef void (*daemon_relay_fn)(pmix_status_t status, const pmix_info_t *info, size_t ninfo,
                                void *arg);

/* Have running job id's run carry out PMIx_Job_control directives on
 * targets (processes of that job), as control.c does for its own tools.
 * fn gets the run's status later (once, whatever happens), unless this
 * returns an error. */
pmix_status_t daemon_relay_control(daemon_jobs_t *jobs, struct event_base *base, unsigned id,
                                   const pmix_proc_t *targets, size_t ntargets,
                                   const pmix_info_t *dirs, size_t ndirs, daemon_relay_fn fn,
                                   void *arg);

/* Have job id's run answer a query (its PMIX_NSPACE qualifier names the
 * job), as query.c does; fn as above, with the results. */
pmix_status_t daemon_relay_query(daemon_jobs_t *jobs, struct event_base *base, unsigned id,
                                 const pmix_query_t *query, daemon_relay_fn fn, void *arg);

/* A job's run answered ("relayed ID STATUS\n" and the results; len
 * bytes). */
void daemon_relay_answered(const char *msg, size_t len);

/* Job id ended, or the daemon stops: what is waiting for it (or for
 * anyone) is answered PMIX_ERR_UNREACH. */
void daemon_relay_job_ended(unsigned id);
void daemon_relay_cancel(void);

/* In a daemon's job: a "jobctl" or "query" request of the daemon (msg,
 * len bytes), carried out for job and answered on fd. False when msg is
 * not one. */
bool daemon_relay_serve(struct launcher *run, const struct launcher_job *job, int fd,
                        const char *msg, size_t len);

/* ---- daemon_groups.c -------------------------------------------------- */

/* In a daemon's job: the control socket's message saying that group name
 * of the run's server has these n members now (none: it is gone), in
 * *msg (caller frees), *len bytes. */
pmix_status_t daemon_groups_message(const char *name, const pmix_proc_t *members, size_t n,
                                    char **msg, size_t *len);

/* Whether a message of the control socket (len bytes) is one of those. */
bool daemon_groups_is_message(const char *msg, size_t len);

/* Job id's run sent such a message: show the group to the daemon's tools
 * as "<job's namespace>/<name>" (a process set and a group of its
 * server), or take it away. A malformed message is ignored. */
void daemon_groups_update(const daemon_jobs_t *jobs, unsigned id, const char *msg, size_t len);

/* Job id ended: its groups go. */
void daemon_groups_job_ended(unsigned id);

/* The daemon's server is stopping: forget every group shown (without
 * calling the server). */
void daemon_groups_forget(void);

/* ---- daemon_events.c -------------------------------------------------- */

/* In a daemon's job: the control socket's message carrying event code
 * from source with info, in *msg (caller frees), *len bytes. */
pmix_status_t daemon_events_message(pmix_status_t code, const pmix_proc_t *source,
                                    const pmix_info_t *info, size_t ninfo, char **msg,
                                    size_t *len);

/* Whether a message of the control socket (len bytes) is one of those. */
bool daemon_events_is_message(const char *msg, size_t len);

/* In a daemon's job: the daemon passed on such a message; the run's
 * server delivers the event to its clients in range. A malformed message
 * is ignored. */
void daemon_events_deliver(const char *msg, size_t len);

/* Job from's run sent such a message: pass it on to the other running
 * jobs with a process in its range. Ignored when malformed, or when its
 * source is not a process of job from. */
void daemon_events_forward(daemon_jobs_t *jobs, unsigned from, const char *msg, size_t len);

/* ---- daemon_client.c: the hook of `drover run` ------------------------ */

/* Whether this `drover run` goes through the daemon: --daemon or
 * DROVER_DAEMON=1, unless it is itself a daemon's job. */
bool daemon_client_wanted(bool option);

/* The id of the daemon's job this `drover run` is (0: not a daemon job),
 * known once daemon_client_wanted has run. */
unsigned daemon_client_job(void);

/* In a daemon's job: the prefix the daemon gave its run (see
 * daemon_jobs.c), else NULL. Borrowed. */
const char *daemon_client_prefix(void);

/* In a daemon's job: watch the daemon's control socket in run's loop,
 * whose releases continue job's stopped ranks (debug.c).
 * daemon_client_unwatch stops that. */
void daemon_client_watch(struct launcher *run, struct launcher_job *job);
void daemon_client_unwatch(void);

/* In a daemon's job: tell the daemon that group name of the run's server
 * has these n members now (none: it is gone). */
void daemon_client_group(const char *name, const pmix_proc_t *members, size_t n);

/* In a daemon's job: pass event code from source to the daemon when its
 * custom range (in info) names a process beyond the run. */
void daemon_client_event(pmix_status_t code, const pmix_proc_t *source, const pmix_info_t *info,
                         size_t ninfo);

/* In a daemon's job: tell the daemon the pid of each rank of the first
 * job, once they have started. */
void daemon_client_report(const struct launcher_job *job);

/* In a daemon's job: tell the daemon the run's exit status once its
 * ranks have ended (status: the run's, before a signal that interrupted
 * it), ahead of the teardown. */
void daemon_client_exited(const struct launcher *run, int status);

/* ---- daemon_run.c: `drover run --daemon` ------------------------------ */

/* Whether `drover run` goes through the daemon: --daemon (option) or
 * DROVER_DAEMON=1. */
bool daemon_run_wanted(bool option);

/* `drover run` through the daemon: argv as given to `drover run`
 * (argv[0] is "run"). Returns the job's exit status. */
int daemon_run(int argc, char **argv);

#endif /* DROVER_LAUNCHER_DAEMON_H */
