/*
 * rmtree.c - removing files and directory trees that another user cannot
 * redirect.
 *
 * Design notes:
 *  - A path walk (nftw, then remove() of each full path) resolves every
 *    path again at each step: a user who can write to a directory on the
 *    way (a name they pre-created under /dev/shm or /tmp) swaps a
 *    directory for a symlink between two steps, and what the symlink
 *    points to is removed instead, with the remover's rights.
 *  - Here every step is relative to a directory descriptor: an entry is
 *    examined with fstatat(AT_SYMLINK_NOFOLLOW), a directory is opened
 *    with openat(O_NOFOLLOW | O_DIRECTORY) and must be the very inode
 *    examined, and names are removed with unlinkat. A symlink is never
 *    followed; at worst the symlink itself is removed.
 *  - Only what the owner owns is removed or entered: a directory of
 *    anyone else is left alone with all it holds. Mount points are not
 *    crossed, and the depth is bounded (each level holds a descriptor).
 *  - A tree named by a path (the server's cleanup registrations) is
 *    reached through rmtree_open_parent, which refuses a path on which
 *    another user could swap a directory or plant a symlink.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rmtree.h"

/* Deeper trees are left in place rather than run out of descriptors. */
#define MAX_DEPTH 64

static int remove_at(int dirfd, const char *name, uid_t owner, dev_t dev, bool recursive,
                     unsigned depth);

/* Remove what the directory open as fd holds; closes fd. Returns 0, or
 * ENOTEMPTY when something had to stay. */
static int empty_dir(int fd, uid_t owner, dev_t dev, unsigned depth)
{
    DIR *d = fdopendir(fd);
    if (NULL == d) {
        close(fd);
        return errno;
    }
    int rc = 0;
    struct dirent *e;
    while (NULL != (e = readdir(d))) {
        if (0 == strcmp(e->d_name, ".") || 0 == strcmp(e->d_name, "..")) {
            continue;
        }
        if (0 != remove_at(dirfd(d), e->d_name, owner, dev, true, depth)) {
            rc = ENOTEMPTY;
        }
    }
    closedir(d);
    return rc;
}

static int remove_at(int dirfd, const char *name, uid_t owner, dev_t dev, bool recursive,
                     unsigned depth)
{
    struct stat st;
    if (0 != fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
        return ENOENT == errno ? 0 : errno;
    }
    if (st.st_uid != owner) {
        return EPERM;
    }
    if (!S_ISDIR(st.st_mode)) {
        return 0 == unlinkat(dirfd, name, 0) || ENOENT == errno ? 0 : errno;
    }
    if (recursive) {
        if (st.st_dev != dev) {
            return EXDEV;
        }
        if (depth >= MAX_DEPTH) {
            return ELOOP;
        }
        int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            return errno;
        }
        /* The name may have been swapped since fstatat: only the
         * directory examined is emptied. */
        struct stat opened;
        if (0 != fstat(fd, &opened) || opened.st_dev != st.st_dev || opened.st_ino != st.st_ino) {
            close(fd);
            return EAGAIN;
        }
        int rc = empty_dir(fd, owner, dev, depth + 1);
        if (0 != rc) {
            return rc;
        }
    }
    return 0 == unlinkat(dirfd, name, AT_REMOVEDIR) || ENOENT == errno ? 0 : errno;
}

int rmtree_at(int dirfd, const char *name, uid_t owner, bool recursive)
{
    struct stat st;
    if (0 != fstat(dirfd, &st)) {
        return errno;
    }
    return remove_at(dirfd, name, owner, st.st_dev, recursive, 0);
}

void rmtree_contents(int fd, uid_t owner)
{
    struct stat st;
    int copy = dup(fd);
    if (copy < 0) {
        return;
    }
    if (0 != fstat(copy, &st) || 0 != lseek(copy, 0, SEEK_SET)) {
        close(copy);
        return;
    }
    empty_dir(copy, owner, st.st_dev, 0);
}

/* Whether no user but root and owner can change the entries of a
 * directory with this status. */
static bool trusted(const struct stat *st, uid_t owner)
{
    return S_ISDIR(st->st_mode) && (0 == st->st_uid || owner == st->st_uid) &&
           (0 == (st->st_mode & (S_IWGRP | S_IWOTH)) || 0 != (st->st_mode & S_ISVTX));
}

/* Follow path from the trusted directory fd (which it takes), one component
 * at a time: every directory entered must be trusted, and a symlink is
 * followed only if root or owner made it (in a trusted directory, no one
 * else can have put it there). Returns an O_PATH descriptor of the
 * directory reached, or -1 with errno. */
static int walk(int fd, const char *path, uid_t owner, unsigned *links)
{
    char *copy = strdup(path), *save = NULL;
    if (NULL == copy) {
        close(fd);
        errno = ENOMEM;
        return -1;
    }
    if ('/' == path[0]) {
        struct stat st;
        if (fd >= 0) {
            close(fd);
        }
        fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0 && (0 != fstat(fd, &st) || !trusted(&st, owner))) {
            close(fd);
            fd = -1;
            errno = EPERM;
        }
    }
    for (char *part = strtok_r(copy, "/", &save); NULL != part && fd >= 0;
         part = strtok_r(NULL, "/", &save)) {
        struct stat st;
        int err = 0;
        if (0 == strcmp(part, ".")) {
            continue;
        }
        if (0 != fstatat(fd, part, &st, AT_SYMLINK_NOFOLLOW)) {
            err = errno;
        } else if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            ssize_t n = readlinkat(fd, part, target, sizeof(target) - 1);
            if (++*links > 40) {
                err = ELOOP;
            } else if (0 != st.st_uid && owner != st.st_uid) {
                err = EPERM;
            } else if (n <= 0) {
                err = n < 0 ? errno : ENOENT;
            } else {
                target[n] = '\0';
                fd = walk(fd, target, owner, links);
                continue;
            }
        } else {
            int next = openat(fd, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            err = next < 0 ? errno : 0 != fstat(next, &st) ? errno : trusted(&st, owner) ? 0 : EPERM;
            close(fd);
            fd = next;
        }
        if (0 != err) {
            if (fd >= 0) {
                close(fd);
            }
            fd = -1;
            errno = err;
        }
    }
    free(copy);
    return fd;
}

int rmtree_open_parent(const char *path, uid_t owner, const char **name)
{
    const char *slash = strrchr(path, '/');
    if ('/' != path[0] || '\0' == slash[1] || 0 == strcmp(slash + 1, ".") ||
        0 == strcmp(slash + 1, "..")) {
        errno = EINVAL;
        return -1;
    }
    char *dir = strndup(path, (size_t)(slash - path) + 1);
    if (NULL == dir) {
        errno = ENOMEM;
        return -1;
    }
    unsigned links = 0;
    int fd = walk(-1, dir, owner, &links);
    free(dir);
    *name = slash + 1;
    return fd;
}
