/*
 * pmix_common.h - types and constants shared by every PMIx interface.
 *
 * This header gives the PMIx v4 data model: the scalar typedefs and their
 * values, the datatype identifiers, the public structures and the callback
 * signatures. Its layout is binary-identical to OpenPMIx 4.2.2's, so a
 * program built against either library runs against the other; the text is
 * drover's own.
 *
 * What lives elsewhere:
 *  - pmix_constants.h (generated from src/common/tables) defines every
 *    status code and every attribute key string;
 *  - pmix_deprecated.h keeps names retired by the standard;
 *  - pmix_macros.h holds the function-like convenience macros and the
 *    static inline helpers (PMIX_INFO_LOAD, PMIX_*_CREATE, pmix_argv_*...);
 *  - pmix.h, pmix_server.h and pmix_tool.h declare the functions.
 */
#ifndef PMIx_COMMON_H
#define PMIx_COMMON_H

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* The inline environment helpers compare against the process environment,
 * which not every libc declares without feature macros. */
extern char **environ;

/* Symbols of the public API stay visible even though the library is built
 * with hidden visibility by default. */
#define PMIX_HAVE_VISIBILITY 1
#define PMIX_EXPORT __attribute__((visibility("default")))

#include <pmix_version.h>

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* ---- Names of processes --------------------------------------------- */

/* Longest namespace and key, not counting the terminating NUL. */
#define PMIX_MAX_NSLEN 255
#define PMIX_MAX_KEYLEN 511

typedef char pmix_nspace_t[PMIX_MAX_NSLEN + 1];
typedef char pmix_key_t[PMIX_MAX_KEYLEN + 1];

/* A rank within a namespace. The top of the range is reserved for the
 * special values below; every real rank is smaller than PMIX_RANK_VALID. */
typedef uint32_t pmix_rank_t;

/* No particular process: a request for data about the job itself. */
#define PMIX_RANK_UNDEF (UINT32_MAX)
/* Every process of the namespace. */
#define PMIX_RANK_WILDCARD (UINT32_MAX - 1)
/* Every process of the namespace on the caller's node. */
#define PMIX_RANK_LOCAL_NODE (UINT32_MAX - 2)
/* A rank that names nothing; used to mark an unset identifier. */
#define PMIX_RANK_INVALID (UINT32_MAX - 3)
/* The caller's peers (same namespace) on its node. */
#define PMIX_RANK_LOCAL_PEERS (UINT32_MAX - 4)
/* Ranks at or above this value are reserved. */
#define PMIX_RANK_VALID (UINT32_MAX - 50)

/* Data that applies to every application of a job. */
#define PMIX_APP_WILDCARD (UINT32_MAX)

/* Environment variables (their names are also their values) through which
 * a launcher and a tool find each other, and the pipe whose closing tells a
 * child that its parent has gone. */
#define PMIX_LAUNCHER_RNDZ_URI "PMIX_LAUNCHER_RNDZ_URI"
#define PMIX_LAUNCHER_RNDZ_FILE "PMIX_LAUNCHER_RNDZ_FILE"
#define PMIX_KEEPALIVE_PIPE "PMIX_KEEPALIVE_PIPE"

/* ---- Status codes and attribute keys --------------------------------- */

/* Zero means success and every error is negative. */
typedef int pmix_status_t;

#include <pmix_constants.h>

/* ---- Process and job states ------------------------------------------ */

typedef uint8_t pmix_proc_state_t;
#define PMIX_PROC_STATE_UNDEF 0
#define PMIX_PROC_STATE_PREPPED 1
#define PMIX_PROC_STATE_LAUNCH_UNDERWAY 2
#define PMIX_PROC_STATE_RESTART 3
#define PMIX_PROC_STATE_TERMINATE 4
#define PMIX_PROC_STATE_RUNNING 5
#define PMIX_PROC_STATE_CONNECTED 6
/* States below this one mean the process has not terminated. */
#define PMIX_PROC_STATE_UNTERMINATED 15
#define PMIX_PROC_STATE_TERMINATED 20
/* States from here up describe an abnormal end. */
#define PMIX_PROC_STATE_ERROR 50
#define PMIX_PROC_STATE_KILLED_BY_CMD (PMIX_PROC_STATE_ERROR + 1)
#define PMIX_PROC_STATE_ABORTED (PMIX_PROC_STATE_ERROR + 2)
#define PMIX_PROC_STATE_FAILED_TO_START (PMIX_PROC_STATE_ERROR + 3)
#define PMIX_PROC_STATE_ABORTED_BY_SIG (PMIX_PROC_STATE_ERROR + 4)
#define PMIX_PROC_STATE_TERM_WO_SYNC (PMIX_PROC_STATE_ERROR + 5)
#define PMIX_PROC_STATE_COMM_FAILED (PMIX_PROC_STATE_ERROR + 6)
#define PMIX_PROC_STATE_SENSOR_BOUND_EXCEEDED (PMIX_PROC_STATE_ERROR + 7)
#define PMIX_PROC_STATE_CALLED_ABORT (PMIX_PROC_STATE_ERROR + 8)
#define PMIX_PROC_STATE_HEARTBEAT_FAILED (PMIX_PROC_STATE_ERROR + 9)
#define PMIX_PROC_STATE_MIGRATING (PMIX_PROC_STATE_ERROR + 10)
#define PMIX_PROC_STATE_CANNOT_RESTART (PMIX_PROC_STATE_ERROR + 11)
#define PMIX_PROC_STATE_TERM_NON_ZERO (PMIX_PROC_STATE_ERROR + 12)
#define PMIX_PROC_STATE_FAILED_TO_LAUNCH (PMIX_PROC_STATE_ERROR + 13)

typedef uint8_t pmix_job_state_t;
#define PMIX_JOB_STATE_UNDEF 0
#define PMIX_JOB_STATE_AWAITING_ALLOC 1
#define PMIX_JOB_STATE_LAUNCH_UNDERWAY 2
#define PMIX_JOB_STATE_RUNNING 3
#define PMIX_JOB_STATE_SUSPENDED 4
#define PMIX_JOB_STATE_CONNECTED 5
/* States below this one mean the job is still alive. */
#define PMIX_JOB_STATE_UNTERMINATED 15
#define PMIX_JOB_STATE_TERMINATED 20
#define PMIX_JOB_STATE_TERMINATED_WITH_ERROR 50

/* ---- Comparisons ------------------------------------------------------ */

/* Result of PMIx_Value_compare and of a datatype's compare function. */
typedef enum {
    PMIX_EQUAL,
    PMIX_VALUE1_GREATER,
    PMIX_VALUE2_GREATER,
    PMIX_VALUE_TYPE_DIFFERENT,
    PMIX_VALUE_INCOMPATIBLE_OBJECTS,
    PMIX_VALUE_COMPARISON_NOT_AVAIL
} pmix_value_cmp_t;

/* ---- Datatype identifiers -------------------------------------------- */

/* Names the type held by a pmix_value_t, a pmix_data_array_t or a packed
 * buffer. The ids are wire values: they never change meaning. */
typedef uint16_t pmix_data_type_t;
#define PMIX_UNDEF 0
#define PMIX_BOOL 1
#define PMIX_BYTE 2
#define PMIX_STRING 3
#define PMIX_SIZE 4
#define PMIX_PID 5
#define PMIX_INT 6
#define PMIX_INT8 7
#define PMIX_INT16 8
#define PMIX_INT32 9
#define PMIX_INT64 10
#define PMIX_UINT 11
#define PMIX_UINT8 12
#define PMIX_UINT16 13
#define PMIX_UINT32 14
#define PMIX_UINT64 15
#define PMIX_FLOAT 16
#define PMIX_DOUBLE 17
#define PMIX_TIMEVAL 18
#define PMIX_TIME 19
/* A pmix_status_t, kept apart from PMIX_INT so it can be printed by name. */
#define PMIX_STATUS 20
#define PMIX_VALUE 21
#define PMIX_PROC 22
#define PMIX_APP 23
#define PMIX_INFO 24
#define PMIX_PDATA 25
/* 26 was the retired PMIX_BUFFER (see pmix_deprecated.h). */
#define PMIX_BYTE_OBJECT 27
#define PMIX_KVAL 28
/* 29 is unused. */
#define PMIX_PERSIST 30
#define PMIX_POINTER 31
#define PMIX_SCOPE 32
#define PMIX_DATA_RANGE 33
#define PMIX_COMMAND 34
#define PMIX_INFO_DIRECTIVES 35
#define PMIX_DATA_TYPE 36
#define PMIX_PROC_STATE 37
#define PMIX_PROC_INFO 38
#define PMIX_DATA_ARRAY 39
#define PMIX_PROC_RANK 40
#define PMIX_QUERY 41
/* A string held compressed, as a byte object. */
#define PMIX_COMPRESSED_STRING 42
#define PMIX_ALLOC_DIRECTIVE 43
/* 44 is unused. */
#define PMIX_IOF_CHANNEL 45
#define PMIX_ENVAR 46
#define PMIX_COORD 47
#define PMIX_REGATTR 48
#define PMIX_REGEX 49
#define PMIX_JOB_STATE 50
#define PMIX_LINK_STATE 51
#define PMIX_PROC_CPUSET 52
#define PMIX_GEOMETRY 53
#define PMIX_DEVICE_DIST 54
#define PMIX_ENDPOINT 55
#define PMIX_TOPO 56
#define PMIX_DEVTYPE 57
#define PMIX_LOCTYPE 58
#define PMIX_COMPRESSED_BYTE_OBJECT 59
#define PMIX_PROC_NSPACE 60
#define PMIX_PROC_STATS 61
#define PMIX_DISK_STATS 62
#define PMIX_NET_STATS 63
#define PMIX_NODE_STATS 64
#define PMIX_DATA_BUFFER 65
#define PMIX_STOR_MEDIUM 66
#define PMIX_STOR_ACCESS 67
#define PMIX_STOR_PERSIST 68
#define PMIX_STOR_ACCESS_TYPE 69
/* Ids from here up are free for implementations (drover's registered
 * types start at DROVER_DATATYPE_USER_MIN). */
#define PMIX_DATA_TYPE_MAX 500

/* ---- Small enumerations ---------------------------------------------- */

/* Who may see data a process puts. */
typedef uint8_t pmix_scope_t;
#define PMIX_SCOPE_UNDEF 0
#define PMIX_LOCAL 1    /* processes on the same node */
#define PMIX_REMOTE 2   /* processes on other nodes */
#define PMIX_GLOBAL 3   /* everyone */
#define PMIX_INTERNAL 4 /* the local library's own store only */

/* Who may see published data or receive an event. */
typedef uint8_t pmix_data_range_t;
#define PMIX_RANGE_UNDEF 0
#define PMIX_RANGE_RM 1         /* the host resource manager */
#define PMIX_RANGE_LOCAL 2      /* the local node */
#define PMIX_RANGE_NAMESPACE 3  /* the publisher's namespace */
#define PMIX_RANGE_SESSION 4    /* the publisher's session */
#define PMIX_RANGE_GLOBAL 5     /* everyone */
#define PMIX_RANGE_CUSTOM 6     /* the processes listed alongside */
#define PMIX_RANGE_PROC_LOCAL 7 /* the calling process only */
#define PMIX_RANGE_INVALID UINT8_MAX

/* How long published data is retained. */
typedef uint8_t pmix_persistence_t;
#define PMIX_PERSIST_INDEF 0      /* until deleted */
#define PMIX_PERSIST_FIRST_READ 1 /* until first looked up */
#define PMIX_PERSIST_PROC 2       /* until the publisher ends */
#define PMIX_PERSIST_APP 3        /* until the application ends */
#define PMIX_PERSIST_SESSION 4    /* until the session ends */
#define PMIX_PERSIST_INVALID UINT8_MAX

/* Flags carried by a pmix_info_t. */
typedef uint32_t pmix_info_directives_t;
#define PMIX_INFO_REQD 0x00000001           /* the receiver must honour it */
#define PMIX_INFO_ARRAY_END 0x00000002      /* last element of an array */
#define PMIX_INFO_REQD_PROCESSED 0x00000004 /* a required entry was handled */
#define PMIX_INFO_QUALIFIER 0x00000008      /* qualifies the entry before it */
#define PMIX_INFO_PERSISTENT 0x00000010     /* destruct leaves the value alone */
/* The upper half is for the implementation's own use. */
#define PMIX_INFO_DIR_RESERVED 0xffff0000

/* What an allocation request asks for. */
typedef uint8_t pmix_alloc_directive_t;
#define PMIX_ALLOC_NEW 1       /* a separate new allocation */
#define PMIX_ALLOC_EXTEND 2    /* more time or resources for this one */
#define PMIX_ALLOC_RELEASE 3   /* give part of this one back */
#define PMIX_ALLOC_REAQUIRE 4  /* take back resources lent earlier */
/* Values from here up are the implementation's own. */
#define PMIX_ALLOC_EXTERNAL 128

/* Bit mask of forwarded I/O streams. */
typedef uint16_t pmix_iof_channel_t;
#define PMIX_FWD_NO_CHANNELS 0x0000
#define PMIX_FWD_STDIN_CHANNEL 0x0001
#define PMIX_FWD_STDOUT_CHANNEL 0x0002
#define PMIX_FWD_STDERR_CHANNEL 0x0004
#define PMIX_FWD_STDDIAG_CHANNEL 0x0008
#define PMIX_FWD_ALL_CHANNELS 0x00ff

/* A process's answer to a group invitation. */
typedef enum {
    PMIX_GROUP_DECLINE,
    PMIX_GROUP_ACCEPT
} pmix_group_opt_t;

typedef enum {
    PMIX_GROUP_CONSTRUCT,
    PMIX_GROUP_DESTRUCT
} pmix_group_operation_t;

/* Storage descriptions: each is a bit mask so a query can name several. */
typedef uint64_t pmix_storage_medium_t;
#define PMIX_STORAGE_MEDIUM_UNKNOWN 0x0000000000000001
#define PMIX_STORAGE_MEDIUM_TAPE 0x0000000000000002
#define PMIX_STORAGE_MEDIUM_HDD 0x0000000000000004
#define PMIX_STORAGE_MEDIUM_SSD 0x0000000000000008
#define PMIX_STORAGE_MEDIUM_NVME 0x0000000000000010
#define PMIX_STORAGE_MEDIUM_PMEM 0x0000000000000020
#define PMIX_STORAGE_MEDIUM_RAM 0x0000000000000040

typedef uint64_t pmix_storage_accessibility_t;
#define PMIX_STORAGE_ACCESSIBILITY_NODE 0x0000000000000001
#define PMIX_STORAGE_ACCESSIBILITY_SESSION 0x0000000000000002
#define PMIX_STORAGE_ACCESSIBILITY_JOB 0x0000000000000004
#define PMIX_STORAGE_ACCESSIBILITY_RACK 0x0000000000000008
#define PMIX_STORAGE_ACCESSIBILITY_CLUSTER 0x0000000000000010
#define PMIX_STORAGE_ACCESSIBILITY_REMOTE 0x0000000000000020

typedef uint64_t pmix_storage_persistence_t;
#define PMIX_STORAGE_PERSISTENCE_TEMPORARY 0x0000000000000001
#define PMIX_STORAGE_PERSISTENCE_NODE 0x0000000000000002
#define PMIX_STORAGE_PERSISTENCE_SESSION 0x0000000000000004
#define PMIX_STORAGE_PERSISTENCE_JOB 0x0000000000000008
#define PMIX_STORAGE_PERSISTENCE_SCRATCH 0x0000000000000010
#define PMIX_STORAGE_PERSISTENCE_PROJECT 0x0000000000000020
#define PMIX_STORAGE_PERSISTENCE_ARCHIVE 0x0000000000000040

typedef uint16_t pmix_storage_access_type_t;
#define PMIX_STORAGE_ACCESS_RD 0x0001
#define PMIX_STORAGE_ACCESS_WR 0x0002
#define PMIX_STORAGE_ACCESS_RDWR 0x0003

/* Which numbering a fabric coordinate uses. */
typedef uint8_t pmix_coord_view_t;
#define PMIX_COORD_VIEW_UNDEF 0x00
#define PMIX_COORD_LOGICAL_VIEW 0x01
#define PMIX_COORD_PHYSICAL_VIEW 0x02

/* State of a fabric port. */
typedef uint8_t pmix_link_state_t;
#define PMIX_LINK_STATE_UNKNOWN 0
#define PMIX_LINK_DOWN 1
#define PMIX_LINK_UP 2

/* Whether a binding applies to the whole process or the calling thread. */
typedef uint8_t pmix_bind_envelope_t;
#define PMIX_CPUBIND_PROCESS 0
#define PMIX_CPUBIND_THREAD 1

/* How close two processes are: a bit mask of the hardware they share, or
 * PMIX_LOCALITY_NONLOCAL when they are on different nodes. */
typedef uint16_t pmix_locality_t;
#define PMIX_LOCALITY_UNKNOWN 0x0000
#define PMIX_LOCALITY_SHARE_HWTHREAD 0x0001
#define PMIX_LOCALITY_SHARE_CORE 0x0002
#define PMIX_LOCALITY_SHARE_L1CACHE 0x0004
#define PMIX_LOCALITY_SHARE_L2CACHE 0x0008
#define PMIX_LOCALITY_SHARE_L3CACHE 0x0010
#define PMIX_LOCALITY_SHARE_PACKAGE 0x0020
#define PMIX_LOCALITY_SHARE_NUMA 0x0040
#define PMIX_LOCALITY_SHARE_NODE 0x4000
#define PMIX_LOCALITY_NONLOCAL 0x8000

/* Kind of device, as a bit mask. */
typedef uint64_t pmix_device_type_t;
#define PMIX_DEVTYPE_UNKNOWN 0x00
#define PMIX_DEVTYPE_BLOCK 0x01
#define PMIX_DEVTYPE_GPU 0x02
#define PMIX_DEVTYPE_NETWORK 0x04
#define PMIX_DEVTYPE_OPENFABRICS 0x08
#define PMIX_DEVTYPE_DMA 0x10
#define PMIX_DEVTYPE_COPROC 0x20

/* ---- Structures ------------------------------------------------------- */

/* Each structure's layout is part of the ABI: members are never reordered,
 * resized or added. Who owns the memory a member points to is stated where
 * a structure is filled (the functions and the pmix_macros.h helpers). */

/* A process: its namespace and its rank within it. */
typedef struct pmix_proc {
    pmix_nspace_t nspace;
    pmix_rank_t rank;
} pmix_proc_t;

/* What a launcher knows about one process. */
typedef struct pmix_proc_info {
    pmix_proc_t proc;
    char *hostname;
    char *executable_name;
    pid_t pid;
    int exit_code;
    pmix_proc_state_t state;
} pmix_proc_info_t;

/* An array of size elements of one datatype. The element storage follows
 * the type: a pmix_info_t array for PMIX_INFO, a char * array for
 * PMIX_STRING, and so on. */
typedef struct pmix_data_array {
    pmix_data_type_t type;
    size_t size;
    void *array;
} pmix_data_array_t;

/* A packing buffer. Its members are the library's business: programs use
 * PMIx_Data_pack/unpack and the PMIX_DATA_BUFFER_* helpers. Unpacking reads
 * from unpack_ptr and never past base_ptr + bytes_used. */
typedef struct pmix_data_buffer {
    char *base_ptr;
    char *pack_ptr;
    char *unpack_ptr;
    size_t bytes_allocated;
    size_t bytes_used;
} pmix_data_buffer_t;

/* An opaque run of bytes. */
typedef struct pmix_byte_object {
    char *bytes;
    size_t size;
} pmix_byte_object_t;

/* A change to an environment variable: set envar to value, or, for the
 * prepend and append directives, join value to the old one with separator. */
typedef struct {
    char *envar;
    char *value;
    char separator;
} pmix_envar_t;

/* A position in a fabric: dims coordinates in the given view. */
typedef struct pmix_coord {
    pmix_coord_view_t view;
    uint32_t *coord;
    size_t dims;
} pmix_coord_t;

/* A set of processing units. source names the library that made bitmap
 * ("hwloc" for drover), which points to that library's own object. */
typedef struct {
    char *source;
    void *bitmap;
} pmix_cpuset_t;

/* A hardware topology, described the same way as a cpuset. */
typedef struct {
    char *source;
    void *topology;
} pmix_topology_t;

/* A fabric device's place: the fabric's index, the device's identifiers
 * and its coordinates in each view. */
typedef struct pmix_geometry {
    size_t fabric;
    char *uuid;
    char *osname;
    pmix_coord_t *coordinates;
    size_t ncoords;
} pmix_geometry_t;

/* Distance from a process to a device, in the topology's own units. */
typedef struct pmix_device_distance {
    char *uuid;
    char *osname;
    pmix_device_type_t type;
    uint16_t mindist;
    uint16_t maxdist;
} pmix_device_distance_t;

/* A fabric endpoint of a device. */
typedef struct pmix_endpoint {
    char *uuid;
    char *osname;
    pmix_byte_object_t endpt;
} pmix_endpoint_t;

/* One sample of a process's resource use. Sizes are in megabytes. */
typedef struct pmix_proc_stats {
    char *node;
    pmix_proc_t proc;
    pid_t pid;
    char *cmd;
    char state;
    struct timeval time;
    float percent_cpu;
    int32_t priority;
    uint16_t num_threads;
    float pss;
    float vsize;
    float rss;
    float peak_vsize;
    uint16_t processor;
    struct timeval sample_time;
} pmix_proc_stats_t;

/* One sample of a disk's counters, as the kernel reports them. */
typedef struct {
    char *disk;
    uint64_t num_reads_completed;
    uint64_t num_reads_merged;
    uint64_t num_sectors_read;
    uint64_t milliseconds_reading;
    uint64_t num_writes_completed;
    uint64_t num_writes_merged;
    uint64_t num_sectors_written;
    uint64_t milliseconds_writing;
    uint64_t num_ios_in_progress;
    uint64_t milliseconds_io;
    uint64_t weighted_milliseconds_io;
} pmix_disk_stats_t;

/* One sample of a network interface's counters. */
typedef struct {
    char *net_interface;
    uint64_t num_bytes_recvd;
    uint64_t num_packets_recvd;
    uint64_t num_recv_errs;
    uint64_t num_bytes_sent;
    uint64_t num_packets_sent;
    uint64_t num_send_errs;
} pmix_net_stats_t;

/* One sample of a node: load averages over 1, 5 and 15 minutes, memory in
 * megabytes, and the per-disk and per-interface samples it owns. */
typedef struct {
    char *node;
    float la;
    float la5;
    float la15;
    float total_mem;
    float free_mem;
    float buffers;
    float cached;
    float swap_cached;
    float swap_total;
    float swap_free;
    float mapped;
    struct timeval sample_time;
    pmix_disk_stats_t *diskstats;
    size_t ndiskstats;
    pmix_net_stats_t *netstats;
    size_t nnetstats;
} pmix_node_stats_t;

/* A typed value. type selects the member of data that is in use; types
 * without a member of their own are reached through ptr (see
 * DROVER_DATATYPE_VALUE_INLINE in drover.h for which are held inline). */
typedef struct pmix_value {
    pmix_data_type_t type;
    union {
        bool flag;
        uint8_t byte;
        char *string;
        size_t size;
        pid_t pid;
        int integer;
        int8_t int8;
        int16_t int16;
        int32_t int32;
        int64_t int64;
        unsigned int uint;
        uint8_t uint8;
        uint16_t uint16;
        uint32_t uint32;
        uint64_t uint64;
        float fval;
        double dval;
        struct timeval tv;
        time_t time;
        pmix_status_t status;
        pmix_rank_t rank;
        pmix_nspace_t *nspace;
        pmix_proc_t *proc;
        pmix_byte_object_t bo;
        pmix_persistence_t persist;
        pmix_scope_t scope;
        pmix_data_range_t range;
        pmix_proc_state_t state;
        pmix_proc_info_t *pinfo;
        pmix_data_array_t *darray;
        void *ptr;
        pmix_alloc_directive_t adir;
        pmix_envar_t envar;
        pmix_coord_t *coord;
        pmix_link_state_t linkstate;
        pmix_job_state_t jstate;
        pmix_topology_t *topo;
        pmix_cpuset_t *cpuset;
        pmix_locality_t locality;
        pmix_geometry_t *geometry;
        pmix_device_type_t devtype;
        pmix_device_distance_t *devdist;
        pmix_endpoint_t *endpoint;
        pmix_data_buffer_t *dbuf;
        pmix_proc_stats_t *pstats;
        pmix_disk_stats_t *dkstats;
        pmix_net_stats_t *netstats;
        pmix_node_stats_t *ndstats;
    } data;
} pmix_value_t;

/* A key, its flags (PMIX_INFO_*) and its value: the currency of nearly
 * every call. */
typedef struct pmix_info {
    pmix_key_t key;
    pmix_info_directives_t flags;
    pmix_value_t value;
} pmix_info_t;

/* Whether a pmix_value_t reads as true, as false, or not as a boolean at
 * all (the answer of pmix_check_true in pmix_macros.h). */
typedef enum {
    PMIX_BOOL_TRUE,
    PMIX_BOOL_FALSE,
    PMIX_NON_BOOL
} pmix_boolean_t;

/* A published datum: who published it, its key and its value. */
typedef struct pmix_pdata {
    pmix_proc_t proc;
    pmix_key_t key;
    pmix_value_t value;
} pmix_pdata_t;

/* One application of a spawn request: argv and env are NULL-terminated. */
typedef struct pmix_app {
    char *cmd;
    char **argv;
    char **env;
    char *cwd;
    int maxprocs;
    pmix_info_t *info;
    size_t ninfo;
} pmix_app_t;

/* One query: a NULL-terminated list of keys and the qualifiers that narrow
 * them. */
typedef struct pmix_query {
    char **keys;
    pmix_info_t *qualifiers;
    size_t nqual;
} pmix_query_t;

/* The registration of an attribute: its name ("PMIX_..."), key string,
 * value type and a NULL-terminated list of description lines. */
typedef struct pmix_regattr_t {
    char *name;
    pmix_key_t string;
    pmix_data_type_t type;
    char **description;
} pmix_regattr_t;

/* A fabric a program registered with PMIx_Fabric_register: name is the
 * caller's, the rest is filled and owned by the library (module is its
 * private handle). */
typedef struct pmix_fabric_s {
    char *name;
    size_t index;
    pmix_info_t *info;
    size_t ninfo;
    void *module;
} pmix_fabric_t;

typedef enum {
    PMIX_FABRIC_REQUEST_INFO,
    PMIX_FABRIC_UPDATE_INFO
} pmix_fabric_operation_t;

/* ---- Callbacks -------------------------------------------------------- */

/* Unless a callback says otherwise, what it is handed is borrowed: valid
 * until the callback returns. A callback handed a non-NULL release_fn calls
 * release_fn(release_cbdata) once it is done with the data, which may be
 * after it has returned. */

/* Frees data handed out with a callback. */
typedef void (*pmix_release_cbfunc_t)(void *cbdata);

/* Completes a server's request for a process's modex data. */
typedef void (*pmix_modex_cbfunc_t)(pmix_status_t status, const char *data, size_t ndata,
                                    void *cbdata, pmix_release_cbfunc_t release_fn,
                                    void *release_cbdata);

/* Completes PMIx_Spawn_nb with the namespace of the new job. */
typedef void (*pmix_spawn_cbfunc_t)(pmix_status_t status, pmix_nspace_t nspace, void *cbdata);

/* Completes an operation whose only result is its status. */
typedef void (*pmix_op_cbfunc_t)(pmix_status_t status, void *cbdata);

/* Completes PMIx_Lookup_nb with the data found. */
typedef void (*pmix_lookup_cbfunc_t)(pmix_status_t status, pmix_pdata_t data[], size_t ndata,
                                     void *cbdata);

/* Called by an event handler when it has finished, so the next handler in
 * the chain can run. results stay the handler's: they are shown to the
 * later handlers, and cbfunc(status, thiscbdata), when not NULL, tells the
 * handler when the library no longer needs them. */
typedef void (*pmix_event_notification_cbfunc_fn_t)(pmix_status_t status, pmix_info_t *results,
                                                    size_t nresults, pmix_op_cbfunc_t cbfunc,
                                                    void *thiscbdata,
                                                    void *notification_cbdata);

/* An event handler. It must eventually call cbfunc(…, cbdata) exactly once,
 * returning PMIX_EVENT_ACTION_COMPLETE when no later handler need run. */
typedef void (*pmix_notification_fn_t)(size_t evhdlr_registration_id, pmix_status_t status,
                                       const pmix_proc_t *source, pmix_info_t info[],
                                       size_t ninfo, pmix_info_t *results, size_t nresults,
                                       pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata);

/* Completes the registration of a handler with the id that later removes
 * it. */
typedef void (*pmix_hdlr_reg_cbfunc_t)(pmix_status_t status, size_t refid, void *cbdata);
/* The older name of the same signature. */
typedef void (*pmix_evhdlr_reg_cbfunc_t)(pmix_status_t status, size_t refid, void *cbdata);

/* Completes PMIx_Get_nb: kv is NULL when nothing was found. */
typedef void (*pmix_value_cbfunc_t)(pmix_status_t status, pmix_value_t *kv, void *cbdata);

/* Delivers an array of results (queries, allocations, job control...). */
typedef void (*pmix_info_cbfunc_t)(pmix_status_t status, pmix_info_t *info, size_t ninfo,
                                   void *cbdata, pmix_release_cbfunc_t release_fn,
                                   void *release_cbdata);

/* Delivers a credential; the receiver owns *credential from then on. */
typedef void (*pmix_credential_cbfunc_t)(pmix_status_t status, pmix_byte_object_t *credential,
                                         pmix_info_t info[], size_t ninfo, void *cbdata);

/* Says whether a credential is valid; info describes its holder. */
typedef void (*pmix_validation_cbfunc_t)(pmix_status_t status, pmix_info_t info[], size_t ninfo,
                                         void *cbdata);

/* Delivers the distances from a process to devices. */
typedef void (*pmix_device_dist_cbfunc_t)(pmix_status_t status, pmix_device_distance_t *dist,
                                          size_t ndist, void *cbdata,
                                          pmix_release_cbfunc_t release_fn,
                                          void *release_cbdata);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#include <pmix_deprecated.h>
#include <pmix_macros.h>

#endif /* PMIx_COMMON_H */
