#!/usr/bin/env bash
# killed.sh - an image killed by SIGKILL ends the job and leaves no
# shared-memory segment behind, whether it dies while its peers still set up
# (their segments are still named in /dev/shm then: the launcher's sweep
# must remove them) or in the middle of the run.
#
#   killed.sh DROVER PROGRAM      (PROGRAM: killed.f90 built with drover caf)
set -u
drover=$1 program=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fail=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fail=1; fi
}
# Runs drover with the arguments given; sets rc, and left to the /dev/shm
# names of this run (they all carry drover-<its pid>-) still there after it.
run_drover() {
  "$drover" run --timeout 60 "$@" >"$out" 2>&1 &
  local pid=$!
  wait "$pid"; rc=$?
  left=$(ls /dev/shm | grep -F -- "drover-$pid-" || true)
}

# Rank 1 waits (up to 5 s) until rank 0 has created its segment, then dies
# before it joins: rank 0 waits in the bootstrap with its segment named
# until the launcher ends the job.
run_drover --oversubscribe -n 2 sh -c '
  if [ "$PMIX_RANK" = 1 ]; then
    for _ in $(seq 500); do
      ls /dev/shm | grep -q "^$PMIX_NAMESPACE\.caf\.0\." && break
      sleep 0.01
    done
    kill -9 $$
  fi
  exec "$0"' "$program"
check "killed during setup: exit 137 ($rc)" test "$rc" -eq 137
check "killed during setup: the launcher names the signal" grep -q 'killed by signal 9' "$out"
check "killed during setup: no segment left ($left)" test -z "$left"

for images in 2 4; do
  run_drover --oversubscribe -n "$images" "$program"
  check "killed mid-run, $images images: exit 137 ($rc)" test "$rc" -eq 137
  check "killed mid-run, $images images: the others did not go on" \
    bash -c "! grep -q 'waited for forever' '$out'"
  check "killed mid-run, $images images: no segment left ($left)" test -z "$left"
done
exit "$fail"
