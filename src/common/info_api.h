/*
 * info_api.h - reading the directives of a pmix_info_t array, for the
 * client and the server alike. Private.
 */
#ifndef DROVER_INFO_API_H
#define DROVER_INFO_API_H

#include <stdbool.h>
#include <stddef.h>

#include "pmix_common.h"

/* Whether the boolean attribute key is set true among info (its first
 * occurrence decides; absent is false). */
bool info_flag(const pmix_info_t *info, size_t ninfo, const char *key);

#endif
