#!/usr/bin/env bash
# daemon_trace.sh - --trace through the daemon: `drover run --daemon` and
# `drover submit` jobs write their timeline where the submitting command
# names it (relative to its working directory), as a standalone run does;
# without --trace a submitted job is traced in the state directory, and
# `drover trace JOB` prints it.
source "$(dirname "$0")/lib.sh"
checker=$(dirname "$0")/../launcher/trace_check.py

dr daemon start
check "the daemon starts" test "$rc" -eq 0
cd "$work" || exit 1
dr run --daemon -n 2 --oversubscribe --trace run.json "$CLIENT" fence
check "run --daemon --trace: exit 0" test "$rc" -eq 0
check "... the trace, in the caller's directory, holds both ranks' steps" \
  "$checker" "$work/run.json" 2 2
dr submit -n 2 --oversubscribe --trace submit.json "$CLIENT" fence
id=$out
dr wait "$id"
check "submit --trace: the job ends with 0" test "$rc" -eq 0
check "... its trace is in the submitter's directory" "$checker" "$work/submit.json" 2 2
dr submit -n 3 --oversubscribe "$CLIENT" fence
id=$out
dr wait "$id"
dr trace "$id"
check "drover trace JOB: exit 0" test "$rc" -eq 0
printf '%s\n' "$out" >"$work/job.json"
check "... prints the job's trace" "$checker" "$work/job.json" 3 2
check "... kept in the job's directory" test -f "$state/jobs/$id/trace.json"
dr trace 999
check "drover trace of no such job: exit 1, one line" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "job 999 has no trace" && echo y)"
dr trace ../x
check "drover trace of a bad job id: exit 2, one line" \
  test "$rc" -eq 2 -a -n "$(one_line "$err" "'../x' is not a job id" && echo y)"
runs=$(job_pids)
dr daemon stop
check "... nothing left once the daemon stops" jobs_gone $runs
done_testing
