#!/usr/bin/env bash
# run_pipe.sh - drover as the writer of a shell pipeline: when its reader
# goes (`drover run ... | head -1`), drover ends the job and itself by
# SIGPIPE (141 in a shell), at once, leaving nothing behind. It used to run
# on forever, dropping the output.
source "$(dirname "$0")/lib.sh"

marker="drover-pipe-test-$$"

# drover run ARGS with its STREAM (stdout or stderr) piped into head -1,
# under a hang guard; sets $rc (drover's status), $out (what head read),
# $err (drover's other stream), $elapsed and $pid (drover's).
pipeline() { # stream, then drover run args
  local stream=$1; shift
  rm -f "$work/pid"
  t0=$(date +%s.%N)
  if [ "$stream" = stdout ]; then
    timeout -s KILL 30 bash -c 'echo $$ >"$0"; exec "$@"' "$work/pid" \
      "$DROVER" run "$@" 2>"$work/err" | head -1 >"$work/out"
  else
    timeout -s KILL 30 bash -c 'echo $$ >"$0"; exec "$@"' "$work/pid" \
      "$DROVER" run "$@" 2>&1 >"$work/err" | head -1 >"$work/out"
  fi
  rc=${PIPESTATUS[0]}
  elapsed=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.3f", b - a}')
  pid=$(cat "$work/pid")
  out=$(cat "$work/out")
  err=$(cat "$work/err")
}

no_writer_left() { sleep 0.1; ! pgrep -f -- "$marker" >/dev/null; }

pipeline stdout -n 2 yes "$marker"
check "drover run -n 2 yes | head -1: drover ends by SIGPIPE, status 141 ($rc)" test "$rc" -eq 141
check "... at once (${elapsed}s)" within 10
check "... head got its line" test "$out" = "$marker"
check "... quietly" test -z "$err"
check "... no rank left writing" no_writer_left
check "... nothing left behind" no_leftovers

pipeline stderr -n 2 sh -c 'yes "$0" >&2' "$marker"
check "the same through stderr: status 141 ($rc)" test "$rc" -eq 141
check "... at once (${elapsed}s)" within 10
check "... head got its line" test "$out" = "$marker"
check "... no rank left writing" no_writer_left
check "... nothing left behind" no_leftovers

# Ranks that are PMIx clients and write nothing end too.
pipeline stdout -n 3 --oversubscribe sh -c \
  'if [ "$PMIX_RANK" = 0 ]; then yes "$0"; else exec "$1" sleep; fi' "$marker" "$CLIENT"
check "one rank writing, two sleeping in PMIx: status 141 ($rc)" test "$rc" -eq 141
check "... at once (${elapsed}s)" within 10
check "... no rank left writing" no_writer_left
check "... the sleeping ranks ended, nothing left behind" no_leftovers
done_testing
