/*
 * fuzz_pmi_seed.c - writes a seed corpus for fuzz_pmi1, fuzz_pmi2 and
 * fuzz_pmi_server: what MPICH's PMI-1 and PMI-2 clients send, from init
 * on.
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
    "51    cmd=fullinit;pmirank=0;pmijobid=kvs;threaded=FALSE;",
    "43    cmd=kvs-put;key=k;value=a;;b;cmd=x;thrid=1;",
    "22    cmd=kvs-fence;thrid=2;",
    "76    cmd=spawn;ncmds=1;preputcount=0;subcmd=spawn-exe1;maxprocs=1;argc=1;argv0=x;",
    "cmd=init pmi_version=1 pmi_subversion=1\ncmd=get_maxes\ncmd=get_my_kvsname\n"
    "cmd=put kvsname=x key=k value=v\ncmd=barrier_in\ncmd=get kvsname=x key=k\n"
    "cmd=get kvsname=x key=PMI_process_mapping\ncmd=publish_name service=s port=p\n"
    "cmd=lookup_name service=s\ncmd=unpublish_name service=s\ncmd=finalize\n",
    "cmd=init pmi_version=2 pmi_subversion=0\n"
    "38    cmd=fullinit;pmirank=0;threaded=FALSE;"
    "29    cmd=kvs-put;key=k;value=a;;b;"
    "14    cmd=kvs-fence;"
    "26    cmd=kvs-get;key=k;srcid=0;"
    "43    cmd=info-putnodeattr;key=n;value=v;thrid=1;"
    "37    cmd=info-getnodeattr;key=n;wait=TRUE;"
    "13    cmd=finalize;",
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
