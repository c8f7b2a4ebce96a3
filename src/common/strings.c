/*
 * strings.c - printable names of PMIx enumerations, and text for values
 * and infos.
 *
 * Each PMIx_*_string function looks its argument up in a small table of
 * {value, text}; a value missing from the table gets the function's
 * fallback text, never NULL. The texts are the ones OpenPMIx 4.2.2 prints,
 * so logs and tools that match on them read the same with either library.
 *
 * Design notes:
 *  - The returned strings of the enumeration functions are constants the
 *    caller must not free. PMIx_Info_directives_string, PMIx_Info_string
 *    and PMIx_Value_string return text the caller frees with free().
 *  - PMIx_IOF_channel_string names a set of channels. OpenPMIx assembles
 *    that text in a static buffer shared by all callers; here every
 *    combination of the four channel bits has its own constant, so the
 *    function is thread-safe and the text stays valid.
 *  - PMIx_Info_string and PMIx_Value_string render through the datatype
 *    registry (bfrops_print), so they need no PMIx_Init and know every
 *    registered type.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "pmix.h"

/* One entry of a value-to-text table. */
typedef struct name_entry {
    uint64_t value;
    const char *text;
} name_entry_t;

#define NAMES_COUNT(table) (sizeof(table) / sizeof((table)[0]))

/* The text for value in table, or fallback when it has none. */
static const char *name_lookup(const name_entry_t *table, size_t n, uint64_t value,
                               const char *fallback)
{
    for (size_t i = 0; i < n; i++) {
        if (table[i].value == value) {
            return table[i].text;
        }
    }
    return fallback;
}

static const name_entry_t proc_states[] = {
    {PMIX_PROC_STATE_UNDEF, "UNDEFINED"},
    {PMIX_PROC_STATE_PREPPED, "PREPPED FOR LAUNCH"},
    {PMIX_PROC_STATE_LAUNCH_UNDERWAY, "LAUNCH UNDERWAY"},
    {PMIX_PROC_STATE_RESTART, "PROC READY FOR RESTART"},
    {PMIX_PROC_STATE_TERMINATE, "PROC MARKED FOR TERMINATION"},
    {PMIX_PROC_STATE_RUNNING, "PROC EXECUTING"},
    {PMIX_PROC_STATE_CONNECTED, "PROC HAS CONNECTED TO LOCAL PMIX SERVER"},
    {PMIX_PROC_STATE_UNTERMINATED, "PROC HAS NOT TERMINATED"},
    {PMIX_PROC_STATE_TERMINATED, "PROC HAS TERMINATED"},
    {PMIX_PROC_STATE_ERROR, "PROC ERROR"},
    {PMIX_PROC_STATE_KILLED_BY_CMD, "PROC KILLED BY CMD"},
    {PMIX_PROC_STATE_ABORTED, "PROC ABNORMALLY ABORTED"},
    {PMIX_PROC_STATE_FAILED_TO_START, "PROC FAILED TO START"},
    {PMIX_PROC_STATE_ABORTED_BY_SIG, "PROC ABORTED BY SIGNAL"},
    {PMIX_PROC_STATE_TERM_WO_SYNC, "PROC TERMINATED WITHOUT CALLING PMIx_Finalize"},
    {PMIX_PROC_STATE_COMM_FAILED, "PROC LOST COMMUNICATION"},
    {PMIX_PROC_STATE_SENSOR_BOUND_EXCEEDED, "PROC SENSOR BOUND EXCEEDED"},
    {PMIX_PROC_STATE_CALLED_ABORT, "PROC CALLED PMIx_Abort"},
    {PMIX_PROC_STATE_HEARTBEAT_FAILED, "PROC FAILED TO REPORT HEARTBEAT"},
    {PMIX_PROC_STATE_MIGRATING, "PROC WAITING TO MIGRATE"},
    {PMIX_PROC_STATE_CANNOT_RESTART, "PROC CANNOT BE RESTARTED"},
    {PMIX_PROC_STATE_TERM_NON_ZERO, "PROC TERMINATED WITH NON-ZERO STATUS"},
    {PMIX_PROC_STATE_FAILED_TO_LAUNCH, "PROC FAILED TO LAUNCH"},
};

PMIX_EXPORT const char *PMIx_Proc_state_string(pmix_proc_state_t state)
{
    return name_lookup(proc_states, NAMES_COUNT(proc_states), state, "UNKNOWN STATE");
}

static const name_entry_t scopes[] = {
    {PMIX_SCOPE_UNDEF, "UNDEFINED"},
    {PMIX_LOCAL, "SHARE ON LOCAL NODE ONLY"},
    {PMIX_REMOTE, "SHARE ON REMOTE NODES ONLY"},
    {PMIX_GLOBAL, "SHARE ACROSS ALL NODES"},
    {PMIX_INTERNAL, "STORE INTERNALLY"},
};

PMIX_EXPORT const char *PMIx_Scope_string(pmix_scope_t scope)
{
    return name_lookup(scopes, NAMES_COUNT(scopes), scope, "UNKNOWN SCOPE");
}

static const name_entry_t persistences[] = {
    {PMIX_PERSIST_INDEF, "INDEFINITE"},
    {PMIX_PERSIST_FIRST_READ, "DELETE ON FIRST ACCESS"},
    {PMIX_PERSIST_PROC, "RETAIN UNTIL PUBLISHING PROCESS TERMINATES"},
    {PMIX_PERSIST_APP, "RETAIN UNTIL APPLICATION OF PUBLISHING PROCESS TERMINATES"},
    {PMIX_PERSIST_SESSION, "RETAIN UNTIL ALLOCATION OF PUBLISHING PROCESS TERMINATES"},
    {PMIX_PERSIST_INVALID, "INVALID"},
};

PMIX_EXPORT const char *PMIx_Persistence_string(pmix_persistence_t persist)
{
    return name_lookup(persistences, NAMES_COUNT(persistences), persist, "UNKNOWN PERSISTENCE");
}

static const name_entry_t ranges[] = {
    {PMIX_RANGE_UNDEF, "UNDEFINED"},
    {PMIX_RANGE_RM, "INTENDED FOR HOST RESOURCE MANAGER ONLY"},
    {PMIX_RANGE_LOCAL, "AVAIL ON LOCAL NODE ONLY"},
    {PMIX_RANGE_NAMESPACE, "AVAIL TO PROCESSES IN SAME JOB ONLY"},
    {PMIX_RANGE_SESSION, "AVAIL TO PROCESSES IN SAME ALLOCATION ONLY"},
    {PMIX_RANGE_GLOBAL, "AVAIL TO ANYONE WITH AUTHORIZATION"},
    {PMIX_RANGE_CUSTOM, "AVAIL AS SPECIFIED IN DIRECTIVES"},
    {PMIX_RANGE_PROC_LOCAL, "AVAIL ON LOCAL PROC ONLY"},
    {PMIX_RANGE_INVALID, "INVALID"},
};

PMIX_EXPORT const char *PMIx_Data_range_string(pmix_data_range_t range)
{
    return name_lookup(ranges, NAMES_COUNT(ranges), range, "UNKNOWN");
}

static const name_entry_t alloc_directives[] = {
    {PMIX_ALLOC_NEW, "NEW"},
    {PMIX_ALLOC_EXTEND, "EXTEND"},
    {PMIX_ALLOC_RELEASE, "RELEASE"},
    {PMIX_ALLOC_REAQUIRE, "REACQUIRE"},
};

PMIX_EXPORT const char *PMIx_Alloc_directive_string(pmix_alloc_directive_t directive)
{
    return name_lookup(alloc_directives, NAMES_COUNT(alloc_directives), directive,
                       "UNSPECIFIED");
}

/* Value 1 is PMIX_JOB_STATE_AWAITING_ALLOC today; OpenPMIx still prints it
 * under its former name, and so do we. */
static const name_entry_t job_states[] = {
    {PMIX_JOB_STATE_UNDEF, "UNDEFINED"},
    {PMIX_JOB_STATE_AWAITING_ALLOC, "PREPPED FOR LAUNCH"},
    {PMIX_JOB_STATE_LAUNCH_UNDERWAY, "LAUNCHING"},
    {PMIX_JOB_STATE_RUNNING, "RUNNING"},
    {PMIX_JOB_STATE_SUSPENDED, "SUSPENDED"},
    {PMIX_JOB_STATE_CONNECTED, "CONNECTED"},
    {PMIX_JOB_STATE_UNTERMINATED, "UNTERMINATED"},
    {PMIX_JOB_STATE_TERMINATED, "TERMINATED"},
    {PMIX_JOB_STATE_TERMINATED_WITH_ERROR, "TERMINATED WITH ERROR"},
};

PMIX_EXPORT const char *PMIx_Job_state_string(pmix_job_state_t state)
{
    return name_lookup(job_states, NAMES_COUNT(job_states), state, "UNKNOWN");
}

static const name_entry_t link_states[] = {
    {PMIX_LINK_STATE_UNKNOWN, "UNKNOWN"},
    {PMIX_LINK_DOWN, "INACTIVE"},
    {PMIX_LINK_UP, "ACTIVE"},
};

PMIX_EXPORT const char *PMIx_Link_state_string(pmix_link_state_t state)
{
    return name_lookup(link_states, NAMES_COUNT(link_states), state, "UNKNOWN");
}

/* Device types are bits, but a value names one device: a combination of
 * bits is reported as unknown, as OpenPMIx does. */
static const name_entry_t device_types[] = {
    {PMIX_DEVTYPE_UNKNOWN, "UNKNOWN"},
    {PMIX_DEVTYPE_BLOCK, "BLOCK"},
    {PMIX_DEVTYPE_GPU, "GPU"},
    {PMIX_DEVTYPE_NETWORK, "NETWORK"},
    {PMIX_DEVTYPE_OPENFABRICS, "OPENFABRICS"},
    {PMIX_DEVTYPE_DMA, "DMA"},
    {PMIX_DEVTYPE_COPROC, "COPROCESSOR"},
};

PMIX_EXPORT const char *PMIx_Device_type_string(pmix_device_type_t type)
{
    return name_lookup(device_types, NAMES_COUNT(device_types), type, "UNKNOWN");
}

static const name_entry_t comparisons[] = {
    {PMIX_EQUAL, "EQUAL"},
    {PMIX_VALUE1_GREATER, "VALUE1 GREATER"},
    {PMIX_VALUE2_GREATER, "VALUE2 GREATER"},
    {PMIX_VALUE_TYPE_DIFFERENT, "DIFFERENT TYPES"},
    {PMIX_VALUE_INCOMPATIBLE_OBJECTS, "INCOMPATIBLE OBJECTS"},
    {PMIX_VALUE_COMPARISON_NOT_AVAIL, "COMPARISON NOT AVAILABLE"},
};

PMIX_EXPORT const char *PMIx_Value_comparison_string(pmix_value_cmp_t cmp)
{
    /* Through int, so a value outside the enumeration is still compared
     * rather than assumed impossible. */
    int v = (int)cmp;

    if (v < 0) {
        return "UNKNOWN VALUE";
    }
    return name_lookup(comparisons, NAMES_COUNT(comparisons), (uint64_t)v, "UNKNOWN VALUE");
}

/* Indexed by the four channel bits: stdin 1, stdout 2, stderr 4, stddiag 8.
 * Each name is followed by a space, as in OpenPMIx's text. */
static const char *const iof_channel_sets[16] = {
    "NONE",
    "STDIN ",
    "STDOUT ",
    "STDIN STDOUT ",
    "STDERR ",
    "STDIN STDERR ",
    "STDOUT STDERR ",
    "STDIN STDOUT STDERR ",
    "STDDIAG ",
    "STDIN STDDIAG ",
    "STDOUT STDDIAG ",
    "STDIN STDOUT STDDIAG ",
    "STDERR STDDIAG ",
    "STDIN STDERR STDDIAG ",
    "STDOUT STDERR STDDIAG ",
    "STDIN STDOUT STDERR STDDIAG ",
};

PMIX_EXPORT const char *PMIx_IOF_channel_string(pmix_iof_channel_t channel)
{
    return iof_channel_sets[channel & 0xf];
}

/* The directive bits that are named after the required/optional word, in
 * the order they are printed. */
static const name_entry_t directive_flags[] = {
    {PMIX_INFO_REQD_PROCESSED, "PROCESSED"},
    {PMIX_INFO_ARRAY_END, "END"},
};

PMIX_EXPORT char *PMIx_Info_directives_string(pmix_info_directives_t directives)
{
    /* Longest result: "REQUIRED" and every flag, each after a ':'. */
    char text[64];

    /* A qualifier is described by that word alone. */
    if (directives & PMIX_INFO_QUALIFIER) {
        return strdup("QUALIFIER");
    }
    strcpy(text, (directives & PMIX_INFO_REQD) ? "REQUIRED" : "OPTIONAL");
    for (size_t i = 0; i < NAMES_COUNT(directive_flags); i++) {
        if (directives & directive_flags[i].value) {
            strcat(text, ":");
            strcat(text, directive_flags[i].text);
        }
    }
    return strdup(text);
}

PMIX_EXPORT char *PMIx_Info_string(const pmix_info_t *info)
{
    if (NULL == info) {
        return NULL;
    }
    return bfrops_print(info, PMIX_INFO);
}

PMIX_EXPORT char *PMIx_Value_string(const pmix_value_t *value)
{
    if (NULL == value) {
        return NULL;
    }
    return bfrops_print(value, PMIX_VALUE);
}
