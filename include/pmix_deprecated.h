/*
 * pmix_deprecated.h - names the PMIx standard has retired, kept so that
 * older programs still build.
 *
 * Included by pmix_common.h after the types it needs. Retired status codes
 * and attribute keys are generated into pmix_constants.h with the current
 * ones; what remains here is the rest: a retired datatype id, a retired job
 * state, and functions that moved out of the standard API but that
 * OpenPMIx 4.2 still declares (and drover still exports).
 */
#ifndef PMIx_DEPRECATED_H
#define PMIx_DEPRECATED_H

#if defined(c_plusplus) || defined(__cplusplus)
extern "C" {
#endif

/* Datatype id 26 once named the library's internal buffer type;
 * PMIX_DATA_BUFFER (65) took its place. */
#define PMIX_BUFFER 26

/* A retired job state ("ready to launch"); its value now belongs to
 * PMIX_JOB_STATE_AWAITING_ALLOC. */
#define PMIX_JOB_STATE_PREPPED 1

/* Connect a tool to a server; the older form of PMIx_tool_attach_to_server
 * without the server argument. proc, caller's storage or NULL, receives the
 * tool's own identifier; info is borrowed for the duration of the call. */
PMIX_EXPORT pmix_status_t PMIx_tool_connect_to_server(pmix_proc_t *proc, pmix_info_t info[],
                                                      size_t ninfo);

/* ---- Value and info helpers ------------------------------------------- */

/* Store a copy of the element at data (for PMIX_STRING and PMIX_POINTER:
 * the char * / void * itself) of the given type in val, replacing nothing:
 * val must not hold a value. The copy belongs to val and is released by
 * PMIx_Value_destruct. */
PMIX_EXPORT pmix_status_t PMIx_Value_load(pmix_value_t *val, const void *data,
                                          pmix_data_type_t type);

/* Copy val's content out. Scalars are written to the storage *data points
 * to; strings, byte objects and structured types are returned in a new
 * allocation stored in *data, which the caller frees. *sz receives the
 * size of what was written. val keeps its own content. */
PMIX_EXPORT pmix_status_t PMIx_Value_unload(pmix_value_t *val, void **data, size_t *sz);

/* Free what val owns and reset it to PMIX_UNDEF; the pmix_value_t itself
 * is the caller's. */
PMIX_EXPORT void PMIx_Value_destruct(pmix_value_t *val);

/* Deep-copy src into dest, which must not hold a value; dest owns the copy
 * (free with PMIx_Value_destruct). */
PMIX_EXPORT pmix_status_t PMIx_Value_xfer(pmix_value_t *dest, const pmix_value_t *src);

/* Compare two values; neither is modified. */
PMIX_EXPORT pmix_value_cmp_t PMIx_Value_compare(pmix_value_t *v1, pmix_value_t *v2);

/* Free the elements of d and what they own, leaving d empty; the
 * pmix_data_array_t itself is the caller's. */
PMIX_EXPORT void PMIx_Data_array_destruct(pmix_data_array_t *d);

/* Set info's key and load a copy of data into its value, as
 * PMIx_Value_load does; the copy is released by destructing info. */
PMIX_EXPORT pmix_status_t PMIx_Info_load(pmix_info_t *info, const char *key, const void *data,
                                         pmix_data_type_t type);

/* Deep-copy src (key, flags and value) into dest; dest owns the copy. */
PMIX_EXPORT pmix_status_t PMIx_Info_xfer(pmix_info_t *dest, const pmix_info_t *src);

/* ---- Info lists ------------------------------------------------------- */

/* An info list collects entries one by one before they are turned into an
 * array. The handle returned by PMIx_Info_list_start is owned by the caller
 * and freed, with every entry, by PMIx_Info_list_release; it is NULL when
 * memory runs out. */
PMIX_EXPORT void *PMIx_Info_list_start(void);

/* Append a copy of (key, value, type), loaded as PMIx_Info_load does; the
 * list owns the copy. */
PMIX_EXPORT pmix_status_t PMIx_Info_list_add(void *ptr, const char *key, const void *value,
                                             pmix_data_type_t type);

/* Append info without copying what its value points to: the list shares
 * that memory, which stays the caller's to keep valid and to free. */
PMIX_EXPORT pmix_status_t PMIx_Info_list_insert(void *ptr, pmix_info_t *info);

/* Append a deep copy of info; the list owns the copy. */
PMIX_EXPORT pmix_status_t PMIx_Info_list_xfer(void *ptr, const pmix_info_t *info);

/* Fill par with a PMIX_INFO array holding deep copies of the list's
 * entries; the caller frees it with PMIx_Data_array_destruct. The list is
 * unchanged. Returns PMIX_ERR_EMPTY for an empty list. */
PMIX_EXPORT pmix_status_t PMIx_Info_list_convert(void *ptr, pmix_data_array_t *par);

/* Free the list and every entry it owns. */
PMIX_EXPORT void PMIx_Info_list_release(void *ptr);

#if defined(c_plusplus) || defined(__cplusplus)
}
#endif

#endif /* PMIx_DEPRECATED_H */
