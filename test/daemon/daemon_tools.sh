#!/usr/bin/env bash
# daemon_tools.sh - PMIx tools and the daemon: a tool built against
# OpenPMIx's headers (daemon_tool.c, run with drover's libpmix.so.2) finds
# the daemon as the system server (PMIX_CONNECT_TO_SYSTEM, _SYSTEM_FIRST),
# by its pid, by URI and by an attachment file; spawns jobs whose output is
# forwarded or pulled, jobs of two apps, jobs stopped for a debugger (all
# ranks, or rank 1 only); pauses and resumes them; queries them (keys the
# daemon answers, keys their run answers, unknown keys) and kills them and
# gets their job-end events; sees the groups their ranks construct (as the
# daemon's process sets and groups) come and go. Then (as root) another user's daemon refuses
# this user's tools.
source "$(dirname "$0")/lib.sh"

# The tool as a rank of a standalone run: its environment names the run's
# server.
in_run() {
  timeout -s KILL 60 env LD_LIBRARY_PATH="$DROVER_LIBDIR" "$DROVER" run -n 1 "$DAEMON_TOOL" "$@" \
    >"$work/tout" 2>"$work/terr"
  trc=$?
  tout=$(cat "$work/tout")
}

tool connect system
check "without a daemon, PMIX_CONNECT_TO_SYSTEM finds no server" test "$trc" -eq 1
in_run connect first
check "... PMIX_CONNECT_SYSTEM_FIRST falls back to the server the environment names" \
  test "$trc" -eq 0 -a "${tout#server drover-server.}" != "$tout"
dr daemon start
check "the daemon starts" test "$rc" -eq 0
dpid=$(daemon_pid)
ns=drover-daemon.$dpid
sysfile=$state/pmix.sys.$(hostname)
check "it writes the system rendezvous pmix.sys.<host> in the state directory (URI, version, pid)" \
  test -f "$sysfile" -a "$(sed -n 3p "$sysfile" 2>/dev/null)" = "$dpid" \
  -a "$(stat -c %a "$sysfile" 2>/dev/null)" = 600
tool connect system
check "PMIX_CONNECT_TO_SYSTEM reaches the daemon" test "$trc" -eq 0 -a "$tout" = "server $ns"
in_run connect first
check "PMIX_CONNECT_SYSTEM_FIRST too, before the server the environment names" \
  test "$trc" -eq 0 -a "$tout" = "server $ns"
tool connect pid "$dpid"
check "PMIX_SERVER_PIDINFO of the daemon's pid too" test "$trc" -eq 0 -a "$tout" = "server $ns"
tool connect uri "$(head -1 "$sysfile")"
check "PMIX_SERVER_URI too" test "$trc" -eq 0 -a "$tout" = "server $ns"
tool connect file "$sysfile"
check "PMIX_TOOL_ATTACHMENT_FILE too" test "$trc" -eq 0 -a "$tout" = "server $ns"

tool attach
check "PMIx_tool_attach_to_server with PMIX_CONNECT_TO_SYSTEM, a query, PMIx_tool_disconnect" \
  test "$trc" -eq 0 -a -n "$(grep -x "attached $ns" "$work/tout")"
[ "$trc" -eq 0 ] || cat "$work/tout" "$work/terr"

tool spawn hello-from-the-job
check "a job spawned with PMIX_FWD_STDOUT writes on the tool's stdout" \
  grep -qx "hello-from-the-job" "$work/tout"
check "... and its PMIX_EVENT_JOB_END has PMIX_JOB_TERM_STATUS non-zero termination, exit 3" \
  grep -qx "ended $ns.1-0 term non-zero exit 3" "$work/tout"
[ "$trc" -eq 0 ] || cat "$work/tout" "$work/terr"
tool pull pulled-by-the-tool
check "PMIx_IOF_pull of a spawned job's stdout" grep -qx "pulled pulled-by-the-tool" "$work/tout"
check "... and no forwarding unasked" test "$(grep -c pulled-by-the-tool "$work/tout")" -eq 1
tool latepull written-before-the-pull
check "PMIx_IOF_pull after the job ended still gets what it wrote (kept by the server)" \
  grep -qx "pulled written-before-the-pull" "$work/tout"
for where in init exec; do
  tool debug "$HELLO" "$where"
  sed 's/^/  /' "$work/tout"
  check "a job stopped ($where) announces READY_FOR_DEBUG and waits for PMIX_DEBUGGER_RELEASE (above)" \
    test "$trc" -eq 0 -a "$(grep -c '^ok' "$work/tout")" -ge 11
done
# A scenario of the tool, its lines shown: it passes with at least
# $2 "ok" lines and status 0.
scenario() { # what, least ok lines, then the tool's arguments
  local what=$1 least=$2
  shift 2
  tool "$@"
  sed 's/^/  /' "$work/tout"
  check "$what (above)" test "$trc" -eq 0 -a "$(grep -c '^ok' "$work/tout")" -ge "$least"
}
scenario "a spawn of two apps is one job: each rank's program, PMIX_APPNUM, app size, env" 9 \
  mpmd "$CLIENT"
scenario "PMIX_DEBUG_STOP_IN_INIT naming rank 1: only rank 1 waits for the release" 11 \
  stoprank "$CLIENT"
scenario "PMIX_JOB_CTRL_PAUSE stops the ranks (T), _RESUME runs them again" 11 pause
scenario "queries of keys the daemon, the job's run and nobody answers" 11 queries
tool control
sed 's/^/  /' "$work/tout"
check "queries, job control and events through the daemon (the lines above)" \
  test "$trc" -eq 0 -a "$(grep -c '^ok' "$work/tout")" -ge 12
mkdir "$work/groups"
scenario "a job's groups: process sets and groups of the daemon, until destructed or the job ends" \
  12 groups "$CLIENT" "$work/groups"
dr ps --json
check "drover ps shows the tools' jobs, the killed one as killed" \
  python3 -c '
import json, sys
jobs = json.loads(sys.argv[1])
assert [j["state"] for j in jobs] == ["failed", "failed", "failed", "completed", "completed",
                                      "completed", "completed", "completed", "killed",
                                      "killed", "killed"], jobs
assert jobs[9]["exit_status"] == 137' "$out"

dr submit --oversubscribe -n 1 "$CLIENT" app a : -n 2 -x X=b "$CLIENT" app b X
id=$out
dr wait "$id"
check "drover submit of two apps (':'): exit 0" test "$rc" -eq 0
dr output "$id"
check "... rank 0 runs app 0, ranks 1 and 2 app 1 with its own -x" \
  test "$(grep -o 'rank . app . appnum . size .' <<<"$out" | sort | tr '\n' ' ')" = \
  "rank 0 app a appnum 0 size 1 rank 1 app b appnum 1 size 2 rank 2 app b appnum 1 size 2 " \
  -a "$(grep -c 'X=b$' <<<"$out")" -eq 2

check "the daemon logged no sanitizer report" \
  test -z "$(grep -E "Sanitizer|runtime error" "$state/daemon.log")"

if [ "$(id -u)" -eq 0 ]; then
  # Another user's daemon: this user's tools may neither read its
  # rendezvous nor be served by it.
  user=drovertool$$
  udir=$(mktemp -d /tmp/drover-test-user.XXXXXX)
  mkdir "$udir/bin"
  cp "$DROVER" "$(dirname "$DROVER")/drover-cli" "$udir/bin/"
  cp -L "$(ldd "$udir/bin/drover-cli" | awk '/libpmix.so.2/ {print $3}')" "$udir/libpmix.so.2"
  as_user() {
    setpriv --reuid="$user" --regid="$user" --clear-groups \
      env HOME=/ XDG_RUNTIME_DIR="$udir" TMPDIR="$udir" timeout -s KILL 60 "$@"
  }
  trap 'as_user "$udir/bin/drover" daemon stop >/dev/null 2>&1; pkill -KILL -u "$user";
        userdel "$user" 2>/dev/null; rm -rf "$udir"; stop_daemon; rm -rf "$work"' EXIT
  useradd --no-create-home --shell /usr/sbin/nologin "$user" || exit 1
  chown -R "$user:" "$udir"
  chmod 0700 "$udir"
  as_user "$udir/bin/drover" daemon start >/dev/null
  usys=$udir/drover/pmix.sys.$(hostname)
  check "another user's daemon starts" test -f "$usys"
  XDG_RUNTIME_DIR=$udir tool connect system
  check "its state directory is not this user's: PMIX_CONNECT_TO_SYSTEM refuses it" \
    test "$trc" -eq 1
  tool connect uri "$(head -1 "$usys")"
  check "its server refuses a tool of another uid (root) given its URI" test "$trc" -eq 1
  check "... and the refusal is logged with the reason" \
    grep -q "refused a PMIx connection from uid 0 .*not the server's user" "$udir/drover/daemon.log"
  as_user "$udir/bin/drover" daemon status >/dev/null
  check "... and goes on serving its user" test "$?" -eq 0
fi
done_testing
