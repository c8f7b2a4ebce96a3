#!/bin/sh
# run.sh - Open MPI's mpirun with drover's libpmix.so.2 first on the library
# path: mpirun's PMIx server and the ranks' client are then drover's (the
# programs check it). Environment: DROVER_LIBDIR (the library's directory),
# PROBE, MPI_JOB, MPI_SPAWN and MPI_NAMES (the programs), MPIRUN, FAKE_RSH,
# BUILD_ROOT.
set -eu

export LD_LIBRARY_PATH="$DROVER_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out="$work/out"
# Everything mpirun and the library create lives here; it must be empty at
# the end.
TMPDIR="$work/tmp"
mkdir "$TMPDIR"
export TMPDIR

fail() {
    echo "run.sh: $*" >&2
    cat "$out" >&2
    exit 1
}

# A library built with sanitizers needs their runtimes loaded first in
# mpirun and the ranks, which are not built with them; Open MPI's own leaks
# and its one known memory error (openmpi.supp) are not ours to report.
sanitizers=$(ldd "$DROVER_LIBDIR/libpmix.so.2" | awk '/lib(asan|ubsan)/ {printf "%s:", $3}')
[ -z "$sanitizers" ] ||
    export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:suppressions=$(dirname "$0")/openmpi.supp"

# mpirun -n N ARGS...: its exit status in $status, its output in $out.
# Ranks of one job talk through shared memory only (vader), which works
# only when every rank knows its local peers; spawned jobs reach their
# parents through TCP, so the spawn and names tests leave the choice to
# Open MPI.
mpirun_n() {
    n=$1
    shift
    status=0
    LD_PRELOAD="$sanitizers" timeout -k 5 60 "$MPIRUN" --allow-run-as-root --oversubscribe $btl \
        -n "$n" "$@" >"$out" 2>&1 || status=$?
}
btl="--mca btl self,vader"

# expect_pass WHAT N: the last mpirun succeeded and printed N PASS lines.
expect_pass() {
    [ "$status" -eq 0 ] || fail "$1: mpirun exited with $status"
    passed=$(grep -c '^PASS' "$out" || true)
    [ "$passed" -eq "$2" ] || fail "$1: $passed PASS lines of $2"
    echo "run.sh: $1: passed"
}

mpirun_n 4 "$PROBE"
expect_pass "probe, 4 ranks" 1
grep '^PASS' "$out"

for n in 4 16; do
    mpirun_n "$n" "$MPI_JOB"
    expect_pass "mpi_job, $n ranks" "$n"
done

# Two nodes, the second one a daemon started here by fake_rsh.sh: fences
# and direct modex cross between two drover servers through Open MPI's
# daemons. Shared memory would mix the two nodes' segments: TCP.
btl="--mca btl self,tcp"
two_nodes="--mca plm_rsh_agent $FAKE_RSH --host $(uname -n),drover-second-node --map-by node"
mpirun_n 4 $two_nodes "$PROBE"
expect_pass "probe, 4 ranks on two nodes" 1
mpirun_n 4 $two_nodes "$MPI_JOB"
expect_pass "mpi_job, 4 ranks on two nodes" 4

btl=""
mpirun_n 2 "$MPI_SPAWN"
expect_pass "MPI_Comm_spawn, 2 parents and 2 children" 4
mpirun_n 3 "$MPI_NAMES"
expect_pass "MPI_Publish_name, _Lookup_name, _Unpublish_name, connect/accept" 3

# Open MPI 4.1's mpirun itself may crash on the message MPI_Abort logs: its
# log handler, called on the PMIx server's thread, lets its own thread free
# the message before copying it (pmix_server_log_fn, then
# orte_rml_oob_send_buffer_nb). OpenPMIx's server crashes it the same way
# (contrib/openmpi-log-race.sh shows both); only that crash is retried.
# A crashed mpirun leaves its session directory and shared-memory
# segments behind, so each try has a TMPDIR of its own, which must be empty
# after the try that did not crash.
for try in 1 2 3; do
    try_dir="$work/abort.$try"
    mkdir "$try_dir"
    btl="--mca btl self,vader --mca btl_vader_backing_directory $try_dir"
    TMPDIR="$try_dir" mpirun_n 4 "$MPI_JOB" abort
    [ "$status" -eq 139 ] && grep -q 'pmix_server_log_fn' "$out" &&
        grep -q 'orte_rml_oob_send_buffer_nb' "$out" || break
    echo "run.sh: MPI_Abort, try $try: mpirun crashed in Open MPI's log race; again"
done
[ "$status" -eq 3 ] || fail "MPI_Abort(3): mpirun exited with $status"
grep -q '^PASS' "$out" && fail "MPI_Abort: a rank went on past the abort"
left=$(find "$try_dir" -mindepth 1)
[ -z "$left" ] || fail "MPI_Abort: left behind: $left"
echo "run.sh: MPI_Abort ended the job, mpirun exited with $status"

# mpirun stopped with SIGTERM while its ranks run (as by Ctrl-C): the
# ranks end and drover's server removes its socket.
LD_PRELOAD="$sanitizers" "$MPIRUN" --allow-run-as-root --oversubscribe -n 2 sleep 60 \
    >"$out" 2>&1 &
mpirun_pid=$!
ranks=""
for _ in $(seq 100); do
    ranks=$(pgrep -P "$mpirun_pid" -x sleep || true)
    [ "$(echo "$ranks" | wc -w)" -lt 2 ] || break
    sleep 0.1
done
[ "$(echo "$ranks" | wc -w)" -eq 2 ] || fail "the two ranks did not start"
[ -n "$(find "$TMPDIR" -name server.sock)" ] || fail "no server socket while mpirun runs"
kill -TERM "$mpirun_pid"
wait "$mpirun_pid" || true
for pid in $ranks; do
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && fail "rank $pid outlived mpirun by 5 s"
done
[ -z "$(find "$TMPDIR" -name server.sock)" ] || fail "server socket left after SIGTERM"
echo "run.sh: mpirun stopped by SIGTERM: no rank and no socket left"

# The installed library (meson install into a staging root) serves the
# same way: mpirun and the ranks load it from there.
root="$work/install"
meson install -C "$BUILD_ROOT" --no-rebuild --quiet --destdir "$root" >/dev/null ||
    fail "meson install failed"
installed=$(dirname "$(find "$root" -name libpmix.so.2 | head -1)")
btl="--mca btl self,vader"
LD_LIBRARY_PATH="$installed" DROVER_LIBDIR="$installed" mpirun_n 2 "$PROBE"
expect_pass "probe on the installed library (${installed#"$root"})" 1

left=$(find "$TMPDIR" -mindepth 1)
[ -z "$left" ] || fail "left behind in TMPDIR: $left"
echo "run.sh: nothing left behind"
