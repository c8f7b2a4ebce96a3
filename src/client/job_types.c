/*
 * job_types.c - at PMIx_Init, declare the datatypes `drover run --types`
 * handed to the job (docs/datatypes.md).
 *
 * Design notes:
 *  - The YAML text travels as the job-level key DROVER_JOB_TYPES; every
 *    rank loads the same text at the same point, so the declared ids agree
 *    across the job.
 *  - The key is read with PMIX_OPTIONAL: a job without declarations, or a
 *    singleton, costs no message to the server.
 *  - A rank whose own earlier declarations conflict with the job's is
 *    refused at PMIx_Init, with the loader's messages on stderr, rather
 *    than misreading its peers' data later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "drover.h"
#include "pmix.h"

pmix_status_t client_job_types(const pmix_proc_t *me)
{
    pmix_proc_t job;
    pmix_info_t optional;
    pmix_value_t *val = NULL;
    bool yes = true;

    PMIX_LOAD_PROCID(&job, me->nspace, PMIX_RANK_WILDCARD);
    PMIX_INFO_LOAD(&optional, PMIX_OPTIONAL, &yes, PMIX_BOOL);
    pmix_status_t rc = PMIx_Get(&job, DROVER_JOB_TYPES, &optional, 1, &val);
    PMIX_INFO_DESTRUCT(&optional);
    if (PMIX_SUCCESS != rc || NULL == val) {
        return PMIX_SUCCESS;
    }
    if (PMIX_STRING != val->type || NULL == val->data.string) {
        PMIX_VALUE_RELEASE(val);
        return PMIX_ERR_BAD_PARAM;
    }
    char *errors = NULL;
    rc = drover_types_load_string("the job's datatypes", val->data.string,
                                  strlen(val->data.string), 0, &errors);
    if (NULL != errors) {
        fprintf(stderr, "drover: rank %u: %s", (unsigned)me->rank, errors);
        free(errors);
    }
    PMIX_VALUE_RELEASE(val);
    return PMIX_ERR_BAD_PARAM == rc ? PMIX_ERR_TYPE_MISMATCH : rc;
}
