#!/usr/bin/env bash
# run_signals.sh - SIGINT/SIGTERM to drover are passed on to the ranks and
# escalated to SIGKILL after the grace period; even SIGKILL of drover
# leaves nothing behind (the anchor cleans up), not even processes that
# left the ranks' process group (setsid).
source "$(dirname "$0")/lib.sh"

launch -n 3 --oversubscribe "$CLIENT" sleep
wait_for sleeping 3
kill -INT "$pid"
finish
check "SIGINT: drover ends by SIGINT (status 130)" test "$rc" -eq 130
check "... within seconds (${elapsed}s)" within 10
check "... nothing left behind" no_leftovers

launch -n 2 --grace 1 "$CLIENT" sleep stubborn
wait_for sleeping 2
kill -TERM "$pid"
finish
check "SIGTERM with ranks ignoring it: SIGKILL after the grace, status 143" test "$rc" -eq 143
check "... within seconds (${elapsed}s)" within 10
check "... nothing left behind" no_leftovers

launch -n 2 --grace 30 "$CLIENT" sleep stubborn
wait_for sleeping 2
kill -INT "$pid"
sleep 0.3
kill -INT "$pid"
finish
check "a second SIGINT does not wait for the grace (${elapsed}s)" within 10
check "... nothing left behind" no_leftovers

launch -n 2 --grace 1 "$CLIENT" sleep stubborn shm
wait_for sleeping 2
session=$(ls "$TMPDIR")
kill -KILL "$pid"
finish
check "drover SIGKILLed: status 137" test "$rc" -eq 137
check "... its session directory existed" test -n "$session"
gone=1
for _ in $(seq 100); do
  if [ -z "$(pgrep -f -- "$CLIENT")" ] && [ -z "$(ls -A "$TMPDIR")" ] &&
     [ -z "$(ls /dev/shm | grep -- "^drover-$pid-")" ] && [ -z "$(pgrep -f -- "$DROVER run")" ]; then
    gone=0; break
  fi
  sleep 0.1
done
check "... the anchor removes ranks, session directory and segments" test "$gone" -eq 0
check "... nothing left behind" no_leftovers

# Each rank starts a process in a session of its own (setsid: out of the
# process group), which outlives the rank when drover is SIGKILLed.
launch -n 2 --grace 1 sh -c 'setsid "$0" sleep & exec "$0" sleep' "$CLIENT"
wait_for sleeping 4
kill -KILL "$pid"
finish
check "drover SIGKILLed: the anchor ends processes ranks moved to sessions of their own" \
  anchor_done
check "... nothing left behind" no_leftovers

# Where drover can make a cgroup for the run (root, or a delegated subtree;
# not in a Slurm job), even a process that also clears its environment
# (env -i) is ended.
launch -n 2 --grace 1 sh -c 'setsid env -i "$0" sleep & exec "$0" sleep' "$CLIENT"
wait_for sleeping 4
cgroup=$(grep -h "^0::/.*drover-$pid\." /proc/[0-9]*/cgroup 2>/dev/null | head -1)
kill -KILL "$pid"
finish
if may_make_cgroups; then
  check "drover SIGKILLed where it may make cgroups: it had made one for the run" \
    test -n "$cgroup"
  anchor_done
  check "... the anchor ends even processes that cleared their environment" \
    test -z "$(pgrep -f -- "$CLIENT")"
  check "... and removes the cgroup" test ! -e "$cgroup_mount${cgroup#0::}"
else
  echo "# no cgroup for the run here: a process that clears its environment may stay"
  pkill -KILL -f -- "$CLIENT"
fi
check "... nothing left behind" no_leftovers
done_testing
