#!/usr/bin/env bash
# run.sh - MPICH benchmark, drover beside Debian MPICH's own mpiexec.hydra
# in one run, as ratios to hydra:
#   - an MPICH hello (MPI_Init + MPI_Allreduce + MPI_Finalize, the program
#     of bench/mpi) at 8 ranks (target: drover <= 0.6); a third row runs
#     each of drover's ranks in a session of its own, as hydra does, which
#     on a kernel with autogroup scheduling (Debian's default) gives them
#     a larger share of a busy machine (docs/launcher.md);
#   - launch of 8 x /bin/true (target <= 1.0);
#   - a PMI-1 get after a fence (test/mpich/pmi_wire latency: 8 ranks,
#     each getting another's key), per get (target <= 0.5), also with
#     setsid ranks, and under bench/mpich/pmi_floor, the least any server
#     can do for it (a plain epoll loop answering fixed text): the floor.
#
# The commands take turns, one run of each per round (bench/rounds.py, which
# also says what the tables give).
#
#   bench/mpich/run.sh [BUILD_DIR] [RANKS] [ROUNDS]   (defaults: build, 8, 20)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
ranks=${2:-8}
rounds=${3:-20}
drover=$(readlink -f "$build/src/launcher/drover")
wire=$(readlink -f "$build/test/mpich/pmi_wire")
[ -x "$drover" ] && [ -x "$wire" ] || { echo "run.sh: build $build first" >&2; exit 1; }
for tool in mpiexec.hydra mpicc.mpich cc; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc.mpich -O2 bench/mpi/hello.c -o "$work/hello"
cc -O2 bench/mpich/pmi_floor.c -o "$work/pmi_floor"
PYTHONPATH=bench python3 - "$drover" "$wire" "$work/hello" "$work/pmi_floor" "$ranks" "$rounds" <<'PY'
import sys
from rounds import rotate, table

drover, wire, hello, floor, ranks = sys.argv[1:6]
rounds = int(sys.argv[6])
d_run = [drover, "run", "-n", ranks, "--oversubscribe"]
hydra = ["mpiexec.hydra", "-n", ranks]

rows = {"drover": d_run + [hello], "hydra": hydra + [hello],
        "drover, setsid ranks": d_run + ["setsid", hello]}
table(f"MPICH hello (MPI_Init + MPI_Allreduce + MPI_Finalize), {ranks} ranks", "ms", 1e3,
      "hydra", *rotate(rows, rounds, 3))
rows = {"drover": d_run + ["/bin/true"], "hydra": hydra + ["/bin/true"]}
table(f"launch of /bin/true, {ranks} ranks", "ms", 1e3, "hydra",
      *rotate(rows, max(rounds, 30), 3))

def per_get(out, w):
    for line in out.splitlines():
        if line.startswith("get ") and line.endswith(" us"):
            return float(line.split()[1])
    sys.exit("run.sh: pmi_wire printed no latency")
rows = {"drover": d_run + [wire, "latency", "2000"], "hydra": hydra + [wire, "latency", "2000"],
        "drover, setsid ranks": d_run + ["setsid", wire, "latency", "2000"],
        "floor (pmi_floor)": [floor, ranks, wire, "latency", "2000"]}
table(f"PMI-1 get after a fence, per get (2000 gets per run), {ranks} ranks", "us", 1, "hydra",
      *rotate(rows, max(rounds // 2, 5), 1, per_get))
PY
