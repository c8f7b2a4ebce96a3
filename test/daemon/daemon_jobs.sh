#!/usr/bin/env bash
# daemon_jobs.sh - jobs through the daemon: submit, ps, wait, output, kill,
# run --daemon (output, stdin, exit status, signals), 100 jobs submitted
# back to back all accounted for, and nothing left once the daemon stops.
source "$(dirname "$0")/lib.sh"

dr submit -n 1 true
check "submit with no daemon: exit 1, one line" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "not running" && echo y)"
dr daemon start --max-jobs 4
check "the daemon starts" test "$rc" -eq 0

dr submit -n 2 --oversubscribe sh -c 'echo "out $PMIX_RANK"; echo "err $PMIX_RANK" >&2'
check "submit: prints a job id and exits 0" test "$rc" -eq 0 -a "$out" = 1
dr wait 1
check "wait: the job's status (0)" test "$rc" -eq 0
dr output 1
check "output: the job's stdout" test "$(sort <<<"$out" | tr '\n' ' ')" = "out 0 out 1 "
check "... and its stderr" test "$(sort <<<"$err" | tr '\n' ' ')" = "err 0 err 1 "

dr submit -n 1 sh -c 'echo first; sleep 1; echo second >&2; exit 5'
dr output "$out" --follow
check "output --follow: all of it, as the job writes it" \
  test "$out" = first -a "$(head -1 <<<"$err")" = second
check "... with drover run's own message about the rank" grep -q "exited with status 5" <<<"$err"
check "... and exits with the job's status (5)" test "$rc" -eq 5
dr output 2 --tail
check "output with a bad option: exit 2" test "$rc" -eq 2
dr submit -n 1 sh -c 'exit 3'
dr wait "$out"
check "a failing job: wait exits with its status (3)" test "$rc" -eq 3
dr submit -n 1 /nonexistent/program
dr wait "$out"
check "a missing program: the job's status is 127, as drover run's" test "$rc" -eq 127
dr submit -n 1 --frobnicate true
check "submit with a bad run option: exit 2, one line, nothing queued" \
  test "$rc" -eq 2 -a -n "$(one_line "$err" "'--frobnicate'" && echo y)"
njobs=$("$DROVER" ps --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
check "... (4 jobs so far)" test "$njobs" -eq 4

for cmd in "wait 99" "kill 99" "output 99"; do
  dr $cmd
  check "$cmd (no such job): exit 1, one line" \
    test "$rc" -eq 1 -a -n "$(one_line "$err" "no job 99" && echo y)"
done
dr wait x1
check "a bad job id: exit 2, one line" test "$rc" -eq 2 -a -n "$(one_line "$err" "'x1'" && echo y)"
dr kill 1 --signal BOGUS
check "an unknown signal: exit 2, one line" \
  test "$rc" -eq 2 -a -n "$(one_line "$err" "'BOGUS'" && echo y)"

dr submit -n 2 --oversubscribe "$CLIENT" sleep
sleeper=$out
sleeping "$sleeper" 2
dr ps
check "ps: the job is running with 2 ranks" \
  test -n "$(awk -v id="$sleeper" '$1 == id && $2 == "running" && $3 == 2' <<<"$out")"
dr kill "$sleeper"
check "kill: exit 0" test "$rc" -eq 0
dr wait "$sleeper"
check "... the job ends by SIGTERM (143)" test "$rc" -eq 143
dr kill "$sleeper"
check "kill of an ended job: exit 1, one line" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "ended" && echo y)"
dr submit -n 1 --grace 30 "$CLIENT" sleep stubborn
stubborn=$out
sleeping "$stubborn"
dr kill "$stubborn" --signal KILL
dr wait "$stubborn"
check "kill --signal KILL: the job ends at once (137)" test "$rc" -eq 137

dr ps --json
check "ps --json: valid JSON, every field, states as expected" python3 -c '
import json, sys
jobs = json.loads(sys.argv[1])
keys = {"id", "state", "ranks", "pid", "start", "end", "exit_status", "command"}
assert all(set(j) == keys for j in jobs), jobs
got = [(j["id"], j["state"], j["exit_status"]) for j in jobs]
assert got == [(1, "completed", 0), (2, "failed", 5), (3, "failed", 3), (4, "failed", 127),
               (5, "killed", 143), (6, "killed", 137)], got
' "$out"

# run --daemon: in the foreground, as a standalone run.
# The command hands the job over with the C library alone (drover.c): the
# executable needs no other library (but a sanitizer's runtime).
needed=$(readelf -d "$DROVER" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
  grep -Ev '^(libc\.so\.6|lib(asan|ubsan)\.so\..*)$')
check "run --daemon: the drover executable needs only the C library" test -z "$needed"
out=$(echo hello | timeout -s KILL 60 "$DROVER" run --daemon -n 1 cat)
check "run --daemon: stdin reaches rank 0, output comes back" test "$out" = hello
timeout -s KILL 60 "$DROVER" run --daemon -n 2 --oversubscribe sh -c 'echo "r$PMIX_RANK"' \
  >"$work/out" 2>"$work/err"
check "... every rank's output" test "$(sort "$work/out" | tr '\n' ' ')" = "r0 r1 "
timeout -s KILL 60 "$DROVER" run --daemon -n 1 sh -c 'exit 4' 2>/dev/null
check "... the job's status is its own (4)" test "$?" -eq 4
DROVER_DAEMON=1 timeout -s KILL 60 "$DROVER" run -n 1 sh -c 'exit 6' 2>/dev/null
check "DROVER_DAEMON=1 does the same" test "$?" -eq 6
dr ps --json
check "... those runs went through the daemon" python3 -c '
import json, sys
assert len(json.loads(sys.argv[1])) == 10' "$out"
timeout -s KILL 60 env --default-signal=INT "$DROVER" run --daemon -n 1 "$CLIENT" sleep \
  >"$work/out" 2>&1 &
runner=$!
for _ in $(seq 200); do grep -q sleeping "$work/out" && break; sleep 0.05; done
kill -INT "$runner"
wait "$runner"
rc=$?
check "SIGINT to run --daemon: passed to the job, which ends; status 130" test "$rc" -eq 130
dr wait 11
check "... the daemon's job ended by it too" test "$rc" -eq 130

# 100 jobs back to back, 4 at a time: all of them in ps, all completed.
for i in $(seq 100); do
  "$DROVER" submit -n 1 true >>"$work/ids" || echo "# submit $i failed"
done
check "100 submissions: 100 distinct ids" test "$(sort -u "$work/ids" | wc -l)" -eq 100
for id in $(cat "$work/ids"); do
  "$DROVER" wait "$id" || echo "# job $id: status $?"
done
dr ps --json
check "... all accounted for in ps, completed with status 0" python3 -c '
import json, sys
jobs = json.loads(sys.argv[1])[11:]
assert len(jobs) == 100, len(jobs)
assert all(j["state"] == "completed" and j["exit_status"] == 0 for j in jobs)
' "$out"

# At most 4 jobs run at once (--max-jobs 4); the rest wait in order.
for i in 1 2 3 4 5; do "$DROVER" submit -n 1 sleep 300 >>"$work/sleepers"; done
queued=$(tail -1 "$work/sleepers")
dr ps
check "a fifth job waits as queued" \
  test -n "$(awk -v id="$queued" '$1 == id && $2 == "queued"' <<<"$out")"
dr kill "$queued"
dr wait "$queued"
check "... killing it ends it (143) without ever starting" test "$rc" -eq 143
for id in $(head -4 "$work/sleepers"); do "$DROVER" kill "$id"; "$DROVER" wait "$id"; done

# A run --daemon that dies takes its job with it, as a standalone run.
timeout -s KILL 60 "$DROVER" run --daemon -n 1 "$CLIENT" sleep >"$work/out" 2>&1 &
runner=$!
for _ in $(seq 200); do grep -q sleeping "$work/out" && break; sleep 0.05; done
id=$("$DROVER" ps | awk '$2 == "running" {print $1}')
kill -KILL "$(pgrep -P "$runner")"
dr wait "$id"
check "run --daemon SIGKILLed: its job is ended (143)" test "$rc" -eq 143

dr submit -n 2 --oversubscribe "$CLIENT" sleep
sleeping "$out" 2
runs=$(job_pids)
check "the daemon logged no sanitizer report" \
  test -z "$(grep -E "Sanitizer|runtime error" "$state/daemon.log")"
dr daemon stop
check "stop with a job running: exit 0" test "$rc" -eq 0
check "... every job's run ended, nothing left in /tmp or /dev/shm" jobs_gone $runs
check "... nothing is left but the journal" stopped
done_testing
