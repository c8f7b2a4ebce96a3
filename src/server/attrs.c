/*
 * attrs.c - PMIx_Register_attributes: the host declares which attributes
 * each of its module functions honours, and the server answers
 * PMIX_QUERY_ATTRIBUTE_SUPPORT queries about the host's functions from
 * those declarations.
 *
 * Design notes:
 *  - A function is registered once (PMIX_ERR_REPEAT_ATTR_REGISTRATION
 *    after that); names and attribute lists are copied.
 *  - A query's qualifiers choose what is reported: PMIX_HOST_ATTRIBUTES
 *    ("fn1,fn2" or "all") the attributes of those functions, each as an
 *    info keyed by the function's name holding a PMIX_REGATTR array;
 *    PMIX_HOST_FUNCTIONS the comma-separated names of the registered
 *    functions. Without qualifiers, every function's attributes. The
 *    answer is one info, PMIX_QUERY_ATTRIBUTE_SUPPORT, holding those
 *    infos as a PMIX_INFO array.
 *  - Each attribute is described from drover's attribute table (key
 *    string, type, description); a name the table does not know (OpenPMIx
 *    hosts register pseudo-names such as "NONE") is reported with an
 *    empty key and PMIX_UNDEF.
 */
#include <stdlib.h>
#include <string.h>

#include "attributes.h"
#include "pmix.h"
#include "server.h"
#include "strbuf.h"

typedef struct registration {
    char *function;
    char **attrs;                /* NULL-terminated */
    struct registration *next;
} registration_t;

static registration_t *registrations;

static void free_registration(registration_t *r)
{
    for (size_t i = 0; NULL != r->attrs && NULL != r->attrs[i]; i++) {
        free(r->attrs[i]);
    }
    free(r->attrs);
    free(r->function);
    free(r);
}

static registration_t *find(const char *function)
{
    registration_t *r = registrations;
    while (NULL != r && 0 != strcmp(r->function, function)) {
        r = r->next;
    }
    return r;
}

typedef struct register_op {
    const char *function;
    char **attrs;
} register_op_t;

static pmix_status_t do_register(void *arg)
{
    register_op_t *op = arg;
    registration_t *r;
    size_t n = 0;

    if (NULL != find(op->function)) {
        return PMIX_ERR_REPEAT_ATTR_REGISTRATION;
    }
    while (NULL != op->attrs && NULL != op->attrs[n]) {
        n++;
    }
    if (NULL == (r = calloc(1, sizeof(*r))) || NULL == (r->function = strdup(op->function)) ||
        NULL == (r->attrs = calloc(n + 1, sizeof(*r->attrs)))) {
        goto nomem;
    }
    for (size_t i = 0; i < n; i++) {
        if (NULL == (r->attrs[i] = strdup(op->attrs[i]))) {
            goto nomem;
        }
    }
    r->next = registrations;
    registrations = r;
    return PMIX_SUCCESS;
nomem:
    if (NULL != r) {
        free_registration(r);
    }
    return PMIX_ERR_NOMEM;
}

PMIX_EXPORT pmix_status_t PMIx_Register_attributes(char *function, char *attrs[])
{
    register_op_t op = {.function = function, .attrs = attrs};

    if (!server.initialized) {
        return PMIX_ERR_INIT;
    }
    if (NULL == function || '\0' == function[0]) {
        return PMIX_ERR_BAD_PARAM;
    }
    return server_run_sync(do_register, &op);
}

void attrs_clear_all(void)
{
    while (NULL != registrations) {
        registration_t *r = registrations;
        registrations = r->next;
        free_registration(r);
    }
}

/* ---- Answering queries ---------------------------------------------------- */

/* Whether function is named in a comma-separated list ("all": any). */
static bool listed(const char *list, const char *function)
{
    size_t len = strlen(function);
    for (const char *p = list; NULL != p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        p += strspn(p, " ");
        if ((0 == strncmp(p, "all", 3) && strchr(", ", p[3])) ||
            (0 == strncmp(p, function, len) && strchr(", ", p[len]))) {
            return true;
        }
    }
    return false;
}

/* Add to list an info named after r's function holding its attributes
 * as a PMIX_REGATTR array. */
static pmix_status_t describe(void *list, const registration_t *r)
{
    size_t n = 0;
    while (NULL != r->attrs[n]) {
        n++;
    }
    pmix_regattr_t *regs = calloc(n + 1, sizeof(*regs));
    char **lines = calloc(2 * n + 1, sizeof(*lines));
    pmix_status_t rc = PMIX_ERR_NOMEM;

    if (NULL != regs && NULL != lines) {
        for (size_t i = 0; i < n; i++) {
            const attributes_entry_t *a = attributes_by_name(r->attrs[i]);
            regs[i].name = r->attrs[i];
            regs[i].type = NULL == a ? PMIX_UNDEF : a->type;
            PMIX_LOAD_KEY(regs[i].string, NULL == a ? "" : a->key);
            /* One line of description, NULL-terminated: lines[2i], [2i+1]. */
            lines[2 * i] = NULL == a ? NULL : (char *)a->description;
            regs[i].description = NULL == a ? NULL : &lines[2 * i];
        }
        pmix_data_array_t array = {.type = PMIX_REGATTR, .size = n, .array = regs};
        rc = PMIx_Info_list_add(list, r->function, &array, PMIX_DATA_ARRAY);
    }
    free(lines);
    free(regs);
    return rc;
}

/* Add what one qualifier asks about the host's functions to list. */
static pmix_status_t report(void *list, const pmix_info_t *qual)
{
    bool functions = PMIX_CHECK_KEY(qual, PMIX_HOST_FUNCTIONS);
    const char *wanted = PMIX_STRING == qual->value.type ? qual->value.data.string : NULL;
    strbuf_t names = STRBUF_INIT;
    pmix_status_t rc = PMIX_SUCCESS;

    if (!functions && !PMIX_CHECK_KEY(qual, PMIX_HOST_ATTRIBUTES)) {
        return PMIX_SUCCESS; /* about the library's own levels: nothing registered */
    }
    for (const registration_t *r = registrations; NULL != r && PMIX_SUCCESS == rc; r = r->next) {
        if (functions) {
            strbuf_printf(&names, "%s%s", 0 == names.len ? "" : ",", r->function);
        } else if (NULL != wanted && listed(wanted, r->function)) {
            rc = describe(list, r);
        }
    }
    char *joined = strbuf_finish(&names);
    if (PMIX_SUCCESS == rc && functions) {
        rc = NULL == joined ? PMIX_ERR_NOMEM
                            : (NULL == registrations
                                   ? PMIX_SUCCESS
                                   : PMIx_Info_list_add(list, PMIX_HOST_FUNCTIONS, joined,
                                                        PMIX_STRING));
    }
    free(joined);
    return rc;
}

bool attrs_query(const char *key, const pmix_query_t *q, pmix_info_t *result, pmix_status_t *rc)
{
    pmix_info_t all;
    pmix_data_array_t array = {.type = PMIX_INFO, .size = 0, .array = NULL};
    void *list;

    if (0 != strcmp(key, PMIX_QUERY_ATTRIBUTE_SUPPORT)) {
        return false;
    }
    if (NULL == (list = PMIx_Info_list_start())) {
        *rc = PMIX_ERR_NOMEM;
        return true;
    }
    PMIX_INFO_LOAD(&all, PMIX_HOST_ATTRIBUTES, "all", PMIX_STRING);
    *rc = PMIX_SUCCESS;
    for (size_t k = 0; k < q->nqual && PMIX_SUCCESS == *rc; k++) {
        *rc = report(list, &q->qualifiers[k]);
    }
    if (0 == q->nqual) {
        *rc = report(list, &all);
    }
    PMIX_INFO_DESTRUCT(&all);
    if (PMIX_SUCCESS == *rc) {
        *rc = PMIx_Info_list_convert(list, &array);
        *rc = PMIX_ERR_EMPTY == *rc ? PMIX_ERR_NOT_FOUND : *rc;
    }
    if (PMIX_SUCCESS == *rc) {
        *rc = PMIx_Info_load(result, key, &array, PMIX_DATA_ARRAY);
        PMIx_Data_array_destruct(&array);
    }
    PMIx_Info_list_release(list);
    return true;
}
