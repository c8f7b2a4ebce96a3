/*
 * test_eventq.c - work posted to a thread behind an eventfd
 * (src/common/eventq.c): the doorbell rings for a post to an empty queue
 * only, and no post is ever left unrun.
 */
#include <check.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "eventq.h"

#define BURSTS 2000
#define PER_BURST 25

static eventq_t q = EVENTQ_INITIALIZER;
static unsigned long ran;
static bool in_order = true;

static void count(void *arg)
{
    in_order = in_order && (uintptr_t)arg == ran;
    ran++;
}

/* What the doorbell holds: the rings since it was last read. */
static uint64_t rings(void)
{
    uint64_t n = 0;
    return sizeof(n) == read(q.fd, &n, sizeof(n)) ? n : 0;
}

START_TEST(only_a_post_to_an_empty_queue_rings)
{
    ck_assert_int_eq(eventq_open(&q), PMIX_SUCCESS);
    ck_assert_int_eq(eventq_post(&q, count, (void *)0), PMIX_SUCCESS);
    ck_assert_int_eq(eventq_post(&q, count, (void *)1), PMIX_SUCCESS);
    ck_assert_int_eq(eventq_post(&q, count, (void *)2), PMIX_SUCCESS);
    ck_assert_uint_eq(rings(), 1);
    /* The doorbell already read, as eventq_run would: the three run. */
    eventq_run(&q);
    ck_assert_uint_eq(ran, 3);
    ck_assert(in_order);
    ck_assert_int_eq(eventq_post(&q, count, (void *)3), PMIX_SUCCESS);
    ck_assert_uint_eq(rings(), 1);
    eventq_close(&q);
}
END_TEST

static void *post_bursts(void *arg)
{
    uintptr_t next = 0;
    for (int b = 0; b < BURSTS; b++) {
        for (int i = 0; i < PER_BURST; i++) {
            ck_assert_int_eq(eventq_post(&q, count, (void *)next++), PMIX_SUCCESS);
        }
        if (0 == b % 8) {
            usleep(10);
        }
    }
    return arg;
}

START_TEST(every_post_runs_while_another_thread_posts)
{
    ck_assert_int_eq(eventq_open(&q), PMIX_SUCCESS);
    pthread_t poster;
    ck_assert_int_eq(pthread_create(&poster, NULL, post_bursts, NULL), 0);
    /* The consumer sleeps on the doorbell between runs, as the server's
     * thread does: a post to an empty queue that did not ring would leave
     * it asleep with work queued. */
    struct pollfd p = {.fd = q.fd, .events = POLLIN};
    while (ran < (unsigned long)BURSTS * PER_BURST) {
        ck_assert_msg(1 == poll(&p, 1, 5000), "work queued but the doorbell silent (%lu ran)", ran);
        eventq_run(&q);
    }
    pthread_join(poster, NULL);
    ck_assert(in_order);
    eventq_close(&q);
}
END_TEST

static void reset(void)
{
    ran = 0;
    in_order = true;
}

int main(void)
{
    Suite *s = suite_create("eventq");
    TCase *tc = tcase_create("doorbell");
    tcase_add_checked_fixture(tc, reset, NULL);
    tcase_add_test(tc, only_a_post_to_an_empty_queue_rings);
    tcase_add_test(tc, every_post_runs_while_another_thread_posts);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return 0 == failed ? EXIT_SUCCESS : EXIT_FAILURE;
}
