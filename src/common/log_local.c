/*
 * log_local.c - writing PMIx_Log data where no host does it.
 */
#include <stdio.h>
#include <syslog.h>

#include "log_local.h"
#include "pmix.h"

pmix_status_t log_local(const pmix_proc_t *source, const pmix_info_t *data, size_t ndata)
{
    pmix_status_t rc = PMIX_SUCCESS;
    for (size_t i = 0; i < ndata; i++) {
        const pmix_value_t *v = &data[i].value;
        if (PMIX_STRING != v->type || NULL == v->data.string) {
            rc = PMIX_ERR_NOT_SUPPORTED;
        } else if (PMIX_CHECK_KEY(&data[i], PMIX_LOG_STDERR)) {
            fputs(v->data.string, stderr);
        } else if (PMIX_CHECK_KEY(&data[i], PMIX_LOG_STDOUT)) {
            fputs(v->data.string, stdout);
            fflush(stdout);
        } else if (PMIX_CHECK_KEY(&data[i], PMIX_LOG_SYSLOG) ||
                   PMIX_CHECK_KEY(&data[i], PMIX_LOG_LOCAL_SYSLOG)) {
            syslog(LOG_INFO, "%s:%u: %s", source->nspace, source->rank, v->data.string);
        } else {
            rc = PMIX_ERR_NOT_SUPPORTED;
        }
    }
    return rc;
}
