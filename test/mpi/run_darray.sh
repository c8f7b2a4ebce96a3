#!/usr/bin/env bash
# run_darray.sh - drover_type_create_darray against Open MPI's
# MPI_Type_create_darray: for every rank of the cases of darray_cases.h,
# the same size, lb, extent, true extent, get_contents integers and type
# map (darray_mpi.c under drover run, darray_drover.c directly).
source "$(dirname "$0")/../launcher/lib.sh"
bin=$MPI_PROGRAMS

run -n 1 "$bin/mpi_darray"
check "Open MPI describes every case ($rc)" test "$rc" -eq 0
report
mpi=$out
ours=$("$DARRAY_DROVER")
check "drover describes every case ($?)" test -n "$ours"
check "... with as many lines as Open MPI ($(wc -l <<<"$ours"))" \
  test "$(wc -l <<<"$ours")" -eq "$(wc -l <<<"$mpi")" -a "$(wc -l <<<"$mpi")" -ge 40
check "... every one of them the same" diff <(echo "$mpi") <(echo "$ours")
check "... among them shares that hold something and shares that do not" \
  test "$(grep -c ' darray 1 ' <<<"$ours")" -ge 30 -a "$(grep -c ' empty$' <<<"$ours")" -ge 2
done_testing
