#!/usr/bin/env bash
# run_fortran.sh - an Open MPI program built with mpifort (mpi_f08) under
# drover run.
source "$(dirname "$0")/../launcher/lib.sh"

for n in 1 2 4; do
  run -n "$n" --oversubscribe "$MPI_PROGRAMS/mpi_fortran"
  check "mpifort program on $n ranks: exit 0 and PASS ($rc)" \
    test "$rc" -eq 0 -a "$out" = "PASS fortran on $n ranks"
  report
done
check "nothing left behind" no_leftovers
done_testing
