/*
 * topology.c - the node's hardware as a process sees it: PMIx_Load_topology,
 * PMIx_Get_cpuset, PMIx_Parse_cpuset_string, PMIx_Get_relative_locality and
 * PMIx_Compute_distances (and its _nb form). hwloc is the only provider:
 * a request naming another source is not supported.
 *
 * Design notes:
 *  - The node's topology is loaded once per process (common/topology.c,
 *    without I/O devices); PMIx_Load_topology hands the caller its own
 *    copy, which PMIx_Topology_destruct frees.
 *  - A cpuset string is "hwloc:" and an hwloc list ("hwloc:0-3,8"), as the
 *    server writes PMIX_CPUSET. A locality string (PMIX_LOCALITY_STRING,
 *    src/server/locality.c) lists, per kind of object, the logical indexes
 *    of those a binding overlaps: "SK0:L30:L20-1:L10-1:CR0-1:HT0-3:NM0";
 *    an "hwloc:" prefix, as OpenPMIx writes, is accepted too. Two
 *    processes share a level when their lists there intersect, and always
 *    share the node.
 *  - Distances to devices count the levels of the topology tree between
 *    each hardware thread of the cpuset and the object the device hangs
 *    from, through their closest common ancestor: 0 when the device is
 *    attached right at the thread, more the further away. mindist and
 *    maxdist are the extremes over the cpuset's threads. A topology loaded
 *    without I/O devices has none, and the answer is empty. Each device
 *    is named "<kind>://<host>::<osname>" (uuid) and by its OS name.
 *  - These calls need no server; only the _nb form needs the library
 *    initialised, for the thread its callback runs on.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "client.h"
#include "pmix.h"
#include "role.h"
#include "server_entry.h"
#include "topology.h"

static bool from_hwloc(const char *source)
{
    return NULL == source || 0 == strncasecmp(source, "hwloc", 5);
}

PMIX_EXPORT pmix_status_t PMIx_Load_topology(pmix_topology_t *topo)
{
    hwloc_topology_t node, copy;
    char *source;
    pmix_status_t rc;

    if (NULL == topo) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!from_hwloc(topo->source)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (PMIX_SUCCESS != (rc = topology_get(&node))) {
        return rc;
    }
    if (NULL == (source = strdup("hwloc"))) {
        return PMIX_ERR_NOMEM;
    }
    if (0 != hwloc_topology_dup(&copy, node)) {
        free(source);
        return PMIX_ERR_NOMEM;
    }
    /* The source the caller named, if any, stays the caller's. */
    topo->source = source;
    topo->topology = copy;
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Get_cpuset(pmix_cpuset_t *cpuset, pmix_bind_envelope_t ref)
{
    hwloc_topology_t node;
    hwloc_bitmap_t bitmap;
    char *source;
    pmix_status_t rc;

    if (NULL == cpuset || (PMIX_CPUBIND_PROCESS != ref && PMIX_CPUBIND_THREAD != ref)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (!from_hwloc(cpuset->source)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (PMIX_SUCCESS != (rc = topology_get(&node))) {
        return rc;
    }
    if (NULL == (bitmap = hwloc_bitmap_alloc()) || NULL == (source = strdup("hwloc"))) {
        hwloc_bitmap_free(bitmap);
        return PMIX_ERR_NOMEM;
    }
    if (0 != hwloc_get_cpubind(node, bitmap, PMIX_CPUBIND_PROCESS == ref
                                                 ? HWLOC_CPUBIND_PROCESS
                                                 : HWLOC_CPUBIND_THREAD)) {
        hwloc_bitmap_free(bitmap);
        free(source);
        return PMIX_ERR_NOT_AVAILABLE;
    }
    cpuset->source = source;
    cpuset->bitmap = bitmap;
    return PMIX_SUCCESS;
}

/* Parse an hwloc list ("0-3,8", possibly empty) into a new bitmap. */
static pmix_status_t parse_list(const char *list, size_t len, hwloc_bitmap_t *out)
{
    char *copy = strndup(list, len);
    hwloc_bitmap_t bitmap = hwloc_bitmap_alloc();
    pmix_status_t rc = NULL == copy || NULL == bitmap ? PMIX_ERR_NOMEM : PMIX_SUCCESS;

    /* An empty list is an empty set. hwloc reads digits, ',' and '-';
     * refuse anything else rather than let it stop the parse silently. */
    if (PMIX_SUCCESS == rc && '\0' != copy[0] &&
        ('\0' != copy[strspn(copy, "0123456789,-")] ||
         0 != hwloc_bitmap_list_sscanf(bitmap, copy))) {
        rc = PMIX_ERR_BAD_PARAM;
    }
    free(copy);
    if (PMIX_SUCCESS != rc) {
        hwloc_bitmap_free(bitmap);
        return rc;
    }
    *out = bitmap;
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Parse_cpuset_string(const char *cpuset_string,
                                                   pmix_cpuset_t *cpuset)
{
    const char *colon;
    hwloc_bitmap_t bitmap;
    char *source;
    pmix_status_t rc;

    if (NULL == cpuset_string || NULL == cpuset ||
        NULL == (colon = strchr(cpuset_string, ':'))) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (5 != colon - cpuset_string || 0 != strncasecmp(cpuset_string, "hwloc", 5)) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (PMIX_SUCCESS != (rc = parse_list(colon + 1, strlen(colon + 1), &bitmap))) {
        return rc;
    }
    if (NULL == (source = strdup("hwloc"))) {
        hwloc_bitmap_free(bitmap);
        return PMIX_ERR_NOMEM;
    }
    cpuset->source = source;
    cpuset->bitmap = bitmap;
    return PMIX_SUCCESS;
}

/* ---- Relative locality -------------------------------------------------- */

static const struct {
    const char tag[3];
    pmix_locality_t bit;
} levels[] = {
    {"SK", PMIX_LOCALITY_SHARE_PACKAGE}, {"L3", PMIX_LOCALITY_SHARE_L3CACHE},
    {"L2", PMIX_LOCALITY_SHARE_L2CACHE}, {"L1", PMIX_LOCALITY_SHARE_L1CACHE},
    {"CR", PMIX_LOCALITY_SHARE_CORE},    {"HT", PMIX_LOCALITY_SHARE_HWTHREAD},
    {"NM", PMIX_LOCALITY_SHARE_NUMA},
};

#define NLEVELS (sizeof(levels) / sizeof(levels[0]))

/* Split a locality string into one bitmap per level (NULL: absent). */
static pmix_status_t parse_locality(const char *s, hwloc_bitmap_t sets[NLEVELS])
{
    memset(sets, 0, NLEVELS * sizeof(*sets));
    if (0 == strncasecmp(s, "hwloc:", 6)) {
        s += 6;
    }
    while ('\0' != *s) {
        size_t len = strcspn(s, ":"), k = 0;
        while (k < NLEVELS && (len < 2 || 0 != strncmp(s, levels[k].tag, 2))) {
            k++;
        }
        /* Each level once, with at least one index. */
        if (k == NLEVELS || NULL != sets[k] || 2 == len ||
            PMIX_SUCCESS != parse_list(s + 2, len - 2, &sets[k])) {
            for (size_t i = 0; i < NLEVELS; i++) {
                hwloc_bitmap_free(sets[i]);
            }
            return PMIX_ERR_BAD_PARAM;
        }
        s += len + (':' == s[len]);
    }
    return PMIX_SUCCESS;
}

PMIX_EXPORT pmix_status_t PMIx_Get_relative_locality(const char *locality1,
                                                     const char *locality2,
                                                     pmix_locality_t *locality)
{
    hwloc_bitmap_t a[NLEVELS], b[NLEVELS];
    pmix_status_t rc;

    if (NULL == locality1 || NULL == locality2 || NULL == locality) {
        return PMIX_ERR_BAD_PARAM;
    }
    if (PMIX_SUCCESS != (rc = parse_locality(locality1, a))) {
        return rc;
    }
    if (PMIX_SUCCESS != (rc = parse_locality(locality2, b))) {
        for (size_t i = 0; i < NLEVELS; i++) {
            hwloc_bitmap_free(a[i]);
        }
        return rc;
    }
    *locality = PMIX_LOCALITY_SHARE_NODE;
    for (size_t i = 0; i < NLEVELS; i++) {
        if (NULL != a[i] && NULL != b[i] && hwloc_bitmap_intersects(a[i], b[i])) {
            *locality |= levels[i].bit;
        }
        hwloc_bitmap_free(a[i]);
        hwloc_bitmap_free(b[i]);
    }
    return PMIX_SUCCESS;
}

/* ---- Device distances --------------------------------------------------- */

static const struct {
    hwloc_obj_osdev_type_t hw;
    pmix_device_type_t type;
    const char *name;
} kinds[] = {
    {HWLOC_OBJ_OSDEV_BLOCK, PMIX_DEVTYPE_BLOCK, "block"},
    {HWLOC_OBJ_OSDEV_GPU, PMIX_DEVTYPE_GPU, "gpu"},
    {HWLOC_OBJ_OSDEV_NETWORK, PMIX_DEVTYPE_NETWORK, "net"},
    {HWLOC_OBJ_OSDEV_OPENFABRICS, PMIX_DEVTYPE_OPENFABRICS, "fab"},
    {HWLOC_OBJ_OSDEV_DMA, PMIX_DEVTYPE_DMA, "dma"},
    {HWLOC_OBJ_OSDEV_COPROC, PMIX_DEVTYPE_COPROC, "coproc"},
};

/* The levels between pu and the device's attachment point at. */
static unsigned hops(hwloc_topology_t topo, hwloc_obj_t pu, hwloc_obj_t at)
{
    hwloc_obj_t common = hwloc_get_common_ancestor_obj(topo, pu, at);
    return (unsigned)(pu->depth - common->depth) + (unsigned)(at->depth - common->depth);
}

/* The devices info asks about: PMIX_DEVICE_TYPE bits (all when absent) and
 * PMIX_DEVICE_ID names (any when absent). */
static bool wanted(const pmix_info_t *info, size_t ninfo, pmix_device_type_t type,
                   const char *osname, const char *uuid)
{
    pmix_device_type_t types = 0;
    bool named = false, ids = false;

    for (size_t i = 0; i < ninfo; i++) {
        const pmix_value_t *v = &info[i].value;
        if (PMIX_CHECK_KEY(&info[i], PMIX_DEVICE_TYPE) && PMIX_DEVTYPE == v->type) {
            types |= v->data.devtype;
        } else if (PMIX_CHECK_KEY(&info[i], PMIX_DEVICE_ID) && PMIX_STRING == v->type &&
                   NULL != v->data.string) {
            ids = true;
            named = named || 0 == strcmp(v->data.string, osname) ||
                    0 == strcmp(v->data.string, uuid);
        }
    }
    return (0 == types || (types & type)) && (!ids || named);
}

static pmix_status_t measure(hwloc_topology_t topo, hwloc_obj_t dev, size_t kind,
                             hwloc_const_bitmap_t cpus, const char *host,
                             pmix_device_distance_t *d)
{
    hwloc_obj_t at = hwloc_get_non_io_ancestor_obj(topo, dev), pu = NULL;
    unsigned lo = UINT16_MAX, hi = 0;

    while (NULL != at && NULL != (pu = hwloc_get_next_obj_inside_cpuset_by_type(topo, cpus, HWLOC_OBJ_PU,
                                                                   pu))) {
        unsigned h = hops(topo, pu, at);
        lo = h < lo ? h : lo;
        hi = h > hi ? h : hi;
    }
    if (lo > hi) {
        return PMIX_ERR_BAD_PARAM; /* no thread of the cpuset in this topology */
    }
    d->type = kinds[kind].type;
    d->mindist = (uint16_t)lo;
    d->maxdist = (uint16_t)(hi > UINT16_MAX ? UINT16_MAX : hi);
    d->osname = strdup(NULL == dev->name ? "" : dev->name);
    if (asprintf(&d->uuid, "%s://%s::%s", kinds[kind].name, host, d->osname) < 0) {
        d->uuid = NULL;
    }
    return NULL == d->osname || NULL == d->uuid ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

/* The distances from cpus to topo's devices, as info selects. */
static pmix_status_t distances(hwloc_topology_t topo, hwloc_const_bitmap_t cpus,
                               const pmix_info_t *info, size_t ninfo,
                               pmix_device_distance_t **out, size_t *nout)
{
    char host[256] = "localhost";
    size_t n = 0, room = 0;
    pmix_status_t rc = PMIX_SUCCESS;

    *out = NULL;
    *nout = 0;
    gethostname(host, sizeof(host) - 1);
    for (hwloc_obj_t dev = NULL; PMIX_SUCCESS == rc && NULL != (dev = hwloc_get_next_osdev(topo,
                                                                                          dev));) {
        size_t k = 0;
        while (k < sizeof(kinds) / sizeof(*kinds) && kinds[k].hw != dev->attr->osdev.type) {
            k++;
        }
        if (k == sizeof(kinds) / sizeof(*kinds)) {
            continue;
        }
        if (n == room) {
            pmix_device_distance_t *grown = realloc(*out, (room = 2 * room + 4) * sizeof(*grown));
            if (NULL == grown) {
                rc = PMIX_ERR_NOMEM;
                break;
            }
            *out = grown;
        }
        memset(&(*out)[n], 0, sizeof((*out)[n]));
        rc = measure(topo, dev, k, cpus, host, &(*out)[n]);
        if (PMIX_SUCCESS == rc &&
            !wanted(info, ninfo, (*out)[n].type, (*out)[n].osname, (*out)[n].uuid)) {
            free((*out)[n].uuid);
            free((*out)[n].osname);
            continue;
        }
        n++; /* on failure too: what measure allocated is freed below */
    }
    if (PMIX_SUCCESS != rc) {
        PMIX_DEVICE_DIST_FREE(*out, n);
        return rc;
    }
    if (0 == n) {
        free(*out);
        *out = NULL;
    }
    *nout = n;
    return PMIX_SUCCESS;
}

typedef struct dist_op {
    pmix_device_dist_cbfunc_t cbfunc;
    void *cbdata;
    pmix_status_t status;
    pmix_device_distance_t *dist;
    size_t ndist;
} dist_op_t;

static void release_distances(void *cbdata)
{
    dist_op_t *op = cbdata;
    PMIX_DEVICE_DIST_FREE(op->dist, op->ndist);
    free(op);
}

static void report(void *arg)
{
    dist_op_t *op = arg;
    if (NULL == op->cbfunc) { /* nobody waits */
        release_distances(op);
        return;
    }
    op->cbfunc(op->status, op->dist, op->ndist, op->cbdata, release_distances, op);
}

PMIX_EXPORT pmix_status_t PMIx_Compute_distances_nb(pmix_topology_t *topo, pmix_cpuset_t *cpuset,
                                                    pmix_info_t info[], size_t ninfo,
                                                    pmix_device_dist_cbfunc_t cbfunc,
                                                    void *cbdata)
{
    pmix_cpuset_t mine = {.source = NULL, .bitmap = NULL};
    hwloc_topology_t node;
    dist_op_t *op;
    bool server_role = ROLE_SERVER == role_current();
    pmix_status_t rc;

    if (!server_role && !client_initialized()) {
        return PMIX_ERR_INIT;
    }
    if ((NULL == info && 0 != ninfo) ||
        (NULL != topo && NULL == topo->topology) || (NULL != cpuset && NULL == cpuset->bitmap)) {
        return PMIX_ERR_BAD_PARAM;
    }
    if ((NULL != topo && !from_hwloc(topo->source)) ||
        (NULL != cpuset && !from_hwloc(cpuset->source))) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (NULL == topo && PMIX_SUCCESS != (rc = topology_get(&node))) {
        return rc;
    }
    if (NULL == cpuset && PMIX_SUCCESS != (rc = PMIx_Get_cpuset(&mine, PMIX_CPUBIND_PROCESS))) {
        return rc;
    }
    if (NULL == (op = calloc(1, sizeof(*op)))) {
        PMIx_Cpuset_destruct(&mine);
        return PMIX_ERR_NOMEM;
    }
    op->cbfunc = cbfunc;
    op->cbdata = cbdata;
    op->status = distances(NULL == topo ? node : topo->topology,
                           NULL == cpuset ? mine.bitmap : cpuset->bitmap, info, ninfo, &op->dist,
                           &op->ndist);
    PMIx_Cpuset_destruct(&mine);
    rc = server_role ? server_entry_post(report, op) : conn_post(report, op);
    if (PMIX_SUCCESS != rc) {
        PMIX_DEVICE_DIST_FREE(op->dist, op->ndist);
        free(op);
    }
    return rc;
}

typedef struct dist_wait {
    client_wait_t wait;
    pmix_device_distance_t *dist;
    size_t ndist;
} dist_wait_t;

static void keep_distances(pmix_status_t status, pmix_device_distance_t *dist, size_t ndist,
                           void *cbdata, pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    dist_wait_t *w = cbdata;
    dist_op_t *op = release_cbdata;

    /* The blocking caller keeps the array: take it from the operation
     * (report() hands its dist_op_t as release_cbdata) instead of copying. */
    w->dist = op->dist;
    w->ndist = op->ndist;
    op->dist = NULL;
    op->ndist = 0;
    release_fn(release_cbdata);
    client_wait_done(&w->wait, status);
}

PMIX_EXPORT pmix_status_t PMIx_Compute_distances(pmix_topology_t *topo, pmix_cpuset_t *cpuset,
                                                 pmix_info_t info[], size_t ninfo,
                                                 pmix_device_distance_t *distances_out[],
                                                 size_t *ndist)
{
    dist_wait_t w = {.dist = NULL, .ndist = 0};
    pmix_status_t rc;

    if (NULL == distances_out || NULL == ndist) {
        return PMIX_ERR_BAD_PARAM;
    }
    *distances_out = NULL;
    *ndist = 0;
    if (conn_in_progress_thread()) {
        return PMIX_ERR_WOULD_BLOCK;
    }
    client_wait_init(&w.wait);
    rc = client_wait_started(&w.wait, PMIx_Compute_distances_nb(topo, cpuset, info, ninfo,
                                                                keep_distances, &w));
    if (PMIX_SUCCESS == rc) {
        *distances_out = w.dist;
        *ndist = w.ndist;
    } else {
        PMIX_DEVICE_DIST_FREE(w.dist, w.ndist);
    }
    return rc;
}
