/*
 * registry.h - adding records to the datatype registry. Private to bfrops.
 *
 * bfrops.h has the lookups everyone uses; only extension.c adds types.
 */
#ifndef DROVER_BFROPS_REGISTRY_H
#define DROVER_BFROPS_REGISTRY_H

#include "drover.h"

/* Most datatypes a process can register at run time. */
#define REGISTRY_USER_CAP 1024

/* File a copy of type (already validated, id in the user range) under its
 * id. PMIX_ERR_DUPLICATE_KEY when the id is taken, PMIX_ERR_OUT_OF_RESOURCE
 * when REGISTRY_USER_CAP types are registered or memory runs out; on
 * failure the registry is unchanged. The copy lives as long as the process;
 * type->name is borrowed for as long. Thread-safe. */
pmix_status_t registry_insert(const drover_datatype_t *type);

#endif /* DROVER_BFROPS_REGISTRY_H */
