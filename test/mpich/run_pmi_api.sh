#!/usr/bin/env bash
# run_pmi_api.sh - programs written to the PMI-1 and PMI-2 APIs, linked
# with drover's libpmi.so.1 and libpmi2.so.0, run under drover run: every
# call of each API, spawn with a preput key and a working directory.
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
done_testing
