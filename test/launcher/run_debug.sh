#!/usr/bin/env bash
# run_debug.sh - ranks stopped for a debugger and released: a tool
# (debugger.c) attached to a running `drover run` spawns jobs stopped in
# PMIx_Init, at exec and in the application; --stop-on-exec and
# --stop-in-init on the command line (all ranks, or rank 1 only), released
# by SIGCONT and by a tool.
source "$(dirname "$0")/lib.sh"
export OUT=$work/out

# The debugger, attached to the run by its pid alone (PMIX_SERVER_PIDINFO
# finds the server inside the run's session directory).
debugger() {
  env -u PMIX_SERVER_TMPDIR -u PMIX_SYSTEM_TMPDIR "$DEBUGGER" "$pid" "$@"
}

# The tool's scenarios, in a run hosting an idle job until $work/stop.
launch -n 1 --oversubscribe sh -c "echo up; while [ ! -e $work/stop ]; do sleep 0.05; done"
wait_for '^up' 1
debugger init rank exec app bad >"$work/tool" 2>&1
trc=$?
touch "$work/stop"
finish
check "debugger: stop in init, of one rank, at exec, in the app; release (status $trc)" \
  test "$trc" -eq 0
check "... every check passed" test -z "$(grep 'not ok' "$work/tool")" \
  -a "$(grep -c '^ok' "$work/tool")" -ge 30
sed "s/^/#   /" "$work/tool"
check "... the run ends with status 0" test "$rc" -eq 0
check "... a directive of a wrong type is one message" grep -q 'pmix.dbg.exec wants' <<<"$err"
report
check "... nothing left behind" no_leftovers
rm -f "$work/stop"

# The ranks of a run, by drover's pid: its children but the anchor.
ranks() {
  for s in /proc/[0-9]*/stat; do
    awk -v p="$pid" '$4 == p && $2 == "(launcher-client)" {print $1}' "$s" 2>/dev/null
  done
}
states() { for r in $(ranks); do awk '{print $3}' "/proc/$r/stat"; done | sort | tr -d '\n'; }
wait_states() { # the state letters of both ranks, e.g. TT
  for _ in $(seq 200); do [ "$(states)" = "$1" ] && return 0; sleep 0.05; done
  return 1
}

launch -n 2 --stop-on-exec "$CLIENT" debug
check "--stop-on-exec: both ranks stopped (state T)" wait_states TT
check "... at exec: the program is loaded" \
  test "$(for r in $(ranks); do readlink "/proc/$r/exe"; done | sort -u)" = "$(readlink -f "$CLIENT")"
sleep 0.3
check "... and has not run" test -z "$(cat "$work/out")"
for r in $(ranks); do kill -CONT "$r"; done
finish
check "... SIGCONT releases them: both pass PMIx_Init, exit 0" \
  test "$rc" -eq 0 -a "$(grep -c after-init <<<"$out")" -eq 2
report
check "... nothing left behind" no_leftovers

# Ending the run continues the held ranks so that SIGTERM ends them, long
# before the grace's SIGKILL.
run -n 2 --stop-on-exec --timeout 1 --grace 10 "$CLIENT" debug
check "--stop-on-exec and --timeout: the held ranks end at once (${elapsed} s, status $rc)" \
  test "$rc" -eq 124 -a "$(within 6 && echo yes)" = yes
check "... nothing left behind" no_leftovers

launch -n 2 --oversubscribe --stop-on-exec=1 "$CLIENT" debug
wait_for after-init 1
check "--stop-on-exec=1: rank 1 alone stopped (state T), rank 0 passes PMIx_Init" wait_states T
sleep 0.3
check "... rank 1 has not run" test "$(grep -c after-init "$work/out")" -eq 1
for r in $(ranks); do kill -CONT "$r"; done
finish
check "... SIGCONT releases it, exit 0" test "$rc" -eq 0 -a "$(grep -c after-init <<<"$out")" -eq 2
report
check "... nothing left behind" no_leftovers

launch -n 2 --stop-in-init "$CLIENT" debug
wait_for before-init 2
sleep 0.3
check "--stop-in-init: both ranks wait in PMIx_Init, asleep" wait_states SS
check "... and have not passed it" test "$(grep -c after-init "$work/out")" -eq 0
# A debugger attaching later missed the announcements: it releases
# everything, until both have passed (the first may come before a rank
# listens).
for _ in $(seq 5); do
  debugger release >"$work/tool" 2>&1
  wait_for after-init 2 && break
done
finish
check "... a tool's release lets both through, exit 0" \
  test "$rc" -eq 0 -a "$(grep -c after-init <<<"$out")" -eq 2
report
check "... nothing left behind" no_leftovers

done_testing
