/*
 * launch_floor.c - the least a launch daemon can do: a server that, for each
 * connection, starts N processes of a program from two threads at once
 * (vfork and execve, nothing else), waits for all of them and answers;
 * a client that asks for N and waits. No PMIx, no environment made, no
 * session: the floor under `drover run --daemon` in bench/daemon/run.sh.
 *
 *   launch_floor serve SOCKET PROGRAM     (until SIGTERM)
 *   launch_floor run SOCKET N
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char *program;
static int remaining;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *launcher(void *arg)
{
    char *argv[] = {program, NULL};
    for (;;) {
        pthread_mutex_lock(&lock);
        int mine = remaining > 0 ? remaining-- : 0;
        pthread_mutex_unlock(&lock);
        if (0 == mine) {
            return arg;
        }
        if (0 == vfork()) {
            execve(program, argv, environ);
            _exit(127);
        }
    }
}

static int address(const char *path, struct sockaddr_un *sa)
{
    memset(sa, 0, sizeof(*sa));
    sa->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof(sa->sun_path)) {
        return -1;
    }
    strcpy(sa->sun_path, path);
    return socket(AF_UNIX, SOCK_STREAM, 0);
}

static int serve(const char *path)
{
    struct sockaddr_un sa;
    int ls = address(path, &sa);
    if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) != 0 || listen(ls, 16) != 0) {
        perror("launch_floor: listen");
        return 1;
    }
    for (;;) {
        int c = accept(ls, NULL, NULL);
        int n = 0;
        if (c < 0 || read(c, &n, sizeof(n)) != sizeof(n) || n < 1 || n > 4096) {
            if (c >= 0) {
                close(c);
            }
            continue;
        }
        remaining = n;
        pthread_t helper;
        int helped = 0 == pthread_create(&helper, NULL, launcher, NULL);
        launcher(NULL);
        if (helped) {
            pthread_join(helper, NULL);
        }
        int status, worst = 0;
        for (int i = 0; i < n && wait(&status) > 0; i++) {
            worst = status > worst ? status : worst;
        }
        (void)!write(c, &worst, sizeof(worst));
        close(c);
    }
}

static int run(const char *path, int n)
{
    struct sockaddr_un sa;
    int s = address(path, &sa), status = -1;
    if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
        write(s, &n, sizeof(n)) != sizeof(n) ||
        read(s, &status, sizeof(status)) != sizeof(status)) {
        perror("launch_floor: run");
        return 1;
    }
    return 0 == status ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (4 == argc && 0 == strcmp(argv[1], "serve")) {
        program = argv[3];
        return serve(argv[2]);
    }
    if (4 == argc && 0 == strcmp(argv[1], "run")) {
        return run(argv[2], atoi(argv[3]));
    }
    fprintf(stderr, "usage: launch_floor serve SOCKET PROGRAM | run SOCKET N\n");
    return 2;
}
