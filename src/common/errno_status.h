/*
 * errno_status.h - turning errno into a pmix_status_t.
 *
 * System calls report through errno; nothing past the call that failed
 * sees errno again. This one function is where the translation lives.
 */
#ifndef DROVER_ERRNO_STATUS_H
#define DROVER_ERRNO_STATUS_H

#include "pmix_common.h"

/* The status that best describes errno value err. */
pmix_status_t errno_status(int err);

#endif /* DROVER_ERRNO_STATUS_H */
