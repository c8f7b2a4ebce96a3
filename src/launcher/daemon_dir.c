/*
 * daemon_dir.c - the daemon's per-user state directory.
 *
 * Design notes:
 *  - Where it is and how it is checked is common/statedir.c's (a tool
 *    finds the daemon's rendezvous there too): a symbolic link or another
 *    user's directory is refused, never used or repaired. Once checked,
 *    nobody else can change what is in it, so the paths under it are safe
 *    to use.
 *  - Commands check it the same way before they connect (daemon_connect),
 *    and that the daemon runs as their user: a daemon socket planted by
 *    someone else would otherwise receive the user's jobs and environment.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon.h"
#include "rmtree.h"
#include "statedir.h"

int daemon_dir_join(char *buf, size_t size, const char *dir, const char *name)
{
    int n = snprintf(buf, size, "%s/%s", dir, name);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

int daemon_dir_open(char *path, bool create, const char *who)
{
    const char *why;
    if (0 != statedir_path(path, PATH_MAX)) {
        fprintf(stderr, "%s: the state directory's path is too long\n", who);
        return -1;
    }
    if (create && 0 != mkdir(path, 0700) && EEXIST != errno) {
        fprintf(stderr, "%s: cannot create %s: %s\n", who, path, strerror(errno));
        return -1;
    }
    int fd = statedir_open(path, &why);
    if (fd < 0 && ENOENT == errno) {
        fprintf(stderr, "%s: not running (no %s)\n", who, path);
    } else if (fd < 0 && EPERM == errno) {
        fprintf(stderr, "%s: refusing %s: %s\n", who, path, why);
    } else if (fd < 0) {
        fprintf(stderr, "%s: cannot open %s: %s\n", who, path, why);
    }
    return fd;
}

void daemon_dir_remove_if(int dirfd, const char *sub, bool (*doomed)(void *arg, const char *name),
                          void *arg)
{
    int fd = openat(dirfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *dir = fd < 0 ? NULL : fdopendir(fd);
    struct dirent *e;
    if (NULL == dir) {
        if (fd >= 0) {
            close(fd);
        }
        return;
    }
    while (NULL != (e = readdir(dir))) {
        if (0 != strcmp(e->d_name, ".") && 0 != strcmp(e->d_name, "..") &&
            doomed(arg, e->d_name)) {
            rmtree_at(fd, e->d_name, geteuid(), true);
        }
    }
    closedir(dir);
}

int daemon_dir_socket(struct sockaddr_un *sa, const char *dir)
{
    *sa = (struct sockaddr_un){.sun_family = AF_UNIX};
    return daemon_dir_join(sa->sun_path, sizeof(sa->sun_path), dir, DAEMON_SOCKET);
}

int daemon_connect(const char *who)
{
    char dir[PATH_MAX];
    int dirfd = daemon_dir_open(dir, false, who);
    if (dirfd < 0) {
        return -1;
    }
    close(dirfd);
    struct sockaddr_un sa;
    if (0 != daemon_dir_socket(&sa, dir)) {
        fprintf(stderr, "%s: the socket's path is too long (%s)\n", who, dir);
        return -1;
    }
    int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (sock < 0) {
        fprintf(stderr, "%s: cannot make a socket: %s\n", who, strerror(errno));
        return -1;
    }
    if (0 != connect(sock, (struct sockaddr *)&sa, sizeof(sa))) {
        int err = errno;
        close(sock);
        if (ENOENT == err || ECONNREFUSED == err) {
            fprintf(stderr, "%s: the drover daemon is not running (drover daemon start)\n", who);
        } else {
            fprintf(stderr, "%s: cannot reach the daemon at %s: %s\n", who, sa.sun_path,
                    strerror(err));
        }
        return -1;
    }
    uid_t uid;
    pid_t pid;
    if (0 != daemon_wire_peer(sock, &uid, &pid) || uid != geteuid()) {
        fprintf(stderr, "%s: refusing the daemon at %s: it is not this user's\n", who,
                sa.sun_path);
        close(sock);
        return -1;
    }
    return sock;
}
