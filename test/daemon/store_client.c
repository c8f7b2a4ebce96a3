/*
 * store_client.c - a PMIx client for the daemon's store tests: one
 * publish, lookup or unpublish per run, its outcome on stdout.
 *
 *   store-client publish KEY VALUE PERSIST [RANGE] [HOLD]
 *       rank 0 publishes KEY=VALUE (a string) with PERSIST (indef,
 *       first_read, proc, app, session) and RANGE (session, global,
 *       namespace; default: none given), says "published" or "publish
 *       failed: STATUS" and ends; the other ranks say "holding" and stay
 *       HOLD seconds (default 0), so that the job outlives rank 0.
 *   store-client lookup KEY [WAIT]
 *       prints "KEY=VALUE (from NSPACE rank R)", or "not found: STATUS"
 *       (exit 1); with WAIT, waits up to WAIT seconds for a publish.
 *   store-client expose KEY VALUE HOLD
 *       rank 0 puts KEY=VALUE (PMIX_GLOBAL) and commits, publishes its
 *       namespace as "svc.nspace", says "exposed" and stays HOLD seconds.
 *   store-client fetch KEY
 *       looks "svc.nspace" up (waiting), connects with that job
 *       (PMIx_Connect of both namespaces) and gets KEY of its rank 0:
 *       prints "KEY=VALUE" or "fetch failed: STATUS" (exit 1).
 *   store-client unpublish KEY [VALUE]
 *       publishes KEY (indef, VALUE or "soon gone"), then unpublishes it:
 *       prints "unpublished" or "unpublish failed: STATUS" (exit 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmix.h"

static int publish(const pmix_proc_t *me, int argc, char **argv)
{
    static const char *const names[] = {"indef", "first_read", "proc", "app", "session"};
    pmix_persistence_t persist = PMIX_PERSIST_INVALID;
    for (pmix_persistence_t p = 0; p < 5; p++) {
        if (0 == strcmp(argv[4], names[p])) {
            persist = p;
        }
    }
    if (PMIX_PERSIST_INVALID == persist) {
        fprintf(stderr, "store-client: unknown persistence %s\n", argv[4]);
        return 2;
    }
    if (0 != me->rank) {
        printf("holding\n");
        fflush(stdout);
        sleep(argc > 6 ? (unsigned)atoi(argv[6]) : 0);
        return 0;
    }
    pmix_info_t info[3];
    size_t n = 0;
    PMIX_INFO_LOAD(&info[n], argv[2], argv[3], PMIX_STRING);
    n++;
    PMIX_INFO_LOAD(&info[n], PMIX_PERSISTENCE, &persist, PMIX_PERSIST);
    n++;
    if (argc > 5 && 0 != strcmp(argv[5], "none")) {
        pmix_data_range_t range = 0 == strcmp(argv[5], "global")      ? PMIX_RANGE_GLOBAL
                                  : 0 == strcmp(argv[5], "namespace") ? PMIX_RANGE_NAMESPACE
                                                                      : PMIX_RANGE_SESSION;
        PMIX_INFO_LOAD(&info[n], PMIX_RANGE, &range, PMIX_DATA_RANGE);
        n++;
    }
    pmix_status_t rc = PMIx_Publish(info, n);
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
    if (PMIX_SUCCESS != rc) {
        printf("publish failed: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    printf("published\n");
    return 0;
}

static int lookup(int argc, char **argv)
{
    pmix_pdata_t pdata;
    PMIX_PDATA_CONSTRUCT(&pdata);
    PMIX_LOAD_KEY(pdata.key, argv[2]);
    pmix_info_t info[2];
    bool wait = true;
    int timeout = argc > 3 ? atoi(argv[3]) : 0;
    PMIX_INFO_LOAD(&info[0], PMIX_WAIT, &wait, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
    pmix_status_t rc = PMIx_Lookup(&pdata, 1, argc > 3 ? info : NULL, argc > 3 ? 2 : 0);
    int status = 0;
    if (PMIX_SUCCESS == rc && PMIX_STRING == pdata.value.type) {
        printf("%s=%s (from %s rank %u)\n", argv[2], pdata.value.data.string, pdata.proc.nspace,
               pdata.proc.rank);
    } else {
        printf("not found: %s\n", PMIx_Error_string(rc));
        status = 1;
    }
    PMIX_PDATA_DESTRUCT(&pdata);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    return status;
}

static int unpublish(int argc, char **argv)
{
    char *keys[] = {argv[2], NULL};
    pmix_persistence_t persist = PMIX_PERSIST_INDEF;
    pmix_info_t info[2];
    PMIX_INFO_LOAD(&info[0], argv[2], argc > 3 ? argv[3] : "soon gone", PMIX_STRING);
    PMIX_INFO_LOAD(&info[1], PMIX_PERSISTENCE, &persist, PMIX_PERSIST);
    pmix_status_t rc = PMIx_Publish(info, 2);
    PMIX_INFO_DESTRUCT(&info[0]);
    PMIX_INFO_DESTRUCT(&info[1]);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Unpublish(keys, NULL, 0);
    }
    if (PMIX_SUCCESS != rc) {
        printf("unpublish failed: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    printf("unpublished\n");
    return 0;
}

static int expose(const pmix_proc_t *me, char **argv)
{
    pmix_value_t value = {.type = PMIX_STRING, .data.string = argv[3]};
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, argv[2], &value);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Commit();
    }
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, "svc.nspace", me->nspace, PMIX_STRING);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Publish(&info, 1);
    }
    PMIX_INFO_DESTRUCT(&info);
    printf("%s %s\n", PMIX_SUCCESS == rc ? "exposed" : "expose failed:", PMIx_Error_string(rc));
    fflush(stdout);
    sleep((unsigned)atoi(argv[4]));
    return PMIX_SUCCESS == rc ? 0 : 1;
}

static int fetch(const pmix_proc_t *me, char **argv)
{
    pmix_pdata_t pdata;
    PMIX_PDATA_CONSTRUCT(&pdata);
    PMIX_LOAD_KEY(pdata.key, "svc.nspace");
    pmix_info_t wait[2];
    bool yes = true;
    int timeout = 20;
    PMIX_INFO_LOAD(&wait[0], PMIX_WAIT, &yes, PMIX_BOOL);
    PMIX_INFO_LOAD(&wait[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
    pmix_status_t rc = PMIx_Lookup(&pdata, 1, wait, 2);
    pmix_value_t *value = NULL;
    if (PMIX_SUCCESS == rc && PMIX_STRING == pdata.value.type) {
        pmix_proc_t procs[2], other;
        PMIX_LOAD_PROCID(&procs[0], me->nspace, PMIX_RANK_WILDCARD);
        PMIX_LOAD_PROCID(&procs[1], pdata.value.data.string, PMIX_RANK_WILDCARD);
        PMIX_LOAD_PROCID(&other, pdata.value.data.string, 0);
        rc = PMIx_Connect(procs, 2, NULL, 0);
        if (PMIX_SUCCESS == rc) {
            rc = PMIx_Get(&other, argv[2], NULL, 0, &value);
        }
    }
    int status = 1;
    if (PMIX_SUCCESS == rc && NULL != value && PMIX_STRING == value->type) {
        printf("%s=%s\n", argv[2], value->data.string);
        status = 0;
    } else {
        printf("fetch failed: %s\n", PMIx_Error_string(rc));
    }
    if (NULL != value) {
        PMIX_VALUE_RELEASE(value);
    }
    PMIX_PDATA_DESTRUCT(&pdata);
    PMIX_INFO_DESTRUCT(&wait[0]);
    PMIX_INFO_DESTRUCT(&wait[1]);
    return status;
}

int main(int argc, char **argv)
{
    pmix_proc_t me;
    if (argc < 3 || PMIX_SUCCESS != PMIx_Init(&me, NULL, 0)) {
        fprintf(stderr, "usage: store-client publish|lookup|unpublish KEY ... (under drover)\n");
        return 2;
    }
    int status = 2;
    if (0 == strcmp(argv[1], "publish") && argc >= 5) {
        status = publish(&me, argc, argv);
    } else if (0 == strcmp(argv[1], "lookup")) {
        status = lookup(argc, argv);
    } else if (0 == strcmp(argv[1], "expose") && argc >= 5) {
        status = expose(&me, argv);
    } else if (0 == strcmp(argv[1], "fetch")) {
        status = fetch(&me, argv);
    } else if (0 == strcmp(argv[1], "unpublish")) {
        status = unpublish(argc, argv);
    }
    fflush(stdout);
    PMIx_Finalize(NULL, 0);
    return status;
}
