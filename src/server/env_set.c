/*
 * env_set.c - set a launch's variables in a process's environment, in one
 *   pass over it (a launch sets them for every process it starts).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"

pmix_status_t env_set_all(char ***env, const char *prefix, const char *const vars[][2], size_t n)
{
    char *entries[ENV_SET_MAX];
    bool placed[ENV_SET_MAX] = {false};
    size_t prefix_len = strlen(prefix);
    if (n > ENV_SET_MAX) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (size_t i = 0; i < n; i++) {
        if (asprintf(&entries[i], "%s=%s", vars[i][0], vars[i][1]) < 0) {
            while (i-- > 0) {
                free(entries[i]);
            }
            return PMIX_ERR_NOMEM;
        }
    }
    size_t count = 0;
    while (NULL != *env && NULL != (*env)[count]) {
        count++;
    }
    char **grown = realloc(*env, (count + n + 1) * sizeof(*grown));
    if (NULL == grown) {
        for (size_t i = 0; i < n; i++) {
            free(entries[i]);
        }
        return PMIX_ERR_NOMEM;
    }
    for (size_t j = 0; j < count; j++) {
        if (0 != strncmp(grown[j], prefix, prefix_len)) {
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            size_t len = strlen(vars[i][0]);
            if (!placed[i] && 0 == strncmp(grown[j], vars[i][0], len) && '=' == grown[j][len]) {
                free(grown[j]);
                grown[j] = entries[i];
                placed[i] = true;
                break;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (!placed[i]) {
            grown[count++] = entries[i];
        }
    }
    grown[count] = NULL;
    *env = grown;
    return PMIX_SUCCESS;
}
