/*
 * test_maps.c - PMIx_generate_regex / PMIx_generate_ppn and reading their
 * output back; the hash map and process store beneath PMIx_Get.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hashmap.h"
#include "maps.h"
#include "pmix.h"
#include "pmix_server.h"
#include "store.h"

static char *joined(char **names)
{
    static char buf[4096];
    buf[0] = '\0';
    for (size_t i = 0; NULL != names && NULL != names[i]; i++) {
        snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), i ? ",%s" : "%s", names[i]);
    }
    return buf;
}

static void round_trip(const char *nodes)
{
    char *regex = NULL, **names = NULL;
    ck_assert_int_eq(PMIx_generate_regex(nodes, &regex), PMIX_SUCCESS);
    ck_assert_int_eq(maps_parse_nodes(regex, &names), PMIX_SUCCESS);
    ck_assert_str_eq(joined(names), nodes);
    PMIX_ARGV_FREE(names);
    free(regex);
}

START_TEST(node_maps_round_trip_in_order)
{
    round_trip("n01,n02,n03,login,n05,x9,x10,x11,c1-ib,c2-ib,c3-ib");
    round_trip("a");
    round_trip("node007,node008,node010,node009");
    round_trip("host");
}
END_TEST

START_TEST(node_maps_compress_runs)
{
    char *regex = NULL;
    ck_assert_int_eq(PMIx_generate_regex("n01,n02,n03,login", &regex), PMIX_SUCCESS);
    ck_assert_str_eq(regex, "pmix:n[2:1-3],login");
    free(regex);
}
END_TEST

START_TEST(rank_maps_round_trip)
{
    char *ppn = NULL;
    pmix_rank_t *ranks;
    size_t n;

    ck_assert_int_eq(PMIx_generate_ppn("0,1,2,3;4,5,7;6", &ppn), PMIX_SUCCESS);
    ck_assert_str_eq(ppn, "pmix:0-3;4-5,7;6");
    ck_assert_int_eq(maps_node_ranks(ppn, 1, &ranks, &n), PMIX_SUCCESS);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(ranks[0], 4);
    ck_assert_uint_eq(ranks[2], 7);
    free(ranks);
    ck_assert_int_eq(maps_node_ranks(ppn, 2, &ranks, &n), PMIX_SUCCESS);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(ranks[0], 6);
    free(ranks);
    ck_assert_int_eq(maps_node_ranks(ppn, 3, &ranks, &n), PMIX_ERR_NOT_FOUND);
    free(ppn);
}
END_TEST

START_TEST(a_million_ranks_encode_to_a_short_map)
{
    size_t n = 1000000, cap = n * 8;
    char *input = malloc(cap), *ppn = NULL;
    size_t len = 0;
    for (size_t r = 0; r < n; r++) {
        len += (size_t)snprintf(input + len, cap - len, "%s%zu", 0 == r ? "" : 0 == r % 1000 ? ";" : ",", r);
    }
    ck_assert_int_eq(PMIx_generate_ppn(input, &ppn), PMIX_SUCCESS);
    ck_assert_uint_lt(strlen(ppn), 20000);
    pmix_rank_t *ranks;
    size_t nranks;
    ck_assert_int_eq(maps_node_ranks(ppn, 999, &ranks, &nranks), PMIX_SUCCESS);
    ck_assert_uint_eq(nranks, 1000);
    ck_assert_uint_eq(ranks[0], 999000);
    free(ranks);
    free(ppn);
    free(input);
}
END_TEST

START_TEST(a_node_map_names_up_to_a_million_nodes)
{
    char **names = NULL;
    size_t n = 0;

    ck_assert_int_eq(maps_parse_nodes("pmix:n[7:0-999999]", &names), PMIX_SUCCESS);
    while (NULL != names[n]) {
        n++;
    }
    ck_assert_uint_eq(n, 1000000);
    ck_assert_str_eq(names[999999], "n0999999");
    PMIX_ARGV_FREE(names);
    ck_assert_int_eq(maps_parse_nodes("pmix:n[7:0-999999],m[5:0-99999]", &names), PMIX_ERR_BAD_PARAM);
    ck_assert_ptr_null(names);
}
END_TEST

START_TEST(malformed_maps_are_refused)
{
    char *out = NULL, **names = NULL;
    pmix_rank_t *ranks;
    size_t n;

    ck_assert_int_eq(PMIx_generate_regex(NULL, &out), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_generate_regex("a[1],b", &out), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_generate_ppn("0,x;2", &out), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(PMIx_generate_ppn("99999999999", &out), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(maps_parse_nodes("pmix:n[2:1-", &names), PMIX_ERR_BAD_PARAM);
    ck_assert_ptr_null(names);
    ck_assert_int_eq(maps_parse_nodes("pmix:n[2:9-1]", &names), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(maps_parse_nodes("pmix:n[2:0-99999999999]", &names), PMIX_ERR_BAD_PARAM);
    ck_assert_int_eq(maps_node_ranks("pmix:0-3;4-x", 1, &ranks, &n), PMIX_ERR_BAD_PARAM);
    ck_assert_ptr_null(ranks);
    ck_assert_int_eq(maps_node_ranks("pmix:5-2", 0, &ranks, &n), PMIX_ERR_BAD_PARAM);
}
END_TEST

START_TEST(hashmap_keeps_insertion_order_across_growth_and_removal)
{
    hashmap_t m = HASHMAP_INIT;
    char key[32];
    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof(key), "key%d", i);
        hashmap_entry_t *e = hashmap_insert_str(&m, key, NULL);
        ck_assert_ptr_nonnull(e);
        e->value = (void *)(intptr_t)(i + 1);
    }
    ck_assert_uint_eq(m.count, 1000);
    ck_assert_ptr_eq(hashmap_remove(&m, "key10", 5), (void *)11);
    ck_assert_ptr_null(hashmap_find_str(&m, "key10"));
    ck_assert_str_eq(m.entries[10].key, "key11");
    bool created = true;
    ck_assert_ptr_eq(hashmap_insert_str(&m, "key999", &created)->value, (void *)1000);
    ck_assert(!created);
    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof(key), "key%d", i);
        hashmap_entry_t *e = hashmap_find_str(&m, key);
        if (10 == i) {
            ck_assert_ptr_null(e);
        } else {
            ck_assert_ptr_eq(e->value, (void *)(intptr_t)(i + 1));
        }
    }
    hashmap_clear(&m, NULL);
    ck_assert_uint_eq(m.count, 0);
    ck_assert_ptr_null(hashmap_find_str(&m, "key1"));
}
END_TEST

static void load(pmix_info_t *i, const char *key, uint32_t v)
{
    PMIx_Info_load(i, key, &v, PMIX_UINT32);
}

START_TEST(store_answers_like_pmix_get)
{
    store_t s = STORE_INIT;
    store_ns_t *ns = store_ns(&s, "job", true);
    pmix_info_t reg[4], proc1[3], app[2], node[2];
    pmix_rank_t one = 1;
    pmix_data_array_t a1 = {PMIX_INFO, 3, proc1}, a2 = {PMIX_INFO, 2, app}, a3 = {PMIX_INFO, 2, node};

    load(&reg[0], PMIX_JOB_SIZE, 4);
    PMIx_Info_load(&proc1[0], PMIX_RANK, &one, PMIX_PROC_RANK);
    load(&proc1[1], PMIX_APPNUM, 1);
    load(&proc1[2], PMIX_NODEID, 7);
    load(&app[0], PMIX_APPNUM, 1);
    load(&app[1], PMIX_APP_SIZE, 3);
    load(&node[0], PMIX_NODEID, 7);
    PMIx_Info_load(&node[1], PMIX_HOSTNAME, "nodeseven", PMIX_STRING);
    PMIx_Info_load(&reg[1], PMIX_PROC_DATA, &a1, PMIX_DATA_ARRAY);
    PMIx_Info_load(&reg[2], PMIX_APP_INFO_ARRAY, &a2, PMIX_DATA_ARRAY);
    PMIx_Info_load(&reg[3], PMIX_NODE_INFO_ARRAY, &a3, PMIX_DATA_ARRAY);
    ck_assert_int_eq(store_ingest(ns, reg, 4), PMIX_SUCCESS);
    ck_assert(ns->registered);

    const pmix_value_t *v = store_lookup(ns, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, NULL);
    ck_assert_uint_eq(v->data.uint32, 4);
    /* A process sees job, application and node data through its own. */
    ck_assert_uint_eq(store_lookup(ns, 1, PMIX_JOB_SIZE, NULL)->data.uint32, 4);
    ck_assert_uint_eq(store_lookup(ns, 1, PMIX_APP_SIZE, NULL)->data.uint32, 3);
    ck_assert_str_eq(store_lookup(ns, 1, PMIX_HOSTNAME, NULL)->data.string, "nodeseven");
    ck_assert_ptr_null(store_lookup(ns, 1, PMIX_RANK, NULL));
    /* Qualified lookups. */
    store_scope_t scope = {.node = true, .node_by_name = true, .hostname = "nodeseven"};
    ck_assert_uint_eq(store_lookup(ns, PMIX_RANK_WILDCARD, PMIX_NODEID, &scope)->data.uint32, 7);
    scope = (store_scope_t){.app = true, .appnum = 2};
    ck_assert_ptr_null(store_lookup(ns, PMIX_RANK_WILDCARD, PMIX_APP_SIZE, &scope));
    /* An undefined rank searches every process. */
    ck_assert_uint_eq(store_lookup(ns, PMIX_RANK_UNDEF, PMIX_NODEID, NULL)->data.uint32, 7);

    for (int i = 0; i < 4; i++) {
        PMIX_INFO_DESTRUCT(&reg[i]);
    }
    for (int i = 0; i < 3; i++) {
        PMIX_INFO_DESTRUCT(&proc1[i]);
    }
    for (int i = 0; i < 2; i++) {
        PMIX_INFO_DESTRUCT(&app[i]);
        PMIX_INFO_DESTRUCT(&node[i]);
    }
    store_drop(&s, "job");
    ck_assert_ptr_null(store_ns(&s, "job", false));
    store_clear(&s);
}
END_TEST

START_TEST(store_refuses_malformed_registrations)
{
    store_t s = STORE_INIT;
    store_ns_t *ns = store_ns(&s, "job", true);
    pmix_info_t bad[1], inner[1];
    pmix_data_array_t a = {PMIX_INFO, 1, inner};
    load(&inner[0], PMIX_APPNUM, 1);
    /* Process data without its rank. */
    PMIx_Info_load(&bad[0], PMIX_PROC_DATA, &a, PMIX_DATA_ARRAY);
    ck_assert_int_eq(store_ingest(ns, bad, 1), PMIX_ERR_BAD_PARAM);
    PMIX_INFO_DESTRUCT(&bad[0]);
    /* An array key whose value is no array. */
    load(&bad[0], PMIX_NODE_INFO_ARRAY, 3);
    ck_assert_int_eq(store_ingest(ns, bad, 1), PMIX_ERR_BAD_PARAM);
    PMIX_INFO_DESTRUCT(&inner[0]);
    store_clear(&s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("maps");
    TCase *tc = tcase_create("core");
    SRunner *sr;
    int failed;

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, node_maps_round_trip_in_order);
    tcase_add_test(tc, node_maps_compress_runs);
    tcase_add_test(tc, rank_maps_round_trip);
    tcase_add_test(tc, a_million_ranks_encode_to_a_short_map);
    tcase_add_test(tc, a_node_map_names_up_to_a_million_nodes);
    tcase_add_test(tc, malformed_maps_are_refused);
    tcase_add_test(tc, hashmap_keeps_insertion_order_across_growth_and_removal);
    tcase_add_test(tc, store_answers_like_pmix_get);
    tcase_add_test(tc, store_refuses_malformed_registrations);
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
