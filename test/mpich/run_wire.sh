#!/usr/bin/env bash
# run_wire.sh - drover run serves PMI-1 over each rank's PMI_FD: every
# command answered as hydra answers it, a PMI rank and a PMIx rank reading
# each other's data, abort's exit code, and bad input hung up on. The same
# for PMI-2.
source "$(dirname "$0")/../launcher/lib.sh"

# An MPMD job file: each rank's get_appnum answers its app's number.
cat >"$work/mpmd.yml" <<EOF
oversubscribe: true
apps:
  - {program: $CLIENT, args: [attrs], count: 2, env: {WANT_APPNUM: "0"}}
  - {program: $CLIENT, args: [attrs], env: {WANT_APPNUM: "1"}}
EOF
run "$work/mpmd.yml"
check "MPMD job file: get_appnum is each rank's app ($rc)" \
  test "$rc" -eq 0 -a "$(grep -c '^PASS attrs' <<<"$out")" -eq 3
report

for n in 1 3; do
  run -n "$n" --oversubscribe "$CLIENT" attrs
  check "$n ranks: every PMI-1 command answered as hydra does ($rc)" \
    test "$rc" -eq 0 -a "$(grep -c '^PASS attrs' <<<"$out")" -eq "$n"
  report
done

for n in 1 3; do
  run -n "$n" --oversubscribe "$CLIENT" v2
  check "$n ranks: every PMI-2 command answered as hydra does ($rc)" \
    test "$rc" -eq 0 -a "$(grep -c '^PASS v2' <<<"$out")" -eq "$n"
  report
done

# The server leaves a few answered commands' bytes on a rank's socket (a
# wake-up less per command); the rank can still always send.
run -n 2 --oversubscribe "$CLIENT" tinybuf
check "smallest send buffer: commands one by one, 40 unread, a byte at a time, all answered ($rc)" \
  test "$rc" -eq 0 -a "$(grep -c '^PASS tinybuf' <<<"$out")" -eq 2
report

# ... and once a rank's answers wait for it to read them, the server
# stops peeking (libevent watches a socket one way only): it idles with
# the rank, where it used to spin.
run -n 1 "$CLIENT" flood
check "2000 commands before any answer is read: all answered, then the server idles ($rc)" \
  test "$rc" -eq 0 -a "$(grep -c '^PASS flood' <<<"$out")" -eq 1
report

run -n 3 --oversubscribe "$CLIENT" port
check "PMI_PORT and PMI_ID: three ranks connect by address, identify, exchange ($rc)" \
  test "$rc" -eq 0 -a "$(grep -c '^PASS port' <<<"$out")" -eq 3
report

# PMI_PORT serves a connection only from a process of the job's user, even
# one that knows a PMI_ID: the rank runs as another user and is hung up on.
if [ "$(id -u)" -eq 0 ]; then
  make_user || { echo "not ok - cannot add a second user"; exit 1; }
  run -n 1 "${as_other[@]}" "$CLIENT" port
  check "PMI_PORT refuses a process of another user that says a right PMI_ID ($rc)" \
    test "$rc" -ne 0 -a -n "$(grep -E '^FAIL rank 0: (write: |the connection closed, expected .cmd=initack.)' <<<"$err")"
  report
fi

dir=$(dirname "$CLIENT")
run -n 2 --oversubscribe "$CLIENT" spawn1 "$dir"
check "PMI-1 spawn of two apps: children in their wdir, found through path, with the preput key ($rc)" \
  test "$rc" -eq 0 -a "$(grep -c '^PASS child1 rank [01] of 2' <<<"$out")" -eq 2 \
    -a "$(grep -c '^PASS spawn1 parent' <<<"$out")" -eq 2
report
run -n 2 --oversubscribe "$CLIENT" spawn2 "$dir"
check "PMI-2 spawn of two apps: children told their spawner, with the preput key ($rc)" \
  test "$rc" -eq 0 -a "$(grep -c '^PASS child2 rank [01] of 2' <<<"$out")" -eq 2 \
    -a "$(grep -c '^PASS spawn2 parent' <<<"$out")" -eq 2
report

run -n 1 "$CLIENT" spawnhost "$dir" "$(hostname)" 0
check "PMI-1 spawn with host=this node: the child starts ($rc)" \
  test "$rc" -eq 0 -a "$(grep -c '^PASS child1 rank 0 of 1' <<<"$out")" -eq 1
report
run -n 1 "$CLIENT" spawnhost "$dir" no-such-node -1
check "PMI-1 spawn with host=another node: refused with rc=-1, drover says why ($rc)" \
  test "$rc" -eq 0 -a -n "$(grep '^PASS spawn on no-such-node' <<<"$out")" \
    -a -n "$(grep "cannot spawn on host 'no-such-node'" <<<"$err")"
report

run -n 3 --oversubscribe "$CLIENT" interop
check "a PMIx rank and PMI-1 ranks read each other's data ($rc)" \
  test "$rc" -eq 0 -a "$(grep -c '^PASS interop pmix' <<<"$out")" -eq 1 \
    -a "$(grep -c '^PASS interop pmi rank' <<<"$out")" -eq 2
report

run -n 2 --oversubscribe "$CLIENT" abort 13
check "PMI-1 abort exitcode=13: drover exits 13 ($rc)" test "$rc" -eq 13
check "... in seconds (${elapsed}s)" within 10
check "... nothing left behind" no_leftovers

for kind in noinit garbage nul long unknown nokey twice v2-length v2-zero v2-huge v2-unended \
  v2-rank port-id port-noack spawn-order; do
  run -n 1 "$CLIENT" bad "$kind"
  check "bad input ($kind): the server hangs up ($rc)" \
    grep -q "^PASS bad $kind" <<<"$out"
  report
done
check "nothing left behind" no_leftovers
done_testing
