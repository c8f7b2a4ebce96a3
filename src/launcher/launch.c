/*
 * launch.c - environments, the program's path, fork and exec.
 *
 * Design notes:
 *  - The base environment is drover's own minus the variables of any PMIx
 *    job drover itself runs in (PMIX_*, PMIx server contact variables):
 *    a rank must talk to drover's server, never to an enclosing one. The
 *    -x settings come next, then drover's libpmix.so.2 directory is put
 *    first on LD_LIBRARY_PATH so that ranks load the same library as the
 *    server they talk to (--no-libpmix-path turns that off). The
 *    directory is the one the dynamic linker actually chose for drover,
 *    found with dladdr on a PMIx symbol.
 *  - The program is resolved before anything is started, as execvp would
 *    (PATH of the ranks' environment, relative names against --wdir), so
 *    that a missing program is one clear message, not N failed ranks.
 *  - Everything the child needs is computed before vfork: until exec the
 *    child shares drover's memory, so it only makes system calls. It joins
 *    the session's process group, applies its binding, resets signal
 *    handlers, moves its pipes onto 0-2 and execs; PR_SET_PDEATHSIG makes
 *    it die with drover should drover be killed before the anchor acts.
 *    vfork rather than fork: launching is drover's hot path, and fork's
 *    copy of the page tables (while the ranks already started compete for
 *    the CPUs) cost up to 2 ms per rank on a 2-core node.
 *  - With a cgroup for the run the child is started inside it by clone3
 *    (CLONE_INTO_CGROUP): moving a process into a cgroup afterwards, by
 *    writing cgroup.procs, waits for an RCU grace period, 10-20 ms per rank
 *    here. That clone3 is a vfork as well (vfork_cgroup.c): as a fork, the
 *    copy and the teardown at exec of drover's page tables took most of a
 *    launch's time (0.6 ms against 0.08 per rank, on 2 cores). Where that
 *    vfork cannot be had (another architecture, an ASan build) the child
 *    is a fork into the cgroup; failing both (a kernel before 5.7), a
 *    vfork that writes cgroup.procs itself.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sched.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "launcher.h"
#include "pmix_server.h"
#include "ydoc.h"

extern char **environ;

char *launch_read_text(const char *path, size_t *len)
{
    /* Non-blocking: a FIFO given as a file is refused, not waited on. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    char *text = NULL;
    size_t got = 0;

    if (fd >= 0 && 0 == fstat(fd, &st) && S_ISREG(st.st_mode) &&
        (size_t)st.st_size <= YDOC_MAX_BYTES && NULL != (text = malloc((size_t)st.st_size + 1))) {
        ssize_t n = 1;
        while (got < (size_t)st.st_size && (n = read(fd, text + got, (size_t)st.st_size - got)) > 0) {
            got += (size_t)n;
        }
        text[got] = '\0';
        if (n < 0 || got != strlen(text)) {
            free(text);
            text = NULL;
        }
    }
    if (fd >= 0) {
        close(fd);
    }
    *len = got;
    return text;
}

const char *launch_libpmix_dir(void)
{
    static char dir[PATH_MAX];
    Dl_info info;
    if ('\0' == dir[0]) {
        if (0 == dladdr((void *)PMIx_server_init, &info) || NULL == info.dli_fname ||
            NULL == realpath(info.dli_fname, dir)) {
            return NULL;
        }
        char *slash = strrchr(dir, '/');
        if (NULL == slash) {
            dir[0] = '\0';
            return NULL;
        }
        *slash = '\0';
    }
    return dir;
}

/* Variables that would point a rank at another PMIx server or job; the
 * user's library settings (PMIX_MCA_*) stay. */
static bool inherited_pmix(const char *entry)
{
    return 0 == strncmp(entry, "PMIX_", 5) && 0 != strncmp(entry, "PMIX_MCA_", 9);
}

char **launch_base_env(const launcher_options_t *opts)
{
    size_t n = launch_env_count(environ);
    char **env = calloc(n + 1, sizeof(*env));
    if (NULL == env) {
        return NULL;
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (!inherited_pmix(environ[i]) && NULL == (env[kept++] = strdup(environ[i]))) {
            goto fail;
        }
    }
    for (size_t i = 0; i < opts->nexports; i++) {
        const char *eq = strchr(opts->exports[i], '=');
        char name[256];
        const char *value;
        if (NULL != eq) {
            snprintf(name, sizeof(name), "%.*s", (int)(eq - opts->exports[i]), opts->exports[i]);
            value = eq + 1;
        } else {
            snprintf(name, sizeof(name), "%s", opts->exports[i]);
            value = getenv(name);
            if (NULL == value) {
                continue;
            }
        }
        char **grown = launch_setenv(env, name, value);
        if (NULL == grown) {
            goto fail;
        }
        env = grown;
    }
    const char *libdir = launch_libpmix_dir();
    if (!opts->no_lib_path && NULL != libdir) {
        const char *old = launch_getenv(env, "LD_LIBRARY_PATH");
        char *path;
        if (asprintf(&path, "%s%s%s", libdir, NULL != old && '\0' != *old ? ":" : "",
                     NULL != old ? old : "") < 0) {
            goto fail;
        }
        char **grown = launch_setenv(env, "LD_LIBRARY_PATH", path);
        free(path);
        if (NULL == grown) {
            goto fail;
        }
        env = grown;
    }
    return env;

fail:
    launch_free_env(env);
    return NULL;
}

/* Can path be executed? 0, or an exit status with *why. */
static int check_file(const char *path, const char **why)
{
    struct stat st;
    if (0 != stat(path, &st)) {
        *why = ENOENT == errno || ENOTDIR == errno ? "no such file" : strerror(errno);
        return ENOENT == errno || ENOTDIR == errno ? LAUNCHER_EXIT_NOTFOUND
                                                   : LAUNCHER_EXIT_NOEXEC;
    }
    if (S_ISDIR(st.st_mode)) {
        *why = "is a directory";
        return LAUNCHER_EXIT_NOEXEC;
    }
    if (0 != access(path, X_OK)) {
        *why = "permission denied";
        return LAUNCHER_EXIT_NOEXEC;
    }
    return 0;
}

int launch_resolve(const char *name, char *const *env, const char *wdir, char **path,
                   const char **why)
{
    *path = NULL;
    if ('\0' == name[0]) {
        *why = "empty program name";
        return LAUNCHER_EXIT_NOTFOUND;
    }
    if (NULL != strchr(name, '/')) {
        char *full;
        if ('/' == name[0] || NULL == wdir) {
            full = strdup(name);
        } else if (asprintf(&full, "%s/%s", wdir, name) < 0) {
            full = NULL;
        }
        if (NULL == full) {
            *why = "out of memory";
            return LAUNCHER_EXIT_FAILURE;
        }
        int rc = check_file(full, why);
        if (0 != rc) {
            free(full);
            return rc;
        }
        *path = full;
        return 0;
    }
    const char *search = NULL != env ? launch_getenv(env, "PATH") : NULL;
    if (NULL == search) {
        search = "/usr/local/bin:/usr/bin:/bin";
    }
    int result = LAUNCHER_EXIT_NOTFOUND;
    *why = "not found in PATH";
    for (const char *dir = search;; dir = strchr(dir, ':') + 1) {
        size_t len = strcspn(dir, ":");
        char *full;
        /* An empty PATH element means the working directory. */
        if (asprintf(&full, "%.*s%s%s", (int)len, 0 == len ? (NULL != wdir ? wdir : ".") : dir,
                     "/", name) < 0) {
            *why = "out of memory";
            return LAUNCHER_EXIT_FAILURE;
        }
        const char *reason;
        int rc = check_file(full, &reason);
        if (0 == rc) {
            *path = full;
            return 0;
        }
        free(full);
        if (LAUNCHER_EXIT_NOEXEC == rc) {
            result = rc;
            *why = reason;
        }
        if (':' != dir[len]) {
            break;
        }
    }
    return result;
}

/* Why execve failed, for the child: no strerror, which may read locale
 * data under a lock. */
static const char *exec_error(int err)
{
    switch (err) {
    case ENOENT:
        return "no such file, or no such interpreter";
    case EACCES:
        return "permission denied";
    case ENOEXEC:
        return "not an executable format";
    case E2BIG:
        return "arguments and environment too long";
    default:
        return "execve failed";
    }
}

void launch_handled_signals(sigset_t *set)
{
    /* Ignored signals stay ignored (nohup), except SIGPIPE, which drover
     * ignores for itself. */
    struct sigaction now;
    sigemptyset(set);
    for (int sig = 1; sig < NSIG; sig++) {
        if (0 == sigaction(sig, NULL, &now) &&
            (SIGPIPE == sig || (SIG_IGN != now.sa_handler && SIG_DFL != now.sa_handler))) {
            sigaddset(set, sig);
        }
    }
}

/* The child's side of launch_fork. It shares drover's memory until exec
 * (vfork), or is a copy of a process with other threads (clone3), so it
 * makes system calls only: no allocation, no stdio, no lock. */
static void child(const launch_child_t *c, bool in_cgroup)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    setpgid(0, c->pgid);
    if (!in_cgroup && c->cgroup_procs >= 0) {
        (void)!write(c->cgroup_procs, "0", 1);
    }
    if (NULL != c->procdir) {
        mkdir(c->procdir, 0700);
    }
    if (NULL != c->affinity) {
        sched_setaffinity(0, c->affinity_size, c->affinity);
    }
    /* Handlers drover installed would run in drover's memory: back to the
     * defaults before signals are unblocked (the parent found which:
     * asking here took 64 system calls per child). */
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    for (int sig = 1; sig < NSIG; sig++) {
        if (1 == sigismember(c->handled, sig)) {
            sigaction(sig, &dfl, NULL);
        }
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (c->inherit_fd > 2) {
        fcntl(c->inherit_fd, F_SETFD, 0);
    }
    for (int fd = 0; fd < 3; fd++) {
        if (c->fds[fd] == fd) {
            fcntl(fd, F_SETFD, 0);
        } else if (dup2(c->fds[fd], fd) < 0) {
            _exit(LAUNCHER_EXIT_NOEXEC);
        }
    }
    if (NULL != c->wdir && 0 != chdir(c->wdir)) {
        static const char msg[] = LAUNCHER_NAME ": cannot enter the working directory\n";
        (void)!write(2, msg, sizeof(msg) - 1);
        _exit(LAUNCHER_EXIT_NOEXEC);
    }
    if (c->trace_exec && 0 != ptrace(PTRACE_TRACEME, 0, NULL, NULL)) {
        static const char no_trace[] = LAUNCHER_NAME ": cannot stop at exec: ptrace refused\n";
        (void)!write(2, no_trace, sizeof(no_trace) - 1);
        _exit(LAUNCHER_EXIT_NOEXEC);
    }
    execve(c->path, c->argv, c->env);
    int err = errno;
    const char *why = exec_error(err);
    struct iovec msg[] = {
        {LAUNCHER_NAME ": cannot execute ", sizeof(LAUNCHER_NAME ": cannot execute ") - 1},
        {(char *)c->path, strlen(c->path)},
        {": ", 2},
        {(char *)why, strlen(why)},
        {"\n", 1},
    };
    (void)!writev(2, msg, sizeof(msg) / sizeof(msg[0]));
    _exit(ENOENT == err ? LAUNCHER_EXIT_NOTFOUND : LAUNCHER_EXIT_NOEXEC);
}

/* The child of vfork_cgroup, started in the cgroup. */
static void child_in_cgroup(const void *c)
{
    child(c, true);
}

/* A fork whose child starts in the cgroup open as cgroup_fd, or -1. */
static pid_t fork_into_cgroup(int cgroup_fd)
{
    struct clone_args args = {
        .flags = CLONE_INTO_CGROUP,
        .exit_signal = SIGCHLD,
        .cgroup = (uint64_t)cgroup_fd,
    };
    return (pid_t)syscall(SYS_clone3, &args, sizeof(args));
}

/* The child, started in the run's cgroup where there is one: vfork_cgroup
 * (the child shares drover's memory), or where it cannot be had a fork
 * into the cgroup (a copy of drover); failing both (an old kernel, a
 * cgroup that takes no processes) vfork, and the child joins the cgroup
 * itself. vfork fails alike if the failure is the system's. */
static pid_t start(const launch_child_t *c)
{
    if (c->cgroup_dir >= 0) {
        pid_t pid = vfork_cgroup(c->cgroup_dir, child_in_cgroup, c);
        if (pid < 0) {
            pid = fork_into_cgroup(c->cgroup_dir);
        }
        if (0 == pid) {
            child(c, true);
        }
        if (pid > 0) {
            return pid;
        }
    }
    pid_t pid = vfork();
    if (0 == pid) {
        child(c, false);
    }
    return pid;
}

pid_t launch_fork(const launch_child_t *c)
{
    /* No page tables to copy, and drover resumes once the child has
     * exec'd. Every signal stays blocked until the child has reset its
     * handlers. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t pid = start(c);
    int err = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (pid > 0) {
        /* Set from both sides: the group must be right before drover
         * could signal it. */
        setpgid(pid, c->pgid);
    }
    errno = err;
    return pid;
}
