#!/usr/bin/env bash
# run_mpich.sh - unmodified MPICH programs (ch4:ucx, built for hydra) with
# drover run as their only process manager: init, allreduce and finalize
# at 1 to 64 oversubscribed ranks, and MPI_Abort's code as drover's exit
# status with nothing left behind.
source "$(dirname "$0")/../launcher/lib.sh"
bin=$MPICH_PROGRAMS

for n in 1 2 4 8; do
  run -n "$n" --oversubscribe "$bin/mpich_hello"
  check "hello on $n ranks: exit 0 and PASS ($rc)" \
    test "$rc" -eq 0 -a "$out" = "PASS hello from $n ranks"
  report
done
run -n 3 --oversubscribe env -u PMI_FD "$bin/mpich_hello"
check "hello on 3 ranks without PMI_FD: through PMI_PORT ($rc)" \
  test "$rc" -eq 0 -a "$out" = "PASS hello from 3 ranks"
report
GUARD_SECONDS=150 run -n 64 --oversubscribe "$bin/mpich_hello"
check "hello on 64 oversubscribed ranks: PASS ($rc, ${elapsed}s)" \
  test "$rc" -eq 0 -a "$out" = "PASS hello from 64 ranks"
report

for spec in "2 1 7" "4 0 42"; do
  read -r n who code <<<"$spec"
  run -n "$n" --oversubscribe "$bin/mpich_abort" "$who" "$code"
  check "$n ranks, rank $who calls MPI_Abort($code): exit $code ($rc)" test "$rc" -eq "$code"
  check "... in seconds (${elapsed}s)" within 10
  check "... no rank passed the barrier" test -z "$(grep 'passed a barrier' <<<"$out")"
  check "... nothing left behind" no_leftovers
done
done_testing
