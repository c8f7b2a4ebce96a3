#!/usr/bin/env bash
# run-caf.sh - runs one coarray test program and judges it.
#
#   run-caf.sh IMAGES PROGRAM [STATUS [MESSAGE]]
#
# IMAGES 0 runs PROGRAM directly, without a launcher (a single image);
# otherwise $CAF_LAUNCH (a launcher command ending in its "-n" option) starts
# IMAGES images. Passes when the job exits with STATUS (default 0), prints the
# program's PASS line (for STATUS 0) or MESSAGE (otherwise; by default
# "ERROR STOP STATUS"), and leaves no shared-memory segment behind.
set -u
images=$1 program=$2 want=${3:-0} message=${4:-"ERROR STOP ${3:-0}"}
segments() { ls /dev/shm | grep '^drover-.*\.caf\.' | sort; }
shm_before=$(segments)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if [ "$images" -eq 0 ]; then
  timeout 60 "$program" >"$out" 2>&1
else
  # shellcheck disable=SC2086 # CAF_LAUNCH is a command with arguments
  timeout 60 $CAF_LAUNCH "$images" "$program" >"$out" 2>&1
fi
status=$?
cat "$out"
name=$(basename "$program")
fail=0
if [ "$status" -ne "$want" ]; then
  echo "not ok - $name on $images images exited with $status, expected $want"
  fail=1
elif [ "$want" -eq 0 ] && ! grep -q '^PASS ' "$out"; then
  echo "not ok - $name on $images images printed no PASS line"
  fail=1
elif [ "$want" -ne 0 ] && ! grep -qF "$message" "$out"; then
  echo "not ok - $name on $images images did not report \"$message\""
  fail=1
fi
# Segments of jobs running beside this one live for milliseconds; one that
# appeared during the run and is still there two seconds later is left over.
new=$(comm -13 <(echo "$shm_before") <(segments))
[ -n "$new" ] && sleep 2
left=$(comm -12 <(echo "$new") <(segments))
if [ -n "$left" ]; then
  echo "not ok - $name on $images images left segments in /dev/shm"
  fail=1
fi
[ "$fail" -eq 0 ] && echo "ok - $name on $images images"
exit "$fail"
