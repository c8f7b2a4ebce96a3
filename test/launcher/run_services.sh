#!/usr/bin/env bash
# run_services.sh - the host side of PMIx services: publish/lookup/unpublish,
# spawn (a job inside the run), queries, log and job control.
source "$(dirname "$0")/lib.sh"

run -n 2 "$CLIENT" publish
check "publish/lookup/unpublish: exit 0" test "$rc" -eq 0
check "... every check passed" test -z "$(grep 'not ok' <<<"$out")" -a "$(grep -c '^ok' <<<"$out")" -ge 12
report

run -n 1 --oversubscribe "$CLIENT" spawn 2
check "spawn: exit 0" test "$rc" -eq 0
check "... no failed check in parent or children" test -z "$(grep 'not ok' <<<"$out")"
check "... both children checked their job info" \
  test "$(grep -c 'ok - rank .: PMIx_Finalize' <<<"$out")" -eq 3
parent=$(sed -n 's/^parent \(.*\)\.0$/\1.0/p' <<<"$out" | sort -u)
check "... the children's PMIX_PARENT_ID is the parent (${parent})" \
  test "$(grep -c "^parent $parent\$" <<<"$out")" -eq 3
check "... a missing program is one message" one_line "$err" "cannot spawn 'drover-no-such-program'"
report
run -n 1 --oversubscribe sh -c "$CLIENT spawn 1; exit 0"
check "spawned children's output and status fold into the run" test "$rc" -eq 0

run -n 2 "$CLIENT" query 2
check "queries: exit 0" test "$rc" -eq 0 -a -z "$(grep 'not ok' <<<"$out")"
report

run -n 2 "$CLIENT" log
check "PMIx_Log to stderr reaches drover's stderr" test "$(grep -c 'logged to stderr by rank' <<<"$err")" -eq 2
check "PMIx_Log to stdout reaches drover's stdout" test "$(grep -c 'logged to stdout by rank' <<<"$out")" -eq 2
report

run -n 2 "$CLIENT" jobctl
check "job control: rank 1 got the signal" grep -q 'rank 1 got SIGUSR1' <<<"$out"
check "... and was killed on request without failing the run: exit 0" test "$rc" -eq 0
check "... in seconds (${elapsed}s)" within 10
report
check "nothing left behind" no_leftovers
done_testing
