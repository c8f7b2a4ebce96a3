/*
 * registry.c - the table of datatype records, looked up by id.
 *
 * Design notes:
 *  - Builtin types come from datatypes.def: one X-macro line per type,
 *    expanded here once into extern declarations and once into a list of
 *    record addresses. At first use the list is filed into an array
 *    indexed by id (pthread_once), so a builtin lookup is one array read.
 *  - Types registered at run time live in pages of PAGE_SIZE ids, created
 *    when the first id of a page is registered. Registration takes a mutex;
 *    lookups take no lock: a record is complete before its pointer is
 *    published with a release store, and readers load it with acquire.
 *    Nothing is ever removed, so a record a reader found stays valid.
 *  - A process that registers nothing carries only the builtin array.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "bfrops.h"
#include "registry.h"

#define DATATYPE(name, kind) extern const drover_datatype_t bfrops_type_##name;
#include "datatypes.def"
#undef DATATYPE

static const drover_datatype_t *const builtin_list[] = {
#define DATATYPE(name, kind) &bfrops_type_##name,
#include "datatypes.def"
#undef DATATYPE
};

/* Builtin records by id; filled once, read-only afterwards. */
static const drover_datatype_t *builtins[DROVER_DATATYPE_USER_MIN];
static pthread_once_t builtins_once = PTHREAD_ONCE_INIT;

#define PAGE_SIZE 256u
#define USER_SPAN ((size_t)DROVER_DATATYPE_USER_MAX - DROVER_DATATYPE_USER_MIN + 1)
#define USER_PAGES ((USER_SPAN + PAGE_SIZE - 1) / PAGE_SIZE)

typedef struct user_page {
    _Atomic(const drover_datatype_t *) slot[PAGE_SIZE];
} user_page_t;

static _Atomic(user_page_t *) user_pages[USER_PAGES];
static size_t user_count;   /* guarded by user_lock */
static pthread_mutex_t user_lock = PTHREAD_MUTEX_INITIALIZER;

static void file_builtins(void)
{
    for (size_t i = 0; i < sizeof(builtin_list) / sizeof(builtin_list[0]); i++) {
        const drover_datatype_t *t = builtin_list[i];
        /* Two records under one id, or a builtin in the user range, is a
         * mistake in datatypes.def or a family file: the library cannot
         * work around it, so say which record is wrong and stop. */
        if (t->id >= DROVER_DATATYPE_USER_MIN || NULL != builtins[t->id]) {
            fprintf(stderr, "drover: builtin datatype %s has a bad or duplicate id %u\n",
                    t->name, (unsigned)t->id);
            abort();
        }
        builtins[t->id] = t;
    }
}

static _Atomic(const drover_datatype_t *) *user_slot(pmix_data_type_t id, user_page_t *page)
{
    return &page->slot[((size_t)id - DROVER_DATATYPE_USER_MIN) % PAGE_SIZE];
}

static _Atomic(user_page_t *) *user_page_ref(pmix_data_type_t id)
{
    return &user_pages[((size_t)id - DROVER_DATATYPE_USER_MIN) / PAGE_SIZE];
}

const drover_datatype_t *bfrops_lookup(pmix_data_type_t id)
{
    if (id < DROVER_DATATYPE_USER_MIN) {
        pthread_once(&builtins_once, file_builtins);
        return builtins[id];
    }
    if (id > DROVER_DATATYPE_USER_MAX) {
        return NULL;
    }
    user_page_t *page = atomic_load_explicit(user_page_ref(id), memory_order_acquire);
    if (NULL == page) {
        return NULL;
    }
    return atomic_load_explicit(user_slot(id, page), memory_order_acquire);
}

void bfrops_foreach(void (*fn)(const drover_datatype_t *type, void *arg), void *arg)
{
    pthread_once(&builtins_once, file_builtins);
    for (size_t id = 0; id < DROVER_DATATYPE_USER_MIN; id++) {
        if (NULL != builtins[id]) {
            fn(builtins[id], arg);
        }
    }
    for (size_t id = DROVER_DATATYPE_USER_MIN; id <= DROVER_DATATYPE_USER_MAX; id++) {
        const drover_datatype_t *t = bfrops_lookup((pmix_data_type_t)id);
        if (NULL != t) {
            fn(t, arg);
        }
    }
}

pmix_status_t registry_insert(const drover_datatype_t *type)
{
    pmix_status_t rc = PMIX_SUCCESS;
    drover_datatype_t *copy = NULL;
    user_page_t *fresh = NULL;

    pthread_mutex_lock(&user_lock);
    _Atomic(user_page_t *) *ref = user_page_ref(type->id);
    user_page_t *page = atomic_load_explicit(ref, memory_order_relaxed);
    if (NULL != page &&
        NULL != atomic_load_explicit(user_slot(type->id, page), memory_order_relaxed)) {
        rc = PMIX_ERR_DUPLICATE_KEY;
        goto out;
    }
    if (user_count >= REGISTRY_USER_CAP) {
        rc = PMIX_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    copy = malloc(sizeof(*copy));
    if (NULL == page) {
        fresh = calloc(1, sizeof(*fresh));
    }
    if (NULL == copy || (NULL == page && NULL == fresh)) {
        free(copy);
        free(fresh);
        rc = PMIX_ERR_OUT_OF_RESOURCE;
        goto out;
    }
    *copy = *type;
    if (NULL == page) {
        page = fresh;
        atomic_store_explicit(ref, page, memory_order_release);
    }
    atomic_store_explicit(user_slot(type->id, page), copy, memory_order_release);
    user_count++;
out:
    pthread_mutex_unlock(&user_lock);
    return rc;
}
