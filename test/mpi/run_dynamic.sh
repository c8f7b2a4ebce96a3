#!/usr/bin/env bash
# run_dynamic.sh - dynamic processes of Open MPI programs under drover run:
# MPI_Comm_spawn and _spawn_multiple (the children's output and exit status
# fold into drover's), connect/accept within a job and with spawned
# processes, name publishing, MPI_Comm_disconnect.
source "$(dirname "$0")/../launcher/lib.sh"
bin=$MPI_PROGRAMS

count() { grep -c -- "$1" <<<"$out"; }

run -n 2 --oversubscribe "$bin/mpi_spawn" one
check "MPI_Comm_spawn: exit 0 ($rc)" test "$rc" -eq 0
check "... parents and children pass" \
  test "$(count '^PASS spawning parents$')" -eq 1 -a "$(count '^PASS spawned children$')" -eq 1
check "... both children's output reaches drover" \
  test "$(count '^child [01] of 2, app 0$')" -eq 2
report

run -n 1 --oversubscribe "$bin/mpi_spawn" multiple
check "MPI_Comm_spawn_multiple: exit 0 ($rc)" test "$rc" -eq 0 -a "$(count '^PASS')" -eq 2
check "... one child of the first app, two of the second" \
  test "$(count '^child 0 of 3, app 0$')" -eq 1 -a "$(count '^child [12] of 3, app 1$')" -eq 2
report

run -n 2 --oversubscribe "$bin/mpi_spawn" status 5
check "spawned children exiting 5 make drover exit 5 ($rc)" test "$rc" -eq 5
check "... after the job's own ranks passed" test "$(count '^PASS spawning parents$')" -eq 1
check "... drover names the spawned job's rank" \
  grep -q 'rank [01] of drover-[0-9]*-1 (pid [0-9]*) exited with status 5' <<<"$err"
report 5

run -n 1 "$bin/mpi_spawn" missing
check "MPI_Comm_spawn of a missing program returns an error and the job goes on ($rc)" \
  test "$rc" -eq 0 -a "$out" = "PASS spawning parents"
check "... drover says which program in one line" \
  one_line "$err" "cannot spawn '/nonexistent/drover-test-program': no such file"
report

run -n 4 --oversubscribe "$bin/mpi_connect" job
check "connect/accept between the halves of one job: exit 0 ($rc)" \
  test "$rc" -eq 0 -a "$out" = "PASS connect/accept within a job"
report

run -n 2 --oversubscribe "$bin/mpi_connect" spawn
check "connect/accept between a job and the processes it spawned: exit 0 ($rc)" \
  test "$rc" -eq 0
check "... both sides pass" test "$(count '^PASS accept from spawned processes$')" -eq 1 \
  -a "$(count '^PASS connect from spawned processes$')" -eq 1
report

for n in 1 3; do
  run -n "$n" --oversubscribe "$bin/mpi_names"
  check "publish/lookup/unpublish on $n ranks: exit 0 ($rc)" \
    test "$rc" -eq 0 -a "$out" = "PASS name publishing"
  report
done
check "nothing left behind" no_leftovers
done_testing
