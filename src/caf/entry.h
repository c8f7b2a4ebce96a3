/*
 * entry.h - the entry points libcaf_drover exports, as gfortran 12 calls
 * them. Grouped by the file that defines them. Descriptors and buffers
 * passed in are borrowed for the call; what a call allocates for the caller
 * (failed_images, stopped_images, a reallocated get_by_ref destination) is
 * released with free(), as gfortran does.
 */
#ifndef DROVER_CAF_ENTRY_H
#define DROVER_CAF_ENTRY_H

#include "abi.h"

/* init.c */
CAF_EXPORT void _gfortran_caf_init(int *argc, char ***argv);
CAF_EXPORT void _gfortran_caf_finalize(void);
CAF_EXPORT int _gfortran_caf_this_image(int distance);
CAF_EXPORT int _gfortran_caf_num_images(int distance, int failed);

/* register.c */
CAF_EXPORT void _gfortran_caf_register(size_t size, int kind, caf_token_t *token,
                                       caf_desc_t *desc, int *stat, char *errmsg,
                                       size_t errmsg_len);
CAF_EXPORT void _gfortran_caf_deregister(caf_token_t *token, int type, int *stat, char *errmsg,
                                         size_t errmsg_len);

/* transfer.c */
CAF_EXPORT void _gfortran_caf_get(caf_token_t token, size_t offset, int image, caf_desc_t *src,
                                  caf_vector_t *src_vector, caf_desc_t *dst, int src_kind,
                                  int dst_kind, bool may_require_tmp, int *stat);
CAF_EXPORT void _gfortran_caf_send(caf_token_t token, size_t offset, int image, caf_desc_t *dst,
                                   caf_vector_t *dst_vector, caf_desc_t *src, int dst_kind,
                                   int src_kind, bool may_require_tmp, int *stat);
CAF_EXPORT void _gfortran_caf_sendget(caf_token_t dst_token, size_t dst_offset, int dst_image,
                                      caf_desc_t *dst, caf_vector_t *dst_vector,
                                      caf_token_t src_token, size_t src_offset, int src_image,
                                      caf_desc_t *src, caf_vector_t *src_vector, int dst_kind,
                                      int src_kind, bool may_require_tmp, int *stat);

/* byref.c */
CAF_EXPORT void _gfortran_caf_get_by_ref(caf_token_t token, int image, caf_desc_t *dst,
                                         caf_ref_t *refs, int dst_kind, int src_kind,
                                         bool may_require_tmp, bool dst_reallocatable, int *stat,
                                         int src_type);
CAF_EXPORT void _gfortran_caf_send_by_ref(caf_token_t token, int image, caf_desc_t *src,
                                          caf_ref_t *refs, int dst_kind, int src_kind,
                                          bool may_require_tmp, bool dst_reallocatable, int *stat,
                                          int dst_type);
CAF_EXPORT void _gfortran_caf_sendget_by_ref(caf_token_t dst_token, int dst_image,
                                             caf_ref_t *dst_refs, caf_token_t src_token,
                                             int src_image, caf_ref_t *src_refs, int dst_kind,
                                             int src_kind, bool may_require_tmp, int *dst_stat,
                                             int *src_stat, int dst_type, int src_type);
CAF_EXPORT int _gfortran_caf_is_present(caf_token_t token, int image, caf_ref_t *refs);

/* sync.c: gfortran 12 passes ERRMSG= of the SYNC statements as the address
 * of a pointer to the buffer (NULL without ERRMSG=). */
CAF_EXPORT void _gfortran_caf_sync_all(int *stat, char **errmsg, size_t errmsg_len);
CAF_EXPORT void _gfortran_caf_sync_memory(int *stat, char **errmsg, size_t errmsg_len);
CAF_EXPORT void _gfortran_caf_sync_images(int count, int images[], int *stat, char **errmsg,
                                          size_t errmsg_len);

/* lock.c */
CAF_EXPORT void _gfortran_caf_lock(caf_token_t token, size_t index, int image, int *acquired,
                                   int *stat, char *errmsg, size_t errmsg_len);
CAF_EXPORT void _gfortran_caf_unlock(caf_token_t token, size_t index, int image, int *stat,
                                     char *errmsg, size_t errmsg_len);

/* event.c */
CAF_EXPORT void _gfortran_caf_event_post(caf_token_t token, size_t index, int image, int *stat,
                                         char *errmsg, size_t errmsg_len);
CAF_EXPORT void _gfortran_caf_event_wait(caf_token_t token, size_t index, int until_count,
                                         int *stat, char *errmsg, size_t errmsg_len);
CAF_EXPORT void _gfortran_caf_event_query(caf_token_t token, size_t index, int image, int *count,
                                          int *stat);

/* atomic.c */
CAF_EXPORT void _gfortran_caf_atomic_define(caf_token_t token, size_t offset, int image,
                                            void *value, int *stat, int type, int kind);
CAF_EXPORT void _gfortran_caf_atomic_ref(caf_token_t token, size_t offset, int image, void *value,
                                         int *stat, int type, int kind);
CAF_EXPORT void _gfortran_caf_atomic_cas(caf_token_t token, size_t offset, int image, void *old,
                                         void *compare, void *new_val, int *stat, int type,
                                         int kind);
CAF_EXPORT void _gfortran_caf_atomic_op(int op, caf_token_t token, size_t offset, int image,
                                        void *value, void *old, int *stat, int type, int kind);

/* collective.c */
CAF_EXPORT void _gfortran_caf_co_broadcast(caf_desc_t *a, int source_image, int *stat,
                                           char *errmsg, size_t errmsg_len);
CAF_EXPORT void _gfortran_caf_co_sum(caf_desc_t *a, int result_image, int *stat, char *errmsg,
                                     size_t errmsg_len);
CAF_EXPORT void _gfortran_caf_co_min(caf_desc_t *a, int result_image, int *stat, char *errmsg,
                                     int a_len, size_t errmsg_len);
CAF_EXPORT void _gfortran_caf_co_max(caf_desc_t *a, int result_image, int *stat, char *errmsg,
                                     int a_len, size_t errmsg_len);
CAF_EXPORT void _gfortran_caf_co_reduce(caf_desc_t *a, void *(*opr)(void *, void *),
                                        int opr_flags, int result_image, int *stat, char *errmsg,
                                        int a_len, size_t errmsg_len);

/* stop.c */
CAF_EXPORT void _gfortran_caf_stop_numeric(int code, bool quiet);
CAF_EXPORT void _gfortran_caf_stop_str(const char *string, size_t len, bool quiet);
CAF_EXPORT void _gfortran_caf_error_stop(int code, bool quiet);
CAF_EXPORT void _gfortran_caf_error_stop_str(const char *string, size_t len, bool quiet);
CAF_EXPORT void _gfortran_caf_fail_image(void);
CAF_EXPORT int _gfortran_caf_image_status(int image, caf_team_t *team);
CAF_EXPORT void _gfortran_caf_failed_images(caf_desc_t *array, caf_team_t *team, int *kind);
CAF_EXPORT void _gfortran_caf_stopped_images(caf_desc_t *array, caf_team_t *team, int *kind);

/* team.c */
CAF_EXPORT void _gfortran_caf_form_team(int team_number, caf_team_t *team, int new_index);
CAF_EXPORT void _gfortran_caf_change_team(caf_team_t *team, int flags);
CAF_EXPORT void _gfortran_caf_end_team(caf_team_t *team);
CAF_EXPORT void _gfortran_caf_sync_team(caf_team_t *team, int flags);
CAF_EXPORT int _gfortran_caf_team_number(caf_team_t team);

/* random.c */
CAF_EXPORT void _gfortran_caf_random_init(bool repeatable, bool image_distinct);

#endif /* DROVER_CAF_ENTRY_H */
