/*
 * decode_harness.c - see decode_harness.h.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "decode_harness.h"
#include "drover.h"
#include "type_harness.h"
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

/* The bounds of a and b: MPI's get_extent or get_true_extent. */
static void same_bounds(pmix_data_type_t a, pmix_data_type_t b,
                        pmix_status_t (*get)(pmix_data_type_t, intptr_t *, intptr_t *))
{
    intptr_t lba, lbb, ea, eb;
    ck_assert_int_eq(get(a, &lba, &ea), PMIX_SUCCESS);
    ck_assert_int_eq(get(b, &lbb, &eb), PMIX_SUCCESS);
    ck_assert_int_eq(lba, lbb);
    ck_assert_int_eq(ea, eb);
}

void identical(pmix_data_type_t a, pmix_data_type_t b, bool fingerprints)
{
    const named_t *x = types_by_id(a), *y = types_by_id(b);
    ck_assert(NULL != x && NULL != y);
    if (fingerprints) {
        ck_assert_msg(x->fingerprint == y->fingerprint, "%s: %s is not %s", x->name, x->signature,
                      y->signature);
        ck_assert_str_eq(x->signature, y->signature);
    }
    size_t sa, sb, na, nb;
    ck_assert_int_eq(drover_type_size(a, &sa), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_size(b, &sb), PMIX_SUCCESS);
    ck_assert_uint_eq(sa, sb);
    same_bounds(a, b, drover_type_get_extent);
    same_bounds(a, b, drover_type_get_true_extent);
    ck_assert_int_eq(drover_type_get_typemap(a, 0, NULL, NULL, &na), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_get_typemap(b, 0, NULL, NULL, &nb), PMIX_SUCCESS);
    ck_assert_uint_eq(na, nb);
    pmix_data_type_t *ta = calloc(na + 1, sizeof(*ta)), *tb = calloc(na + 1, sizeof(*tb));
    intptr_t *da = calloc(na + 1, sizeof(*da)), *db = calloc(na + 1, sizeof(*db));
    ck_assert(NULL != ta && NULL != tb && NULL != da && NULL != db);
    ck_assert_int_eq(drover_type_get_typemap(a, na, ta, da, &na), PMIX_SUCCESS);
    ck_assert_int_eq(drover_type_get_typemap(b, na, tb, db, &nb), PMIX_SUCCESS);
    bool same = 0 == memcmp(ta, tb, na * sizeof(*ta)) && 0 == memcmp(da, db, na * sizeof(*da));
    free(ta);
    free(tb);
    free(da);
    free(db);
    ck_assert_msg(same, "%s: the type maps differ", x->name);
}

void bounds_are(pmix_data_type_t id, size_t size, intptr_t lb, intptr_t extent, intptr_t true_lb,
                intptr_t true_extent)
{
    size_t s;
    intptr_t l, e;
    ck_assert_int_eq(drover_type_size(id, &s), PMIX_SUCCESS);
    ck_assert_uint_eq(s, size);
    ck_assert_int_eq(drover_type_get_extent(id, &l, &e), PMIX_SUCCESS);
    ck_assert_int_eq(l, lb);
    ck_assert_int_eq(e, extent);
    ck_assert_int_eq(drover_type_get_true_extent(id, &l, &e), PMIX_SUCCESS);
    ck_assert_int_eq(l, true_lb);
    ck_assert_int_eq(e, true_extent);
}

void map_is(pmix_data_type_t id, pmix_data_type_t basic, size_t n, const intptr_t *disps)
{
    size_t count = 0;
    pmix_data_type_t basics[64];
    intptr_t got[64];
    ck_assert_int_eq(drover_type_get_typemap(id, 0, NULL, NULL, &count), PMIX_SUCCESS);
    ck_assert_uint_eq(count, n);
    ck_assert_int_eq(drover_type_get_typemap(id, 64, basics, got, &count), PMIX_SUCCESS);
    for (size_t i = 0; i < n; i++) {
        ck_assert(0 == basic || basics[i] == basic);
        ck_assert_msg(got[i] == disps[i], "entry %zu at %ld, not %ld", i, (long)got[i], (long)disps[i]);
    }
}

/* Same datatype: the same id, or two declared types of one fingerprint. */
static bool same_type(pmix_data_type_t a, pmix_data_type_t b)
{
    const named_t *x = types_by_id(a), *y = types_by_id(b);
    return a == b || (NULL != x && NULL != y && x->fingerprint == y->fingerprint);
}

void rebuilds_identically(pmix_data_type_t id, int depth)
{
    const named_t *nt = types_by_id(id);
    bool sized = NULL != strchr(nt->signature, '$');
    decoded_t d1 = decode(id);
    pmix_data_type_t again = recreate(&d1);
    decoded_t d2 = decode(again);
    same_call(&d1, &d2);
    for (int k = 0; k < d1.nd; k++) {
        ck_assert_msg(same_type(d1.types[k], d2.types[k]), "%s: datatype %d differs", nt->name, k);
    }
    identical(id, again, !sized);
    identical(again, recreate(&d2), true);
    for (int k = 0; 0 < depth && k < d1.nd; k++) {
        const named_t *part = types_by_id(d1.types[k]);
        if (NULL != part && part->part) {
            rebuilds_identically(d1.types[k], depth - 1);
        }
    }
}

void rebuilds_and_travels(pmix_data_type_t id, const void *value)
{
    rebuilds_identically(id, 2);
    type_sample_t s = {id, value, drover_datatype_lookup(id)->name};
    type_harness_check_sample(&s);
}

/* The block constructors' calls. */
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
