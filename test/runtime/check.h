/*
 * check.h - what the runtime test programs share: a CHECK that names the
 * process and the failed expectation and exits non-zero, and a bounded
 * wait for something an event handler or callback sets.
 */
#ifndef RUNTIME_CHECK_H
#define RUNTIME_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pmix.h"

/* Who is checking, for the messages. */
extern pmix_proc_t me;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "%s:%u: line %d: ", me.nspace, me.rank,        \
                    __LINE__);                                             \
            fprintf(stderr, __VA_ARGS__);                                  \
            fprintf(stderr, "\n");                                         \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

/* Expect status expr (evaluated once) to be want. */
#define CHECK_RC(expr, want, what)                                         \
    do {                                                                   \
        pmix_status_t check_rc_ = (expr);                                  \
        CHECK((want) == check_rc_, "%s: %s, expected %s", what,            \
              PMIx_Error_string(check_rc_), PMIx_Error_string(want));      \
    } while (0)

/* Wait up to seconds for *flag (set by another thread) to become true. */
static inline bool wait_for(volatile bool *flag, int seconds)
{
    struct timespec tick = {.tv_nsec = 10 * 1000 * 1000};
    for (int i = 0; i < seconds * 100 && !*flag; i++) {
        nanosleep(&tick, NULL);
    }
    return *flag;
}

/* The value of key among info, or NULL. */
static inline const pmix_value_t *find_info(const pmix_info_t *info, size_t ninfo,
                                            const char *key)
{
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], key)) {
            return &info[i].value;
        }
    }
    return NULL;
}

#endif /* RUNTIME_CHECK_H */
