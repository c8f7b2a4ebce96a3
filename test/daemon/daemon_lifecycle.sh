#!/usr/bin/env bash
# daemon_lifecycle.sh - drover daemon start, status and stop: one daemon per
# user, the state directory made and checked safely, stale files of a
# SIGKILLed daemon replaced, --foreground, and stop removing everything.
source "$(dirname "$0")/lib.sh"

dr daemon status
check "status with no daemon: exit 1, one line saying so" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "not running" && echo y)"

dr daemon start
check "start: exit 0, says started" test "$rc" -eq 0 -a -n "$(grep started <<<"$out")"
pid=$(daemon_pid)
check "... the pid file names a live daemon" ours "$pid"
check "... the state directory is mode 0700" test "$(stat -c %a "$state")" = 700
check "... with its socket and log" test -S "$state/daemon.sock" -a -f "$state/daemon.log"
dr daemon status
check "status: exit 0, names the pid" test "$rc" -eq 0 -a -n "$(grep -- "pid $pid" <<<"$out")"
dr daemon start
check "a second start is refused: exit 1, 'already running'" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "already running" && echo y)"
check "... the first daemon still runs" ours "$pid"
dr daemon stop
check "stop: exit 0" test "$rc" -eq 0
check "... the daemon has exited" test -z "$(ours "$pid" && echo alive)"
check "... and so is its state directory" test ! -e "$state"

# A daemon killed outright leaves its socket and pid file; the next start
# replaces them. Its running job dies with it and cleans up.
dr daemon start
pid=$(daemon_pid)
dr submit -n 2 --oversubscribe sleep 300
for _ in $(seq 100); do runs=$(job_pids); [ -n "$runs" ] && break; sleep 0.05; done
kill -KILL "$pid"
for _ in $(seq 100); do [ -d "/proc/$pid" ] || break; sleep 0.05; done
check "SIGKILLed daemon: its socket and pid file stay behind" \
  test -S "$state/daemon.sock" -a -f "$state/daemon.pid"
check "... its job's run and ranks end, leaving nothing" jobs_gone $runs
dr daemon status
check "... status says not running" test "$rc" -eq 1 -a -n "$(grep "not running" <<<"$err")"
dr daemon start
check "... a new start succeeds" test "$rc" -eq 0
check "... with a new pid" test "$(daemon_pid)" != "$pid"
check "... and logs that it replaced the old files" grep -q "replacing" "$state/daemon.log"
dr ps
check "... and answers" test "$rc" -eq 0
dr daemon stop
check "... and stops, keeping only the journal and the lost job's directory" \
  test "$rc" -eq 0 -a -n "$(stopped && echo y)" -a -d "$state/jobs/1"

# stop escalates: a run that does not end on SIGTERM (its rank ignores it
# and the run's own grace is long) is killed after the daemon's grace.
dr daemon start --grace 1
dr submit -n 1 --grace 60 "$CLIENT" sleep stubborn
sleeping "$out"
runs=$(job_pids)
t0=$(date +%s)
dr daemon stop
check "stop with a job ignoring SIGTERM: exit 0" test "$rc" -eq 0
check "... after the daemon's grace, not the run's ($(( $(date +%s) - t0 ))s)" \
  test $(( $(date +%s) - t0 )) -lt 30
check "... the run and its rank are gone, nothing left" jobs_gone $runs

# --foreground: the same daemon in this process; SIGTERM stops it.
timeout -s KILL 60 "$DROVER" daemon start --foreground >"$work/fg" 2>&1 &
fg=$!
for _ in $(seq 200); do [ -S "$state/daemon.sock" ] && [ -n "$(daemon_pid)" ] && break; sleep 0.05; done
pid=$(daemon_pid)
dr daemon status
check "--foreground: the daemon is the command itself (no fork)" \
  test "$(ps -o ppid= -p "$pid" | tr -d ' ')" = "$fg"
check "... status answers with its pid" test "$rc" -eq 0 -a -n "$(grep -- "pid $pid" <<<"$out")"
kill -TERM "$pid"
wait "$fg"
fgrc=$?
check "... SIGTERM stops it with status 0" test "$fgrc" -eq 0
check "... having reported no sanitizer error or leak" \
  test -z "$(grep -E "Sanitizer|runtime error" "$work/fg")"
check "... and removes the state directory but for the journal and the jobs' directories" stopped
rm -rf "$state"

# A state directory others can use, or a link, is refused, never used.
mkdir -m 0755 "$state"
dr daemon start
check "state directory with group/other access: refused, one line" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "group or others" && echo y)"
check "... and left alone" test "$(stat -c %a "$state")" = 755 -a -z "$(ls -A "$state")"
rmdir "$state"
mkdir -m 0700 "$work/elsewhere"
ln -s "$work/elsewhere" "$state"
dr daemon start
check "state directory a symbolic link: refused, one line" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "symbolic link" && echo y)"
check "... nothing made where it points" test -z "$(ls -A "$work/elsewhere")"
dr submit -n 1 true
check "... the commands refuse it too" test "$rc" -eq 1 -a -n "$(grep "symbolic link" <<<"$err")"
rm "$state"

dr daemon bogus
check "unknown daemon command: exit 2, one line" \
  test "$rc" -eq 2 -a -n "$(one_line "$err" "'bogus'" && echo y)"
dr daemon start --max-jobs 0
check "--max-jobs 0: exit 2, one line" \
  test "$rc" -eq 2 -a -n "$(one_line "$err" "'0'" && echo y)"
check "... nothing made" test ! -e "$state"
done_testing
