#!/usr/bin/env bash
# run_mpich.sh - unmodified MPICH programs (ch4:ucx, built for hydra) with
# drover run as their only process manager: init, allreduce and finalize
# at 1 to 64 oversubscribed ranks, and MPI_Abort's code as drover's exit
# status with nothing left behind; Fortran, and MPICH's own examples (cpi
# and friends, from Debian's mpich-doc).
source "$(dirname "$0")/../launcher/lib.sh"
bin=$MPICH_PROGRAMS

# hello exits 1 when its allreduce sums wrong, and says nothing.
for n in 1 2 4 8; do
  run -n "$n" --oversubscribe "$bin/mpich_hello"
  check "hello on $n ranks: the right sum, not a word ($rc)" test "$rc" -eq 0 -a -z "$out$err"
  report
done
run -n 3 --oversubscribe env -u PMI_FD "$bin/mpich_hello"
check "hello on 3 ranks without PMI_FD: through PMI_PORT ($rc)" test "$rc" -eq 0 -a -z "$out$err"
report
GUARD_SECONDS=150 run -n 64 --oversubscribe "$bin/mpich_hello"
check "hello on 64 oversubscribed ranks ($rc, ${elapsed}s)" test "$rc" -eq 0 -a -z "$out$err"
report

for spec in "2 1 7" "4 0 42"; do
  read -r n who code <<<"$spec"
  run -n "$n" --oversubscribe "$bin/mpich_abort" "$who" "$code"
  check "$n ranks, rank $who calls MPI_Abort($code): exit $code ($rc)" test "$rc" -eq "$code"
  check "... in seconds (${elapsed}s)" within 10
  check "... no rank passed the barrier" test -z "$(grep 'passed a barrier' <<<"$out")"
  check "... nothing left behind" no_leftovers
done
if [ -n "${MPICH_FORTRAN:-}" ]; then
  run -n 4 --oversubscribe "$bin/mpich_fortran"
  check "Fortran (mpif90.mpich) on 4 ranks: PASS ($rc)" \
    test "$rc" -eq 0 -a "$out" = "PASS fortran on 4 ranks"
  report
fi

if [ -n "${MPICH_EXAMPLES:-}" ]; then
  run -n 4 --oversubscribe "$bin/example_cpi"
  check "MPICH's cpi on 4 ranks: pi to 1e-8 ($rc)" \
    test "$rc" -eq 0 -a "$(grep -c 'Process [0-3] of 4 is on' <<<"$out")" -eq 4 \
      -a -n "$(grep -E 'pi is approximately 3.14159265.*Error is 0.0000000' <<<"$out")"
  report
  run -n 3 --oversubscribe "$bin/example_hellow"
  check "MPICH's hellow on 3 ranks ($rc)" \
    test "$rc" -eq 0 -a "$(grep -c 'Hello world from process [0-2] of 3' <<<"$out")" -eq 3
  report
  run -n 3 --oversubscribe "$bin/example_srtest"
  check "MPICH's srtest: a message around a ring of 3 ($rc)" \
    test "$rc" -eq 0 -a -n "$(grep "0 received 'hello there'" <<<"$out")"
  report
  # The interactive ones read the number of intervals from stdin, which
  # drover forwards to rank 0.
  printf '1000\n0\n' >"$work/intervals"
  for ex in icpi fpi pi3f90; do
    launch_stdin "$work/intervals" -n 3 --oversubscribe "$bin/example_$ex"
    finish
    check "MPICH's $ex on 3 ranks, intervals from stdin ($rc)" \
      test "$rc" -eq 0 -a -n "$(grep -iE 'pi is +approximately: *3.14159|pi is approximately 3.14159' <<<"$out")"
    report
  done
fi
check "nothing left behind" no_leftovers
done_testing
