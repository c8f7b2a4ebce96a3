/*
 * log_local.h - writing PMIx_Log data where no host does it: the server
 * library when its host has no log function, and a singleton client.
 */
#ifndef DROVER_LOG_LOCAL_H
#define DROVER_LOG_LOCAL_H

#include "pmix_common.h"

/* Write each entry of data on the channel its key names (PMIX_LOG_STDERR,
 * PMIX_LOG_STDOUT, PMIX_LOG_SYSLOG, PMIX_LOG_LOCAL_SYSLOG), attributed to
 * source. PMIX_ERR_NOT_SUPPORTED when an entry names no such channel or
 * is not a string (the others are still written). */
pmix_status_t log_local(const pmix_proc_t *source, const pmix_info_t *data, size_t ndata);

#endif /* DROVER_LOG_LOCAL_H */
