#!/usr/bin/env bash
# run.sh - Open MPI benchmark: an Open MPI hello world (MPI_Init,
# MPI_Allreduce, MPI_Finalize) at 8 ranks, direct-launched by drover and
# launched by Debian's mpirun, side by side in one hyperfine run.
#
#   bench/mpi/run.sh [BUILD_DIR] [RANKS]      (defaults: build, 8)
#
# Prints a table of mean times and the ratio to mpirun (target: drover
# <= 0.6). A third row runs mpirun with the PML drover picks for its ranks
# (ob1, see docs/launcher.md), to show what that choice alone is worth.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
ranks=${2:-8}
drover=$(readlink -f "$build/src/launcher/drover")
[ -x "$drover" ] || { echo "run.sh: no drover at $drover (build first)" >&2; exit 1; }
mpicc=$(command -v mpicc.openmpi || command -v mpicc || true)
for tool in hyperfine mpirun "$mpicc"; do
  command -v "$tool" >/dev/null || { echo "run.sh: ${tool:-mpicc} is missing" >&2; exit 1; }
done
root_flag=""
[ "$(id -u)" -eq 0 ] && root_flag="--allow-run-as-root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$mpicc" -O2 bench/mpi/hello.c -o "$work/hello"
hyperfine --warmup 3 --min-runs 20 --export-json "$work/times.json" -N \
  -n drover "$drover run -n $ranks --oversubscribe $work/hello" \
  -n mpirun "mpirun $root_flag -n $ranks --oversubscribe $work/hello" \
  -n "mpirun --mca pml ob1" "mpirun $root_flag -n $ranks --oversubscribe --mca pml ob1 $work/hello" >&2
python3 - "$work/times.json" "$ranks" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
mpirun = results["mpirun"]["mean"]
runs = min(len(r["times"]) for r in results.values())
print(f"Open MPI hello (MPI_Init + MPI_Allreduce + MPI_Finalize), {sys.argv[2]} ranks, "
      f"mean of {runs}+ runs")
print("| launcher | mean (ms) | stddev (ms) | ratio to mpirun |")
print("|---|---|---|---|")
for name in ("drover", "mpirun", "mpirun --mca pml ob1"):
    r = results[name]
    print(f"| {name} | {r['mean']*1e3:.1f} | {r['stddev']*1e3:.1f} | {r['mean']/mpirun:.2f} |")
PY
