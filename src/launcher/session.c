/*
 * session.c - the session directory, the process group and the anchor.
 *
 * Design notes:
 *  - One session directory per run, mkdtemp'd under $TMPDIR (else
 *    /dev/shm, else /tmp), mode 0700. The server library makes its socket
 *    directory inside it (PMIX_SERVER_TMPDIR) and every job's PMIX_TMPDIR,
 *    NSDIR and PROCDIRs live in it, so removing one tree removes
 *    everything a run wrote. It
 *    is removed through descriptors of it and of its parent kept from its
 *    creation, never by its path, which may lead elsewhere by then.
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
 *    (session_shm_mkdir) go with everything in them. /dev/shm is
 *    everybody's: only entries this user owns are removed, through
 *    directory descriptors (rmtree.c), so a name another user pre-created
 *    and a symlink swapped in lead nowhere.
 *  - drover is a child subreaper, so processes orphaned by a rank come back
 *    to it and are killed and reaped at the end.
 *  - A process that leaves the group (setsid) is found after drover died
 *    by the run's label in its environment (DROVER_RUN, set for every
 *    process of the run and inherited), and by the run's cgroup where one
 *    could be made (cgroup.c), which also holds processes that clear their
 *    environment.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
#include "launcher.h"
#include "procstat.h"
#include "rmtree.h"

#define SHM_DIR "/dev/shm"
/* The variable labelling every process of a run (session_label_env). */
#define LABEL_NAME "DROVER_RUN"

/* Whether the session directory's name still gives the directory made. */
static bool still_there(const launcher_session_t *s)
{
    struct stat made, now;
    return 0 == fstat(s->dir_fd, &made) &&
           0 == fstatat(s->tmp_fd, strrchr(s->dir, '/') + 1, &now, AT_SYMLINK_NOFOLLOW) &&
           made.st_dev == now.st_dev && made.st_ino == now.st_ino;
}

/* Remove the session directory, if the name still gives the directory
 * made (anything else swapped in is left alone), else only what it holds. */
static void remove_session_dir(const launcher_session_t *s)
{
    if (s->dir_fd < 0) {
        return;
    }
    if (still_there(s)) {
        rmtree_at(s->tmp_fd, strrchr(s->dir, '/') + 1, geteuid(), true);
    } else {
        rmtree_contents(s->dir_fd, geteuid());
    }
}

/* Remove every /dev/shm/<prefix>* that this user owns, with what is in
 * it; entries of other users (a name pre-created to lure us) stay. */
static void remove_shm(const launcher_session_t *s)
{
    int fd = s->shm_fd < 0 ? -1 : openat(s->shm_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (NULL == d) {
        if (fd >= 0) {
            close(fd);
        }
        return;
    }
    size_t len = strlen(s->shm_prefix);
    struct dirent *e;
    while (NULL != (e = readdir(d))) {
        if (0 == strncmp(e->d_name, s->shm_prefix, len)) {
            rmtree_at(s->shm_fd, e->d_name, geteuid(), true);
        }
    }
    closedir(d);
}

static int compare_fds(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* Close every descriptor but the n in keep (which it sorts). */
static void close_all_but(int *keep, size_t n)
{
    qsort(keep, n, sizeof(*keep), compare_fds);
    unsigned from = 0;
    for (size_t i = 0; i < n; i++) {
        if (keep[i] < 0) {
            continue;
        }
        if ((unsigned)keep[i] > from) {
            close_range(from, (unsigned)keep[i] - 1, 0);
        }
        from = (unsigned)keep[i] + 1;
    }
    close_range(from, ~0u, 0);
}

/* Whether the environment process pid started with holds entry (the
 * run's label, "NAME=value"). */
static bool labelled(long pid, const char *entry)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    /* Entries end in NUL; one split over two reads is joined, one longer
     * than buf (not the label) skipped. */
    size_t len = strlen(entry), have = 0;
    char buf[8192];
    bool found = false, skip = false;
    ssize_t n;
    while (!found && (n = read(fd, buf + have, sizeof(buf) - have)) > 0) {
        size_t end = have + (size_t)n, start = 0;
        for (size_t i = 0; i < end && !found; i++) {
            if ('\0' == buf[i]) {
                found = !skip && i - start == len && 0 == memcmp(buf + start, entry, len);
                skip = false;
                start = i + 1;
            }
        }
        skip |= end - start == sizeof(buf);
        have = skip ? 0 : end - start;
        memmove(buf, buf + start, have);
    }
    close(fd);
    return found;
}

/* Which processes a sweep signals: the members of group pgid but spared;
 * with parent, the children of parent (orphans drover adopted); with
 * label, every process of this user whose environment holds it (ranks'
 * descendants that left the group, even orphaned after drover died). */
typedef struct sweep {
    pid_t pgid;
    pid_t spared;
    pid_t parent;       /* 0: none */
    const char *label;  /* NULL: none */
} sweep_t;

static bool swept(const sweep_t *w, long pid, long ppid, long pgrp)
{
    if (pgrp == w->pgid || (0 != w->parent && ppid == w->parent)) {
        return true;
    }
    char path[64];
    struct stat st;
    snprintf(path, sizeof(path), "/proc/%ld", pid);
    return NULL != w->label && 0 == stat(path, &st) && st.st_uid == geteuid() &&
           labelled(pid, w->label);
}

/* Send sig to every process the sweep names, as found in /proc. Returns
 * how many were found. */
static unsigned signal_members(const sweep_t *w, int sig)
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
        if ('\0' != *end || pid <= 0 || pid == w->spared) {
            continue;
        }
        char state;
        long ppid, pgrp;
        if (!procstat_read(pid, &state, &ppid, &pgrp) || 'Z' == state) {
            continue;
        }
        if (swept(w, pid, ppid, pgrp)) {
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

/* What a run tells the anchor made before its job came (a daemon's
 * standby): the job's grace and /dev/shm prefix. One write, atomic on a
 * pipe. */
typedef struct anchor_settings {
    double grace;
    char shm_prefix[DAEMON_NSPACE_MAX];
} anchor_settings_t;

/* A session made ahead of its run's job (session_prepare), until
 * session_create takes it; its fds from PREPARED_MIN_FD up. */
static launcher_session_t prepared = SESSION_NONE;
#define PREPARED_MIN_FD 10

/* The anchor's life: lead the group, wait for drover to go, clean up. */
static void anchor_main(int fd, const launcher_session_t *s, double grace)
{
    static const int ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
                                  SIGUSR1, SIGUSR2, SIGTSTP, SIGTTIN, SIGTTOU};
    for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++) {
        signal(ignored[i], SIG_IGN);
    }
    setpgid(0, 0);
    /* Only the pipe and the directories to clean up are kept: the anchor
     * must hold nothing a rank or the server could be waiting to see
     * closed. */
    int keep[] = {fd, s->tmp_fd, s->dir_fd, s->shm_fd, s->cgroup.parent_fd, s->cgroup.dir_fd};
    close_all_but(keep, sizeof(keep) / sizeof(keep[0]));
    /* Until EOF; what came last is what drover says of its job. */
    anchor_settings_t said, last = {.grace = grace};
    size_t have = 0;
    ssize_t n;
    do {
        n = read(fd, (char *)&said + have, sizeof(said) - have);
        have += n > 0 ? (size_t)n : 0;
        if (sizeof(said) == have) {
            last = said;
            have = 0;
        }
    } while (n > 0 || (n < 0 && EINTR == errno));
    launcher_session_t own = *s;
    if ('\0' != last.shm_prefix[0] &&
        NULL != memchr(last.shm_prefix, '\0', sizeof(last.shm_prefix))) {
        own.shm_prefix = last.shm_prefix;
    }
    grace = last.grace;
    s = &own;
    /* The group, the cgroup, and what left both but carries the run's
     * label. */
    sweep_t all = {.pgid = getpid(), .spared = getpid(), .label = s->label};
    launcher_cgroup_t cgroup = s->cgroup;
    cgroup.procs_fd = -1; /* closed above */
    if (signal_members(&all, SIGTERM) + cgroup_signal(&cgroup, SIGTERM) > 0) {
        for (long waited = 0; waited < (long)(grace * 1000) &&
                              signal_members(&all, 0) + cgroup_signal(&cgroup, 0) > 0;
             waited += 20) {
            sleep_ms(20);
        }
        /* Until none is left: a process may fork while it is swept. */
        for (int round = 0;
             round < 100 && signal_members(&all, SIGKILL) + cgroup_signal(&cgroup, SIGKILL) > 0;
             round++) {
            sleep_ms(10);
        }
    }
    cgroup_remove(&cgroup);
    remove_session_dir(s);
    remove_shm(s);
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
    if (s->shm_fd < 0) {
        return NULL;
    }
    /* /dev/shm is everybody's: a name with a random part, made here and
     * never one that is already there, so no one can have prepared it. */
    for (int attempt = 0; attempt < 16; attempt++) {
        uint64_t random;
        if (sizeof(random) != getrandom(&random, sizeof(random), 0)) {
            return NULL;
        }
        char name[NAME_MAX + 1];
        if ((int)sizeof(name) <= snprintf(name, sizeof(name), "%s%s.%016" PRIx64, s->shm_prefix,
                                          suffix, random)) {
            return NULL;
        }
        if (0 == mkdirat(s->shm_fd, name, 0700)) {
            char *path;
            return asprintf(&path, "%s/%s", SHM_DIR, name) < 0 ? NULL : path;
        }
        if (EEXIST != errno) {
            return NULL;
        }
    }
    return NULL;
}

/* Make the session directory under tmp and keep descriptors of it and of
 * tmp, by which it is removed (the path may lead elsewhere by then). Where
 * tmp will not do, says why unless quiet. */
static int make_session_dir(launcher_session_t *s, const char *tmp, bool quiet)
{
    if (asprintf(&s->dir, "%s/drover.%d.XXXXXX", tmp, (int)getpid()) < 0) {
        s->dir = NULL;
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        return -1;
    }
    s->tmp_fd = open(tmp, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (s->tmp_fd < 0 || NULL == mkdtemp(s->dir)) {
        if (!quiet) {
            fprintf(stderr, LAUNCHER_NAME ": cannot create a session directory in %s: %s\n",
                    tmp, strerror(errno));
        }
        if (s->tmp_fd >= 0) {
            close(s->tmp_fd);
            s->tmp_fd = -1;
        }
        free(s->dir);
        s->dir = NULL;
        return -1;
    }
    s->dir_fd = openat(s->tmp_fd, strrchr(s->dir, '/') + 1,
                       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (s->dir_fd < 0 || 0 != fstat(s->dir_fd, &st) || st.st_uid != geteuid() ||
        0 != (st.st_mode & 077)) {
        fprintf(stderr, LAUNCHER_NAME ": the session directory %s was replaced\n", s->dir);
        return -1;
    }
    return 0;
}

/* $TMPDIR, else /dev/shm, else /tmp. /dev/shm is a tmpfs, where making
 * and removing a directory takes microseconds; on a disk that other work
 * keeps busy each can take milliseconds (ext4 waits for its journal), and
 * a launch makes a directory per rank. */
static int make_session_dir_somewhere(launcher_session_t *s)
{
    const char *tmp = getenv("TMPDIR");
    if (NULL != tmp && '\0' != tmp[0]) {
        return make_session_dir(s, tmp, false);
    }
    if (0 == make_session_dir(s, SHM_DIR, true)) {
        return 0;
    }
    if (NULL != s->dir) {
        return -1; /* made, then replaced: said already */
    }
    return make_session_dir(s, "/tmp", false);
}

char *session_name_prefix(void)
{
    /* A daemon's job is named by the daemon (daemon_jobs.c). */
    const char *given = daemon_client_prefix();
    char *prefix = NULL;

    if (NULL != given ? NULL == (prefix = strdup(given))
                      : asprintf(&prefix, "drover-%d-", (int)getpid()) < 0) {
        return NULL;
    }
    return prefix;
}

/* The prepared session, made the job's: its prefix, and both that and
 * grace told to the anchor. One that cannot be (removed while it waited,
 * by a cleaner of old files; its anchor gone) is replaced by a new one. */
static int adopt(launcher_session_t *s, double grace)
{
    *s = prepared;
    prepared = SESSION_NONE;
    free(s->shm_prefix);
    anchor_settings_t said = {.grace = grace};
    bool taken = NULL != (s->shm_prefix = session_name_prefix()) && still_there(s) &&
                 (int)sizeof(said.shm_prefix) >
                     snprintf(said.shm_prefix, sizeof(said.shm_prefix), "%s", s->shm_prefix) &&
                 (ssize_t)sizeof(said) == write(s->anchor_fd, &said, sizeof(said));
    if (taken) {
        return 0;
    }
    session_destroy(s);
    return session_create(s, grace);
}

/* fd moved to PREPARED_MIN_FD or above (-1 stays -1). */
static int out_of_the_way(int fd)
{
    if (fd < 0 || fd >= PREPARED_MIN_FD) {
        return fd;
    }
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, PREPARED_MIN_FD);
    close(fd);
    return moved;
}

int session_prepare(double grace)
{
    if (0 != session_create(&prepared, grace)) {
        return LAUNCHER_EXIT_FAILURE;
    }
    /* The job's fds will be made 0-5 (daemon_standby.c): the session's,
     * made first, move above them. */
    int *fds[] = {&prepared.anchor_fd,         &prepared.tmp_fd,          &prepared.dir_fd,
                  &prepared.shm_fd,            &prepared.cgroup.parent_fd, &prepared.cgroup.dir_fd,
                  &prepared.cgroup.procs_fd};
    bool moved = true;
    for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
        moved &= (*fds[i] = out_of_the_way(*fds[i])) >= 0 || -1 == *fds[i];
    }
    if (!moved) {
        session_unprepare();
        return LAUNCHER_EXIT_FAILURE;
    }
    return 0;
}

void session_unprepare(void)
{
    session_destroy(&prepared);
}

const char *session_prepared_dir(void)
{
    return NULL != prepared.dir && still_there(&prepared) ? prepared.dir : NULL;
}

int session_create(launcher_session_t *s, double grace)
{
    if (NULL != prepared.dir) {
        return adopt(s, grace);
    }
    *s = SESSION_NONE;
    uint64_t random;
    if (sizeof(random) != getrandom(&random, sizeof(random), 0)) {
        fprintf(stderr, LAUNCHER_NAME ": cannot get random bytes: %s\n", strerror(errno));
        goto fail;
    }
    snprintf(s->label, sizeof(s->label), LABEL_NAME "=%d.%016" PRIx64, (int)getpid(), random);
    if (NULL == (s->shm_prefix = session_name_prefix())) {
        fprintf(stderr, LAUNCHER_NAME ": out of memory\n");
        goto fail;
    }
    if (0 != make_session_dir_somewhere(s)) {
        goto fail;
    }
    /* Without /dev/shm there are no segments to remove. */
    s->shm_fd = open(SHM_DIR, O_PATH | O_DIRECTORY | O_CLOEXEC);
    cgroup_create(&s->cgroup);
    int fds[2];
    if (0 != pipe2(fds, O_CLOEXEC)) {
        fprintf(stderr, LAUNCHER_NAME ": cannot create a pipe: %s\n", strerror(errno));
        goto fail;
    }
    pid_t pid = fork();
    if (0 == pid) {
        anchor_main(fds[0], s, grace);
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

char **session_label_env(const launcher_session_t *s, char **env)
{
    if (NULL == env) {
        return NULL;
    }
    const char *eq = strchr(s->label, '=');
    char name[sizeof(s->label)];
    snprintf(name, sizeof(name), "%.*s", (int)(eq - s->label), s->label);
    char **grown = launch_setenv(env, name, eq + 1);
    if (NULL == grown) {
        launch_free_env(env);
    }
    return grown;
}

void session_signal_all(const launcher_session_t *s, int sig, bool adopted)
{
    if (s->pgid <= 0) {
        return;
    }
    if (SIGKILL == sig || adopted) {
        sweep_t members = {.pgid = s->pgid, .spared = s->pgid, .parent = adopted ? getpid() : 0};
        signal_members(&members, sig);
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
            sweep_t everyone = {.pgid = s->pgid, .spared = -1, .parent = getpid()};
            signal_members(&everyone, SIGKILL);
        }
        sleep_ms(5);
    }
}

/* Kill the anchor and whatever is left in its group, and reap them all. */
static void end_group(const launcher_session_t *s)
{
    if (s->pgid > 0) {
        killpg(s->pgid, SIGKILL);
        if (s->anchor_alive) {
            waitpid(s->pgid, NULL, 0);
        }
        reap_everything(s);
    }
}

void session_destroy(launcher_session_t *s)
{
    /* The anchor outlives what the run removes itself: a run killed
     * meanwhile (a daemon's stop that could wait no longer) leaves the
     * rest to it. With a cgroup, the group's other processes are in it and
     * go with it; without one, they go first, so that none writes where
     * the run removes. */
    bool contained = s->cgroup.dir_fd >= 0;
    if (!contained) {
        end_group(s);
    }
    cgroup_remove(&s->cgroup);
    remove_session_dir(s);
    if (NULL != s->shm_prefix) {
        remove_shm(s);
    }
    if (contained) {
        end_group(s);
    }
    if (s->anchor_fd >= 0) {
        close(s->anchor_fd);
    }
    int fds[] = {s->tmp_fd, s->dir_fd, s->shm_fd};
    for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
        if (fds[i] >= 0) {
            close(fds[i]);
        }
    }
    free(s->dir);
    free(s->shm_prefix);
    *s = SESSION_NONE;
}
