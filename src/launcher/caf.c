/*
 * caf.c - `drover caf`: compile and link a coarray Fortran program with
 * libcaf_drover.
 *
 * Runs gfortran (or $DROVER_FC) with -fcoarray=lib and the user's arguments
 * as given; when the command links, it adds the directory of libcaf_drover
 * (-L and an rpath, so the program finds the library without
 * LD_LIBRARY_PATH) and -lcaf_drover. The library directory is the install
 * location, or the build tree's when this drover runs from the build tree;
 * $DROVER_CAF_LIBDIR overrides both.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"

static const char *library_dir(void)
{
    const char *env = getenv("DROVER_CAF_LIBDIR");
    if (env && *env) {
        return env;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n > 0) {
        exe[n] = '\0';
        if (0 == strcmp(exe, DROVER_BUILD_EXE)) {
            return DROVER_CAF_BUILD_LIBDIR;
        }
    }
    return DROVER_CAF_INSTALL_LIBDIR;
}

/* Options after which gfortran does not link. */
static bool stops_before_link(const char *arg)
{
    static const char *const options[] = {"-c", "-S", "-E", "-M", "-MM", "-fsyntax-only"};
    for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
        if (0 == strcmp(arg, options[i])) {
            return true;
        }
    }
    return false;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "drover caf: no source or object files (usage: drover caf "
                        "[gfortran options] files...)\n");
        return 2;
    }
    bool link = true;
    for (int i = 1; i < argc; i++) {
        if (0 == strncmp(argv[i], "-fcoarray", 9)) {
            fprintf(stderr, "drover caf: '%s' conflicts with the -fcoarray=lib drover caf "
                            "sets\n", argv[i]);
            return 2;
        }
        if (stops_before_link(argv[i])) {
            link = false;
        }
    }
    const char *fc = getenv("DROVER_FC");
    if (NULL == fc || '\0' == *fc) {
        fc = "gfortran";
    }
    const char *dir = library_dir();
    size_t dirlen = strlen(dir);
    char *libpath = malloc(dirlen + 3);
    char *rpath = malloc(dirlen + 12);
    char **args = calloc((size_t)argc + 6, sizeof(char *));
    if (NULL == libpath || NULL == rpath || NULL == args) {
        fprintf(stderr, "drover caf: out of memory\n");
        free(libpath);
        free(rpath);
        free(args);
        return 1;
    }
    sprintf(libpath, "-L%s", dir);
    sprintf(rpath, "-Wl,-rpath,%s", dir);
    int n = 0;
    args[n++] = (char *)fc;
    args[n++] = "-fcoarray=lib";
    for (int i = 1; i < argc; i++) {
        args[n++] = argv[i];
    }
    if (link) {
        args[n++] = libpath;
        args[n++] = rpath;
        args[n++] = "-lcaf_drover";
    }
    args[n] = NULL;
    fflush(NULL);
    execvp(fc, args);
    fprintf(stderr, "drover caf: cannot run %s: %s\n", fc, strerror(errno));
    free(libpath);
    free(rpath);
    free(args);
    return 127;
}

const drover_command_t command_caf = {
    .name = "caf",
    .usage = "[gfortran options] files...",
    .summary = "compile and link a coarray Fortran program with libcaf_drover",
    .run = run,
};
