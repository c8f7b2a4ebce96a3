#!/usr/bin/env bash
# run.sh - launch benchmark: 8 x /bin/true under drover, Debian MPICH's
# hydra and Debian Open MPI's mpirun, side by side in one hyperfine run.
#
#   bench/launch/run.sh [BUILD_DIR] [RANKS]      (defaults: build, 8)
#
# Prints a table of mean times and ratios to hydra (target: drover <= 1.0).
set -euo pipefail
build=${1:-build}
ranks=${2:-8}
drover=$(readlink -f "$build/src/launcher/drover")
[ -x "$drover" ] || { echo "run.sh: no drover at $drover (build first)" >&2; exit 1; }
for tool in hyperfine mpiexec.hydra mpirun; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing" >&2; exit 1; }
done
root_flag=""
[ "$(id -u)" -eq 0 ] && root_flag="--allow-run-as-root"
json=$(mktemp)
trap 'rm -f "$json"' EXIT
hyperfine --warmup 3 --min-runs 30 --export-json "$json" -N \
  -n drover "$drover run -n $ranks --oversubscribe /bin/true" \
  -n hydra "mpiexec.hydra -n $ranks /bin/true" \
  -n mpirun "mpirun $root_flag -n $ranks --oversubscribe /bin/true" >&2
python3 - "$json" "$ranks" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
hydra = results["hydra"]["mean"]
print(f"launch of {sys.argv[2]} x /bin/true (mean of {results['drover']['times'].__len__()}+ runs)")
print(f"| launcher | mean (ms) | stddev (ms) | ratio to hydra |")
print(f"|---|---|---|---|")
for name in ("drover", "hydra", "mpirun"):
    r = results[name]
    print(f"| {name} | {r['mean']*1e3:.1f} | {r['stddev']*1e3:.1f} | {r['mean']/hydra:.2f} |")
PY
