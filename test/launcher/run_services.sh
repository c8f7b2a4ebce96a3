#!/usr/bin/env bash
# run_services.sh - the host side of PMIx services: publish/lookup/unpublish,
# spawn (a job inside the run), queries, log, job control (signals,
# preemptible, checkpoints) and heartbeat monitoring.
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
check "... the job was marked preemptible and queried so" \
  grep -q 'ok - rank 0: the job is queried preemptible' <<<"$out"
check "... a checkpoint request reached rank 1 as PMIX_JCTRL_CHECKPOINT with its id" \
  grep -q 'rank 1 got checkpoint ck-event from rank 0' <<<"$out"
check "... and as the signal the request named" grep -q 'rank 1 got SIGUSR2' <<<"$out"
check "... or the job declared (PMIX_JOB_CTRL_CHECKPOINT_METHOD)" grep -q 'rank 1 got SIGALRM' <<<"$out"
check "... no failed check" test -z "$(grep 'not ok' <<<"$out")"
check "... and was killed on request without failing the run: exit 0" test "$rc" -eq 0
check "... in seconds (${elapsed}s)" within 10
report

run -n 2 --timeout 30 "$CLIENT" heartbeat fail
check "heartbeats: rank 1 beat, then stopped" grep -q 'rank 1 stops beating' <<<"$out"
check "... no failed check" test -z "$(grep 'not ok' <<<"$out")"
check "... drover ended the job: exit 1" test "$rc" -eq 1
check "... saying so in one line" one_line "$err" 'rank 1 (pid [0-9]*) sent no heartbeat for 2 s (2 missed): ending the job'
check "... in seconds (${elapsed}s)" within 15
report 1
check "nothing left behind" no_leftovers

run -n 2 --timeout 30 "$CLIENT" heartbeat app
check "heartbeats with PMIX_MONITOR_APP_CONTROL: the alert reached rank 0" \
  grep -q 'ok - rank 0: PMIX_MONITOR_HEARTBEAT_ALERT about rank 1' <<<"$out"
check "... which ended rank 1 itself: exit 0, nothing on stderr" test "$rc" -eq 0 -a -z "$err"
check "... no failed check" test -z "$(grep 'not ok' <<<"$out")"
report
check "nothing left behind" no_leftovers
done_testing
