#!/usr/bin/env bash
# daemon_standby.sh - the daemon's standby run (src/launcher/daemon_standby.c):
# a job started by it runs as a run of its own would (working directory,
# environment, fds, exit status, options; its command line and environment
# in /proc), the job's pid is the standby's,
# a job whose start-time environment differs gets a run of its own, a
# killed standby makes the next job fall back, and nothing of it is left
# after `daemon stop` or after the daemon is SIGKILLed.
source "$(dirname "$0")/lib.sh"

# Waits (bounded) for a standby other than $1 (default: any); prints it.
wait_standby() {
  local s
  for _ in $(seq 100); do
    s=$(standby_pid)
    if [ -n "$s" ] && [ "$s" != "${1:-}" ]; then
      echo "$s"
      return 0
    fi
    sleep 0.05
  done
  return 1
}

last_job_pid() {
  "$DROVER" ps --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[-1]["pid"])'
}

eventually() { # command...: succeeds within 5 s
  for _ in $(seq 100); do
    "$@" && return 0
    sleep 0.05
  done
  return 1
}

gone() { # pid: no such process within 5 s
  eventually test ! -d "/proc/$1"
}

# The variable is the daemon's: set by hand, one line and nothing run.
DROVER_DAEMON_STANDBY=3 dr run -n 1 echo ran
check "DROVER_DAEMON_STANDBY without the daemon's socket: exit 1, one line" \
  test "$rc" -eq 1 -a -z "$out" -a -n "$(one_line "$err" "daemon's own runs" && echo y)"
DROVER_DAEMON_STANDBY=3 dr run -n 1 echo ran 3</dev/null
check "... on a fd that is no socket: exit 1, one line" \
  test "$rc" -eq 1 -a -z "$out" -a -n "$(one_line "$err" "no job came" && echo y)"

# The standby must not hold the output of the command that started the
# daemon (a `$(drover daemon start)` would wait for it forever).
dr daemon start
check "the daemon starts" test "$rc" -eq 0
s1=$(wait_standby)
check "a standby run waits once the daemon has started" test -n "$s1"
check "... one only" test "$(standby_pid | wc -l)" -eq 1
check "... on the daemon's stdout (/dev/null) and stderr (its log)" \
  test "$(readlink "/proc/$s1/fd/1")" = /dev/null -a \
  "$(readlink "/proc/$s1/fd/2")" = "$(readlink -f "$state/daemon.log")"
# Its PMIx server and its second launching thread are started before its
# job comes (three threads), and fds 3-5 held (by /dev/null) for the job's.
prestarted() {
  [ "$(ls "/proc/$1/task" | wc -l)" -eq 3 ] || return 1
  for fd in 3 4 5; do
    [ "$(readlink "/proc/$1/fd/$fd")" = /dev/null ] || return 1
  done
}
check "... with its PMIx server started, and fds 3-5 kept for the job" eventually prestarted "$s1"

# A job through the standby: its own directory, environment, fds, status.
mkdir -p "$work/there"
out=$(cd "$work/there" && echo from-stdin | STANDBY_VAR=job-value \
  timeout -s KILL 60 "$DROVER" run --daemon -n 1 sh -c \
  'pwd; echo "$STANDBY_VAR"; cat; echo to-stderr >&2; exit 7' 2>"$work/err")
rc=$?
check "a job through the standby: its exit status (7)" test "$rc" -eq 7
check "... its working directory, environment and stdin" \
  test "$out" = "$work/there"$'\n'job-value$'\n'from-stdin
check "... its stderr" test "$(head -1 "$work/err")" = to-stderr
check "... and its run was the standby (same pid)" test "$(last_job_pid)" = "$s1"
check "... which is gone once the job ended" gone "$s1"
s2=$(wait_standby "$s1")
check "another standby replaces the one used" test -n "$s2"

# What the system shows of the run (ps, /proc) is the job's, as for a run
# of its own: its command line and environment. The rank reads its run's,
# once the run has written them (just after its ranks started: the rank
# waits up to 5 s while its run still shows the waiting `drover run`).
shown='for i in $(seq 50); do [ "$(tr "\0" " " </proc/$PPID/cmdline)" != "drover run " ] && break
  sleep 0.1; done; tr "\0" "\n" </proc/$PPID/cmdline | grep -v "^$"
  echo ---; tr "\0" "\n" </proc/$PPID/environ | grep "^STANDBY_MARK="'
shows() { # a job's output: the run's arguments, a line each, then ---, then MARK
  "$DROVER" run --daemon -n 1 sh -c "$shown"
}
expected=$(printf '%s\n' drover run --daemon -n 1 sh -c "$shown"; echo ---; echo STANDBY_MARK=job-only)
check "a waiting standby shows as \`drover run\`" \
  test "$(tr '\0' ' ' <"/proc/$s2/cmdline" | sed 's/ *$//')" = "drover run"
out=$(STANDBY_MARK=job-only timeout -s KILL 60 bash -c "$(declare -f shows); DROVER=$DROVER shown='$shown' shows")
check "a job's run shows the job's command line and environment" test "$out" = "$expected"
check "... (that job ran in the standby)" test "$(last_job_pid)" = "$s2"
s2=$(wait_standby "$s2")
out=$(STANDBY_MARK=job-only BIG=$(head -c 20000 /dev/zero | tr '\0' x) timeout -s KILL 60 \
  bash -c "$(declare -f shows); DROVER=$DROVER shown='$shown' shows")
check "a job's environment too large for the standby's room: shown all the same" \
  test "$out" = "$expected"
check "... by a run of its own" test "$(last_job_pid)" != "$s2" -a "$(standby_pid)" = "$s2"

# Options the standby cannot have known.
out=$(timeout -s KILL 60 "$DROVER" run --daemon --tag-output -n 2 --oversubscribe \
  sh -c 'echo "r$PMIX_RANK"' | sort | tr '\n' ' ')
check "--tag-output is honoured through the standby" test "$out" = "[0] r0 [1] r1 "
check "... (that job ran in the standby)" test "$(last_job_pid)" = "$s2"
s3=$(wait_standby "$s2")
cores=$(nproc)
for opt in "" --use-hwthread-cpus; do
  timeout -s KILL 60 "$DROVER" run $opt -n $((cores + 1)) true >/dev/null 2>"$work/alone"
  alone=$?
  s=$(wait_standby)
  timeout -s KILL 60 "$DROVER" run --daemon $opt -n $((cores + 1)) true >/dev/null \
    2>"$work/err"
  check "${opt:-no option}: more ranks than slots, as a standalone run says" \
    test $? -eq "$alone" -a "$(cat "$work/err")" = "$(cat "$work/alone")" \
    -a -s "$work/err"
  check "... (that job ran in the standby)" test "$(last_job_pid)" = "$s"
done
s4=$(wait_standby)
timeout -s KILL 60 "$DROVER" run --daemon --trace "$work/trace.json" -n 2 --oversubscribe \
  "$CLIENT" fence >/dev/null
check "--trace through the standby: status 0" test $? -eq 0
check "... the trace has the ranks' requests, the server started before --trace was known" \
  "$(dirname "$0")/../launcher/trace_check.py" "$work/trace.json" 2 2
check "... (that job ran in the standby)" test "$(last_job_pid)" = "$s4"

# A submitted job: output files, and its trace, as ever.
s5=$(wait_standby "$s4")
dr submit -n 2 --oversubscribe sh -c 'echo "out $PMIX_RANK"'
id=$out
dr wait "$id"
check "a submitted job through the standby: status 0" test "$rc" -eq 0
check "... (it ran in the standby)" test "$(last_job_pid)" = "$s5"
dr output "$id"
check "... its output kept" test "$(sort <<<"$out" | tr '\n' ' ')" = "out 0 out 1 "
dr trace "$id"
check "... and its trace" grep -q '"traceEvents"' <<<"$out"

# What the process reads as it starts must be the job's.
s6=$(wait_standby "$s5")
out=$(LD_BIND_NOW=1 timeout -s KILL 60 "$DROVER" run --daemon -n 1 sh -c 'echo "$LD_BIND_NOW"')
check "a job whose LD_* differs: runs, with it" test "$out" = 1
check "... in a run of its own (not the standby)" test "$(last_job_pid)" != "$s6"
check "... and the standby still waits" test "$(standby_pid)" = "$s6"

# A standby killed: the next job falls back, and a new standby follows.
kill -KILL "$s6"
check "a killed standby is reaped" gone "$s6"
out=$(timeout -s KILL 60 "$DROVER" run --daemon -n 1 sh -c 'echo fell back; exit 3')
check "... the next job still runs (its status, 3)" test $? -eq 3 -a "$out" = "fell back"
check "... in a run of its own" test "$(last_job_pid)" != "$s6"
s7=$(wait_standby "$s6")
check "... and a standby comes back once it has ended" test -n "$s7"
out=$(timeout -s KILL 60 "$DROVER" run --daemon -n 1 echo again)
check "... and is used" test "$out" = again -a "$(last_job_pid)" = "$s7"

# The standby makes its session before its job comes; the anchor guarding
# it learns the job's /dev/shm prefix and grace all the same: the run
# SIGKILLed mid-job (its rank dies with it, PR_SET_PDEATHSIG), what the rank
# started gets the job's grace after SIGTERM, and the job's segments go.
s8=$(wait_standby "$s7")
dr submit --grace 4 -n 1 sh -c '
  (trap "sleep 1; touch $0/termed; exit 0" TERM; while :; do sleep 0.1; done) >/dev/null 2>&1 &
  : >"/dev/shm/$PMIX_NAMESPACE-seg"; echo "$PMIX_NAMESPACE" >"$0/ready"; wait' "$work"
for _ in $(seq 100); do [ -s "$work/ready" ] && break; sleep 0.05; done
nspace=$(cat "$work/ready")
check "a job through the standby made a segment" \
  test "$(last_job_pid)" = "$s8" -a -e "/dev/shm/$nspace-seg"
kill -KILL "$s8"
check "its run SIGKILLed: the rank's child had the job's grace after SIGTERM" \
  eventually test -e "$work/termed"
check "... its segment is removed" eventually test ! -e "/dev/shm/$nspace-seg"
check "... and nothing is left" jobs_gone "$s8"

# The session made ahead removed while the standby waits (a cleaner of
# old files in TMPDIR): the job gets a new one.
s9=$(wait_standby "$s8")
rm -rf "$TMPDIR/drover.$s9."*
out=$(timeout -s KILL 60 "$DROVER" run --daemon -n 1 echo anew)
check "the standby's session removed before its job: the job runs" \
  test $? -eq 0 -a "$out" = anew -a "$(last_job_pid)" = "$s9"
check "... and leaves nothing" jobs_gone "$s9"

# Nothing left: after stop, and after the daemon is SIGKILLed.
s8=$(wait_standby "$s9")
pids=$(job_pids)
dr daemon stop
check "daemon stop: the standby is gone" gone "$s8"
check "... with every job's run, and nothing left" jobs_gone $pids
check "... nor in the state directory" stopped

# A job's command has its status before the run's teardown: stopping or
# killing the daemon at once must not leave that run's files behind.
dr daemon start
s9=$(wait_standby)
out=$(timeout -s KILL 60 "$DROVER" run --daemon -n 2 --oversubscribe echo done)
run9=$(last_job_pid)
dr daemon stop
check "daemon stop just after a job's status: its run's teardown completes" \
  test "$rc" -eq 0 -a "$run9" = "$s9"
check "... nothing of it left" jobs_gone "$run9"

dr daemon start
s10=$(wait_standby)
check "a new daemon has a standby" test -n "$s10"
kill -KILL "$(daemon_pid)"
check "the daemon SIGKILLed: its standby dies with it" gone "$s10"
check "... leaving nothing" jobs_gone "$s10"

dr daemon start
wait_standby >/dev/null
out=$(timeout -s KILL 60 "$DROVER" run --daemon -n 2 --oversubscribe echo done)
run11=$(last_job_pid)
kill -KILL "$(daemon_pid)"
check "the daemon SIGKILLed as a job's command returns: the job's run ends" gone "$run11"
check "... leaving nothing" jobs_gone "$run11"

done_testing
