/*
 * rmtree.h - removing files and directory trees that another user cannot
 * redirect (see rmtree.c).
 */
#ifndef DROVER_RMTREE_H
#define DROVER_RMTREE_H

#include <stdbool.h>
#include <sys/types.h>

/* Remove the entry name of the directory open as dirfd: a file is
 * unlinked, a directory emptied (recursively) and removed. Nothing is
 * followed through a symlink, nothing but what owner owns is removed or
 * entered, and nothing on another filesystem. With recursive false a
 * directory is removed only if it is empty. Returns 0 when name is gone
 * (or was not there), else an errno: EPERM when it is not owner's,
 * ENOTEMPTY when something in it had to stay. */
int rmtree_at(int dirfd, const char *name, uid_t owner, bool recursive);

/* Remove every entry of the directory open as fd as rmtree_at would,
 * leaving the directory itself; fd stays open. */
void rmtree_contents(int fd, uid_t owner);

/* Open the directory holding the last component of the absolute path,
 * provided no user but root and owner can change what path names: every
 * directory on the way, from "/", must be owned by root or owner and
 * writable by no one else unless sticky, and a symlink on the way is
 * followed only if root or owner made it. Returns an O_PATH descriptor
 * (caller closes) and points *name at the last component within path, or
 * -1 with errno (EPERM: something on the path is not trusted). */
int rmtree_open_parent(const char *path, uid_t owner, const char **name);

#endif /* DROVER_RMTREE_H */
