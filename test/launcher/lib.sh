# lib.sh - what the launcher test scripts share. Source it; it expects
# $DROVER and $CLIENT (set by meson) and gives:
#   check DESCRIPTION COMMAND...   one "ok"/"not ok" line
#   launch [drover run args]       runs drover run in the background with a
#                                  hang guard; sets $pid, then `finish` waits
#                                  and sets $rc, $out, $err, $elapsed
#   report [STATUS]                after a run that did not end with STATUS
#                                  (default 0), shows the start of its output
#   anchor_done [DIR]              after drover was SIGKILLed: waits (up to
#                                  10 s) for its anchor to end the client
#                                  processes and empty DIR (default $TMPDIR)
#   no_leftovers                   nothing of the last run is left: process,
#                                  session directory, /dev/shm segment
#   done_testing                   checks that no cgroup of a run whose
#                                  drover is gone is left (waiting up to
#                                  10 s for anchors), exits 0 or 1;
#                                  $before_done_testing, if set, is run
#                                  first
#   may_make_cgroups               whether drover makes a cgroup for a run
#                                  here (cgroup v2 it may write, not in a
#                                  Slurm job); sets $cgroup_mount
#   cgroup2_mount, own_cgroup      the cgroup2 mount point; the script's
#                                  cgroup below it
#   make_user                      (root only) a second local user, $other,
#                                  removed at exit whatever happens; run a
#                                  command as that user with
#                                  "${as_other[@]}" CMD...
set -u
fail=0
work=$(mktemp -d /tmp/drover-test.XXXXXX)
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"
trap 'rm -rf "$work"' EXIT

check() {
  local what=$1; shift
  if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fail=1; fi
}

# Runs drover with SIGINT/SIGTERM at their defaults (a script's background
# jobs would otherwise start with SIGINT ignored), under timeout(1) as a
# hang guard; $pid is drover's own pid (env execs it).
start_drover() { # stdin file, then drover run args
  local input=$1; shift
  t0=$(date +%s.%N)
  rm -f "$work/pid"
  # bash writes its pid, then becomes env, which becomes drover.
  timeout -s KILL "${GUARD_SECONDS:-60}" bash -c 'echo $$ >"$0.tmp"; mv "$0.tmp" "$0"; exec "$@"' \
    "$work/pid" env --default-signal=INT,TERM,HUP \
    "$DROVER" run "$@" >"$work/out" 2>"$work/err" <"$input" &
  tpid=$!
  while [ ! -s "$work/pid" ] && kill -0 "$tpid" 2>/dev/null; do
    sleep 0.01
  done
  pid=$(cat "$work/pid" 2>/dev/null)
}

launch() { start_drover /dev/null "$@"; }
launch_stdin() { start_drover "$@"; }

finish() {
  wait "$tpid"
  rc=$?
  elapsed=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.3f", b - a}')
  out=$(cat "$work/out")
  err=$(cat "$work/err")
}

run() { launch "$@"; finish; }

# Wait until the output has N lines matching a pattern (bounded).
wait_for() { # pattern count
  for _ in $(seq 200); do
    [ "$(grep -c -- "$1" "$work/out")" -ge "$2" ] && return 0
    sleep 0.05
  done
  return 1
}

# The diagnosis of a failed check: the start of the last run's output and
# errors, its "ok" lines left out, unless it ended with the status expected.
report() { [ "$rc" -eq "${1:-0}" ] || printf '%s\n%s\n' "$out" "$err" | grep -v '^ok' | head -20; }

within() { # seconds: the last run ended in time
  awk -v e="$elapsed" -v limit="$1" 'BEGIN {exit !(e < limit)}'
}

anchor_done() {
  for _ in $(seq 100); do
    [ -z "$(pgrep -f -- "$CLIENT")" ] && [ -z "$(ls -A "${1:-$TMPDIR}")" ] && return 0
    sleep 0.1
  done
  return 1
}

no_leftovers() {
  local procs shm dirs
  sleep 0.1
  procs=$(pgrep -f -- "$CLIENT" ; pgrep -f -- "$DROVER run")
  shm=$(ls /dev/shm | grep -- "^drover-$pid-")
  dirs=$(ls -A "$TMPDIR")
  if [ -n "$procs$shm$dirs" ]; then
    echo "# left behind: processes [$procs] shm [$shm] dirs [$dirs]"
    pkill -KILL -f -- "$CLIENT"
    rm -rf "${TMPDIR:?}"/* "/dev/shm/drover-$pid-"*
    return 1
  fi
}

# The cgroup2 mount point (nothing without one), and this script's own
# cgroup below it.
cgroup2_mount() {
  awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2")
    print $5; break } }' /proc/self/mountinfo | head -1
}
own_cgroup() { sed -n 's/^0:://p' /proc/self/cgroup; }

may_make_cgroups() {
  cgroup_mount=$(cgroup2_mount)
  local probe=$cgroup_mount$(own_cgroup)/drover-test.$$
  [ -n "$cgroup_mount" ] && [ -z "${SLURM_JOB_ID:-}" ] && mkdir "$probe" 2>/dev/null &&
    rmdir "$probe"
}

one_line() { # the text is exactly one line and contains the pattern
  [ "$(printf '%s\n' "$1" | wc -l)" -eq 1 ] && grep -q -- "$2" <<<"$1"
}

make_user() {
  other=drsec$$
  useradd -M -N -r -s /usr/sbin/nologin "$other" || return 1
  trap 'pkill -KILL -u "$other"; sleep 0.1; userdel "$other"; rm -rf "$work"' EXIT
  as_other=(setpriv --reuid="$other" --regid="$(id -g "$other")" --clear-groups)
}

# The cgroups drover made for runs (drover-<pid>.<hex>, beside the
# script's own cgroup) whose drover is gone.
orphan_cgroups() {
  local mount dir p
  mount=$(cgroup2_mount)
  [ -n "$mount" ] || return 0
  for dir in "$mount$(own_cgroup)"/drover-[0-9]*.*; do
    p=${dir##*/drover-}
    [ -d "$dir" ] && [ ! -d "/proc/${p%%.*}" ] && echo "$dir"
  done
}

no_cgroup_left() {
  local left
  for _ in $(seq 100); do
    left=$(orphan_cgroups)
    [ -z "$left" ] && return 0
    sleep 0.1
  done
  echo "# left behind: cgroups [$left]"
  rmdir $left 2>/dev/null
  return 1
}

done_testing() {
  ${before_done_testing:-:}
  check "no cgroup of an ended run is left" no_cgroup_left
  exit $fail
}
