#!/usr/bin/env bash
# daemon_users.sh - the daemon is its user's alone: a connection from
# another uid (root included) is refused and the refusal logged; another
# user's state directory is refused by the commands; another user cannot
# reach this user's daemon. Needs root (to add the other user).
source "$(dirname "$0")/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
  echo "# needs root to add a user"
  exit 77
fi
user=drovertest$$
udir=$(mktemp -d /tmp/drover-test-user.XXXXXX)
# The other user runs a copy of drover and drover-cli (the build tree may
# be out of its reach), with its libpmix.so.2 where drover-cli's RUNPATH
# ($ORIGIN/..) looks.
mkdir "$udir/bin"
cp "$DROVER" "$(dirname "$DROVER")/drover-cli" "$udir/bin/"
cp -L "$(ldd "$udir/bin/drover-cli" | awk '/libpmix.so.2/ {print $3}')" "$udir/libpmix.so.2"
UDROVER=$udir/bin/drover
as_user() {
  setpriv --reuid="$user" --regid="$user" --clear-groups \
    env HOME=/ XDG_RUNTIME_DIR="$udir" TMPDIR="$udir" timeout -s KILL 60 "$@"
}
cleanup_user() {
  as_user "$UDROVER" daemon stop >/dev/null 2>&1
  pkill -KILL -u "$user" 2>/dev/null
  userdel "$user" 2>/dev/null
  rm -rf "$udir"
}
trap 'cleanup_user; stop_daemon; rm -rf "$work"' EXIT
useradd --no-create-home --shell /usr/sbin/nologin "$user" || exit 1
chown -R "$user:" "$udir"
chmod 0700 "$udir"

# Connect to a daemon's socket from whoever runs this and show what it
# says (it refuses before reading anything).
raw_connect() {
  python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
print(s.recv(4096).decode(errors="replace").replace("\0", " "))' "$1"
}

as_user "$UDROVER" daemon start >/dev/null
check "another user's daemon starts" test -S "$udir/drover/daemon.sock"
answer=$(raw_connect "$udir/drover/daemon.sock" 2>&1)
check "root connecting to it is refused" grep -q "refused: uid 0" <<<"$answer"
check "... and the refusal is logged with the reason" \
  grep -q "refused a connection from uid 0 .*not the daemon's user" "$udir/drover/daemon.log"
XDG_RUNTIME_DIR=$udir dr daemon status
check "root's commands refuse the other user's state directory" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "owned by another user" && echo y)"
XDG_RUNTIME_DIR=$udir dr submit -n 1 true
check "... submit included" test "$rc" -eq 1
as_user "$UDROVER" daemon status >/dev/null
check "... the other user's daemon still runs and answers its user" test "$?" -eq 0
as_user "$UDROVER" daemon stop >/dev/null
check "... and stops cleanly" test ! -e "$udir/drover"

# The other way round: this user's daemon, the other user's commands.
dr daemon start
check "this user's daemon starts" test "$rc" -eq 0
chmod 0755 "$work"
setpriv --reuid="$user" --regid="$user" --clear-groups \
  env HOME=/ XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" timeout -s KILL 60 "$UDROVER" submit -n 1 true \
  >"$work/out" 2>"$work/err"
rc=$?
chmod 0700 "$work"
check "another user cannot reach it: exit 1, one line" \
  test "$rc" -eq 1 -a "$(wc -l <"$work/err")" -eq 1
dr ps --json
check "... nothing was queued" test "$out" = "[]"
done_testing
