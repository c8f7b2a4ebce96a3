/*
 * hardware.c - the datatypes describing a node's hardware: the hwloc-backed
 * PMIX_TOPO and PMIX_PROC_CPUSET (with PMIx_Topology_destruct and
 * PMIx_Cpuset_destruct), and the fabric and device types PMIX_COORD,
 * PMIX_GEOMETRY, PMIX_DEVICE_DIST and PMIX_ENDPOINT.
 *
 * Design notes on topologies and cpusets:
 *  - Both structs are a source string naming the library behind the object
 *    ("hwloc", possibly followed by a version) and an opaque object of
 *    that library: an hwloc_topology_t or an hwloc_bitmap_t. Only hwloc is
 *    supported, and a NULL source is taken to mean hwloc. The two share one
 *    implementation, parameterised by a small table of hwloc operations.
 *  - On the wire an element is its source (a PMIX_STRING) then its object
 *    as text (a PMIX_STRING, NULL for a NULL object): a topology as its
 *    hwloc XML export followed by the u32 CRC-32 of the XML, a cpuset as
 *    its hwloc list string ("0-3,8").
 *  - hwloc allocates the objects itself, so they live on the heap even
 *    when a copy or an unpack was given another allocator; only the source
 *    string goes through it. Releasing the element is the only way to free
 *    the object, arena or not.
 *  - Text from the wire is untrusted. The list string is parsed here, and
 *    indexes above CPUSET_MAX_INDEX are refused, so a forged "0-4e9" never
 *    becomes a half-gigabyte bitmap. The XML has to go to hwloc's
 *    importer, which is not robust: hwloc 2.9 crashes on some damaged
 *    exports (an object that lost its complete_cpuset attribute, an
 *    unparsable nodeset next to a broken element). The CRC-32 makes any
 *    damage in transit a refused unpack before hwloc sees the text; it
 *    does not stop a sender that forges both, so topologies must come from
 *    a trusted peer (in practice the node's own server).
 *  - An imported topology is flagged as this system's, so binding works
 *    on it: topologies travel from a node's server to the clients on that
 *    node. It also takes the sender's support bits from the XML (which
 *    OpenPMIx sends apart), so it exports exactly the XML it came from;
 *    comparing XML exports is how two topologies are compared.
 *
 * Design notes on the fabric and device types:
 *  - Each is a table of members (fields.h). A coordinate owns its array of
 *    dims uint32 values; a geometry owns its uuid, osname and ncoords
 *    coordinates; a device distance its uuid and osname; an endpoint its
 *    uuid, osname and byte object.
 *  - Some members say which thing is described rather than how it
 *    measures: the view of a coordinate, the fabric of a geometry, the
 *    device type of a distance. Two elements that differ there compare as
 *    PMIX_VALUE_INCOMPATIBLE_OBJECTS, as in OpenPMIx, instead of being
 *    ordered.
 *  - pmix_device_distance_t's constructor sets the distances to
 *    UINT16_MAX ("unknown"); that is a value like any other on the wire.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <hwloc.h>
#include <zlib.h>

#include "fields.h"
#include "pmix.h"

/* Largest PU index a cpuset read off the wire may name; it keeps the bitmap
 * within 128 KiB, far beyond any machine's PU count. */
#define CPUSET_MAX_INDEX (1ul << 20)

/* The hwloc operations one of the two types needs. */
typedef struct hwloc_ops {
    size_t obj_offset;                    /* of the object pointer in the struct */
    bool checksummed;                     /* the text is followed by its CRC-32 */
    pmix_status_t (*to_text)(void *obj, char **text);
    void (*free_text)(void *obj, char *text);
    pmix_status_t (*from_text)(const char *text, void **obj);
    pmix_status_t (*dup)(void *obj, void **copy);
    pmix_value_cmp_t (*compare)(void *a, void *b);
    void (*describe)(fields_text_t *t, void *obj);
    void (*destroy)(void *obj);
} hwloc_ops_t;

_Static_assert(offsetof(pmix_topology_t, source) == 0, "source leads pmix_topology_t");
_Static_assert(offsetof(pmix_cpuset_t, source) == 0, "source leads pmix_cpuset_t");

static char **source_of(const void *elem)
{
    return (char **)elem;
}

static void **obj_of(const void *elem, const hwloc_ops_t *ops)
{
    return (void **)((char *)elem + ops->obj_offset);
}

static bool is_hwloc(const char *source)
{
    return NULL == source || 0 == strncasecmp(source, "hwloc", 5);
}

static uint32_t text_crc(const char *text)
{
    return (uint32_t)crc32_z(crc32_z(0, Z_NULL, 0), (const Bytef *)text, strlen(text));
}

/* ---- The shared record functions -------------------------------------------- */

static pmix_status_t held_pack(drover_writer_t *w, const void *elem, const hwloc_ops_t *ops)
{
    void *obj = *obj_of(elem, ops);
    char *text = NULL;
    pmix_status_t rc;

    if (NULL != obj && !is_hwloc(*source_of(elem))) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    if (NULL != obj) {
        rc = ops->to_text(obj, &text);
        if (PMIX_SUCCESS != rc) {
            return rc;
        }
    }
    rc = drover_pack(w, source_of(elem), 1, PMIX_STRING);
    if (PMIX_SUCCESS == rc) {
        rc = drover_pack(w, &text, 1, PMIX_STRING);
    }
    if (PMIX_SUCCESS == rc && NULL != text && ops->checksummed) {
        rc = wire_put_u32(w, text_crc(text));
    }
    if (NULL != text) {
        ops->free_text(obj, text);
    }
    return rc;
}

static pmix_status_t held_unpack(drover_reader_t *r, void *elem, const hwloc_ops_t *ops)
{
    drover_tma_t *tma = drover_reader_tma(r);
    char *source = NULL, *text = NULL;
    void *obj = NULL;
    uint32_t crc;
    pmix_status_t rc;

    rc = drover_unpack(r, &source, 1, PMIX_STRING);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    rc = drover_unpack(r, &text, 1, PMIX_STRING);
    if (PMIX_SUCCESS == rc && NULL != text && ops->checksummed) {
        rc = wire_get_u32(r, &crc);
        if (PMIX_SUCCESS == rc && crc != text_crc(text)) {
            rc = PMIX_ERR_UNPACK_FAILURE;
        }
    }
    if (PMIX_SUCCESS == rc && NULL != text) {
        /* Only hwloc objects are ever built, so release can free them. */
        rc = is_hwloc(source) ? ops->from_text(text, &obj) : PMIX_ERR_UNPACK_FAILURE;
    }
    drover_tma_free(tma, text);
    if (PMIX_SUCCESS != rc) {
        drover_tma_free(tma, source);
        return rc;
    }
    *source_of(elem) = source;
    *obj_of(elem, ops) = obj;
    return PMIX_SUCCESS;
}

static pmix_status_t held_copy(void *dest, const void *src, drover_tma_t *tma,
                               const hwloc_ops_t *ops)
{
    void *obj = *obj_of(src, ops), *copy = NULL;
    char *source = NULL;
    pmix_status_t rc;

    *source_of(dest) = NULL;
    *obj_of(dest, ops) = NULL;
    if (NULL != obj && !is_hwloc(*source_of(src))) {
        return PMIX_ERR_NOT_SUPPORTED;
    }
    rc = bfrops_copy(&source, source_of(src), 1, PMIX_STRING, tma);
    if (PMIX_SUCCESS != rc) {
        return rc;
    }
    if (NULL != obj) {
        rc = ops->dup(obj, &copy);
        if (PMIX_SUCCESS != rc) {
            drover_tma_free(tma, source);
            return rc;
        }
    }
    *source_of(dest) = source;
    *obj_of(dest, ops) = copy;
    return PMIX_SUCCESS;
}

static pmix_value_cmp_t held_compare(const void *a, const void *b, const hwloc_ops_t *ops)
{
    void *oa = *obj_of(a, ops), *ob = *obj_of(b, ops);

    /* Objects of different libraries cannot be ordered. */
    if (PMIX_EQUAL != bfrops_compare(source_of(a), source_of(b), 1, PMIX_STRING)) {
        return PMIX_VALUE_INCOMPATIBLE_OBJECTS;
    }
    if (NULL == oa || NULL == ob) {
        return fields_order(NULL != oa, NULL != ob);
    }
    if (!is_hwloc(*source_of(a))) {
        return PMIX_VALUE_COMPARISON_NOT_AVAIL;
    }
    return ops->compare(oa, ob);
}

static char *held_print(const void *elem, const hwloc_ops_t *ops)
{
    void *obj = *obj_of(elem, ops);
    fields_text_t t;

    fields_text_open(&t);
    fields_text_printf(&t, "{source=");
    fields_text_elem(&t, source_of(elem), PMIX_STRING);
    fields_text_printf(&t, ", object=");
    if (NULL == obj) {
        fields_text_printf(&t, "NULL");
    } else if (!is_hwloc(*source_of(elem))) {
        fields_text_printf(&t, "%p", obj);
    } else {
        ops->describe(&t, obj);
    }
    fields_text_printf(&t, "}");
    return fields_text_close(&t);
}

static void held_release(void *elem, drover_tma_t *tma, const hwloc_ops_t *ops)
{
    void *obj = *obj_of(elem, ops);

    /* An object from another library is not ours to free. */
    if (NULL != obj && is_hwloc(*source_of(elem))) {
        ops->destroy(obj);
    }
    drover_tma_free(tma, *source_of(elem));
    *source_of(elem) = NULL;
    *obj_of(elem, ops) = NULL;
}

/* ---- Topologies ------------------------------------------------------------ */

static pmix_status_t topology_to_text(void *obj, char **text)
{
    int len;

    return 0 == hwloc_topology_export_xmlbuffer(obj, text, &len, 0) ? PMIX_SUCCESS : PMIX_ERROR;
}

static void topology_free_text(void *obj, char *text)
{
    hwloc_free_xmlbuffer(obj, text);
}

static pmix_status_t topology_from_text(const char *text, void **obj)
{
    size_t len = strlen(text) + 1;
    hwloc_topology_t topo;

    if (len > INT_MAX) {
        return PMIX_ERR_UNPACK_FAILURE;
    }
    if (0 != hwloc_topology_init(&topo)) {
        return PMIX_ERR_NOMEM;
    }
    /* Keep every object the sender exported, I/O devices included, and the
     * support bits it reported, so the import exports the same XML. */
    if (0 != hwloc_topology_set_all_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_ALL)
        || 0 != hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM
                                                   | HWLOC_TOPOLOGY_FLAG_IMPORT_SUPPORT)
        || 0 != hwloc_topology_set_xmlbuffer(topo, text, (int)len)
        || 0 != hwloc_topology_load(topo)) {
        hwloc_topology_destroy(topo);
        return PMIX_ERR_UNPACK_FAILURE;
    }
    *obj = topo;
    return PMIX_SUCCESS;
}

static pmix_status_t topology_dup(void *obj, void **copy)
{
    hwloc_topology_t topo;

    if (0 != hwloc_topology_dup(&topo, obj)) {
        return PMIX_ERR_NOMEM;
    }
    *copy = topo;
    return PMIX_SUCCESS;
}

/* hwloc has no ordering of topologies; their XML exports stand in. */
static pmix_value_cmp_t topology_compare(void *a, void *b)
{
    char *xa = NULL, *xb = NULL;
    pmix_value_cmp_t c = PMIX_VALUE_COMPARISON_NOT_AVAIL;
    int s;

    if (PMIX_SUCCESS == topology_to_text(a, &xa) && PMIX_SUCCESS == topology_to_text(b, &xb)) {
        s = strcmp(xa, xb);
        c = fields_order(s > 0, s < 0);
    }
    if (NULL != xa) {
        topology_free_text(a, xa);
    }
    if (NULL != xb) {
        topology_free_text(b, xb);
    }
    return c;
}

static void topology_describe(fields_text_t *t, void *obj)
{
    fields_text_printf(t, "hwloc topology: %d packages, %d cores, %d PUs, %d NUMA nodes",
                       hwloc_get_nbobjs_by_type(obj, HWLOC_OBJ_PACKAGE),
                       hwloc_get_nbobjs_by_type(obj, HWLOC_OBJ_CORE),
                       hwloc_get_nbobjs_by_type(obj, HWLOC_OBJ_PU),
                       hwloc_get_nbobjs_by_type(obj, HWLOC_OBJ_NUMANODE));
}

static void topology_destroy(void *obj)
{
    hwloc_topology_destroy(obj);
}

static const hwloc_ops_t topo_ops = {
    .obj_offset = offsetof(pmix_topology_t, topology),
    .checksummed = true,
    .to_text = topology_to_text,
    .free_text = topology_free_text,
    .from_text = topology_from_text,
    .dup = topology_dup,
    .compare = topology_compare,
    .describe = topology_describe,
    .destroy = topology_destroy,
};

/* ---- CPU sets ---------------------------------------------------------------- */

static pmix_status_t bitmap_to_text(void *obj, char **text)
{
    return hwloc_bitmap_list_asprintf(text, obj) < 0 ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

static void bitmap_free_text(void *obj, char *text)
{
    free(text);
}

/* Reads one index of a list string; false when there is none or it is out
 * of range. */
static bool parse_index(const char **p, unsigned long *index)
{
    char *end;

    if (!isdigit((unsigned char)**p)) {
        return false;
    }
    *index = strtoul(*p, &end, 10);
    *p = end;
    return *index <= CPUSET_MAX_INDEX;
}

/* The list syntax hwloc prints: comma-separated indexes "i" and ranges
 * "i-j", the last range possibly open ("i-", every index from i on). */
static pmix_status_t bitmap_from_text(const char *text, void **obj)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    const char *p = text;
    unsigned long lo, hi;
    int last;

    if (NULL == set) {
        return PMIX_ERR_NOMEM;
    }
    while ('\0' != *p) {
        if (!parse_index(&p, &lo)) {
            goto malformed;
        }
        last = (int)lo;
        if ('-' == *p) {
            p++;
            if ('\0' == *p) {
                last = -1;
            } else if (!parse_index(&p, &hi) || hi < lo) {
                goto malformed;
            } else {
                last = (int)hi;
            }
        }
        if (0 != hwloc_bitmap_set_range(set, (unsigned)lo, last)) {
            hwloc_bitmap_free(set);
            return PMIX_ERR_NOMEM;
        }
        if (',' == *p && '\0' != p[1]) {
            p++;
        } else if ('\0' != *p) {
            goto malformed;
        }
    }
    *obj = set;
    return PMIX_SUCCESS;

malformed:
    hwloc_bitmap_free(set);
    return PMIX_ERR_UNPACK_FAILURE;
}

static pmix_status_t bitmap_dup(void *obj, void **copy)
{
    *copy = hwloc_bitmap_dup(obj);
    return NULL == *copy ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

static pmix_value_cmp_t bitmap_compare(void *a, void *b)
{
    int c = hwloc_bitmap_compare(a, b);

    return fields_order(c > 0, c < 0);
}

static void bitmap_describe(fields_text_t *t, void *obj)
{
    char *text = NULL;

    if (PMIX_SUCCESS != bitmap_to_text(obj, &text)) {
        t->ok = false;
        return;
    }
    fields_text_printf(t, "hwloc cpuset %s", text);
    free(text);
}

static void bitmap_destroy(void *obj)
{
    hwloc_bitmap_free(obj);
}

static const hwloc_ops_t cpuset_ops = {
    .obj_offset = offsetof(pmix_cpuset_t, bitmap),
    .to_text = bitmap_to_text,
    .free_text = bitmap_free_text,
    .from_text = bitmap_from_text,
    .dup = bitmap_dup,
    .compare = bitmap_compare,
    .describe = bitmap_describe,
    .destroy = bitmap_destroy,
};

/* ---- Records and the public destructors ----------------------------------------- */

/* The record functions of one of the two types, bound to its ops. */
#define HELD_DATATYPE(prefix, tid, st, ops)                                                \
    static pmix_status_t prefix##_pack(drover_writer_t *w, const void *elem)               \
    {                                                                                      \
        return held_pack(w, elem, &(ops));                                                 \
    }                                                                                      \
    static pmix_status_t prefix##_unpack(drover_reader_t *r, void *elem)                   \
    {                                                                                      \
        return held_unpack(r, elem, &(ops));                                               \
    }                                                                                      \
    static pmix_status_t prefix##_copy(void *dest, const void *src, drover_tma_t *tma)     \
    {                                                                                      \
        return held_copy(dest, src, tma, &(ops));                                          \
    }                                                                                      \
    static pmix_value_cmp_t prefix##_compare(const void *a, const void *b)                 \
    {                                                                                      \
        return held_compare(a, b, &(ops));                                                 \
    }                                                                                      \
    static char *prefix##_print(const void *elem)                                          \
    {                                                                                      \
        return held_print(elem, &(ops));                                                   \
    }                                                                                      \
    static void prefix##_release(void *elem, drover_tma_t *tma)                            \
    {                                                                                      \
        held_release(elem, tma, &(ops));                                                   \
    }                                                                                      \
    const drover_datatype_t bfrops_type_##prefix = {                                       \
        .name = #tid,                                                                      \
        .id = tid,                                                                         \
        .size = sizeof(st),                                                                \
        .min_wire = 8,                                                                     \
        .pack = prefix##_pack,                                                             \
        .unpack = prefix##_unpack,                                                         \
        .copy = prefix##_copy,                                                             \
        .compare = prefix##_compare,                                                       \
        .print = prefix##_print,                                                           \
        .release = prefix##_release,                                                       \
    };

HELD_DATATYPE(topo, PMIX_TOPO, pmix_topology_t, topo_ops)
HELD_DATATYPE(proc_cpuset, PMIX_PROC_CPUSET, pmix_cpuset_t, cpuset_ops)

/* Frees what topo owns (its source and, when it is hwloc's, its topology),
 * leaving it empty; the struct itself stays the caller's. */
PMIX_EXPORT void PMIx_Topology_destruct(pmix_topology_t *topo)
{
    if (NULL != topo) {
        held_release(topo, NULL, &topo_ops);
    }
}

/* Frees what cpuset owns (its source and, when it is hwloc's, its bitmap),
 * leaving it empty; the struct itself stays the caller's. */
PMIX_EXPORT void PMIx_Cpuset_destruct(pmix_cpuset_t *cpuset)
{
    if (NULL != cpuset) {
        held_release(cpuset, NULL, &cpuset_ops);
    }
}

/* ---- Fabric coordinates and devices -------------------------------------------- */

static const fields_field_t coord_fields[] = {
    FIELDS_IDENTITY(pmix_coord_t, view, PMIX_UINT8),
    FIELDS_ARRAY_MEMBER(pmix_coord_t, coord, dims, PMIX_UINT32),
};
static const fields_layout_t coord_layout = FIELDS_LAYOUT(pmix_coord_t, coord_fields);
FIELDS_DATATYPE(coord, PMIX_COORD, pmix_coord_t, 5, 0, coord_layout)

static const fields_field_t geometry_fields[] = {
    FIELDS_IDENTITY(pmix_geometry_t, fabric, PMIX_SIZE),
    FIELDS_MEMBER(pmix_geometry_t, uuid, PMIX_STRING),
    FIELDS_MEMBER(pmix_geometry_t, osname, PMIX_STRING),
    FIELDS_ARRAY_MEMBER(pmix_geometry_t, coordinates, ncoords, PMIX_COORD),
};
static const fields_layout_t geometry_layout = FIELDS_LAYOUT(pmix_geometry_t, geometry_fields);
FIELDS_DATATYPE(geometry, PMIX_GEOMETRY, pmix_geometry_t, 20, 0, geometry_layout)

static const fields_field_t device_dist_fields[] = {
    FIELDS_MEMBER(pmix_device_distance_t, uuid, PMIX_STRING),
    FIELDS_MEMBER(pmix_device_distance_t, osname, PMIX_STRING),
    FIELDS_IDENTITY(pmix_device_distance_t, type, PMIX_DEVTYPE),
    FIELDS_MEMBER(pmix_device_distance_t, mindist, PMIX_UINT16),
    FIELDS_MEMBER(pmix_device_distance_t, maxdist, PMIX_UINT16),
};
static const fields_layout_t device_dist_layout =
    FIELDS_LAYOUT(pmix_device_distance_t, device_dist_fields);
FIELDS_DATATYPE(device_dist, PMIX_DEVICE_DIST, pmix_device_distance_t, 20, 0, device_dist_layout)

static const fields_field_t endpoint_fields[] = {
    FIELDS_MEMBER(pmix_endpoint_t, uuid, PMIX_STRING),
    FIELDS_MEMBER(pmix_endpoint_t, osname, PMIX_STRING),
    FIELDS_MEMBER(pmix_endpoint_t, endpt, PMIX_BYTE_OBJECT),
};
static const fields_layout_t endpoint_layout = FIELDS_LAYOUT(pmix_endpoint_t, endpoint_fields);
FIELDS_DATATYPE(endpoint, PMIX_ENDPOINT, pmix_endpoint_t, 12, 0, endpoint_layout)
