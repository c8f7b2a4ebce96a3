/*
 * typeset.c - the process's declared types: loading files, giving ids,
 * registering, looking up by name (drover_types_load_*,
 * drover_type_lookup).
 *
 * Design notes:
 *  - A load is all or nothing: the file is read, converted, checked and
 *    laid out before anything is registered, and any error leaves the
 *    process as it was (the registry cannot unregister, so this matters).
 *  - Ids are given in declaration order from DROVER_DECLARED_ID_MIN, so
 *    processes that load the same files in the same order agree on them.
 *    A name already declared by an earlier load keeps its id when the new
 *    declaration has the same signature, and is an error otherwise.
 *  - A type whose $-expressions name values not bound yet gets its id at
 *    load but is laid out and registered by the first drover_type_lookup
 *    after they are bound.
 *  - Declared types live as long as the process, as registry records do.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bfrops.h"
#include "canonical.h"
#include "describe.h"
#include "pmix.h"
#include "hashmap.h"
#include "registry.h"
#include "signature.h"
#include "spec.h"
#include "plan.h"
#include "typeset.h"
#include "types.h"

#define ID_SPAN ((size_t)DROVER_DATATYPE_USER_MAX - DROVER_DECLARED_ID_MIN + 1)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static hashmap_t by_name = HASHMAP_INIT;       /* name -> named_t * */
static named_t **order;                         /* in declaration order */
static size_t norder, cap_order;
static _Atomic(const named_t *) by_id[ID_SPAN];
static size_t next_id = DROVER_DECLARED_ID_MIN;

const named_t *types_by_id(pmix_data_type_t id)
{
    if (id < DROVER_DECLARED_ID_MIN || id > DROVER_DATATYPE_USER_MAX) {
        return NULL;
    }
    return atomic_load_explicit(&by_id[id - DROVER_DECLARED_ID_MIN], memory_order_acquire);
}

/* The $-dependent bounds of nt, in tree order, through references. */
static bool collect_shape(named_t *nt, const tnode_t *n)
{
    if (TK_REF == n->kind) {
        named_t *t = n->target;
        if (!t->shape_done && !collect_shape(t, t->root)) {
            return false;
        }
        t->shape_done = true;
        if (nt->nshape + t->nshape > TYPES_MAX_SHAPE) {
            return false;
        }
        if (0 != t->nshape) {
            int64_t *v = realloc(nt->shape, (nt->nshape + t->nshape) * sizeof(*v));
            if (NULL == v) {
                return false;
            }
            memcpy(v + nt->nshape, t->shape, t->nshape * sizeof(*v));
            nt->shape = v;
            nt->nshape += t->nshape;
        }
        return true;
    }
    if (TK_DIM == n->kind && n->shaped) {
        if (nt->nshape + 3 > TYPES_MAX_SHAPE) {
            return false;
        }
        int64_t *v = realloc(nt->shape, (nt->nshape + 3) * sizeof(*v));
        if (NULL == v) {
            return false;
        }
        v[nt->nshape++] = n->n;
        v[nt->nshape++] = n->sub;
        v[nt->nshape++] = n->start;
        nt->shape = v;
    }
    for (size_t i = 0; i < n->nchild; i++) {
        if (!collect_shape(nt, n->child[i])) {
            return false;
        }
    }
    return true;
}

static pmix_status_t insert(named_t *nt, const drover_datatype_t *rec, diags_t *d)
{
    atomic_store_explicit(&by_id[nt->id - DROVER_DECLARED_ID_MIN], nt, memory_order_release);
    pmix_status_t rc = registry_insert(rec);
    if (PMIX_SUCCESS != rc) {
        diags_error(d, &nt->span, nt->path, "cannot register datatype %u: %s", (unsigned)nt->id,
                    PMIx_Error_string(rc));
        return rc;
    }
    nt->registered = true;
    return PMIX_SUCCESS;
}

static pmix_status_t register_relay(named_t *nt, diags_t *d)
{
    if (nt->registered) {
        return PMIX_SUCCESS;
    }
    drover_datatype_t rec = relay_record(nt);
    return insert(nt, &rec, d);
}

/* Lay out and register nt if it is not yet; lock held. */
static pmix_status_t make_ready(named_t *nt, diags_t *d)
{
    if (nt->registered) {
        return PMIX_SUCCESS;
    }
    pmix_status_t rc = layout_commit(nt, d);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    free(nt->shape);
    nt->shape = NULL;
    nt->nshape = 0;
    if (!collect_shape(nt, nt->root)) {
        diags_error(d, &nt->span, nt->path, "more than %d $-dependent bounds", TYPES_MAX_SHAPE);
        return PMIX_ERR_BAD_PARAM;
    }
    nt->shape_done = true;
    nt->plan = plan_build(nt);   /* NULL: packs through the tree */
    drover_datatype_t rec = generic_record(nt);
    return insert(nt, &rec, d);
}

/* ---- loading ---- */

typedef struct load {
    spec_decl_t *decls;
    size_t n;
    hashmap_t fresh;      /* name -> named_t * of this load's types */
} load_t;

static named_t *find(const char *name, void *arg)
{
    load_t *l = arg;
    hashmap_entry_t *e = hashmap_find_str(&by_name, name);
    if (NULL == e) {
        e = hashmap_find_str(&l->fresh, name);
    }
    return NULL == e ? NULL : e->value;
}

static void load_free(load_t *l)
{
    for (size_t i = 0; i < l->n; i++) {
        types_named_free(l->decls[i].named);
    }
    free(l->decls);
    hashmap_clear(&l->fresh, NULL);
}

/* Checks and signatures; a redeclaration identical to the earlier one is
 * dropped (its named set to NULL). */
static void check_all(load_t *l, diags_t *d)
{
    for (size_t i = 0; i < l->n; i++) {
        named_t *nt = l->decls[i].named;
        bool created = true;
        nt->broken = NULL == nt->root;
        hashmap_entry_t *e = l->decls[i].is_value ? NULL : hashmap_insert_str(&l->fresh, nt->name, &created);
        if (NULL != e && created) {
            e->value = nt;
        }
    }
    for (size_t i = 0; i < l->n; i++) {
        named_t *nt = l->decls[i].named;
        if (NULL == nt->root || !layout_check(nt, find, l, d) || !sig_named(nt) ||
            l->decls[i].is_value) {
            continue;
        }
        hashmap_entry_t *old = hashmap_find_str(&by_name, nt->name);
        if (NULL == old) {
            continue;
        }
        named_t *prev = old->value;
        if (0 != strcmp(prev->signature, nt->signature)) {
            diags_error(d, &nt->span, nt->path,
                        "type '%s' is already declared differently (datatype %u); a process "
                        "keeps one declaration per name",
                        nt->name, (unsigned)prev->id);
        }
        types_named_free(nt);
        l->decls[i].named = NULL;
    }
}

/* What drover_types_describe asks of a check-only load. */
typedef struct describe_req {
    const char *name;     /* NULL: every type */
    bool json;
    bool yaml;
    strbuf_t out;
    bool found;
} describe_req_t;

/* Mark nt and every named type it refers to. */
static void mark_needed(const tnode_t *n, hashmap_t *needed)
{
    if (TK_REF == n->kind && NULL != n->target) {
        bool created;
        hashmap_insert_str(needed, n->target->name, &created);
        if (created) {
            mark_needed(n->target->root, needed);
        }
    }
    for (size_t i = 0; i < n->nchild; i++) {
        mark_needed(n->child[i], needed);
    }
}

/* The canonical YAML of the requested type and those it needs, in
 * declaration order. */
static void describe_yaml(const load_t *l, describe_req_t *req)
{
    hashmap_t needed = HASHMAP_INIT;
    const named_t **list = calloc(l->n + 1, sizeof(*list));
    size_t n = 0;
    for (size_t i = 0; NULL != list && i < l->n; i++) {
        const named_t *nt = l->decls[i].named;
        if (NULL != nt && !l->decls[i].is_value &&
            (NULL == req->name || 0 == strcmp(req->name, nt->name))) {
            bool created;
            hashmap_insert_str(&needed, nt->name, &created);
            mark_needed(nt->root, &needed);
        }
    }
    for (size_t i = 0; NULL != list && i < l->n; i++) {
        const named_t *nt = l->decls[i].named;
        if (NULL != nt && !l->decls[i].is_value && NULL != hashmap_find_str(&needed, nt->name)) {
            list[n++] = nt;
        }
    }
    if (NULL == list) {
        req->out.failed = true;
    } else if (0 < n && (NULL == req->name || NULL != hashmap_find_str(&needed, req->name))) {
        canonical_yaml(&req->out, list, n);
        req->found = true;
    }
    free(list);
    hashmap_clear(&needed, NULL);
}

static void describe_all(const load_t *l, describe_req_t *req)
{
    if (req->yaml) {
        describe_yaml(l, req);
        return;
    }
    for (size_t i = 0; i < l->n; i++) {
        const named_t *nt = l->decls[i].named;
        if (NULL == nt || l->decls[i].is_value ||
            (NULL != req->name && 0 != strcmp(req->name, nt->name))) {
            continue;
        }
        describe_named(&req->out, nt, req->json, !req->found);
        req->found = true;
    }
}

static pmix_status_t load_locked(const char *file, const char *text, size_t len, unsigned flags,
                                 diags_t *d, describe_req_t *req)
{
    ydoc_t doc = YDOC_INIT;
    load_t l = {0};
    const char **known = NULL;
    pmix_status_t rc = PMIX_ERR_BAD_PARAM;

    if (!ydoc_parse(&doc, file, text, len, d)) {
        goto out;
    }
    known = calloc(norder + 1, sizeof(*known));
    if (NULL == known) {
        rc = PMIX_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < norder; i++) {
        known[i] = order[i]->name;
    }
    if (!spec_read(&doc, known, norder, 0 != (flags & DROVER_TYPES_LENIENT), d, &l.decls, &l.n)) {
        rc = PMIX_ERR_NOMEM;
        goto out;
    }
    check_all(&l, d);
    size_t nnew = 0;
    for (size_t i = 0; i < l.n; i++) {
        nnew += NULL != l.decls[i].named && !l.decls[i].is_value;
    }
    if (0 == d->nerrors && next_id + nnew > (size_t)DROVER_DATATYPE_USER_MAX + 1) {
        diags_error(d, NULL, NULL, "%s: no datatype ids left for %zu more types", file, nnew);
    }
    /* Lay out what the bindings allow: bound errors are errors now. */
    for (size_t i = 0; i < l.n; i++) {
        named_t *nt = l.decls[i].named;
        if (NULL != nt && !l.decls[i].is_value && !nt->broken &&
            PMIX_ERR_NOMEM == layout_commit(nt, d)) {
            d->oom = true;
        }
    }
    for (size_t i = 0, id = next_id; 0 == d->nerrors && i < l.n; i++) {
        named_t *nt = l.decls[i].named;
        if (NULL != nt && !l.decls[i].is_value) {
            nt->id = (pmix_data_type_t)id++;
            if (NULL != bfrops_lookup(nt->id)) {
                diags_error(d, &nt->span, nt->path, "datatype id %u is already registered",
                            (unsigned)nt->id);
            }
        }
    }
    if (0 != d->nerrors || d->oom) {
        goto out;
    }
    rc = PMIX_SUCCESS;
    if (NULL != req) {
        describe_all(&l, req);
    }
    if (flags & DROVER_TYPES_CHECK_ONLY) {
        goto out;
    }
    if (norder + nnew > cap_order) {
        size_t c = norder + nnew + 64;
        named_t **v = realloc(order, c * sizeof(*v));
        if (NULL == v) {
            rc = PMIX_ERR_NOMEM;
            goto out;
        }
        order = v;
        cap_order = c;
    }
    for (size_t i = 0; i < l.n; i++) {
        named_t *nt = l.decls[i].named;
        bool created;
        if (NULL == nt || l.decls[i].is_value) {
            continue;
        }
        hashmap_entry_t *e = hashmap_insert_str(&by_name, nt->name, &created);
        if (NULL == e) {
            rc = PMIX_ERR_NOMEM;
            break;
        }
        e->value = nt;
        nt->relay = 0 != (flags & DROVER_TYPES_RELAY);
        order[norder++] = nt;
        l.decls[i].named = NULL;
        next_id = nt->id + 1;
    }
    /* Register in order; types waiting for bindings stay declared. */
    for (size_t i = 0; PMIX_SUCCESS == rc && i < norder; i++) {
        pmix_status_t r = order[i]->relay ? register_relay(order[i], d)
                          : order[i]->laid ? make_ready(order[i], d)
                                           : PMIX_SUCCESS;
        if (PMIX_SUCCESS != r) {
            rc = r;
        }
    }
out:
    free(known);
    load_free(&l);
    ydoc_free(&doc);
    return rc;
}

static pmix_status_t load(const char *file, const char *text, size_t len, unsigned flags,
                          char **errors, describe_req_t *req)
{
    diags_t d = DIAGS_INIT;
    pthread_mutex_lock(&lock);
    pmix_status_t rc = load_locked(file, text, len, flags, &d, req);
    pthread_mutex_unlock(&lock);
    if (PMIX_SUCCESS == rc && 0 != d.nerrors) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    if (d.oom && PMIX_SUCCESS == rc) {
        rc = PMIX_ERR_NOMEM;
    }
    if (NULL != errors) {
        *errors = diags_text(&d);
    }
    diags_clear(&d);
    return rc;
}

pmix_status_t types_load(const char *file, const char *text, size_t len, unsigned flags,
                         char **errors)
{
    return load(file, text, len, flags, errors, NULL);
}

PMIX_EXPORT pmix_status_t drover_types_load_string(const char *name, const char *text, size_t len,
                                                   unsigned flags, char **errors)
{
    if (NULL != errors) {
        *errors = NULL;
    }
    if (NULL == text || 0 != (flags & ~(DROVER_TYPES_LENIENT | DROVER_TYPES_CHECK_ONLY | DROVER_TYPES_RELAY))) {
        return PMIX_ERR_BAD_PARAM;
    }
    return types_load(NULL == name ? "<string>" : name, text, len, flags, errors);
}

pmix_status_t types_read_file(const char *path, char **text, size_t *len, char **errors)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    pmix_status_t rc = PMIX_SUCCESS;
    *text = NULL;
    if (fd < 0 || 0 != fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        rc = PMIX_ERR_NOT_FOUND;
    } else if ((size_t)st.st_size > YDOC_MAX_BYTES) {
        rc = PMIX_ERR_BAD_PARAM;
    } else if (NULL == (*text = malloc((size_t)st.st_size + 1))) {
        rc = PMIX_ERR_NOMEM;
    } else {
        size_t got = 0;
        while (got < (size_t)st.st_size) {
            ssize_t n = read(fd, *text + got, (size_t)st.st_size - got);
            if (n <= 0) {
                break;
            }
            got += (size_t)n;
        }
        (*text)[got] = '\0';
        *len = got;
    }
    if (fd >= 0) {
        close(fd);
    }
    if (PMIX_SUCCESS != rc) {
        free(*text);
        *text = NULL;
        if (NULL != errors && asprintf(errors, "%s: %s\n", path,
                                       PMIX_ERR_NOT_FOUND == rc ? "cannot read it (not a readable file)"
                                       : PMIX_ERR_BAD_PARAM == rc ? "larger than 16 MiB"
                                                                  : "out of memory") < 0) {
            *errors = NULL;
        }
    }
    return rc;
}

PMIX_EXPORT pmix_status_t drover_types_load_file(const char *path, unsigned flags, char **errors)
{
    char *text;
    size_t len;
    if (NULL != errors) {
        *errors = NULL;
    }
    if (NULL == path || 0 != (flags & ~(DROVER_TYPES_LENIENT | DROVER_TYPES_CHECK_ONLY | DROVER_TYPES_RELAY))) {
        return PMIX_ERR_BAD_PARAM;
    }
    pmix_status_t rc = types_read_file(path, &text, &len, errors);
    if (PMIX_SUCCESS == rc) {
        rc = types_load(path, text, len, flags, errors);
        free(text);
    }
    return rc;
}

PMIX_EXPORT pmix_status_t drover_types_describe(const char *path, const char *name, unsigned flags,
                                                char **text, char **errors)
{
    char *yaml;
    size_t len;
    if (NULL != errors) {
        *errors = NULL;
    }
    if (NULL == path || NULL == text ||
        0 != (flags & ~(DROVER_TYPES_LENIENT | DROVER_TYPES_JSON | DROVER_TYPES_YAML)) ||
        ((flags & DROVER_TYPES_JSON) && (flags & DROVER_TYPES_YAML))) {
        return PMIX_ERR_BAD_PARAM;
    }
    *text = NULL;
    pmix_status_t rc = types_read_file(path, &yaml, &len, errors);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    describe_req_t req = {.name = name,
                          .json = 0 != (flags & DROVER_TYPES_JSON),
                          .yaml = 0 != (flags & DROVER_TYPES_YAML),
                          .out = STRBUF_INIT};
    if (req.json) {
        strbuf_printf(&req.out, "[");
    }
    rc = load(path, yaml, len, (flags & DROVER_TYPES_LENIENT) | DROVER_TYPES_CHECK_ONLY, errors, &req);
    free(yaml);
    if (req.json) {
        strbuf_printf(&req.out, "\n]\n");
    }
    char *out = strbuf_finish(&req.out);
    if (PMIX_SUCCESS == rc && !req.found) {
        rc = PMIX_ERR_NOT_FOUND;
    } else if (PMIX_SUCCESS == rc && NULL == out) {
        rc = PMIX_ERR_NOMEM;
    }
    if (PMIX_SUCCESS != rc) {
        free(out);
        return rc;
    }
    *text = out;
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t drover_type_lookup(const char *name, pmix_data_type_t *id)
{
    if (NULL == name || NULL == id) {
        return PMIX_ERR_BAD_PARAM;
    }
    diags_t d = DIAGS_INIT;
    pmix_status_t rc = PMIX_ERR_NOT_FOUND;
    pthread_mutex_lock(&lock);
    hashmap_entry_t *e = hashmap_find_str(&by_name, name);
    if (NULL != e) {
        named_t *nt = e->value;
        rc = nt->relay ? register_relay(nt, &d) : make_ready(nt, &d);
        if (PMIX_SUCCESS == rc) {
            *id = nt->id;
        }
    }
    pthread_mutex_unlock(&lock);
    diags_clear(&d);
    return rc;
}

/* A type built in C (construct.c, decode.c): checked, laid out and
 * registered as a load would. root is consumed. */
pmix_status_t types_declare_tree(const char *name, tnode_t *root, pmix_data_type_t *id,
                                 char **errors)
{
    diags_t d = DIAGS_INIT;
    pmix_status_t rc = PMIX_ERR_NOMEM;
    named_t *nt = calloc(1, sizeof(*nt));
    char auto_name[32];
    if (NULL != errors) {
        *errors = NULL;
    }
    if (NULL == name) {
        snprintf(auto_name, sizeof(auto_name), "type.%zu", next_id);
        name = auto_name;
    }
    if (NULL == nt || NULL == (nt->name = strdup(name)) || asprintf(&nt->path, "types.%s", name) < 0) {
        if (NULL != nt) {
            nt->path = NULL;
        }
        types_named_free(nt);
        tnode_free(root);
        return PMIX_ERR_NOMEM;
    }
    nt->root = root;
    nt->span = root->span;
    nt->built = true;
    pthread_mutex_lock(&lock);
    load_t l = {0};
    if (NULL != hashmap_find_str(&by_name, name)) {
        diags_error(&d, NULL, nt->path, "a type called '%s' is declared already", name);
        rc = PMIX_ERR_DUPLICATE_KEY;
    } else if (next_id > DROVER_DATATYPE_USER_MAX || NULL != bfrops_lookup((pmix_data_type_t)next_id)) {
        diags_error(&d, NULL, nt->path, "no datatype id left for it");
        rc = PMIX_ERR_OUT_OF_RESOURCE;
    } else if (!layout_check(nt, find, &l, &d) || !sig_named(nt)) {
        rc = d.oom ? PMIX_ERR_NOMEM : PMIX_ERR_BAD_PARAM;
    } else if (PMIX_SUCCESS == (rc = layout_commit(nt, &d))) {
        size_t c = norder + 1 + 64;
        named_t **v = norder < cap_order ? order : realloc(order, c * sizeof(*v));
        bool created;
        hashmap_entry_t *e = NULL == v ? NULL : hashmap_insert_str(&by_name, name, &created);
        if (NULL == e) {
            rc = PMIX_ERR_NOMEM;
        } else {
            if (v != order || norder >= cap_order) {
                order = v;
                cap_order = c;
            }
            e->value = nt;
            nt->id = (pmix_data_type_t)next_id++;
            order[norder++] = nt;
            rc = make_ready(nt, &d);
            *id = nt->id;
            nt = NULL;   /* declared: it lives as long as the process */
        }
    }
    pthread_mutex_unlock(&lock);
    hashmap_clear(&l.fresh, NULL);
    types_named_free(nt);
    if (NULL != errors) {
        *errors = diags_text(&d);
    }
    diags_clear(&d);
    return rc;
}

const named_t *types_named(const char *name)
{
    pthread_mutex_lock(&lock);
    hashmap_entry_t *e = hashmap_find_str(&by_name, name);
    pthread_mutex_unlock(&lock);
    return NULL == e ? NULL : e->value;
}

size_t types_count(void)
{
    pthread_mutex_lock(&lock);
    size_t n = norder;
    pthread_mutex_unlock(&lock);
    return n;
}

const named_t *types_at(size_t i)
{
    pthread_mutex_lock(&lock);
    const named_t *nt = i < norder ? order[i] : NULL;
    pthread_mutex_unlock(&lock);
    return nt;
}
