/*
 * client.h - what libpmi.so.1 (pmi1.c, the PMI-1 API) and libpmi2.so.0
 * (pmi2.c, the PMI-2 API) share: the PMI operations done through drover's
 * PMIx client, so programs written to the PMI APIs run under any PMIx
 * server. Private.
 *
 * Every function returns a PMI error code (PMI_SUCCESS, PMI_FAIL, ...:
 * both APIs number them alike).
 */
#ifndef DROVER_PMI_CLIENT_H
#define DROVER_PMI_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "pmix.h"

/* The two APIs' shared error codes. */
enum {
    PMIC_SUCCESS = 0,
    PMIC_FAIL = -1,
    PMIC_ERR_INIT = 1,
    PMIC_ERR_NOMEM = 2,
    PMIC_ERR_INVALID_ARG = 3,
    PMIC_ERR_INVALID_KEY = 4,
    PMIC_ERR_INVALID_VAL_LENGTH = 7,
    PMIC_ERR_INVALID_LENGTH = 8,
};

/* The longest value the libraries hand out, as PMI-2 and hydra limit it. */
#define PMIC_MAX_VALLEN 1024

/* Connect (PMIx_Init) unless connected; *spawned (may be NULL): whether
 * the job was spawned by another. */
int pmic_init(int *spawned);
bool pmic_initialized(void);
int pmic_finalize(void);

/* This process's name. Valid after pmic_init. */
const pmix_proc_t *pmic_me(void);

/* A numeric job attribute (PMIX_JOB_SIZE, PMIX_UNIV_SIZE,
 * PMIX_LOCAL_SIZE), this process's appnum (0 when the host gives none)
 * and rank, as ints; PMIC_ERR_INVALID_ARG for a NULL value. */
int pmic_job_int(const char *key, int *value);
int pmic_appnum(int *appnum);
int pmic_rank(int *rank);

/* Copy s into out (room bytes): PMIC_ERR_INVALID_LENGTH when it does not
 * fit. */
int pmic_copy(char *out, int room, const char *s);

/* Put key=value as global data; commit what was put; fence the job with
 * data exchange. */
int pmic_put(const char *key, const char *value);
int pmic_commit(void);
int pmic_fence(void);

/* The value of key put by any process of job nspace (NULL or "": this
 * one's), or a job attribute by its PMI name (PMI_process_mapping,
 * universeSize, appnum), or a key preput by the job's spawner; *value is
 * the caller's to free. PMIC_ERR_INVALID_KEY when there is none. */
int pmic_get(const char *nspace, const char *key, char **value);

/* Node attributes, shared by the job's processes on this node. With wait,
 * a get waits until the attribute is put. */
int pmic_node_put(const char *name, const char *value);
int pmic_node_get(const char *name, bool wait, char **value);

/* Name publishing; lookup's *port is the caller's to free. */
int pmic_publish(const char *service, const char *port);
int pmic_lookup(const char *service, char **port);
int pmic_unpublish(const char *service);

/* Abort the job with code; does not return when the server acts. */
int pmic_abort(int code, const char *msg);

/* Spawn count apps: cmds[a] with args[a] (NULL-terminated, without the
 * program), maxprocs[a] processes and ninfo[a] info pairs; npreput keys
 * put into the new job's key-value space. The new job's name goes to
 * nspace (PMIX_MAX_NSLEN + 1 bytes) when not NULL. */
int pmic_spawn(int count, const char *const *cmds, const char *const *const *args,
               const int *maxprocs, const int *ninfo, const char *const *const *info_keys,
               const char *const *const *info_values, int npreput,
               const char *const *preput_keys, const char *const *preput_values, char *nspace);

#endif /* DROVER_PMI_CLIENT_H */
