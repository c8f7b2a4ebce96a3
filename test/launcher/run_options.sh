#!/usr/bin/env bash
# run_options.sh - the command line of `drover run`: help, every kind of bad
# input (one-line message, exit 2; a missing program 127; not executable
# 126), oversubscription, and binding through hwloc.
source "$(dirname "$0")/lib.sh"
slots=$(nproc)

run -h
check "-h prints the usage and exits 0" test "$rc" -eq 0 -a -n "$(grep -- '--bind-to' <<<"$out")"

bad() { # description, pattern the message must contain, args
  local what=$1 pattern=$2; shift 2
  run "$@"
  check "$what: exit 2" test "$rc" -eq 2
  check "$what: one-line message naming it" one_line "$err" "$pattern"
}
bad "unknown option" "'--frobnicate'" --frobnicate -n 1 true
bad "missing -n" "-n N" true
bad "-n 0" "'0'" -n 0 true
bad "-n not a number" "'two'" -n two true
bad "-n too large" "'70000'" -n 70000 true
bad "no program" "no program" -n 1
bad "-n without value" "needs a value" -n
bad "bad --bind-to" "'sideways'" -n 1 --bind-to sideways true
bad "bad --map-by" "'none'" -n 1 --map-by none true
bad "negative --timeout" "'-1'" -n 1 --timeout -1 true
bad "bad -x name" "'1FOO=bar'" -n 1 -x 1FOO=bar true
bad "flag with a value" "takes no value" -n 1 --tag-output=yes true

run -n 1 drover-no-such-program
check "missing program: exit 127" test "$rc" -eq 127
check "missing program: one line naming it" one_line "$err" "drover-no-such-program"
check "missing program: nothing left" no_leftovers
# A program whose exec fails only in the child (its interpreter is
# missing): 127, and one line from the child naming it.
printf '#!/drover-no-such-interpreter\n' >"$work/badinterp"
chmod +x "$work/badinterp"
run -n 1 "$work/badinterp"
check "exec failing in the child: exit 127" test "$rc" -eq 127
check "... one line naming the program" \
  test "$(grep -c "cannot execute $work/badinterp: no such file" <<<"$err")" -eq 1
check "... nothing left" no_leftovers

# Where drover makes a cgroup for the run, every rank starts in it.
run -n 3 --oversubscribe cat /proc/self/cgroup
if may_make_cgroups; then
  check "ranks start in the run's cgroup" \
    test "$(grep -c "^0::/\(.*/\)\?drover-$pid\.[0-9a-f]*\$" <<<"$out")" -eq 3
  # On x86_64, outside ASan builds, by one clone3 each that copies nothing.
  if [ "$VFORK_CGROUP" = 1 ] && command -v strace >/dev/null; then
    strace -f -qq -e trace=clone3 -o "$work/strace" "$DROVER" run -n 2 true
    check "... each started by a vfork into the cgroup" \
      test "$(grep -c 'flags=CLONE_VM|CLONE_VFORK|CLONE_INTO_CGROUP,' "$work/strace")" -eq 2
  fi
else
  check "no cgroup here: ranks stay in drover's" \
    test "$(grep -c "drover-$pid\." <<<"$out")" -eq 0
fi

touch "$work/plain"
run -n 1 "$work/plain"
check "not executable: exit 126" test "$rc" -eq 126
check "not executable: one line" one_line "$err" "permission denied"
run -n 1 /tmp
check "a directory: exit 126" test "$rc" -eq 126
run -n 1 --wdir "$work/nowhere" true
check "missing --wdir: exit 1 with one line" test "$rc" -eq 1 -a -n "$(one_line "$err" nowhere && echo y)"

run -n $((slots + 1)) true
check "more ranks than slots refused: exit 1" test "$rc" -eq 1
check "the message suggests --oversubscribe" one_line "$err" "--oversubscribe"
check "refused run leaves nothing" no_leftovers
run -n $((slots + 1)) --oversubscribe true
check "--oversubscribe runs them" test "$rc" -eq 0

run -n "$slots" --bind-to core "$CLIENT" binding
check "--bind-to core: each rank on one CPU" \
  test "$(grep -c '^cpus 1$' <<<"$out")" -eq "$slots"
run -n 1 --bind-to none "$CLIENT" binding
check "--bind-to none: the whole node" test "$out" = "cpus $slots"
run -n $((slots * 2)) --oversubscribe "$CLIENT" binding
check "oversubscribed: unbound by default" \
  test "$(grep -c "^cpus $slots\$" <<<"$out")" -eq $((slots * 2))
run -n 2 --map-by socket --bind-to socket --oversubscribe "$CLIENT" binding
check "--map-by socket --bind-to socket: the package's CPUs" \
  test "$(grep -c '^cpus ' <<<"$out")" -eq 2 -a "$rc" -eq 0
run -n 1 --use-hwthread-cpus --bind-to hwthread "$CLIENT" binding
check "--bind-to hwthread: one hardware thread" test "$out" = "cpus 1"
# Without TMPDIR the session directory goes to /dev/shm (a tmpfs: fast to
# make and remove), and goes away with the run.
TMPDIR= run -n 1 sh -c 'echo "$PMIX_SERVER_URI41"'
check "no TMPDIR: the session directory is in /dev/shm" \
  grep -q "^drover:///dev/shm/drover\.$pid\.[^/]*/drover-server\.[^/]*/server\.sock\$" <<<"$out"
check "no TMPDIR: the session directory is removed" test -z "$(ls -d /dev/shm/drover."$pid".* 2>/dev/null)"
check "nothing left behind" no_leftovers
done_testing
