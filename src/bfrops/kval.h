/*
 * kval.h - the element of PMIX_KVAL, a key with an optional value.
 *
 * The PMIx headers number the type but do not define a struct for it, so
 * drover keeps its own here. Private to the library.
 */
#ifndef DROVER_BFROPS_KVAL_H
#define DROVER_BFROPS_KVAL_H

#include "pmix_common.h"

/* A kval owns key and value (NULL allowed for both); PMIX_KVAL's release
 * frees them. */
typedef struct bfrops_kval {
    char *key;
    pmix_value_t *value;
} bfrops_kval_t;

#endif /* DROVER_BFROPS_KVAL_H */
