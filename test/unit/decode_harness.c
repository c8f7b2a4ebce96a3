/*
 * decode_harness.c - see decode_harness.h.
 */
#include <check.h>
#include <string.h>

#include "decode_harness.h"
#include "drover.h"
#include "types.h"

decoded_t decode(pmix_data_type_t id)
{
    decoded_t d;
    memset(&d, 0, sizeof(d));
    ck_assert_int_eq(drover_type_get_envelope(id, &d.ni, &d.na, &d.nd, &d.combiner), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_get_contents(id, 64, 16, 16, d.ints, d.addrs, d.types), PMIX_SUCCESS);
    return d;
}

void ints_are(const decoded_t *d, int n, const int *want)
{
    ck_assert_int_eq(d->ni, n);
    for (int i = 0; i < n; i++) {
        ck_assert_msg(d->ints[i] == want[i], "integer %d is %d, not %d", i, d->ints[i], want[i]);
    }
}

void same_call(const decoded_t *a, const decoded_t *b)
{
    ck_assert_int_eq(b->combiner, a->combiner);
    ck_assert_int_eq(b->ni, a->ni);
    ck_assert_int_eq(b->na, a->na);
    ck_assert_int_eq(b->nd, a->nd);
    ck_assert(0 == memcmp(a->ints, b->ints, sizeof(int) * (size_t)a->ni));
    ck_assert(0 == memcmp(a->addrs, b->addrs, sizeof(intptr_t) * (size_t)a->na));
}

/* The block constructors' and darray's calls. */
static pmix_status_t recreate_blocks(const decoded_t *d, pmix_data_type_t *id)
{
    const int *i = d->ints;
    int n = i[0];
    pmix_data_type_t old = d->types[0];
    switch (d->combiner) {
    case DROVER_COMBINER_VECTOR:
        return drover_type_create_vector(NULL, n, i[1], i[2], old, id);
    case DROVER_COMBINER_HVECTOR:
        return drover_type_create_hvector(NULL, n, i[1], d->addrs[0], old, id);
    case DROVER_COMBINER_INDEXED:
        return drover_type_create_indexed(NULL, n, i + 1, i + 1 + n, old, id);
    case DROVER_COMBINER_HINDEXED:
        return drover_type_create_hindexed(NULL, n, i + 1, d->addrs, old, id);
    case DROVER_COMBINER_INDEXED_BLOCK:
        return drover_type_create_indexed_block(NULL, n, i[1], i + 2, old, id);
    case DROVER_COMBINER_DARRAY: {
        int nd = i[2];
        return drover_type_create_darray(NULL, i[0], i[1], nd, i + 3, i + 3 + nd, i + 3 + 2 * nd,
                                         i + 3 + 3 * nd, i[3 + 4 * nd], old, id);
    }
    default:
        return drover_type_create_hindexed_block(NULL, n, i[1], d->addrs, old, id);
    }
}

pmix_data_type_t recreate(const decoded_t *d)
{
    pmix_data_type_t id = 0;
    pmix_status_t rc;
    const int *i = d->ints;
    switch (d->combiner) {
    case DROVER_COMBINER_DUP:
        rc = drover_type_dup(NULL, d->types[0], &id);
        break;
    case DROVER_COMBINER_POINTER:
        rc = drover_type_create_pointer(NULL, d->types[0], &id);
        break;
    case DROVER_COMBINER_CONTIGUOUS:
        rc = drover_type_create_contiguous(NULL, i[0], d->types[0], &id);
        break;
    case DROVER_COMBINER_SUBARRAY: {
        int n = i[0];
        rc = drover_type_create_subarray(NULL, n, i + 1, i + 1 + n, i + 1 + 2 * n, i[1 + 3 * n],
                                         d->types[0], &id);
        break;
    }
    case DROVER_COMBINER_STRUCT:
        rc = drover_type_create_struct(NULL, i[0], i + 1, d->addrs, d->types, &id);
        break;
    case DROVER_COMBINER_RESIZED:
        rc = drover_type_create_resized(NULL, d->types[0], d->addrs[0], d->addrs[1], &id);
        break;
    default:
        rc = recreate_blocks(d, &id);
        break;
    }
    ck_assert_msg(PMIX_SUCCESS == rc, "recreating combiner %d: %d", d->combiner, rc);
    return id;
}

void type_bounds_are(pmix_data_type_t id, size_t size, intptr_t extent)
{
    size_t s;
    intptr_t lb, ext;
    ck_assert_int_eq(drover_type_size(id, &s), PMIX_SUCCESS);
    ck_assert_uint_eq(s, size);
    ck_assert_int_eq(drover_type_get_extent(id, &lb, &ext), PMIX_SUCCESS);
    ck_assert_int_eq(lb, 0);
    ck_assert_int_eq(ext, extent);
}

void types_identical(pmix_data_type_t a, pmix_data_type_t b)
{
    const named_t *x = types_by_id(a), *y = types_by_id(b);
    ck_assert_uint_eq(x->fingerprint, y->fingerprint);
    ck_assert_str_eq(x->signature, y->signature);
    pmix_data_type_t ta[128], tb[128];
    intptr_t da[128], db[128];
    size_t na, nb;
    ck_assert_int_eq(drover_type_get_typemap(a, 128, ta, da, &na), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_get_typemap(b, 128, tb, db, &nb), PMIX_SUCCESS);
    ck_assert_uint_eq(na, nb);
    ck_assert(na <= 128);
    ck_assert(0 == memcmp(ta, tb, na * sizeof(*ta)) && 0 == memcmp(da, db, na * sizeof(*da)));
    intptr_t lba, lbb, ea, eb;
    ck_assert_int_eq(drover_type_get_extent(a, &lba, &ea), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_get_extent(b, &lbb, &eb), PMIX_SUCCESS);
    ck_assert(lba == lbb && ea == eb);
}
