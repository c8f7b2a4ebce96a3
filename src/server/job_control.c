/*
 * job_control.c - JOB_CONTROL: PMIx_Job_control. Cleanup registrations
 * (PMIX_REGISTER_CLEANUP, _DIR) are the library's own; other directives go
 * to the host's job_control function.
 */
#include <stdlib.h>
#include <string.h>

#include "pmix.h"
#include "server.h"

/* Register the cleanup a directive asks for (a comma-separated list of
 * paths). */
static pmix_status_t register_cleanup(server_nspace_t *ns, const char *paths, cleanup_mode_t mode)
{
    char *copy = strdup(paths), *save = NULL;
    pmix_status_t rc = NULL == copy ? PMIX_ERR_NOMEM : PMIX_SUCCESS;

    for (char *p = NULL == copy ? NULL : strtok_r(copy, ",", &save);
         NULL != p && PMIX_SUCCESS == rc; p = strtok_r(NULL, ",", &save)) {
        rc = nspace_add_cleanup(ns, p, mode);
    }
    free(copy);
    return rc;
}

/* Handle the cleanup directives; true when nothing is left for the host. */
static bool cleanup_directives(server_peer_t *peer, const pmix_info_t *dirs, size_t ndirs,
                               pmix_status_t *rc)
{
    bool recursive = false, only_cleanup = true;
    server_nspace_t *ns = NULL != peer->client ? peer->client->ns : NULL;

    *rc = PMIX_SUCCESS;
    for (size_t i = 0; i < ndirs; i++) {
        if (PMIX_CHECK_KEY(&dirs[i], PMIX_CLEANUP_RECURSIVE)) {
            recursive = PMIX_INFO_TRUE(&dirs[i]);
        }
    }
    for (size_t i = 0; i < ndirs && PMIX_SUCCESS == *rc; i++) {
        const pmix_info_t *d = &dirs[i];
        bool file = PMIX_CHECK_KEY(d, PMIX_REGISTER_CLEANUP);
        bool dir = PMIX_CHECK_KEY(d, PMIX_REGISTER_CLEANUP_DIR);
        if (file || dir) {
            if (NULL == ns || PMIX_STRING != d->value.type || NULL == d->value.data.string) {
                *rc = PMIX_ERR_BAD_PARAM;
            } else {
                *rc = register_cleanup(ns, d->value.data.string,
                                       file        ? CLEANUP_FILE
                                       : recursive ? CLEANUP_TREE
                                                   : CLEANUP_DIR);
            }
        } else if (!PMIX_CHECK_KEY(d, PMIX_CLEANUP_RECURSIVE) &&
                   !PMIX_CHECK_KEY(d, PMIX_CLEANUP_EMPTY) &&
                   !PMIX_CHECK_KEY(d, PMIX_CLEANUP_LEAVE_TOPDIR)) {
            only_cleanup = false;
        }
    }
    return only_cleanup || PMIX_SUCCESS != *rc;
}

/* JOB_CONTROL: PMIX_PROC[] targets, PMIX_INFO[] directives; reply
 * PMIX_INFO[] results. */
void job_control_request(server_peer_t *peer, uint32_t tag, pmix_data_buffer_t *payload)
{
    relay_t *r = relay_new(peer, tag, PROTOCOL_JOB_CONTROL);
    pmix_proc_t *targets;
    pmix_info_t *dirs;
    size_t ntargets, ndirs;
    pmix_status_t rc;

    if (NULL == r || !relay_unpack(r, payload, PMIX_PROC, (void **)&targets, &ntargets) ||
        !relay_unpack(r, payload, PMIX_INFO, (void **)&dirs, &ndirs)) {
        return;
    }
    if (0 == ndirs) {
        relay_finish(r, PMIX_ERR_BAD_PARAM);
        return;
    }
    if (cleanup_directives(peer, dirs, ndirs, &rc)) {
        if (PMIX_SUCCESS == rc) {
            rc = PMIx_Data_pack(NULL, &r->body, NULL, 0, PMIX_INFO);
        }
        relay_finish(r, rc);
        return;
    }
    rc = PMIX_ERR_NOT_SUPPORTED;
    if (NULL != server.host.job_control) {
        rc = server.host.job_control(&peer->proc, targets, ntargets, dirs, ndirs,
                                     relay_info_answered, r);
    }
    relay_called(r, rc);
}
