/*
 * pmi1.c - libpmi.so.1: the PMI-1 API (Slurm's and MPICH's pmi.h) on
 * drover's PMIx client, for programs and runtimes written to PMI-1.
 *
 * Design notes:
 *  - The key-value space is the job's, whatever name is passed (PMI-1
 *    jobs have one); KVS_Create and the iterators have no PMIx
 *    counterpart and fail, as in other PMI-over-PMIx libraries.
 *  - There are no launcher options to parse: PMI_Parse_option and
 *    PMI_Args_to_keyval find none.
 */
#include <stdlib.h>
#include <string.h>

#include <slurm/pmi.h>

#include "client.h"

#define API __attribute__((visibility("default")))

API int PMI_Init(int *spawned)
{
    int unused;
    return pmic_init(NULL != spawned ? spawned : &unused);
}

API int PMI_Initialized(PMI_BOOL *initialized)
{
    if (NULL == initialized) {
        return PMI_ERR_INVALID_ARG;
    }
    *initialized = pmic_initialized() ? PMI_TRUE : PMI_FALSE;
    return PMI_SUCCESS;
}

API int PMI_Finalize(void)
{
    return pmic_finalize();
}

API int PMI_Get_size(int *size)
{
    return pmic_job_int(PMIX_JOB_SIZE, size);
}

API int PMI_Get_rank(int *rank)
{
    return pmic_rank(rank);
}

API int PMI_Get_universe_size(int *size)
{
    return pmic_job_int(PMIX_UNIV_SIZE, size);
}

API int PMI_Get_appnum(int *appnum)
{
    return pmic_appnum(appnum);
}

API int PMI_Publish_name(const char service_name[], const char port[])
{
    return pmic_publish(service_name, port);
}

API int PMI_Unpublish_name(const char service_name[])
{
    return pmic_unpublish(service_name);
}

API int PMI_Lookup_name(const char service_name[], char port[])
{
    char *found = NULL;
    int rc = pmic_lookup(service_name, &found);
    if (PMI_SUCCESS == rc) {
        /* PMI-1 gives no length: ports are at most a value long. */
        rc = NULL == port ? PMI_ERR_INVALID_ARG : pmic_copy(port, PMIC_MAX_VALLEN, found);
    }
    free(found);
    return rc;
}

/* The job's name stands for the process group and the KVS alike. */
static int job_name(char out[], int length)
{
    return pmic_initialized() ? pmic_copy(out, length, pmic_me()->nspace) : PMI_ERR_INIT;
}

API int PMI_Get_id(char id_str[], int length)
{
    return job_name(id_str, length);
}

API int PMI_Get_kvs_domain_id(char id_str[], int length)
{
    return job_name(id_str, length);
}

API int PMI_Get_id_length_max(int *length)
{
    if (NULL == length) {
        return PMI_ERR_INVALID_ARG;
    }
    *length = PMIX_MAX_NSLEN + 1;
    return PMI_SUCCESS;
}

API int PMI_Barrier(void)
{
    return pmic_fence();
}

API int PMI_Get_clique_size(int *size)
{
    return pmic_job_int(PMIX_LOCAL_SIZE, size);
}

API int PMI_Get_clique_ranks(int ranks[], int length)
{
    pmix_proc_t job;
    pmix_value_t *v = NULL;

    if (!pmic_initialized()) {
        return PMI_ERR_INIT;
    }
    if (NULL == ranks || length <= 0) {
        return PMI_ERR_INVALID_ARG;
    }
    PMIX_LOAD_PROCID(&job, pmic_me()->nspace, PMIX_RANK_WILDCARD);
    if (PMIX_SUCCESS != PMIx_Get(&job, PMIX_LOCAL_PEERS, NULL, 0, &v)) {
        return PMI_FAIL;
    }
    int rc = PMIX_STRING == v->type && NULL != v->data.string ? PMI_SUCCESS : PMI_FAIL;
    int n = 0;
    /* A comma-separated list of ranks. */
    const char *p = PMI_SUCCESS == rc ? v->data.string : "";
    while ('\0' != *p && PMI_SUCCESS == rc) {
        char *end;
        long r = strtol(p, &end, 10);
        if (end == p || n >= length) {
            rc = end == p ? PMI_FAIL : PMI_ERR_INVALID_LENGTH;
            break;
        }
        ranks[n++] = (int)r;
        p = ',' == *end ? end + 1 : end;
    }
    PMIX_VALUE_RELEASE(v);
    return rc;
}

API int PMI_Abort(int exit_code, const char error_msg[])
{
    return pmic_abort(exit_code, error_msg);
}

API int PMI_KVS_Get_my_name(char kvsname[], int length)
{
    return job_name(kvsname, length);
}

API int PMI_KVS_Get_name_length_max(int *length)
{
    return PMI_Get_id_length_max(length);
}

API int PMI_KVS_Get_key_length_max(int *length)
{
    if (NULL == length) {
        return PMI_ERR_INVALID_ARG;
    }
    *length = PMIX_MAX_KEYLEN;
    return PMI_SUCCESS;
}

API int PMI_KVS_Get_value_length_max(int *length)
{
    if (NULL == length) {
        return PMI_ERR_INVALID_ARG;
    }
    *length = PMIC_MAX_VALLEN;
    return PMI_SUCCESS;
}

API int PMI_KVS_Create(char kvsname[], int length)
{
    return PMI_FAIL; /* PMIx has no key-value space but the job's */
}

API int PMI_KVS_Destroy(const char kvsname[])
{
    return PMI_FAIL;
}

API int PMI_KVS_Put(const char kvsname[], const char key[], const char value[])
{
    return pmic_put(key, value);
}

API int PMI_KVS_Commit(const char kvsname[])
{
    return pmic_commit();
}

API int PMI_KVS_Get(const char kvsname[], const char key[], char value[], int length)
{
    char *found = NULL;
    int rc = pmic_get(kvsname, key, &found);
    if (PMI_SUCCESS == rc) {
        rc = pmic_copy(value, length, found);
    }
    free(found);
    return rc;
}

API int PMI_KVS_Iter_first(const char kvsname[], char key[], int key_len, char val[],
                           int val_len)
{
    return PMI_FAIL; /* a PMIx job's keys cannot be listed */
}

API int PMI_KVS_Iter_next(const char kvsname[], char key[], int key_len, char val[], int val_len)
{
    return PMI_FAIL;
}

API int PMI_Spawn_multiple(int count, const char *cmds[], const char **argvs[],
                           const int maxprocs[], const int info_keyval_sizesp[],
                           const PMI_keyval_t *info_keyval_vectors[], int preput_keyval_size,
                           const PMI_keyval_t preput_keyval_vector[], int errors[])
{
    int n = count > 0 ? count : 1, m = preput_keyval_size > 0 ? preput_keyval_size : 1;
    int ninfo_total = 0;
    for (int a = 0; a < count && NULL != info_keyval_sizesp; a++) {
        ninfo_total += info_keyval_sizesp[a] > 0 ? info_keyval_sizesp[a] : 0;
    }
    /* Split the key/value structs into the arrays pmic_spawn takes. */
    const char **keys = calloc((size_t)(2 * ninfo_total + 2 * m), sizeof(*keys));
    const char *const **ikeys = calloc((size_t)n, sizeof(*ikeys));
    const char *const **ivals = calloc((size_t)n, sizeof(*ivals));
    int rc = NULL == keys || NULL == ikeys || NULL == ivals ? PMI_ERR_NOMEM : PMI_SUCCESS;
    const char **p = keys;

    for (int a = 0; a < count && NULL != info_keyval_sizesp && PMI_SUCCESS == rc; a++) {
        int k = info_keyval_sizesp[a];
        ikeys[a] = p;
        for (int i = 0; i < k; i++) {
            *p++ = info_keyval_vectors[a][i].key;
        }
        ivals[a] = p;
        for (int i = 0; i < k; i++) {
            *p++ = info_keyval_vectors[a][i].val;
        }
    }
    const char **pkeys = p, **pvals = p + m;
    for (int i = 0; i < preput_keyval_size && PMI_SUCCESS == rc; i++) {
        pkeys[i] = preput_keyval_vector[i].key;
        pvals[i] = preput_keyval_vector[i].val;
    }
    if (PMI_SUCCESS == rc) {
        rc = pmic_spawn(count, cmds, (const char *const *const *)argvs, maxprocs,
                        info_keyval_sizesp, ikeys, ivals, preput_keyval_size, pkeys, pvals,
                        NULL);
    }
    free(keys);
    free(ikeys);
    free(ivals);
    int total = 0;
    for (int a = 0; a < count && NULL != maxprocs; a++) {
        total += maxprocs[a];
    }
    for (int i = 0; NULL != errors && i < total; i++) {
        errors[i] = rc;
    }
    return rc;
}

API int PMI_Parse_option(int num_args, char *args[], int *num_parsed, PMI_keyval_t **keyvalp,
                         int *size)
{
    if (NULL == num_parsed || NULL == keyvalp || NULL == size) {
        return PMI_ERR_INVALID_ARG;
    }
    *num_parsed = 0;
    *keyvalp = NULL;
    *size = 0;
    return PMI_SUCCESS;
}

API int PMI_Args_to_keyval(int *argcp, char *((*argvp)[]), PMI_keyval_t **keyvalp, int *size)
{
    if (NULL == argcp || NULL == keyvalp || NULL == size) {
        return PMI_ERR_INVALID_ARG;
    }
    *keyvalp = NULL;
    *size = 0;
    return PMI_SUCCESS;
}

API int PMI_Free_keyvals(PMI_keyval_t keyvalp[], int size)
{
    for (int i = 0; NULL != keyvalp && i < size; i++) {
        free(keyvalp[i].key);
        free(keyvalp[i].val);
    }
    free(keyvalp);
    return PMI_SUCCESS;
}

API int PMI_Get_options(char *str, int *length)
{
    if (NULL == str || NULL == length || *length < 1) {
        return PMI_ERR_INVALID_ARG;
    }
    str[0] = '\0';
    *length = 1;
    return PMI_SUCCESS;
}
