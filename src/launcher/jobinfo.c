/*
 * jobinfo.c - the job description handed to PMIx_server_register_nspace.
 *
 * Design notes:
 *  - Everything a client may PMIx_Get about its job is registered here,
 *    with the types the PMIx standard gives each key: job-level keys
 *    (sizes as uint32, ranks as pmix_rank_t), one PMIX_APP_INFO_ARRAY per
 *    app, one PMIX_NODE_INFO_ARRAY for this node, and one PMIX_PROC_DATA
 *    array per process (PMIX_RANK first). The set follows what Slurm
 *    registers and what Open MPI asks for (see the notes in shared/).
 *  - NODE_MAP and PROC_MAP come from PMIx_generate_regex and
 *    PMIx_generate_ppn; LOCALITY_STRING and CPUSET from the server's
 *    generators applied to the cpuset mapping.c gave each process, which is
 *    the binding the child applies to itself. The generators walk the
 *    topology, so their strings are made once per distinct cpuset.
 *  - Nested arrays are built in place and moved into their parent value,
 *    never copied: a 256-process job has thousands of entries.
 *  - The same description goes to the daemon's other jobs a job connects
 *    with (jobinfo_describe, pubsub_daemon.c): their runs register it
 *    with no local processes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drover.h"
#include "launcher.h"
#include "pmix.h"
#include "pmix_server.h"

/* A growing info array. */
typedef struct infolist {
    pmix_info_t *info;
    size_t n, cap;
    bool failed;
} infolist_t;

static pmix_info_t *slot(infolist_t *l)
{
    if (l->n == l->cap) {
        size_t cap = 0 == l->cap ? 32 : 2 * l->cap;
        pmix_info_t *grown = realloc(l->info, cap * sizeof(*grown));
        if (NULL == grown) {
            l->failed = true;
            return NULL;
        }
        l->info = grown;
        l->cap = cap;
    }
    pmix_info_t *i = &l->info[l->n++];
    PMIX_INFO_CONSTRUCT(i);
    return i;
}

static void add(infolist_t *l, const char *key, const void *data, pmix_data_type_t type)
{
    pmix_info_t *i = slot(l);
    if (NULL != i) {
        PMIX_INFO_LOAD(i, key, data, type);
    }
}

static void add_u32(infolist_t *l, const char *key, uint32_t v)
{
    add(l, key, &v, PMIX_UINT32);
}

static void add_u16(infolist_t *l, const char *key, unsigned v)
{
    uint16_t v16 = v > UINT16_MAX ? UINT16_MAX : (uint16_t)v;
    add(l, key, &v16, PMIX_UINT16);
}

static void add_rank(infolist_t *l, const char *key, pmix_rank_t v)
{
    add(l, key, &v, PMIX_PROC_RANK);
}

/* Add a string that is handed over (freed here). */
static void add_owned(infolist_t *l, const char *key, char *s)
{
    if (NULL == s) {
        l->failed = true;
        return;
    }
    add(l, key, s, PMIX_STRING);
    free(s);
}

static void list_free(infolist_t *l)
{
    if (NULL != l->info) {
        PMIX_INFO_FREE(l->info, l->n);
    }
    *l = (infolist_t){0};
}

/* Move inner into l as a PMIX_DATA_ARRAY of infos under key. */
static void add_array(infolist_t *l, const char *key, infolist_t *inner)
{
    pmix_data_array_t *array = calloc(1, sizeof(*array));
    pmix_info_t *i = NULL == array || inner->failed ? NULL : slot(l);
    if (NULL == i) {
        free(array);
        list_free(inner);
        l->failed = true;
        return;
    }
    array->type = PMIX_INFO;
    array->size = inner->n;
    array->array = inner->info;
    PMIX_LOAD_KEY(i->key, key);
    i->value.type = PMIX_DATA_ARRAY;
    i->value.data.darray = array;
    *inner = (infolist_t){0};
}

/* "0,1,...,n-1". */
static char *rank_list(unsigned n)
{
    size_t size = (size_t)n * 11 + 1;
    char *s = malloc(size);
    if (NULL == s) {
        return NULL;
    }
    size_t len = 0;
    s[0] = '\0';
    for (unsigned r = 0; r < n; r++) {
        len += (size_t)snprintf(s + len, size - len, "%s%u", 0 == r ? "" : ",", r);
    }
    return s;
}

static char *join_argv(char **argv)
{
    size_t len = 1;
    for (char **a = argv; NULL != *a; a++) {
        len += strlen(*a) + 1;
    }
    char *s = malloc(len);
    if (NULL != s) {
        s[0] = '\0';
        for (char **a = argv; NULL != *a; a++) {
            if (a != argv) {
                strcat(s, " ");
            }
            strcat(s, *a);
        }
    }
    return s;
}

/* The two strings of one cpuset, made once per distinct cpuset of a job
 * (ranks mostly share a few: the whole node, or one core each). */
typedef struct place_strings {
    hwloc_const_bitmap_t cpuset;
    char *locality;
    char *cpuset_string;
} place_strings_t;

typedef struct place_cache {
    place_strings_t *entries;
    size_t n;
} place_cache_t;

static const place_strings_t *place_strings(place_cache_t *cache, hwloc_const_bitmap_t set)
{
    for (size_t i = 0; i < cache->n; i++) {
        if (hwloc_bitmap_isequal(cache->entries[i].cpuset, set)) {
            return &cache->entries[i];
        }
    }
    place_strings_t *grown = realloc(cache->entries, (cache->n + 1) * sizeof(*grown));
    if (NULL == grown) {
        return NULL;
    }
    cache->entries = grown;
    place_strings_t *e = &grown[cache->n++];
    pmix_cpuset_t cpuset = {.source = "hwloc", .bitmap = (void *)set};
    *e = (place_strings_t){.cpuset = set};
    if (PMIX_SUCCESS != PMIx_server_generate_locality_string(&cpuset, &e->locality)) {
        e->locality = NULL;
    }
    if (PMIX_SUCCESS != PMIx_server_generate_cpuset_string(&cpuset, &e->cpuset_string)) {
        e->cpuset_string = NULL;
    }
    return e;
}

static void place_cache_free(place_cache_t *cache)
{
    for (size_t i = 0; i < cache->n; i++) {
        free(cache->entries[i].locality);
        free(cache->entries[i].cpuset_string);
    }
    free(cache->entries);
}

static void add_proc(infolist_t *l, const launcher_job_t *job, unsigned r, place_cache_t *cache)
{
    const launcher_t *run = job->run;
    const launcher_proc_t *p = &job->procs[r];
    const launcher_app_t *app = &job->apps[p->app];
    infolist_t pl = {0};
    add_rank(&pl, PMIX_RANK, r);
    add_rank(&pl, PMIX_GLOBAL_RANK, job->node_rank_base + r);
    add_rank(&pl, PMIX_APP_RANK, r - app->first_rank);
    add_u32(&pl, PMIX_APPNUM, p->app);
    add_u16(&pl, PMIX_LOCAL_RANK, r);
    add_u16(&pl, PMIX_NODE_RANK, job->node_rank_base + r);
    add(&pl, PMIX_HOSTNAME, run->hostname, PMIX_STRING);
    add_u32(&pl, PMIX_NODEID, 0);
    /* Unbound or not, a process has a cpuset: generators that find nothing
     * to say leave the key out. */
    const place_strings_t *place = place_strings(cache, job->map.cpusets[r]);
    if (NULL == place) {
        pl.failed = true;
    } else {
        if (NULL != place->locality) {
            add(&pl, PMIX_LOCALITY_STRING, place->locality, PMIX_STRING);
        }
        if (NULL != place->cpuset_string) {
            add(&pl, PMIX_CPUSET, place->cpuset_string, PMIX_STRING);
        }
    }
    char *procdir;
    add_owned(&pl, PMIX_PROCDIR, asprintf(&procdir, "%s/%u", job->nsdir, r) < 0 ? NULL : procdir);
    add_array(l, PMIX_PROC_DATA, &pl);
}

static void add_app(infolist_t *l, const launcher_job_t *job, unsigned a, char *cwd)
{
    const launcher_app_t *app = &job->apps[a];
    infolist_t al = {0};
    add_u32(&al, PMIX_APPNUM, a);
    add_u32(&al, PMIX_APP_SIZE, app->nprocs);
    add_rank(&al, PMIX_APPLDR, app->first_rank);
    add(&al, PMIX_WDIR, NULL != app->wdir ? app->wdir : cwd, PMIX_STRING);
    add_owned(&al, PMIX_APP_ARGV, join_argv(app->argv));
    add_array(l, PMIX_APP_INFO_ARRAY, &al);
}

/* The keys that describe this node, at job level and in the node array. */
static void add_node_keys(infolist_t *l, const launcher_job_t *job, bool with_id)
{
    const launcher_t *run = job->run;
    if (with_id) {
        add(l, PMIX_HOSTNAME, run->hostname, PMIX_STRING);
        add_u32(l, PMIX_NODEID, 0);
    }
    add_u32(l, PMIX_LOCAL_SIZE, job->nprocs);
    add_u32(l, PMIX_NODE_SIZE, job->node_rank_base + job->nprocs);
    add_owned(l, PMIX_LOCAL_PEERS, rank_list(job->nprocs));
    add_rank(l, PMIX_LOCALLDR, 0);
}

static pmix_status_t build(infolist_t *l, const launcher_job_t *job)
{
    const launcher_t *run = job->run;
    bool spawned = job->spawned;
    add(l, PMIX_SPAWNED, &spawned, PMIX_BOOL);
    if (spawned) {
        add(l, PMIX_PARENT_ID, &job->parent, PMIX_PROC);
    }
    add(l, PMIX_JOBID, job->nspace, PMIX_STRING);
    add_u32(l, PMIX_JOB_SIZE, job->nprocs);
    /* The slots, or the processes when more run (oversubscribed): never
     * smaller than what runs, unlike mpirun (docs/launcher.md says why). */
    unsigned universe = run->topo.slots;
    if (universe < run->nalive + job->nprocs) {
        universe = run->nalive + job->nprocs;
    }
    add_u32(l, PMIX_UNIV_SIZE, universe);
    add_u32(l, PMIX_MAX_PROCS, universe);
    add_u32(l, PMIX_JOB_NUM_APPS, job->napps);
    add_u32(l, PMIX_NUM_NODES, 1);
    add(l, PMIX_NODE_LIST, run->hostname, PMIX_STRING);
    char *regex = NULL, *ppn = NULL, *ranks = rank_list(job->nprocs);
    if (NULL == ranks || PMIX_SUCCESS != PMIx_generate_regex(run->hostname, &regex) ||
        PMIX_SUCCESS != PMIx_generate_ppn(ranks, &ppn)) {
        free(ranks);
        free(regex);
        return PMIX_ERR_NOMEM;
    }
    free(ranks);
    add_owned(l, PMIX_NODE_MAP, regex);
    add_owned(l, PMIX_PROC_MAP, ppn);
    add_node_keys(l, job, true);
    bool rmclean = true;
    add(l, PMIX_TMPDIR, run->session.dir, PMIX_STRING);
    add(l, PMIX_NSDIR, job->nsdir, PMIX_STRING);
    add(l, PMIX_TDIR_RMCLEAN, &rmclean, PMIX_BOOL);
    add(l, PMIX_MAPBY, options_policy_name(job->map.map_by), PMIX_STRING);
    add(l, PMIX_BINDTO, options_policy_name(job->map.bind_to), PMIX_STRING);
    bool oversubscribed = run->nalive + job->nprocs > run->topo.slots;
    add(l, PMIX_NODE_OVERSUBSCRIBED, &oversubscribed, PMIX_BOOL);
    if (NULL != run->opts->types_text) {
        add(l, DROVER_JOB_TYPES, run->opts->types_text, PMIX_STRING);
    }
    for (size_t i = 0; i < job->ndebug; i++) {
        pmix_info_t *d = slot(l);
        if (NULL != d && PMIX_SUCCESS != PMIx_Info_xfer(d, &job->debug[i])) {
            l->failed = true;
        }
    }
    if (1 == job->napps) {
        add_u32(l, PMIX_APPNUM, 0);
        add_u32(l, PMIX_APP_SIZE, job->nprocs);
        add_rank(l, PMIX_APPLDR, 0);
    }
    char *cwd = getcwd(NULL, 0);
    for (unsigned a = 0; a < job->napps; a++) {
        add_app(l, job, a, NULL != cwd ? cwd : "/");
    }
    free(cwd);
    infolist_t node = {0};
    add_node_keys(&node, job, true);
    add_array(l, PMIX_NODE_INFO_ARRAY, &node);
    place_cache_t cache = {0};
    for (unsigned r = 0; r < job->nprocs; r++) {
        add_proc(l, job, r, &cache);
    }
    place_cache_free(&cache);
    return l->failed ? PMIX_ERR_NOMEM : PMIX_SUCCESS;
}

pmix_status_t jobinfo_describe(const launcher_job_t *job, pmix_info_t **info, size_t *ninfo)
{
    infolist_t l = {0};
    pmix_status_t rc = build(&l, job);
    if (PMIX_SUCCESS != rc) {
        list_free(&l);
        return rc;
    }
    *info = l.info;
    *ninfo = l.n;
    return PMIX_SUCCESS;
}
