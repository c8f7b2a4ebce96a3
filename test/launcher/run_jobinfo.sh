#!/usr/bin/env bash
# run_jobinfo.sh - what clients get from drover's server: every job key
# with its PMIx type, put/commit/fence/get.
source "$(dirname "$0")/lib.sh"

run -n 3 --oversubscribe "$CLIENT" info 3
check "every job key with its type, 3 ranks: exit 0" test "$rc" -eq 0
check "... no failed check" test -z "$(grep 'not ok' <<<"$out")"
check "... every rank checked" test "$(grep -c 'ok - rank .: PMIx_Finalize' <<<"$out")" -eq 3
report
# Oversubscribed, the universe is the processes running, not the slots
# (mpirun says the slots): see docs/launcher.md.
n=$(( $(nproc) + 2 ))
run -n $n --oversubscribe "$CLIENT" univ $n
check "oversubscribed, PMIX_UNIV_SIZE and PMIX_MAX_PROCS are the job size ($n)" \
  test "$rc" -eq 0 -a -z "$(grep 'not ok' <<<"$out")"
report
run -n 4 --oversubscribe "$CLIENT" fence
check "put, fence with data, get of every peer: exit 0" test "$rc" -eq 0
check "... every rank read all keys" test "$(grep -c 'read the keys of all 4 ranks' <<<"$out")" -eq 4
check "nothing left behind" no_leftovers
done_testing
