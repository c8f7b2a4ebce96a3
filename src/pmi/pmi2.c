/*
 * pmi2.c - libpmi2.so.0: the PMI-2 API (Slurm's and MPICH's pmi2.h) on
 * drover's PMIx client.
 *
 * Design notes:
 *  - KVS_Put/Fence/Get are PMI-1's put, commit + barrier and get; the
 *    source id a get names is a hint PMIx does not need.
 *  - Job attributes are those hydra gives (PMI_process_mapping,
 *    universeSize, appnum); the IntArray forms read them as a
 *    comma-separated list.
 *  - Job_Connect and Job_Disconnect are not functioning in MPICH's own
 *    servers either: they fail.
 */
#include <stdlib.h>
#include <string.h>

#include <slurm/pmi2.h>

#include "client.h"

#define API __attribute__((visibility("default")))

API int PMI2_Init(int *spawned, int *size, int *rank, int *appnum)
{
    int rc = pmic_init(spawned);

    if (PMI2_SUCCESS == rc && NULL != size) {
        rc = pmic_job_int(PMIX_JOB_SIZE, size);
    }
    if (PMI2_SUCCESS == rc && NULL != rank) {
        rc = pmic_rank(rank);
    }
    if (PMI2_SUCCESS == rc && NULL != appnum) {
        rc = pmic_appnum(appnum);
    }
    return rc;
}

API int PMI2_Finalize(void)
{
    return pmic_finalize();
}

API int PMI2_Initialized(void)
{
    return pmic_initialized();
}

API int PMI2_Abort(int flag, const char msg[])
{
    return pmic_abort(1, msg);
}

API int PMI2_Job_Spawn(int count, const char *cmds[], int argcs[], const char **argvs[],
                       const int maxprocs[], const int info_keyval_sizes[],
                       const struct MPID_Info *info_keyval_vectors[], int preput_keyval_size,
                       const struct MPID_Info *preput_keyval_vector[], char jobId[],
                       int jobIdSize, int errors[])
{
    int n = count > 0 ? count : 1, m = preput_keyval_size > 0 ? preput_keyval_size : 1;
    int total = 0;
    for (int a = 0; a < count; a++) {
        total += (NULL != argcs ? argcs[a] : 0) + 1 +
                 2 * (NULL != info_keyval_sizes ? info_keyval_sizes[a] : 0);
    }
    /* The arrays pmic_spawn takes: NULL-terminated arguments, info keys
     * and values, preput keys and values. */
    const char **pool = calloc((size_t)(total + 2 * m), sizeof(*pool));
    const char **args[n], **ikeys[n], **ivals[n];
    char nspace[PMIX_MAX_NSLEN + 1];
    int rc = NULL == pool ? PMI2_ERR_NOMEM : PMI2_SUCCESS;
    const char **p = pool;

    for (int a = 0; a < count && PMI2_SUCCESS == rc; a++) {
        int na = NULL != argcs ? argcs[a] : 0;
        int ni = NULL != info_keyval_sizes ? info_keyval_sizes[a] : 0;
        args[a] = p;
        for (int i = 0; i < na; i++) {
            *p++ = argvs[a][i];
        }
        *p++ = NULL;
        ikeys[a] = p;
        for (int i = 0; i < ni; i++) {
            *p++ = info_keyval_vectors[a][i].key;
        }
        ivals[a] = p;
        for (int i = 0; i < ni; i++) {
            *p++ = info_keyval_vectors[a][i].value;
        }
    }
    const char **pkeys = p, **pvals = p + m;
    for (int i = 0; i < preput_keyval_size && PMI2_SUCCESS == rc; i++) {
        pkeys[i] = preput_keyval_vector[i]->key;
        pvals[i] = preput_keyval_vector[i]->value;
    }
    if (PMI2_SUCCESS == rc) {
        rc = pmic_spawn(count, cmds, (const char *const *const *)args, maxprocs,
                        info_keyval_sizes, (const char *const *const *)ikeys,
                        (const char *const *const *)ivals, preput_keyval_size, pkeys, pvals,
                        nspace);
    }
    free(pool);
    if (PMI2_SUCCESS == rc && NULL != jobId) {
        rc = pmic_copy(jobId, jobIdSize, nspace);
    }
    int nprocs = 0;
    for (int a = 0; a < count && NULL != maxprocs; a++) {
        nprocs += maxprocs[a];
    }
    for (int i = 0; NULL != errors && i < nprocs; i++) {
        errors[i] = rc;
    }
    return rc;
}

API int PMI2_Job_GetId(char jobid[], int jobid_size)
{
    return pmic_initialized() ? pmic_copy(jobid, jobid_size, pmic_me()->nspace) : PMI2_ERR_INIT;
}

API int PMI2_Job_GetRank(int *rank)
{
    return pmic_rank(rank);
}

API int PMI2_Info_GetSize(int *size)
{
    return pmic_job_int(PMIX_JOB_SIZE, size);
}

API int PMI2_Job_Connect(const char jobid[], PMI2_Connect_comm_t *conn)
{
    return PMI2_FAIL;
}

API int PMI2_Job_Disconnect(const char jobid[])
{
    return PMI2_FAIL;
}

API int PMI2_KVS_Put(const char key[], const char value[])
{
    return pmic_put(key, value);
}

API int PMI2_KVS_Fence(void)
{
    int rc = pmic_commit();
    return PMI2_SUCCESS == rc ? pmic_fence() : rc;
}

/* Copy a found value out, with its length (negative: the room needed). */
static int give(char *found, char value[], int maxvalue, int *vallen)
{
    if (NULL == found) {
        return PMI2_FAIL;
    }
    int len = (int)strlen(found);
    int rc = pmic_copy(value, maxvalue, found);
    if (NULL != vallen) {
        *vallen = PMI2_SUCCESS == rc ? len : -(len + 1);
    }
    free(found);
    return rc;
}

API int PMI2_KVS_Get(const char *jobid, int src_pmi_id, const char key[], char value[],
                     int maxvalue, int *vallen)
{
    char *found = NULL;
    int rc = pmic_get(jobid, key, &found);
    return PMI2_SUCCESS == rc ? give(found, value, maxvalue, vallen) : rc;
}

/* A lookup that finds nothing is no error: *found says so. */
static int found_or_not(int rc, char *value, char out[], int len, int *found)
{
    if (NULL == found) {
        free(value);
        return PMI2_ERR_INVALID_ARG;
    }
    *found = PMI2_SUCCESS == rc;
    if (PMIC_ERR_INVALID_KEY == rc) {
        return PMI2_SUCCESS;
    }
    return PMI2_SUCCESS == rc ? give(value, out, len, NULL) : rc;
}

API int PMI2_Info_GetNodeAttr(const char name[], char value[], int valuelen, int *found,
                              int waitfor)
{
    char *got = NULL;
    int rc = pmic_node_get(name, 0 != waitfor, &got);
    return found_or_not(rc, got, value, valuelen, found);
}

API int PMI2_Info_PutNodeAttr(const char name[], const char value[])
{
    return pmic_node_put(name, value);
}

API int PMI2_Info_GetJobAttr(const char name[], char value[], int valuelen, int *found)
{
    char *got = NULL;
    int rc = pmic_get(NULL, name, &got);
    return found_or_not(rc, got, value, valuelen, found);
}

/* A comma-separated list of integers into array. */
static int int_array(int rc, char *text, int array[], int arraylen, int *outlen, int *found)
{
    int n = 0;
    if (NULL == found || NULL == outlen || (NULL == array && arraylen > 0)) {
        free(text);
        return PMI2_ERR_INVALID_ARG;
    }
    *found = PMI2_SUCCESS == rc;
    *outlen = 0;
    for (const char *p = PMI2_SUCCESS == rc ? text : ""; '\0' != *p && n < arraylen;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) {
            break;
        }
        array[n++] = (int)v;
        p = ',' == *end ? end + 1 : end;
    }
    *outlen = n;
    free(text);
    return PMIC_ERR_INVALID_KEY == rc || PMI2_SUCCESS == rc ? PMI2_SUCCESS : rc;
}

API int PMI2_Info_GetNodeAttrIntArray(const char name[], int array[], int arraylen, int *outlen,
                                      int *found)
{
    char *got = NULL;
    int rc = pmic_node_get(name, false, &got);
    return int_array(rc, got, array, arraylen, outlen, found);
}

API int PMI2_Info_GetJobAttrIntArray(const char name[], int array[], int arraylen, int *outlen,
                                     int *found)
{
    char *got = NULL;
    int rc = pmic_get(NULL, name, &got);
    return int_array(rc, got, array, arraylen, outlen, found);
}

API int PMI2_Nameserv_publish(const char service_name[], const struct MPID_Info *info_ptr,
                              const char port[])
{
    return pmic_publish(service_name, port);
}

API int PMI2_Nameserv_lookup(const char service_name[], const struct MPID_Info *info_ptr,
                             char port[], int portLen)
{
    char *found = NULL;
    int rc = pmic_lookup(service_name, &found);
    return PMI2_SUCCESS == rc ? give(found, port, portLen, NULL) : rc;
}

API int PMI2_Nameserv_unpublish(const char service_name[], const struct MPID_Info *info_ptr)
{
    return pmic_unpublish(service_name);
}
