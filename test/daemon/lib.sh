# lib.sh - what the daemon test scripts share: test/launcher/lib.sh (check,
# one_line, done_testing, a work directory with its own TMPDIR), plus a
# state directory of the test's own (XDG_RUNTIME_DIR in the work
# directory), whose daemon is always stopped at the end.
#   dr ARGS...        drover ARGS under a hang guard; sets $rc, $out, $err
#   daemon_pid        the pid in the state directory's pid file
#   job_pids          the drover run pid of every job the daemon started
#   jobs_gone PIDS    those runs have ended and left nothing: no process,
#                     no /dev/shm segment (nor one of a daemon that is
#                     gone), nothing in $TMPDIR but the session of the
#                     daemon's standby (standby_pid)
#   stopped           after `daemon stop`: the state directory holds
#                     nothing but the journal and the jobs' kept
#                     directories, jobs/<id>/ with stdout, stderr, ranks
#                     and trace.json alone (or is gone, if no job ran)
#   tool ARGS...      the PMIx tool $DAEMON_TOOL (daemon_tool.c) with
#                     drover's library; sets $trc, $tout (and $work/tout,
#                     $work/terr)
#   sleeping ID [N]   waits (bounded) until N (default 1) ranks of the
#                     submitted job ID say "sleeping" (launcher-client sleep)
source "$(dirname "$0")/../launcher/lib.sh"
export XDG_RUNTIME_DIR=$work/xdg
mkdir -m 0700 "$XDG_RUNTIME_DIR"
state=$XDG_RUNTIME_DIR/drover
unset DROVER_DAEMON DROVER_DAEMON_JOB

dr() {
  timeout -s KILL "${GUARD_SECONDS:-60}" "$DROVER" "$@" >"$work/out" 2>"$work/err"
  rc=$?
  out=$(cat "$work/out")
  err=$(cat "$work/err")
}

tool() {
  timeout -s KILL 60 env LD_LIBRARY_PATH="$DROVER_LIBDIR" "$DAEMON_TOOL" "$@" \
    >"$work/tout" 2>"$work/terr"
  trc=$?
  tout=$(cat "$work/tout")
}

daemon_pid() { cat "$state/daemon.pid" 2>/dev/null; }

# Ours: started from this build's drover.
ours() { grep -qF -- "$DROVER" "/proc/$1/cmdline" 2>/dev/null; }

stop_daemon() {
  local pid
  pid=$(daemon_pid)
  timeout -s KILL 60 "$DROVER" daemon stop >/dev/null 2>&1
  if [ -n "$pid" ] && ours "$pid"; then
    echo "# the daemon $pid survived stop"
    kill -KILL "$pid"
  fi
}
trap 'stop_daemon; rm -rf "$work"' EXIT
# Its runs' cgroups go with the daemon, before done_testing checks them.
before_done_testing=stop_daemon

stopped() {
  [ ! -e "$state" ] && return 0
  case $(ls -A "$state" | tr '\n' ' ') in
    "journal " | "jobs journal ") ;;
    *) return 1 ;;
  esac
  [ -z "$(find "$state/jobs" -mindepth 1 2>/dev/null |
          grep -Ev '/jobs/[0-9]+(/(stdout|stderr|ranks|trace\.json))?$')" ]
}

job_pids() {
  "$DROVER" ps --json | python3 -c '
import json, sys
print(" ".join(str(j["pid"]) for j in json.load(sys.stdin) if j["pid"] > 0))'
}

# The daemon's standby: its child started with DROVER_DAEMON_STANDBY that
# is not one of its jobs' runs (a job's run started from the standby keeps
# that variable in /proc/PID/environ).
standby_pid() {
  local d p jobs
  d=$(daemon_pid)
  [ -n "$d" ] || return 0
  jobs=" $(job_pids) "
  for p in $(pgrep -P "$d" 2>/dev/null); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'DROVER_DAEMON_STANDBY=3' &&
      [[ "$jobs" != *" $p "* ]]; then
      echo "$p"
    fi
  done
}

# What is in $TMPDIR but the session the daemon's standby made ahead of
# its job.
tmp_left() {
  local s
  s=$(standby_pid)
  ls -A "$TMPDIR" | grep -v "^drover\.${s:-none}\."
}

jobs_gone() {
  local pid left=""
  for _ in $(seq 100); do
    left=""
    for pid in "$@"; do
      if [ -d "/proc/$pid" ] || ls /dev/shm | grep -q -- "^drover-$pid-"; then
        left="$left $pid"
      fi
    done
    # A daemon's jobs name their segments drover-daemon.<daemon pid>.<id>-:
    # none may outlive its daemon.
    for seg in $(ls /dev/shm | grep '^drover-daemon\.'); do
      seg_daemon=${seg#drover-daemon.}
      [ -d "/proc/${seg_daemon%%.*}" ] || left="$left $seg"
    done
    [ -z "$left$(tmp_left)" ] && return 0
    sleep 0.1
  done
  echo "# left behind by runs [$left], in TMPDIR [$(tmp_left)]"
  return 1
}

sleeping() {
  for _ in $(seq 200); do
    [ "$(grep -c sleeping "$state/jobs/$1/stdout" 2>/dev/null)" -ge "${2:-1}" ] && return 0
    sleep 0.05
  done
  return 1
}
