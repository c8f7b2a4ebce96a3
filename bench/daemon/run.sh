#!/usr/bin/env bash
# run.sh - the daemon benchmark, in one run, as ratios:
#   - launch of 8 x /bin/true through the daemon (`drover run --daemon`)
#     beside a standalone `drover run` and MPICH's mpiexec.hydra (issue
#     target: <= 0.5 x hydra), the commands taking turns (bench/rounds.py)
#     with 50 ms of rest after each, so that the work a command leaves
#     behind (a daemon's run finishing its teardown after the job's status
#     was answered, its next standby starting) is not timed in the next;
#     the CPU the daemon spends per job (its runs and ranks included) is
#     printed after the table, as its row's CPU column is the command's;
#     the floor row is bench/daemon/launch_floor.c, the least any launch
#     daemon can do (a bare client; a server forking the ranks from two
#     threads, nothing else), built as the drover executable is: static
#     against musl when musl-gcc is there (a client's start then skips the
#     dynamic loader and glibc's probing of the processor);
#   - the daemon's resident memory once 100 submitted jobs have ended and
#     sit in its history (target: under 16 MiB).
# The daemon is a private one: its state directory is a fresh
# XDG_RUNTIME_DIR, and it is stopped however the script ends.
#
#   bench/daemon/run.sh [BUILD_DIR] [RANKS] [ROUNDS]   (defaults: build, 8, 30)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
ranks=${2:-8}
rounds=${3:-30}
drover=$(readlink -f "$build/src/launcher/drover")
[ -x "$drover" ] || { echo "run.sh: build $build first" >&2; exit 1; }
command -v mpiexec.hydra >/dev/null || { echo "run.sh: mpiexec.hydra is missing" >&2; exit 1; }
work=$(mktemp -d)
export XDG_RUNTIME_DIR=$work/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
floor_pid=
trap '"$drover" daemon stop >/dev/null 2>&1 || true
      [ -z "$floor_pid" ] || kill "$floor_pid" 2>/dev/null; wait; rm -rf "$work"' EXIT
"$drover" daemon start >/dev/null
if [ -z "$(readelf -l "$drover" | grep -w INTERP)" ] && command -v musl-gcc >/dev/null; then
  musl-gcc -O2 -static -pthread bench/daemon/launch_floor.c -o "$work/launch_floor"
else
  cc -O2 -pthread bench/daemon/launch_floor.c -o "$work/launch_floor"
fi
"$work/launch_floor" serve "$work/floor.sock" /bin/true &
floor_pid=$!
for _ in $(seq 50); do [ -S "$work/floor.sock" ] && break; sleep 0.05; done

PYTHONPATH=bench python3 - "$drover" "$ranks" "$rounds" "$XDG_RUNTIME_DIR/drover/daemon.pid" \
  "$work" <<'PY'
import os
import sys
from rounds import rotate, table

drover, ranks, rounds, pidfile, work = (sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4],
                                        sys.argv[5])


def daemon_cpu():
    """CPU seconds of the daemon and of the runs and ranks it has reaped."""
    with open(f"/proc/{open(pidfile).read().split()[0]}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


rows = {"drover run --daemon": [drover, "run", "--daemon", "-n", ranks, "--oversubscribe",
                                "/bin/true"],
        "drover run": [drover, "run", "-n", ranks, "--oversubscribe", "/bin/true"],
        "hydra": ["mpiexec.hydra", "-n", ranks, "/bin/true"],
        "floor (launch_floor)": [f"{work}/launch_floor", "run", f"{work}/floor.sock", ranks]}
before = daemon_cpu()
table(f"launch of {ranks} x /bin/true", "ms", 1e3, "hydra", *rotate(rows, rounds, 3, pause=0.05))
# The daemon row's CPU column is its command's only: the job's run and
# ranks are the daemon's children, counted here.
print(f"CPU per job in the daemon, its runs and their ranks: "
      f"{(daemon_cpu() - before) / (rounds + 3) * 1e3:.0f} ms")
PY

jobs=()
for i in $(seq 100); do
  jobs+=("$("$drover" submit -n 2 /bin/true)")
done
for j in "${jobs[@]}"; do
  "$drover" wait "$j" >/dev/null
done
pid=$(cat "$XDG_RUNTIME_DIR/drover/daemon.pid")
ended=$("$drover" ps --json | python3 -c 'import json,sys; print(sum(1 for j in json.load(sys.stdin) if j["state"] != "running"))')
rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
echo "daemon memory with $ended ended jobs in its history: $((rss / 1024)).$(((rss % 1024) * 10 / 1024)) MiB RSS (target: under 16 MiB)"
