/*
 * client_iof.c - I/O forwarding between two ranks: rank 0 pulls rank 1's
 * stdout and stderr (minihost captures them and hands them to
 * PMIx_server_IOF_deliver), pushes lines to rank 1's stdin, which echoes
 * them, closes that stdin (PMIX_IOF_COMPLETE), and deregisters. Run as
 * "client_iof full" (the host forwards stdin) and "client_iof bare" (no
 * push_stdin: pushing is not supported, pulling still works).
 */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "pmix_tool.h"

pmix_proc_t me;
static bool full;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char out[4096], err[4096];   /* what rank 0 received */
static volatile bool bad_callback;

static void fence(void)
{
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "fence");
}

static void received(size_t iofhdlr, pmix_iof_channel_t channel, pmix_proc_t *source,
                     pmix_byte_object_t *payload, pmix_info_t info[], size_t ninfo)
{
    char *into = PMIX_FWD_STDOUT_CHANNEL == channel ? out : err;
    CHECK(1 == source->rank && PMIX_CHECK_NSPACE(source->nspace, me.nspace), "output source");
    pthread_mutex_lock(&lock);
    size_t len = strlen(into);
    if (len + payload->size < sizeof(out)) {
        memcpy(into + len, payload->bytes, payload->size);
        into[len + payload->size] = '\0';
    }
    pthread_mutex_unlock(&lock);
}

/* Wait (bounded) for text to show up in the received output. */
static bool arrives(const char *buf, const char *text)
{
    struct timespec tick = {.tv_nsec = 10 * 1000 * 1000};
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&lock);
        bool found = NULL != strstr(buf, text);
        pthread_mutex_unlock(&lock);
        if (found) {
            return true;
        }
        nanosleep(&tick, NULL);
    }
    return false;
}

static void never_op(pmix_status_t status, void *cbdata)
{
    bad_callback = true;
}

static void never_reg(pmix_status_t status, size_t ref, void *cbdata)
{
    bad_callback = true;
}

static void push(const char *text)
{
    pmix_proc_t target;
    pmix_byte_object_t bo = {.bytes = (char *)text, .size = strlen(text)};
    PMIX_LOAD_PROCID(&target, me.nspace, 1);
    CHECK_RC(PMIx_IOF_push(&target, 1, &bo, NULL, 0, NULL, NULL),
             full ? PMIX_SUCCESS : PMIX_ERR_NOT_SUPPORTED, "push");
}

static void rank0(void)
{
    pmix_proc_t source;
    pmix_info_t complete;
    pmix_status_t ref;

    PMIX_LOAD_PROCID(&source, me.nspace, 1);
    ref = PMIx_IOF_pull(&source, 1, NULL, 0, PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL,
                        received, NULL, NULL);
    CHECK(ref >= 0, "pull: %s", PMIx_Error_string(ref));
    fence(); /* 1: pulling */
    CHECK(arrives(out, "hello from 1\n"), "rank 1's stdout (got '%s')", out);
    CHECK(arrives(err, "complaint from 1\n"), "rank 1's stderr (got '%s')", err);
    CHECK(NULL == strstr(out, "complaint"), "channels kept apart");
    push("ping\n");
    if (full) {
        CHECK(arrives(out, "echo:ping\n"), "echo of pushed stdin (got '%s')", out);
        PMIX_INFO_LOAD(&complete, PMIX_IOF_COMPLETE, NULL, PMIX_BOOL);
        CHECK_RC(PMIx_IOF_push(&source, 1, NULL, &complete, 1, NULL, NULL), PMIX_SUCCESS,
                 "close rank 1's stdin");
        PMIX_INFO_DESTRUCT(&complete);
        CHECK(arrives(out, "stdin closed\n"), "end of pushed stdin (got '%s')", out);
    }
    fence(); /* 2: pushing done */
    CHECK_RC(PMIx_IOF_deregister((size_t)ref, NULL, 0, NULL, NULL), PMIX_SUCCESS, "deregister");
    CHECK_RC(PMIx_IOF_deregister((size_t)ref, NULL, 0, NULL, NULL), PMIX_ERR_NOT_FOUND,
             "deregister twice");
    fence(); /* 3: no longer pulling */
    fence(); /* 4: rank 1 wrote more */
    struct timespec grace = {.tv_nsec = 300 * 1000 * 1000};
    nanosleep(&grace, NULL);
    CHECK(NULL == strstr(out, "after deregistration"), "output after deregistration");

    /* Bad arguments: errors, and no callback. */
    CHECK_RC(PMIx_IOF_pull(&source, 1, NULL, 0, PMIX_FWD_STDIN_CHANNEL, received, never_reg,
                           NULL),
             PMIX_ERR_BAD_PARAM, "pull of stdin");
    CHECK_RC(PMIx_IOF_pull(NULL, 0, NULL, 0, PMIX_FWD_STDOUT_CHANNEL, received, never_reg, NULL),
             PMIX_ERR_BAD_PARAM, "pull of no one");
    CHECK_RC(PMIx_IOF_push(NULL, 0, NULL, NULL, 0, never_op, NULL), PMIX_ERR_BAD_PARAM,
             "push to no one");
    CHECK_RC(PMIx_IOF_push(&source, 1, NULL, NULL, 0, never_op, NULL), PMIX_ERR_BAD_PARAM,
             "push of nothing");
    CHECK_RC(PMIx_IOF_deregister(12345, NULL, 0, never_op, NULL), PMIX_ERR_NOT_FOUND,
             "deregister unknown");
}

static void rank1(void)
{
    char line[256];

    fence(); /* 1: rank 0 pulls */
    printf("hello from 1\n");
    fflush(stdout);
    fprintf(stderr, "complaint from 1\n");
    if (full) {
        CHECK(NULL != fgets(line, sizeof(line), stdin), "pushed stdin");
        printf("echo:%s", line);
        fflush(stdout);
        CHECK(NULL == fgets(line, sizeof(line), stdin) && feof(stdin), "end of stdin");
        printf("stdin closed\n");
        fflush(stdout);
    }
    fence(); /* 2 */
    fence(); /* 3: rank 0 deregistered */
    printf("after deregistration\n");
    fflush(stdout);
    fence(); /* 4 */
}

int main(int argc, char **argv)
{
    full = argc > 1 && 0 == strcmp(argv[1], "full");
    CHECK_RC(PMIx_Init(&me, NULL, 0), PMIX_SUCCESS, "init");
    if (0 == me.rank) {
        rank0();
    } else {
        rank1();
    }
    fence();
    CHECK(!bad_callback, "a callback ran for a call that failed");
    CHECK_RC(PMIx_Finalize(NULL, 0), PMIX_SUCCESS, "finalize");
    fprintf(stderr, "%s:%u: iof ok (%s host)\n", me.nspace, me.rank, full ? "full" : "bare");
    return 0;
}
