/*
 * fuzz_pmi_seed.c - writes a seed corpus for fuzz_pmi1 and fuzz_pmi2:
 * what MPICH's PMI-1 and PMI-2 clients send.
 *
 * usage: fuzz_pmi_seed DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const seeds[] = {
    "cmd=init pmi_version=1 pmi_subversion=1\ncmd=get_maxes\ncmd=get_appnum\n",
    "cmd=put kvsname=kvs_1 key=-bcast-1-0 value=2F6465762F73686D\ncmd=barrier_in\n",
    "cmd=get kvsname=kvs_1 key=PMI_process_mapping\n",
    "mcmd=spawn\nnprocs=2\nexecname=./child\ntotspawns=1\nspawnssofar=1\narg1=a b\nargcnt=1\n"
    "preput_num=0\ninfo_num=1\ninfo_key_0=wdir\ninfo_val_0=/tmp\nendcmd\n",
    "cmd=abort exitcode=7\n",
    "44    cmd=fullinit;pmirank=0;pmijobid=kvs;threaded=FALSE;",
    "40    cmd=kvs-put;key=k;value=a;;b;cmd=x;thrid=1;",
    "20    cmd=kvs-fence;thrid=2;",
    "61    cmd=spawn;ncmds=1;preputcount=0;subcmd=spawn-exe1;maxprocs=1;argc=1;argv0=x;",
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/pmi-seed-%02zu", argv[1], i);
        FILE *f = fopen(path, "wb");
        if (NULL == f) {
            perror(path);
            return 1;
        }
        fwrite(seeds[i], 1, strlen(seeds[i]), f);
        fclose(f);
    }
    return 0;
}
