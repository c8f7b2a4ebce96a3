/*
 * proc.c - the datatypes that name, launch and ask about processes:
 * PMIX_PROC, PMIX_PROC_INFO, PMIX_APP, PMIX_ENVAR, PMIX_QUERY and
 * PMIX_REGATTR.
 *
 * Design notes:
 *  - Each is a table of members (fields.h), every member a registered
 *    type, so a proc travels as a PMIX_PROC_NSPACE then a PMIX_PROC_RANK,
 *    and a proc info starts with a whole PMIX_PROC.
 *  - An app owns cmd, cwd, the argv and env arrays (NULL-terminated, NULL
 *    and empty being the same) and its info array of ninfo entries.
 *  - A query owns its NULL-terminated keys and its nqual qualifiers; a
 *    registered attribute owns its name and its description lines, its
 *    key being a pmix_key_t inside it.
 *  - PMIX_ENVAR is the one struct here stored inside pmix_value_t.data
 *    (the envar member of the union), hence its INLINE flag.
 */
#include "fields.h"

static const fields_field_t proc_fields[] = {
    FIELDS_MEMBER(pmix_proc_t, nspace, PMIX_PROC_NSPACE),
    FIELDS_MEMBER(pmix_proc_t, rank, PMIX_PROC_RANK),
};
static const fields_layout_t proc_layout = FIELDS_LAYOUT(pmix_proc_t, proc_fields);
FIELDS_DATATYPE(proc, PMIX_PROC, pmix_proc_t, 8, 0, proc_layout)

static const fields_field_t proc_info_fields[] = {
    FIELDS_MEMBER(pmix_proc_info_t, proc, PMIX_PROC),
    FIELDS_MEMBER(pmix_proc_info_t, hostname, PMIX_STRING),
    FIELDS_MEMBER(pmix_proc_info_t, executable_name, PMIX_STRING),
    FIELDS_MEMBER(pmix_proc_info_t, pid, PMIX_PID),
    FIELDS_MEMBER(pmix_proc_info_t, exit_code, PMIX_INT),
    FIELDS_MEMBER(pmix_proc_info_t, state, PMIX_PROC_STATE),
};
static const fields_layout_t proc_info_layout = FIELDS_LAYOUT(pmix_proc_info_t, proc_info_fields);
FIELDS_DATATYPE(proc_info, PMIX_PROC_INFO, pmix_proc_info_t, 25, 0, proc_info_layout)

static const fields_field_t app_fields[] = {
    FIELDS_MEMBER(pmix_app_t, cmd, PMIX_STRING),
    FIELDS_ARGV_MEMBER(pmix_app_t, argv),
    FIELDS_ARGV_MEMBER(pmix_app_t, env),
    FIELDS_MEMBER(pmix_app_t, cwd, PMIX_STRING),
    FIELDS_MEMBER(pmix_app_t, maxprocs, PMIX_INT),
    FIELDS_ARRAY_MEMBER(pmix_app_t, info, ninfo, PMIX_INFO),
};
static const fields_layout_t app_layout = FIELDS_LAYOUT(pmix_app_t, app_fields);
FIELDS_DATATYPE(app, PMIX_APP, pmix_app_t, 24, 0, app_layout)

static const fields_field_t envar_fields[] = {
    FIELDS_MEMBER(pmix_envar_t, envar, PMIX_STRING),
    FIELDS_MEMBER(pmix_envar_t, value, PMIX_STRING),
    FIELDS_MEMBER(pmix_envar_t, separator, PMIX_BYTE),
};
static const fields_layout_t envar_layout = FIELDS_LAYOUT(pmix_envar_t, envar_fields);
FIELDS_DATATYPE(envar, PMIX_ENVAR, pmix_envar_t, 9, DROVER_DATATYPE_VALUE_INLINE, envar_layout)

static const fields_field_t query_fields[] = {
    FIELDS_ARGV_MEMBER(pmix_query_t, keys),
    FIELDS_ARRAY_MEMBER(pmix_query_t, qualifiers, nqual, PMIX_INFO),
};
static const fields_layout_t query_layout = FIELDS_LAYOUT(pmix_query_t, query_fields);
FIELDS_DATATYPE(query, PMIX_QUERY, pmix_query_t, 8, 0, query_layout)

static const fields_field_t regattr_fields[] = {
    FIELDS_MEMBER(pmix_regattr_t, name, PMIX_STRING),
    FIELDS_KEY_MEMBER(pmix_regattr_t, string),
    FIELDS_MEMBER(pmix_regattr_t, type, PMIX_DATA_TYPE),
    FIELDS_ARGV_MEMBER(pmix_regattr_t, description),
};
static const fields_layout_t regattr_layout = FIELDS_LAYOUT(pmix_regattr_t, regattr_fields);
FIELDS_DATATYPE(regattr, PMIX_REGATTR, pmix_regattr_t, 14, 0, regattr_layout)
