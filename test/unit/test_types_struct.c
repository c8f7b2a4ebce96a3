/*
 * test_types_struct.c - the structured datatypes (value, info, proc, app,
 * data array, topology, stats, ...) through the type harness, plus what
 * only these types do: values of every inline kind, nested arrays, forged
 * counts and depths, persistent infos, hwloc objects.
 *
 * The samples are built once in main (the topology has to be discovered),
 * before the test processes fork, and are never modified: the harness only
 * reads them.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "bfrops.h"
#include "kval.h"
#include "pmix.h"
#include "type_harness.h"

/* ---- Helpers ------------------------------------------------------------- */

/* An allocator that counts: live blocks, and the largest block asked for. */
typedef struct counting {
    drover_tma_t tma;
    long live;
    size_t largest;
} counting_t;

static void note(counting_t *c, size_t n, const void *p)
{
    if (n > c->largest) {
        c->largest = n;
    }
    if (NULL != p) {
        c->live++;
    }
}

static void *c_malloc(drover_tma_t *t, size_t n)
{
    void *p = malloc(n);
    note((counting_t *)t, n, p);
    return p;
}

static void *c_calloc(drover_tma_t *t, size_t nmemb, size_t size)
{
    void *p = calloc(nmemb, size);
    note((counting_t *)t, size != 0 && nmemb > SIZE_MAX / size ? SIZE_MAX : nmemb * size, p);
    return p;
}

static void *c_realloc(drover_tma_t *t, void *old, size_t n)
{
    void *p = realloc(old, n);
    note((counting_t *)t, n, NULL == old ? p : NULL);
    return p;
}

static char *c_strdup(drover_tma_t *t, const char *s)
{
    char *p = strdup(s);
    note((counting_t *)t, strlen(s) + 1, p);
    return p;
}

static void c_free(drover_tma_t *t, void *p)
{
    if (NULL != p) {
        ((counting_t *)t)->live--;
    }
    free(p);
}

static void counting_init(counting_t *c)
{
    memset(c, 0, sizeof(*c));
    c->tma.malloc = c_malloc;
    c->tma.calloc = c_calloc;
    c->tma.realloc = c_realloc;
    c->tma.strdup = c_strdup;
    c->tma.free = c_free;
}

static void pack_one(pmix_data_buffer_t *buf, const void *elem, pmix_data_type_t type)
{
    drover_writer_t w = {.buf = buf};
    ck_assert_int_eq(drover_pack(&w, elem, 1, type), PMIX_SUCCESS);
}

static pmix_status_t unpack_one(const pmix_data_buffer_t *buf, void *elem, pmix_data_type_t type,
                                drover_tma_t *tma)
{
    drover_reader_t r = {.pos = (const uint8_t *)buf->base_ptr,
                         .end = (const uint8_t *)buf->base_ptr + buf->bytes_used,
                         .tma = tma};
    return drover_unpack(&r, elem, 1, type);
}

static void buffer_free(pmix_data_buffer_t *buf)
{
    free(buf->base_ptr);
    memset(buf, 0, sizeof(*buf));
}

/* Packs elem, unpacks it through a counting allocator, and checks it comes
 * back equal and releases to nothing. */
static void assert_round_trip(const void *elem, pmix_data_type_t type, size_t size)
{
    pmix_data_buffer_t buf = {0};
    counting_t c;
    void *out = calloc(1, size);

    counting_init(&c);
    pack_one(&buf, elem, type);
    ck_assert_int_eq(unpack_one(&buf, out, type, &c.tma), PMIX_SUCCESS);
    ck_assert_int_eq(bfrops_compare(out, elem, 1, type), PMIX_EQUAL);
    bfrops_release(out, 1, type, &c.tma);
    ck_assert_int_eq(c.live, 0);
    free(out);
    buffer_free(&buf);
}

static void load_info(pmix_info_t *info, const char *key, pmix_data_type_t type)
{
    memset(info, 0, sizeof(*info));
    strcpy(info->key, key);
    info->value.type = type;
}

/* ---- Samples --------------------------------------------------------------- */

static char *argv_sample[] = {"a.out", "-v", "--size=3", NULL};
static char *env_sample[] = {"OMP_NUM_THREADS=4", "PATH=/bin:/usr/bin", NULL};
static char *query_keys[] = {"pmix.qry.nspaces", "pmix.qry.jobs", NULL};
static char *regattr_lines[] = {"Number of processes", "in the job", NULL};
static uint32_t coord_values[] = {1, 2, 3};
static uint32_t coord_values2[] = {7, 0};
static char endpoint_bytes[] = {(char)0xde, (char)0xad, 0, (char)0xef};
static char dbuf_bytes[] = "0123456789";

static pmix_proc_t proc_sample = {"job-42", 7};
static pmix_proc_t proc_wildcard = {"", PMIX_RANK_WILDCARD};
static pmix_proc_t procs_a[3] = {{"job-1", 0}, {"job-1", 1}, {"job-2", 5}};
static pmix_proc_t procs_b[1] = {{"job-3", 2}};
static pmix_data_array_t procs_a_array = {PMIX_PROC, 3, procs_a};
static pmix_data_array_t procs_b_array = {PMIX_PROC, 1, procs_b};
static pmix_info_t nested_infos[2];
static pmix_data_array_t nested_array = {PMIX_INFO, 2, nested_infos};
static pmix_data_array_t empty_array = {PMIX_UNDEF, 0, NULL};
static char *strings_array_data[] = {"x", NULL, ""};
static pmix_data_array_t strings_array = {PMIX_STRING, 3, strings_array_data};

static pmix_proc_info_t proc_info_sample;
static pmix_info_t app_infos[2];
static pmix_app_t app_sample;
static pmix_app_t app_empty;
static pmix_envar_t envar_sample = {"PATH", "/opt/bin", ':'};
static pmix_query_t query_sample;
static pmix_regattr_t regattr_sample;

static pmix_value_t value_string, value_proc, value_array, value_undef, value_envar,
    value_nested, value_null_proc;
static pmix_info_t info_sample, info_persistent;
static pmix_pdata_t pdata_sample;
static bfrops_kval_t kval_sample, kval_no_value;

static pmix_coord_t coord_sample = {PMIX_COORD_LOGICAL_VIEW, coord_values, 3};
static pmix_coord_t geometry_coords[2] = {{PMIX_COORD_LOGICAL_VIEW, coord_values, 3},
                                          {PMIX_COORD_PHYSICAL_VIEW, coord_values2, 2}};
static pmix_geometry_t geometry_sample = {2, "uuid-geo", "ib0", geometry_coords, 2};
static pmix_device_distance_t device_dist_sample = {"uuid-dev", "mlx5_0", PMIX_DEVTYPE_NETWORK,
                                                    10, 20};
static pmix_endpoint_t endpoint_sample = {"uuid-ep", "hsn0", {endpoint_bytes, 4}};

static pmix_topology_t topo_sample, topo_null = {"hwloc", NULL};
static pmix_cpuset_t cpuset_sample, cpuset_full, cpuset_null = {"hwloc", NULL};
static pmix_data_buffer_t dbuf_sample = {dbuf_bytes, dbuf_bytes + 10, dbuf_bytes + 3, 11, 10};
static pmix_data_buffer_t dbuf_empty;

static pmix_proc_stats_t proc_stats_sample = {
    "node1", {"job-42", 3}, 4242, "a.out", 'R', {17, 500}, 99.5f, -5, 12,
    1.5f, 2048.25f, 512.0f, 4096.0f, 6, {1700000000, 123456}};
static pmix_disk_stats_t disk_stats[2] = {
    {"sda", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, UINT64_MAX},
    {"nvme0n1", 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}};
static pmix_net_stats_t net_stats[1] = {{"eth0", 100, 200, 0, 300, 400, 1}};
static pmix_node_stats_t node_stats_sample = {
    "node1", 0.5f, 0.25f, 1e-40f, 65536.0f, 1024.0f, 10.0f, 20.0f, 0.0f, 8192.0f, 8000.0f,
    -0.0f, {1700000001, 7}, disk_stats, 2, net_stats, 1};

static type_sample_t samples[64];
static size_t nsamples;

static void add(pmix_data_type_t type, const void *elem, const char *label)
{
    samples[nsamples].type = type;
    samples[nsamples].elem = elem;
    samples[nsamples].label = label;
    nsamples++;
}

static hwloc_topology_t load_topology(void)
{
    hwloc_topology_t topo;

    /* hwloc's default filters leave I/O devices out. This runs before any
     * test, where Check cannot report, so a failure stops the program. */
    if (0 != hwloc_topology_init(&topo) || 0 != hwloc_topology_load(topo)) {
        fprintf(stderr, "cannot discover this machine's topology\n");
        exit(EXIT_FAILURE);
    }
    return topo;
}

static void build_samples(void)
{
    hwloc_bitmap_t set;

    load_info(&nested_infos[0], "pmix.procs.a", PMIX_DATA_ARRAY);
    nested_infos[0].value.data.darray = &procs_a_array;
    load_info(&nested_infos[1], "pmix.procs.b", PMIX_DATA_ARRAY);
    nested_infos[1].value.data.darray = &procs_b_array;
    nested_infos[1].flags = PMIX_INFO_REQD;

    proc_info_sample = (pmix_proc_info_t){{"job-42", 3}, "node1", "/bin/a.out", 1234, 3,
                                          PMIX_PROC_STATE_RUNNING};

    load_info(&app_infos[0], "pmix.wdir", PMIX_STRING);
    app_infos[0].value.data.string = "/home/user";
    load_info(&app_infos[1], "pmix.np", PMIX_UINT32);
    app_infos[1].value.data.uint32 = 16;
    app_sample = (pmix_app_t){"a.out", argv_sample, env_sample, "/tmp", 4, app_infos, 2};

    query_sample = (pmix_query_t){query_keys, app_infos, 1};
    regattr_sample = (pmix_regattr_t){.name = "PMIX_JOB_SIZE", .type = PMIX_UINT32,
                                      .description = regattr_lines};
    strcpy(regattr_sample.string, "pmix.job.size");

    value_string.type = PMIX_STRING;
    value_string.data.string = "hello";
    value_proc.type = PMIX_PROC;
    value_proc.data.proc = &proc_sample;
    value_array.type = PMIX_DATA_ARRAY;
    value_array.data.darray = &nested_array;
    value_envar.type = PMIX_ENVAR;
    value_envar.data.envar = envar_sample;
    value_nested.type = PMIX_VALUE;
    value_nested.data.ptr = &value_array;

    load_info(&info_sample, "pmix.nested", PMIX_DATA_ARRAY);
    info_sample.value.data.darray = &nested_array;
    load_info(&info_persistent, "pmix.borrowed", PMIX_STRING);
    info_persistent.value.data.string = "not owned";
    info_persistent.flags = PMIX_INFO_PERSISTENT | PMIX_INFO_REQD;

    pdata_sample.proc = proc_sample;
    strcpy(pdata_sample.key, "published");
    pdata_sample.value = value_string;
    kval_sample = (bfrops_kval_t){"kv", &value_proc};
    kval_no_value = (bfrops_kval_t){NULL, NULL};

    topo_sample.source = "hwloc";
    topo_sample.topology = load_topology();

    set = hwloc_bitmap_alloc();
    hwloc_bitmap_set_range(set, 0, 2);
    hwloc_bitmap_set(set, 5);
    hwloc_bitmap_set_range(set, 64, 70);
    cpuset_sample = (pmix_cpuset_t){"hwloc", set};
    set = hwloc_bitmap_alloc();
    hwloc_bitmap_fill(set);
    cpuset_full = (pmix_cpuset_t){NULL, set};

    add(PMIX_VALUE, &value_string, "value holding a string");
    add(PMIX_VALUE, &value_proc, "value holding a proc");
    add(PMIX_VALUE, &value_array, "value holding nested arrays");
    add(PMIX_VALUE, &value_undef, "undefined value");
    add(PMIX_VALUE, &value_envar, "value holding an inline envar");
    add(PMIX_VALUE, &value_nested, "value holding a value");
    add(PMIX_INFO, &info_sample, "info");
    add(PMIX_INFO, &info_persistent, "persistent info");
    add(PMIX_PDATA, &pdata_sample, "pdata");
    add(PMIX_KVAL, &kval_sample, "kval");
    add(PMIX_KVAL, &kval_no_value, "kval without key or value");
    add(PMIX_QUERY, &query_sample, "query");
    add(PMIX_REGATTR, &regattr_sample, "regattr");
    add(PMIX_PROC, &proc_sample, "proc");
    add(PMIX_PROC, &proc_wildcard, "wildcard proc");
    add(PMIX_PROC_INFO, &proc_info_sample, "proc info");
    add(PMIX_APP, &app_sample, "app with argv, env and info");
    add(PMIX_APP, &app_empty, "empty app");
    add(PMIX_ENVAR, &envar_sample, "envar");
    add(PMIX_DATA_ARRAY, &nested_array, "array of infos holding arrays of procs");
    add(PMIX_DATA_ARRAY, &empty_array, "empty array");
    add(PMIX_DATA_ARRAY, &strings_array, "array of strings, one NULL");
    add(PMIX_DATA_BUFFER, &dbuf_sample, "partly read buffer");
    add(PMIX_DATA_BUFFER, &dbuf_empty, "empty buffer");
    add(PMIX_COORD, &coord_sample, "coord");
    add(PMIX_GEOMETRY, &geometry_sample, "geometry");
    add(PMIX_DEVICE_DIST, &device_dist_sample, "device distance");
    add(PMIX_ENDPOINT, &endpoint_sample, "endpoint");
    add(PMIX_TOPO, &topo_sample, "this machine's topology");
    add(PMIX_TOPO, &topo_null, "NULL topology");
    add(PMIX_PROC_CPUSET, &cpuset_sample, "cpuset");
    add(PMIX_PROC_CPUSET, &cpuset_full, "infinite cpuset, NULL source");
    add(PMIX_PROC_CPUSET, &cpuset_null, "NULL bitmap");
    add(PMIX_PROC_STATS, &proc_stats_sample, "proc stats");
    add(PMIX_DISK_STATS, &disk_stats[0], "disk stats");
    add(PMIX_NET_STATS, &net_stats[0], "net stats");
    add(PMIX_NODE_STATS, &node_stats_sample, "node stats with disks and interfaces");
}

/* ---- Values of every inline kind ---------------------------------------------- */

static bool s_bool = true;
static uint8_t s_u8 = 0xa5;
static char *s_string = "inline text";
static size_t s_size = SIZE_MAX - 1;
static pid_t s_pid = 4321;
static int s_int = -7;
static int8_t s_i8 = -8;
static int16_t s_i16 = -1600;
static int32_t s_i32 = -320000;
static int64_t s_i64 = INT64_MIN;
static unsigned int s_uint = 7;
static uint16_t s_u16 = 60000;
static uint32_t s_u32 = 4000000000u;
static uint64_t s_u64 = UINT64_MAX;
static float s_float = 3.5f;
static double s_double = -2.25e300;
static struct timeval s_tv = {12, 34};
static time_t s_time = 1700000000;
static pmix_status_t s_status = PMIX_ERR_NOT_FOUND;
static pmix_byte_object_t s_bo = {"\x01\x02\x00\x03", 4};
static void *s_pointer = &s_u8;

typedef struct inline_sample {
    pmix_data_type_t type;
    const void *elem;
} inline_sample_t;

/* Every type a pmix_value_t holds in place; enumerations reuse the integer
 * of their width. */
static const inline_sample_t inline_samples[] = {
    {PMIX_BOOL, &s_bool},           {PMIX_BYTE, &s_u8},
    {PMIX_STRING, &s_string},       {PMIX_SIZE, &s_size},
    {PMIX_PID, &s_pid},             {PMIX_INT, &s_int},
    {PMIX_INT8, &s_i8},             {PMIX_INT16, &s_i16},
    {PMIX_INT32, &s_i32},           {PMIX_INT64, &s_i64},
    {PMIX_UINT, &s_uint},           {PMIX_UINT8, &s_u8},
    {PMIX_UINT16, &s_u16},          {PMIX_UINT32, &s_u32},
    {PMIX_UINT64, &s_u64},          {PMIX_FLOAT, &s_float},
    {PMIX_DOUBLE, &s_double},       {PMIX_TIMEVAL, &s_tv},
    {PMIX_TIME, &s_time},           {PMIX_STATUS, &s_status},
    {PMIX_PROC_RANK, &s_u32},       {PMIX_BYTE_OBJECT, &s_bo},
    {PMIX_PERSIST, &s_u8},          {PMIX_SCOPE, &s_u8},
    {PMIX_DATA_RANGE, &s_u8},       {PMIX_PROC_STATE, &s_u8},
    {PMIX_POINTER, &s_pointer},     {PMIX_ALLOC_DIRECTIVE, &s_u8},
    {PMIX_ENVAR, &envar_sample},    {PMIX_LINK_STATE, &s_u8},
    {PMIX_JOB_STATE, &s_u8},        {PMIX_LOCTYPE, &s_u16},
    {PMIX_DEVTYPE, &s_u64},         {PMIX_COMMAND, &s_u8},
    {PMIX_INFO_DIRECTIVES, &s_u32}, {PMIX_DATA_TYPE, &s_u16},
    {PMIX_IOF_CHANNEL, &s_u16},     {PMIX_STOR_MEDIUM, &s_u64},
    {PMIX_STOR_ACCESS, &s_u64},     {PMIX_STOR_PERSIST, &s_u64},
    {PMIX_STOR_ACCESS_TYPE, &s_u16}, {PMIX_COMPRESSED_STRING, &s_bo},
    {PMIX_REGEX, &s_string},        {PMIX_COMPRESSED_BYTE_OBJECT, &s_bo},
};

static const inline_sample_t *inline_sample(pmix_data_type_t type)
{
    for (size_t i = 0; i < sizeof(inline_samples) / sizeof(inline_samples[0]); i++) {
        if (inline_samples[i].type == type) {
            return &inline_samples[i];
        }
    }
    return NULL;
}

static void check_inline_type(const drover_datatype_t *t, void *arg)
{
    const inline_sample_t *s;
    pmix_data_buffer_t buf = {0};
    pmix_value_t v = {0}, out;
    counting_t c;

    if (!(t->flags & DROVER_DATATYPE_VALUE_INLINE) || t->id >= DROVER_DATATYPE_USER_MIN) {
        return;
    }
    (*(int *)arg)++;
    s = inline_sample(t->id);
    ck_assert_msg(NULL != s, "inline type %s has no sample here", t->name);
    /* A shallow load: the value borrows the sample's storage. */
    v.type = t->id;
    memcpy(&v.data, s->elem, t->size);
    ck_assert_ptr_eq(bfrops_value_elem(&v), &v.data);

    counting_init(&c);
    pack_one(&buf, &v, PMIX_VALUE);
    ck_assert_int_eq(unpack_one(&buf, &out, PMIX_VALUE, &c.tma), PMIX_SUCCESS);
    ck_assert_int_eq(out.type, t->id);
    ck_assert_msg(PMIX_EQUAL == bfrops_compare(bfrops_value_elem(&out), s->elem, 1, t->id),
                  "%s changed through a value", t->name);
    bfrops_release(&out, 1, PMIX_VALUE, &c.tma);
    ck_assert_int_eq(out.type, PMIX_UNDEF);
    ck_assert_int_eq(c.live, 0);
    buffer_free(&buf);
}

START_TEST(a_value_of_every_inline_kind_round_trips)
{
    int seen = 0;

    bfrops_foreach(check_inline_type, &seen);
    ck_assert_int_ge(seen, 40);
}
END_TEST

/* ---- Hostile input -------------------------------------------------------------- */

START_TEST(an_array_claiming_2_31_elements_in_10_bytes_is_refused_without_allocating)
{
    pmix_data_buffer_t buf = {0};
    drover_writer_t w = {.buf = &buf};
    pmix_data_type_t elem_type = PMIX_UINT8;
    pmix_data_array_t out;
    counting_t c;

    ck_assert_int_eq(drover_pack(&w, &elem_type, 1, PMIX_DATA_TYPE), PMIX_SUCCESS);
    ck_assert_int_eq(wire_put_u32(&w, UINT32_C(1) << 31), PMIX_SUCCESS);
    ck_assert_int_eq(wire_put(&w, "abcd", 4), PMIX_SUCCESS);
    ck_assert_uint_eq(buf.bytes_used, 10);

    counting_init(&c);
    ck_assert_int_ne(unpack_one(&buf, &out, PMIX_DATA_ARRAY, &c.tma), PMIX_SUCCESS);
    ck_assert_uint_lt(c.largest, 64);
    ck_assert_int_eq(c.live, 0);
    ck_assert_ptr_null(out.array);
    buffer_free(&buf);
}
END_TEST

/* A chain of depth arrays, each holding the next; the last is empty. */
static pmix_data_array_t *make_chain(size_t depth)
{
    pmix_data_array_t *chain = calloc(depth, sizeof(*chain));

    for (size_t i = 0; i < depth; i++) {
        chain[i].type = i + 1 < depth ? PMIX_DATA_ARRAY : PMIX_UINT8;
        chain[i].size = i + 1 < depth ? 1 : 0;
        chain[i].array = i + 1 < depth ? &chain[i + 1] : NULL;
    }
    return chain;
}

START_TEST(nesting_deeper_than_the_limit_is_refused)
{
    pmix_data_array_t *shallow = make_chain(WIRE_MAX_DEPTH / 2);
    pmix_data_array_t *deep = make_chain(WIRE_MAX_DEPTH + 8);
    pmix_data_buffer_t buf = {0};
    pmix_data_array_t out;
    counting_t c;

    assert_round_trip(shallow, PMIX_DATA_ARRAY, sizeof(pmix_data_array_t));

    pack_one(&buf, deep, PMIX_DATA_ARRAY);
    counting_init(&c);
    ck_assert_int_eq(unpack_one(&buf, &out, PMIX_DATA_ARRAY, &c.tma), PMIX_ERR_UNPACK_FAILURE);
    ck_assert_int_eq(c.live, 0);
    buffer_free(&buf);
    free(shallow);
    free(deep);
}
END_TEST

START_TEST(a_value_of_an_unknown_type_is_refused_both_ways)
{
    pmix_data_buffer_t buf = {0};
    drover_writer_t w = {.buf = &buf};
    pmix_value_t v = {.type = 999}, out;

    ck_assert_int_eq(drover_pack(&w, &v, 1, PMIX_VALUE), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_uint_eq(buf.bytes_used, 0);
    ck_assert_int_eq(wire_put_u16(&w, 999), PMIX_SUCCESS);
    ck_assert_int_eq(wire_put_u32(&w, 0), PMIX_SUCCESS);
    ck_assert_int_eq(unpack_one(&buf, &out, PMIX_VALUE, NULL), PMIX_ERR_UNKNOWN_DATA_TYPE);
    ck_assert_int_eq(out.type, PMIX_UNDEF);
    buffer_free(&buf);
}
END_TEST

START_TEST(an_argv_with_a_null_string_inside_is_refused)
{
    pmix_data_buffer_t buf = {0};
    drover_writer_t w = {.buf = &buf};
    const char *keys[] = {"a", NULL};
    pmix_query_t out;
    counting_t c;

    /* A query whose keys claim two strings, the second NULL. */
    ck_assert_int_eq(wire_put_count(&w, 2), PMIX_SUCCESS);
    ck_assert_int_eq(drover_pack(&w, keys, 2, PMIX_STRING), PMIX_SUCCESS);
    ck_assert_int_eq(wire_put_count(&w, 0), PMIX_SUCCESS);
    counting_init(&c);
    ck_assert_int_eq(unpack_one(&buf, &out, PMIX_QUERY, &c.tma), PMIX_ERR_UNPACK_FAILURE);
    ck_assert_int_eq(c.live, 0);
    buffer_free(&buf);
}
END_TEST

START_TEST(a_key_longer_than_a_pmix_key_t_is_refused)
{
    pmix_data_buffer_t buf = {0};
    drover_writer_t w = {.buf = &buf};
    char *text = malloc(PMIX_MAX_KEYLEN + 1);
    pmix_info_t out;

    memset(text, 'k', PMIX_MAX_KEYLEN + 1);
    ck_assert_int_eq(wire_put_u32(&w, PMIX_MAX_KEYLEN + 1), PMIX_SUCCESS);
    ck_assert_int_eq(wire_put(&w, text, PMIX_MAX_KEYLEN + 1), PMIX_SUCCESS);
    ck_assert_int_eq(wire_put_u16(&w, PMIX_UNDEF), PMIX_SUCCESS);
    ck_assert_int_eq(wire_put_u32(&w, 0), PMIX_SUCCESS);
    ck_assert_int_eq(unpack_one(&buf, &out, PMIX_INFO, NULL), PMIX_ERR_UNPACK_FAILURE);
    free(text);
    buffer_free(&buf);
}
END_TEST

/* Packs a cpuset whose list string is text and unpacks it. */
static pmix_status_t unpack_cpuset_text(const char *text, pmix_cpuset_t *out)
{
    pmix_data_buffer_t buf = {0};
    drover_writer_t w = {.buf = &buf};
    const char *fields[] = {"hwloc", text};
    pmix_status_t rc;

    ck_assert_int_eq(drover_pack(&w, fields, 2, PMIX_STRING), PMIX_SUCCESS);
    rc = unpack_one(&buf, out, PMIX_PROC_CPUSET, NULL);
    buffer_free(&buf);
    return rc;
}

START_TEST(cpuset_lists_are_parsed_strictly)
{
    static const char *bad[] = {"0-4000000000", "1,,2", "3-1", "1,", "-", "a", "1-2-3", " 1"};
    pmix_cpuset_t out;
    char *text;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(PMIX_ERR_UNPACK_FAILURE == unpack_cpuset_text(bad[i], &out),
                      "\"%s\" was accepted", bad[i]);
        ck_assert_ptr_null(out.bitmap);
    }
    ck_assert_int_eq(unpack_cpuset_text("0,2-4,9-", &out), PMIX_SUCCESS);
    ck_assert_int_eq(hwloc_bitmap_list_asprintf(&text, out.bitmap), 8);
    ck_assert_str_eq(text, "0,2-4,9-");
    ck_assert_str_eq(out.source, "hwloc");
    free(text);
    PMIx_Cpuset_destruct(&out);
    ck_assert_ptr_null(out.source);
    ck_assert_ptr_null(out.bitmap);
}
END_TEST

/* ---- Semantics ------------------------------------------------------------------ */

START_TEST(a_persistent_info_keeps_its_value_and_its_copy_owns_one)
{
    pmix_info_t info, copy;
    char *borrowed = "borrowed";

    load_info(&info, "k", PMIX_STRING);
    info.value.data.string = borrowed;
    info.flags = PMIX_INFO_PERSISTENT;

    ck_assert_int_eq(bfrops_copy(&copy, &info, 1, PMIX_INFO, NULL), PMIX_SUCCESS);
    ck_assert_ptr_ne(copy.value.data.string, borrowed);
    ck_assert_uint_eq(copy.flags & PMIX_INFO_PERSISTENT, 0);
    ck_assert_int_eq(bfrops_compare(&copy, &info, 1, PMIX_INFO), PMIX_EQUAL);
    /* Releasing the original must not free the string literal. */
    bfrops_release(&info, 1, PMIX_INFO, NULL);
    bfrops_release(&copy, 1, PMIX_INFO, NULL);
    ck_assert_ptr_null(copy.value.data.string);
}
END_TEST

START_TEST(infos_differing_in_key_value_or_flags_differ)
{
    pmix_info_t a, b;

    load_info(&a, "alpha", PMIX_UINT32);
    a.value.data.uint32 = 1;
    b = a;
    ck_assert_int_eq(bfrops_compare(&a, &b, 1, PMIX_INFO), PMIX_EQUAL);
    b.flags = PMIX_INFO_REQD;
    ck_assert_int_eq(bfrops_compare(&a, &b, 1, PMIX_INFO), PMIX_VALUE2_GREATER);
    b.flags = 0;
    b.value.data.uint32 = 0;
    ck_assert_int_eq(bfrops_compare(&a, &b, 1, PMIX_INFO), PMIX_VALUE1_GREATER);
    b.value.type = PMIX_UINT64;
    ck_assert_int_eq(bfrops_compare(&a, &b, 1, PMIX_INFO), PMIX_VALUE_TYPE_DIFFERENT);
    b = a;
    strcpy(b.key, "beta");
    ck_assert_int_eq(bfrops_compare(&a, &b, 1, PMIX_INFO), PMIX_VALUE2_GREATER);
}
END_TEST

START_TEST(coordinates_of_different_views_are_incompatible)
{
    pmix_coord_t a = coord_sample, b = coord_sample;
    pmix_device_distance_t da = device_dist_sample, db = device_dist_sample;

    b.view = PMIX_COORD_PHYSICAL_VIEW;
    ck_assert_int_eq(bfrops_compare(&a, &b, 1, PMIX_COORD), PMIX_VALUE_INCOMPATIBLE_OBJECTS);
    b = coord_sample;
    b.dims = 2;
    ck_assert_int_eq(bfrops_compare(&a, &b, 1, PMIX_COORD), PMIX_VALUE1_GREATER);
    /* The device type decides before the names are looked at. */
    db.type = PMIX_DEVTYPE_GPU;
    db.uuid = "a";
    ck_assert_int_eq(bfrops_compare(&da, &db, 1, PMIX_DEVICE_DIST),
                     PMIX_VALUE_INCOMPATIBLE_OBJECTS);
}
END_TEST

START_TEST(a_value_with_no_element_packs_an_empty_one)
{
    pmix_data_buffer_t buf = {0};
    pmix_value_t out;

    value_null_proc.type = PMIX_PROC;
    pack_one(&buf, &value_null_proc, PMIX_VALUE);
    ck_assert_int_eq(unpack_one(&buf, &out, PMIX_VALUE, NULL), PMIX_SUCCESS);
    ck_assert_int_eq(out.type, PMIX_PROC);
    ck_assert_ptr_nonnull(out.data.proc);
    ck_assert_str_eq(out.data.proc->nspace, "");
    ck_assert_uint_eq(out.data.proc->rank, 0);
    ck_assert_int_eq(bfrops_compare(&value_null_proc, &out, 1, PMIX_VALUE), PMIX_VALUE2_GREATER);
    bfrops_release(&out, 1, PMIX_VALUE, NULL);
    buffer_free(&buf);
}
END_TEST

START_TEST(a_data_buffer_travels_as_its_unread_bytes)
{
    pmix_data_buffer_t buf = {0};
    pmix_data_buffer_t out;

    pack_one(&buf, &dbuf_sample, PMIX_DATA_BUFFER);
    ck_assert_uint_eq(buf.bytes_used, 4 + 7);
    ck_assert_int_eq(unpack_one(&buf, &out, PMIX_DATA_BUFFER, NULL), PMIX_SUCCESS);
    ck_assert_uint_eq(out.bytes_used, 7);
    ck_assert_ptr_eq(out.unpack_ptr, out.base_ptr);
    ck_assert_int_eq(memcmp(out.base_ptr, "3456789", 7), 0);
    bfrops_release(&out, 1, PMIX_DATA_BUFFER, NULL);
    ck_assert_ptr_null(out.base_ptr);
    buffer_free(&buf);
}
END_TEST

START_TEST(topologies_survive_pack_and_copy_and_others_are_refused)
{
    pmix_data_buffer_t buf = {0};
    drover_writer_t w = {.buf = &buf};
    pmix_topology_t copy, foreign = {"other-lib", topo_sample.topology};

    assert_round_trip(&topo_sample, PMIX_TOPO, sizeof(pmix_topology_t));
    ck_assert_int_eq(bfrops_copy(&copy, &topo_sample, 1, PMIX_TOPO, NULL), PMIX_SUCCESS);
    ck_assert_ptr_ne(copy.topology, topo_sample.topology);
    ck_assert_int_eq(hwloc_get_nbobjs_by_type(copy.topology, HWLOC_OBJ_PU),
                     hwloc_get_nbobjs_by_type(topo_sample.topology, HWLOC_OBJ_PU));
    PMIx_Topology_destruct(&copy);
    ck_assert_ptr_null(copy.topology);
    ck_assert_ptr_null(copy.source);

    ck_assert_int_eq(drover_pack(&w, &foreign, 1, PMIX_TOPO), PMIX_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(bfrops_compare(&foreign, &topo_sample, 1, PMIX_TOPO),
                     PMIX_VALUE_INCOMPATIBLE_OBJECTS);
    buffer_free(&buf);
}
END_TEST

/* min_wire must not exceed what the smallest element packs to, or valid
 * arrays would be refused; a zeroed element is the smallest here. */
static void check_min_wire(const drover_datatype_t *t, void *arg)
{
    pmix_data_buffer_t buf = {0};
    void *zero;

    if (t->id >= DROVER_DATATYPE_USER_MIN) {
        return;
    }
    zero = calloc(1, t->size);
    pack_one(&buf, zero, t->id);
    ck_assert_msg(buf.bytes_used >= t->min_wire, "%s: min_wire %zu above %zu packed bytes",
                  t->name, t->min_wire, buf.bytes_used);
    (*(int *)arg)++;
    buffer_free(&buf);
    free(zero);
}

START_TEST(min_wire_is_at_most_the_smallest_packed_element)
{
    int checked = 0;

    bfrops_foreach(check_min_wire, &checked);
    ck_assert_int_ge(checked, 60);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("types_struct");
    TCase *tc = tcase_create("specific");
    SRunner *sr;
    int failed;

    build_samples();
    suite_add_tcase(s, type_harness_tcase("harness", samples, nsamples, TYPE_HARNESS_STRUCT));
    tcase_add_test(tc, a_value_of_every_inline_kind_round_trips);
    tcase_add_test(tc, an_array_claiming_2_31_elements_in_10_bytes_is_refused_without_allocating);
    tcase_add_test(tc, nesting_deeper_than_the_limit_is_refused);
    tcase_add_test(tc, a_value_of_an_unknown_type_is_refused_both_ways);
    tcase_add_test(tc, an_argv_with_a_null_string_inside_is_refused);
    tcase_add_test(tc, a_key_longer_than_a_pmix_key_t_is_refused);
    tcase_add_test(tc, cpuset_lists_are_parsed_strictly);
    tcase_add_test(tc, a_persistent_info_keeps_its_value_and_its_copy_owns_one);
    tcase_add_test(tc, infos_differing_in_key_value_or_flags_differ);
    tcase_add_test(tc, coordinates_of_different_views_are_incompatible);
    tcase_add_test(tc, a_value_with_no_element_packs_an_empty_one);
    tcase_add_test(tc, a_data_buffer_travels_as_its_unread_bytes);
    tcase_add_test(tc, topologies_survive_pack_and_copy_and_others_are_refused);
    tcase_add_test(tc, min_wire_is_at_most_the_smallest_packed_element);
    suite_add_tcase(s, tc);

    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    hwloc_topology_destroy(topo_sample.topology);
    hwloc_bitmap_free(cpuset_sample.bitmap);
    hwloc_bitmap_free(cpuset_full.bitmap);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
