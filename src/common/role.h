/*
 * role.h - what this process is to PMIx: a client, a server or a tool.
 *
 * One libpmix serves all three, and calls such as PMIx_Notify_event or
 * PMIx_Get behave differently in each; a process takes one role at a time.
 */
#ifndef DROVER_ROLE_H
#define DROVER_ROLE_H

#include "pmix_common.h"

typedef enum { ROLE_NONE, ROLE_CLIENT, ROLE_SERVER, ROLE_TOOL } role_t;

/* Take role: PMIX_ERR_INIT when the process already has another one. */
pmix_status_t role_claim(role_t role);

/* Give role up (no effect when it is not the current one). */
void role_release(role_t role);

role_t role_current(void);

#endif /* DROVER_ROLE_H */
