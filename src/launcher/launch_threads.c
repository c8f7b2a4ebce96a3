/*
 * launch_threads.c - start a job's processes from two threads at once.
 *
 * Design notes:
 *  - A launch is mostly waiting: vfork holds the launching thread until
 *    its child has exec'd, and a rank's exec and dynamic loading then keep
 *    a core busy. A second thread launching the other half keeps two
 *    children on their way at once: on 2 cores, 8 ranks of /bin/true are
 *    all started about 1 ms sooner than from one thread.
 *  - The helper thread is made at the first launch of two processes or
 *    more and lives as long as the process: a child's PR_SET_PDEATHSIG
 *    fires when the thread that made it ends, not the process. It blocks
 *    every signal: they stay the main thread's to take.
 *  - Both threads take the next child from one counter. After a failure
 *    no new child is started (those are left "not tried").
 *  - A child that stops at exec for a debugger (PTRACE_TRACEME) must be
 *    the child of the thread that waits for it (debug.c): a batch with one
 *    is launched by the calling thread alone.
 *  - vfork_cgroup gives each thread a stack of its own for its children.
 *  - A thread asleep on the other core takes 0.05 to 0.1 ms to wake in
 *    this VM, and making one 0.07: a daemon's standby makes the helper
 *    ahead (launch_threads_start; other runs make it while they wait for
 *    the server), and a launch about to fork tells it so
 *    (launch_threads_expect) while it waits for the server: the helper
 *    then polls for its batch, EXPECT_SPIN_NS at most, rather than sleep.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>

#include "launcher.h"
#include "spin.h"

#define EXPECT_SPIN_NS 1000000L

typedef struct batch {
    const launch_child_t *children;
    launch_result_t *results;
    size_t n;
    size_t next; /* the next child to start; atomic */
    bool failed; /* a start failed: no more; atomic */
} batch_t;

/* One batch at a time, whichever thread launches it. */
static pthread_mutex_t one_batch = PTHREAD_MUTEX_INITIALIZER;

/* The helper's work: the batch it is to help with, NULL once done. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
static batch_t *current; /* written under lock, polled without */
static bool expected; /* a batch is near */
static bool helper_tried, helper_running;

static void launch_some(batch_t *b)
{
    while (!__atomic_load_n(&b->failed, __ATOMIC_ACQUIRE)) {
        size_t i = __atomic_fetch_add(&b->next, 1, __ATOMIC_ACQ_REL);
        if (i >= b->n) {
            return;
        }
        launch_result_t *r = &b->results[i];
        r->began = trace_now();
        r->pid = launch_fork(&b->children[i]);
        r->err = r->pid < 0 ? errno : 0;
        if (r->pid < 0) {
            __atomic_store_n(&b->failed, true, __ATOMIC_RELEASE);
        }
    }
}

static bool batch_posted(void *arg)
{
    return NULL != __atomic_load_n(&current, __ATOMIC_ACQUIRE);
}

static void *helper(void *arg)
{
    pthread_mutex_lock(&lock);
    for (;;) {
        while (NULL == current && !expected) {
            pthread_cond_wait(&work, &lock);
        }
        if (NULL == current) {
            expected = false;
            pthread_mutex_unlock(&lock);
            spin_until(batch_posted, NULL, EXPECT_SPIN_NS);
            pthread_mutex_lock(&lock);
            continue;
        }
        batch_t *b = current;
        pthread_mutex_unlock(&lock);
        launch_some(b);
        pthread_mutex_lock(&lock);
        __atomic_store_n(&current, NULL, __ATOMIC_RELEASE);
        pthread_cond_signal(&done);
    }
    return arg;
}

/* The helper, made once (with every signal blocked, which it inherits).
 * Whether there is one. */
static bool helper_ready(void)
{
    if (!helper_tried) {
        helper_tried = true;
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        pthread_attr_t attr;
        pthread_t thread;
        if (0 == pthread_attr_init(&attr)) {
            pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            helper_running = 0 == pthread_create(&thread, &attr, helper, NULL);
            pthread_attr_destroy(&attr);
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    return helper_running;
}

static bool any_traced(const launch_child_t *children, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (children[i].trace_exec) {
            return true;
        }
    }
    return false;
}

void launch_fork_all(const launch_child_t *children, size_t n, launch_result_t *results)
{
    batch_t b = {.children = children, .results = results, .n = n};
    for (size_t i = 0; i < n; i++) {
        results[i] = (launch_result_t){.pid = 0};
    }
    pthread_mutex_lock(&one_batch);
    bool helped = n >= 2 && !any_traced(children, n) && helper_ready();
    if (helped) {
        pthread_mutex_lock(&lock);
        __atomic_store_n(&current, &b, __ATOMIC_RELEASE);
        pthread_cond_signal(&work);
        pthread_mutex_unlock(&lock);
    }
    launch_some(&b);
    if (helped) {
        pthread_mutex_lock(&lock);
        while (NULL != current) {
            pthread_cond_wait(&done, &lock);
        }
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_unlock(&one_batch);
}

/* The helper, made if there is none yet. Whether there is one. */
static bool helper_made(void)
{
    pthread_mutex_lock(&one_batch);
    bool made = helper_ready();
    pthread_mutex_unlock(&one_batch);
    return made;
}

void launch_threads_start(void)
{
    (void)helper_made();
}

void launch_threads_expect(void)
{
    if (helper_made()) {
        pthread_mutex_lock(&lock);
        expected = true;
        pthread_cond_signal(&work);
        pthread_mutex_unlock(&lock);
    }
}
