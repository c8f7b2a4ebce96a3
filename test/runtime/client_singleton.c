/*
 * client_singleton.c - PMIx_Init without a server: a namespace of its
 * own, rank 0 of a job of one, put/commit/fence/get working locally, and
 * counted Init/Finalize pairs, including a second life after Finalize.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmix.h"

#define CHECK(cond, ...)                                       \
    do {                                                       \
        if (!(cond)) {                                         \
            fprintf(stderr, "singleton: ");                    \
            fprintf(stderr, __VA_ARGS__);                      \
            fprintf(stderr, "\n");                             \
            exit(1);                                           \
        }                                                      \
    } while (0)

/* The ABI versions are answered by the library: before PMIx_Init (the
 * blocking form only, as in OpenPMIx), and by a singleton; anything else
 * needs a server. */
static void abi_versions(bool initialized)
{
    char *keys[] = {PMIX_QUERY_STABLE_ABI_VERSION, PMIX_QUERY_PROVISIONAL_ABI_VERSION, NULL};
    pmix_query_t q = {.keys = keys};
    pmix_info_t *res;
    size_t n;

    CHECK(PMIX_SUCCESS == PMIx_Query_info(&q, 1, &res, &n) && 2 == n &&
              PMIX_CHECK_KEY(&res[0], PMIX_QUERY_STABLE_ABI_VERSION) &&
              0 == strcmp(res[0].value.data.string, "0.0") &&
              PMIX_CHECK_KEY(&res[1], PMIX_QUERY_PROVISIONAL_ABI_VERSION) &&
              0 == strcmp(res[1].value.data.string, "0.0"),
          "ABI versions (%s)", initialized ? "singleton" : "before init");
    PMIX_INFO_FREE(res, n);
    keys[1] = PMIX_QUERY_NAMESPACES;
    CHECK((initialized ? PMIX_ERR_NOT_SUPPORTED : PMIX_ERR_INIT) ==
              PMIx_Query_info(&q, 1, &res, &n),
          "a query the library cannot answer alone");
}

static void one_life(void)
{
    pmix_proc_t me, wild, other;
    pmix_value_t *v, val;

    abi_versions(false);
    CHECK(PMIX_SUCCESS == PMIx_Init(&me, NULL, 0), "init");
    abi_versions(true);
    CHECK(0 == me.rank && 0 == strncmp(me.nspace, "singleton.", 10), "identity %s:%u",
          me.nspace, me.rank);
    PMIX_LOAD_PROCID(&wild, me.nspace, PMIX_RANK_WILDCARD);
    CHECK(PMIX_SUCCESS == PMIx_Get(&wild, PMIX_JOB_SIZE, NULL, 0, &v) && 1 == v->data.uint32,
          "job size");
    PMIX_VALUE_RELEASE(v);
    CHECK(PMIX_SUCCESS == PMIx_Get(&me, PMIX_LOCAL_RANK, NULL, 0, &v) && 0 == v->data.uint16,
          "local rank");
    PMIX_VALUE_RELEASE(v);
    PMIX_VALUE_LOAD(&val, "mine", PMIX_STRING);
    CHECK(PMIX_SUCCESS == PMIx_Put(PMIX_GLOBAL, "test.key", &val), "put");
    PMIX_VALUE_DESTRUCT(&val);
    CHECK(PMIX_SUCCESS == PMIx_Commit(), "commit");
    CHECK(PMIX_SUCCESS == PMIx_Fence(NULL, 0, NULL, 0), "fence");
    CHECK(PMIX_SUCCESS == PMIx_Fence(&wild, 1, NULL, 0), "fence over the job");
    PMIX_LOAD_PROCID(&other, "another.job", 0);
    CHECK(PMIX_ERR_BAD_PARAM == PMIx_Fence(&other, 1, NULL, 0), "fence with a stranger");
    CHECK(PMIX_SUCCESS == PMIx_Get(&me, "test.key", NULL, 0, &v) &&
              0 == strcmp("mine", v->data.string),
          "get own key");
    PMIX_VALUE_RELEASE(v);
    CHECK(PMIX_ERR_NOT_FOUND == PMIx_Get(&me, "test.missing", NULL, 0, &v), "missing key");
    /* A nested Init/Finalize pair leaves the process initialised. */
    CHECK(PMIX_SUCCESS == PMIx_Init(NULL, NULL, 0), "nested init");
    CHECK(PMIX_SUCCESS == PMIx_Finalize(NULL, 0), "nested finalize");
    CHECK(PMIx_Initialized(), "still initialised");
    CHECK(PMIX_SUCCESS == PMIx_Get(&me, "test.key", NULL, 0, &v), "get after nested pair");
    PMIX_VALUE_RELEASE(v);
    CHECK(PMIX_SUCCESS == PMIx_Finalize(NULL, 0), "finalize");
    CHECK(!PMIx_Initialized(), "finalized");
}

int main(void)
{
    /* Never find a server, whatever the environment says. */
    unsetenv("PMIX_NAMESPACE");
    unsetenv("PMIX_SERVER_URI41");
    one_life();
    one_life();
    printf("singleton: ok\n");
    return 0;
}
