/*
 * fuzz_jobfile.c - libFuzzer harness for `drover run`'s YAML job files
 * (src/launcher/jobfile.c): arbitrary text is read as the job file of
 * `drover run --job FILE`, after a command line that overrides part of it
 * when the first byte is odd. Nothing may crash, leak or take long (the
 * YAML reader's limits bound every input), and a file that is accepted
 * must describe a job that can be started: at least one app, each with a
 * program and 1 to 65535 ranks, and the job's total in -n's place.
 *
 * The seed corpus comes from fuzz_jobfile_seed.c; run-fuzz.sh drives both.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "launcher.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void broken(const char *what)
{
    fprintf(stderr, "fuzz_jobfile: %s\n", what);
    abort();
}

static void check_job(const launcher_options_t *opts, const char *cli_count)
{
    const jobfile_t *jf = opts->jobfile;
    if (NULL == jf || 0 == jf->napps || NULL == jf->apps) {
        broken("an accepted job file without apps");
    }
    unsigned total = 0;
    for (unsigned a = 0; a < jf->napps; a++) {
        const jobfile_app_t *app = &jf->apps[a];
        if (NULL == app->argv || NULL == app->argv[0] || '\0' == app->argv[0][0] ||
            NULL == app->env) {
            broken("an accepted app without a program or environment");
        }
        if (0 == app->count || app->count > OPTIONS_MAX_RANKS ||
            (NULL != cli_count && app->count != (unsigned)atoi(cli_count))) {
            broken("an accepted app with a wrong count");
        }
        total += app->count;
    }
    if (total != opts->nranks || opts->argv != jf->apps[0].argv) {
        broken("the job's ranks are not the apps' total");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("job.yml", MFD_CLOEXEC);
        if (fd < 0) {
            broken("no memfd");
        }
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    }
    if (0 == size || 0 != ftruncate(fd, 0) ||
        (ssize_t)(size - 1) != pwrite(fd, data + 1, size - 1, 0)) {
        return 0;
    }
    char *plain[] = {"run", "--job", path, NULL};
    char *cli[] = {"run", "-n", "3", "--timeout", "5", "-x", "A=1", "--job", path, NULL};
    bool with_cli = data[0] & 1;
    char **argv = with_cli ? cli : plain;
    int argc = with_cli ? 9 : 3;
    launcher_options_t opts;
    if (OPTIONS_RUN != options_parse(argc, argv, &opts)) {
        broken("the harness's command line does not parse");
    }
    if (0 == jobfile_apply(&opts)) {
        check_job(&opts, with_cli ? "3" : NULL);
    }
    options_release(&opts);
    return 0;
}
