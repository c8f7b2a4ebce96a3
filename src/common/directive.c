/*
 * directive.c - reading the directives that come with a request.
 *
 * Design notes:
 *  - Programs give integer directives in whatever type is at hand (Open
 *    MPI sends PMIX_TIMEOUT as an int, others as a uint32 or a size), and
 *    OpenPMIx converts any integer type. One reader here keeps the client,
 *    the server and the launcher from each accepting a different subset.
 */
#include "directive.h"

#include "pmix.h"

/* An unsigned value, refused when it does not fit. */
static pmix_status_t from_unsigned(uint64_t u, int64_t *out)
{
    if (u > (uint64_t)INT64_MAX) {
        return PMIX_ERR_BAD_PARAM;
    }
    *out = (int64_t)u;
    return PMIX_SUCCESS;
}

pmix_status_t directive_integer(const pmix_value_t *v, int64_t *out)
{
    switch (v->type) {
    case PMIX_INT:
        *out = v->data.integer;
        return PMIX_SUCCESS;
    case PMIX_INT8:
        *out = v->data.int8;
        return PMIX_SUCCESS;
    case PMIX_INT16:
        *out = v->data.int16;
        return PMIX_SUCCESS;
    case PMIX_INT32:
        *out = v->data.int32;
        return PMIX_SUCCESS;
    case PMIX_INT64:
        *out = v->data.int64;
        return PMIX_SUCCESS;
    case PMIX_PID:
        *out = v->data.pid;
        return PMIX_SUCCESS;
    case PMIX_UINT:
        return from_unsigned(v->data.uint, out);
    case PMIX_UINT8:
        return from_unsigned(v->data.uint8, out);
    case PMIX_UINT16:
        return from_unsigned(v->data.uint16, out);
    case PMIX_UINT32:
        return from_unsigned(v->data.uint32, out);
    case PMIX_UINT64:
        return from_unsigned(v->data.uint64, out);
    case PMIX_SIZE:
        return from_unsigned(v->data.size, out);
    case PMIX_PROC_RANK:
        return from_unsigned(v->data.rank, out);
    default:
        return PMIX_ERR_BAD_PARAM;
    }
}

int directive_timeout(const pmix_info_t *info, size_t ninfo)
{
    for (size_t i = 0; i < ninfo; i++) {
        int64_t seconds;
        if (PMIX_CHECK_KEY(&info[i], PMIX_TIMEOUT)) {
            if (PMIX_SUCCESS != directive_integer(&info[i].value, &seconds) || seconds <= 0) {
                return 0;
            }
            return seconds > INT32_MAX ? INT32_MAX : (int)seconds;
        }
    }
    return 0;
}

const pmix_value_t *directive_find(const pmix_info_t *info, size_t ninfo, const char *key)
{
    for (size_t i = 0; i < ninfo; i++) {
        if (PMIX_CHECK_KEY(&info[i], key)) {
            return &info[i].value;
        }
    }
    return NULL;
}

bool directive_flag(const pmix_info_t *info, size_t ninfo, const char *key)
{
    const pmix_value_t *v = directive_find(info, ninfo, key);
    return NULL != v && PMIX_CHECK_TRUE(v);
}

const pmix_proc_t *directive_procs(const pmix_info_t *info, size_t ninfo, const char *key,
                                   size_t *n)
{
    const pmix_value_t *v = directive_find(info, ninfo, key);
    *n = 0;
    if (NULL != v && PMIX_PROC == v->type && NULL != v->data.proc) {
        *n = 1;
        return v->data.proc;
    }
    if (NULL != v && PMIX_DATA_ARRAY == v->type && NULL != v->data.darray &&
        PMIX_PROC == v->data.darray->type && NULL != v->data.darray->array) {
        *n = v->data.darray->size;
        return v->data.darray->array;
    }
    return NULL;
}

static bool rank_names(pmix_rank_t rank, const pmix_proc_t *proc)
{
    return PMIX_RANK_WILDCARD == rank || rank == proc->rank;
}

static bool proc_names(const pmix_proc_t *p, const pmix_proc_t *proc)
{
    return ('\0' == p->nspace[0] || PMIX_CHECK_NSPACE(p->nspace, proc->nspace)) &&
           rank_names(p->rank, proc);
}

pmix_status_t directive_names_proc(const pmix_value_t *v, const pmix_proc_t *proc, bool *named)
{
    *named = false;
    if (PMIX_BOOL == v->type) {
        *named = v->data.flag;
    } else if (PMIX_PROC_RANK == v->type) {
        *named = rank_names(v->data.rank, proc);
    } else if (PMIX_PROC == v->type && NULL != v->data.proc) {
        *named = proc_names(v->data.proc, proc);
    } else if (PMIX_DATA_ARRAY == v->type && NULL != v->data.darray &&
               (PMIX_PROC == v->data.darray->type || PMIX_PROC_RANK == v->data.darray->type) &&
               (NULL != v->data.darray->array || 0 == v->data.darray->size)) {
        const pmix_data_array_t *a = v->data.darray;
        for (size_t i = 0; i < a->size && !*named; i++) {
            *named = PMIX_PROC == a->type ? proc_names(&((pmix_proc_t *)a->array)[i], proc)
                                          : rank_names(((pmix_rank_t *)a->array)[i], proc);
        }
    } else {
        return PMIX_ERR_BAD_PARAM;
    }
    return PMIX_SUCCESS;
}
