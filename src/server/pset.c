/*
 * pset.c - process sets: PMIx_server_define_process_set and
 * PMIx_server_delete_process_set, and the queries about them
 * (PMIX_QUERY_NUM_PSETS, PMIX_QUERY_PSET_NAMES, PMIX_QUERY_PSET_MEMBERSHIP).
 *
 * Design notes:
 *  - The host names the sets (a resource manager's partitions, an
 *    application's workers...); the server keeps them so it can answer
 *    queries without the host, and announces each change to its local
 *    clients with a PMIX_PROCESS_SET_DEFINE or PMIX_PROCESS_SET_DELETE
 *    event (PMIX_PSET_NAME, and PMIX_PSET_MEMBERS for a definition), for
 *    non-default handlers only, as PMIx does.
 *  - A name is defined once: defining it again is PMIX_ERR_EXISTS,
 *    deleting an unknown one PMIX_ERR_NOT_FOUND. Both calls block until the
 *    set is recorded and, as OpenPMIx does, return PMIX_OPERATION_SUCCEEDED.
 *  - The sets live in the progress thread; the host's calls run there
 *    through server_run_sync.
 */
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "server.h"
#include "strbuf.h"

typedef struct pset {
    char *name;
    pmix_proc_t *members;
    size_t nmembers;
    struct pset *next;
} pset_t;

static pset_t *psets;
static size_t npsets;

static pset_t **find(const char *name)
{
    pset_t **p = &psets;
    while (NULL != *p && 0 != strcmp((*p)->name, name)) {
        p = &(*p)->next;
    }
    return p;
}

static void free_pset(pset_t *ps)
{
    free(ps->name);
    free(ps->members);
    free(ps);
}

/* Announce a change to the local clients. */
static void announce(pmix_status_t code, const pset_t *ps)
{
    pmix_info_t info[3];
    size_t n = 0;
    pmix_data_array_t members = {.type = PMIX_PROC, .size = ps->nmembers, .array = ps->members};

    PMIX_INFO_LOAD(&info[n++], PMIX_EVENT_NON_DEFAULT, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[n++], PMIX_PSET_NAME, ps->name, PMIX_STRING);
    if (PMIX_PROCESS_SET_DEFINE == code) {
        PMIX_INFO_LOAD(&info[n++], PMIX_PSET_MEMBERS, &members, PMIX_DATA_ARRAY);
    }
    notify_deliver(code, &server.me, PMIX_RANGE_LOCAL, info, n, NULL);
    for (size_t i = 0; i < n; i++) {
        PMIX_INFO_DESTRUCT(&info[i]);
    }
}

typedef struct pset_op {
    const char *name;
    const pmix_proc_t *members;
    size_t nmembers;
} pset_op_t;

static pmix_status_t do_define(void *arg)
{
    pset_op_t *op = arg;
    pset_t *ps;

    if (NULL != *find(op->name)) {
        return PMIX_ERR_EXISTS;
    }
    if (NULL == (ps = calloc(1, sizeof(*ps))) || NULL == (ps->name = strdup(op->name)) ||
        NULL == (ps->members = malloc(op->nmembers * sizeof(*ps->members)))) {
        if (NULL != ps) {
            free_pset(ps);
        }
        return PMIX_ERR_NOMEM;
    }
    memcpy(ps->members, op->members, op->nmembers * sizeof(*ps->members));
    ps->nmembers = op->nmembers;
    *find(op->name) = ps;
    npsets++;
    announce(PMIX_PROCESS_SET_DEFINE, ps);
    return PMIX_SUCCESS;
}

static pmix_status_t do_delete(void *arg)
{
    pset_op_t *op = arg;
    pset_t **p = find(op->name), *ps = *p;

    if (NULL == ps) {
        return PMIX_ERR_NOT_FOUND;
    }
    *p = ps->next;
    npsets--;
    announce(PMIX_PROCESS_SET_DELETE, ps);
    free_pset(ps);
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_server_define_process_set(const pmix_proc_t *members,
                                                         size_t nmembers, const char *pset_name)
{
    pset_op_t op = {.name = pset_name, .members = members, .nmembers = nmembers};
    if (NULL == members || 0 == nmembers) {
        return PMIX_ERR_BAD_PARAM;
    }
    return server_run_named(do_define, pset_name, &op);
}

PMIX_EXPORT pmix_status_t PMIx_server_delete_process_set(char *pset_name)
{
    pset_op_t op = {.name = pset_name};
    return server_run_named(do_delete, pset_name, &op);
}

/* The qualifier PMIX_PSET_NAME of q, or NULL. */
static const char *named_set(const pmix_query_t *q)
{
    for (size_t i = 0; i < q->nqual; i++) {
        if (PMIX_CHECK_KEY(&q->qualifiers[i], PMIX_PSET_NAME) &&
            PMIX_STRING == q->qualifiers[i].value.type) {
            return q->qualifiers[i].value.data.string;
        }
    }
    return NULL;
}

bool pset_query(const char *key, const pmix_query_t *q, pmix_info_t *result, pmix_status_t *rc)
{
    if (0 == strcmp(key, PMIX_QUERY_NUM_PSETS)) {
        *rc = PMIx_Info_load(result, key, &npsets, PMIX_SIZE);
    } else if (0 == strcmp(key, PMIX_QUERY_PSET_NAMES)) {
        strbuf_t b = STRBUF_INIT;
        for (const pset_t *ps = psets; NULL != ps; ps = ps->next) {
            strbuf_printf(&b, "%s%s", ps == psets ? "" : ",", ps->name);
        }
        char *names = strbuf_finish(&b);
        *rc = NULL == names ? PMIX_ERR_NOMEM : PMIx_Info_load(result, key, names, PMIX_STRING);
        free(names);
    } else if (0 == strcmp(key, PMIX_QUERY_PSET_MEMBERSHIP)) {
        const char *name = named_set(q);
        const pset_t *ps = NULL == name ? NULL : *find(name);
        if (NULL == ps) {
            *rc = NULL == name ? PMIX_ERR_BAD_PARAM : PMIX_ERR_NOT_FOUND;
        } else {
            pmix_data_array_t members = {.type = PMIX_PROC, .size = ps->nmembers,
                                         .array = ps->members};
            *rc = PMIx_Info_load(result, key, &members, PMIX_DATA_ARRAY);
        }
    } else {
        return false;
    }
    return true;
}

void pset_clear_all(void)
{
    while (NULL != psets) {
        pset_t *ps = psets;
        psets = ps->next;
        free_pset(ps);
    }
    npsets = 0;
}
