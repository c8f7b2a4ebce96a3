#!/usr/bin/env bash
# run_python.sh - mpi4py scripts (Debian's python3-mpi4py, on Open MPI) run
# under drover run.
source "$(dirname "$0")/../launcher/lib.sh"
CLIENT=$SCRIPT

for n in 1 4; do
  run -n "$n" --oversubscribe "$PYTHON" "$SCRIPT"
  check "python3 on $n ranks: exit 0 and PASS ($rc)" \
    test "$rc" -eq 0 -a "$out" = "PASS mpi4py on $n ranks"
  report
done
check "nothing left behind" no_leftovers
done_testing
