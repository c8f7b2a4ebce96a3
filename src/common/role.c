/*
 * role.c - what this process is to PMIx: a client, a server or a tool.
 */
#include <stdatomic.h>

#include "role.h"

static _Atomic role_t current = ROLE_NONE;

pmix_status_t role_claim(role_t role)
{
    role_t none = ROLE_NONE;
    if (atomic_compare_exchange_strong(&current, &none, role)) {
        return PMIX_SUCCESS;
    }
    return PMIX_ERR_INIT;
}

void role_release(role_t role)
{
    role_t expected = role;
    atomic_compare_exchange_strong(&current, &expected, ROLE_NONE);
}

role_t role_current(void)
{
    return atomic_load(&current);
}
