/*
 * info_api.c - loading and transferring pmix_info_t, and the info lists
 * a caller builds before turning them into an array.
 *
 * An info is a key, directive flags and a pmix_value_t; the value work is
 * PMIx_Value_load and PMIx_Value_xfer (src/bfrops/value_api.c). Each call
 * here builds its result aside and stores it only once nothing can fail,
 * so a failed call leaves the destination as it was.
 *
 * Design notes:
 *  - PMIX_INFO_PERSISTENT marks an info whose value the holder does not
 *    own: PMIx_Info_xfer copies such a value shallowly (the pointers it
 *    holds are shared, and the flag travels with them so nobody frees them
 *    twice), and releasing a list leaves it alone.
 *  - The handle of PMIx_Info_list_start is an info_list_t: a growable
 *    array of infos. It is private; a caller only passes it back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "pmix.h"

/* The list behind a PMIx_Info_list_start handle. */
typedef struct info_list {
    pmix_info_t *items;
    size_t count;
    size_t capacity;
} info_list_t;

static void load_key(pmix_key_t dest, const char *key)
{
    /* A longer key is cut to the PMIx limit, as PMIX_LOAD_KEY does. */
    size_t len = strnlen(key, PMIX_MAX_KEYLEN);

    memcpy(dest, key, len);
    dest[len] = '\0';
}

static bool is_persistent(const pmix_info_t *info)
{
    return 0 != (info->flags & PMIX_INFO_PERSISTENT);
}

PMIX_EXPORT pmix_status_t PMIx_Info_load(pmix_info_t *info, const char *key, const void *data,
                                         pmix_data_type_t type)
{
    pmix_value_t value;
    pmix_status_t rc;

    if (NULL == info || NULL == key) {
        return PMIX_ERR_BAD_PARAM;
    }
    memset(&value, 0, sizeof(value));
    rc = PMIx_Value_load(&value, data, type);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    load_key(info->key, key);
    info->flags = 0;
    info->value = value;
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Info_xfer(pmix_info_t *dest, const pmix_info_t *src)
{
    pmix_value_t value;
    pmix_status_t rc;

    if (NULL == dest || NULL == src) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (is_persistent(src)) {
        value = src->value;
    } else {
        memset(&value, 0, sizeof(value));
        rc = PMIx_Value_xfer(&value, &src->value);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    /* src and dest may be the same info: the key copy must not overlap. */
    if (dest != src) {
        load_key(dest->key, src->key);
        dest->flags = src->flags;
    }
    dest->value = value;
    return PMIX_SUCCESS;
}

/* Release the values the n infos own (persistent ones own nothing). */
static void release_infos(pmix_info_t *infos, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!is_persistent(&infos[i])) {
            PMIx_Value_destruct(&infos[i].value);
        }
    }
}

PMIX_EXPORT void *PMIx_Info_list_start(void)
{
    return calloc(1, sizeof(info_list_t));
}

/* The next free slot of list, growing it as needed; NULL when memory runs
 * out, the list then being unchanged. The slot counts only once the caller
 * calls commit_slot. */
static pmix_info_t *next_slot(info_list_t *list)
{
    if (list->count == list->capacity) {
        size_t cap = (0 == list->capacity) ? 8 : 2 * list->capacity;
        pmix_info_t *grown;

        if (cap > SIZE_MAX / sizeof(pmix_info_t)) {
            return NULL;
        }
        grown = realloc(list->items, cap * sizeof(pmix_info_t));
        if (NULL == grown) {
            return NULL;
        }
        list->items = grown;
        list->capacity = cap;
    }
    memset(&list->items[list->count], 0, sizeof(pmix_info_t));
    return &list->items[list->count];
}

static void commit_slot(info_list_t *list)
{
    list->count++;
}

PMIX_EXPORT pmix_status_t PMIx_Info_list_add(void *ptr, const char *key, const void *value,
                                             pmix_data_type_t type)
{
    info_list_t *list = ptr;
    pmix_info_t *slot;
    pmix_status_t rc;

    if (NULL == list || NULL == key) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (slot = next_slot(list))) {
        return PMIX_ERR_NOMEM;
    }
    rc = PMIx_Info_load(slot, key, value, type);
    if (PMIX_SUCCESS == rc) {
        commit_slot(list);
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Info_list_insert(void *ptr, pmix_info_t *info)
{
    info_list_t *list = ptr;
    pmix_info_t *slot;

    if (NULL == list || NULL == info) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (slot = next_slot(list))) {
        return PMIX_ERR_NOMEM;
    }
    /* The caller keeps ownership of what the value points to: the list
     * holds the same pointers and marks the entry so it never frees them. */
    *slot = *info;
    slot->flags |= PMIX_INFO_PERSISTENT;
    commit_slot(list);
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Info_list_xfer(void *ptr, const pmix_info_t *info)
{
    info_list_t *list = ptr;
    pmix_info_t *slot;
    pmix_status_t rc;

    if (NULL == list || NULL == info) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (NULL == (slot = next_slot(list))) {
        return PMIX_ERR_NOMEM;
    }
    rc = PMIx_Info_xfer(slot, info);
    if (PMIX_SUCCESS == rc) {
        commit_slot(list);
    }
    return rc;
}

PMIX_EXPORT pmix_status_t PMIx_Info_list_convert(void *ptr, pmix_data_array_t *par)
{
    info_list_t *list = ptr;
    pmix_info_t *array;
    pmix_status_t rc;

    if (NULL == list || NULL == par) {
        return PMIX_ERR_BAD_PARAM;
    }
    par->type = PMIX_INFO;
    par->size = 0;
    par->array = NULL;
    if (0 == list->count) {
        return PMIX_ERR_EMPTY;
    }
    array = calloc(list->count, sizeof(pmix_info_t));
    if (NULL == array) {
        return PMIX_ERR_NOMEM;
    }
    for (size_t i = 0; i < list->count; i++) {
        rc = PMIx_Info_xfer(&array[i], &list->items[i]);
        if (PMIX_SUCCESS != rc) {
            release_infos(array, i);
            free(array);
            return rc;
        }
    }
    par->array = array;
    par->size = list->count;
    return PMIX_SUCCESS;
}

PMIX_EXPORT void PMIx_Info_list_release(void *ptr)
{
    info_list_t *list = ptr;

    if (NULL == list) {
        return;
    }
    release_infos(list->items, list->count);
    free(list->items);
    free(list);
}
