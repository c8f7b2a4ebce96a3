#!/usr/bin/env bash
# daemon_store.sh - the store the daemon's jobs share: a name published by
# one job and looked up by another; PMIx_Connect across jobs (waiting for
# every job, then the other job's job-level and committed data; failing
# when a job ends without joining or at the timeout; a standalone run's
# connect with a job it spawned; the other job forgotten by a run once no
# connect or group of its ranks names it); PMIx_Group_construct across jobs
# (one context id, the members' data, the other job registered; a member's
# leave and end heard by the other job's members); an application's event
# for another job's process; a lookup
# waiting for a later publish,
# each persistence rule, ranges that stay in their run; the journal: a
# daemon killed with SIGKILL and started again keeps the INDEF
# publications and the job history (the running job as lost), a torn
# last record is ignored, and `stop` keeps the journal alone.
source "$(dirname "$0")/lib.sh"

dr daemon start
check "the daemon starts" test "$rc" -eq 0

# Foreground jobs through the daemon: their output is ours (their runs'
# stderr is kept, for sanitizer reports).
ranks() {
  local n=$1
  shift
  dr run --daemon -n "$n" --oversubscribe "$STORE" "$@"
  printf '%s\n' "$err" >>"$work/runs.err"
}
job() { ranks 1 "$@"; }
sanitizer() { grep -E "Sanitizer|runtime error" "$@"; }
# A submitted job whose rank 0 publishes and whose rank 1 stays.
held() {
  dr submit -n 2 --oversubscribe "$STORE" publish "$@" none 60
  held_job=$out
  for _ in $(seq 200); do
    grep -q published "$state/jobs/$held_job/stdout" 2>/dev/null &&
      grep -q holding "$state/jobs/$held_job/stdout" && return 0
    sleep 0.05
  done
  return 1
}
gone() { # the lookup of $1 fails within 5 s (the end of a publisher is passed on)
  for _ in $(seq 50); do
    job lookup "$1"
    [ "$rc" -eq 1 ] && return 0
    sleep 0.1
  done
  return 1
}

check "job 1 publishes svc.a (session)" held svc.a hello session
job lookup svc.a
check "job 2 looks it up" grep -q "^svc.a=hello (from .* rank 0)$" <<<"$out"
ns=$(sed 's/.*from \(.*\) rank 0)$/\1/' <<<"$out")
dr run -n 1 "$STORE" lookup svc.a
check "a standalone run does not see the daemon's store" test "$rc" -eq 1
dr kill "$held_job"
dr wait "$held_job"
check "SESSION: gone when the publisher's job ends" gone svc.a

# PMIx_Connect across jobs: a job of 2 connects at once, one of 3 comes
# 2 s late; each then gets the other's job-level data and committed data.
seconds() { sed -n 's/.* after \([0-9.]*\) s.*/\1/p' <<<"$1"; }
shown() { "$@" || { sed 's/^/# output: /' <<<"$out"; return 1; }; }
# The output of submitted job $1 once it has ended; $rc: its exit status.
ended_output() {
  dr wait "$1"
  local waited=$rc
  dr output "$1"
  rc=$waited
}
all_at_least() { awk -v min="$1" '$1 < min { bad = 1 } END { exit bad || NR != '"$2"' }'; }
all_below() { awk -v max="$1" '$1 >= max { bad = 1 } END { exit bad || NR != '"$2"' }'; }
host=$(uname -n)
dr submit -n 2 --oversubscribe "$STORE" meet meet.a meet.b 0 30
early=$out
ranks 3 meet meet.b meet.a 2 30
late=$out
check "PMIx_Connect of a job of 2 and a job of 3 (arriving 2 s late): the late one's 3 ranks" \
  shown test "$(grep -c "^rank [012]: connected after [0-9.]* s; size 2; host $host; appnum 0; peers 0,1; says hello from rank 1; disconnected$" <<<"$late")" -eq 3
check "... get the other job's size, a rank's host, appnum and data, its peers, and disconnect" \
  test "$rc" -eq 0
check "... and were not held" all_below 1.5 3 <<<"$(seconds "$late")"
dr wait "$early"
check "... the early job succeeds" test "$rc" -eq 0
dr output "$early"
check "... its 2 ranks get the late job's size 3, host, appnum, data and peers" \
  test "$(grep -c "^rank [01]: connected after [0-9.]* s; size 3; host $host; appnum 0; peers 0,1,2; says hello from rank 2; disconnected$" <<<"$out")" -eq 2
check "... after waiting in PMIx_Connect until the late job came (>= 1.5 s)" \
  all_at_least 1.5 2 <<<"$(seconds "$out")"

# Three jobs (of 1, 2 and 1 ranks), the last 2 s late.
dr submit -n 1 "$STORE" meet meet.x meet.y,meet.z 0 30
first=$out
dr submit -n 2 --oversubscribe "$STORE" meet meet.y meet.z,meet.x 0 30
second=$out
ranks 1 meet meet.z meet.x,meet.y 2 30
check "PMIx_Connect of three jobs: the last one's rank connects" \
  grep -q "^rank 0: connected after [0-9.]* s; size 1; host $host; .*; says hello from rank 0; disconnected$" <<<"$out"
dr wait "$first"
dr output "$first"
check "... the first job's rank, after waiting for the last (>= 1.5 s)" \
  all_at_least 1.5 1 <<<"$(seconds "$(grep "^rank 0: connected after [0-9.]* s; size 2; host $host; .*; says hello from rank 1; disconnected$" <<<"$out")")"
dr wait "$second"
dr output "$second"
check "... and the second's 2 ranks too" \
  all_at_least 1.5 2 <<<"$(seconds "$(grep "^rank [01]: connected after [0-9.]* s; size 1; host $host; .*; says hello from rank 0; disconnected$" <<<"$out")")"

dr submit -n 1 "$STORE" expose color blue 3
quitter=$out
ranks 2 meet meet.c svc.nspace 0 30
check "a connect with a job that ends without joining fails" \
  shown test "$(grep -c "connect failed after [0-9.]* s: PROC TERMINATED WITHOUT SYNC" <<<"$out")" -eq 2
check "... when it ends, well within its timeout (30 s)" shown all_below 10 2 <<<"$(seconds "$out")"
dr wait "$quitter"
dr submit -n 1 "$STORE" expose color blue 60
idler=$out
ranks 2 meet meet.d svc.nspace 0 2
check "a connect with a job that never joins ends at its PMIX_TIMEOUT (2 s)" \
  shown test "$(grep -c "connect failed after [0-9.]* s: TIMEOUT" <<<"$out")" -eq 2
check "... not before" shown all_at_least 1.5 2 <<<"$(seconds "$out")"
dr kill "$idler"
dr wait "$idler"
job connect "${ns%.*}.9999-0"
check "a connect with a namespace of no job of the daemon: not found" \
  test "$rc" -ne 0 -a "$out" = "connect: NOT-FOUND"
dr run -n 1 "$STORE" connect "$ns"
check "... nor of a standalone run (the daemon's jobs are not its)" \
  test "$rc" -ne 0 -a "$out" = "connect: NOT-FOUND"
job group "${ns%.*}.9999-0"
check "a group with a namespace of no job of the daemon: not found" \
  test "$rc" -ne 0 -a "$out" = "group: NOT-FOUND"
dr run -n 1 "$STORE" group "$ns"
check "... nor of a standalone run" test "$rc" -ne 0 -a "$out" = "group: NOT-FOUND"
dr run -n 1 --oversubscribe "$STORE" family 2
check "a standalone run: a connect of a job and the job it spawned (2 s late) waits for both" \
  all_at_least 1.5 1 <<<"$(seconds "$(grep "^family connected after [0-9.]* s; child size 2; disconnected$" <<<"$out")")"
ranks 1 family 2
check "... so does a daemon's job" \
  all_at_least 1.5 1 <<<"$(seconds "$(grep "^family connected after [0-9.]* s; child size 2; disconnected$" <<<"$out")")"

# The other job's description stays registered with a run's server while
# a connect or a group of its ranks names that job, and goes after: two
# jobs of 4 connect twice, disconnect once, make a group of both, then
# disconnect and destruct it; a rank that has not read it yet reads the
# other's size after each step.
parted() { # a part job's output says so, and it exited 0
  shown test "$rc" -eq 0 -a "$(sort <<<"$out" | tr '\n' '|')" = "rank 0 after two connects: size 4|\
rank 1 after one disconnect: size 4|rank 2 after two disconnects and the group: size 4|\
rank 3 after the destruct: NOT-FOUND|"
}
# A group of two jobs: one context id for all (from the daemon's range,
# past what a run numbers itself), every member of both, what each member
# gave (PMIX_GROUP_INFO) found by the others, the other job's description
# registered, and a destruct that meets too.
nsof() { echo "drover-daemon.$(daemon_pid).$1-0"; } # job $1's namespace
spanned() { # a span job's output, for the other job's namespace $1
  shown test "$rc" -eq 0 -a "$(grep -c "^rank [01]: context 4294967296; members 4; their size 2; \
their rank 0 says hello from $1 rank 0; destructed$" <<<"$out")" -eq 2
}
dr submit -n 2 --oversubscribe "$STORE" span span.a span.b
spanner=$out
ranks 2 span span.b span.a
check "PMIx_Group_construct of two jobs: one context id, 4 members, the other's data" \
  spanned "$(nsof "$spanner")"
dr wait "$spanner"
waited=$rc
dr output "$spanner"
rc=$waited
check "... in the other job too" spanned "$(nsof $((spanner + 1)))"

# A member of a group of two jobs leaves, and the other job's members hear
# it (PMIX_GROUP_LEFT); its job's last member ends without leaving, and
# they hear it fail (PMIX_GROUP_MEMBER_FAILED, the group made with
# PMIX_GROUP_NOTIFY_TERMINATION); then they destruct the group, which no
# longer names the other job's processes.
dr submit -n 2 --oversubscribe "$STORE" leave leave.a leave.b stay
stayer=$out
ranks 2 leave leave.b leave.a go
check "a member of a group of two jobs leaves it; its own job's other member hears it" \
  shown test "$rc" -eq 0 -a "$(sort <<<"$out" | tr '\n' '|')" = "rank 0: heard rank 1 leave|rank 1: left|"
dr wait "$stayer"
waited=$rc
dr output "$stayer"
rc=$waited
check "... so do the other job's members, then the last member's end, and they destruct the group" \
  shown test "$rc" -eq 0 -a "$(grep -c "^rank [01]: their rank 1 left; their rank 0 failed; destructed$" <<<"$out")" -eq 2

# An event of the application's (PMIx_Notify_event), its custom range a
# process of another job: that process hears it, with its source and info.
dr submit -n 1 "$STORE" poke poke.a receive
poked=$out
job poke poke.a send
check "PMIx_Notify_event with a custom range of another job's process: raised" \
  shown test "$rc" -eq 0 -a "$out" = "poke: SUCCESS"
ended_output "$poked"
check "... and heard there, from its source, with its info" \
  shown test "$rc" -eq 0 -a "$out" = "poked by $(nsof $((poked + 1))) rank 0: hello"

# Invitations across jobs (PMIx_Group_invite, PMIx_Group_join): a leader
# in one job invites a rank of its own and both of another job's, one of
# which declines: one context id from the daemon, 3 members, the answers
# heard, the group destructed across both jobs. Again with the other job's
# answers sent before the invitation (its ranks name the leader without
# waiting for PMIX_GROUP_INVITED). Then an invitation that expires
# (PMIX_TIMEOUT) while one rank of the other job never answers, and one
# whose leader ends first: the one that accepted has its JOIN end with
# PMIX_GROUP_CONSTRUCT_ABORT.
invited() { # the lead job's output, the answering job's
  local ctx
  ctx=$(sed -n 's/^leader: context \([0-9]*\); members 3; accepted 2; declined 1; destructed$/\1/p' \
    <<<"$1")
  [ -n "$ctx" ] && [ "$ctx" -ge 4294967296 ] &&
    grep -qx "rank 1: joined; context $ctx; members 3; destructed" <<<"$1" &&
    grep -qx "rank 0: joined; context $ctx; members 3; destructed" <<<"$2" &&
    grep -qx "rank 1: declined" <<<"$2" ||
    { sed 's/^/# output: /' <<<"$1$(printf '\n')$2"; return 1; }
}
for how in answer answer-early; do
  dr submit -n 2 --oversubscribe "$STORE" invite "inv.$how.a" "inv.$how.b" "$how"
  answering=$out
  ranks 2 invite "inv.$how.b" "inv.$how.a" lead "$([ "$how" = answer-early ] && echo 1 || echo 0)"
  lead_rc=$rc
  lead_out=$out
  ended_output "$answering"
  check "PMIx_Group_invite across two jobs ($how): one context id, 3 members, destructed" \
    test "$lead_rc" -eq 0 -a "$rc" -eq 0
  check "... every answer heard, in both jobs" invited "$lead_out" "$out"
done
# An invitation across jobs abandoned: the leader's MODE, what it says
# (SAID), the check's DESCRIPTION.
abandoned() {
  local mode=$1 said=$2 answering
  dr submit -n 2 --oversubscribe "$STORE" invite "inv.$mode.a" "inv.$mode.b" answer-some
  answering=$out
  job invite "inv.$mode.b" "inv.$mode.a" "$mode"
  check "$3" shown test "$rc" -eq 0 -a "$out" = "leader: $said"
  ended_output "$answering"
  check "... and the other job's rank that accepted has its JOIN end with CONSTRUCT_ABORT" \
    shown test "$rc" -eq 0 -a "$(sort <<<"$out" | tr '\n' '|')" = "rank 0: aborted|rank 1: silent|"
}
abandoned lead-short "timed out" \
  "an invitation across jobs expires (PMIX_TIMEOUT) while an invited rank stays silent"
abandoned lead-quit quit "a leader that invites another job's ranks ends before they all answer"
# An invited rank of the other job ends without answering: the leader
# hears PMIX_GROUP_INVITE_FAILED at once and makes the group without it.
dr submit -n 2 --oversubscribe "$STORE" invite inv.g.a inv.g.b answer-gone
answering=$out
job invite inv.g.b inv.g.a lead-two
lead_out=$out
ended_output "$answering"
ctx=$(sed -n 's/^leader: context \([0-9]*\); members 2; accepted 1; failed 1; destructed$/\1/p' \
  <<<"$lead_out")
check "an invited rank of another job ends unanswered: the group is made without it" \
  shown test -n "$ctx" -a "$rc" -eq 0 -a "$(sort <<<"$out" | tr '\n' '|')" = \
  "rank 0: joined; context $ctx; members 2; destructed|rank 1: gone|"

dr submit -n 4 --oversubscribe "$STORE" part part.a part.b
parter=$out
ranks 4 part part.b part.a
check "a connect's other job stays registered while a connect or group names it, then goes" \
  parted
dr wait "$parter"
waited=$rc
dr output "$parter"
rc=$waited
check "... in the other job's run too" parted

# Requests on the daemon's socket as a run would send them, malformed or
# not: each answered with its error (or hung up on, by a run that died),
# and the daemon goes on.
wire() { # [--hang-up] WORDS...: one request; prints the answer's words
  python3 - "$state/daemon.sock" "$@" <<'PY'
import socket, struct, sys
sock = socket.socket(socket.AF_UNIX)
sock.connect(sys.argv[1])
words = sys.argv[2:]
hang_up = words[0] == "--hang-up"
payload = b"".join(w.encode() + b"\0" for w in words[hang_up:])
sock.sendall(struct.pack("=I", len(payload)) + payload)
if not hang_up:
    size = struct.unpack("=I", sock.recv(4, socket.MSG_WAITALL))[0]
    print(" ".join(w.decode() for w in sock.recv(size, socket.MSG_WAITALL).split(b"\0")[:-1]))
PY
}
dr submit -n 1 "$CLIENT" sleep
one=$out
dr submit -n 1 "$CLIENT" sleep
two=$out
sleeping "$one"
sleeping "$two"
ns1=${ns%.*}.$one-0
ns2=${ns%.*}.$two-0
bad=0
for request in "connect $one" "connect $one 0 x $ns1 0" "connect $one 0 3 $ns1 0" \
  "connect $one 0 1 $(head -c 300 /dev/zero | tr '\0' n) 0" "connect $one 0 1 $ns1 0 odd" \
  "connect $one -1 1 $ns1 0" "connect $one 0 1 $ns2 0"; do
  # shellcheck disable=SC2086 # the words of the request
  [ "$(wire $request)" = "error -27" ] || { echo "# '$request': $(wire $request)"; bad=1; }
done
check "malformed connect requests, or one of another job's processes only: PMIX_ERR_BAD_PARAM" \
  test "$bad" -eq 0
check "... a namespace of no job: PMIX_ERR_NOT_FOUND" \
  test "$(wire connect "$one" 0 2 "$ns1" '*' nobody-0 '*')" = "error -46"
check "... of a job that has ended: PMIX_ERR_PROC_TERM_WO_SYNC" \
  test "$(wire connect "$one" 0 2 "$ns1" '*' "$ns" '*')" = "error -200"
check "... of the sender's job alone: ok at once" \
  test "$(wire disconnect "$one" 0 1 "$ns1" 0)" = ok
wire --hang-up connect "$one" 0 2 "$ns1" '*' "$ns2" '*'
sleep 0.2
check "... a run that hangs up while it waits, then the same again: ends at its timeout" \
  test "$(wire connect "$one" 1 2 "$ns1" '*' "$ns2" '*')" = "error -24"
dr kill "$one"
dr kill "$two"
dr wait "$one"
dr wait "$two"
dr daemon status
check "... and the daemon goes on" test "$rc" -eq 0

dr submit -n 1 "$STORE" lookup svc.late 30
late=$out
sleep 0.5
job publish svc.late x session
check "a publish while another job's lookup waits" grep -q published <<<"$out"
dr wait "$late"
dr output "$late"
check "... answers the waiting lookup" grep -q "^svc.late=x " <<<"$out"
job lookup svc.never 1
check "a waiting lookup times out" \
  test "$rc" -eq 1 -a -n "$(grep -i "timeout" <<<"$out")"

check "PROC: job publishes svc.proc, its rank 0 ends" held svc.proc p proc
check "... gone while the job runs" gone svc.proc
dr ps
check "... (it does run)" test -n "$(awk -v id="$held_job" '$1 == id && $2 == "running"' <<<"$out")"
dr kill "$held_job"
dr wait "$held_job"
check "APP: job publishes svc.app, its rank 0 ends" held svc.app a app
job lookup svc.app
check "... still there while the job runs" grep -q "^svc.app=a " <<<"$out"
dr kill "$held_job"
dr wait "$held_job"
check "... gone when the job ends" gone svc.app

job publish svc.once o first_read
job lookup svc.once
check "FIRST_READ: outlives its job, the first lookup gets it" grep -q "^svc.once=o " <<<"$out"
job lookup svc.once
check "... and the second does not" test "$rc" -eq 1

job publish svc.keep k indef global
job lookup svc.keep
check "INDEF (range GLOBAL): outlives its job" grep -q "^svc.keep=k " <<<"$out"
job publish svc.keep again indef
check "publishing a name that is there is refused" grep -q "publish failed" <<<"$out"
job unpublish svc.gone
check "a job unpublishes its own INDEF name" grep -q "^unpublished$" <<<"$out"
job publish svc.ns n session namespace
job lookup svc.ns
check "a NAMESPACE range stays in its run" test "$rc" -eq 1

check "no sanitizer report from the daemon or the runs so far" \
  test -z "$(sanitizer "$state/daemon.log" "$work/runs.err" "$state"/jobs/*/stderr)"

# SIGKILL the daemon while a job runs: its run dies too (PDEATHSIG).
dr submit -n 1 "$CLIENT" sleep
sleeper=$out
sleeping "$sleeper"
pids=$(job_pids)
before=$("$DROVER" ps --json)
kill -KILL "$(daemon_pid)"
check "the killed daemon's runs end and leave nothing" jobs_gone $pids
dr daemon start
check "a new daemon starts on the journal" test "$rc" -eq 0
dr ps --json
after=$out
check "it knows every job of the old one, the running one as lost" python3 -c '
import json, sys
before, after, sleeper = json.loads(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3])
assert len(after) == len(before), (len(before), len(after))
for b, a in zip(before, after):
    for k in ("id", "ranks", "start", "command"):
        assert a[k] == b[k], (k, a, b)
    if b["id"] == sleeper:
        assert a["state"] == "lost" and a["end"] is None, a
    else:
        assert a == dict(b, pid=0), (a, b)
' "$before" "$after" "$sleeper"
job lookup svc.keep
check "... and the INDEF publication" grep -q "^svc.keep=k " <<<"$out"
job lookup svc.gone
check "... but not the unpublished one" test "$rc" -eq 1
dr submit -n 1 true
check "new jobs follow the old ids" test "$out" -eq $((sleeper + 3))
# Ended before the next SIGKILL: a run killed while it sets up may leave
# its segments behind.
dr wait "$out"

# A crash mid-write: a torn record at the journal's end.
journal=$state/journal
kill_daemon() {
  local dpid
  dpid=$(daemon_pid)
  kill -KILL "$dpid"
  for _ in $(seq 100); do [ -d "/proc/$dpid" ] || break; sleep 0.05; done
}
kill_daemon
printf '\x40\x00\x00\x00\x12\x34\x56\x78pub\0svc.torn' >>"$journal"
dr daemon start
check "a torn last record: the daemon starts" test "$rc" -eq 0
check "... says so in its log" grep -q "ignored a torn last record" "$state/daemon.log"
job lookup svc.keep
check "... and keeps what came before" grep -q "^svc.keep=k " <<<"$out"
job publish svc.after a indef
kill_daemon
dr daemon start
job lookup svc.after
check "records after the cut are read back" grep -q "^svc.after=a " <<<"$out"

# Compaction: 3 large INDEF publications (their value in the environment,
# which the journal does not keep), each unpublished, pass the journal's
# 256 KiB; the next record rewrites it with what is live.
big=$(head -c 60000 /dev/zero | tr '\0' x)
for _ in 1 2 3; do
  BIG=$big dr run --daemon -n 1 sh -c '"$STORE" unpublish svc.big "$BIG"'
done
njobs=$("$DROVER" ps --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
check "a journal past 256 KiB, mostly dead, is compacted" \
  test "$(stat -c %s "$journal")" -lt 65536 -a "$out" = unpublished
kill_daemon
dr daemon start
job lookup svc.after
check "... keeping the live publications" grep -q "^svc.after=a " <<<"$out"
dr ps --json
check "... and every job" python3 -c '
import json, sys
jobs = json.loads(sys.argv[1])
assert [j["id"] for j in jobs] == list(range(1, len(jobs) + 1)) and len(jobs) == int(sys.argv[2]) + 1
assert not any(j["state"] == "lost" and j["command"] == "" for j in jobs)
' "$out" "$njobs"

# In the foreground, the daemon's own exit is seen: a waiting lookup and
# publications of every kind are freed.
dr daemon stop
timeout -s KILL 60 "$DROVER" daemon start --foreground >"$work/fg" 2>&1 &
fg=$!
for _ in $(seq 200); do [ -S "$state/daemon.sock" ] && break; sleep 0.05; done
job publish svc.fg f first_read
dr submit -n 1 "$STORE" lookup svc.never 60
sleep 0.5
kill -TERM "$(daemon_pid)"
wait "$fg"
check "a daemon with publications and a waiting lookup stops cleanly, no sanitizer report" \
  test "$?" -eq 0 -a -z "$(sanitizer "$work/fg")"
dr daemon start
dr daemon stop
check "stop keeps the journal (and the jobs' directories), nothing else" \
  test -f "$journal" -a -n "$(stopped && echo y)"
check "... mode 0600" test "$(stat -c %a "$journal")" = 600
dr daemon start
dr ps
check "a daemon started after stop has the history" test "$(wc -l <<<"$out")" -gt 10
dr daemon stop
rm -f "$journal"
rmdir "$state"
done_testing
