#!/usr/bin/env bash
# hostile.sh - another user cannot stop a user's coarray jobs by creating,
# before the job starts, files with the names its images will use for
# their shared-memory segments: the old fixed names
# /dev/shm/<namespace>.caf.<rank> and guesses at the new ones.
#
#   hostile.sh DROVER PROGRAM      (PROGRAM: images.f90 built with drover caf)
# Run as root: the job runs as a second user, root plays the other user
# (whose files the job's user cannot remove).
DROVER=$(realpath "$1") program=$(realpath "$2")
source "$(dirname "$0")/../launcher/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
  echo "# needs root, to add a second user"
  exit 77
fi
make_user || { echo "not ok - cannot add a second user"; exit 1; }
chmod 755 "$work"
chown "$other" "$TMPDIR"

for images in 2 4; do
  gate=$TMPDIR/pid # the job's user writes it
  rm -f "$gate" "$gate.go"
  # bash writes its pid, then becomes drover.
  timeout -s KILL 60 "${as_other[@]}" env TMPDIR="$TMPDIR" bash -c 'echo $$ >"$0.tmp"; mv "$0.tmp" "$0"
    while [ ! -e "$0.go" ]; do sleep 0.01; done
    exec "$@"' "$gate" \
    "$DROVER" run --oversubscribe -n "$images" "$program" >"$work/out" 2>&1 &
  tpid=$!
  for _ in $(seq 1000); do [ -s "$gate" ] && break; sleep 0.01; done
  pid=$(cat "$gate")
  planted=()
  for r in $(seq 0 $((images - 1))); do
    for name in "drover-$pid-0.caf.$r" "drover-$pid-0.caf.$r.0000000000000000" \
                "drover-$pid-0.caf.$r.$(od -An -tx8 -N8 /dev/urandom | tr -d ' ')"; do
      : >"/dev/shm/$name"
      chmod 600 "/dev/shm/$name"
      planted+=("/dev/shm/$name")
    done
  done
  touch "$gate.go"
  wait "$tpid"
  rc=$?
  out=$(cat "$work/out")
  check "$images images run with the segment names planted by another user ($rc)" test "$rc" -eq 0
  check "... and pass" grep -q "^PASS images ($images images)" <<<"$out"
  [ "$rc" -eq 0 ] || head -5 <<<"$out"
  rm -f "${planted[@]}"
  check "... leaving nothing of their own in /dev/shm" \
    test -z "$(ls /dev/shm | grep -F -- "drover-$pid-")"
done
done_testing
