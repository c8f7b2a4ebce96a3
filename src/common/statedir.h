/*
 * statedir.h - the user's drover state directory, where the daemon keeps
 * its socket, its files and the system-server rendezvous (statedir.c).
 */
#ifndef DROVER_STATEDIR_H
#define DROVER_STATEDIR_H

#include <stdbool.h>
#include <stddef.h>

/* The name of the rendezvous file the daemon writes in the state
 * directory, as OpenPMIx names a system server's: "pmix.sys.<host>". */
#define STATEDIR_SYSTEM_PREFIX "pmix.sys."

/* The state directory's path into path (size bytes): $XDG_RUNTIME_DIR/
 * drover when that is an absolute path, else /tmp/drover-<uid>. 0, or -1
 * when it does not fit. */
int statedir_path(char *path, size_t size);

/* Open the directory at path (O_DIRECTORY, never through a symbolic
 * link) and check that it is this user's alone: owned by the effective
 * uid, no group or other access. Returns the fd (caller closes), or -1
 * with *why set (static text) and errno: EPERM when the directory is
 * refused, the open's error when it could not be opened. */
int statedir_open(const char *path, const char **why);

/* The system rendezvous file's name for this host into name (size
 * bytes). 0, or -1 when it does not fit. */
int statedir_system_name(char *name, size_t size);

#endif /* DROVER_STATEDIR_H */
