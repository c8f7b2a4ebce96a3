#!/usr/bin/env bash
# run_opencoarrays.sh - OpenCoarrays' own test programs (Debian's
# libcoarrays-openmpi-dev: coarray Fortran on Open MPI) direct-launched by
# drover run on 2 to 8 images. Each must exit 0 and print its
# "Test passed" line. The set covers collectives, synchronisation, atomics,
# events, gets and puts (strided, converted, with vector indices), teams
# and component allocation. Then some of this project's coarray programs
# (test/caf), built with OpenCoarrays' caf wrapper, run the same way.
source "$(dirname "$0")/../launcher/lib.sh"
# The programs run through links in this test's own directory, so that
# looking for leftovers finds only this test's processes, never those of
# someone else running the same installed programs.
CLIENT=$work/bin
mkdir "$CLIENT"

tests=(
  "co_sum_test 2 8" "co_broadcast_test 3" "co_reduce_test 4" "co_max_test 2"
  "co_min_test 5" "co_reduce_string 3" "co_broadcast_derived_type_test 6"
  "syncimages 2 8" "syncimages2 4" "duplicate_syncimages 3" "atomics 2 6"
  "allocatable_p2p_event_post 4" "static_event_post_issue_293 4"
  "get_array 2" "send_array 2" "strided_get 3" "strided_sendget 4"
  "whole_get_array 4" "get_with_vector_index 3" "send_convert_nums 2"
  "sendget_convert_char_array 4" "coarray_distributed_transpose 4"
  "coarray_burgers_pde 2" "hello_multiverse 8" "teams_subset 4"
  "teams_coarray_sendget 4" "register_alloc_comp_1 3" "async_comp_alloc 2"
  "image_status_test_1 4" "source-alloc-sync 8"
)
for spec in "${tests[@]}"; do
  read -r name counts <<<"$spec"
  for n in $counts; do
    ln -sf "$OPENCOARRAYS_TESTS/$name" "$CLIENT/$name"
    run -n "$n" --oversubscribe "$CLIENT/$name"
    check "$name on $n images: exit 0 and a 'Test passed' line ($rc, ${elapsed}s)" \
      test "$rc" -eq 0 -a "$(grep -ci 'test passed' <<<"$out")" -ge 1
    [ "$rc" -eq 0 ] || printf '%s\n%s\n' "$out" "$err" | tail -5
  done
done
for spec in "images 2 5" "events 2 8" "teams 3 8"; do
  read -r name counts <<<"$spec"
  (cd "$CLIENT" && "$OPENCOARRAYS_CAF" -o "oc_$name" "$CAF_SOURCES/$name.f90")
  for n in $counts; do
    run -n "$n" --oversubscribe "$CLIENT/oc_$name"
    check "$name.f90 built by caf on $n images: exit 0 and PASS ($rc, ${elapsed}s)" \
      test "$rc" -eq 0 -a "$(grep -c "^PASS $name" <<<"$out")" -eq 1
    [ "$rc" -eq 0 ] || printf '%s\n%s\n' "$out" "$err" | tail -5
  done
done
check "nothing left behind" no_leftovers
done_testing
