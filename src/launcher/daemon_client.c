/*
 * daemon_client.c - the commands that use the daemon: submit, ps, wait,
 * kill, output, and `drover run --daemon`.
 *
 * Design notes:
 *  - Each command is one request on one connection (daemon_connect checks
 *    the state directory and the daemon's uid first).
 *  - submit and run --daemon check the run options here, as `drover run`
 *    would, so that a mistake is one line before anything is queued. The
 *    job gets the command's working directory and environment.
 *  - run --daemon hands its stdin, stdout and stderr to the daemon, which
 *    runs the job on them: output needs no forwarding. INT, TERM and HUP
 *    it receives are passed to the job; it exits with the job's status, or
 *    by the same signal when the job ended by the one it was sent, as a
 *    standalone run does.
 *  - output reads the job's files itself, from the paths the daemon gives
 *    (inside the checked state directory), without following links.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "command.h"
#include "daemon.h"
#include "launcher.h"

extern char **environ;

/* Send words, read the one reply. Returns the socket (the caller closes
 * it) with *reply filled, or -1 after a message. An "error" reply is
 * printed and returned as -1. */
static int request(const char *who, char *const *words, size_t nwords, const int *fds,
                   size_t nfds, wire_msg_t *reply)
{
    int sock = daemon_connect(who);
    if (sock < 0) {
        return -1;
    }
    if (0 != daemon_wire_send(sock, words, nwords, fds, nfds)) {
        fprintf(stderr, "%s: cannot send the request: %s\n", who, strerror(errno));
        close(sock);
        return -1;
    }
    int rc = daemon_wire_recv(sock, reply);
    if (0 != rc || 0 == reply->nwords) {
        fprintf(stderr, "%s: the daemon did not answer\n", who);
        if (0 == rc) {
            daemon_wire_release(reply);
        }
        close(sock);
        return -1;
    }
    if (0 == strcmp(reply->words[0], "error")) {
        fprintf(stderr, "%s: %s\n", who, reply->nwords > 1 ? reply->words[1] : "refused");
        daemon_wire_release(reply);
        close(sock);
        return -1;
    }
    return sock;
}

/* verb CWD NARGS ARGS... ENV..., for submit and run. NULL after a
 * message. Caller frees the array (the strings are borrowed, but for
 * the two numbers it holds in buf). */
static char **launch_words(const char *who, const char *verb, int argc, char **argv,
                           size_t *nwords, char *cwd, char *nargs)
{
    if (NULL == getcwd(cwd, PATH_MAX)) {
        fprintf(stderr, "%s: cannot tell the working directory: %s\n", who, strerror(errno));
        return NULL;
    }
    size_t nenv = 0;
    while (NULL != environ[nenv]) {
        nenv++;
    }
    char **words = calloc((size_t)argc + nenv + 3, sizeof(*words));
    if (NULL == words) {
        fprintf(stderr, "%s: out of memory\n", who);
        return NULL;
    }
    snprintf(nargs, 16, "%d", argc - 1);
    words[0] = (char *)verb;
    words[1] = cwd;
    words[2] = nargs;
    memcpy(words + 3, argv + 1, (size_t)(argc - 1) * sizeof(*words));
    memcpy(words + 2 + argc, environ, nenv * sizeof(*words));
    *nwords = (size_t)argc + 2 + nenv;
    return words;
}

/* Check the run options as drover run does. 0, or an exit status. */
static int check_options(int argc, char **argv)
{
    launcher_options_t opts;
    int parsed = options_parse(argc, argv, &opts);
    if (OPTIONS_RUN != parsed) {
        return OPTIONS_HELP == parsed ? -1 : LAUNCHER_EXIT_USAGE;
    }
    options_release(&opts);
    return 0;
}

static int submit_command(int argc, char **argv)
{
    int rc = check_options(argc, argv);
    if (0 != rc) {
        return rc < 0 ? 0 : rc;
    }
    char cwd[PATH_MAX], nargs[16];
    size_t nwords;
    char **words = launch_words("drover submit", "submit", argc, argv, &nwords, cwd, nargs);
    if (NULL == words) {
        return LAUNCHER_EXIT_FAILURE;
    }
    wire_msg_t reply;
    int sock = request("drover submit", words, nwords, NULL, 0, &reply);
    free(words);
    if (sock < 0) {
        return LAUNCHER_EXIT_FAILURE;
    }
    printf("%s\n", reply.nwords > 1 ? reply.words[1] : "?");
    daemon_wire_release(&reply);
    close(sock);
    return 0;
}

/* A daemon's job: where its run reports its ranks (-1: not one). */
static int report_fd = -1;

bool daemon_client_wanted(bool option)
{
    if (NULL != getenv(DAEMON_JOB_ENV)) {
        /* This run is the daemon's job; its ranks must not see that. */
        const char *fd = getenv(DAEMON_REPORT_ENV);
        if (NULL != fd && 0 == strcmp(fd, "3") && fcntl(3, F_SETFD, FD_CLOEXEC) == 0) {
            report_fd = 3;
        }
        unsetenv(DAEMON_JOB_ENV);
        unsetenv(DAEMON_REPORT_ENV);
        return false;
    }
    const char *env = getenv("DROVER_DAEMON");
    return option || (NULL != env && 0 == strcmp(env, "1"));
}

void daemon_client_report(const launcher_job_t *job)
{
    if (report_fd < 0) {
        return;
    }
    for (unsigned r = 0; r < job->nprocs; r++) {
        dprintf(report_fd, "%u %d %s\n", r, (int)job->procs[r].pid,
                job->apps[job->procs[r].app].program);
    }
    close(report_fd);
    report_fd = -1;
}

/* Wait for the job's end, passing on the signals drover run forwards. */
static int follow(int sock, unsigned *sent)
{
    sigset_t sigs, old;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGHUP);
    sigprocmask(SIG_BLOCK, &sigs, &old);
    int sfd = signalfd(-1, &sigs, SFD_CLOEXEC);
    int status = -1;
    while (status < 0) {
        struct pollfd p[2] = {{.fd = sock, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
        if (poll(p, sfd >= 0 ? 2 : 1, -1) < 0) {
            if (EINTR == errno) {
                continue;
            }
            break;
        }
        struct signalfd_siginfo si;
        if (sfd >= 0 && 0 != (p[1].revents & POLLIN) && sizeof(si) == read(sfd, &si, sizeof(si))) {
            char sig[16];
            snprintf(sig, sizeof(sig), "%u", si.ssi_signo);
            *sent = si.ssi_signo;
            daemon_wire_sendv(sock, "signal", sig, NULL);
        }
        if (0 != p[0].revents) {
            wire_msg_t msg;
            if (0 != daemon_wire_recv(sock, &msg)) {
                break;
            }
            if (2 == msg.nwords && 0 == strcmp(msg.words[0], "exit")) {
                status = atoi(msg.words[1]);
            }
            daemon_wire_release(&msg);
        }
    }
    if (sfd >= 0) {
        close(sfd);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return status;
}

int daemon_client_run(int argc, char **argv)
{
    char cwd[PATH_MAX], nargs[16];
    size_t nwords;
    char **words = launch_words(LAUNCHER_NAME, "run", argc, argv, &nwords, cwd, nargs);
    if (NULL == words) {
        return LAUNCHER_EXIT_FAILURE;
    }
    static const int fds[3] = {0, 1, 2};
    wire_msg_t reply;
    int sock = request(LAUNCHER_NAME, words, nwords, fds, 3, &reply);
    free(words);
    if (sock < 0) {
        return LAUNCHER_EXIT_FAILURE;
    }
    daemon_wire_release(&reply);
    unsigned sent = 0;
    int status = follow(sock, &sent);
    close(sock);
    if (status < 0) {
        fprintf(stderr, LAUNCHER_NAME ": lost the daemon before the job ended\n");
        return LAUNCHER_EXIT_FAILURE;
    }
    if (0 != sent && status == 128 + (int)sent) {
        signal((int)sent, SIG_DFL);
        raise((int)sent);
    }
    return status;
}

/* ---- ps, wait, kill, output -------------------------------------------- */

static bool job_id(const char *who, const char *s)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (s[0] < '1' || s[0] > '9' || '\0' != *end || 0 != errno || v > UINT32_MAX) {
        fprintf(stderr, "%s: '%s' is not a job id\n", who, s);
        return false;
    }
    return true;
}

static int ps_command(int argc, char **argv)
{
    bool json = 2 == argc && 0 == strcmp(argv[1], "--json");
    if (argc > 2 || (2 == argc && !json)) {
        fprintf(stderr, "usage: drover ps [--json]\n");
        return LAUNCHER_EXIT_USAGE;
    }
    char *words[] = {"ps", json ? "json" : "text"};
    wire_msg_t reply;
    int sock = request("drover ps", words, 2, NULL, 0, &reply);
    if (sock < 0) {
        return LAUNCHER_EXIT_FAILURE;
    }
    fputs(reply.nwords > 1 ? reply.words[1] : "", stdout);
    daemon_wire_release(&reply);
    close(sock);
    return 0;
}

static int wait_command(int argc, char **argv)
{
    if (2 != argc) {
        fprintf(stderr, "usage: drover wait JOB\n");
        return LAUNCHER_EXIT_USAGE;
    }
    if (!job_id("drover wait", argv[1])) {
        return LAUNCHER_EXIT_USAGE;
    }
    char *words[] = {"wait", argv[1]};
    wire_msg_t reply;
    int sock = request("drover wait", words, 2, NULL, 0, &reply);
    if (sock < 0) {
        return LAUNCHER_EXIT_FAILURE;
    }
    int status = 2 == reply.nwords && 0 == strcmp(reply.words[0], "exit") ? atoi(reply.words[1])
                                                                          : -1;
    daemon_wire_release(&reply);
    close(sock);
    if (status < 0) {
        fprintf(stderr, "drover wait: the daemon ended before job %s\n", argv[1]);
        return LAUNCHER_EXIT_FAILURE;
    }
    return status;
}

static int signal_number(const char *s)
{
    static const struct {
        const char *name;
        int sig;
    } names[] = {{"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"KILL", SIGKILL},
                 {"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"TERM", SIGTERM}, {"CONT", SIGCONT},
                 {"STOP", SIGSTOP}};
    char *end;
    long n = strtol(s, &end, 10);
    if (s[0] >= '0' && s[0] <= '9' && '\0' == *end) {
        return n > 0 && n < NSIG ? (int)n : -1;
    }
    const char *name = 0 == strncmp(s, "SIG", 3) ? s + 3 : s;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (0 == strcmp(name, names[i].name)) {
            return names[i].sig;
        }
    }
    return -1;
}

static int kill_command(int argc, char **argv)
{
    int sig = SIGTERM;
    if (4 == argc && 0 == strcmp(argv[2], "--signal")) {
        if ((sig = signal_number(argv[3])) < 0) {
            fprintf(stderr, "drover kill: unknown signal '%s'\n", argv[3]);
            return LAUNCHER_EXIT_USAGE;
        }
    } else if (2 != argc) {
        fprintf(stderr, "usage: drover kill JOB [--signal S]\n");
        return LAUNCHER_EXIT_USAGE;
    }
    if (!job_id("drover kill", argv[1])) {
        return LAUNCHER_EXIT_USAGE;
    }
    char signo[16];
    snprintf(signo, sizeof(signo), "%d", sig);
    char *words[] = {"kill", argv[1], signo};
    wire_msg_t reply;
    int sock = request("drover kill", words, 3, NULL, 0, &reply);
    if (sock < 0) {
        return LAUNCHER_EXIT_FAILURE;
    }
    daemon_wire_release(&reply);
    close(sock);
    return 0;
}

/* Copy what fd has now to `to`. 0 or -1. */
static int copy_fd(int fd, int to)
{
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(to, buf + off, (size_t)(n - off));
            if (w <= 0) {
                return -1;
            }
            off += w;
        }
    }
    return n < 0 ? -1 : 0;
}

/* Keep copying the job's files until it ends. Returns its status, or -1
 * after a message. */
static int follow_output(const char *id, const int fds[2])
{
    int sock = daemon_connect("drover output");
    if (sock < 0) {
        return -1;
    }
    char *words[] = {"wait", (char *)id};
    int status = -1;
    if (0 == daemon_wire_send(sock, words, 2, NULL, 0)) {
        for (;;) {
            if (0 != copy_fd(fds[0], 1) || 0 != copy_fd(fds[1], 2)) {
                break;
            }
            struct pollfd p = {.fd = sock, .events = POLLIN};
            /* Files give no event for new data: look again now and then. */
            if (poll(&p, 1, 100) > 0) {
                wire_msg_t msg;
                if (0 == daemon_wire_recv(sock, &msg)) {
                    if (2 == msg.nwords && 0 == strcmp(msg.words[0], "exit") &&
                        0 == copy_fd(fds[0], 1) && 0 == copy_fd(fds[1], 2)) {
                        status = atoi(msg.words[1]);
                    }
                    daemon_wire_release(&msg);
                }
                break;
            }
        }
    }
    if (status < 0) {
        fprintf(stderr, "drover output: lost the daemon before job %s ended\n", id);
    }
    close(sock);
    return status;
}

static int output_command(int argc, char **argv)
{
    bool follow = 3 == argc && 0 == strcmp(argv[2], "--follow");
    if (2 != argc && !follow) {
        fprintf(stderr, "usage: drover output JOB [--follow]\n");
        return LAUNCHER_EXIT_USAGE;
    }
    if (!job_id("drover output", argv[1])) {
        return LAUNCHER_EXIT_USAGE;
    }
    char *words[] = {"output", argv[1]};
    wire_msg_t reply;
    int sock = request("drover output", words, 2, NULL, 0, &reply);
    if (sock < 0) {
        return LAUNCHER_EXIT_FAILURE;
    }
    close(sock);
    int fds[2] = {-1, -1}, rc = LAUNCHER_EXIT_FAILURE;
    for (int i = 0; i < 2 && 3 == reply.nwords; i++) {
        fds[i] = open(reply.words[i + 1], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fds[i] < 0) {
            fprintf(stderr, "drover output: cannot open %s: %s\n", reply.words[i + 1],
                    strerror(errno));
        }
    }
    if (fds[0] >= 0 && fds[1] >= 0) {
        if (follow) {
            int status = follow_output(argv[1], fds);
            rc = status < 0 ? LAUNCHER_EXIT_FAILURE : status;
        } else if (0 == copy_fd(fds[0], 1) && 0 == copy_fd(fds[1], 2)) {
            rc = 0;
        }
    }
    for (int i = 0; i < 2; i++) {
        if (fds[i] >= 0) {
            close(fds[i]);
        }
    }
    daemon_wire_release(&reply);
    return rc;
}

const drover_command_t command_submit = {
    .name = "submit",
    .usage = "-n N [run options] program",
    .summary = "queue a job on the daemon; prints its id",
    .run = submit_command,
};

const drover_command_t command_ps = {
    .name = "ps",
    .usage = "[--json]",
    .summary = "the daemon's jobs: state, ranks, times, status",
    .run = ps_command,
};

const drover_command_t command_wait = {
    .name = "wait",
    .usage = "JOB",
    .summary = "wait for a job; exits with its status",
    .run = wait_command,
};

const drover_command_t command_kill = {
    .name = "kill",
    .usage = "JOB [--signal S]",
    .summary = "signal a job (default TERM)",
    .run = kill_command,
};

const drover_command_t command_output = {
    .name = "output",
    .usage = "JOB [--follow]",
    .summary = "a submitted job's stdout and stderr",
    .run = output_command,
};
