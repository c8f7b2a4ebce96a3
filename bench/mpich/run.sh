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
#     setsid ranks.
#
#   bench/mpich/run.sh [BUILD_DIR] [RANKS]      (defaults: build, 8)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
ranks=${2:-8}
drover=$(readlink -f "$build/src/launcher/drover")
wire=$(readlink -f "$build/test/mpich/pmi_wire")
[ -x "$drover" ] && [ -x "$wire" ] || { echo "run.sh: build $build first" >&2; exit 1; }
for tool in hyperfine mpiexec.hydra mpicc.mpich; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc.mpich -O2 bench/mpi/hello.c -o "$work/hello"
hyperfine --warmup 3 --min-runs 20 --export-json "$work/hello.json" -N \
  -n drover "$drover run -n $ranks --oversubscribe $work/hello" \
  -n hydra "mpiexec.hydra -n $ranks $work/hello" \
  -n "drover, setsid ranks" "$drover run -n $ranks --oversubscribe setsid $work/hello" >&2
hyperfine --warmup 3 --min-runs 30 --export-json "$work/true.json" -N \
  -n drover "$drover run -n $ranks --oversubscribe /bin/true" \
  -n hydra "mpiexec.hydra -n $ranks /bin/true" >&2
# The median of 5 runs of 2000 gets each.
latency() { # launcher args...
  for _ in 1 2 3 4 5; do "$@" "$wire" latency 2000 | sed -n 's/^get \([0-9.]*\) us$/\1/p'; done |
    sort -n | sed -n 3p
}
drover_get=$(latency "$drover" run -n "$ranks" --oversubscribe)
setsid_get=$(latency "$drover" run -n "$ranks" --oversubscribe setsid)
hydra_get=$(latency mpiexec.hydra -n "$ranks")
python3 - "$work" "$ranks" "$drover_get" "$hydra_get" "$setsid_get" <<'PY'
import json, sys
work, ranks, dget, hget, sget = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
def table(name, title, rows):
    results = {r["command"]: r for r in json.load(open(f"{work}/{name}.json"))["results"]}
    hydra = results["hydra"]["mean"]
    runs = min(len(r["times"]) for r in results.values())
    print(f"{title}, {ranks} ranks, mean of {runs}+ runs")
    print("| launcher | mean (ms) | stddev (ms) | ratio to hydra |")
    print("|---|---|---|---|")
    for row in rows:
        r = results[row]
        print(f"| {row} | {r['mean']*1e3:.1f} | {r['stddev']*1e3:.1f} | {r['mean']/hydra:.2f} |")
    print()
table("hello", "MPICH hello (MPI_Init + MPI_Allreduce + MPI_Finalize)",
      ("drover", "hydra", "drover, setsid ranks"))
table("true", "launch of /bin/true", ("drover", "hydra"))
print(f"PMI-1 get after a fence, {ranks} ranks, median of 5 runs of 2000 gets")
print("| server | per get (us) | ratio to hydra |")
print("|---|---|---|")
print(f"| drover | {dget:.1f} | {dget/hget:.2f} |")
print(f"| hydra | {hget:.1f} | 1.00 |")
print(f"| drover, setsid ranks | {sget:.1f} | {sget/hget:.2f} |")
PY
