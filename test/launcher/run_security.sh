#!/usr/bin/env bash
# run_security.sh - a rank is claimed only by the process drover started
# for it, and another local user cannot turn drover against its user.
#
# A process of the same user claiming a rank before that rank connects is
# refused, and the rank still works (a child of the rank's process, a
# wrapper's, may be the client). A second user pre-creates a directory
# under the /dev/shm prefix of a drover about to start and keeps swapping a
# subdirectory of it for a symlink to a root-owned victim directory
# (swapper.c): neither drover's cleanup at the end nor the anchor's after
# drover is SIGKILLed may remove a single victim file, and the job's own
# segments still go. drover run by that second user (who may make no
# cgroup) and SIGKILLed leaves no process behind, not even one a rank moved
# to a session of its own.
source "$(dirname "$0")/lib.sh"

run -n 2 "$CLIENT" impostor "$work/go"
check "a process claiming a rank before it connects is refused, the rank works ($rc)" \
  grep -q "^ok - rank 0: a process of the same user claiming rank 1 first is refused" <<<"$out"
check "... and the job succeeds" test "$rc" -eq 0
report
check "... nothing left behind" no_leftovers
run -n 2 sh -c '"$0" fence; exit $?' "$CLIENT"
check "a rank's PMIx client may be a child of the process drover started ($rc)" \
  test "$rc" -eq 0
report

if [ "$(id -u)" -ne 0 ]; then
  echo "# needs root, to add a second user"
  exit 77
fi
make_user || { echo "not ok - cannot add a second user"; exit 1; }
chmod 755 "$work"
nvictims=300
victim=$work/victim
mkdir "$victim"

# drover starts only once the attacker is ready ($work/pid.go): its pid, and
# so its /dev/shm prefix, is known before (bash execs env, env drover).
attacked_launch() {
  for i in $(seq 0 $((nvictims - 1))); do : >"$victim/f$i"; done
  rm -f "$work/pid" "$work/pid.go"
  timeout -s KILL 60 bash -c 'echo $$ >"$0.tmp"; mv "$0.tmp" "$0"
    while [ ! -e "$0.go" ]; do sleep 0.01; done; exec "$@"' "$work/pid" \
    env --default-signal=INT,TERM,HUP "$DROVER" run "$@" >"$work/out" 2>"$work/err" &
  tpid=$!
  for _ in $(seq 1000); do [ -s "$work/pid" ] && break; sleep 0.01; done
  pid=$(cat "$work/pid")
  trap_dir=/dev/shm/drover-$pid-x
  "${as_other[@]}" "$SWAPPER" "$trap_dir" "$victim" "$nvictims" 30 >/dev/null &
  spid=$!
  for _ in $(seq 1000); do [ -e "$trap_dir/ready" ] && break; sleep 0.01; done
  touch "$work/pid.go"
}

# After the run: stop the attacker, count the victims, remove its trap.
attacked_finish() {
  kill "$spid"
  wait "$spid"
  left=$(ls "$victim" | wc -l)
  owner=$(stat -c %U "$trap_dir" 2>/dev/null)
  rm -rf "$trap_dir"
}

attacked_launch -n 2 sh -c 'sleep 0.5'
finish
attacked_finish
check "a job ends normally with an attacker swapping symlinks under its prefix" test "$rc" -eq 0
check "... every victim file is still there ($left of $nvictims)" test "$left" -eq "$nvictims"
check "... the attacker's directory was left alone" test "$owner" = "$other"
check "... nothing of the job left behind" no_leftovers

attacked_launch -n 2 --grace 1 "$CLIENT" sleep stubborn shm
wait_for sleeping 2
kill -KILL "$pid"
finish
anchor_done
sleep 0.2
attacked_finish
check "drover SIGKILLed with an attacker swapping symlinks: status 137" test "$rc" -eq 137
check "... every victim file is still there after the anchor's cleanup ($left of $nvictims)" \
  test "$left" -eq "$nvictims"
check "... the anchor removed the job's own segment" test ! -e "/dev/shm/drover-$pid-0.test"
check "... nothing of the job left behind" no_leftovers

# A user who may make no cgroup: the anchor finds the processes that left
# the process group by the run's label.
mine=$work/other
mkdir -p "$mine/tmp" "$mine/gate"
chown "$other" "$mine/tmp" "$mine/gate"
timeout -s KILL 60 "${as_other[@]}" env TMPDIR="$mine/tmp" bash -c 'echo $$ >"$0.tmp"
  mv "$0.tmp" "$0"; exec "$@"' "$mine/gate/pid" "$DROVER" run -n 2 --grace 1 \
  sh -c 'setsid "$0" sleep & exec "$0" sleep' "$CLIENT" >"$work/out" 2>"$work/err" &
tpid=$!
for _ in $(seq 1000); do [ -s "$mine/gate/pid" ] && break; sleep 0.01; done
pid=$(cat "$mine/gate/pid")
wait_for sleeping 4
kill -KILL "$pid"
wait "$tpid"
rc=$?
check "drover of a user without cgroups SIGKILLed ($rc)" test "$rc" -eq 137
check "... the anchor ends the processes ranks moved to sessions of their own" \
  anchor_done "$mine/tmp"
pkill -KILL -f -- "$CLIENT"
done_testing
