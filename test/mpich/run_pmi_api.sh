#!/usr/bin/env bash
# run_pmi_api.sh - programs written to the PMI-1 and PMI-2 APIs, linked
# with drover's libpmi.so.1 and libpmi2.so.0, run under drover run: every
# call of each API, spawn with a preput key and a working directory; then
# the same under Open MPI's mpirun hosting drover's server library.
source "$(dirname "$0")/../launcher/lib.sh"
bin=$MPICH_PROGRAMS

for n in 1 3; do
  run -n "$n" --oversubscribe "$bin/pmi1_api" basic
  check "PMI-1 API on $n ranks: every call ($rc)" \
    test "$rc" -eq 0 -a "$(grep -c "^PASS pmi1 rank [0-9] of $n" <<<"$out")" -eq "$n"
  report
  run -n "$n" --oversubscribe "$bin/pmi2_api"
  check "PMI-2 API on $n ranks: every call ($rc)" \
    test "$rc" -eq 0 -a "$(grep -c "^PASS pmi2 rank [0-9] of $n" <<<"$out")" -eq "$n"
  report
done
run -n 2 --oversubscribe "$bin/pmi1_api" spawn "$bin"
check "PMI_Spawn_multiple: two children in /tmp read the preput key ($rc)" \
  test "$rc" -eq 0 -a "$(grep -c '^PASS pmi1 child rank [01] of 2' <<<"$out")" -eq 2 \
    -a "$(grep -c '^PASS pmi1 spawner' <<<"$out")" -eq 2
report
check "nothing left behind" no_leftovers

# Another host of drover's server library: Open MPI's mpirun, with drover's
# libpmix.so.2 first on the library path. Its session files go to a TMPDIR
# of their own. A library built with sanitizers needs their runtimes loaded
# first in mpirun, as in the mpirun suite.
if command -v mpirun >/dev/null; then
  root_flag=""
  [ "$(id -u)" -eq 0 ] && root_flag="--allow-run-as-root"
  sanitizers=$(ldd "$DROVER_LIBDIR/libpmix.so.2" | awk '/lib(asan|ubsan)/ {printf "%s:", $3}')
  [ -z "$sanitizers" ] ||
    export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:suppressions=$(dirname "$0")/../mpirun/openmpi.supp"
  mkdir -p "$work/mpirun"
  for prog in "pmi1_api basic" pmi2_api; do
    # shellcheck disable=SC2086 # $prog is a program and its argument
    out=$(TMPDIR=$work/mpirun LD_PRELOAD="$sanitizers" LD_LIBRARY_PATH="$DROVER_LIBDIR" \
      timeout -s KILL 60 mpirun $root_flag -n 2 --oversubscribe "$bin/"$prog 2>&1)
    rc=$?
    check "${prog%% *} under Open MPI's mpirun on drover's library ($rc)" \
      test "$rc" -eq 0 -a "$(grep -c '^PASS pmi. rank [01] of 2' <<<"$out")" -eq 2
    report
  done
fi
done_testing
