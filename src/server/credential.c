/*
 * credential.c - PMIx_Get_credential and PMIx_Validate_credential on the
 * server: GET_CREDENTIAL and VALIDATE_CREDENTIAL from clients and tools,
 * and the same calls made by the host process itself.
 *
 * Design notes:
 *  - A host with a security service provides get_credential and
 *    validate_credential and the requests are relayed to it. Without one
 *    the library issues "native" credentials itself: a statement of who
 *    asked (uid, gid and pid as the kernel reported them for the
 *    connection, not as the client claims), when, and a random nonce,
 *    sealed with an HMAC-SHA256 under a key drawn at random when the first
 *    is issued and forgotten when the server finalizes. Only this server
 *    can check one, and it can check it for anyone: a process hands its
 *    credential to another, which asks its (the same) server to validate
 *    it.
 *  - libcrypto, which computes the HMAC, is opened at the first native
 *    credential rather than linked: mapping and relocating it cost every
 *    process that loads libpmix.so.2 (each rank, the launcher) about a
 *    millisecond at start, for a service few jobs use.
 *  - A credential in the native format is always checked here, whoever
 *    issued the others; anything else goes to the host's
 *    validate_credential, or is invalid when the host has none.
 *  - A native credential is valid for CREDENTIAL_LIFETIME seconds after it
 *    was issued. PMIX_USERID and PMIX_GRPID among the validation
 *    directives must match what the credential states.
 *
 * Native format: the bytes of a native_body_t, then 32 bytes of
 * HMAC-SHA256 over them. Only the server that issued a credential can
 * check it, so the layout is this process's own and never crosses
 * machines.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "pmix.h"
#include "server.h"
#include "server_entry.h"

#define NATIVE "native"
#define CREDENTIAL_LIFETIME 3600
#define CLOCK_SKEW 60
#define KEY_SIZE 32
#define MAC_SIZE 32

typedef struct native_body {
    char magic[4];               /* "DRVC" */
    uint32_t version;            /* 1 */
    uint32_t uid;
    uint32_t gid;
    int64_t pid;
    int64_t issued;              /* time(), seconds */
    uint8_t nonce[16];
} native_body_t;

#define CRED_SIZE (sizeof(native_body_t) + MAC_SIZE)

/* The sealing key: drawn at the first credential, forgotten at finalize.
 * Touched in the progress thread only. */
static uint8_t key[KEY_SIZE];
static bool have_key;

static pmix_status_t fill_random(void *where, size_t n)
{
    uint8_t *p = where;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            return PMIX_ERR_OUT_OF_RESOURCE;
        }
        p += got;
        n -= (size_t)got;
    }
    return PMIX_SUCCESS;
}

/* The two libcrypto functions sealing needs, found at the first use.
 * The library stays loaded for the life of the process. */
static struct {
    __typeof__(HMAC) *hmac;
    __typeof__(EVP_sha256) *sha256;
} crypto;
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;

static void open_crypto(void)
{
    void *lib = dlopen(CRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (NULL != lib) {
        crypto.hmac = (__typeof__(HMAC) *)dlsym(lib, "HMAC");
        crypto.sha256 = (__typeof__(EVP_sha256) *)dlsym(lib, "EVP_sha256");
    }
}

static pmix_status_t seal(const native_body_t *body, uint8_t mac[MAC_SIZE])
{
    unsigned int len = MAC_SIZE;

    pthread_once(&crypto_once, open_crypto);
    if (NULL == crypto.hmac || NULL == crypto.sha256) {
        return PMIX_ERR_NOT_AVAILABLE;
    }
    return NULL == crypto.hmac(crypto.sha256(), key, KEY_SIZE, (const uint8_t *)body,
                               sizeof(*body), mac, &len) ||
                   MAC_SIZE != len
               ? PMIX_ERROR
               : PMIX_SUCCESS;
}

/* Compares in time independent of where the bytes differ, so a forger
 * learns nothing from how fast a guess is refused. */
static bool same_mac(const uint8_t *a, const uint8_t *b)
{
    uint8_t diff = 0;
    for (size_t i = 0; i < MAC_SIZE; i++) {
        diff |= a[i] ^ b[i];
    }
    return 0 == diff;
}

/* A native credential for uid/gid/pid, in a new byte object. */
static pmix_status_t issue(uid_t uid, gid_t gid, pid_t pid, pmix_byte_object_t *cred)
{
    native_body_t body;
    uint8_t *p;
    pmix_status_t rc;

    if (!have_key) {
        if (PMIX_SUCCESS != (rc = fill_random(key, sizeof(key)))) {
            return rc;
        }
        have_key = true;
    }
    memset(&body, 0, sizeof(body)); /* no stray bytes in the padding */
    memcpy(body.magic, "DRVC", 4);
    body.version = 1;
    body.uid = uid;
    body.gid = gid;
    body.pid = pid;
    body.issued = (int64_t)time(NULL);
    if (NULL == (p = malloc(CRED_SIZE))) {
        return PMIX_ERR_NOMEM;
    }
    memcpy(p, &body, sizeof(body));
    if (PMIX_SUCCESS != (rc = fill_random(p + offsetof(native_body_t, nonce),
                                          sizeof(body.nonce))) ||
        PMIX_SUCCESS != (rc = seal((const native_body_t *)p, p + sizeof(body)))) {
        free(p);
        return rc;
    }
    cred->bytes = (char *)p;
    cred->size = CRED_SIZE;
    return PMIX_SUCCESS;
}

static bool is_native(const pmix_byte_object_t *cred)
{
    return NULL != cred->bytes && CRED_SIZE == cred->size && 0 == memcmp(cred->bytes, "DRVC", 4);
}

/* The value of a uint32 directive (PMIX_USERID, PMIX_GRPID), if given. */
static bool wanted_id(const pmix_info_t *dirs, size_t ndirs, const char *key_name, uint32_t *id)
{
    for (size_t i = 0; i < ndirs; i++) {
        if (PMIX_CHECK_KEY(&dirs[i], key_name) && PMIX_UINT32 == dirs[i].value.type) {
            *id = dirs[i].value.data.uint32;
            return true;
        }
    }
    return false;
}

/* Check a native credential; on success *info (PMIX_INFO_FREE, 3) says
 * whose it is. */
static pmix_status_t check(const pmix_byte_object_t *cred, const pmix_info_t *dirs, size_t ndirs,
                           pmix_info_t **info, size_t *ninfo)
{
    native_body_t body;
    uint8_t mac[MAC_SIZE];
    uint32_t want;
    int64_t now = (int64_t)time(NULL);

    *info = NULL;
    *ninfo = 0;
    memcpy(&body, cred->bytes, sizeof(body));
    if (!have_key || 1 != body.version || PMIX_SUCCESS != seal(&body, mac) ||
        !same_mac(mac, (const uint8_t *)cred->bytes + sizeof(body))) {
        return PMIX_ERR_INVALID_CRED;
    }
    if (body.issued > now + CLOCK_SKEW || now - body.issued > CREDENTIAL_LIFETIME ||
        (wanted_id(dirs, ndirs, PMIX_USERID, &want) && want != body.uid) ||
        (wanted_id(dirs, ndirs, PMIX_GRPID, &want) && want != body.gid)) {
        return PMIX_ERR_INVALID_CRED;
    }
    PMIX_INFO_CREATE(*info, 3);
    if (NULL == *info) {
        return PMIX_ERR_NOMEM;
    }
    *ninfo = 3;
    PMIx_Info_load(&(*info)[0], PMIX_CRED_TYPE, NATIVE, PMIX_STRING);
    PMIx_Info_load(&(*info)[1], PMIX_USERID, &body.uid, PMIX_UINT32);
    PMIx_Info_load(&(*info)[2], PMIX_GRPID, &body.gid, PMIX_UINT32);
    return PMIX_SUCCESS;
}

/* Whether PMIX_CRED_TYPE, if given, lets a native credential do. */
static bool native_acceptable(const pmix_info_t *dirs, size_t ndirs)
{
    for (size_t i = 0; i < ndirs; i++) {
        if (!PMIX_CHECK_KEY(&dirs[i], PMIX_CRED_TYPE)) {
            continue;
        }
        if (PMIX_STRING != dirs[i].value.type || NULL == dirs[i].value.data.string) {
            return false;
        }
        const char *p = dirs[i].value.data.string;
        size_t len = strlen(NATIVE);
        while (NULL != p) {
            p += strspn(p, " ");
            if (0 == strncmp(p, NATIVE, len) && strchr(", ", p[len]) != NULL) {
                return true;
            }
            p = strchr(p, ',');
            p = NULL == p ? NULL : p + 1;
        }
        return false;
    }
    return true;
}

/* ---- Requests from clients and tools ------------------------------------ */

static pmix_status_t pack_credential(pmix_data_buffer_t *body, const pmix_byte_object_t *cred,
                                     const pmix_info_t *info, size_t ninfo)
{
    pmix_byte_object_t none = {.bytes = NULL, .size = 0};
    pmix_status_t rc = PMIx_Data_pack(NULL, body, (void *)(NULL == cred ? &none : cred), 1,
                                      PMIX_BYTE_OBJECT);
    return PMIX_SUCCESS != rc ? rc
                              : PMIx_Data_pack(NULL, body, (void *)info, (int32_t)ninfo, PMIX_INFO);
}

/* The host's pmix_credential_cbfunc_t (any thread). */
static void host_issued(pmix_status_t status, pmix_byte_object_t *cred, pmix_info_t info[],
                        size_t ninfo, void *cbdata)
{
    relay_t *r = cbdata;
    if (PMIX_SUCCESS == status) {
        status = pack_credential(&r->body, cred, info, ninfo);
    }
    relay_answered(r, status);
}

/* GET_CREDENTIAL: PMIX_INFO[] directives; reply PMIX_BYTE_OBJECT
 * credential, PMIX_INFO[] about it. */
void credential_get_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_GET_CREDENTIAL);
    pmix_info_t *dirs, about;
    pmix_byte_object_t cred;
    size_t ndirs;
    pmix_status_t rc;

    if (NULL == r || !relay_unpack(r, payload, PMIX_INFO, (void **)&dirs, &ndirs)) {
        return;
    }
    if (NULL != server.host.get_credential) {
        relay_called(r, server.host.get_credential(&peer->proc, dirs, ndirs, host_issued, r));
        return;
    }
    if (!native_acceptable(dirs, ndirs)) {
        relay_finish(r, PMIX_ERR_NOT_SUPPORTED);
        return;
    }
    rc = issue(peer->uid, peer->gid, peer->pid, &cred);
    if (PMIX_SUCCESS == rc) {
        PMIX_INFO_LOAD(&about, PMIX_CRED_TYPE, NATIVE, PMIX_STRING);
        rc = pack_credential(&r->body, &cred, &about, 1);
        PMIX_INFO_DESTRUCT(&about);
        PMIX_BYTE_OBJECT_DESTRUCT(&cred);
    }
    relay_finish(r, rc);
}

/* The host's pmix_validation_cbfunc_t (any thread). */
static void host_validated(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata)
{
    relay_info_answered(status, info, ninfo, cbdata, NULL, NULL);
}

/* VALIDATE_CREDENTIAL: PMIX_BYTE_OBJECT credential, PMIX_INFO[]
 * directives; reply PMIX_INFO[] about the credential's holder. */
void credential_validate_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_VALIDATE_CREDENTIAL);
    pmix_byte_object_t *cred;
    pmix_info_t *dirs, *info;
    size_t ncred, ndirs, ninfo;
    pmix_status_t rc;

    if (NULL == r || !relay_unpack(r, payload, PMIX_BYTE_OBJECT, (void **)&cred, &ncred) ||
        !relay_unpack(r, payload, PMIX_INFO, (void **)&dirs, &ndirs)) {
        return;
    }
    if (1 != ncred) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    if (!is_native(cred)) {
        rc = PMIX_ERR_INVALID_CRED;
        if (NULL != server.host.validate_credential) {
            rc = server.host.validate_credential(&peer->proc, cred, dirs, ndirs, host_validated,
                                                 r);
        }
        relay_called(r, rc);
        return;
    }
    rc = check(cred, dirs, ndirs, &info, &ninfo);
    if (PMIX_SUCCESS == rc) {
        rc = PMIx_Data_pack(NULL, &r->body, info, (int32_t)ninfo, PMIX_INFO);
    }
    PMIX_INFO_FREE(info, ninfo);
    relay_finish(r, rc);
}

void credential_clear(void)
{
    explicit_bzero(key, sizeof(key));
    have_key = false;
}

/* ---- The host process's own calls ---------------------------------------- */

typedef struct own_op {
    const pmix_byte_object_t *cred; /* validate: the caller's, as dirs */
    pmix_info_t *dirs;           /* the caller's, borrowed until the callback */
    size_t ndirs;
    pmix_credential_cbfunc_t issued;
    pmix_validation_cbfunc_t validated;
    void *cbdata;
} own_op_t;

static void own_issued(pmix_status_t status, pmix_byte_object_t *cred, pmix_info_t info[],
                       size_t ninfo, void *cbdata)
{
    own_op_t *op = cbdata;
    op->issued(status, cred, info, ninfo, op->cbdata);
    free(op);
}

static void own_validated(pmix_status_t status, pmix_info_t info[], size_t ninfo, void *cbdata)
{
    own_op_t *op = cbdata;
    op->validated(status, info, ninfo, op->cbdata);
    free(op);
}

static void own_get(void *arg)
{
    own_op_t *op = arg;
    pmix_byte_object_t cred = {.bytes = NULL, .size = 0};
    pmix_info_t about;
    pmix_status_t rc;

    if (NULL != server.host.get_credential) {
        rc = server.host.get_credential(&server.me, op->dirs, op->ndirs, own_issued, op);
        if (PMIX_SUCCESS != rc) {
            own_issued(PMIX_OPERATION_SUCCEEDED == rc ? PMIX_ERROR : rc, NULL, NULL, 0, op);
        }
        return;
    }
    rc = native_acceptable(op->dirs, op->ndirs) ? issue(getuid(), getgid(), getpid(), &cred)
                                                : PMIX_ERR_NOT_SUPPORTED;
    PMIX_INFO_LOAD(&about, PMIX_CRED_TYPE, NATIVE, PMIX_STRING);
    own_issued(rc, PMIX_SUCCESS == rc ? &cred : NULL, PMIX_SUCCESS == rc ? &about : NULL,
               PMIX_SUCCESS == rc ? 1 : 0, op);
    PMIX_INFO_DESTRUCT(&about);
    PMIX_BYTE_OBJECT_DESTRUCT(&cred);
}

static void own_validate(void *arg)
{
    own_op_t *op = arg;
    pmix_info_t *info = NULL;
    size_t ninfo = 0;
    pmix_status_t rc;

    if (!is_native(op->cred)) {
        rc = PMIX_ERR_INVALID_CRED;
        if (NULL != server.host.validate_credential) {
            rc = server.host.validate_credential(&server.me, op->cred, op->dirs, op->ndirs,
                                                 own_validated, op);
            if (PMIX_SUCCESS == rc) {
                return;
            }
        }
        own_validated(PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc, NULL, 0, op);
        return;
    }
    rc = check(op->cred, op->dirs, op->ndirs, &info, &ninfo);
    own_validated(rc, info, ninfo, op);
    PMIX_INFO_FREE(info, ninfo);
}

/* Run fn with a copy of op in the progress thread. */
static pmix_status_t post_own(own_op_t op, void (*fn)(void *arg))
{
    own_op_t *copy = malloc(sizeof(*copy));
    pmix_status_t rc;

    if (NULL == copy) {
        return PMIX_ERR_NOMEM;
    }
    *copy = op;
    if (PMIX_SUCCESS != (rc = server_post(fn, copy))) {
        free(copy);
    }
    return rc;
}

pmix_status_t server_entry_get_credential(const pmix_info_t *info, size_t ninfo,
                                          pmix_credential_cbfunc_t cbfunc, void *cbdata)
{
    return post_own((own_op_t){.dirs = (pmix_info_t *)info, .ndirs = ninfo, .issued = cbfunc,
                               .cbdata = cbdata},
                    own_get);
}

pmix_status_t server_entry_validate_credential(const pmix_byte_object_t *cred,
                                               const pmix_info_t *info, size_t ninfo,
                                               pmix_validation_cbfunc_t cbfunc, void *cbdata)
{
    return post_own((own_op_t){.cred = cred, .dirs = (pmix_info_t *)info, .ndirs = ninfo,
                               .validated = cbfunc, .cbdata = cbdata},
                    own_validate);
}
