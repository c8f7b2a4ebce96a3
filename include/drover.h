/*
 * drover.h - drover's documented extensions to the PMIx API.
 *
 * Everything here is specific to drover: a program that uses it will not
 * build against another PMIx implementation. Two facilities are offered:
 *
 *  - an allocator handle (drover_tma_t) through which copies and unpacked
 *    values may be placed in memory other than the heap, and
 *  - run-time registration of new datatypes, after which PMIx_Data_pack,
 *    PMIx_Data_unpack, PMIx_Data_copy, PMIx_Data_print and the
 *    PMIx_Value_* functions handle them like the standard ones.
 *
 * docs/adding-a-datatype.md walks through a complete example.
 */
#ifndef DROVER_H
#define DROVER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <pmix_common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Allocator handles ------------------------------------------------ */

/* An allocator. NULL wherever a drover_tma_t * is accepted means the heap
 * (malloc and friends). The functions receive the handle so an allocator
 * can keep its state next to them. */
typedef struct drover_tma drover_tma_t;
struct drover_tma {
    void *(*malloc)(drover_tma_t *tma, size_t size);
    void *(*calloc)(drover_tma_t *tma, size_t nmemb, size_t size);
    void *(*realloc)(drover_tma_t *tma, void *ptr, size_t size);
    char *(*strdup)(drover_tma_t *tma, const char *s);
    /* May be a no-op (an arena frees everything at once). */
    void (*free)(drover_tma_t *tma, void *ptr);
};

/* Allocate through tma (NULL: the heap). Caller frees with drover_tma_free
 * on the same handle. They return NULL when memory runs out. */
PMIX_EXPORT void *drover_tma_malloc(drover_tma_t *tma, size_t size);
PMIX_EXPORT void *drover_tma_calloc(drover_tma_t *tma, size_t nmemb, size_t size);
PMIX_EXPORT char *drover_tma_strdup(drover_tma_t *tma, const char *s);
/* Accepts NULL ptr. */
PMIX_EXPORT void drover_tma_free(drover_tma_t *tma, void *ptr);

/* ---- Datatype registration -------------------------------------------- */

/* Ids of datatypes a program registers must lie in this range; the ids
 * below it belong to the PMIx standard and to drover itself. */
#define DROVER_DATATYPE_USER_MIN 1024
#define DROVER_DATATYPE_USER_MAX 65534

/* Opaque cursors handed to a datatype's pack and unpack functions. */
typedef struct drover_writer drover_writer_t;
typedef struct drover_reader drover_reader_t;

/* Pack n elements of a registered type, stored contiguously at src, with no
 * type tag: the matching drover_unpack must name the same type and count.
 * This is how a datatype's pack function writes its members. */
PMIX_EXPORT pmix_status_t drover_pack(drover_writer_t *w, const void *src, size_t n,
                                      pmix_data_type_t type);

/* Unpack n elements written by drover_pack into dest (room for n elements,
 * which need not be initialised). Memory the elements own is allocated
 * through drover_reader_tma(r). On failure nothing is left allocated and
 * the reader must not be used further. */
PMIX_EXPORT pmix_status_t drover_unpack(drover_reader_t *r, void *dest, size_t n,
                                        pmix_data_type_t type);

/* The allocator an unpack must use for what it allocates. Borrowed. */
PMIX_EXPORT drover_tma_t *drover_reader_tma(drover_reader_t *r);

/* Flags of a datatype record. */
/* The element is stored inside pmix_value_t.data (it must fit there); without
 * this flag a pmix_value_t holds a pointer to a copy in data.ptr. */
#define DROVER_DATATYPE_VALUE_INLINE 0x1u
/* Single-element calls (PMIx_Data_copy, PMIx_Data_print, PMIx_Value_load)
 * receive the element itself, as for PMIX_STRING where they are passed the
 * char *, rather than the address of the element. */
#define DROVER_DATATYPE_PASSED_BY_VALUE 0x2u

/* One datatype: everything drover needs to move, copy, compare, print and
 * free values of it. Each function handles a single element, but for
 * check, pack_array and unpack_array. */
typedef struct drover_datatype {
    const char *name;      /* printable name, e.g. "PMIX_BOOL" */
    pmix_data_type_t id;
    size_t size;           /* bytes one element occupies in memory */
    size_t min_wire;       /* fewest bytes one element can occupy packed, at
                              least 1: unpack uses it to refuse counts the
                              input cannot hold before allocating */
    unsigned flags;        /* DROVER_DATATYPE_* */

    /* Required. Write one element. */
    pmix_status_t (*pack)(drover_writer_t *w, const void *elem);
    /* Required. Read one element into zeroed storage; on failure release
     * whatever was allocated and leave it zeroed. */
    pmix_status_t (*unpack)(drover_reader_t *r, void *elem);
    /* Optional (NULL: bytewise copy). dest is uninitialised storage. */
    pmix_status_t (*copy)(void *dest, const void *src, drover_tma_t *tma);
    /* Optional (NULL: bytewise comparison). */
    pmix_value_cmp_t (*compare)(const void *a, const void *b);
    /* Required. A text rendering the caller frees with free(). */
    char *(*print)(const void *elem);
    /* Optional (NULL: the element owns nothing). Free what the element owns,
     * not the element itself. */
    void (*release)(void *elem, drover_tma_t *tma);
    /* Optional. Read n packed elements without storing anything, and
     * succeed only when unpack would then succeed on the same bytes into
     * any storage, zeroed or not, without allocating. With it,
     * PMIx_Data_unpack checks the whole input first and then unpacks
     * straight into the caller's storage, which it does not zero. */
    pmix_status_t (*check)(drover_reader_t *r, size_t n);
    /* Optional, both or neither. n >= 1 elements at once, in a form of the
     * type's own (one header for the whole array, say): drover_pack and
     * drover_unpack then call these once instead of pack or unpack per
     * element, and check reads that form. unpack_array gets zeroed storage
     * (or, after check, storage as the caller passed it) and on failure
     * releases all it allocated and leaves the n elements zeroed. */
    pmix_status_t (*pack_array)(drover_writer_t *w, const void *src, size_t n);
    pmix_status_t (*unpack_array)(drover_reader_t *r, void *dest, size_t n);
} drover_datatype_t;

/* Register a datatype. The record is copied; its name must stay valid for
 * the life of the process. Returns PMIX_ERR_BAD_PARAM for an id outside
 * [DROVER_DATATYPE_USER_MIN, DROVER_DATATYPE_USER_MAX], a missing required
 * function, a zero size or min_wire, or an inline type too large for
 * pmix_value_t; PMIX_ERR_DUPLICATE_KEY when the id is already registered;
 * PMIX_ERR_OUT_OF_RESOURCE when the registry is full. Thread-safe. */
PMIX_EXPORT pmix_status_t drover_register_datatype(const drover_datatype_t *type);

/* The record registered for id, or NULL. Borrowed, valid for the life of
 * the process. */
PMIX_EXPORT const drover_datatype_t *drover_datatype_lookup(pmix_data_type_t id);

/* ---- Server ----------------------------------------------------------- */

/* PMIx_server_init attribute (bool): the host starts its clients itself
 * and tells the server each one's pid with drover_server_client_pid. The
 * server then accepts a client's PMIx_Init only from a connection of that
 * process or of one of its descendants (a wrapper's child), as the pid its
 * socket's peer credentials give says; a connection that claims the
 * client before its pid is known waits for it. */
#define DROVER_SERVER_CLIENT_PIDS "drover.srv.client_pids"

/* PMIx_server_init attribute (int, a file descriptor open for writing):
 * the server writes there one line per connection it refuses because
 * its peer runs as another user ("refused a PMIx connection from uid U
 * (pid P): not the server's user"). The descriptor stays the host's; it
 * must stay open until PMIx_server_finalize. */
#define DROVER_SERVER_REFUSAL_LOG "drover.srv.refusal_log"

/* The client proc, registered with PMIx_server_register_client, is the
 * process pid: call it once the process exists (after fork). Returns
 * PMIX_SUCCESS, PMIX_ERR_BAD_PARAM, or PMIX_ERR_INIT when no server runs. */
PMIX_EXPORT pmix_status_t drover_server_client_pid(const pmix_proc_t *proc, pid_t pid);

/* drover_server_client_pid for n processes at once, procs[i] being
 * pids[i], in one trip to the server's thread. The arrays are copied. */
PMIX_EXPORT pmix_status_t drover_server_client_pids(const pmix_proc_t *procs, const pid_t *pids,
                                                    size_t n);

/* PMIx_server_init attribute (PMIX_POINTER to a drover_server_trace_t,
 * which must stay valid until PMIx_server_finalize returns): the server
 * calls its record function for every request a client or tool sends and
 * for every reply, as they happen, so that the host can time what its
 * clients ask (`drover run --trace` does). record runs in the server's
 * progress thread; it must be quick and must not call the server. Without
 * the attribute the server checks one pointer per message and nothing
 * more. */
#define DROVER_SERVER_TRACE "drover.srv.trace"

/* One request arriving or its reply leaving. Borrowed for the call. */
typedef struct drover_trace_event {
    bool reply;              /* false: a request arrived; true: a reply left */
    const char *call;        /* the API call served ("PMIx_Fence"); static */
    const pmix_proc_t *proc; /* who asked; an empty namespace until a HELLO
                              * (PMIx_Init) has been answered */
    uint64_t connection;     /* the connection, never reused: with tag, it
                              * pairs a reply with its request */
    uint32_t tag;
    size_t bytes;            /* the request's payload, or the whole reply */
    pmix_status_t status;    /* a reply's */
} drover_trace_event_t;

typedef struct drover_server_trace {
    void (*record)(const drover_trace_event_t *event, void *arg);
    void *arg;
} drover_server_trace_t;

/* PMIx_server_init attribute (PMIX_POINTER to a drover_server_groups_t,
 * which must stay valid until PMIx_server_finalize returns): the server
 * calls its changed function each time the members of a group it knows
 * change: a group made (PMIx_Group_construct, an invitation accepted, or
 * drover_server_define_group), a member gone (left, or ended without
 * leaving), and the group gone (destructed, emptied or deleted: nmembers
 * 0). name and members are borrowed for the call. changed runs in the
 * server's progress thread; it must be quick and must not call the
 * server. */
#define DROVER_SERVER_GROUPS "drover.srv.groups"

/* PMIx_server_init attribute (bool): the host passes on an event whose
 * PMIX_EVENT_CUSTOM_RANGE names another server's processes to those
 * servers (PMIx_Notify_event there), and runs a group construct across
 * servers (its group function). Invitations may then name another
 * server's processes (PMIx_Group_invite, and PMIx_Group_join of another
 * server's leader); without it they are PMIX_ERR_NOT_SUPPORTED. */
#define DROVER_SERVER_INVITES_ACROSS "drover.srv.invites_across"

typedef struct drover_server_groups {
    void (*changed)(const char *name, const pmix_proc_t *members, size_t nmembers, void *arg);
    void *arg;
} drover_server_groups_t;

/* Record a group the host knows of but this server did not build (its
 * members are another server's clients), as PMIx_server_define_process_set
 * records a process set: this server's answers to PMIX_QUERY_NUM_GROUPS,
 * _GROUP_NAMES and _GROUP_MEMBERSHIP then include it. Its members take
 * part in nothing here. members (wildcard ranks allowed) is borrowed for
 * the call. Returns PMIX_OPERATION_SUCCEEDED once it is recorded;
 * PMIX_ERR_EXISTS for a name a group has already, PMIX_ERR_BAD_PARAM
 * for an empty name or no members, PMIX_ERR_INIT when no server runs. */
PMIX_EXPORT pmix_status_t drover_server_define_group(const pmix_proc_t *members, size_t nmembers,
                                                     const char *name);

/* Forget a group drover_server_define_group recorded: PMIX_OPERATION_SUCCEEDED,
 * or PMIX_ERR_NOT_FOUND (no group of that name was defined so). */
PMIX_EXPORT pmix_status_t drover_server_delete_group(const char *name);

/* ---- The drover daemon (docs/daemon.md) -------------------------------- */

/* PMIx_Spawn job-info attribute (PMIX_DATA_ARRAY of PMIX_STRING): the
 * `drover run` arguments of the job, as drover submit was given them; the
 * one app then gives the job's working directory (cwd) and its whole
 * environment (env). */
#define DROVER_SPAWN_RUN_ARGS "drover.spawn.runargs"

/* PMIx_Query_info keys the daemon answers (PMIX_STRING): every job as
 * `drover ps` prints it, as a table or as JSON; and, with PMIX_NSPACE,
 * the directory holding a submitted job's stdout and stderr files. */
#define DROVER_QUERY_JOBS "drover.qry.jobs"
#define DROVER_QUERY_JOBS_JSON "drover.qry.jobs.json"
#define DROVER_QUERY_OUTPUT "drover.qry.output"
/* ---- Declared datatypes (docs/datatypes.md) ------------------------------ */

/* Types declared in YAML (PDI's specification-tree dialect) are registered
 * with ids from this one up, in declaration order; a program that also
 * registers types in C should use ids below it. */
#define DROVER_DECLARED_ID_MIN 32768

/* Flags of drover_types_load_*. */
/* Unknown keys are warnings instead of errors (for files written for PDI,
 * which ignores them). */
#define DROVER_TYPES_LENIENT 0x1u
/* Check the file and report, but declare and register nothing. */
#define DROVER_TYPES_CHECK_ONLY 0x2u

/* Job-level key (PMIX_STRING) under which `drover run --types FILE` hands
 * FILE's text to the ranks; PMIx_Init declares it in every rank. */
#define DROVER_JOB_TYPES "drover.types"

/* For a process that only stores and forwards values (a PMIx server):
 * every type is registered at once, $-values or not, and its values are
 * kept as the bytes they were packed to, unread. */
#define DROVER_TYPES_RELAY 0x8u

/* drover_types_describe: JSON instead of indented text. */
#define DROVER_TYPES_JSON 0x4u
/* drover_types_describe: canonical YAML that loads to the same types (the
 * named type and those it refers to, or every type). */
#define DROVER_TYPES_YAML 0x10u

/* Declare the types of a YAML file (types: section; metadata: and data:
 * name the values $-expressions refer to) and register each under a new
 * id. All or nothing: on any error nothing is declared. *errors (may be
 * NULL) receives every error and warning, one per line as
 * "FILE:LINE:COL: error: KEY.PATH: message", or NULL when there are none;
 * the caller frees it with free(). Returns PMIX_SUCCESS,
 * PMIX_ERR_BAD_PARAM (the file has errors), PMIX_ERR_NOT_FOUND (unreadable)
 * or PMIX_ERR_NOMEM. Loading the same declarations again is harmless; a
 * different declaration under a declared name is an error. Thread-safe. */
PMIX_EXPORT pmix_status_t drover_types_load_file(const char *path, unsigned flags, char **errors);

/* The same for len bytes of YAML text; name is what messages call it. */
PMIX_EXPORT pmix_status_t drover_types_load_string(const char *name, const char *text, size_t len,
                                                   unsigned flags, char **errors);

/* The tree of the type called name in the YAML file at path (every type
 * when name is NULL), with kind, combiner, size, alignment, offsets,
 * extent, canonical signature and fingerprint, as `drover types show`
 * prints it; nothing is declared. flags: DROVER_TYPES_LENIENT, and
 * DROVER_TYPES_JSON or DROVER_TYPES_YAML. *text is freed by the caller with free(); *errors as
 * for drover_types_load_file. PMIX_ERR_NOT_FOUND when the file has no such
 * type. */
PMIX_EXPORT pmix_status_t drover_types_describe(const char *path, const char *name, unsigned flags,
                                                char **text, char **errors);

/* Bind n values to a name $-expressions use ("n" for $n, "rec.len" for
 * $rec.len; $a[i] reads value i of "a"). The values are copied; binding a
 * name again replaces them, n == 0 removes them. A type reads the values
 * when it is laid out: at load if all its names are bound, else at its
 * first drover_type_lookup. Thread-safe. */
PMIX_EXPORT pmix_status_t drover_type_bind(const char *name, const int64_t *values, size_t n);

/* The datatype id of a declared type, laying it out and registering it
 * first if it waited for bindings. PMIX_ERR_NOT_FOUND for an undeclared
 * name, PMIX_ERR_NOT_AVAILABLE while a value it needs is not bound,
 * PMIX_ERR_BAD_PARAM when the bound values break a bound (start + subsize
 * past size, a member outside buffersize...). Thread-safe. */
PMIX_EXPORT pmix_status_t drover_type_lookup(const char *name, pmix_data_type_t *id);

/* ---- Decoding and building types, after MPI ---------------------------- */

/* Which constructor made a type (drover_type_get_envelope). A declared
 * type decodes as the constructor call that builds the same layout: a
 * builtin or C-registered type is NAMED; a declared scalar or a named
 * reference DUP; an array CONTIGUOUS (one dimension, no slice) or
 * SUBARRAY; struct, tuple and record STRUCT, with RESIZED around it when a
 * record's buffersize is not the natural extent; pointer POINTER; a type
 * made by a block constructor (drover_type_create_vector ...) the
 * combiner of that call. */
#define DROVER_COMBINER_NAMED 1
#define DROVER_COMBINER_DUP 2
#define DROVER_COMBINER_CONTIGUOUS 3
#define DROVER_COMBINER_STRUCT 4
#define DROVER_COMBINER_SUBARRAY 5
#define DROVER_COMBINER_RESIZED 6
#define DROVER_COMBINER_POINTER 7
#define DROVER_COMBINER_VECTOR 8
#define DROVER_COMBINER_HVECTOR 9
#define DROVER_COMBINER_INDEXED 10
#define DROVER_COMBINER_HINDEXED 11
#define DROVER_COMBINER_INDEXED_BLOCK 12
#define DROVER_COMBINER_HINDEXED_BLOCK 13
#define DROVER_COMBINER_DARRAY 14

/* Array orders of drover_type_create_subarray and _darray (Open MPI's
 * values). */
#define DROVER_ORDER_C 0
#define DROVER_ORDER_FORTRAN 1

/* Distributions of drover_type_create_darray (Open MPI's values). */
#define DROVER_DISTRIBUTE_BLOCK 0
#define DROVER_DISTRIBUTE_CYCLIC 1
#define DROVER_DISTRIBUTE_NONE 2
#define DROVER_DISTRIBUTE_DFLT_DARG (-1)

/* The sizes of the argument arrays of the constructor call that made type,
 * and its combiner, as MPI_Type_get_envelope. PMIX_ERR_UNKNOWN_DATA_TYPE
 * for an id not registered (a declared type waiting for $-values is not,
 * until drover_type_lookup lays it out), PMIX_ERR_NOT_AVAILABLE in a
 * process that only relays declared values (DROVER_TYPES_RELAY). */
PMIX_EXPORT pmix_status_t drover_type_get_envelope(pmix_data_type_t type, int *num_integers,
                                                   int *num_addresses, int *num_datatypes,
                                                   int *combiner);

/* The arguments themselves, as MPI_Type_get_contents (layouts in
 * docs/datatypes.md): integers, addresses (byte displacements, lb and
 * extent) and datatypes. An unnamed part of a declared type comes back as
 * a type of its own, registered under "<type>/<index>" the first time it
 * is decoded. PMIX_ERR_BAD_PARAM for a NAMED type or arrays smaller than
 * the envelope says. */
PMIX_EXPORT pmix_status_t drover_type_get_contents(pmix_data_type_t type, int max_integers,
                                                   int max_addresses, int max_datatypes,
                                                   int integers[], intptr_t addresses[],
                                                   pmix_data_type_t datatypes[]);

/* As MPI_Type_size: the bytes a type's data occupies in one element (a
 * slice's selected elements, members without padding, 8 for a pointer);
 * for builtin and C-registered types, their size. */
PMIX_EXPORT pmix_status_t drover_type_size(pmix_data_type_t type, size_t *size);

/* As MPI_Type_get_extent: lb (the lowest displacement a constructor was
 * given, or the lb of a resize; 0 for builtin, C-registered and most
 * declared types) and extent, which is also the size of a value in memory:
 * a value's bytes are [lb, lb + extent) of MPI's element, so a pointer to
 * a value points at its lb. */
PMIX_EXPORT pmix_status_t drover_type_get_extent(pmix_data_type_t type, intptr_t *lb,
                                                 intptr_t *extent);

/* As MPI_Type_get_true_extent: from the first to one past the last byte of
 * the type's data, relative to the origin as lb is (0, 0 when it has none). */
PMIX_EXPORT pmix_status_t drover_type_get_true_extent(pmix_data_type_t type, intptr_t *true_lb,
                                                      intptr_t *true_extent);

/* A declared type's canonical signature (caller frees with free()) and
 * fingerprint, as `drover types show` prints them. PMIX_ERR_NOT_SUPPORTED
 * for builtin and C-registered types, which have none. */
PMIX_EXPORT pmix_status_t drover_type_signature(pmix_data_type_t type, char **signature,
                                                uint64_t *fingerprint);

/* Constructors, as MPI's, building declared types through the same
 * validated trees as YAML (name NULL: "type.<id>"). old and the types of a
 * struct are fixed-size builtin scalars (PMIX_INT8..PMIX_UINT64, PMIX_INT,
 * PMIX_UINT, PMIX_SIZE, PMIX_FLOAT, PMIX_DOUBLE, PMIX_BYTE) or declared
 * types; PMIX_ERR_NOT_SUPPORTED for other old types (their values have no
 * fixed size). Bounds are MPI's (lb the lowest byte, negative allowed);
 * count 0 makes an empty type (size and extent 0). PMIX_ERR_BAD_PARAM for
 * bad counts or bounds, and for what a value in memory cannot hold: data
 * outside a resize's [lb, lb + extent), a subarray (a slice, several
 * dimensions or Fortran order) of a type whose lb is not 0 (MPI gives a
 * subarray lb 0). The messages go nowhere: check with drover types. */
PMIX_EXPORT pmix_status_t drover_type_create_contiguous(const char *name, int count,
                                                        pmix_data_type_t old,
                                                        pmix_data_type_t *newtype);
PMIX_EXPORT pmix_status_t drover_type_create_subarray(const char *name, int ndims,
                                                      const int sizes[], const int subsizes[],
                                                      const int starts[], int order,
                                                      pmix_data_type_t old,
                                                      pmix_data_type_t *newtype);
PMIX_EXPORT pmix_status_t drover_type_create_struct(const char *name, int count,
                                                    const int blocklengths[],
                                                    const intptr_t displacements[],
                                                    const pmix_data_type_t types[],
                                                    pmix_data_type_t *newtype);
PMIX_EXPORT pmix_status_t drover_type_create_resized(const char *name, pmix_data_type_t old,
                                                     intptr_t lb, intptr_t extent,
                                                     pmix_data_type_t *newtype);
PMIX_EXPORT pmix_status_t drover_type_create_pointer(const char *name, pmix_data_type_t old,
                                                     pmix_data_type_t *newtype);
PMIX_EXPORT pmix_status_t drover_type_dup(const char *name, pmix_data_type_t old,
                                          pmix_data_type_t *newtype);

/* Block constructors, as MPI's: count blocks of old elements, at
 * displacements in old extents (vector, indexed, indexed_block) or in
 * bytes (the h- forms). At most 65536 blocks; a block of length 0 holds
 * nothing. The type is a tuple of its non-empty blocks with MPI's bounds:
 * lb the lowest byte of a block (negative allowed), extent up to the
 * highest (no alignment padding); no block of data: an empty type. Beyond
 * the refusals above: PMIX_ERR_BAD_PARAM for negative lengths, overflow and
 * overlapping blocks. They decode as their own combiner (MPI's layout). */
PMIX_EXPORT pmix_status_t drover_type_create_vector(const char *name, int count, int blocklength,
                                                    int stride, pmix_data_type_t old,
                                                    pmix_data_type_t *newtype);
PMIX_EXPORT pmix_status_t drover_type_create_hvector(const char *name, int count, int blocklength,
                                                     intptr_t stride, pmix_data_type_t old,
                                                     pmix_data_type_t *newtype);
PMIX_EXPORT pmix_status_t drover_type_create_indexed(const char *name, int count,
                                                     const int blocklengths[],
                                                     const int displacements[],
                                                     pmix_data_type_t old,
                                                     pmix_data_type_t *newtype);
PMIX_EXPORT pmix_status_t drover_type_create_hindexed(const char *name, int count,
                                                      const int blocklengths[],
                                                      const intptr_t displacements[],
                                                      pmix_data_type_t old,
                                                      pmix_data_type_t *newtype);
PMIX_EXPORT pmix_status_t drover_type_create_indexed_block(const char *name, int count,
                                                           int blocklength,
                                                           const int displacements[],
                                                           pmix_data_type_t old,
                                                           pmix_data_type_t *newtype);
PMIX_EXPORT pmix_status_t drover_type_create_hindexed_block(const char *name, int count,
                                                            int blocklength,
                                                            const intptr_t displacements[],
                                                            pmix_data_type_t old,
                                                            pmix_data_type_t *newtype);

/* As MPI_Type_create_darray: the share of process rank (of size, on a
 * row-major grid of psizes[ndims] processes) of a gsizes[ndims] array of
 * old elements in C or Fortran order, each dimension distributed
 * DROVER_DISTRIBUTE_BLOCK, _CYCLIC (with dargs[i] elements a block, or
 * DROVER_DISTRIBUTE_DFLT_DARG) or _NONE. lb 0, extent the whole array;
 * the type map lists the share's elements in memory order. It decodes as
 * DROVER_COMBINER_DARRAY with MPI's layout (4 * ndims + 4 integers).
 * A share of no element is of size 0. PMIX_ERR_BAD_PARAM for arguments
 * MPI refuses (psizes whose product is not size, a NONE dimension over
 * more than one process, a BLOCK darg that does not cover its
 * dimension...); PMIX_ERR_NOT_SUPPORTED, beyond the refusals above, for an
 * old type whose lb is not 0 and a share of more than 65536 runs of
 * consecutive elements. */
PMIX_EXPORT pmix_status_t drover_type_create_darray(const char *name, int size, int rank,
                                                    int ndims, const int gsizes[],
                                                    const int distribs[], const int dargs[],
                                                    const int psizes[], int order,
                                                    pmix_data_type_t old,
                                                    pmix_data_type_t *newtype);

/* The type map, as MPI defines it: every basic element of one element of
 * type, in order, as its type (the builtin id of a scalar's class and
 * size, PMIX_POINTER for a pointer, the type itself for a builtin or
 * C-registered type) and byte displacement. Fills at most max entries of
 * basics and displacements (NULL when max is 0) and sets *count to the
 * number of entries of the whole map. */
PMIX_EXPORT pmix_status_t drover_type_get_typemap(pmix_data_type_t type, size_t max,
                                                  pmix_data_type_t basics[],
                                                  intptr_t displacements[], size_t *count);

/* ---- Introspection ------------------------------------------------------ */

/* One PMIx attribute as drover knows it. */
typedef struct drover_attribute {
    const char *name;         /* macro name, e.g. "PMIX_JOB_SIZE" */
    const char *key;          /* key string, e.g. "pmix.job.size" */
    pmix_data_type_t type;    /* type of its value; PMIX_UNDEF when it varies */
    const char *description;  /* one line */
    bool deprecated;
} drover_attribute_t;

/* The index-th known attribute, in name order, or NULL past the last one.
 * Borrowed, valid for the life of the process. */
PMIX_EXPORT const drover_attribute_t *drover_attribute_at(size_t index);

/* ---- PMI wire protocols ------------------------------------------------- */

/* Serve the PMI-1 wire protocol ("simple" PMI, as MPICH's hydra does) to
 * proc, a client registered with this server, over a new socket pair: the
 * library keeps one end; *fd is the other, for the process to inherit.
 * Adds PMI_FD (that descriptor's number), PMI_RANK, PMI_SIZE and PMI_JOBID
 * to *env. *fd is close-on-exec: the host clears that flag in the child
 * before exec, and closes its own copy after the fork. On failure nothing
 * is left open and *env may have gained some of the variables. */
PMIX_EXPORT pmix_status_t drover_server_setup_pmi(const pmix_proc_t *proc, char ***env, int *fd);

/* PMIx_server_init attribute (uint32 n): the host will serve PMI
 * processes (drover_server_setup_pmi and the like), n of them first. The
 * server then opens its PMI_PORT listener (127.0.0.1) and makes the
 * socket pairs of those n (64 at most) at init, rather than while setting
 * them up, which a launch waits for. */
#define DROVER_SERVER_PMI_PROCS "drover.srv.pmi_procs"

/* drover_server_setup_pmi for nprocs processes at once, procs[i] with
 * envs[i] and fds[i], in one trip to the server's thread (a launch of
 * many processes waits for it once). On failure nothing is left open:
 * every fds[i] is -1. */
PMIX_EXPORT pmix_status_t drover_server_setup_pmi_procs(const pmix_proc_t *procs, size_t nprocs,
                                                        char ***envs, int *fds);

/* drover_server_setup_pmi_procs without the wait: the socket pairs are
 * made and fds[] filled before it returns; the server's thread does the
 * rest, in turn after what was asked of it before (a registration made
 * with a callback), then calls cbfunc (required) with the status. Until
 * then procs, envs and fds are the library's. On failure, returned or
 * called back, nothing is left open: every fds[i] is -1. The server
 * starts reading its ends of the pairs just after the callback (what a
 * process sends first waits in its socket); an end it cannot read (out
 * of memory) it closes, and that process finds its connection closed. */
PMIX_EXPORT pmix_status_t drover_server_setup_pmi_procs_nb(const pmix_proc_t *procs,
                                                           size_t nprocs, char ***envs, int *fds,
                                                           pmix_op_cbfunc_t cbfunc, void *cbdata);

#ifdef __cplusplus
}
#endif

#endif /* DROVER_H */
