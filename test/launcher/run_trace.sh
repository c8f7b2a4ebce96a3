#!/usr/bin/env bash
# run_trace.sh - drover run --trace FILE: the timeline of a 4-rank job with
# two fences (checked by trace_check.py), of a failing job and of a job
# whose drover got SIGTERM; the file written atomically (a symlink at the
# target is replaced, nothing temporary is left); drover trace summary,
# and its refusal of files that are not traces.
source "$(dirname "$0")/lib.sh"
checker=$(dirname "$0")/trace_check.py
trace=$work/trace.json
ok_lines() { [ "$(grep -c '^ok' <<<"$1")" -eq "$2" ] && ! grep -q '^not ok' <<<"$1"; }

run -n 4 --oversubscribe --trace "$trace" "$CLIENT" fence
check "a traced 4-rank job with two fences: exit 0" test "$rc" -eq 0
report
check "... the trace holds each rank's steps in order, with the fences' bytes" \
  "$checker" "$trace" 4 2
check "... nothing left behind" no_leftovers

summary=$("$DROVER" trace summary "$trace")
check "trace summary: one row per phase, 4 ranks each" \
  test "$(grep -cE '^  (fork\+exec|init|PMIx_Fence 1|PMIx_Fence 2|finalize|total) +4 ' <<<"$summary")" -eq 6
check "... under the job's name" grep -q '^job 0: .*launcher-client (drover-[0-9]*-0): 4 ranks$' <<<"$summary"
check "... min <= median <= max" awk '$1 == "init" || $1 == "total" { if (!($3 <= $4 && $4 <= $5)) bad = 1 }
  END { exit bad }' <<<"$summary"

run -n 3 --oversubscribe --trace "$trace" "$CLIENT" exit 7
check "a failing traced job: exit 7" test "$rc" -eq 7
check "... its trace is written all the same" "$checker" "$trace" 3 killed
check "... rank 2 exited 7, the others were ended (143); no fence succeeded" python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
codes = {e["tid"]: e["args"]["exit_code"] for e in ev if e["name"] == "exit"}
fences = [e for e in ev if e["name"] == "PMIx_Fence 1" and e["tid"] < 3]
sys.exit(not (codes == {0: 143, 1: 143, 2: 7} and
              all(e["args"].get("status") != "SUCCESS" for e in fences)))' "$trace"

launch -n 2 --oversubscribe --trace "$trace" "$CLIENT" sleep
wait_for "sleeping" 2
kill -TERM "$pid"
finish
check "drover ended by SIGTERM: exit 143" test "$rc" -eq 143
check "... the trace of what ran is written" "$checker" "$trace" 2 killed
check "... nothing left behind" no_leftovers

ln -sf "$work/victim" "$trace"
echo precious >"$work/victim"
run -n 1 --trace "$trace" true
check "a symlink at the target is replaced, not followed" \
  test "$rc" -eq 0 -a ! -L "$trace" -a "$(cat "$work/victim")" = precious
check "... no temporary file is left" test -z "$(ls -A "$work" | grep -- '^\.drover-trace')"

run -n 1 --trace "$work/no/such/dir/t.json" true
check "--trace into a missing directory: exit 1 before anything starts" test "$rc" -eq 1
check "... one line naming the directory" one_line "$err" "cannot write in $work/no/such/dir"

run -n 1 --trace "$work" true
check "--trace naming a directory: exit 1, one line" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "trace $work: a directory" && echo y)"

echo "not json" >"$work/text"
err=$("$DROVER" trace summary "$work/text" 2>&1 >/dev/null)
check "trace summary of a text file: exit 1" test $? -eq 1
check "... one line saying it is not a trace" one_line "$err" "text: not a trace-event JSON file (line 1, column 1"
echo '{"traceEvents": [{"name": "x", "ph": "X", "pid": 1, "tid": 1, "ts": 0, "dur": 1}]}' >"$work/other.json"
err=$("$DROVER" trace summary "$work/other.json" 2>&1 >/dev/null)
check "trace summary of another program's trace: exit 1" test $? -eq 1
check "... one line saying it holds no ranks of a drover run" one_line "$err" "holds no ranks of a drover run"
err=$("$DROVER" trace summary "$work/none.json" 2>&1 >/dev/null)
check "trace summary of a missing file: one line" one_line "$err" "none.json: No such file"

done_testing
