/*
 * dropin_struct.c - structured PMIx types through PMIx_Data_pack and unpack.
 *
 * Each check builds its input the way a PMIx program does, with the macros
 * of OpenPMIx's own headers (PMIX_INFO_CREATE, PMIX_INFO_LOAD,
 * PMIX_DATA_ARRAY_CREATE, PMIX_APP_CREATE, PMIX_ARGV_APPEND, ...), packs
 * it, unpacks it into zeroed storage and compares every field by hand
 * rather than with the library's own compare function, then releases the
 * result with the matching destruct macro. Those macros free with the C
 * heap, so the checks also prove that what the library hands out can be
 * released the way OpenPMIx programs release it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmix.h>

#include "dropin.h"

static bool same_string(const char *a, const char *b)
{
    return NULL != a && NULL != b && 0 == strcmp(a, b);
}

static bool same_proc(const pmix_proc_t *p, const char *nspace, pmix_rank_t rank)
{
    return 0 == strncmp(p->nspace, nspace, PMIX_MAX_NSLEN) && rank == p->rank;
}

static void check_procs(void)
{
    pmix_proc_t in[2], out[2];
    bool ok;

    PMIX_LOAD_PROCID(&in[0], "ns-alpha", 3);
    PMIX_LOAD_PROCID(&in[1], "ns-beta", PMIX_RANK_WILDCARD);
    memset(out, 0, sizeof(out));
    ok = dropin_roundtrip("procs", in, out, 2, PMIX_PROC);
    ok = ok && same_proc(&out[0], "ns-alpha", 3) && same_proc(&out[1], "ns-beta",
                                                              PMIX_RANK_WILDCARD);
    dropin_check(ok, "PMIX_PROC {ns-alpha, 3}, {ns-beta, WILDCARD} round-trip");
}

static void check_nspaces(void)
{
    pmix_nspace_t in[2], out[2];
    bool ok;

    PMIX_LOAD_NSPACE(in[0], "ns-one");
    PMIX_LOAD_NSPACE(in[1], "ns-two-with-a-longer-name");
    memset(out, 0, sizeof(out));
    ok = dropin_roundtrip("nspaces", in, out, 2, PMIX_PROC_NSPACE);
    ok = ok && 0 == strcmp(out[0], "ns-one") && 0 == strcmp(out[1], "ns-two-with-a-longer-name");
    dropin_check(ok, "PMIX_PROC_NSPACE \"ns-one\", \"ns-two-with-a-longer-name\" round-trip");
}

static void check_infos(void)
{
    pmix_info_t *in, out[3];
    int32_t answer = 42;
    bool ok;
    size_t i;

    PMIX_INFO_CREATE(in, 3);
    PMIX_INFO_LOAD(&in[0], "drover.test.int", &answer, PMIX_INT32);
    PMIX_INFO_LOAD(&in[1], "drover.test.str", "value", PMIX_STRING);
    PMIX_INFO_LOAD(&in[2], "drover.test.flag", NULL, PMIX_BOOL);
    PMIX_INFO_REQUIRED(&in[2]);
    memset(out, 0, sizeof(out));
    ok = dropin_roundtrip("infos", in, out, 3, PMIX_INFO);
    ok = ok && PMIX_CHECK_KEY(&out[0], "drover.test.int") && PMIX_INT32 == out[0].value.type &&
         42 == out[0].value.data.int32;
    ok = ok && PMIX_CHECK_KEY(&out[1], "drover.test.str") && PMIX_STRING == out[1].value.type &&
         same_string(out[1].value.data.string, "value");
    ok = ok && PMIX_CHECK_KEY(&out[2], "drover.test.flag") && PMIX_BOOL == out[2].value.type &&
         out[2].value.data.flag && PMIX_INFO_IS_REQUIRED(&out[2]) &&
         !PMIX_INFO_IS_REQUIRED(&out[0]);
    dropin_check(ok, "PMIX_INFO int32 42, string \"value\", required bool true round-trip "
                     "with keys and flags");
    for (i = 0; i < 3; i++) {
        PMIX_INFO_DESTRUCT(&out[i]);
    }
    PMIX_INFO_FREE(in, 3);
}

static void check_values(void)
{
    pmix_value_t in[3], out[3];
    pmix_proc_t proc;
    bool ok;
    size_t i;

    PMIX_LOAD_PROCID(&proc, "ns-value", 5);
    PMIX_VALUE_CONSTRUCT(&in[0]);
    in[0].type = PMIX_UINT64;
    in[0].data.uint64 = 77;
    PMIX_VALUE_CONSTRUCT(&in[1]);
    in[1].type = PMIX_STRING;
    in[1].data.string = "v";
    PMIX_VALUE_CONSTRUCT(&in[2]);
    in[2].type = PMIX_PROC;
    in[2].data.proc = &proc;
    memset(out, 0, sizeof(out));
    ok = dropin_roundtrip("values", in, out, 3, PMIX_VALUE);
    ok = ok && PMIX_UINT64 == out[0].type && 77 == out[0].data.uint64;
    ok = ok && PMIX_STRING == out[1].type && same_string(out[1].data.string, "v");
    ok = ok && PMIX_PROC == out[2].type && NULL != out[2].data.proc &&
         out[2].data.proc != &proc && same_proc(out[2].data.proc, "ns-value", 5);
    dropin_check(ok, "PMIX_VALUE uint64 77, string \"v\", proc {ns-value, 5} round-trip");
    for (i = 0; i < 3; i++) {
        PMIX_VALUE_DESTRUCT(&out[i]);
    }
}

static void check_info_darray(void)
{
    pmix_data_array_t *in, out;
    pmix_info_t *info;
    uint32_t seven = 7;
    bool ok;

    PMIX_DATA_ARRAY_CREATE(in, 2, PMIX_INFO);
    info = in->array;
    PMIX_INFO_LOAD(&info[0], "drover.k1", &seven, PMIX_UINT32);
    PMIX_INFO_LOAD(&info[1], "drover.k2", "two", PMIX_STRING);
    memset(&out, 0, sizeof(out));
    ok = dropin_roundtrip("data array of infos", in, &out, 1, PMIX_DATA_ARRAY);
    info = out.array;
    ok = ok && PMIX_INFO == out.type && 2 == out.size && NULL != info;
    ok = ok && PMIX_CHECK_KEY(&info[0], "drover.k1") && PMIX_UINT32 == info[0].value.type &&
         7 == info[0].value.data.uint32;
    ok = ok && PMIX_CHECK_KEY(&info[1], "drover.k2") && PMIX_STRING == info[1].value.type &&
         same_string(info[1].value.data.string, "two");
    dropin_check(ok, "PMIX_DATA_ARRAY of 2 PMIX_INFO {k1: uint32 7, k2: \"two\"} round-trips");
    PMIx_Data_array_destruct(&out);
    PMIX_DATA_ARRAY_FREE(in);
}

static void check_int_darray(void)
{
    static const int32_t values[] = {-1, 0, 1, INT32_MAX, INT32_MIN};
    pmix_data_array_t *in, out;
    bool ok;

    PMIX_DATA_ARRAY_CREATE(in, 5, PMIX_INT32);
    memcpy(in->array, values, sizeof(values));
    memset(&out, 0, sizeof(out));
    ok = dropin_roundtrip("data array of int32", in, &out, 1, PMIX_DATA_ARRAY);
    ok = ok && PMIX_INT32 == out.type && 5 == out.size && NULL != out.array &&
         0 == memcmp(out.array, values, sizeof(values));
    dropin_check(ok, "PMIX_DATA_ARRAY of PMIX_INT32 {-1, 0, 1, INT32_MAX, INT32_MIN} round-trips");
    PMIx_Data_array_destruct(&out);
    PMIX_DATA_ARRAY_FREE(in);
}

/* The shape of a query result: an info whose value is an array of procs. */
static void check_nested_darray(void)
{
    pmix_data_array_t *procs;
    pmix_info_t in, out;
    pmix_proc_t *p;
    bool ok;

    PMIX_DATA_ARRAY_CREATE(procs, 2, PMIX_PROC);
    p = procs->array;
    PMIX_LOAD_PROCID(&p[0], "ns-member", 0);
    PMIX_LOAD_PROCID(&p[1], "ns-member", 1);
    PMIX_INFO_LOAD(&in, PMIX_QUERY_PSET_MEMBERSHIP, procs, PMIX_DATA_ARRAY);
    memset(&out, 0, sizeof(out));
    ok = dropin_roundtrip("info holding a data array", &in, &out, 1, PMIX_INFO);
    ok = ok && PMIX_CHECK_KEY(&out, PMIX_QUERY_PSET_MEMBERSHIP) &&
         PMIX_DATA_ARRAY == out.value.type && NULL != out.value.data.darray &&
         PMIX_PROC == out.value.data.darray->type && 2 == out.value.data.darray->size;
    p = ok ? out.value.data.darray->array : NULL;
    ok = ok && same_proc(&p[0], "ns-member", 0) && same_proc(&p[1], "ns-member", 1);
    dropin_check(ok, "PMIX_INFO holding a PMIX_DATA_ARRAY of 2 procs round-trips");
    PMIX_INFO_DESTRUCT(&out);
    PMIX_INFO_DESTRUCT(&in);
    PMIX_DATA_ARRAY_FREE(procs);
}

static void check_pdata(void)
{
    pmix_pdata_t in, out;
    pmix_proc_t proc;
    bool ok;

    PMIX_LOAD_PROCID(&proc, "ns-publisher", 2);
    PMIX_PDATA_LOAD(&in, &proc, "drover.pub", "published", PMIX_STRING);
    memset(&out, 0, sizeof(out));
    ok = dropin_roundtrip("pdata", &in, &out, 1, PMIX_PDATA);
    ok = ok && same_proc(&out.proc, "ns-publisher", 2) && PMIX_CHECK_KEY(&out, "drover.pub") &&
         PMIX_STRING == out.value.type && same_string(out.value.data.string, "published");
    dropin_check(ok, "PMIX_PDATA {ns-publisher:2, drover.pub, \"published\"} round-trips");
    PMIX_PDATA_DESTRUCT(&out);
    PMIX_PDATA_DESTRUCT(&in);
}

static void check_apps(void)
{
    pmix_app_t *in, out;
    pmix_status_t rc;
    bool ok;

    PMIX_APP_CREATE(in, 1);
    in->cmd = strdup("/bin/true");
    PMIX_ARGV_APPEND(rc, in->argv, "true");
    PMIX_ARGV_APPEND(rc, in->argv, "--flag");
    PMIX_ARGV_APPEND(rc, in->env, "DROVER_A=1");
    (void)rc;
    in->cwd = strdup("/tmp");
    in->maxprocs = 4;
    PMIX_APP_INFO_CREATE(in, 1);
    PMIX_INFO_LOAD(&in->info[0], "drover.app.flag", NULL, PMIX_BOOL);
    memset(&out, 0, sizeof(out));
    ok = dropin_roundtrip("app", in, &out, 1, PMIX_APP);
    ok = ok && same_string(out.cmd, "/bin/true") && NULL != out.argv &&
         same_string(out.argv[0], "true") && same_string(out.argv[1], "--flag") &&
         NULL == out.argv[2] && NULL != out.env && same_string(out.env[0], "DROVER_A=1") &&
         NULL == out.env[1] && same_string(out.cwd, "/tmp") && 4 == out.maxprocs &&
         1 == out.ninfo && NULL != out.info && PMIX_CHECK_KEY(&out.info[0], "drover.app.flag") &&
         PMIX_BOOL == out.info[0].value.type && out.info[0].value.data.flag;
    dropin_check(ok, "PMIX_APP {/bin/true, argv, env, cwd, maxprocs 4, 1 info} round-trips");
    PMIX_APP_DESTRUCT(&out);
    PMIX_APP_FREE(in, 1);
}

static void check_queries(void)
{
    pmix_query_t *in, out;
    pmix_status_t rc;
    bool ok;

    PMIX_QUERY_CREATE(in, 1);
    PMIX_ARGV_APPEND(rc, in->keys, PMIX_QUERY_NAMESPACES);
    PMIX_ARGV_APPEND(rc, in->keys, PMIX_QUERY_JOB_STATUS);
    (void)rc;
    PMIX_QUERY_QUALIFIERS_CREATE(in, 1);
    PMIX_INFO_LOAD(&in->qualifiers[0], PMIX_NSPACE, "ns-queried", PMIX_STRING);
    memset(&out, 0, sizeof(out));
    ok = dropin_roundtrip("query", in, &out, 1, PMIX_QUERY);
    ok = ok && NULL != out.keys && same_string(out.keys[0], PMIX_QUERY_NAMESPACES) &&
         same_string(out.keys[1], PMIX_QUERY_JOB_STATUS) && NULL == out.keys[2] &&
         1 == out.nqual && NULL != out.qualifiers &&
         PMIX_CHECK_KEY(&out.qualifiers[0], PMIX_NSPACE) &&
         PMIX_STRING == out.qualifiers[0].value.type &&
         same_string(out.qualifiers[0].value.data.string, "ns-queried");
    dropin_check(ok, "PMIX_QUERY {2 keys, 1 qualifier} round-trips");
    PMIX_QUERY_DESTRUCT(&out);
    PMIX_QUERY_FREE(in, 1);
}

static void check_envars(void)
{
    pmix_envar_t in, out;
    bool ok;

    PMIX_ENVAR_CONSTRUCT(&in);
    PMIX_ENVAR_LOAD(&in, "PATH", "/usr/local/bin", ':');
    memset(&out, 0, sizeof(out));
    ok = dropin_roundtrip("envar", &in, &out, 1, PMIX_ENVAR);
    ok = ok && same_string(out.envar, "PATH") && same_string(out.value, "/usr/local/bin") &&
         ':' == out.separator;
    dropin_check(ok, "PMIX_ENVAR {PATH, /usr/local/bin, ':'} round-trips");
    PMIX_ENVAR_DESTRUCT(&out);
    PMIX_ENVAR_DESTRUCT(&in);
}

static void check_coords(void)
{
    uint32_t axes[] = {3, 1, 4};
    pmix_coord_t in, out;
    bool ok;

    in.view = PMIX_COORD_LOGICAL_VIEW;
    in.coord = axes;
    in.dims = 3;
    memset(&out, 0, sizeof(out));
    ok = dropin_roundtrip("coord", &in, &out, 1, PMIX_COORD);
    ok = ok && PMIX_COORD_LOGICAL_VIEW == out.view && 3 == out.dims && NULL != out.coord &&
         0 == memcmp(out.coord, axes, sizeof(axes));
    dropin_check(ok, "PMIX_COORD {logical, (3, 1, 4)} round-trips");
    PMIX_COORD_DESTRUCT(&out);
}

static void check_regattrs(void)
{
    pmix_regattr_t in, out;
    pmix_status_t rc;
    bool ok;

    /* Built field by field: OpenPMIx 4.2.2's PMIX_REGATTR_LOAD does not
     * compile (it takes the address of an address). */
    PMIX_REGATTR_CONSTRUCT(&in);
    in.name = strdup("PMIX_JOB_SIZE");
    PMIX_LOAD_KEY(in.string, PMIX_JOB_SIZE);
    in.type = PMIX_UINT32;
    PMIX_ARGV_APPEND(rc, in.description, "processes in the job");
    (void)rc;
    memset(&out, 0, sizeof(out));
    ok = dropin_roundtrip("regattr", &in, &out, 1, PMIX_REGATTR);
    ok = ok && same_string(out.name, "PMIX_JOB_SIZE") &&
         0 == strcmp(out.string, PMIX_JOB_SIZE) && PMIX_UINT32 == out.type &&
         NULL != out.description && same_string(out.description[0], "processes in the job") &&
         NULL == out.description[1];
    /* OpenPMIx mangles the type field as it does every PMIX_DATA_TYPE. */
    dropin_check_defect(ok, "PMIX_REGATTR {PMIX_JOB_SIZE, pmix.job.size, uint32, 1 line} "
                            "round-trips");
    PMIX_REGATTR_DESTRUCT(&out);
    PMIX_REGATTR_DESTRUCT(&in);
}

static void check_proc_infos(void)
{
    pmix_proc_info_t in, out;
    bool ok;

    memset(&in, 0, sizeof(in));
    PMIX_LOAD_PROCID(&in.proc, "ns-info", 9);
    in.hostname = "node01";
    in.executable_name = "/bin/sleep";
    in.pid = 4242;
    in.exit_code = -3;
    in.state = PMIX_PROC_STATE_RUNNING;
    memset(&out, 0, sizeof(out));
    ok = dropin_roundtrip("proc info", &in, &out, 1, PMIX_PROC_INFO);
    ok = ok && same_proc(&out.proc, "ns-info", 9) && same_string(out.hostname, "node01") &&
         same_string(out.executable_name, "/bin/sleep") && 4242 == out.pid &&
         -3 == out.exit_code && PMIX_PROC_STATE_RUNNING == out.state;
    /* OpenPMIx never packs exit_code; it comes back as 0. */
    dropin_check_defect(ok, "PMIX_PROC_INFO {ns-info:9, node01, /bin/sleep, 4242, -3, RUNNING} "
                            "round-trips");
    PMIX_PROC_INFO_DESTRUCT(&out);
}

/* A packed buffer carried inside another one. */
static void check_data_buffers(void)
{
    pmix_data_buffer_t *inner, out;
    int32_t value = 0x5eed, got = 0, n = 1;
    bool ok;

    inner = dropin_packed(&value, 1, PMIX_INT32);
    memset(&out, 0, sizeof(out));
    ok = NULL != inner && dropin_roundtrip("data buffer", inner, &out, 1, PMIX_DATA_BUFFER);
    ok = ok && PMIX_SUCCESS == PMIx_Data_unpack(NULL, &out, &got, &n, PMIX_INT32) &&
         0x5eed == got;
    /* OpenPMIx restores base_ptr and bytes_used but leaves pack_ptr and
     * unpack_ptr NULL, so the inner buffer cannot be read. */
    dropin_check_defect(ok, "PMIX_DATA_BUFFER holding a packed int32 round-trips and still "
                            "unpacks");
    PMIX_DATA_BUFFER_DESTRUCT(&out);
    if (NULL != inner) {
        PMIX_DATA_BUFFER_RELEASE(inner);
    }
}

void dropin_struct_checks(void)
{
    check_procs();
    check_nspaces();
    check_infos();
    check_values();
    check_info_darray();
    check_int_darray();
    check_nested_darray();
    check_pdata();
    check_apps();
    check_queries();
    check_envars();
    check_coords();
    check_regattrs();
    check_proc_infos();
    check_data_buffers();
}
