#!/usr/bin/env bash
# run_python.sh - OpenPMIx's own Python bindings (Debian's python3-pmix, a
# module built against OpenPMIx) on drover's library: ranks under
# `drover run`, and a tool against the drover daemon.
source "$(dirname "$0")/../daemon/lib.sh"
here=$(dirname "$0")

run -n 3 --oversubscribe "$PYTHON" "$here/pypmix_client.py"
check "3 python3-pmix ranks under drover run: exit 0 ($rc)" test "$rc" -eq 0
for r in 0 1 2; do
  check "... rank $r read its neighbour's value across the fence" \
    grep -qx "PASS rank $r of 3 read 'from $(((r + 1) % 3))' from rank $((( r + 1) % 3))" "$work/out"
done
report

dr daemon start
dr submit -n 1 "$PYTHON" -c 'import time; time.sleep(30)'
job=$out
timeout -s KILL 60 env LD_LIBRARY_PATH="$DROVER_LIBDIR" "$PYTHON" "$here/pypmix_tool.py" 1 \
  >"$work/tout" 2>"$work/terr"
trc=$?
tout=$(cat "$work/tout")
check "a python3-pmix tool connects to the daemon and ends ($trc)" \
  test "$trc" -eq 0 -a -n "$(grep -x 'init 0 drover-daemon\..*' <<<"$tout")"
check "... lists the namespace of the submitted job $job" \
  grep -q "^namespaces 0 .*drover-daemon\.[0-9]*\.$job-0" <<<"$tout"
check "... spawns a job through it" grep -q '^spawned 0 drover-daemon\.' <<<"$tout"
check "... and gets its two ranks' output" \
  test "$(grep -cx 'echoed by a spawned rank' <<<"$tout")" -eq 2
[ "$trc" -eq 0 ] || head -20 "$work/terr"
dr kill "$job"
check "nothing left behind" jobs_gone $(job_pids)
done_testing
