#!/usr/bin/env bash
# daemon_output.sh - a daemon job's output by rank, and across daemons: a
# PMIx tool (daemon_tool.c, run with drover's libpmix.so.2) pulling one
# rank's stdout gets that rank's lines alone, from that rank; pulling every
# rank gets all, each from its own rank and channel; PMIX_FWD_STDOUT keeps
# stderr out. `drover output` is what a standalone run prints; --rank and
# --tag-output; output larger than a pipe whole and in order; the jobs'
# output and traces after `daemon stop` and after a SIGKILLed daemon; only
# the newest jobs' directories kept.
source "$(dirname "$0")/lib.sh"

# Files of a pull, by source and channel ("go" is the tool's signal).
pulled() { ls "$1" | grep -vx go | tr '\n' ' '; }

lines() { printf '%s\n' "$@"; }

dr daemon start
check "the daemon starts" test "$rc" -eq 0

# Each rank waits for the tool's pull, then writes two lines on stdout and
# one on stderr.
ranks='while [ ! -e "$0/go" ]; do sleep 0.05; done
echo "out $PMIX_RANK a"; echo "err $PMIX_RANK" >&2; echo "out $PMIX_RANK b"'

mkdir "$work/one"
tool iof "$work/one" 1 out 3 sh -c "$ranks" "$work/one"
check "a tool pulls rank 1's stdout of a 3-rank job" test "$trc" -eq 0
[ "$trc" -eq 0 ] || cat "$work/tout" "$work/terr"
check "... it gets rank 1's lines, with source rank 1, and nothing else (no stderr)" \
  test "$(pulled "$work/one")" = "1.out " -a "$(cat "$work/one/1.out" 2>/dev/null)" = \
  "$(lines "out 1 a" "out 1 b")"

mkdir "$work/all"
tool iof "$work/all" all both 3 sh -c "$ranks" "$work/all"
check "a tool pulls every rank's stdout and stderr" test "$trc" -eq 0
check "... each piece comes from its true rank and channel" \
  test "$(pulled "$work/all")" = "0.err 0.out 1.err 1.out 2.err 2.out "
ok=y
for r in 0 1 2; do
  [ "$(cat "$work/all/$r.out")" = "$(lines "out $r a" "out $r b")" ] || ok=
  [ "$(cat "$work/all/$r.err")" = "err $r" ] || ok=
done
check "... with each rank's own lines, in order" test -n "$ok"

tool fwd 3 sh -c 'echo "fwd-out $PMIX_RANK"; echo "fwd-err $PMIX_RANK" >&2'
check "PMIX_FWD_STDOUT: every rank's stdout on the tool's stdout" \
  test "$trc" -eq 0 -a "$(grep '^fwd' "$work/tout" | sort | tr '\n' ' ')" = \
  "fwd-out 0 fwd-out 1 fwd-out 2 "
check "... and their stderr nowhere (not asked for)" \
  test -z "$(grep -h fwd-err "$work/tout" "$work/terr")"

# drover output, as a standalone run prints it.
job='echo "out $PMIX_RANK a"; echo "err $PMIX_RANK" >&2; echo "out $PMIX_RANK b"'
dr run -n 3 --oversubscribe sh -c "$job"
alone_out=$(sort <<<"$out")
alone_err=$(sort <<<"$err")
dr run -n 3 --oversubscribe --tag-output sh -c "$job"
tagged_out=$(sort <<<"$out")
tagged_err=$(sort <<<"$err")
dr submit -n 3 --oversubscribe sh -c "$job"
id=$out
dr wait "$id"
dr output "$id"
check "drover output: the job's stdout and stderr, as a standalone run's" \
  test "$rc" -eq 0 -a "$(sort <<<"$out")" = "$alone_out" -a "$(sort <<<"$err")" = "$alone_err"
check "... exactly the job's files" \
  test "$out" = "$(cat "$state/jobs/$id/stdout")" -a "$err" = "$(cat "$state/jobs/$id/stderr")"
all_out=$out
all_err=$err
dr output "$id" --rank 1
check "drover output --rank 1: rank 1's stdout and stderr alone" \
  test "$rc" -eq 0 -a "$out" = "$(lines "out 1 a" "out 1 b")" -a "$err" = "err 1"
dr output "$id" --tag-output
check "drover output --tag-output: every line tagged, as drover run --tag-output" \
  test "$rc" -eq 0 -a "$(sort <<<"$out")" = "$tagged_out" -a "$(sort <<<"$err")" = "$tagged_err"
dr output "$id" --tag-output --rank 2
check "... with --rank 2: rank 2's lines, tagged" \
  test "$rc" -eq 0 -a "$out" = "$(lines "[2] out 2 a" "[2] out 2 b")" -a "$err" = "[2] err 2"
dr output "$id" --rank 7
check "... a rank the job does not have: nothing" test "$rc" -eq 0 -a -z "$out$err"
dr output "$id" --rank -1
check "... --rank that is no rank: exit 2, one line" \
  test "$rc" -eq 2 -a -n "$(one_line "$err" "'-1'" && echo y)"
dr output "$id" --follow --rank 0
check "... --follow --rank 0 of an ended job: its lines, its status" \
  test "$rc" -eq 0 -a "$out" = "$(lines "out 0 a" "out 0 b")"

dr submit -n 2 --oversubscribe sh -c 'for i in 1 2 3; do echo "r$PMIX_RANK $i"; sleep 0.2; done
exit 4'
dr output "$out" --follow --rank 1
check "... --follow --rank 1 of a running job: rank 1's lines as they come, the job's status" \
  test "$rc" -eq 4 -a "$out" = "$(lines "r1 1" "r1 2" "r1 3")"

# More than a pipe holds, from one rank: whole and in order.
seq 1 200000 >"$work/seq"
dr submit -n 2 --oversubscribe sh -c '[ "$PMIX_RANK" = 0 ] && seq 1 200000; echo "done $PMIX_RANK"'
big=$out
dr wait "$big"
dr output "$big" --rank 0
check "1.3 MB from rank 0: drover output --rank 0 has all of it, in order" \
  test "$rc" -eq 0 -a "$out" = "$(cat "$work/seq"; echo "done 0")"
dr output "$big"
check "... and drover output all of it, with rank 1's line" \
  test "$(grep -vx "done 1" <<<"$out")" = "$(cat "$work/seq"; echo "done 0")" \
  -a "$(grep -cx "done 1" <<<"$out")" -eq 1
mkdir "$work/big"
tool iof "$work/big" 0 out 2 sh -c \
  'while [ ! -e "$0/go" ]; do sleep 0.05; done; [ "$PMIX_RANK" = 0 ] && seq 1 200000
   echo "done $PMIX_RANK"' "$work/big"
check "... a tool pulling rank 0 gets all of it, in order, from rank 0 alone" \
  test "$trc" -eq 0 -a "$(pulled "$work/big")" = "0.out " -a \
  "$(cat "$work/big/0.out" 2>/dev/null)" = "$(cat "$work/seq"; echo "done 0")"

# Across daemons: stop, start; SIGKILL, start.
dr trace "$id"
trace_before=$out
runs=$(job_pids)
dr daemon stop
check "daemon stop: the state directory keeps the journal and the jobs' directories alone" \
  stopped
check "... the jobs' directories are there" test -f "$state/jobs/$id/ranks"
check "... the runs left nothing" jobs_gone $runs
dr daemon start
dr output "$id"
check "a new daemon: drover output of an earlier daemon's job" \
  test "$rc" -eq 0 -a "$out" = "$all_out" -a "$err" = "$all_err"
dr output "$id" --rank 1
check "... --rank 1 too" test "$rc" -eq 0 -a "$out" = "$(lines "out 1 a" "out 1 b")"
dr trace "$id"
check "... and drover trace of it" test "$rc" -eq 0 -a "$out" = "$trace_before"
dr submit -n 1 sh -c 'echo "before the kill"; exec sleep 300'
lost=$out
for _ in $(seq 200); do
  grep -q "before the kill" "$state/jobs/$lost/stdout" 2>/dev/null && break
  sleep 0.05
done
runs=$(job_pids)
pid=$(daemon_pid)
kill -KILL "$pid"
for _ in $(seq 100); do [ -d "/proc/$pid" ] || break; sleep 0.05; done
check "the daemon SIGKILLed: its jobs end, leaving nothing" jobs_gone $runs
dr daemon start
check "... a new daemon starts" test "$rc" -eq 0
dr output "$id"
check "... drover output of the old job" \
  test "$rc" -eq 0 -a "$out" = "$all_out" -a "$err" = "$all_err"
dr trace "$id"
check "... and drover trace of it" test "$rc" -eq 0 -a "$out" = "$trace_before"
dr output "$lost"
check "... the job lost with the daemon keeps what it wrote" \
  test "$rc" -eq 0 -a "$out" = "before the kill"

# Only the newest jobs' directories are kept.
first=$(ls "$state/jobs" | sort -n | head -1)
for i in $(seq 100); do
  "$DROVER" submit -n 1 true >/dev/null || break
done
dr submit -n 1 true
dr wait "$out"
for _ in $(seq 100); do [ -z "$("$DROVER" ps | grep -E 'queued|running')" ] && break; sleep 0.1; done
check "after 100 more jobs, 100 ended jobs keep their directories" \
  test "$(ls "$state/jobs" | wc -l)" -eq 100
check "... the oldest went" test ! -e "$state/jobs/$first"
dr output "$first"
check "... its output is no longer kept: exit 1, one line" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "no output kept" && echo y)"
dr daemon stop
dr daemon start
check "... a new daemon keeps them" test "$(ls "$state/jobs" | wc -l)" -eq 100

check "the daemon logged no sanitizer report" \
  test -z "$(grep -E "Sanitizer|runtime error" "$state/daemon.log")"
done_testing
