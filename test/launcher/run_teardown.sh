#!/usr/bin/env bash
# run_teardown.sh - drover killed during its own teardown leaves nothing:
# with the removal of the run's cgroup slowed down (test/launcher/
# slow_rmdir.c, preloaded), drover is SIGKILLed while it waits there, as
# a daemon's stop that can wait no longer does to a slow run; the anchor,
# still alive, removes the cgroup, the session directory and the
# segments.
source "$(dirname "$0")/lib.sh"

if ! may_make_cgroups; then
  echo "# SKIP: drover makes no cgroup for a run here (not root, no cgroup2, or in Slurm)"
  exit 77
fi
# The shim is not built with the sanitizers: an ASan build's runtime is
# then not the first library, which is harmless here.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
mark=$work/removing
export LD_PRELOAD=$SLOW_RMDIR SLOW_RMDIR_SECONDS=2 SLOW_RMDIR_MARK=$mark
launch -n 2 --oversubscribe "$CLIENT" fence
for _ in $(seq 200); do [ -e "$mark" ] && break; sleep 0.05; done
check "drover reaches the removal of its cgroup" test -e "$mark"
cgroup=$(ls -d "$cgroup_mount$(own_cgroup)/drover-$pid."* 2>/dev/null)
check "... which is still there" test -n "$cgroup"
kill -KILL "$pid"
finish
unset LD_PRELOAD
check "drover SIGKILLed in its teardown ($rc)" test "$rc" -eq 137
anchor_done
for _ in $(seq 100); do [ -e "$cgroup" ] || break; sleep 0.1; done
check "... the anchor removes the cgroup" test ! -e "$cgroup"
[ -e "$cgroup" ] && rmdir "$cgroup"
check "... nothing left behind" no_leftovers
done_testing
