/*
 * client_requests.c - the requests a server relays to its host or answers
 * itself: PMIx_Allocation_request, PMIx_Process_monitor, PMIx_Fabric_*,
 * PMIx_Get/Validate_credential, and the queries about process sets and
 * attribute support (with the process set events). Run by minihost as
 * "client_requests full" (a host with every function) and
 * "client_requests bare" (fallbacks of the library).
 */
#include <string.h>
#include <unistd.h>

#include "check.h"

pmix_proc_t me;
static bool full;
static volatile bool pset_defined, pset_deleted, bad_callback;

static void never(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                  pmix_release_cbfunc_t release_fn, void *release_cbdata)
{
    bad_callback = true;
}

static void never_op(pmix_status_t status, void *cbdata)
{
    bad_callback = true;
}

static void allocation(void)
{
    pmix_info_t *results, want;
    size_t nresults;
    uint64_t nodes = 1;
    pmix_status_t rc;

    PMIX_INFO_LOAD(&want, PMIX_ALLOC_NUM_NODES, &nodes, PMIX_UINT64);
    rc = PMIx_Allocation_request(PMIX_ALLOC_NEW, &want, 1, &results, &nresults);
    if (!full) {
        CHECK_RC(rc, PMIX_ERR_NOT_SUPPORTED, "allocation without a host function");
    } else {
        CHECK_RC(rc, PMIX_SUCCESS, "allocation");
        const pmix_value_t *id = find_info(results, nresults, PMIX_ALLOC_ID);
        CHECK(NULL != id && PMIX_STRING == id->type && 0 == strcmp(id->data.string,
                                                                   "minihost-alloc-1"),
              "allocation id");
        PMIX_INFO_FREE(results, nresults);
        rc = PMIx_Allocation_request(PMIX_ALLOC_EXTEND, &want, 1, &results, &nresults);
        CHECK_RC(rc, PMIX_ERR_NOT_SUPPORTED, "extension the host refuses");
        CHECK(NULL == results && 0 == nresults, "no results on failure");
    }
    rc = PMIx_Allocation_request_nb(PMIX_ALLOC_RELEASE, &want, 1, NULL, NULL);
    CHECK_RC(rc, PMIX_SUCCESS, "allocation nobody waits for");
    rc = PMIx_Allocation_request_nb(PMIX_ALLOC_NEW, NULL, 1, never, NULL);
    CHECK_RC(rc, PMIX_ERR_BAD_PARAM, "allocation with NULL info");
    PMIX_INFO_DESTRUCT(&want);
}

static void monitoring(void)
{
    pmix_info_t mon, *results;
    size_t nresults;
    pmix_status_t rc;

    PMIX_INFO_LOAD(&mon, PMIX_MONITOR_HEARTBEAT, NULL, PMIX_BOOL);
    rc = PMIx_Process_monitor(&mon, PMIX_MONITOR_HEARTBEAT_ALERT, NULL, 0, &results, &nresults);
    if (full) {
        CHECK_RC(rc, PMIX_SUCCESS, "heartbeat monitor");
        const pmix_value_t *id = find_info(results, nresults, PMIX_MONITOR_ID);
        CHECK(NULL != id && 0 == strcmp(id->data.string, "minihost-monitor"), "monitor id");
        PMIX_INFO_FREE(results, nresults);
    } else {
        CHECK_RC(rc, PMIX_ERR_NOT_SUPPORTED, "monitor without a host function");
    }
    /* A heartbeat asks for no answer, whatever the host says. */
    PMIx_Heartbeat();
    rc = PMIx_Process_monitor(NULL, PMIX_SUCCESS, NULL, 0, &results, &nresults);
    CHECK_RC(rc, PMIX_ERR_BAD_PARAM, "monitor of nothing");
    PMIX_INFO_DESTRUCT(&mon);
}

static void fabrics(void)
{
    pmix_fabric_t fab = {.name = NULL};
    pmix_status_t rc = PMIx_Fabric_register(&fab, NULL, 0);

    if (!full) {
        CHECK_RC(rc, PMIX_ERR_NOT_SUPPORTED, "fabric without a host function");
        CHECK(NULL == fab.info && 0 == fab.ninfo, "failed registration leaves fabric alone");
    } else {
        CHECK_RC(rc, PMIX_SUCCESS, "fabric registration");
        CHECK(7 == fab.index && 2 == fab.ninfo, "fabric index %zu, %zu infos", fab.index,
              fab.ninfo);
        rc = PMIx_Fabric_update(&fab);
        CHECK_RC(rc, PMIX_SUCCESS, "fabric update");
        const pmix_value_t *n = find_info(fab.info, fab.ninfo, PMIX_FABRIC_NUM_DEVICES);
        CHECK(NULL != n && PMIX_SIZE == n->type && n->data.size >= 1, "updated fabric info");
    }
    CHECK_RC(PMIx_Fabric_deregister(&fab), PMIX_SUCCESS, "fabric deregistration");
    CHECK(NULL == fab.info && 0 == fab.ninfo, "deregistered fabric emptied");
    CHECK_RC(PMIx_Fabric_register(NULL, NULL, 0), PMIX_ERR_BAD_PARAM, "NULL fabric");
    CHECK_RC(PMIx_Fabric_register_nb(NULL, NULL, 0, never_op, NULL), PMIX_ERR_BAD_PARAM,
             "NULL fabric, non-blocking");
    CHECK_RC(PMIx_Fabric_deregister_nb(&fab, never_op, NULL), PMIX_OPERATION_SUCCEEDED,
             "deregistration is immediate");
}

/* Validate cred as the server sees it; returns the status, checks the
 * holder's uid and gid when valid. */
static pmix_status_t validate(const pmix_byte_object_t *cred, const pmix_info_t *dirs,
                              size_t ndirs)
{
    pmix_info_t *results;
    size_t nresults;
    pmix_status_t rc = PMIx_Validate_credential(cred, dirs, ndirs, &results, &nresults);
    if (PMIX_SUCCESS != rc) {
        CHECK(NULL == results && 0 == nresults, "no results for an invalid credential");
        return rc;
    }
    const pmix_value_t *type = find_info(results, nresults, PMIX_CRED_TYPE);
    CHECK(NULL != type && 0 == strcmp(type->data.string, full ? "minihost" : "native"),
          "credential type");
    if (!full) {
        const pmix_value_t *uid = find_info(results, nresults, PMIX_USERID);
        const pmix_value_t *gid = find_info(results, nresults, PMIX_GRPID);
        CHECK(NULL != uid && uid->data.uint32 == getuid(), "credential uid");
        CHECK(NULL != gid && gid->data.uint32 == getgid(), "credential gid");
    }
    PMIX_INFO_FREE(results, nresults);
    return rc;
}

static void credentials(void)
{
    pmix_byte_object_t cred, forged = {.bytes = "not a credential", .size = 16};
    pmix_info_t dir;
    pmix_value_t val, *got;
    pmix_proc_t peer;
    pmix_status_t rc;

    CHECK_RC(PMIx_Get_credential(NULL, 0, &cred), PMIX_SUCCESS, "get credential");
    CHECK(cred.size > 0 && NULL != cred.bytes, "credential has bytes");
    CHECK_RC(validate(&cred, NULL, 0), PMIX_SUCCESS, "own credential");
    CHECK_RC(validate(&forged, NULL, 0), PMIX_ERR_INVALID_CRED, "forged credential");
    if (!full) {
        /* Any change to a native credential breaks its seal. */
        cred.bytes[10] ^= 1;
        CHECK_RC(validate(&cred, NULL, 0), PMIX_ERR_INVALID_CRED, "tampered credential");
        cred.bytes[10] ^= 1;
        uint32_t other = getuid() + 1;
        PMIX_INFO_LOAD(&dir, PMIX_USERID, &other, PMIX_UINT32);
        CHECK_RC(validate(&cred, &dir, 1), PMIX_ERR_INVALID_CRED, "credential of another uid");
        PMIX_INFO_DESTRUCT(&dir);
        PMIX_INFO_LOAD(&dir, PMIX_CRED_TYPE, "munge", PMIX_STRING);
        pmix_byte_object_t none;
        CHECK_RC(PMIx_Get_credential(&dir, 1, &none), PMIX_ERR_NOT_SUPPORTED, "munge wanted");
        CHECK(NULL == none.bytes && 0 == none.size, "no credential on failure");
        PMIX_INFO_DESTRUCT(&dir);
        PMIX_INFO_LOAD(&dir, PMIX_CRED_TYPE, "munge, native", PMIX_STRING);
        CHECK_RC(PMIx_Get_credential(&dir, 1, &none), PMIX_SUCCESS, "munge or native");
        PMIX_BYTE_OBJECT_DESTRUCT(&none);
        PMIX_INFO_DESTRUCT(&dir);
    }
    /* A credential travels to another process, which has it checked. */
    PMIX_VALUE_LOAD(&val, &cred, PMIX_BYTE_OBJECT);
    CHECK_RC(PMIx_Put(PMIX_GLOBAL, "test.cred", &val), PMIX_SUCCESS, "put credential");
    PMIX_VALUE_DESTRUCT(&val);
    CHECK_RC(PMIx_Commit(), PMIX_SUCCESS, "commit");
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "fence");
    PMIX_LOAD_PROCID(&peer, me.nspace, 0 == me.rank ? 1 : 0);
    rc = PMIx_Get(&peer, "test.cred", NULL, 0, &got);
    CHECK_RC(rc, PMIX_SUCCESS, "peer's credential");
    CHECK_RC(validate(&got->data.bo, NULL, 0), PMIX_SUCCESS, "peer's credential validated");
    PMIX_VALUE_RELEASE(got);
    PMIX_BYTE_OBJECT_DESTRUCT(&cred);
    CHECK_RC(PMIx_Get_credential(NULL, 0, NULL), PMIX_ERR_BAD_PARAM, "nowhere to put it");
    CHECK_RC(PMIx_Validate_credential(NULL, NULL, 0, NULL, NULL), PMIX_ERR_BAD_PARAM,
             "validate nothing");
    CHECK_RC(PMIx_Get_credential_nb(NULL, 0, NULL, NULL), PMIX_SUCCESS,
             "credential nobody waits for");
}

/* One query of key (qualified by qual, may be NULL): its status and,
 * on success, the value (caller frees *results). */
static pmix_status_t query(const char *key, const pmix_info_t *qual, pmix_info_t **results,
                           size_t *nresults)
{
    pmix_query_t q;
    pmix_status_t rc;
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, key);
    q.qualifiers = (pmix_info_t *)qual;
    q.nqual = NULL == qual ? 0 : 1;
    rc = PMIx_Query_info(&q, 1, results, nresults);
    q.qualifiers = NULL;
    q.nqual = 0;
    PMIX_QUERY_DESTRUCT(&q);
    return rc;
}

static void check_psets(size_t expected)
{
    pmix_info_t *results, qual;
    size_t nresults;

    CHECK_RC(query(PMIX_QUERY_NUM_PSETS, NULL, &results, &nresults), PMIX_SUCCESS, "pset count");
    CHECK(1 == nresults && results[0].value.data.size == expected, "%zu psets, expected %zu",
          results[0].value.data.size, expected);
    PMIX_INFO_FREE(results, nresults);
    CHECK_RC(query(PMIX_QUERY_PSET_NAMES, NULL, &results, &nresults), PMIX_SUCCESS, "pset names");
    CHECK(NULL != strstr(results[0].value.data.string, "minihost.all"), "names %s",
          results[0].value.data.string);
    PMIX_INFO_FREE(results, nresults);
    PMIX_INFO_LOAD(&qual, PMIX_PSET_NAME, "minihost.all", PMIX_STRING);
    CHECK_RC(query(PMIX_QUERY_PSET_MEMBERSHIP, &qual, &results, &nresults), PMIX_SUCCESS,
             "pset members");
    pmix_data_array_t *members = results[0].value.data.darray;
    CHECK(PMIX_PROC == members->type && 2 == members->size, "members of minihost.all");
    PMIX_INFO_FREE(results, nresults);
    PMIX_INFO_DESTRUCT(&qual);
    PMIX_INFO_LOAD(&qual, PMIX_PSET_NAME, "no.such.set", PMIX_STRING);
    CHECK_RC(query(PMIX_QUERY_PSET_MEMBERSHIP, &qual, &results, &nresults), PMIX_ERR_NOT_FOUND,
             "members of an unknown set");
    PMIX_INFO_DESTRUCT(&qual);
}

static void pset_event(size_t id, pmix_status_t status, const pmix_proc_t *source,
                       pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    const pmix_value_t *name = find_info(info, ninfo, PMIX_PSET_NAME);
    const pmix_value_t *members = find_info(info, ninfo, PMIX_PSET_MEMBERS);
    if (NULL != name && 0 == strcmp(name->data.string, "minihost.late")) {
        if (PMIX_PROCESS_SET_DEFINE == status && NULL != members &&
            1 == members->data.darray->size &&
            0 == ((pmix_proc_t *)members->data.darray->array)[0].rank) {
            pset_defined = true;
        } else if (PMIX_PROCESS_SET_DELETE == status) {
            pset_deleted = true;
        }
    }
    cbfunc(PMIX_SUCCESS, NULL, 0, NULL, NULL, cbdata);
}

static void psets(void)
{
    pmix_status_t codes[] = {PMIX_PROCESS_SET_DEFINE, PMIX_PROCESS_SET_DELETE};
    pmix_info_t dir;

    CHECK(PMIx_Register_event_handler(codes, 2, NULL, 0, pset_event, NULL, NULL) >= 0,
          "pset handler");
    check_psets(1);
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "fence before defining");
    if (!full) {
        return; /* only the full host defines sets on request */
    }
    if (0 == me.rank) {
        PMIX_INFO_LOAD(&dir, "minihost.pset.define", "minihost.late", PMIX_STRING);
        CHECK_RC(PMIx_Job_control(NULL, 0, &dir, 1, NULL, NULL), PMIX_SUCCESS, "define a set");
        PMIX_INFO_DESTRUCT(&dir);
    }
    CHECK(wait_for(&pset_defined, 10), "PMIX_PROCESS_SET_DEFINE event");
    check_psets(2);
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "fence before deleting");
    if (0 == me.rank) {
        PMIX_INFO_LOAD(&dir, "minihost.pset.delete", "minihost.late", PMIX_STRING);
        CHECK_RC(PMIx_Job_control(NULL, 0, &dir, 1, NULL, NULL), PMIX_SUCCESS, "delete a set");
        CHECK_RC(PMIx_Job_control(NULL, 0, &dir, 1, NULL, NULL), PMIX_ERR_NOT_FOUND,
                 "delete it again");
        PMIX_INFO_DESTRUCT(&dir);
    }
    CHECK(wait_for(&pset_deleted, 10), "PMIX_PROCESS_SET_DELETE event");
    check_psets(1);
}

static void attribute_support(void)
{
    pmix_info_t *results, qual;
    size_t nresults;
    pmix_status_t rc;

    PMIX_INFO_LOAD(&qual, PMIX_HOST_ATTRIBUTES, "allocate", PMIX_STRING);
    rc = query(PMIX_QUERY_ATTRIBUTE_SUPPORT, &qual, &results, &nresults);
    PMIX_INFO_DESTRUCT(&qual);
    if (!full) {
        CHECK_RC(rc, PMIX_ERR_NOT_FOUND, "attributes of a host that registered none");
    } else {
        CHECK_RC(rc, PMIX_SUCCESS, "attribute support");
        pmix_data_array_t *fns = results[0].value.data.darray;
        CHECK(PMIX_INFO == fns->type && 1 == fns->size, "one function");
        pmix_info_t *fn = fns->array;
        CHECK(PMIX_CHECK_KEY(fn, "allocate"), "function name %s", fn->key);
        pmix_data_array_t *attrs = fn->value.data.darray;
        CHECK(PMIX_REGATTR == attrs->type && 2 == attrs->size, "two attributes");
        pmix_regattr_t *reg = attrs->array;
        CHECK(0 == strcmp(reg[0].name, "PMIX_ALLOC_NUM_NODES") &&
                  0 == strcmp(reg[0].string, PMIX_ALLOC_NUM_NODES) &&
                  PMIX_UINT64 == reg[0].type && NULL != reg[0].description,
              "first attribute described");
        CHECK(0 == strcmp(reg[1].string, PMIX_ALLOC_TIME), "second attribute");
        PMIX_INFO_FREE(results, nresults);
        PMIX_INFO_LOAD(&qual, PMIX_HOST_FUNCTIONS, NULL, PMIX_BOOL);
        CHECK_RC(query(PMIX_QUERY_ATTRIBUTE_SUPPORT, &qual, &results, &nresults), PMIX_SUCCESS,
                 "host functions");
        fn = results[0].value.data.darray->array;
        CHECK(PMIX_CHECK_KEY(fn, PMIX_HOST_FUNCTIONS) && 0 == strcmp(fn->value.data.string,
                                                                     "allocate"),
              "registered functions");
        PMIX_INFO_FREE(results, nresults);
        PMIX_INFO_DESTRUCT(&qual);
    }
}

/* Keys answered by the library and by the host together. */
static void mixed_query(void)
{
    pmix_query_t q;
    pmix_info_t *results;
    size_t nresults;
    pmix_status_t rc;

    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_NUM_PSETS);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_NAMESPACES);
    rc = PMIx_Query_info(&q, 1, &results, &nresults);
    CHECK_RC(rc, full ? PMIX_SUCCESS : PMIX_ERR_PARTIAL_SUCCESS, "mixed query");
    CHECK(NULL != find_info(results, nresults, PMIX_QUERY_NUM_PSETS), "library's answer");
    CHECK(full == (NULL != find_info(results, nresults, PMIX_QUERY_NAMESPACES)),
          "host's answer");
    PMIX_INFO_FREE(results, nresults);
    PMIX_QUERY_DESTRUCT(&q);
}

/* As in OpenPMIx, a NULL callback is a request nobody waits for: it is
 * accepted, its answer dropped (ASan checks nothing leaks). */
static void nobody_waits(void)
{
    pmix_query_t q;
    pmix_info_t data;
    char *keys[] = {"test.nobody", NULL};
    pmix_status_t rc;

    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_NUM_PSETS);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_STABLE_ABI_VERSION);
    CHECK_RC(rc, PMIX_SUCCESS, "query keys");
    CHECK_RC(PMIx_Query_info_nb(&q, 1, NULL, NULL), PMIX_SUCCESS, "query nobody waits for");
    PMIX_QUERY_DESTRUCT(&q);
    PMIX_QUERY_CONSTRUCT(&q);
    PMIX_ARGV_APPEND(rc, q.keys, PMIX_QUERY_PROVISIONAL_ABI_VERSION);
    CHECK_RC(rc, PMIX_SUCCESS, "query key");
    CHECK_RC(PMIx_Query_info_nb(&q, 1, NULL, NULL), PMIX_SUCCESS,
             "query answered here that nobody waits for");
    PMIX_QUERY_DESTRUCT(&q);
    PMIX_INFO_LOAD(&data, "test.nobody", "x", PMIX_STRING);
    CHECK_RC(PMIx_Publish_nb(&data, 1, NULL, NULL), PMIX_SUCCESS, "publish nobody waits for");
    CHECK_RC(PMIx_Lookup_nb(keys, NULL, 0, NULL, NULL), PMIX_SUCCESS, "lookup nobody waits for");
    CHECK_RC(PMIx_Unpublish_nb(keys, NULL, 0, NULL, NULL), PMIX_SUCCESS,
             "unpublish nobody waits for");
    PMIX_INFO_DESTRUCT(&data);
    PMIX_INFO_LOAD(&data, PMIX_LOG_STDOUT, "", PMIX_STRING);
    CHECK_RC(PMIx_Log_nb(&data, 1, NULL, 0, NULL, NULL), PMIX_SUCCESS, "log nobody waits for");
    PMIX_INFO_DESTRUCT(&data);
    CHECK_RC(PMIx_Get_nb(&me, PMIX_JOB_SIZE, NULL, 0, NULL, NULL), PMIX_ERR_BAD_PARAM,
             "a get needs its callback");
    /* The answers arrive before this fence's. */
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "fence after them");
}

int main(int argc, char **argv)
{
    full = argc > 1 && 0 == strcmp(argv[1], "full");
    CHECK_RC(PMIx_Init(&me, NULL, 0), PMIX_SUCCESS, "init");
    allocation();
    monitoring();
    fabrics();
    credentials();
    psets();
    attribute_support();
    mixed_query();
    nobody_waits();
    CHECK(!bad_callback, "a callback ran for a call that failed");
    CHECK_RC(PMIx_Fence(NULL, 0, NULL, 0), PMIX_SUCCESS, "last fence");
    CHECK_RC(PMIx_Finalize(NULL, 0), PMIX_SUCCESS, "finalize");
    CHECK_RC(PMIx_Allocation_request(PMIX_ALLOC_NEW, NULL, 0, NULL, NULL), PMIX_ERR_INIT,
             "after finalize");
    printf("%s:%u: requests ok (%s host)\n", me.nspace, me.rank, full ? "full" : "bare");
    return 0;
}
