#!/usr/bin/env bash
# run_failures.sh - every way a job can fail ends it within seconds, with
# the right exit status, a one-line message and nothing left behind; and a
# 256-rank oversubscribed job.
source "$(dirname "$0")/lib.sh"

run -n 3 --oversubscribe "$CLIENT" exit 7
check "a rank exiting 7 while the others fence: drover exits 7" test "$rc" -eq 7
check "... within seconds (${elapsed}s)" within 10
check "... one message naming rank 2 and its status" one_line "$err" "rank 2 (pid [0-9]*) exited with status 7"
check "... nothing left behind" no_leftovers

run -n 3 --oversubscribe "$CLIENT" fence-kill 1
check "a rank SIGKILLed during a fence: drover exits 137" test "$rc" -eq 137
check "... within seconds (${elapsed}s)" within 10
check "... one message naming rank, pid and signal" \
  one_line "$err" "rank 1 (pid [0-9]*) was killed by signal 9 (Killed)"
check "... nothing left behind" no_leftovers

run -n 3 --oversubscribe "$CLIENT" abort 5
check "PMIx_Abort(5): drover exits 5" test "$rc" -eq 5
check "... within seconds (${elapsed}s)" within 10
check "... the abort message is shown" one_line "$err" "rank 0 (pid [0-9]*) called PMIx_Abort with status 5: the test asked for it"
check "... nothing left behind" no_leftovers

run -n 2 true
check "ranks that never call PMIx_Init and exit 0: exit 0" test "$rc" -eq 0 -a -z "$err"
run -n 2 --oversubscribe "$CLIENT" gone
check "a get of data from a rank that ended without PMIx_Init: not found at once ($rc)" \
  test "$rc" -eq 0 -a "$(grep -c '^ok - rank 0: get of a key' <<<"$out")" -eq 1
check "... in seconds (${elapsed}s)" within 4
run -n 2 sh -c 'exit 3'
check "ranks that never call PMIx_Init and exit 3: exit 3" test "$rc" -eq 3
run -n 2 sh -c 'kill -SEGV $$'
check "a rank killed by SIGSEGV: exit 139" test "$rc" -eq 139
check "... one message" one_line "$err" "killed by signal 11"
check "... nothing left behind" no_leftovers

run -n 2 --timeout 1 "$CLIENT" sleep
check "--timeout 1: exit 124" test "$rc" -eq 124
check "... within seconds (${elapsed}s)" within 8
check "... one message" one_line "$err" "timed out after 1 s"
check "... nothing left behind" no_leftovers
run -n 2 --timeout 1 --grace 1 "$CLIENT" sleep stubborn
check "ranks ignoring SIGTERM are SIGKILLed after the grace: exit 124" test "$rc" -eq 124
check "... within seconds (${elapsed}s)" within 8
check "... nothing left behind" no_leftovers

run -n 2 sh -c 'touch /dev/shm/$PMIX_NAMESPACE.leftover; sleep 0.2'
check "a job's leftover /dev/shm segment is removed" no_leftovers

GUARD_SECONDS=240 run -n 256 --oversubscribe "$CLIENT" fence
check "256 ranks oversubscribed: put, fence with data, get all (${elapsed}s)" test "$rc" -eq 0
check "... all 256 read every key" test "$(grep -c 'read the keys of all 256 ranks' <<<"$out")" -eq 256
check "... nothing left behind" no_leftovers
done_testing
