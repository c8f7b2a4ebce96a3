#!/usr/bin/env bash
# daemon_slow_disk.sh - a slow disk holds up no job: with every fdatasync
# of the daemon taking 2 s (test/daemon/slow_sync.c, preloaded), jobs
# through the daemon still end at once, and what the journal was given
# survives the daemon's SIGKILL. And the journal's sync comes 20 ms after
# the record, not in the job's launch, yet before the daemon stops.
source "$(dirname "$0")/lib.sh"

# The shim is not built with the sanitizers: an ASan build's runtime is
# then not the first library, which is harmless here.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export LD_PRELOAD=$SLOW_SYNC SLOW_SYNC_SECONDS=2
dr daemon start
check "the daemon starts on a slow disk" test "$rc" -eq 0

for i in 1 2 3; do
  started=$(date +%s%N)
  dr run --daemon -n 2 --oversubscribe true
  took=$((($(date +%s%N) - started) / 1000000))
  check "run --daemon $i: exit 0 in ${took} ms (under 1 s: the job's status waits for no sync)" \
    test "$rc" -eq 0 -a "$took" -lt 1000
done
started=$(date +%s%N)
dr ps --json
took=$((($(date +%s%N) - started) / 1000000))
check "ps answers in ${took} ms (under 1 s), with the 3 jobs" \
  test "$rc" -eq 0 -a "$took" -lt 1000 -a \
  "$(python3 -c 'import json,sys; print(len(json.load(sys.stdin)))' <<<"$out")" = 3

# The records were written before the jobs were answered: a daemon killed
# before any sync ended leaves them to the next one.
pid=$(daemon_pid)
kill -KILL "$pid"
for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
unset LD_PRELOAD
dr daemon start
check "a new daemon starts after the SIGKILL" test "$rc" -eq 0
dr ps --json
check "... and has the 3 jobs, completed with status 0" test "$(python3 -c '
import json, sys
print(sum(1 for j in json.load(sys.stdin) if j["state"] == "completed" and j["exit_status"] == 0))' \
  <<<"$out")" = 3
stop_daemon
check "the daemon stops" test -z "$(daemon_pid)"

# Syncs logged, not slowed: the job's records (queued, ended) are synced
# once 20 ms have passed since the first (the daemon is stopped later, as
# a stop syncs at once), and by the time `daemon stop` returns.
export LD_PRELOAD=$SLOW_SYNC SLOW_SYNC_SECONDS=0 SLOW_SYNC_LOG=$work/syncs
dr daemon start
check "a daemon starts, its syncs logged" test "$rc" -eq 0
: >"$work/syncs"
queued=$(date +%s%N)
dr run --daemon -n 2 --oversubscribe true
check "run --daemon: exit 0" test "$rc" -eq 0
sleep 0.3
stop_daemon
unset LD_PRELOAD SLOW_SYNC_LOG
first=$(head -n 1 "$work/syncs")
check "the journal was synced before the daemon stopped ($(wc -l <"$work/syncs") syncs)" \
  test -n "$first"
check "the first sync came $(((${first:-0} - queued) / 1000000)) ms after the job was asked for (20 ms at least)" \
  test "$((${first:-0} - queued))" -ge 20000000

done_testing
