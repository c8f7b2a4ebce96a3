/*
 * bind.c - values a program binds by name for $-expressions
 * (drover_type_bind), read by expr.c when a declared type is instantiated.
 *
 * Design notes:
 *  - One process-wide table behind a mutex: binding happens at start-up
 *    and reads copy the values out, so no caller holds the lock long.
 *  - Binding a name again replaces its values; n == 0 removes it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "drover.h"
#include "expr.h"
#include "hashmap.h"

typedef struct bound {
    int64_t *v;
    size_t n;
} bound_t;

static hashmap_t table = HASHMAP_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void bound_free(void *p)
{
    bound_t *b = p;
    if (NULL != b) {
        free(b->v);
        free(b);
    }
}

PMIX_EXPORT pmix_status_t drover_type_bind(const char *name, const int64_t *values, size_t n)
{
    if (NULL == name || '\0' == name[0] || (NULL == values && 0 != n)) {
        return PMIX_ERR_BAD_PARAM;
    }
    bound_t *b = NULL;
    if (0 != n) {
        b = calloc(1, sizeof(*b));
        if (NULL == b || NULL == (b->v = malloc(n * sizeof(*values)))) {
            free(b);
            return PMIX_ERR_NOMEM;
        }
        memcpy(b->v, values, n * sizeof(*values));
        b->n = n;
    }
    pmix_status_t rc = PMIX_SUCCESS;
    pthread_mutex_lock(&lock);
    if (NULL == b) {
        bound_free(hashmap_remove(&table, name, strlen(name)));
    } else {
        bool created;
        hashmap_entry_t *e = hashmap_insert_str(&table, name, &created);
        if (NULL == e) {
            bound_free(b);
            rc = PMIX_ERR_NOMEM;
        } else {
            bound_free(e->value);
            e->value = b;
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

pmix_status_t bind_get(const char *path, int64_t **v, size_t *n)
{
    pmix_status_t rc = PMIX_ERR_NOT_FOUND;
    pthread_mutex_lock(&lock);
    hashmap_entry_t *e = hashmap_find_str(&table, path);
    if (NULL != e && NULL != e->value) {
        bound_t *b = e->value;
        *v = malloc(b->n * sizeof(int64_t));
        rc = NULL == *v ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
        if (NULL != *v) {
            memcpy(*v, b->v, b->n * sizeof(int64_t));
            *n = b->n;
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}
