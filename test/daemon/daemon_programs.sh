#!/usr/bin/env bash
# daemon_programs.sh - an unmodified Open MPI program and a coarray Fortran
# program run through the daemon as under drover run: the documentation's
# examples, $HELLO_MPI (run --daemon) and $HELLO_CAF (submit).
source "$(dirname "$0")/lib.sh"

dr daemon start
check "the daemon starts" test "$rc" -eq 0
dr run --daemon --oversubscribe -n 4 "$HELLO_MPI"
check "Open MPI program through run --daemon: status 0" test "$rc" -eq 0
check "... every rank in MPI_COMM_WORLD, the allreduce right" \
  test -n "$(grep "MPI rank 3 of 4 on " <<<"$out")" -a -n "$(grep "the ranks add up to 6" <<<"$out")"
dr submit --oversubscribe -n 4 "$HELLO_CAF"
id=$out
dr wait "$id"
check "coarray program through submit: status 0" test "$rc" -eq 0
dr output "$id"
check "... its images exchanged data" \
  test -n "$(grep "image 1 of 4: image 4 wrote here" <<<"$out")"
runs=$(job_pids)
dr daemon stop
check "stop: nothing of either job left" jobs_gone $runs
done_testing
