/*
 * session.c - the session directory, the process group and the anchor.
 *
 * Design notes:
 *  - One session directory per run, mkdtemp'd under $TMPDIR (or /tmp),
 *    mode 0700. The server library makes its socket directory inside it
 *    (PMIX_SERVER_TMPDIR) and every job's PMIX_TMPDIR, NSDIR and PROCDIRs
 *    live in it, so removing one tree removes everything a run wrote.
 *  - Every process of every job joins one process group, led by the
 *    anchor: a child forked before any thread exists, which does nothing
 *    but wait for EOF on a pipe whose only writer is drover. The group
 *    therefore exists from the first launch to the end, so spawned jobs can
 *    always join it, and one killpg reaches the processes and whatever they
 *    forked. The terminal's SIGINT reaches drover only; drover forwards it.
 *  - If drover dies, even by SIGKILL, the pipe closes: the anchor then
 *    terminates the group (SIGTERM, a grace period, SIGKILL), removes the
 *    session directory and the jobs' /dev/shm segments, and exits. The
 *    anchor ignores the catchable signals sent to the group, and SIGKILL
 *    is sent process by process (found in /proc) so that it survives its
 *    own sweep.
 *  - Shared-memory segments of a job's processes are named
 *    /dev/shm/<nspace>..., and every namespace of a run starts with
 *    "drover-<pid>-": one prefix covers them all, and directories with it
 *    (session_shm_mkdir) go with everything in them.
 *  - drover is a child subreaper, so processes orphaned by a rank come back
 *    to it and are killed and reaped at the end.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launcher.h"

#define SHM_DIR "/dev/shm"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void remove_tree(const char *dir)
{
    if (NULL != dir) {
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
    }
}

static void remove_shm(const char *prefix)
{
    DIR *d = opendir(SHM_DIR);
    if (NULL == d) {
        return;
    }
    size_t len = strlen(prefix);
    struct dirent *e;
    while (NULL != (e = readdir(d))) {
        char path[PATH_MAX];
        if (0 == strncmp(e->d_name, prefix, len) &&
            (int)sizeof(path) > snprintf(path, sizeof(path), "%s/%s", SHM_DIR, e->d_name)) {
            remove_tree(path);
        }
    }
    closedir(d);
}

/* Signal the members of group pgid but `spared` and, with adopted, the
 * children of `parent`, as found in /proc. Returns how many were found. */
static unsigned signal_members(pid_t pgid, pid_t spared, bool adopted, pid_t parent, int sig)
{
    DIR *proc = opendir("/proc");
    if (NULL == proc) {
        return 0;
    }
    unsigned found = 0;
    struct dirent *e;
    while (NULL != (e = readdir(proc))) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if ('\0' != *end || pid <= 0 || pid == spared) {
            continue;
        }
        char path[64], stat[512];
        snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            continue;
        }
        ssize_t n = read(fd, stat, sizeof(stat) - 1);
        close(fd);
        if (n <= 0) {
            continue;
        }
        stat[n] = '\0';
        /* pid (comm) state ppid pgrp ...; comm may hold anything but ')'
         * ends it for good at the last one. */
        char *rest = strrchr(stat, ')');
        char state;
        long ppid, pgrp;
        if (NULL == rest || 3 != sscanf(rest + 1, " %c %ld %ld", &state, &ppid, &pgrp) ||
            'Z' == state) {
            continue;
        }
        if (pgrp == pgid || (adopted && ppid == parent)) {
            found++;
            kill((pid_t)pid, sig);
        }
    }
    closedir(proc);
    return found;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The anchor's life: lead the group, wait for drover to go, clean up. */
static void anchor_main(int fd, const char *dir, const char *shm_prefix, double grace)
{
    static const int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
                                  SIGUSR1, SIGUSR2, SIGTSTP, SIGTTIN, SIGTTOU};
    for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++) {
        signal(ignored[i], SIG_IGN);
    }
    setpgid(0, 0);
    /* Only the pipe is kept: the anchor must hold nothing a rank or the
     * server could be waiting to see closed. */
    if (fd > 0) {
        close_range(0, (unsigned)fd - 1, 0);
    }
    close_range((unsigned)fd + 1, ~0u, 0);
    char byte;
    ssize_t n;
    do {
        n = read(fd, &byte, 1);
    } while (n > 0 || (n < 0 && EINTR == errno));
    pid_t me = getpid();
    if (signal_members(me, me, false, 0, SIGTERM) > 0) {
        for (long waited = 0; waited < (long)(grace * 1000) &&
                              signal_members(me, me, false, 0, 0) > 0;
             waited += 20) {
            sleep_ms(20);
        }
        signal_members(me, me, false, 0, SIGKILL);
    }
    remove_tree(dir);
    remove_shm(shm_prefix);
    _exit(0);
}

char *session_mkdir(const char *dir, const char *name)
{
    char *path;
    if (asprintf(&path, "%s/%s", dir, name) < 0) {
        return NULL;
    }
    if (0 != mkdir(path, 0700) && EEXIST != errno) {
        free(path);
        return NULL;
    }
    return path;
}

char *session_shm_mkdir(const launcher_session_t *s, const char *suffix)
{
    char *path;
    if (asprintf(&path, "%s/%s%s", SHM_DIR, s->shm_prefix, suffix) < 0) {
        return NULL;
    }
    /* Never one that is already there: /dev/shm is everybody's. */
    if (0 != mkdir(path, 0700)) {
        free(path);
        return NULL;
    }
    return path;
}

int session_create(launcher_session_t *s, double grace)
{
    *s = (launcher_session_t){.pgid = -1, .anchor_fd = -1};
    const char *tmp = getenv("TMPDIR");
    if (NULL == tmp || '\0' == tmp[0]) {
        tmp = "/tmp";
    }
    if (asprintf(&s->dir, "%s/drover.%d.XXXXXX", tmp, (int)getpid()) < 0 ||
        asprintf(&s->shm_prefix, "drover-%d-", (int)getpid()) < 0) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        goto fail;
    }
    if (NULL == mkdtemp(s->dir)) {
        fprintf(stderr, LAUNCHER_NAME ": cannot create a session directory in %s: %s\n", tmp,
                strerror(errno));
        free(s->dir);
        s->dir = NULL;
        goto fail;
    }
    int fds[2];
    if (0 != pipe2(fds, O_CLOEXEC)) {
        fprintf(stderr, LAUNCHER_NAME ": cannot create a pipe: %s\n", strerror(errno));
        goto fail;
    }
    pid_t pid = fork();
    if (0 == pid) {
        anchor_main(fds[0], s->dir, s->shm_prefix, grace);
    }
    close(fds[0]);
    if (pid < 0) {
        fprintf(stderr, LAUNCHER_NAME ": cannot fork: %s\n", strerror(errno));
        close(fds[1]);
        goto fail;
    }
    /* Both sides set the group so that it exists before either goes on. */
    setpgid(pid, pid);
    s->pgid = pid;
    s->anchor_alive = true;
    s->anchor_fd = fds[1];
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    return 0;

fail:
    session_destroy(s);
    return LAUNCHER_EXIT_FAILURE;
}

void session_signal_all(const launcher_session_t *s, int sig, bool adopted)
{
    if (s->pgid <= 0) {
        return;
    }
    if (SIGKILL == sig || adopted) {
        signal_members(s->pgid, s->pgid, adopted, getpid(), sig);
    } else {
        killpg(s->pgid, sig);
    }
}

/* Reap children until none is left, killing stragglers; bounded. */
static void reap_everything(const launcher_session_t *s)
{
    for (int round = 1; round <= 200; round++) {
        pid_t pid;
        while ((pid = waitpid(-1, NULL, WNOHANG)) > 0) {
        }
        if (pid < 0 && ECHILD == errno) {
            return;
        }
        if (0 == round % 10) {
            signal_members(s->pgid, -1, true, getpid(), SIGKILL);
        }
        sleep_ms(5);
    }
}

void session_release_anchor(launcher_session_t *s)
{
    if (s->pgid > 0 && s->anchor_alive) {
        /* The anchor dies with whatever is left in its group. */
        killpg(s->pgid, SIGKILL);
    }
}

void session_destroy(launcher_session_t *s)
{
    if (s->pgid > 0) {
        /* The anchor dies with the rest of its group. */
        killpg(s->pgid, SIGKILL);
        if (s->anchor_alive) {
            waitpid(s->pgid, NULL, 0);
        }
        reap_everything(s);
    }
    if (s->anchor_fd >= 0) {
        close(s->anchor_fd);
    }
    remove_tree(s->dir);
    if (NULL != s->shm_prefix) {
        remove_shm(s->shm_prefix);
    }
    free(s->dir);
    free(s->shm_prefix);
    *s = (launcher_session_t){.pgid = -1, .anchor_fd = -1};
}
