/*
 * include.c - `include:` of declaration files (include.h).
 *
 * Design notes:
 *  - A file is known by its device and inode: one included twice (two
 *    files include a common one) is read once, and one that is on the
 *    chain of files including it is a cycle, reported with the chain.
 *  - Included files are named in messages and in the spans of their type
 *    nodes, which live as long as the types; those names are kept for the
 *    life of the process (each distinct name once), as declared types are.
 *  - The caller holds the lock of the type set, which guards the names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "include.h"
#include "typeset.h"

/* Names of included files, for the life of the process. */
static char **names;
static size_t nnames, capnames;

static const char *keep_name(const char *path)
{
    for (size_t i = 0; i < nnames; i++) {
        if (0 == strcmp(names[i], path)) {
            return names[i];
        }
    }
    if (nnames == capnames) {
        size_t cap = 2 * capnames + 8;
        char **v = realloc(names, cap * sizeof(*v));
        if (NULL == v) {
            return NULL;
        }
        names = v;
        capnames = cap;
    }
    char *copy = strdup(path);
    if (NULL != copy) {
        names[nnames++] = copy;
    }
    return copy;
}

typedef struct file_id {
    dev_t dev;
    ino_t ino;
    const char *name;
} file_id_t;

typedef struct reader {
    diags_t *d;
    docs_t *docs;
    file_id_t chain[INCLUDE_MAX_DEPTH + 1]; /* the files including the current one */
    size_t depth;
    unsigned level; /* of the current file: the main one's is 0 */
    file_id_t seen[INCLUDE_MAX_FILES];
    size_t nseen;
    bool oom;
} reader_t;

static bool push_doc(docs_t *docs, ydoc_t *doc)
{
    if (docs->n == docs->cap) {
        size_t cap = 2 * docs->cap + 4;
        ydoc_t **v = realloc(docs->doc, cap * sizeof(*v));
        if (NULL == v) {
            return false;
        }
        docs->doc = v;
        docs->cap = cap;
    }
    docs->doc[docs->n++] = doc;
    return true;
}

/* "a.yml -> b.yml -> name" for a cycle message. */
static void chain_text(const reader_t *r, const char *name, char *out, size_t cap)
{
    size_t used = 0;
    for (size_t i = 0; i < r->depth && used < cap; i++) {
        used += (size_t)snprintf(out + used, cap - used, "%s -> ", r->chain[i].name);
    }
    if (used < cap) {
        snprintf(out + used, cap - used, "%s", name);
    }
}

static void read_includes(reader_t *r, const ydoc_t *doc, const char *file);

/* Whether the file path, which entry e names, is to be read: a regular
 * file, not on the chain including it (a cycle), not read already, and
 * within the bounds. */
static bool wanted(reader_t *r, const ynode_t *e, const char *path, const struct stat *st)
{
    if (!S_ISREG(st->st_mode)) {
        diags_error(r->d, &e->span, "include", "cannot include '%s': not a regular file", path);
        return false;
    }
    for (size_t i = 0; i < r->depth; i++) {
        if (r->chain[i].dev == st->st_dev && r->chain[i].ino == st->st_ino) {
            char text[1024];
            chain_text(r, path, text, sizeof(text));
            diags_error(r->d, &e->span, "include", "'%s' includes itself: %s", path, text);
            return false;
        }
    }
    for (size_t i = 0; i < r->nseen; i++) {
        if (r->seen[i].dev == st->st_dev && r->seen[i].ino == st->st_ino) {
            return false; /* included already, through another file */
        }
    }
    if (INCLUDE_MAX_DEPTH == r->level || INCLUDE_MAX_FILES == r->nseen) {
        diags_error(r->d, &e->span, "include",
                    "cannot include '%s': more than %d files, or "
                    "includes nested deeper than %d",
                    path, INCLUDE_MAX_FILES, INCLUDE_MAX_DEPTH);
        return false;
    }
    return true;
}

/* Include the file entry e names, relative to the directory of file. */
static void include_one(reader_t *r, const ynode_t *e, const char *file)
{
    const char *slash = strrchr(file, '/');
    char *path = NULL;
    if ('/' == e->text[0] || NULL == slash) {
        path = strdup(e->text);
    } else if (asprintf(&path, "%.*s/%s", (int)(slash - file), file, e->text) < 0) {
        path = NULL;
    }
    struct stat st;
    bool want = false;
    if (NULL == path) {
        r->oom = true;
        return;
    }
    if (0 != stat(path, &st)) {
        diags_error(r->d, &e->span, "include", "cannot include '%s': %s", path, strerror(errno));
    } else {
        want = wanted(r, e, path, &st);
    }
    /* Only the names of files read are kept: they name the types' nodes. */
    const char *name = want ? keep_name(path) : NULL;
    free(path);
    if (NULL == name) {
        r->oom = r->oom || want;
        return;
    }
    r->seen[r->nseen++] = (file_id_t){st.st_dev, st.st_ino, name};
    char *text = NULL, *why = NULL;
    size_t len = 0;
    pmix_status_t rc = types_read_file(name, &text, &len, &why);
    free(why);
    if (PMIX_SUCCESS != rc) {
        r->oom = PMIX_ERR_NOMEM == rc;
        diags_error(r->d, &e->span, "include", "cannot include '%s': %s", name,
                    PMIX_ERR_BAD_PARAM == rc ? "larger than 16 MiB" : "not a readable file");
        return;
    }
    ydoc_t *doc = calloc(1, sizeof(*doc));
    if (NULL != doc && ydoc_parse(doc, name, text, len, r->d)) {
        r->chain[r->depth++] = (file_id_t){st.st_dev, st.st_ino, name};
        r->level++;
        read_includes(r, doc, name);
        r->level--;
        r->depth--;
    }
    free(text);
    /* After its own includes: their declarations come first. */
    if (NULL == doc || !push_doc(r->docs, doc)) {
        r->oom = true;
        if (NULL != doc) {
            ydoc_free(doc);
            free(doc);
        }
    }
}

static void read_includes(reader_t *r, const ydoc_t *doc, const char *file)
{
    const ynode_t *root = doc->root, *list = NULL;
    for (size_t i = 0; NULL != root && YN_MAP == root->kind && i + 1 < root->n; i += 2) {
        list = 0 == strcmp(root->items[i]->text, "include") ? root->items[i + 1] : list;
    }
    if (NULL == list) {
        return;
    }
    bool ok = YN_SCALAR == list->kind || YN_SEQ == list->kind;
    for (size_t i = 0; ok && YN_SEQ == list->kind && i < list->n; i++) {
        ok = YN_SCALAR == list->items[i]->kind;
    }
    if (!ok) {
        diags_error(r->d, &list->span, "include",
                    "`include' is a file name or a list of file names");
        return;
    }
    if (YN_SCALAR == list->kind) {
        include_one(r, list, file);
        return;
    }
    for (size_t i = 0; i < list->n && !r->oom; i++) {
        include_one(r, list->items[i], file);
    }
}

bool include_read(ydoc_t *main, const char *file, diags_t *d, docs_t *docs)
{
    reader_t *r = calloc(1, sizeof(*r));
    if (NULL == r) {
        return false;
    }
    *r = (reader_t){.d = d, .docs = docs};
    struct stat st;
    if (0 == stat(file, &st)) {
        r->chain[r->depth++] = (file_id_t){st.st_dev, st.st_ino, file};
        r->seen[r->nseen++] = r->chain[0];
    }
    read_includes(r, main, file);
    bool ok = !r->oom && push_doc(docs, main);
    free(r);
    docs->main = ok ? main : NULL;
    return ok;
}

void include_free(docs_t *docs)
{
    for (size_t i = 0; i < docs->n; i++) {
        if (docs->doc[i] != docs->main) {
            ydoc_free(docs->doc[i]);
            free(docs->doc[i]);
        }
    }
    free(docs->doc);
    *docs = (docs_t)DOCS_INIT;
}
