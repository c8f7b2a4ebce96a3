/*
 * fuzz_server_seed.c - writes a seed corpus for fuzz_server: one
 * well-formed request of each kind, and a few node and rank maps.
 *
 * usage: fuzz_server_seed DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmix.h"
#include "protocol.h"

static const char *dir;
static int count;

static void write_seed(uint8_t selector, const void *body, size_t size)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/server-seed-%02d", dir, count++);
    FILE *f = fopen(path, "wb");
    if (NULL == f) {
        perror(path);
        exit(1);
    }
    fwrite(&selector, 1, 1, f);
    fwrite(body, 1, size, f);
    fclose(f);
}

static void seed_buffer(uint16_t command, pmix_data_buffer_t *b)
{
    write_seed((uint8_t)command, b->base_ptr, b->bytes_used);
    PMIX_DATA_BUFFER_DESTRUCT(b);
    PMIX_DATA_BUFFER_CONSTRUCT(b);
}

int main(int argc, char **argv)
{
    pmix_data_buffer_t b;
    pmix_proc_t me, peer;
    pmix_info_t info[2];
    uint32_t commits = 0;
    int timeout = 1;
    bool yes = true;
    pid_t pid = 1;
    char *key = "seed.key", *msg = "message";
    pmix_status_t code = PMIX_ERROR;
    pmix_data_range_t range = PMIX_RANGE_NAMESPACE;

    if (2 != argc) {
        fprintf(stderr, "usage: fuzz_server_seed DIR\n");
        return 2;
    }
    dir = argv[1];
    PMIX_LOAD_PROCID(&me, "fuzz.job", 0);
    PMIX_LOAD_PROCID(&peer, "fuzz.job", 1);
    PMIx_Info_load(&info[0], PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    PMIx_Info_load(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
    PMIX_DATA_BUFFER_CONSTRUCT(&b);

    PMIx_Data_pack(NULL, &b, &me, 1, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, &pid, 1, PMIX_PID);
    PMIx_Data_pack(NULL, &b, info, 1, PMIX_INFO);
    PMIx_Data_pack(NULL, &b, &yes, 1, PMIX_BOOL);
    seed_buffer(PROTOCOL_HELLO, &b);

    PMIx_Data_pack(NULL, &b, info, 2, PMIX_INFO);
    PMIx_Data_pack(NULL, &b, NULL, 0, PMIX_INFO);
    PMIx_Data_pack(NULL, &b, info, 1, PMIX_INFO);
    seed_buffer(PROTOCOL_COMMIT, &b);

    PMIx_Data_pack(NULL, &b, &commits, 1, PMIX_UINT32);
    PMIx_Data_pack(NULL, &b, &me, 1, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, info, 2, PMIX_INFO);
    seed_buffer(PROTOCOL_FENCE, &b);

    PMIx_Data_pack(NULL, &b, &commits, 1, PMIX_UINT32);
    PMIx_Data_pack(NULL, &b, &peer, 1, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, &key, 1, PMIX_STRING);
    PMIx_Data_pack(NULL, &b, info + 1, 1, PMIX_INFO);
    PMIx_Data_pack(NULL, &b, &yes, 1, PMIX_BOOL);
    PMIx_Data_pack(NULL, &b, &yes, 1, PMIX_BOOL);
    seed_buffer(PROTOCOL_GET, &b);

    PMIx_Data_pack(NULL, &b, &code, 1, PMIX_STATUS);
    PMIx_Data_pack(NULL, &b, &me, 1, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, &range, 1, PMIX_DATA_RANGE);
    PMIx_Data_pack(NULL, &b, info, 2, PMIX_INFO);
    seed_buffer(PROTOCOL_NOTIFY, &b);

    PMIx_Data_pack(NULL, &b, &code, 1, PMIX_STATUS);
    PMIx_Data_pack(NULL, &b, &msg, 1, PMIX_STRING);
    PMIx_Data_pack(NULL, &b, &peer, 1, PMIX_PROC);
    seed_buffer(PROTOCOL_ABORT, &b);

    PMIx_Data_pack(NULL, &b, &me, 1, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, info, 2, PMIX_INFO);
    seed_buffer(PROTOCOL_JOB_CONTROL, &b);
    PMIx_Data_pack(NULL, &b, &me, 1, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, info, 2, PMIX_INFO);
    seed_buffer(PROTOCOL_CONNECT, &b);

    PMIx_Data_pack(NULL, &b, &key, 1, PMIX_STRING);
    PMIx_Data_pack(NULL, &b, info, 1, PMIX_INFO);
    seed_buffer(PROTOCOL_LOOKUP, &b);

    /* The group, I/O forwarding, credential and relayed requests. */
    char *grp = "seed.group";
    pmix_proc_t all, pair[2] = {me, peer};
    PMIX_LOAD_PROCID(&all, "fuzz.job", PMIX_RANK_WILDCARD);
    PMIx_Data_pack(NULL, &b, &grp, 1, PMIX_STRING);
    PMIx_Data_pack(NULL, &b, &all, 1, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, info, 2, PMIX_INFO);
    seed_buffer(PROTOCOL_GROUP_CONSTRUCT, &b);
    PMIx_Data_pack(NULL, &b, &grp, 1, PMIX_STRING);
    PMIx_Data_pack(NULL, &b, pair, 2, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, info + 1, 1, PMIX_INFO);
    seed_buffer(PROTOCOL_GROUP_INVITE, &b);
    PMIx_Data_pack(NULL, &b, &grp, 1, PMIX_STRING);
    PMIx_Data_pack(NULL, &b, &peer, 1, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, &yes, 1, PMIX_BOOL);
    PMIx_Data_pack(NULL, &b, info + 1, 1, PMIX_INFO);
    seed_buffer(PROTOCOL_GROUP_JOIN, &b);
    PMIx_Data_pack(NULL, &b, &grp, 1, PMIX_STRING);
    PMIx_Data_pack(NULL, &b, NULL, 0, PMIX_INFO);
    seed_buffer(PROTOCOL_GROUP_LEAVE, &b);
    size_t handler = 3;
    pmix_iof_channel_t channels = PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL;
    PMIx_Data_pack(NULL, &b, &handler, 1, PMIX_SIZE);
    PMIx_Data_pack(NULL, &b, &peer, 1, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, &channels, 1, PMIX_IOF_CHANNEL);
    PMIx_Data_pack(NULL, &b, NULL, 0, PMIX_INFO);
    seed_buffer(PROTOCOL_IOF_PULL, &b);
    pmix_byte_object_t bytes = {.bytes = "stdin\n", .size = 6};
    PMIx_Data_pack(NULL, &b, &peer, 1, PMIX_PROC);
    PMIx_Data_pack(NULL, &b, &bytes, 1, PMIX_BYTE_OBJECT);
    PMIx_Data_pack(NULL, &b, NULL, 0, PMIX_INFO);
    seed_buffer(PROTOCOL_IOF_PUSH, &b);
    PMIx_Data_pack(NULL, &b, NULL, 0, PMIX_INFO);
    seed_buffer(PROTOCOL_GET_CREDENTIAL, &b);
    PMIx_Data_pack(NULL, &b, &bytes, 1, PMIX_BYTE_OBJECT);
    PMIx_Data_pack(NULL, &b, info + 1, 1, PMIX_INFO);
    seed_buffer(PROTOCOL_VALIDATE_CREDENTIAL, &b);
    pmix_alloc_directive_t directive = PMIX_ALLOC_NEW;
    PMIx_Data_pack(NULL, &b, &directive, 1, PMIX_ALLOC_DIRECTIVE);
    PMIx_Data_pack(NULL, &b, info, 2, PMIX_INFO);
    seed_buffer(PROTOCOL_ALLOCATE, &b);
    PMIx_Data_pack(NULL, &b, info, 1, PMIX_INFO);
    PMIx_Data_pack(NULL, &b, &code, 1, PMIX_STATUS);
    PMIx_Data_pack(NULL, &b, NULL, 0, PMIX_INFO);
    seed_buffer(PROTOCOL_MONITOR, &b);
    uint8_t op = PMIX_FABRIC_REQUEST_INFO;
    PMIx_Data_pack(NULL, &b, &op, 1, PMIX_UINT8);
    PMIx_Data_pack(NULL, &b, info, 1, PMIX_INFO);
    seed_buffer(PROTOCOL_FABRIC, &b);

    const char *maps[] = {"pmix:n[2:1-3],login", "pmix:0-3;4-5,7;6", "a,b,c", "raw:0,1;2"};
    for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
        write_seed(0xff, maps[i], strlen(maps[i]));
    }
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    printf("%d seeds\n", count);
    return 0;
}
