#!/usr/bin/env bash
# killed.sh - an image killed by SIGKILL ends the job and leaves no
# shared-memory segment behind, whether it dies while its peers still set up
# (their segments are still named in /dev/shm then: the launcher's sweep
# must remove them) or in the middle of the run.
#
#   killed.sh DROVER PROGRAM      (PROGRAM: killed.f90 built with drover caf)
set -u
drover=$1 program=$2
segments() { ls /dev/shm | grep '\.caf\.' | sort; }
fail=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fail=1; fi
}
left_over() { # segments present now that were not in $1
  comm -13 <(echo "$1") <(segments)
}

# Rank 1 waits (up to 5 s) until rank 0 has created its segment, then dies
# before it joins: rank 0 waits in the bootstrap with its segment named until the
# launcher ends the job.
before=$(segments)
out=$(timeout 60 "$drover" run --oversubscribe -n 2 sh -c '
  if [ "$PMIX_RANK" = 1 ]; then
    for _ in $(seq 500); do
      ls /dev/shm | grep -q "^$PMIX_NAMESPACE\.caf\.0$" && break
      sleep 0.01
    done
    kill -9 $$
  fi
  exec "$0"' "$program" 2>&1); rc=$?
check "killed during setup: exit 137 ($rc)" test "$rc" -eq 137
check "killed during setup: the launcher names the signal" grep -q 'killed by signal 9' <<<"$out"
left=$(left_over "$before")
check "killed during setup: no segment left ($left)" test -z "$left"

for images in 2 4; do
  before=$(segments)
  out=$(timeout 60 "$drover" run --oversubscribe -n "$images" "$program" 2>&1); rc=$?
  check "killed mid-run, $images images: exit 137 ($rc)" test "$rc" -eq 137
  check "killed mid-run, $images images: the others did not go on" \
    bash -c "! grep -q 'waited for forever' <<<'$out'"
  left=$(left_over "$before")
  check "killed mid-run, $images images: no segment left ($left)" test -z "$left"
done
exit "$fail"
