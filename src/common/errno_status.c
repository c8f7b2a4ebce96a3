/*
 * errno_status.c - turning errno into a pmix_status_t.
 */
#include <errno.h>

#include "errno_status.h"

pmix_status_t errno_status(int err)
{
    switch (err) {
    case 0:
        return PMIX_SUCCESS;
    case ENOMEM:
        return PMIX_ERR_NOMEM;
    case EACCES:
    case EPERM:
        return PMIX_ERR_NO_PERMISSIONS;
    case ENOENT:
    case ESRCH:
        return PMIX_ERR_NOT_FOUND;
    case EAGAIN:
        return PMIX_ERR_WOULD_BLOCK;
    case ETIMEDOUT:
        return PMIX_ERR_TIMEOUT;
    case EINVAL:
        return PMIX_ERR_BAD_PARAM;
    case EEXIST:
        return PMIX_ERR_EXISTS;
    case EPIPE:
    case ECONNRESET:
    case ECONNREFUSED:
    case ENOTCONN:
        return PMIX_ERR_UNREACH;
    case EMFILE:
    case ENFILE:
    case ENOSPC:
        return PMIX_ERR_OUT_OF_RESOURCE;
    default:
        return PMIX_ERROR;
    }
}
