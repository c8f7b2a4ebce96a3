#!/usr/bin/env bash
# run_limits.sh - the open-file limit: drover raises the soft limit to the
# hard one, so a job that fits under the hard limit runs whatever the soft
# one; a job that cannot fit is refused in one line before anything starts
# (it used to hang, the server spinning on accept); the descriptor table is
# grown while drover has one thread.
source "$(dirname "$0")/lib.sh"

# Each case runs in a subshell (the limits are its own); its checks are
# printed there and its failure passed on.
(
  ulimit -n 256
  GUARD_SECONDS=30 run -n 100 --oversubscribe "$CLIENT" fence
  check "100 ranks under a hard limit of 256 open files: refused, status 1 ($rc)" test "$rc" -eq 1
  check "... at once (${elapsed}s)" within 5
  check "... in one line naming the need and the limit" \
    one_line "$err" "100 ranks need about [0-9]* open files, the limit is 256 (ulimit -n)"
  check "... no rank started" test -z "$out"
  check "... nothing left behind" no_leftovers

  GUARD_SECONDS=30 run -n 1 --oversubscribe "$CLIENT" spawn 100
  check "PMIx_Spawn of 100 more under the same limit: refused, the spawner fails ($rc)" \
    test "$rc" -eq 1
  check "... a line naming the need and the limit" \
    grep -q "^drover run: 101 ranks need about [0-9]* open files, the limit is 256 (ulimit -n)$" \
    <<<"$err"
  check "... the spawner was told" grep -q "not ok - rank 0: spawn 100" <<<"$out"
  check "... nothing left behind" no_leftovers
  exit $fail
) || fail=1

(
  ulimit -Sn 64
  ulimit -Hn 1024
  GUARD_SECONDS=60 run -n 100 --oversubscribe "$CLIENT" fence
  check "100 ranks at a soft limit of 64, hard 1024: they run ($rc, ${elapsed}s)" test "$rc" -eq 0
  check "... all 100 read every key" test "$(grep -c 'read the keys of all 100 ranks' <<<"$out")" -eq 100
  check "... nothing left behind" no_leftovers
  exit $fail
) || fail=1

# The descriptor table is grown for the launch before drover has threads
# (limits.c): the run's table holds what the launch may take (6 for the
# rank, and drover's own 64), more than the kernel's first 64 that one
# rank's run would otherwise keep.
run -n 1 sh -c 'sed -n "s/^FDSize:[[:space:]]*//p" /proc/$PPID/status'
check "a run's descriptor table is grown ahead of its launch (FDSize $out)" \
  test "$rc" -eq 0 -a "$out" -ge 70
done_testing
