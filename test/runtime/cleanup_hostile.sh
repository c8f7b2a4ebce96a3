#!/usr/bin/env bash
# cleanup_hostile.sh MINIHOST CLIENT - a path a job registers for cleanup
# (PMIX_REGISTER_CLEANUP_DIR) under a directory of another user, who has
# made a symlink of its middle to a victim directory of the job's user: the
# server removes nothing through it, and a registered path of the job's own
# still goes.
DROVER= CLIENT=
source "$(dirname "$0")/../launcher/lib.sh"
minihost=$1 client=$2
if [ "$(id -u)" -ne 0 ]; then
  echo "# needs root, to add a second user"
  exit 77
fi
make_user || { echo "not ok - cannot add a second user"; exit 1; }
chmod 755 "$work"
mkdir -p "$work/victim/tree/sub" "$work/mine/sub"
touch "$work/victim/tree/file" "$work/victim/tree/sub/file" "$work/mine/sub/file"
mkdir "$work/attacker"
chown "$other" "$work/attacker"
"${as_other[@]}" ln -s "$work/victim" "$work/attacker/d"
"$minihost" 2 "$client" "$work/attacker/d/tree" "$work/mine" >"$work/out" 2>&1
rc=$?
check "a job registering a path through another user's symlink succeeds ($rc)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || head -5 "$work/out"
check "... the victim tree is untouched" \
  test -e "$work/victim/tree/file" -a -e "$work/victim/tree/sub/file"
check "... the job's own registered directory is removed" test ! -e "$work/mine"
done_testing
