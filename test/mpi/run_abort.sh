#!/usr/bin/env bash
# run_abort.sh - MPI_Abort ends the whole job within seconds, its code is
# drover's exit status, and nothing is left behind; a rank that ends without
# MPI_Init makes the others' MPI_Init fail instead of hang; drover killed
# by SIGKILL leaves none of Open MPI's shared-memory files behind.
source "$(dirname "$0")/../launcher/lib.sh"
bin=$MPI_PROGRAMS

for spec in "2 1 7" "4 3 9" "8 0 42"; do
  read -r n who code <<<"$spec"
  run -n "$n" --oversubscribe "$bin/mpi_abort" "$who" "$code"
  check "$n ranks, rank $who aborts with $code: exit $code ($rc)" test "$rc" -eq "$code"
  check "... in seconds (${elapsed}s)" within 5
  check "... drover names the rank and the status" \
    grep -q "drover run: rank $who (pid [0-9]*) called PMIx_Abort with status $code" <<<"$err"
  check "... no rank passed the barrier" test -z "$(grep 'passed a barrier' <<<"$out")"
  check "... nothing left behind" no_leftovers
done

for n in 2 4; do
  run -n "$n" --oversubscribe "$bin/mpi_abort" 1 skip
  check "$n ranks, rank 1 ends before MPI_Init: the others fail, exit non-zero ($rc)" \
    test "$rc" -ne 0
  check "... in seconds (${elapsed}s)" within 10
  check "... nothing left behind" no_leftovers
done
launch -n 3 --oversubscribe --grace 1 "$bin/mpi_abort" 0 sleep
wait_for 'rank 0 sleeps' 1
segments=$(ls "/dev/shm/drover-$pid-openmpi."*/ 2>/dev/null | grep -c '^vader_segment')
check "Open MPI's shared-memory files are in drover's directory ($segments)" test "$segments" -eq 3
kill -KILL "$pid"
finish
sleep 2 # the anchor's grace period (--grace 1) before it cleans up
check "drover killed by SIGKILL: nothing left behind, shared-memory files included" no_leftovers
done_testing
