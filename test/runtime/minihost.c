/*
 * minihost.c - a minimal PMIx host for testing the server library without
 * the launcher: registers one job of N ranks on this node, forks the
 * ranks with the environment PMIx_server_setup_fork gives, answers fences
 * locally, and exits with the first non-zero status of a rank.
 *
 * usage: minihost N program [args...]
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmix.h"
#include "pmix_server.h"

extern char **environ;

static pmix_nspace_t nspace = "minihost.job";
static volatile int abort_status = 0;

static void release_copy(void *cbdata)
{
    free(cbdata);
}

static pmix_status_t fence_nb(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                              size_t ninfo, char *data, size_t ndata, pmix_modex_cbfunc_t cbfunc,
                              void *cbdata)
{
    char *copy = NULL;
    if (ndata > 0) {
        copy = malloc(ndata);
        memcpy(copy, data, ndata);
    }
    cbfunc(PMIX_SUCCESS, copy, ndata, cbdata, release_copy, copy);
    return PMIX_SUCCESS;
}

static pmix_status_t do_abort(const pmix_proc_t *proc, void *server_object, int status,
                              const char msg[], pmix_proc_t procs[], size_t nprocs,
                              pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    fprintf(stderr, "minihost: rank %u aborted with %d: %s\n", proc->rank, status, msg);
    abort_status = status;
    kill(0, SIGTERM);
    return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t connect_fn(const pmix_proc_t procs[], size_t nprocs, const pmix_info_t info[],
                                size_t ninfo, pmix_op_cbfunc_t cbfunc, void *cbdata)
{
    return PMIX_OPERATION_SUCCEEDED;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: minihost N program [args...]\n");
        return 2;
    }
    uint32_t n = (uint32_t)atoi(argv[1]);
    pmix_server_module_t module = {.fence_nb = fence_nb, .abort = do_abort,
                                   .connect = connect_fn, .disconnect = connect_fn};
    pmix_status_t rc = PMIx_server_init(&module, NULL, 0);
    if (PMIX_SUCCESS != rc) {
        fprintf(stderr, "minihost: server init failed: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    signal(SIGTERM, SIG_IGN);
    char host[256];
    gethostname(host, sizeof(host));
    char peers[4096] = "";
    for (uint32_t r = 0; r < n; r++) {
        snprintf(peers + strlen(peers), sizeof(peers) - strlen(peers), r ? ",%u" : "%u", r);
    }
    size_t ninfo = 6 + n, k = 0;
    pmix_info_t *info;
    PMIX_INFO_CREATE(info, ninfo);
    uint32_t zero = 0;
    PMIx_Info_load(&info[k++], PMIX_JOB_SIZE, &n, PMIX_UINT32);
    PMIx_Info_load(&info[k++], PMIX_LOCAL_SIZE, &n, PMIX_UINT32);
    PMIx_Info_load(&info[k++], PMIX_UNIV_SIZE, &n, PMIX_UINT32);
    PMIx_Info_load(&info[k++], PMIX_LOCAL_PEERS, peers, PMIX_STRING);
    PMIx_Info_load(&info[k++], PMIX_APPNUM, &zero, PMIX_UINT32);
    PMIx_Info_load(&info[k++], PMIX_HOSTNAME, host, PMIX_STRING);
    for (uint32_t r = 0; r < n; r++) {
        pmix_info_t *pd;
        PMIX_INFO_CREATE(pd, 3);
        uint16_t lr = (uint16_t)r;
        PMIx_Info_load(&pd[0], PMIX_RANK, &r, PMIX_PROC_RANK);
        PMIx_Info_load(&pd[1], PMIX_LOCAL_RANK, &lr, PMIX_UINT16);
        PMIx_Info_load(&pd[2], PMIX_HOSTNAME, host, PMIX_STRING);
        pmix_data_array_t da = {.type = PMIX_INFO, .size = 3, .array = pd};
        PMIx_Info_load(&info[k++], PMIX_PROC_DATA, &da, PMIX_DATA_ARRAY);
        PMIX_INFO_FREE(pd, 3);
    }
    rc = PMIx_server_register_nspace(nspace, (int)n, info, ninfo, NULL, NULL);
    PMIX_INFO_FREE(info, ninfo);
    if (PMIX_OPERATION_SUCCEEDED != rc) {
        fprintf(stderr, "minihost: register_nspace: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    pid_t *pids = calloc(n, sizeof(*pids));
    for (uint32_t r = 0; r < n; r++) {
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, nspace, r);
        PMIx_server_register_client(&proc, getuid(), getgid(), NULL, NULL, NULL);
    }
    for (uint32_t r = 0; r < n; r++) {
        pmix_proc_t proc;
        PMIX_LOAD_PROCID(&proc, nspace, r);
        char **env = NULL;
        for (char **e = environ; *e; e++) {
            PMIX_ARGV_APPEND(rc, env, *e);
        }
        PMIx_server_setup_fork(&proc, &env);
        pids[r] = fork();
        if (0 == pids[r]) {
            signal(SIGTERM, SIG_DFL);
            execve(argv[2], argv + 2, env);
            _exit(127);
        }
        PMIX_ARGV_FREE(env);
    }
    int result = 0;
    for (uint32_t done = 0; done < n; done++) {
        int status;
        pid_t pid = wait(&status);
        for (uint32_t r = 0; r < n; r++) {
            if (pids[r] == pid) {
                pmix_proc_t proc;
                PMIX_LOAD_PROCID(&proc, nspace, r);
                PMIx_server_deregister_client(&proc, NULL, NULL);
            }
        }
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (0 == result && 0 != code) {
            result = code;
        }
    }
    PMIx_server_deregister_nspace(nspace, NULL, NULL);
    PMIx_server_finalize();
    free(pids);
    return 0 != abort_status ? abort_status : result;
}
