/*
 * daemon_groups.c - the process groups of the daemon's jobs, shown to the
 *                   daemon's tools as groups and as process sets.
 *
 * Design notes:
 *  - A job's ranks build their groups in their run's server
 *    (PMIx_Group_construct), which the daemon's tools do not reach. The
 *    run's server tells the run of every change of a group's members
 *    (DROVER_SERVER_GROUPS), and the run tells the daemon on the job's
 *    control socket, one message each: "group\n" and two packed values,
 *    a data array of one PMIX_STRING (the group's name) and one of
 *    PMIX_PROC (its members now; none: the group is gone).
 *  - The daemon defines each such group in its own server twice, under
 *    one name: as a process set (PMIx_server_define_process_set) and as
 *    a group (drover_server_define_group). The server library's answers
 *    to PMIX_QUERY_NUM_PSETS, _PSET_NAMES, _PSET_MEMBERSHIP and to
 *    PMIX_QUERY_NUM_GROUPS, _GROUP_NAMES, _GROUP_MEMBERSHIP then include
 *    it, beside the daemon's own, and the tools get the
 *    PMIX_PROCESS_SET_DEFINE and _DELETE events. A change of members is
 *    the set deleted and defined again.
 *  - Names: each job names its groups as it likes, so two jobs may well
 *    use the same one. The daemon shows a job's group as "<the job's
 *    namespace>/<its name>" (drover-daemon.4242.3-0/workers): unique,
 *    and a tool that knows the job can tell the name its ranks use.
 *  - A group goes when the run says so (destructed, or its last member
 *    ended) and, whatever the run said, when its job ends.
 *  - The message comes from another process: the daemon reads it within
 *    its length (daemon_relay_unpack), takes a name of at most
 *    PMIX_MAX_NSLEN bytes, and members of which at least one is a
 *    process of the sending job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "drover.h"
#include "pmix.h"
#include "pmix_server.h"

#define HEADER "group\n"

/* ---- the run's side ------------------------------------------------------ */

pmix_status_t daemon_groups_message(const char *name, const pmix_proc_t *members, size_t n,
                                    char **msg, size_t *len)
{
    pmix_data_array_t arrays[2];
    pmix_value_t values[2] = {
        daemon_relay_array(&arrays[0], &name, 1, PMIX_STRING),
        daemon_relay_array(&arrays[1], (void *)members, n, PMIX_PROC),
    };
    return daemon_relay_pack(HEADER, values, 2, msg, len);
}

bool daemon_groups_is_message(const char *msg, size_t len)
{
    return len > strlen(HEADER) && 0 == memcmp(msg, HEADER, strlen(HEADER));
}

/* ---- the daemon's side --------------------------------------------------- */

/* A group shown for a job, by its name in the daemon's server. */
typedef struct shown {
    struct shown *next;
    unsigned job;
    char *name;
} shown_t;

static shown_t *shown;

static shown_t **find(const char *name)
{
    shown_t **s = &shown;
    while (NULL != *s && 0 != strcmp((*s)->name, name)) {
        s = &(*s)->next;
    }
    return s;
}

/* Take the group out of the daemon's server and forget it. */
static void unshow(shown_t **where)
{
    shown_t *s = *where;
    PMIx_server_delete_process_set(s->name);
    drover_server_delete_group(s->name);
    *where = s->next;
    free(s->name);
    free(s);
}

/* Take name out of the daemon's server, if it is shown. */
static void hide(const char *name)
{
    shown_t **where = find(name);
    if (NULL != *where) {
        unshow(where);
    }
}

/* Define name (job's) with its members in the daemon's server, replacing
 * what it showed under that name. */
static void show(unsigned job, const char *name, const pmix_proc_t *members, size_t n)
{
    shown_t *s;
    hide(name);
    if (NULL == (s = calloc(1, sizeof(*s))) || NULL == (s->name = strdup(name))) {
        free(s);
        return;
    }
    pmix_status_t set = PMIx_server_define_process_set(members, n, name);
    pmix_status_t group = drover_server_define_group(members, n, name);
    s->job = job;
    s->next = shown;
    shown = s;
    if (PMIX_OPERATION_SUCCEEDED != set || PMIX_OPERATION_SUCCEEDED != group) {
        /* Half of it is no use to a tool. */
        unshow(&shown);
    }
}

/* Whether a member is a process of job id (of its namespace or of one
 * its run spawned). */
static bool has_own(const daemon_jobs_t *jobs, unsigned id, const pmix_proc_t *members, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (daemon_connect_owner(jobs, members[i].nspace) == id) {
            return true;
        }
    }
    return false;
}

void daemon_groups_update(const daemon_jobs_t *jobs, unsigned id, const char *msg, size_t len)
{
    static const pmix_data_type_t types[2] = {PMIX_STRING, PMIX_PROC};
    pmix_value_t values[2];
    const char *nspace = daemon_jobs_nspace(jobs, id);
    if (NULL == nspace || PMIX_SUCCESS != daemon_relay_unpack(msg, len, values, 2, types)) {
        return;
    }
    const pmix_data_array_t *names = values[0].data.darray, *members = values[1].data.darray;
    const char *name = 1 == names->size ? ((char **)names->array)[0] : NULL;
    char shown_as[DAEMON_NSPACE_MAX + PMIX_MAX_NSLEN + 2];
    if (NULL != name && '\0' != name[0] && strlen(name) <= PMIX_MAX_NSLEN) {
        snprintf(shown_as, sizeof(shown_as), "%s/%s", nspace, name);
        if (0 == members->size) {
            hide(shown_as);
        } else if (has_own(jobs, id, members->array, members->size)) {
            show(id, shown_as, members->array, members->size);
        }
    }
    PMIX_VALUE_DESTRUCT(&values[0]);
    PMIX_VALUE_DESTRUCT(&values[1]);
}

void daemon_groups_job_ended(unsigned id)
{
    shown_t **s = &shown;
    while (NULL != *s) {
        if ((*s)->job == id) {
            unshow(s);
        } else {
            s = &(*s)->next;
        }
    }
}

void daemon_groups_forget(void)
{
    while (NULL != shown) {
        shown_t *s = shown;
        shown = s->next;
        free(s->name);
        free(s);
    }
}
