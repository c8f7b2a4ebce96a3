#!/usr/bin/env bash
# daemon_programs.sh - an unmodified Open MPI program and a coarray Fortran
# program run through the daemon as under drover run: the documentation's
# examples, $HELLO_MPI (run --daemon) and $HELLO_CAF (submit); and Open
# MPI's MPI_Publish_name / MPI_Lookup_name and MPI_Comm_accept /
# MPI_Comm_connect between two jobs ($MPI_JOBS).
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

dr submit --oversubscribe -n 2 "$MPI_JOBS" serve
server=$out
dr run --daemon --oversubscribe -n 2 "$MPI_JOBS" client
client=$out
dr wait "$server"
check "MPI_Publish_name in one job, MPI_Lookup_name in another: both exit 0" \
  test "$rc" -eq 0 -a "$(grep -c "^found " <<<"$client")" -eq 2
dr output "$server"
port=$(sed -n 's/^port //p' <<<"$out")
check "... every rank of the second job found the first's port" \
  test -n "$port" -a "$(grep -cxF "found $port" <<<"$client")" -eq 2

dr submit --oversubscribe -n 2 "$MPI_JOBS" accept
server=$out
dr run --daemon --oversubscribe -n 3 "$MPI_JOBS" connect
check "MPI_Comm_accept in one job, MPI_Comm_connect in another: exit 0" test "$rc" -eq 0
check "... every connecting rank added up the 2 accepting ones (1 + 2)" \
  test "$(grep -cx "connected, remote sum 3" <<<"$out")" -eq 3
dr wait "$server"
check "... the accepting job exits 0" test "$rc" -eq 0
dr output "$server"
check "... and its ranks added up the 3 connecting ones (1 + 2 + 3)" \
  test "$(grep -cx "connected, remote sum 6" <<<"$out")" -eq 2
runs=$(job_pids)
dr daemon stop
check "stop: nothing of either job left" jobs_gone $runs
done_testing
