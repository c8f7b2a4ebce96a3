#!/usr/bin/env bash
# run_basic.sh - unmodified Open MPI programs direct-launched by drover run:
# point-to-point and collectives, the shared-memory transport between the
# ranks, 64 oversubscribed ranks, and what drover puts in the environment.
source "$(dirname "$0")/../launcher/lib.sh"
bin=$MPI_PROGRAMS

for n in 1 2 3; do
  run -n "$n" --oversubscribe "$bin/mpi_ring"
  check "ring on $n ranks: exit 0 and PASS ($rc)" \
    test "$rc" -eq 0 -a "$out" = "PASS ring of $n ranks"
  check "... and not a word from Open MPI on stderr" test -z "$err"
  report
  run -n "$n" --oversubscribe "$bin/mpi_collectives"
  check "collectives on $n ranks: exit 0 and PASS ($rc)" \
    test "$rc" -eq 0 -a "$out" = "PASS collectives on $n ranks"
  report
done

# With only self and vader (shared memory) allowed, ranks that vader could
# not connect would fail MPI_Init or their first send; the BML's verbose
# output names the transport each rank picked for each peer.
run -n 2 -x OMPI_MCA_btl=self,vader -x OMPI_MCA_btl_base_verbose=100 "$bin/mpi_ring"
check "ring with only self,vader: exit 0 ($rc)" test "$rc" -eq 0 -a "$(grep -c '^PASS' <<<"$out")" -eq 1
for r in 0 1; do
  check "rank $((1 - r)) sends to rank $r through vader" \
    grep -q "Using vader btl for send to \[\[[0-9]*,[0-9]*\],$r\]" <<<"$out$err"
done
check "... and nobody through tcp" test -z "$(grep 'Using tcp btl' <<<"$out$err")"
report
run -n 2 -x OMPI_MCA_btl=self,tcp -x OMPI_MCA_btl_base_verbose=100 "$bin/mpi_ring"
check "the same check sees tcp when only tcp is allowed" \
  grep -q 'Using tcp btl for send' <<<"$out$err"

GUARD_SECONDS=120 run -n 64 --oversubscribe "$bin/mpi_collectives"
check "64 oversubscribed ranks: collectives pass ($rc, ${elapsed}s)" \
  test "$rc" -eq 0 -a "$out" = "PASS collectives on 64 ranks"
report
GUARD_SECONDS=120 run -n 64 --oversubscribe "$bin/mpi_ring"
check "64 oversubscribed ranks: ring passes ($rc, ${elapsed}s)" \
  test "$rc" -eq 0 -a "$out" = "PASS ring of 64 ranks"
report

# An MPMD job file: both apps in one MPI_COMM_WORLD, each rank with its
# app's MPI_APPNUM.
cat >"$work/mpmd.yml" <<EOF
oversubscribe: true
apps:
  - {program: $bin/mpi_ring, args: [appnum, 0], count: 2}
  - {program: $bin/mpi_ring, args: [appnum, 1]}
EOF
run "$work/mpmd.yml"
check "MPMD job file: one ring of 3 ranks, MPI_APPNUM 0, 0, 1 ($rc)" \
  test "$rc" -eq 0 -a "$out" = "PASS ring of 3 ranks"
report

run -n 1 printenv OMPI_MCA_schizo OMPI_MCA_pml
check "the ranks get OMPI_MCA_schizo=^orte,slurm,flux,jsm and OMPI_MCA_pml=ob1" \
  test "$out" = $'^orte,slurm,flux,jsm\nob1'
# drover inside a resource manager's job still launches the ranks itself.
for rm in "SLURM_JOBID=7 SLURM_NODELIST=$(hostname)" \
          "SLURM_JOBID=7 SLURM_NODELIST=$(hostname) SLURM_STEP_ID=0" "FLUX_JOB_ID=7"; do
  # shellcheck disable=SC2086 # $rm is a list of assignments
  result=$(export $rm; run -n 2 "$bin/mpi_ring"; echo "$rc $out")
  check "inside a job with $rm: the ranks are drover's" test "$result" = "0 PASS ring of 2 ranks"
done
run -n 1 printenv OMPI_MCA_mpi_oversubscribe
check "no OMPI_MCA_mpi_oversubscribe while a core is free" \
  test "$rc" -eq 1 -a -z "$out"
more=$(($(nproc) + 1))
run -n "$more" --oversubscribe printenv OMPI_MCA_mpi_oversubscribe
check "OMPI_MCA_mpi_oversubscribe=1 when the ranks outnumber the cores" \
  test "$(sort -u <<<"$out")" = 1 -a "$(grep -c . <<<"$out")" -eq "$more"
OMPI_MCA_pml=cm run -n 1 -x OMPI_MCA_schizo=ompi printenv OMPI_MCA_schizo OMPI_MCA_pml
check "... settings the user made (-x, environment) win" test "$out" = $'ompi\ncm'
# meson's LD_LIBRARY_PATH would name drover's library too.
LD_LIBRARY_PATH= run -n 2 --no-libpmix-path "$bin/mpi_ring"
check "--no-libpmix-path: Open MPI's own libpmix cannot reach drover: MPI_Init fails ($rc)" \
  test "$rc" -ne 0 -a -z "$out"
check "... in seconds (${elapsed}s)" within 10
check "nothing left behind" no_leftovers
done_testing
