/*
 * fuzz_jobfile_seed.c - writes the seed corpus of fuzz_jobfile: job files
 * using every key, and broken ones of each kind, each with and without the
 * overriding command line (the first byte).
 *
 * Usage: fuzz_jobfile_seed DIR
 */
#include <stdio.h>
#include <stdlib.h>

static const char *const files[] = {
    "env: {A: job, B: job}\ntimeout: 30\ngrace: 1\nmap-by: core\nbind-to: none\n"
    "oversubscribe: true\nuse-hwthread-cpus: false\ntag-output: true\nno-libpmix-path: false\n"
    "types: t.yml\nwdir: /tmp\napps:\n  - program: a\n    args: [x, 'y z']\n    count: 2\n"
    "    env: {B: app}\n    wdir: sub\n  - {program: b}\n",
    "apps: [{program: a, count: 0}, {args: {a: 1}}, 3, {program: [x]}]\ntiemout: 3\n",
    "apps:\n  - &A {program: a, count: 2}\n  - *A\n  - *A\nenv: &E {X: '1'}\n",
    "apps: [{program: a, count: 1, count: 2}]\ntimeout: 1\ntimeout: 2\n",
    "apps: [{program: a}\ntimeout: 1\n",
    "a0: &a0 [x, x, x]\na1: &a1 [*a0, *a0, *a0]\napps: [{program: a, args: *a1}]\n",
    "--- {apps: [{program: a}]}\n--- {apps: []}\n",
    "",
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_jobfile_seed DIR\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        for (unsigned char mode = 0; mode < 2; mode++) {
            char path[4096];
            snprintf(path, sizeof(path), "%s/job-%zu-%u", argv[1], i, mode);
            FILE *f = fopen(path, "wb");
            if (NULL == f) {
                perror(path);
                return 1;
            }
            fputc(mode, f);
            fputs(files[i], f);
            fclose(f);
        }
    }
    return 0;
}
