/*
 * test_extension.c - datatypes registered at run time through drover.h.
 *
 * A "labelled point" (an int and a string, built from two registered types
 * with drover_pack and drover_unpack) goes through registration, the
 * refusals drover.h promises, the registry's dispatch and the type harness.
 * A bare record with only the required functions shows the defaults, and a
 * self-nesting type shows the depth limit holding for programs' types.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bfrops.h"
#include "registry.h"
#include "type_harness.h"

/* ---- A labelled point: an int and an owned string ---------------------- */

#define POINT_ID 2000

typedef struct point {
    int id;
    char *label;
} point_t;

static pmix_status_t point_pack(drover_writer_t *w, const void *elem)
{
    const point_t *p = elem;
    pmix_status_t rc = drover_pack(w, &p->id, 1, PMIX_INT);
    if (PMIX_SUCCESS == rc) {
        rc = drover_pack(w, &p->label, 1, PMIX_STRING);
    }
    return rc;
}

static pmix_status_t point_unpack(drover_reader_t *r, void *elem)
{
    point_t *p = elem;
    pmix_status_t rc = drover_unpack(r, &p->id, 1, PMIX_INT);
    if (PMIX_SUCCESS == rc) {
        rc = drover_unpack(r, &p->label, 1, PMIX_STRING);
    }
    if (PMIX_SUCCESS != rc) {
        p->id = 0;   /* a failed string unpack allocated nothing */
    }
    return rc;
}

static pmix_status_t point_copy(void *dest, const void *src, drover_tma_t *tma)
{
    const point_t *from = src;
    point_t *to = dest;
    char *label = NULL;
    if (NULL != from->label && NULL == (label = drover_tma_strdup(tma, from->label))) {
        return PMIX_ERR_NOMEM;
    }
    to->id = from->id;
    to->label = label;
    return PMIX_SUCCESS;
}

static pmix_value_cmp_t point_compare(const void *a, const void *b)
{
    const point_t *x = a, *y = b;
    if (x->id != y->id) {
        return x->id > y->id ? PMIX_VALUE1_GREATER : PMIX_VALUE2_GREATER;
    }
    return bfrops_compare(&x->label, &y->label, 1, PMIX_STRING);
}

static char *point_print(const void *elem)
{
    const point_t *p = elem;
    char *text;
    if (asprintf(&text, "point %d \"%s\"", p->id, NULL == p->label ? "" : p->label) < 0) {
        return NULL;
    }
    return text;
}

static void point_release(void *elem, drover_tma_t *tma)
{
    point_t *p = elem;
    drover_tma_free(tma, p->label);
    p->label = NULL;
}

static const drover_datatype_t point_type = {
    .name = "TEST_POINT",
    .id = POINT_ID,
    .size = sizeof(point_t),
    .min_wire = 8,
    .flags = 0,
    .pack = point_pack,
    .unpack = point_unpack,
    .copy = point_copy,
    .compare = point_compare,
    .print = point_print,
    .release = point_release,
};

/* ---- A bare pair: only the required functions --------------------------- */

#define PAIR_ID 2001

typedef struct pair {
    int32_t x, y;
} pair_t;

static pmix_status_t pair_pack(drover_writer_t *w, const void *elem)
{
    return drover_pack(w, elem, 2, PMIX_INT32);
}

static pmix_status_t pair_unpack(drover_reader_t *r, void *elem)
{
    return drover_unpack(r, elem, 2, PMIX_INT32);
}

static char *pair_print(const void *elem)
{
    const pair_t *p = elem;
    char *text;
    return asprintf(&text, "(%d, %d)", p->x, p->y) < 0 ? NULL : text;
}

static const drover_datatype_t pair_type = {
    .name = "TEST_PAIR",
    .id = PAIR_ID,
    .size = sizeof(pair_t),
    .min_wire = 8,
    .flags = DROVER_DATATYPE_VALUE_INLINE,
    .pack = pair_pack,
    .unpack = pair_unpack,
    .print = pair_print,
};

/* ---- A chain: each link may hold the next, through the registry -------- */

#define CHAIN_ID 2002

typedef struct chain {
    struct chain *next;
} chain_t;

static pmix_status_t chain_pack(drover_writer_t *w, const void *elem)
{
    const chain_t *c = elem;
    const bool more = NULL != c->next;
    pmix_status_t rc = drover_pack(w, &more, 1, PMIX_BOOL);
    if (PMIX_SUCCESS == rc && more) {
        rc = drover_pack(w, c->next, 1, CHAIN_ID);
    }
    return rc;
}

static pmix_status_t chain_unpack(drover_reader_t *r, void *elem)
{
    chain_t *c = elem;
    bool more;
    pmix_status_t rc = drover_unpack(r, &more, 1, PMIX_BOOL);
    if (PMIX_SUCCESS != rc || !more) {
        return rc;
    }
    chain_t *next = drover_tma_calloc(drover_reader_tma(r), 1, sizeof(*next));
    if (NULL == next) {
        return PMIX_ERR_NOMEM;
    }
    rc = drover_unpack(r, next, 1, CHAIN_ID);
    if (PMIX_SUCCESS != rc) {
        drover_tma_free(drover_reader_tma(r), next);
        return rc;
    }
    c->next = next;
    return PMIX_SUCCESS;
}

static char *chain_print(const void *elem)
{
    size_t n = 0;
    for (const chain_t *c = elem; NULL != c; c = c->next) {
        n++;
    }
    char *text;
    return asprintf(&text, "chain of %zu", n) < 0 ? NULL : text;
}

static void chain_release(void *elem, drover_tma_t *tma)
{
    chain_t *c = elem;
    if (NULL != c->next) {
        chain_release(c->next, tma);
        drover_tma_free(tma, c->next);
        c->next = NULL;
    }
}

static const drover_datatype_t chain_type = {
    .name = "TEST_CHAIN",
    .id = CHAIN_ID,
    .size = sizeof(chain_t),
    .min_wire = 1,
    .pack = chain_pack,
    .unpack = chain_unpack,
    .print = chain_print,
    .release = chain_release,
};

/* ---- Tests ----------------------------------------------------------------- */

/* Every test runs in its own process (Check's fork mode), so each one
 * registers what it needs. */
static void register_point(void)
{
    ck_assert_int_eq(drover_register_datatype(&point_type), PMIX_SUCCESS);
}

START_TEST(a_registered_type_is_found_by_its_id)
{
    ck_assert_ptr_null(drover_datatype_lookup(POINT_ID));
    register_point();
    const drover_datatype_t *found = drover_datatype_lookup(POINT_ID);
    ck_assert_ptr_nonnull(found);
    ck_assert_ptr_ne(found, &point_type);   /* the record is copied */
    ck_assert_str_eq(found->name, "TEST_POINT");
    ck_assert_ptr_eq(found->pack, point_pack);
    ck_assert_ptr_eq(bfrops_lookup(POINT_ID), found);
}
END_TEST

START_TEST(registering_an_id_twice_is_a_duplicate)
{
    register_point();
    drover_datatype_t again = pair_type;
    again.id = POINT_ID;
    ck_assert_int_eq(drover_register_datatype(&again), PMIX_ERR_DUPLICATE_KEY);
    ck_assert_str_eq(drover_datatype_lookup(POINT_ID)->name, "TEST_POINT");
}
END_TEST

START_TEST(ids_outside_the_user_range_are_refused)
{
    const pmix_data_type_t bad[] = {0, PMIX_BOOL, PMIX_STRING, PMIX_DATA_TYPE_MAX,
                                    DROVER_DATATYPE_USER_MIN - 1, DROVER_DATATYPE_USER_MAX + 1};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        drover_datatype_t t = pair_type;
        t.id = bad[i];
        ck_assert_int_eq(drover_register_datatype(&t), PMIX_ERR_BAD_PARAM);
    }
    ck_assert_str_eq(drover_datatype_lookup(PMIX_STRING)->name, "PMIX_STRING");
    drover_datatype_t edge = pair_type;
    edge.id = DROVER_DATATYPE_USER_MIN;
    ck_assert_int_eq(drover_register_datatype(&edge), PMIX_SUCCESS);
    edge.id = DROVER_DATATYPE_USER_MAX;
    ck_assert_int_eq(drover_register_datatype(&edge), PMIX_SUCCESS);
    ck_assert_ptr_nonnull(drover_datatype_lookup(DROVER_DATATYPE_USER_MAX));
}
END_TEST

START_TEST(incomplete_records_are_refused_and_leave_no_trace)
{
    drover_datatype_t t;
    ck_assert_int_eq(drover_register_datatype(NULL), PMIX_ERR_BAD_PARAM);

    t = point_type, t.pack = NULL;
    ck_assert_int_eq(drover_register_datatype(&t), PMIX_ERR_BAD_PARAM);
    t = point_type, t.unpack = NULL;
    ck_assert_int_eq(drover_register_datatype(&t), PMIX_ERR_BAD_PARAM);
    t = point_type, t.print = NULL;
    ck_assert_int_eq(drover_register_datatype(&t), PMIX_ERR_BAD_PARAM);
    t = point_type, t.name = NULL;
    ck_assert_int_eq(drover_register_datatype(&t), PMIX_ERR_BAD_PARAM);
    t = point_type, t.size = 0;
    ck_assert_int_eq(drover_register_datatype(&t), PMIX_ERR_BAD_PARAM);
    t = point_type, t.min_wire = 0;
    ck_assert_int_eq(drover_register_datatype(&t), PMIX_ERR_BAD_PARAM);
    t = point_type, t.flags = 0x80;
    ck_assert_int_eq(drover_register_datatype(&t), PMIX_ERR_BAD_PARAM);
    /* Too large to live inside pmix_value_t.data. */
    t = point_type, t.flags = DROVER_DATATYPE_VALUE_INLINE, t.size = sizeof(pmix_value_t);
    ck_assert_int_eq(drover_register_datatype(&t), PMIX_ERR_BAD_PARAM);
    /* Passed by value means the element is a pointer. */
    t = point_type, t.flags = DROVER_DATATYPE_PASSED_BY_VALUE;
    ck_assert_int_eq(drover_register_datatype(&t), PMIX_ERR_BAD_PARAM);

    ck_assert_ptr_null(drover_datatype_lookup(POINT_ID));
    register_point();
}
END_TEST

START_TEST(a_registered_type_packs_unpacks_copies_compares_and_prints)
{
    register_point();
    point_t in[2] = {{7, "seven"}, {-1, NULL}};
    point_t out[2];
    pmix_data_buffer_t buf = {0};
    drover_writer_t w = {.buf = &buf};
    ck_assert_int_eq(bfrops_pack_tagged(&w, in, 2, POINT_ID), PMIX_SUCCESS);
    /* [u16 2000][u32 2][int 7][string "seven"][int -1][NULL string] */
    ck_assert_uint_eq(buf.bytes_used, 2 + 4 + (4 + 4 + 5) + (4 + 4));
    ck_assert_uint_eq((uint8_t)buf.base_ptr[0] | (uint8_t)buf.base_ptr[1] << 8, POINT_ID);

    drover_reader_t r = {.pos = (uint8_t *)buf.base_ptr,
                         .end = (uint8_t *)buf.base_ptr + buf.bytes_used};
    size_t n = 2;
    ck_assert_int_eq(bfrops_unpack_tagged(&r, out, &n, POINT_ID), PMIX_SUCCESS);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(out[0].id, 7);
    ck_assert_str_eq(out[0].label, "seven");
    ck_assert_ptr_null(out[1].label);
    ck_assert_int_eq(bfrops_compare(in, out, 2, POINT_ID), PMIX_EQUAL);

    point_t copy;
    ck_assert_int_eq(bfrops_copy(&copy, &in[0], 1, POINT_ID, NULL), PMIX_SUCCESS);
    ck_assert_ptr_ne(copy.label, in[0].label);
    ck_assert_int_eq(bfrops_compare(&copy, &in[1], 1, POINT_ID), PMIX_VALUE1_GREATER);

    char *text = bfrops_print(&copy, POINT_ID);
    ck_assert_str_eq(text, "point 7 \"seven\"");
    free(text);

    bfrops_release(&copy, 1, POINT_ID, NULL);
    bfrops_release(out, 2, POINT_ID, NULL);
    ck_assert_ptr_null(out[0].label);
    free(buf.base_ptr);
}
END_TEST

START_TEST(a_registered_type_passes_the_harness)
{
    register_point();
    ck_assert_int_eq(drover_register_datatype(&pair_type), PMIX_SUCCESS);
    static const point_t point = {42, "forty-two"};
    static const point_t unlabelled = {-3, NULL};
    static const pair_t pair = {-1, 1 << 30};
    const type_sample_t samples[] = {
        {POINT_ID, &point, "point"},
        {POINT_ID, &unlabelled, "unlabelled point"},
        {PAIR_ID, &pair, "pair"},
    };
    for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
        type_harness_check_sample(&samples[i]);
    }
}
END_TEST

START_TEST(missing_optional_functions_mean_bytewise_and_owning_nothing)
{
    ck_assert_int_eq(drover_register_datatype(&pair_type), PMIX_SUCCESS);
    const pair_t a = {1, 2}, b = {1, 3};
    pair_t c = {0, 0};
    ck_assert_int_eq(bfrops_copy(&c, &a, 1, PAIR_ID, NULL), PMIX_SUCCESS);
    ck_assert_int_eq(c.x, 1);
    ck_assert_int_eq(c.y, 2);
    ck_assert_int_eq(bfrops_compare(&a, &c, 1, PAIR_ID), PMIX_EQUAL);
    ck_assert_int_ne(bfrops_compare(&a, &b, 1, PAIR_ID), PMIX_EQUAL);
    bfrops_release(&c, 1, PAIR_ID, NULL);

    /* An inline type lives inside the value. */
    pmix_value_t v = {.type = PAIR_ID};
    ck_assert_ptr_eq(bfrops_value_elem(&v), &v.data);
}
END_TEST

/* A chain of links links long, packed; the caller frees the bytes. */
static pmix_data_buffer_t pack_chain(size_t links)
{
    chain_t *nodes = calloc(links, sizeof(chain_t));
    ck_assert_ptr_nonnull(nodes);
    for (size_t i = 0; i + 1 < links; i++) {
        nodes[i].next = &nodes[i + 1];
    }
    pmix_data_buffer_t buf = {0};
    drover_writer_t w = {.buf = &buf};
    ck_assert_int_eq(drover_pack(&w, nodes, 1, CHAIN_ID), PMIX_SUCCESS);
    free(nodes);
    return buf;
}

START_TEST(nesting_through_registered_types_is_bounded)
{
    ck_assert_int_eq(drover_register_datatype(&chain_type), PMIX_SUCCESS);
    chain_t out = {NULL};

    /* Every drover_unpack counts, the bool inside the innermost link too:
     * WIRE_MAX_DEPTH - 1 links nest WIRE_MAX_DEPTH calls deep. */
    pmix_data_buffer_t ok = pack_chain(WIRE_MAX_DEPTH - 1);
    drover_reader_t r = {.pos = (uint8_t *)ok.base_ptr,
                         .end = (uint8_t *)ok.base_ptr + ok.bytes_used};
    ck_assert_int_eq(drover_unpack(&r, &out, 1, CHAIN_ID), PMIX_SUCCESS);
    char *text = bfrops_print(&out, CHAIN_ID);
    ck_assert_str_eq(text, "chain of 31");
    free(text);
    bfrops_release(&out, 1, CHAIN_ID, NULL);
    free(ok.base_ptr);

    pmix_data_buffer_t deep = pack_chain(WIRE_MAX_DEPTH);
    r = (drover_reader_t){.pos = (uint8_t *)deep.base_ptr,
                          .end = (uint8_t *)deep.base_ptr + deep.bytes_used};
    ck_assert_int_eq(drover_unpack(&r, &out, 1, CHAIN_ID), PMIX_ERR_UNPACK_FAILURE);
    ck_assert_ptr_null(out.next);
    ck_assert_uint_eq(r.depth, 0);
    free(deep.base_ptr);
}
END_TEST

START_TEST(the_reader_hands_out_its_allocator)
{
    drover_tma_t tma = {0};
    drover_reader_t r = {.tma = &tma};
    ck_assert_ptr_eq(drover_reader_tma(&r), &tma);
}
END_TEST

/* Threads register the same contested id and ids of their own at once;
 * exactly one wins the contested id and every other id is registered. */
#define THREADS 4
#define PER_THREAD 64
#define CONTESTED_ID 3000

static int wins;
static pthread_mutex_t wins_lock = PTHREAD_MUTEX_INITIALIZER;

static void *register_many(void *arg)
{
    int base = 4000 + PER_THREAD * (int)(intptr_t)arg;
    drover_datatype_t t = pair_type;
    t.id = CONTESTED_ID;
    if (PMIX_SUCCESS == drover_register_datatype(&t)) {
        pthread_mutex_lock(&wins_lock);
        wins++;
        pthread_mutex_unlock(&wins_lock);
    }
    for (int i = 0; i < PER_THREAD; i++) {
        t.id = (pmix_data_type_t)(base + i);
        ck_assert_int_eq(drover_register_datatype(&t), PMIX_SUCCESS);
        ck_assert_ptr_nonnull(drover_datatype_lookup(t.id));
        ck_assert_ptr_nonnull(drover_datatype_lookup(PMIX_BOOL));
    }
    return NULL;
}

START_TEST(registration_is_thread_safe)
{
    pthread_t threads[THREADS];
    for (intptr_t i = 0; i < THREADS; i++) {
        ck_assert_int_eq(pthread_create(&threads[i], NULL, register_many, (void *)i), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
    }
    ck_assert_int_eq(wins, 1);
    for (int id = 4000; id < 4000 + THREADS * PER_THREAD; id++) {
        ck_assert_ptr_nonnull(drover_datatype_lookup((pmix_data_type_t)id));
    }
}
END_TEST

START_TEST(the_registry_refuses_types_past_its_capacity)
{
    drover_datatype_t t = pair_type;
    size_t accepted = 0;
    pmix_status_t rc = PMIX_SUCCESS;
    for (int id = 10000; PMIX_SUCCESS == rc; id++) {
        t.id = (pmix_data_type_t)id;
        rc = drover_register_datatype(&t);
        accepted += PMIX_SUCCESS == rc;
    }
    ck_assert_int_eq(rc, PMIX_ERR_OUT_OF_RESOURCE);
    ck_assert_uint_eq(accepted, REGISTRY_USER_CAP);
    ck_assert_ptr_null(drover_datatype_lookup(t.id));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("extension");
    TCase *tc = tcase_create("register");
    tcase_add_test(tc, a_registered_type_is_found_by_its_id);
    tcase_add_test(tc, registering_an_id_twice_is_a_duplicate);
    tcase_add_test(tc, ids_outside_the_user_range_are_refused);
    tcase_add_test(tc, incomplete_records_are_refused_and_leave_no_trace);
    tcase_add_test(tc, a_registered_type_packs_unpacks_copies_compares_and_prints);
    tcase_add_test(tc, a_registered_type_passes_the_harness);
    tcase_add_test(tc, missing_optional_functions_mean_bytewise_and_owning_nothing);
    tcase_add_test(tc, nesting_through_registered_types_is_bounded);
    tcase_add_test(tc, the_reader_hands_out_its_allocator);
    tcase_add_test(tc, registration_is_thread_safe);
    tcase_add_test(tc, the_registry_refuses_types_past_its_capacity);
    suite_add_tcase(s, tc);

    SRunner *sr = srunner_create(s);
    /* Each test registers its own types into a fresh registry. */
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? EXIT_SUCCESS : EXIT_FAILURE;
}
