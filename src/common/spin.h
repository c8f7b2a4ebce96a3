/*
 * spin.h - poll briefly before going to sleep.
 *
 * Waking a sleeping thread on another core costs some 20 us on the
 * machines we measure (a virtual machine's cross-core interrupt), as much
 * as a whole fence of two ranks should take. A thread that expects an
 * answer within microseconds polls for it a little while first; a message
 * that arrives meanwhile costs no wake-up at all. Each turn yields, so
 * whatever else is runnable on the core (a rank, the server) runs instead.
 */
#ifndef DROVER_SPIN_H
#define DROVER_SPIN_H

#include <stdbool.h>

/* How long the client and the server poll before they sleep. */
#define SPIN_BEFORE_SLEEP_NS 50000L

/* Calls poll(arg), yielding the processor between calls, until it returns
 * true or budget_ns have passed. Returns poll's last answer. */
bool spin_until(bool (*poll)(void *arg), void *arg, long budget_ns);

#endif
