/*
 * pmix_macros.h - the function-like macros and inline helpers of the PMIx v4
 * API (PMIX_INFO_LOAD, PMIX_*_CREATE/FREE, pmix_argv_*, ...).
 *
 * Design notes:
 *  - This code is compiled into the programs that use it, so the names, the
 *    arguments and the observable behaviour are the ones programs written
 *    for OpenPMIx 4.2 rely on. The text is drover's own.
 *  - Each macro is one expression (often a call to a static inline helper
 *    named drover_macros_*, which evaluates each argument once) or, when it
 *    needs several statements, a do { } while (0); either way it stands
 *    wherever OpenPMIx's does. The macro itself keeps only what needs the
 *    caller's lvalue (storing a new array, setting a pointer to NULL).
 *  - Where OpenPMIx's macro calls an exported function (value and info
 *    load/xfer/destruct, info lists, data array destruct, data buffer
 *    load/unload, topology destruct) so does this one.
 *  - Memory comes from pmix_malloc/pmix_calloc and goes back through
 *    pmix_free: the heap, shared with what the library allocates there.
 *  - *_CREATE(m, n) stores n zeroed, constructed elements in m (NULL when n
 *    is 0 or memory runs out). *_FREE(m, n) destructs n elements, frees the
 *    array and sets m to NULL; *_RELEASE(m) does the same for one element.
 *    Both accept a NULL m.
 *  - Places where OpenPMIx 4.2.2 misbehaves and this header does not:
 *    PMIX_COORD_CREATE sets up every coordinate (4.2.2 writes through the
 *    unassigned pointer and prepares only the first); PMIX_REGATTR_LOAD
 *    compiles; PMIX_PROC_STATS_STATIC_INIT is well formed; every *_FREE and
 *    *_RELEASE clears the caller's pointer, and PMIX_NODE_STATS_RELEASE frees
 *    the element as the other *_RELEASE macros do; PMIX_DATA_ARRAY_CONSTRUCT
 *    knows every standard element type and sizes pointer arrays correctly;
 *    PMIX_MULTICLUSTER_NSPACE_PARSE terminates what it writes and stops at
 *    the end of its input; the argv and environment helpers leave the array
 *    as it was when they fail and refuse NULL arguments with
 *    PMIX_ERR_BAD_PARAM instead of crashing.
 *
 * Included at the end of pmix_common.h, whose types, constants and function
 * declarations everything here uses.
 */
#ifndef PMIx_MACROS_H
#define PMIx_MACROS_H

#include <pmix_common.h>

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* Strict ISO C modes hide the POSIX environment functions pmix_setenv
 * needs; these declarations match the system's. */
#if defined(__STRICT_ANSI__) && !defined(__cplusplus)
extern int setenv(const char *name, const char *value, int overwrite);
extern int unsetenv(const char *name);
#endif

/* ---- Classifying ranks and events --------------------------------------- */

/* True for an ordinary rank, false for the reserved values at the top. */
#define PMIX_RANK_IS_VALID(r) ((r) < PMIX_RANK_VALID)

/* True for a status in the system-failure event range. */
#define PMIX_SYSTEM_EVENT(a) ((a) <= PMIX_EVENT_SYS_BASE && PMIX_EVENT_SYS_OTHER <= (a))

/* ---- Memory ------------------------------------------------------------- */

/* Every allocation the macros make goes through these three, so a program
 * that wants to watch them has one place to look. */
static inline void *pmix_malloc(size_t n)
{
    return malloc(n);
}

static inline void pmix_free(void *m)
{
    free(m);
}

static inline void *pmix_calloc(size_t n, size_t m)
{
    return calloc(n, m);
}

/* n zeroed elements of size bytes; NULL when either is 0 or memory runs
 * out. The caller frees with pmix_free. */
static inline void *drover_macros_zalloc(size_t n, size_t size)
{
    if (0 == n || 0 == size) {
        return NULL;
    }
    return pmix_calloc(n, size);
}

/* A NUL-terminated copy of the first len bytes of s; NULL when memory runs
 * out. The caller frees with pmix_free. */
static inline char *drover_macros_strndup(const char *s, size_t len)
{
    char *copy = (char *) pmix_malloc(len + 1);

    if (NULL != copy) {
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    return copy;
}

/* A copy of s (NULL for NULL or when memory runs out). The caller frees
 * with pmix_free. Written here rather than using strdup so the header
 * builds under strict ISO C modes. */
static inline char *drover_macros_strdup(const char *s)
{
    return (NULL == s) ? NULL : drover_macros_strndup(s, strlen(s));
}

/* ---- Keys, namespaces and process ids ----------------------------------- */

/* Copy at most len characters of src to dest and terminate it: dest has
 * room for len + 1. src need not be terminated within len characters. */
static inline void pmix_strncpy(char *dest, const char *src, size_t len)
{
    size_t i = 0;

    if (NULL != src) {
        for (; i < len && '\0' != src[i]; i++) {
            dest[i] = src[i];
        }
    }
    dest[i] = '\0';
}

/* Length of s, counting at most max + 1 characters (0 for NULL), so an
 * unterminated key or namespace is never overrun. */
static inline size_t drover_macros_bounded_len(const char *s, size_t max)
{
    size_t n = 0;

    if (NULL != s) {
        while (n <= max && '\0' != s[n]) {
            n++;
        }
    }
    return n;
}

static inline size_t pmix_keylen(const char *src)
{
    return drover_macros_bounded_len(src, PMIX_MAX_KEYLEN);
}

static inline size_t pmix_nslen(const char *src)
{
    return drover_macros_bounded_len(src, PMIX_MAX_NSLEN);
}

/* Fill the max + 1 bytes at dest with at most max characters of src (NULL:
 * none) and zeros after them. src may overlap dest (loading a process id
 * from its own namespace keeps it). */
static inline void drover_macros_load_str(char *dest, const char *src, size_t max)
{
    size_t len = drover_macros_bounded_len(src, max);

    if (len > max) {
        len = max;
    }
    if (0 < len) {
        memmove(dest, src, len);
    }
    memset(dest + len, 0, max + 1 - len);
}

/* A namespace that is NULL or empty matches any other. */
static inline bool drover_macros_nspace_invalid(const char *ns)
{
    return NULL == ns || '\0' == ns[0];
}

static inline bool drover_macros_nspace_match(const char *a, const char *b)
{
    return drover_macros_nspace_invalid(a) || drover_macros_nspace_invalid(b)
           || 0 == strncmp(a, b, PMIX_MAX_NSLEN);
}

/* PMIX_RANK_WILDCARD on either side matches any rank. */
static inline bool drover_macros_rank_match(pmix_rank_t a, pmix_rank_t b)
{
    return a == b || PMIX_RANK_WILDCARD == a || PMIX_RANK_WILDCARD == b;
}

static inline bool drover_macros_procid_match(const pmix_proc_t *a, const pmix_proc_t *b)
{
    return drover_macros_nspace_match(a->nspace, b->nspace)
           && drover_macros_rank_match(a->rank, b->rank);
}

static inline bool drover_macros_procid_invalid(const pmix_proc_t *p)
{
    return drover_macros_nspace_invalid(p->nspace) || PMIX_RANK_INVALID == p->rank;
}

/* a points to a structure with a key member; b is a string. */
#define PMIX_CHECK_KEY(a, b) (0 == strncmp((a)->key, (b), PMIX_MAX_KEYLEN))

/* Keys starting with "pmix" belong to the standard. */
#define PMIX_CHECK_RESERVED_KEY(a) (0 == strncmp((a), "pmix", 4))

/* Fill a pmix_key_t (a) from a string (b, may be NULL), truncating. */
#define PMIX_LOAD_KEY(a, b) \
    drover_macros_load_str((char *) (a), (const char *) (b), PMIX_MAX_KEYLEN)

/* Fill a pmix_nspace_t (a) from a string (b, may be NULL), truncating. */
#define PMIX_LOAD_NSPACE(a, b) \
    drover_macros_load_str((char *) (a), (const char *) (b), PMIX_MAX_NSLEN)

#define PMIX_CHECK_NSPACE(a, b) drover_macros_nspace_match((a), (b))

#define PMIX_NSPACE_INVALID(a) drover_macros_nspace_invalid(a)

/* Set the pmix_proc_t at a to namespace b, rank c. */
#define PMIX_LOAD_PROCID(a, b, c)                         \
    do {                                                  \
        pmix_proc_t *drover_macros_p_ = (a);              \
        PMIX_LOAD_NSPACE(drover_macros_p_->nspace, (b));  \
        drover_macros_p_->rank = (c);                     \
    } while (0)

#define PMIX_XFER_PROCID(a, b) memcpy((a), (b), sizeof(pmix_proc_t))
#define PMIX_PROCID_XFER(a, b) PMIX_XFER_PROCID(a, b)

/* Same process, with an empty namespace or a wildcard rank matching any. */
#define PMIX_CHECK_PROCID(a, b) drover_macros_procid_match((a), (b))

#define PMIX_CHECK_RANK(a, b) drover_macros_rank_match((a), (b))

#define PMIX_PROCID_INVALID(a) drover_macros_procid_invalid(a)

/* ---- NULL-terminated string arrays ("argv") ----------------------------- */

/* Number of strings in argv (0 for NULL). */
static inline int pmix_argv_count(char **argv)
{
    int n = 0;

    if (NULL != argv) {
        while (NULL != argv[n]) {
            n++;
        }
    }
    return n;
}

/* Put s, which the array takes over, at the front or at the end of *argv
 * (NULL: a new array). On failure s is freed and *argv is left as it was. */
static inline pmix_status_t drover_macros_argv_insert(char ***argv, char *s, bool at_front)
{
    size_t n;
    char **grown;

    if (NULL == s) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    n = (size_t) pmix_argv_count(*argv);
    grown = (char **) realloc(*argv, (n + 2) * sizeof(char *));
    if (NULL == grown) {
        pmix_free(s);
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    if (at_front) {
        memmove(grown + 1, grown, n * sizeof(char *));
        grown[0] = s;
    } else {
        grown[n] = s;
    }
    grown[n + 1] = NULL;
    *argv = grown;
    return PMIX_SUCCESS;
}

/* Append a copy of arg to *argv, creating the array when *argv is NULL.
 * The array and its strings are freed with pmix_argv_free. */
static inline pmix_status_t pmix_argv_append_nosize(char ***argv, const char *arg)
{
    if (NULL == argv || NULL == arg) {
        return PMIX_ERR_BAD_PARAM;
    }
    return drover_macros_argv_insert(argv, drover_macros_strdup(arg), false);
}

/* Insert a copy of arg before the first string of *argv. */
static inline pmix_status_t pmix_argv_prepend_nosize(char ***argv, const char *arg)
{
    if (NULL == argv || NULL == arg) {
        return PMIX_ERR_BAD_PARAM;
    }
    return drover_macros_argv_insert(argv, drover_macros_strdup(arg), true);
}

/* Append a copy of arg unless an equal string is already there (success
 * either way). */
static inline pmix_status_t pmix_argv_append_unique_nosize(char ***argv, const char *arg)
{
    int i;

    if (NULL == argv || NULL == arg) {
        return PMIX_ERR_BAD_PARAM;
    }
    for (i = 0; NULL != *argv && NULL != (*argv)[i]; i++) {
        if (0 == strcmp((*argv)[i], arg)) {
            return PMIX_SUCCESS;
        }
    }
    return pmix_argv_append_nosize(argv, arg);
}

/* Free every string of argv and argv itself; NULL is accepted. */
static inline void pmix_argv_free(char **argv)
{
    char **p;

    if (NULL == argv) {
        return;
    }
    for (p = argv; NULL != *p; p++) {
        pmix_free(*p);
    }
    pmix_free(argv);
}

/* Split src_string at each delimiter into a new array (free with
 * pmix_argv_free). Empty fields are dropped, or kept as "" when
 * include_empty is true; a delimiter at the very end never yields a field.
 * NULL for a NULL or empty string, or when memory runs out. */
static inline char **pmix_argv_split_inter(const char *src_string, int delimiter,
                                           bool include_empty)
{
    char **argv = NULL;
    const char *p = src_string;

    while (NULL != p && '\0' != *p) {
        size_t len = 0;

        while ('\0' != p[len] && delimiter != p[len]) {
            len++;
        }
        if (0 < len || include_empty) {
            char *field = drover_macros_strndup(p, len);

            if (PMIX_SUCCESS != drover_macros_argv_insert(&argv, field, false)) {
                pmix_argv_free(argv);
                return NULL;
            }
        }
        p += len;
        if ('\0' != *p) {
            p++; /* step over the delimiter */
        }
    }
    return argv;
}

static inline char **pmix_argv_split_with_empty(const char *src_string, int delimiter)
{
    return pmix_argv_split_inter(src_string, delimiter, true);
}

static inline char **pmix_argv_split(const char *src_string, int delimiter)
{
    return pmix_argv_split_inter(src_string, delimiter, false);
}

/* The strings of argv joined by delimiter, in a new string the caller frees
 * with pmix_free ("" for a NULL or empty array; NULL when memory runs
 * out). */
static inline char *pmix_argv_join(char **argv, int delimiter)
{
    size_t total = 0, at = 0, i;
    char *str;

    if (NULL == argv || NULL == argv[0]) {
        return drover_macros_strdup("");
    }
    for (i = 0; NULL != argv[i]; i++) {
        total += strlen(argv[i]) + 1;
    }
    str = (char *) pmix_malloc(total);
    if (NULL == str) {
        return NULL;
    }
    for (i = 0; NULL != argv[i]; i++) {
        size_t len = strlen(argv[i]);

        memcpy(str + at, argv[i], len);
        at += len;
        str[at++] = (char) delimiter;
    }
    /* The delimiter written after the last string becomes the end. */
    str[total - 1] = '\0';
    return str;
}

/* A deep copy of argv (free with pmix_argv_free); NULL for NULL or when
 * memory runs out. An empty array copies to an empty array. */
static inline char **pmix_argv_copy(char **argv)
{
    size_t n, i;
    char **dup;

    if (NULL == argv) {
        return NULL;
    }
    n = (size_t) pmix_argv_count(argv);
    dup = (char **) pmix_calloc(n + 1, sizeof(char *));
    if (NULL == dup) {
        return NULL;
    }
    for (i = 0; i < n; i++) {
        dup[i] = drover_macros_strdup(argv[i]);
        if (NULL == dup[i]) {
            pmix_argv_free(dup);
            return NULL;
        }
    }
    return dup;
}

/* Set name=value in the environment array *env (NULL value: "name="),
 * copying both; *env may be NULL and grows as needed. An existing entry is
 * replaced when overwrite is true and otherwise left alone with
 * PMIX_ERR_EXISTS. When *env is the process's environ, setenv(3) or, for a
 * NULL value, unsetenv(3) does the work instead. */
static inline pmix_status_t pmix_setenv(const char *name, const char *value, bool overwrite,
                                        char ***env)
{
    size_t nlen, vlen, i = 0;
    char *entry;

    if (NULL == env || NULL == name) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (*env == environ) {
        if (NULL == value) {
            (void) unsetenv(name);
        } else {
            (void) setenv(name, value, overwrite);
        }
        return PMIX_SUCCESS;
    }
    nlen = strlen(name);
    for (; NULL != *env && NULL != (*env)[i]; i++) {
        if (0 == strncmp((*env)[i], name, nlen) && '=' == (*env)[i][nlen]) {
            break;
        }
    }
    if (NULL != *env && NULL != (*env)[i] && !overwrite) {
        return PMIX_ERR_EXISTS;
    }
    vlen = (NULL == value) ? 0 : strlen(value);
    entry = (char *) pmix_malloc(nlen + vlen + 2);
    if (NULL == entry) {
        return PMIX_ERR_OUT_OF_RESOURCE;
    }
    memcpy(entry, name, nlen);
    entry[nlen] = '=';
    memcpy(entry + nlen + 1, (NULL == value) ? "" : value, vlen + 1);
    if (NULL != *env && NULL != (*env)[i]) {
        pmix_free((*env)[i]);
        (*env)[i] = entry;
        return PMIX_SUCCESS;
    }
    return drover_macros_argv_insert(env, entry, false);
}

/* The argv macros assign the result to their first argument. Note that
 * PMIX_ARGV_APPEND and PMIX_ARGV_PREPEND take the array itself while
 * PMIX_ARGV_APPEND_UNIQUE and PMIX_SETENV take its address, as in
 * OpenPMIx. */
#define PMIX_ARGV_COUNT(r, a) ((r) = pmix_argv_count(a))
#define PMIX_ARGV_APPEND(r, a, b) ((r) = pmix_argv_append_nosize(&(a), (b)))
#define PMIX_ARGV_PREPEND(r, a, b) ((r) = pmix_argv_prepend_nosize(&(a), (b)))
#define PMIX_ARGV_APPEND_UNIQUE(r, a, b) ((r) = pmix_argv_append_unique_nosize((a), (b)))
#define PMIX_ARGV_FREE(a) pmix_argv_free(a)
#define PMIX_ARGV_SPLIT(a, b, c) ((a) = pmix_argv_split((b), (c)))
#define PMIX_ARGV_JOIN(a, b, c) ((a) = pmix_argv_join((b), (c)))
#define PMIX_ARGV_COPY(a, b) ((a) = pmix_argv_copy(b))
#define PMIX_SETENV(r, a, b, c) ((r) = pmix_setenv((a), (b), true, (c)))

/* ---- Shared shapes of the per-structure macros -------------------------- */

/* Store n zeroed elements of type in m (NULL when n is 0). */
#define DROVER_MACROS_CREATE(m, n, type)                                    \
    do {                                                                    \
        (m) = (type *) drover_macros_zalloc((size_t) (n), sizeof(type));    \
    } while (0)

/* Apply destruct, a function taking a pointer to one element, to each of
 * the n elements of the array m. */
#define DROVER_MACROS_DESTRUCT_ALL(m, n, destruct)                          \
    do {                                                                    \
        size_t drover_macros_i_, drover_macros_n_ = (size_t) (n);           \
        for (drover_macros_i_ = 0; drover_macros_i_ < drover_macros_n_;     \
             drover_macros_i_++) {                                          \
            destruct(&(m)[drover_macros_i_]);                               \
        }                                                                   \
    } while (0)

/* Destruct the n elements of m, free the array and set m to NULL. */
#define DROVER_MACROS_FREE_ALL(m, n, destruct)                  \
    do {                                                        \
        if (NULL != (m)) {                                      \
            DROVER_MACROS_DESTRUCT_ALL((m), (n), destruct);     \
            pmix_free(m);                                       \
        }                                                       \
        (m) = NULL;                                             \
    } while (0)

/* ---- Coordinates -------------------------------------------------------- */

#define PMIX_COORD_STATIC_INIT {.view = PMIX_COORD_VIEW_UNDEF, .coord = NULL, .dims = 0}

static inline void drover_macros_coord_destruct(pmix_coord_t *c)
{
    pmix_free(c->coord);
    c->coord = NULL;
    c->dims = 0;
    c->view = PMIX_COORD_VIEW_UNDEF;
}

/* ncoords coordinates, each with dims zeroed values; NULL when ncoords is
 * 0 or memory runs out. */
static inline pmix_coord_t *drover_macros_coord_create(size_t ncoords, size_t dims)
{
    pmix_coord_t *c = (pmix_coord_t *) drover_macros_zalloc(ncoords, sizeof(pmix_coord_t));
    size_t i;

    for (i = 0; NULL != c && 0 < dims && i < ncoords; i++) {
        c[i].coord = (uint32_t *) drover_macros_zalloc(dims, sizeof(uint32_t));
        if (NULL == c[i].coord) {
            DROVER_MACROS_FREE_ALL(c, i, drover_macros_coord_destruct);
            return NULL;
        }
        c[i].dims = dims;
    }
    return c;
}

/* m receives d coordinates of n dimensions each. */
#define PMIX_COORD_CREATE(m, d, n)                                        \
    do {                                                                  \
        (m) = drover_macros_coord_create((size_t) (d), (size_t) (n));     \
    } while (0)

#define PMIX_COORD_CONSTRUCT(m) memset((m), 0, sizeof(pmix_coord_t))

#define PMIX_COORD_DESTRUCT(m) drover_macros_coord_destruct(m)

#define PMIX_COORD_FREE(m, n) DROVER_MACROS_FREE_ALL(m, n, drover_macros_coord_destruct)

/* ---- Cpusets and topologies --------------------------------------------- */

/* Their contents belong to the library that made them: PMIx_Cpuset_destruct
 * and PMIx_Topology_destruct (pmix.h) release them. */

#define PMIX_CPUSET_STATIC_INIT {.source = NULL, .bitmap = NULL}

#define PMIX_CPUSET_CONSTRUCT(m) memset((m), 0, sizeof(pmix_cpuset_t))

#define PMIX_CPUSET_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_cpuset_t)

#define PMIX_TOPOLOGY_STATIC_INIT {.source = NULL, .topology = NULL}

#define PMIX_TOPOLOGY_CONSTRUCT(m) memset((m), 0, sizeof(pmix_topology_t))

#define PMIX_TOPOLOGY_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_topology_t)

#define PMIX_TOPOLOGY_DESTRUCT(x) PMIx_Topology_destruct(x)

/* ---- Geometries --------------------------------------------------------- */

#define PMIX_GEOMETRY_STATIC_INIT                                                                   \
    {.fabric = 0, .uuid = NULL, .osname = NULL, .coordinates = NULL, .ncoords = 0}

static inline void drover_macros_geometry_destruct(pmix_geometry_t *g)
{
    pmix_free(g->uuid);
    g->uuid = NULL;
    pmix_free(g->osname);
    g->osname = NULL;
    DROVER_MACROS_FREE_ALL(g->coordinates, g->ncoords, drover_macros_coord_destruct);
    g->ncoords = 0;
}

#define PMIX_GEOMETRY_CONSTRUCT(m) memset((m), 0, sizeof(pmix_geometry_t))

#define PMIX_GEOMETRY_DESTRUCT(m) drover_macros_geometry_destruct(m)

#define PMIX_GEOMETRY_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_geometry_t)

#define PMIX_GEOMETRY_FREE(m, n) DROVER_MACROS_FREE_ALL(m, n, drover_macros_geometry_destruct)

/* ---- Device distances --------------------------------------------------- */

/* A constructed distance is "unknown": both bounds at UINT16_MAX. The static
 * initialiser, as in OpenPMIx, leaves them at 0. */
#define PMIX_DEVICE_DIST_STATIC_INIT                                                                \
    {.uuid = NULL, .osname = NULL, .type = PMIX_DEVTYPE_UNKNOWN, .mindist = 0, .maxdist = 0}

static inline void drover_macros_devdist_construct(pmix_device_distance_t *d)
{
    memset(d, 0, sizeof(*d));
    d->mindist = UINT16_MAX;
    d->maxdist = UINT16_MAX;
}

static inline void drover_macros_devdist_destruct(pmix_device_distance_t *d)
{
    pmix_free(d->uuid);
    d->uuid = NULL;
    pmix_free(d->osname);
    d->osname = NULL;
}

/* n constructed distances; NULL when n is 0 or memory runs out. */
static inline pmix_device_distance_t *drover_macros_devdist_create(size_t n)
{
    pmix_device_distance_t *d =
        (pmix_device_distance_t *) drover_macros_zalloc(n, sizeof(pmix_device_distance_t));
    size_t i;

    for (i = 0; NULL != d && i < n; i++) {
        drover_macros_devdist_construct(&d[i]);
    }
    return d;
}

#define PMIX_DEVICE_DIST_CONSTRUCT(m) drover_macros_devdist_construct(m)

#define PMIX_DEVICE_DIST_DESTRUCT(m) drover_macros_devdist_destruct(m)

#define PMIX_DEVICE_DIST_CREATE(m, n)                           \
    do {                                                        \
        (m) = drover_macros_devdist_create((size_t) (n));       \
    } while (0)

#define PMIX_DEVICE_DIST_FREE(m, n) DROVER_MACROS_FREE_ALL(m, n, drover_macros_devdist_destruct)

/* ---- Byte objects ------------------------------------------------------- */

#define PMIX_BYTE_OBJECT_STATIC_INIT {.bytes = NULL, .size = 0}

static inline void drover_macros_bo_destruct(pmix_byte_object_t *bo)
{
    pmix_free(bo->bytes);
    bo->bytes = NULL;
    bo->size = 0;
}

#define PMIX_BYTE_OBJECT_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_byte_object_t)

#define PMIX_BYTE_OBJECT_CONSTRUCT(m) memset((m), 0, sizeof(pmix_byte_object_t))

#define PMIX_BYTE_OBJECT_DESTRUCT(m) drover_macros_bo_destruct(m)

#define PMIX_BYTE_OBJECT_FREE(m, n) DROVER_MACROS_FREE_ALL(m, n, drover_macros_bo_destruct)

/* The byte object b takes over the heap block d of s bytes; d and s (both
 * lvalues) are cleared so the caller no longer holds it. */
#define PMIX_BYTE_OBJECT_LOAD(b, d, s)      \
    do {                                    \
        (b)->bytes = (char *) (d);          \
        (d) = NULL;                         \
        (b)->size = (s);                    \
        (s) = 0;                            \
    } while (0)

/* ---- Endpoints ---------------------------------------------------------- */

#define PMIX_ENDPOINT_STATIC_INIT                                                                   \
    {.uuid = NULL, .osname = NULL, .endpt = PMIX_BYTE_OBJECT_STATIC_INIT}

static inline void drover_macros_endpoint_destruct(pmix_endpoint_t *e)
{
    pmix_free(e->uuid);
    e->uuid = NULL;
    pmix_free(e->osname);
    e->osname = NULL;
    drover_macros_bo_destruct(&e->endpt);
}

#define PMIX_ENDPOINT_CONSTRUCT(m) memset((m), 0, sizeof(pmix_endpoint_t))

#define PMIX_ENDPOINT_DESTRUCT(m) drover_macros_endpoint_destruct(m)

#define PMIX_ENDPOINT_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_endpoint_t)

#define PMIX_ENDPOINT_FREE(m, n) DROVER_MACROS_FREE_ALL(m, n, drover_macros_endpoint_destruct)

/* ---- Environment changes ------------------------------------------------ */

#define PMIX_ENVAR_STATIC_INIT {.envar = NULL, .value = NULL, .separator = '\0'}

static inline void drover_macros_envar_destruct(pmix_envar_t *e)
{
    pmix_free(e->envar);
    e->envar = NULL;
    pmix_free(e->value);
    e->value = NULL;
}

/* Copy the strings that are not NULL (a NULL one leaves its member alone)
 * and set the separator. */
static inline void drover_macros_envar_load(pmix_envar_t *e, const char *var, const char *value,
                                            char separator)
{
    if (NULL != var) {
        e->envar = drover_macros_strdup(var);
    }
    if (NULL != value) {
        e->value = drover_macros_strdup(value);
    }
    e->separator = separator;
}

#define PMIX_ENVAR_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_envar_t)

#define PMIX_ENVAR_FREE(m, n) DROVER_MACROS_FREE_ALL(m, n, drover_macros_envar_destruct)

#define PMIX_ENVAR_CONSTRUCT(m) memset((m), 0, sizeof(pmix_envar_t))

#define PMIX_ENVAR_DESTRUCT(m) drover_macros_envar_destruct(m)

#define PMIX_ENVAR_LOAD(m, e, v, s)                         \
    do {                                                    \
        drover_macros_envar_load((m), (e), (v), (char) (s)); \
    } while (0)

/* ---- Data buffers ------------------------------------------------------- */

#define PMIX_DATA_BUFFER_STATIC_INIT                                                                \
    {.base_ptr = NULL, .pack_ptr = NULL, .unpack_ptr = NULL, .bytes_allocated = 0,                  \
     .bytes_used = 0}

static inline void drover_macros_dbuf_destruct(pmix_data_buffer_t *b)
{
    pmix_free(b->base_ptr);
    memset(b, 0, sizeof(*b));
}

/* m receives a new empty buffer (NULL when memory runs out), released with
 * PMIX_DATA_BUFFER_RELEASE. */
#define PMIX_DATA_BUFFER_CREATE(m) DROVER_MACROS_CREATE(m, 1, pmix_data_buffer_t)

#define PMIX_DATA_BUFFER_RELEASE(m) DROVER_MACROS_FREE_ALL(m, 1, drover_macros_dbuf_destruct)

#define PMIX_DATA_BUFFER_CONSTRUCT(m) memset((m), 0, sizeof(pmix_data_buffer_t))

#define PMIX_DATA_BUFFER_DESTRUCT(m) drover_macros_dbuf_destruct(m)

/* The buffer b takes over the packed bytes d (s bytes long); see
 * PMIx_Data_load in pmix.h. */
#define PMIX_DATA_BUFFER_LOAD(b, d, s)                  \
    do {                                                \
        pmix_byte_object_t drover_macros_bo_;           \
        drover_macros_bo_.bytes = (char *) (d);         \
        drover_macros_bo_.size = (s);                   \
        (void) PMIx_Data_load((b), &drover_macros_bo_); \
    } while (0)

/* d and s receive the unread bytes of b, which the caller then owns (NULL
 * and 0 when there are none or the unload fails); see PMIx_Data_unload. */
#define PMIX_DATA_BUFFER_UNLOAD(b, d, s)                                \
    do {                                                                \
        pmix_byte_object_t drover_macros_bo_;                           \
        if (PMIX_SUCCESS == PMIx_Data_unload((b), &drover_macros_bo_)) { \
            (d) = drover_macros_bo_.bytes;                              \
            (s) = drover_macros_bo_.size;                               \
        } else {                                                        \
            (d) = NULL;                                                 \
            (s) = 0;                                                    \
        }                                                               \
    } while (0)

/* ---- Process ids -------------------------------------------------------- */

/* A static process id has rank PMIX_RANK_UNDEF; a constructed or created
 * one has rank 0, as in OpenPMIx. */
#define PMIX_PROC_STATIC_INIT {.nspace = {0}, .rank = PMIX_RANK_UNDEF}

#define PMIX_PROC_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_proc_t)

/* A pmix_proc_t owns nothing, so releasing is freeing. */
#define PMIX_PROC_RELEASE(m)    \
    do {                        \
        pmix_free(m);           \
        (m) = NULL;             \
    } while (0)

#define PMIX_PROC_CONSTRUCT(m) memset((m), 0, sizeof(pmix_proc_t))

#define PMIX_PROC_DESTRUCT(m) ((void) 0)

#define PMIX_PROC_FREE(m, n) PMIX_PROC_RELEASE(m)

#define PMIX_PROC_LOAD(m, n, r)                             \
    do {                                                    \
        pmix_proc_t *drover_macros_p_ = (m);                \
        PMIX_LOAD_NSPACE(drover_macros_p_->nspace, (n));    \
        drover_macros_p_->rank = (r);                       \
    } while (0)

/* ---- Multicluster namespaces -------------------------------------------- */

/* target becomes "cluster:nspace" (NULL counting as "") when that fits in
 * a pmix_nspace_t, and the empty string otherwise. */
static inline void drover_macros_mc_construct(char *target, const char *cluster,
                                              const char *nspace)
{
    size_t clen, nlen;

    cluster = (NULL == cluster) ? "" : cluster;
    nspace = (NULL == nspace) ? "" : nspace;
    clen = pmix_nslen(cluster);
    nlen = pmix_nslen(nspace);
    memset(target, 0, PMIX_MAX_NSLEN + 1);
    if (clen + nlen < PMIX_MAX_NSLEN) {
        memcpy(target, cluster, clen);
        target[clen] = ':';
        memcpy(target + clen + 1, nspace, nlen);
    }
}

/* Split "cluster:nspace" at the first ':' into cluster and nspace (each
 * with room for a pmix_nspace_t); without a ':' all of it is the cluster
 * and nspace is empty. */
static inline void drover_macros_mc_parse(const char *source, char *cluster, char *nspace)
{
    size_t len = pmix_nslen(source), c = 0;

    if (len > PMIX_MAX_NSLEN) {
        len = PMIX_MAX_NSLEN;
    }
    while (c < len && ':' != source[c]) {
        c++;
    }
    memcpy(cluster, source, c);
    cluster[c] = '\0';
    if (c < len) {
        memcpy(nspace, source + c + 1, len - c - 1);
        nspace[len - c - 1] = '\0';
    } else {
        nspace[0] = '\0';
    }
}

#define PMIX_MULTICLUSTER_NSPACE_CONSTRUCT(t, c, n) \
    drover_macros_mc_construct((char *) (t), (const char *) (c), (const char *) (n))

#define PMIX_MULTICLUSTER_NSPACE_PARSE(t, c, n) \
    drover_macros_mc_parse((const char *) (t), (char *) (c), (char *) (n))

/* ---- Process information ------------------------------------------------ */

#define PMIX_PROC_INFO_STATIC_INIT                                                                  \
    {.proc = PMIX_PROC_STATIC_INIT, .hostname = NULL, .executable_name = NULL, .pid = 0,            \
     .exit_code = 0, .state = PMIX_PROC_STATE_UNDEF}

static inline void drover_macros_proc_info_destruct(pmix_proc_info_t *p)
{
    pmix_free(p->hostname);
    p->hostname = NULL;
    pmix_free(p->executable_name);
    p->executable_name = NULL;
}

#define PMIX_PROC_INFO_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_proc_info_t)

#define PMIX_PROC_INFO_RELEASE(m) PMIX_PROC_INFO_FREE(m, 1)

#define PMIX_PROC_INFO_CONSTRUCT(m) memset((m), 0, sizeof(pmix_proc_info_t))

#define PMIX_PROC_INFO_DESTRUCT(m) drover_macros_proc_info_destruct(m)

#define PMIX_PROC_INFO_FREE(m, n) DROVER_MACROS_FREE_ALL(m, n, drover_macros_proc_info_destruct)

/* ---- Statistics samples ------------------------------------------------- */

#define PMIX_PROC_STATS_STATIC_INIT                                                                 \
    {.node = NULL, .proc = PMIX_PROC_STATIC_INIT, .pid = 0, .cmd = NULL, .state = '\0',             \
     .time = {0, 0}, .percent_cpu = 0.0, .priority = 0, .num_threads = 0, .pss = 0.0,               \
     .vsize = 0.0, .rss = 0.0, .peak_vsize = 0.0, .processor = 0, .sample_time = {0, 0}}

#define PMIX_DISK_STATS_STATIC_INIT                                                                 \
    {.disk = NULL, .num_reads_completed = 0, .num_reads_merged = 0, .num_sectors_read = 0,          \
     .milliseconds_reading = 0, .num_writes_completed = 0, .num_writes_merged = 0,                  \
     .num_sectors_written = 0, .milliseconds_writing = 0, .num_ios_in_progress = 0,                 \
     .milliseconds_io = 0, .weighted_milliseconds_io = 0}

#define PMIX_NET_STATS_STATIC_INIT                                                                  \
    {.net_interface = NULL, .num_bytes_recvd = 0, .num_packets_recvd = 0, .num_recv_errs = 0,       \
     .num_bytes_sent = 0, .num_packets_sent = 0, .num_send_errs = 0}

#define PMIX_NODE_STATS_STATIC_INIT                                                                 \
    {.node = NULL, .la = 0, .la5 = 0, .la15 = 0, .total_mem = 0.0, .free_mem = 0.0,                 \
     .buffers = 0.0, .cached = 0.0, .swap_cached = 0.0, .swap_total = 0.0, .swap_free = 0.0,        \
     .mapped = 0.0, .sample_time = {0, 0}, .diskstats = NULL, .ndiskstats = 0,                      \
     .netstats = NULL, .nnetstats = 0}

static inline void drover_macros_proc_stats_destruct(pmix_proc_stats_t *s)
{
    pmix_free(s->node);
    s->node = NULL;
    pmix_free(s->cmd);
    s->cmd = NULL;
}

static inline void drover_macros_disk_stats_destruct(pmix_disk_stats_t *s)
{
    pmix_free(s->disk);
    s->disk = NULL;
}

static inline void drover_macros_net_stats_destruct(pmix_net_stats_t *s)
{
    pmix_free(s->net_interface);
    s->net_interface = NULL;
}

/* A node sample owns its disk and interface samples. */
static inline void drover_macros_node_stats_destruct(pmix_node_stats_t *s)
{
    pmix_free(s->node);
    s->node = NULL;
    DROVER_MACROS_FREE_ALL(s->diskstats, s->ndiskstats, drover_macros_disk_stats_destruct);
    s->ndiskstats = 0;
    DROVER_MACROS_FREE_ALL(s->netstats, s->nnetstats, drover_macros_net_stats_destruct);
    s->nnetstats = 0;
}

/* The pmix_*_stats_free functions destruct n samples but leave the array
 * itself to the caller; the *_FREE macros also free it. */
static inline void pmix_proc_stats_free(pmix_proc_stats_t *ps, size_t n)
{
    if (NULL != ps) {
        DROVER_MACROS_DESTRUCT_ALL(ps, n, drover_macros_proc_stats_destruct);
    }
}

static inline void pmix_disk_stats_free(pmix_disk_stats_t *d, size_t n)
{
    if (NULL != d) {
        DROVER_MACROS_DESTRUCT_ALL(d, n, drover_macros_disk_stats_destruct);
    }
}

static inline void pmix_net_stats_free(pmix_net_stats_t *nst, size_t n)
{
    if (NULL != nst) {
        DROVER_MACROS_DESTRUCT_ALL(nst, n, drover_macros_net_stats_destruct);
    }
}

static inline void pmix_node_stats_free(pmix_node_stats_t *nd, size_t n)
{
    if (NULL != nd) {
        DROVER_MACROS_DESTRUCT_ALL(nd, n, drover_macros_node_stats_destruct);
    }
}

#define PMIX_PROC_STATS_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_proc_stats_t)
#define PMIX_PROC_STATS_RELEASE(m) PMIX_PROC_STATS_FREE(m, 1)
#define PMIX_PROC_STATS_CONSTRUCT(m) memset((m), 0, sizeof(pmix_proc_stats_t))
#define PMIX_PROC_STATS_DESTRUCT(m) drover_macros_proc_stats_destruct(m)
#define PMIX_PROC_STATS_FREE(m, n) \
    DROVER_MACROS_FREE_ALL(m, n, drover_macros_proc_stats_destruct)

#define PMIX_DISK_STATS_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_disk_stats_t)
#define PMIX_DISK_STATS_RELEASE(m) PMIX_DISK_STATS_FREE(m, 1)
#define PMIX_DISK_STATS_CONSTRUCT(m) memset((m), 0, sizeof(pmix_disk_stats_t))
#define PMIX_DISK_STATS_DESTRUCT(m) drover_macros_disk_stats_destruct(m)
#define PMIX_DISK_STATS_FREE(m, n) \
    DROVER_MACROS_FREE_ALL(m, n, drover_macros_disk_stats_destruct)

#define PMIX_NET_STATS_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_net_stats_t)
#define PMIX_NET_STATS_RELEASE(m) PMIX_NET_STATS_FREE(m, 1)
#define PMIX_NET_STATS_CONSTRUCT(m) memset((m), 0, sizeof(pmix_net_stats_t))
#define PMIX_NET_STATS_DESTRUCT(m) drover_macros_net_stats_destruct(m)
#define PMIX_NET_STATS_FREE(m, n) \
    DROVER_MACROS_FREE_ALL(m, n, drover_macros_net_stats_destruct)

#define PMIX_NODE_STATS_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_node_stats_t)
#define PMIX_NODE_STATS_RELEASE(m) PMIX_NODE_STATS_FREE(m, 1)
#define PMIX_NODE_STATS_CONSTRUCT(m) memset((m), 0, sizeof(pmix_node_stats_t))
#define PMIX_NODE_STATS_DESTRUCT(m) drover_macros_node_stats_destruct(m)
#define PMIX_NODE_STATS_FREE(m, n) \
    DROVER_MACROS_FREE_ALL(m, n, drover_macros_node_stats_destruct)

/* ---- Values ------------------------------------------------------------- */

/* A value owns what it holds; PMIx_Value_destruct frees it. PMIX_UNDEF is
 * 0, so a zeroed value, info or pdata is a constructed one. */

#define PMIX_VALUE_STATIC_INIT {.type = PMIX_UNDEF, .data.ptr = NULL}

#define PMIX_VALUE_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_value_t)

#define PMIX_VALUE_CONSTRUCT(m) memset((m), 0, sizeof(pmix_value_t))

#define PMIX_VALUE_DESTRUCT(m) PMIx_Value_destruct(m)

#define PMIX_VALUE_RELEASE(m) DROVER_MACROS_FREE_ALL(m, 1, PMIx_Value_destruct)

#define PMIX_VALUE_FREE(m, n) DROVER_MACROS_FREE_ALL(m, n, PMIx_Value_destruct)

/* Convert the number held by the value at m to type t and store it in n;
 * s becomes PMIX_SUCCESS, or PMIX_ERR_BAD_PARAM (n untouched) when the value
 * is not one of the integer, size, pid, rank or floating types. */
#define PMIX_VALUE_GET_NUMBER(s, m, n, t)                                   \
    do {                                                                    \
        const pmix_value_t *drover_macros_v_ = (m);                         \
        (s) = PMIX_SUCCESS;                                                 \
        switch (drover_macros_v_->type) {                                   \
        case PMIX_SIZE: (n) = (t) (drover_macros_v_->data.size); break;     \
        case PMIX_INT: (n) = (t) (drover_macros_v_->data.integer); break;   \
        case PMIX_INT8: (n) = (t) (drover_macros_v_->data.int8); break;     \
        case PMIX_INT16: (n) = (t) (drover_macros_v_->data.int16); break;   \
        case PMIX_INT32: (n) = (t) (drover_macros_v_->data.int32); break;   \
        case PMIX_INT64: (n) = (t) (drover_macros_v_->data.int64); break;   \
        case PMIX_UINT: (n) = (t) (drover_macros_v_->data.uint); break;     \
        case PMIX_UINT8: (n) = (t) (drover_macros_v_->data.uint8); break;   \
        case PMIX_UINT16: (n) = (t) (drover_macros_v_->data.uint16); break; \
        case PMIX_UINT32: (n) = (t) (drover_macros_v_->data.uint32); break; \
        case PMIX_UINT64: (n) = (t) (drover_macros_v_->data.uint64); break; \
        case PMIX_FLOAT: (n) = (t) (drover_macros_v_->data.fval); break;    \
        case PMIX_DOUBLE: (n) = (t) (drover_macros_v_->data.dval); break;   \
        case PMIX_PID: (n) = (t) (drover_macros_v_->data.pid); break;       \
        case PMIX_PROC_RANK: (n) = (t) (drover_macros_v_->data.rank); break; \
        default: (s) = PMIX_ERR_BAD_PARAM; break;                           \
        }                                                                   \
    } while (0)

#define PMIX_VALUE_LOAD(v, d, t) PMIx_Value_load((v), (d), (t))

#define PMIX_VALUE_UNLOAD(r, k, d, s) ((r) = PMIx_Value_unload((k), (d), (s)))

/* Deep-copy the value at s into v; when v is NULL a new value is allocated
 * into it first (the caller releases it with PMIX_VALUE_RELEASE). */
#define PMIX_VALUE_XFER(r, v, s)                                                \
    do {                                                                        \
        if (NULL == (v)) {                                                      \
            (v) = (pmix_value_t *) pmix_calloc(1, sizeof(pmix_value_t));        \
        }                                                                       \
        (r) = (NULL == (v)) ? PMIX_ERR_NOMEM : PMIx_Value_xfer((v), (s));       \
    } while (0)

#define PMIX_VALUE_XFER_DIRECT(r, v, s) ((r) = PMIx_Value_xfer((v), (s)))

/* ---- Infos -------------------------------------------------------------- */

#define PMIX_INFO_STATIC_INIT {.key = {0}, .flags = 0, .value = PMIX_VALUE_STATIC_INIT}

/* n zeroed infos, the last flagged PMIX_INFO_ARRAY_END; NULL when n is 0
 * or memory runs out. */
static inline pmix_info_t *drover_macros_info_create(size_t n)
{
    pmix_info_t *info = (pmix_info_t *) drover_macros_zalloc(n, sizeof(pmix_info_t));

    if (NULL != info) {
        info[n - 1].flags = PMIX_INFO_ARRAY_END;
    }
    return info;
}

/* A persistent info does not own its value, so only the others free it. */
static inline void drover_macros_info_destruct(pmix_info_t *info)
{
    if (!(info->flags & PMIX_INFO_PERSISTENT)) {
        PMIx_Value_destruct(&info->value);
    }
}

#define PMIX_INFO_CONSTRUCT(m) memset((m), 0, sizeof(pmix_info_t))

#define PMIX_INFO_CREATE(m, n)                              \
    do {                                                    \
        (m) = drover_macros_info_create((size_t) (n));      \
    } while (0)

#define PMIX_INFO_DESTRUCT(m) drover_macros_info_destruct(m)

#define PMIX_INFO_FREE(m, n) DROVER_MACROS_FREE_ALL(m, n, drover_macros_info_destruct)

/* Set (key, copy of data) in the info at i; see PMIx_Info_load. A PMIX_BOOL
 * with NULL data means true. */
#define PMIX_INFO_LOAD(i, k, d, t) ((void) PMIx_Info_load((i), (k), (d), (t)))

#define PMIX_INFO_XFER(d, s) ((void) PMIx_Info_xfer((d), (s)))

/* The flag macros set or test one PMIX_INFO_* bit of (m)->flags. */
#define PMIX_INFO_REQUIRED(m) ((m)->flags |= PMIX_INFO_REQD)
#define PMIX_INFO_OPTIONAL(m) ((m)->flags &= ~(pmix_info_directives_t) PMIX_INFO_REQD)
#define PMIX_INFO_IS_REQUIRED(m) ((m)->flags & PMIX_INFO_REQD)
#define PMIX_INFO_IS_OPTIONAL(m) (!((m)->flags & PMIX_INFO_REQD))
#define PMIX_INFO_PROCESSED(m) ((m)->flags |= PMIX_INFO_REQD_PROCESSED)
#define PMIX_INFO_WAS_PROCESSED(m) ((m)->flags & PMIX_INFO_REQD_PROCESSED)
#define PMIX_INFO_SET_END(m) ((m)->flags |= PMIX_INFO_ARRAY_END)
#define PMIX_INFO_IS_END(m) ((m)->flags & PMIX_INFO_ARRAY_END)
#define PMIX_INFO_SET_QUALIFIER(i) ((i)->flags |= PMIX_INFO_QUALIFIER)
#define PMIX_INFO_IS_QUALIFIER(i) ((i)->flags & PMIX_INFO_QUALIFIER)
#define PMIX_INFO_SET_PERSISTENT(ii) ((ii)->flags |= PMIX_INFO_PERSISTENT)
#define PMIX_INFO_IS_PERSISTENT(ii) ((ii)->flags & PMIX_INFO_PERSISTENT)

/* True when s, ignoring case, begins with prefix. */
static inline bool drover_macros_starts_with(const char *s, const char *prefix)
{
    for (; '\0' != *prefix; s++, prefix++) {
        if (tolower((unsigned char) *s) != tolower((unsigned char) *prefix)) {
            return false;
        }
    }
    return true;
}

/* How a value reads as a boolean. A value with no type, a NULL string and a
 * blank string read as true (the mere presence of a key means "yes"); a
 * string read after leading blanks is a number (false when its leading
 * digits are all zero) or starts with yes/true or no/false in any case.
 * Anything else is PMIX_NON_BOOL. */
static inline pmix_boolean_t pmix_check_true(const pmix_value_t *value)
{
    const char *s;

    if (PMIX_UNDEF == value->type) {
        return PMIX_BOOL_TRUE;
    }
    if (PMIX_BOOL == value->type) {
        return value->data.flag ? PMIX_BOOL_TRUE : PMIX_BOOL_FALSE;
    }
    if (PMIX_STRING != value->type) {
        return PMIX_NON_BOOL;
    }
    s = value->data.string;
    if (NULL == s) {
        return PMIX_BOOL_TRUE;
    }
    while (isspace((unsigned char) *s)) {
        s++;
    }
    if ('\0' == *s) {
        return PMIX_BOOL_TRUE;
    }
    if (isdigit((unsigned char) *s)) {
        for (; isdigit((unsigned char) *s); s++) {
            if ('0' != *s) {
                return PMIX_BOOL_TRUE;
            }
        }
        return PMIX_BOOL_FALSE;
    }
    if (drover_macros_starts_with(s, "yes") || drover_macros_starts_with(s, "true")) {
        return PMIX_BOOL_TRUE;
    }
    if (drover_macros_starts_with(s, "no") || drover_macros_starts_with(s, "false")) {
        return PMIX_BOOL_FALSE;
    }
    return PMIX_NON_BOOL;
}

/* a points to a pmix_value_t; m to a pmix_info_t. */
#define PMIX_CHECK_TRUE(a) (PMIX_BOOL_TRUE == pmix_check_true(a) ? true : false)
#define PMIX_CHECK_BOOL(a) (PMIX_NON_BOOL == pmix_check_true(a) ? false : true)
#define PMIX_INFO_TRUE(m) (PMIX_BOOL_TRUE == pmix_check_true(&(m)->value) ? true : false)

/* Info lists: see PMIx_Info_list_start and friends in pmix_deprecated.h. */
#define PMIX_INFO_LIST_START(p) ((p) = PMIx_Info_list_start())
#define PMIX_INFO_LIST_ADD(r, p, a, v, t) ((r) = PMIx_Info_list_add((p), (a), (v), (t)))
#define PMIX_INFO_LIST_INSERT(r, p, i) ((r) = PMIx_Info_list_insert((p), (i)))
#define PMIX_INFO_LIST_XFER(r, p, a) ((r) = PMIx_Info_list_xfer((p), (a)))
#define PMIX_INFO_LIST_CONVERT(r, p, m) ((r) = PMIx_Info_list_convert((p), (m)))
#define PMIX_INFO_LIST_RELEASE(p) PMIx_Info_list_release(p)

/* ---- Published data ----------------------------------------------------- */

#define PMIX_LOOKUP_STATIC_INIT                                                                     \
    {.proc = PMIX_PROC_STATIC_INIT, .key = {0}, .value = PMIX_VALUE_STATIC_INIT}

static inline void drover_macros_pdata_destruct(pmix_pdata_t *pd)
{
    PMIx_Value_destruct(&pd->value);
}

/* Destructs n elements; the array itself stays the caller's. */
static inline void pmix_pdata_free(pmix_pdata_t *pd, size_t n)
{
    if (NULL != pd) {
        DROVER_MACROS_DESTRUCT_ALL(pd, n, drover_macros_pdata_destruct);
    }
}

/* Reset pd and fill it with proc's id, key and a copy of data. */
static inline void drover_macros_pdata_load(pmix_pdata_t *pd, const pmix_proc_t *proc,
                                            const char *key, const void *data,
                                            pmix_data_type_t type)
{
    memset(pd, 0, sizeof(*pd));
    PMIX_LOAD_NSPACE(pd->proc.nspace, proc->nspace);
    pd->proc.rank = proc->rank;
    PMIX_LOAD_KEY(pd->key, key);
    (void) PMIx_Value_load(&pd->value, data, type);
}

/* Reset dest and fill it with a deep copy of src. */
static inline void drover_macros_pdata_xfer(pmix_pdata_t *dest, const pmix_pdata_t *src)
{
    memset(dest, 0, sizeof(*dest));
    PMIX_LOAD_NSPACE(dest->proc.nspace, src->proc.nspace);
    dest->proc.rank = src->proc.rank;
    PMIX_LOAD_KEY(dest->key, src->key);
    (void) PMIx_Value_xfer(&dest->value, &src->value);
}

#define PMIX_PDATA_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_pdata_t)

#define PMIX_PDATA_CONSTRUCT(m) memset((m), 0, sizeof(pmix_pdata_t))

#define PMIX_PDATA_DESTRUCT(m) drover_macros_pdata_destruct(m)

#define PMIX_PDATA_RELEASE(m) DROVER_MACROS_FREE_ALL(m, 1, drover_macros_pdata_destruct)

#define PMIX_PDATA_FREE(m, n) DROVER_MACROS_FREE_ALL(m, n, drover_macros_pdata_destruct)

/* Both do nothing when m (or d) is NULL. */
#define PMIX_PDATA_LOAD(m, p, k, v, t)                                  \
    do {                                                                \
        pmix_pdata_t *drover_macros_pd_ = (m);                          \
        if (NULL != drover_macros_pd_) {                                \
            drover_macros_pdata_load(drover_macros_pd_, (p), (k), (v), (t)); \
        }                                                               \
    } while (0)

#define PMIX_PDATA_XFER(d, s)                                           \
    do {                                                                \
        pmix_pdata_t *drover_macros_pd_ = (d);                          \
        if (NULL != drover_macros_pd_) {                                \
            drover_macros_pdata_xfer(drover_macros_pd_, (s));           \
        }                                                               \
    } while (0)

/* ---- Applications ------------------------------------------------------- */

#define PMIX_APP_STATIC_INIT                                                                        \
    {.cmd = NULL, .argv = NULL, .env = NULL, .cwd = NULL, .maxprocs = 0, .info = NULL,              \
     .ninfo = 0}

static inline void drover_macros_app_destruct(pmix_app_t *app)
{
    pmix_free(app->cmd);
    app->cmd = NULL;
    pmix_argv_free(app->argv);
    app->argv = NULL;
    pmix_argv_free(app->env);
    app->env = NULL;
    pmix_free(app->cwd);
    app->cwd = NULL;
    DROVER_MACROS_FREE_ALL(app->info, app->ninfo, drover_macros_info_destruct);
    app->ninfo = 0;
}

/* Destructs n elements; the array itself stays the caller's. */
static inline void pmix_app_free(pmix_app_t *ap, size_t n)
{
    if (NULL != ap) {
        DROVER_MACROS_DESTRUCT_ALL(ap, n, drover_macros_app_destruct);
    }
}

/* Give app an array of n infos; ninfo is 0 when memory runs out. */
static inline void drover_macros_app_info_create(pmix_app_t *app, size_t n)
{
    app->info = drover_macros_info_create(n);
    app->ninfo = (NULL == app->info) ? 0 : n;
}

#define PMIX_APP_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_app_t)

#define PMIX_APP_INFO_CREATE(m, n) drover_macros_app_info_create((m), (size_t) (n))

#define PMIX_APP_CONSTRUCT(m) memset((m), 0, sizeof(pmix_app_t))

#define PMIX_APP_DESTRUCT(m) drover_macros_app_destruct(m)

#define PMIX_APP_RELEASE(m) DROVER_MACROS_FREE_ALL(m, 1, drover_macros_app_destruct)

#define PMIX_APP_FREE(m, n) DROVER_MACROS_FREE_ALL(m, n, drover_macros_app_destruct)

/* ---- Queries ------------------------------------------------------------ */

#define PMIX_QUERY_STATIC_INIT {.keys = NULL, .qualifiers = NULL, .nqual = 0}

static inline void drover_macros_query_destruct(pmix_query_t *q)
{
    pmix_argv_free(q->keys);
    q->keys = NULL;
    DROVER_MACROS_FREE_ALL(q->qualifiers, q->nqual, drover_macros_info_destruct);
    q->nqual = 0;
}

/* Give q an array of n qualifiers; nqual is 0 when memory runs out. */
static inline void drover_macros_query_qualifiers_create(pmix_query_t *q, size_t n)
{
    q->qualifiers = drover_macros_info_create(n);
    q->nqual = (NULL == q->qualifiers) ? 0 : n;
}

#define PMIX_QUERY_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_query_t)

#define PMIX_QUERY_QUALIFIERS_CREATE(m, n) \
    drover_macros_query_qualifiers_create((m), (size_t) (n))

#define PMIX_QUERY_CONSTRUCT(m) memset((m), 0, sizeof(pmix_query_t))

#define PMIX_QUERY_DESTRUCT(m) drover_macros_query_destruct(m)

#define PMIX_QUERY_RELEASE(m) DROVER_MACROS_FREE_ALL(m, 1, drover_macros_query_destruct)

#define PMIX_QUERY_FREE(m, n) DROVER_MACROS_FREE_ALL(m, n, drover_macros_query_destruct)

/* ---- Attribute registrations -------------------------------------------- */

#define PMIX_REGATTR_STATIC_INIT                                                                    \
    {.name = NULL, .string = {0}, .type = PMIX_UNDEF, .description = NULL}

/* Construct and destruct accept NULL, as OpenPMIx's do. */
static inline void drover_macros_regattr_construct(pmix_regattr_t *a)
{
    if (NULL != a) {
        memset(a, 0, sizeof(*a));
    }
}

static inline void drover_macros_regattr_destruct(pmix_regattr_t *a)
{
    if (NULL != a) {
        pmix_free(a->name);
        a->name = NULL;
        pmix_argv_free(a->description);
        a->description = NULL;
    }
}

/* Copy name and key when given, set type and append a copy of description
 * (when given) to a's description lines. */
static inline void drover_macros_regattr_load(pmix_regattr_t *a, const char *name,
                                              const char *key, pmix_data_type_t type,
                                              const char *description)
{
    if (NULL != name) {
        a->name = drover_macros_strdup(name);
    }
    if (NULL != key) {
        PMIX_LOAD_KEY(a->string, key);
    }
    a->type = type;
    if (NULL != description) {
        (void) pmix_argv_append_nosize(&a->description, description);
    }
}

/* Make dest a deep copy of src; dest's previous content is not freed. */
static inline void drover_macros_regattr_xfer(pmix_regattr_t *dest, const pmix_regattr_t *src)
{
    drover_macros_regattr_construct(dest);
    dest->name = drover_macros_strdup(src->name);
    PMIX_LOAD_KEY(dest->string, src->string);
    dest->type = src->type;
    dest->description = pmix_argv_copy(src->description);
}

#define PMIX_REGATTR_CONSTRUCT(a) drover_macros_regattr_construct(a)

#define PMIX_REGATTR_LOAD(a, n, k, t, v)                                                 \
    drover_macros_regattr_load((a), (const char *) (n), (const char *) (k),              \
                               (pmix_data_type_t) (t), (const char *) (v))

#define PMIX_REGATTR_DESTRUCT(a) drover_macros_regattr_destruct(a)

#define PMIX_REGATTR_CREATE(m, n) DROVER_MACROS_CREATE(m, n, pmix_regattr_t)

/* m may be a void * (a data array's storage), as OpenPMIx allows. */
#define PMIX_REGATTR_FREE(m, n)                                                     \
    do {                                                                            \
        pmix_regattr_t *drover_macros_ra_ = (pmix_regattr_t *) (m);                 \
        DROVER_MACROS_FREE_ALL(drover_macros_ra_, (n), drover_macros_regattr_destruct); \
        (m) = NULL;                                                                 \
    } while (0)

#define PMIX_REGATTR_XFER(a, b) drover_macros_regattr_xfer((a), (b))

/* ---- Fabrics ------------------------------------------------------------ */

#define PMIX_FABRIC_STATIC_INIT                                                                     \
    {.name = NULL, .index = 0, .info = NULL, .ninfo = 0, .module = NULL}

#define PMIX_FABRIC_CONSTRUCT(x) memset((x), 0, sizeof(pmix_fabric_t))

/* ---- Data arrays -------------------------------------------------------- */

#define PMIX_DATA_ARRAY_STATIC_INIT {.type = PMIX_UNDEF, .size = 0, .array = NULL}

/* Bytes one element of a standard datatype occupies in a data array, or 0
 * for PMIX_UNDEF, retired ids, PMIX_KVAL (whose element type is the
 * library's own) and types registered at run time. The
 * library's datatype registry holds the same sizes (a unit test compares
 * them); this copy exists because OpenPMIx 4.2 programs expect
 * PMIX_DATA_ARRAY_CONSTRUCT to expand inline. */
static inline size_t drover_macros_element_size(pmix_data_type_t type)
{
    switch (type) {
    case PMIX_BOOL:
        return sizeof(bool);
    case PMIX_BYTE: case PMIX_INT8: case PMIX_UINT8: case PMIX_PERSIST: case PMIX_SCOPE:
    case PMIX_DATA_RANGE: case PMIX_COMMAND: case PMIX_PROC_STATE: case PMIX_ALLOC_DIRECTIVE:
    case PMIX_JOB_STATE: case PMIX_LINK_STATE:
        return sizeof(uint8_t);
    case PMIX_INT16: case PMIX_UINT16: case PMIX_DATA_TYPE: case PMIX_IOF_CHANNEL:
    case PMIX_LOCTYPE: case PMIX_STOR_ACCESS_TYPE:
        return sizeof(uint16_t);
    case PMIX_INT32: case PMIX_UINT32: case PMIX_PROC_RANK: case PMIX_INFO_DIRECTIVES:
        return sizeof(uint32_t);
    case PMIX_INT64: case PMIX_UINT64: case PMIX_DEVTYPE: case PMIX_STOR_MEDIUM:
    case PMIX_STOR_ACCESS: case PMIX_STOR_PERSIST:
        return sizeof(uint64_t);
    case PMIX_INT: case PMIX_UINT: case PMIX_STATUS:
        return sizeof(int);
    case PMIX_SIZE: return sizeof(size_t);
    case PMIX_PID: return sizeof(pid_t);
    case PMIX_FLOAT: return sizeof(float);
    case PMIX_DOUBLE: return sizeof(double);
    case PMIX_TIMEVAL: return sizeof(struct timeval);
    case PMIX_TIME: return sizeof(time_t);
    case PMIX_STRING: case PMIX_REGEX: /* a regex array holds its strings */
        return sizeof(char *);
    case PMIX_POINTER: return sizeof(void *);
    case PMIX_BYTE_OBJECT: case PMIX_COMPRESSED_STRING: case PMIX_COMPRESSED_BYTE_OBJECT:
        return sizeof(pmix_byte_object_t);
    case PMIX_PROC_NSPACE: return sizeof(pmix_nspace_t);
    case PMIX_VALUE: return sizeof(pmix_value_t);
    case PMIX_PROC: return sizeof(pmix_proc_t);
    case PMIX_APP: return sizeof(pmix_app_t);
    case PMIX_INFO: return sizeof(pmix_info_t);
    case PMIX_PDATA: return sizeof(pmix_pdata_t);
    case PMIX_PROC_INFO: return sizeof(pmix_proc_info_t);
    case PMIX_DATA_ARRAY: return sizeof(pmix_data_array_t);
    case PMIX_QUERY: return sizeof(pmix_query_t);
    case PMIX_ENVAR: return sizeof(pmix_envar_t);
    case PMIX_COORD: return sizeof(pmix_coord_t);
    case PMIX_REGATTR: return sizeof(pmix_regattr_t);
    case PMIX_PROC_CPUSET: return sizeof(pmix_cpuset_t);
    case PMIX_GEOMETRY: return sizeof(pmix_geometry_t);
    case PMIX_DEVICE_DIST: return sizeof(pmix_device_distance_t);
    case PMIX_ENDPOINT: return sizeof(pmix_endpoint_t);
    case PMIX_TOPO: return sizeof(pmix_topology_t);
    case PMIX_PROC_STATS: return sizeof(pmix_proc_stats_t);
    case PMIX_DISK_STATS: return sizeof(pmix_disk_stats_t);
    case PMIX_NET_STATS: return sizeof(pmix_net_stats_t);
    case PMIX_NODE_STATS: return sizeof(pmix_node_stats_t);
    case PMIX_DATA_BUFFER: return sizeof(pmix_data_buffer_t);
    default:
        return 0;
    }
}

/* Give m n constructed elements of type t: infos are created as
 * PMIX_INFO_CREATE does, device distances as PMIX_DEVICE_DIST_CREATE does,
 * everything else zeroed. With n of 0, an unknown type or no memory, m is
 * left empty (array NULL, size 0) but still typed. Free with
 * PMIx_Data_array_destruct. */
static inline void drover_macros_darray_construct(pmix_data_array_t *m, size_t n,
                                                  pmix_data_type_t t)
{
    m->type = t;
    if (PMIX_INFO == t) {
        m->array = drover_macros_info_create(n);
    } else if (PMIX_DEVICE_DIST == t) {
        m->array = drover_macros_devdist_create(n);
    } else {
        m->array = drover_macros_zalloc(n, drover_macros_element_size(t));
    }
    m->size = (NULL == m->array) ? 0 : n;
}

/* A new data array constructed as above; NULL when memory runs out. */
static inline pmix_data_array_t *drover_macros_darray_create(size_t n, pmix_data_type_t t)
{
    pmix_data_array_t *m = (pmix_data_array_t *) pmix_malloc(sizeof(pmix_data_array_t));

    if (NULL != m) {
        drover_macros_darray_construct(m, n, t);
    }
    return m;
}

#define PMIX_DATA_ARRAY_INIT(m, t) drover_macros_darray_construct((m), 0, (pmix_data_type_t) (t))

#define PMIX_DATA_ARRAY_CONSTRUCT(m, n, t) \
    drover_macros_darray_construct((m), (size_t) (n), (pmix_data_type_t) (t))

#define PMIX_DATA_ARRAY_CREATE(m, n, t)                                              \
    do {                                                                             \
        (m) = drover_macros_darray_create((size_t) (n), (pmix_data_type_t) (t));     \
    } while (0)

#define PMIX_DATA_ARRAY_DESTRUCT(m) PMIx_Data_array_destruct(m)

#define PMIX_DATA_ARRAY_FREE(m) DROVER_MACROS_FREE_ALL(m, 1, PMIx_Data_array_destruct)

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIx_MACROS_H */
