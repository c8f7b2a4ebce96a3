/*
 * signature.h - canonical signatures and fingerprints of declared types.
 */
#ifndef DROVER_TYPES_SIGNATURE_H
#define DROVER_TYPES_SIGNATURE_H

#include <stdint.h>

#include "layout.h"

/* Set nt->signature and nt->fingerprint (and those of the types it
 * refers to) once layout_check has passed; false when memory runs out. */
bool sig_named(named_t *nt);

/* 64-bit FNV-1a. */
uint64_t sig_fnv1a(const void *data, size_t len);

#endif /* DROVER_TYPES_SIGNATURE_H */
