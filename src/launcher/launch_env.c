/*
 * launch_env.c - environments as NULL-ended arrays of "NAME=value"
 *   strings: the ranks' own, and the job files' and apps' variables.
 *
 * Design notes:
 *  - Only the C library: the drover command's libc-only part
 *    (drover.c) parses `drover run`'s command line with these.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

void launch_free_env(char **env)
{
    if (NULL != env) {
        for (char **e = env; NULL != *e; e++) {
            free(*e);
        }
        free(env);
    }
}

size_t launch_env_count(char *const *env)
{
    size_t n = 0;
    while (NULL != env && NULL != env[n]) {
        n++;
    }
    return n;
}

char **launch_copy_env(char *const *env)
{
    size_t n = launch_env_count(env);
    char **copy = calloc(n + 1, sizeof(*copy));
    if (NULL == copy) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (NULL == (copy[i] = strdup(env[i]))) {
            launch_free_env(copy);
            return NULL;
        }
    }
    return copy;
}

/* Does entry ("NAME=value") set name? */
static bool sets(const char *entry, const char *name, size_t len)
{
    return 0 == strncmp(entry, name, len) && '=' == entry[len];
}

const char *launch_getenv(char *const *env, const char *name)
{
    size_t len = strlen(name);
    for (char *const *e = env; NULL != *e; e++) {
        if (sets(*e, name, len)) {
            return *e + len + 1;
        }
    }
    return NULL;
}

char **launch_setenv(char **env, const char *name, const char *value)
{
    size_t len = strlen(name), n = launch_env_count(env);
    char *entry;
    if (asprintf(&entry, "%s=%s", name, value) < 0) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (sets(env[i], name, len)) {
            free(env[i]);
            env[i] = entry;
            return env;
        }
    }
    char **grown = realloc(env, (n + 2) * sizeof(*grown));
    if (NULL == grown) {
        free(entry);
        return NULL;
    }
    grown[n] = entry;
    grown[n + 1] = NULL;
    return grown;
}
