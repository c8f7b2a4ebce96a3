#!/usr/bin/env bash
# run.sh - coarray benchmark: the same bench.f90 built with OpenCoarrays'
# caf (over Open MPI) and with drover caf, run side by side at 2 and 8
# images, best of $REPEAT runs each (default 3), printed as one table with
# ratios (above 1: drover is better).
#
#   bench/caf/run.sh [BUILD_DIR]        (BUILD_DIR defaults to ./build)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
repeat=${REPEAT:-3}
drover=$build/src/launcher/drover
for tool in caf mpirun "$drover"; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool not found (contrib/install-deps.sh, then build)" >&2; exit 1; }
done
drover_launch="$drover run --oversubscribe -n"
oc_launch="mpirun --allow-run-as-root --oversubscribe -n"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
caf -O2 bench/caf/bench.f90 -o "$work/bench_oc"
"$drover" caf -O2 bench/caf/bench.f90 -o "$work/bench_drover"

results=$work/results   # lines: images impl figure value unit
for images in 2 8; do
  for _ in $(seq "$repeat"); do
    # shellcheck disable=SC2086 # the launch commands carry arguments
    $oc_launch "$images" "$work/bench_oc" | sed "s/^/$images oc /" >>"$results"
    # shellcheck disable=SC2086
    $drover_launch "$images" "$work/bench_drover" | sed "s/^/$images drover /" >>"$results"
  done
done

echo "coarray benchmark: best of $repeat runs; ratio above 1 means drover is better"
echo
printf '| %-17s | %6s | %14s | %14s | %8s |\n' figure images OpenCoarrays drover ratio
printf '|%s|%s|%s|%s|%s|\n' -------------------  -------- ---------------- ---------------- ----------
awk '
  { key = $3 " " $1; unit[key] = $5; if (!(key in order)) order[key] = NR
    if (!(($2, key) in best)) best[$2, key] = $4
    else if ($5 == "GB/s" ? $4 > best[$2, key] : $4 < best[$2, key]) best[$2, key] = $4 }
  END {
    n = 0; for (k in order) keys[n++] = k
    for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
      if (order[keys[j]] < order[keys[i]]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
    for (i = 0; i < n; i++) {
      k = keys[i]; split(k, part, " "); oc = best["oc", k]; dr = best["drover", k]
      ratio = (unit[k] == "GB/s") ? dr / oc : oc / dr
      printf "| %-17s | %6s | %9.3f %-4s | %9.3f %-4s | %7.2fx |\n", part[1], part[2], oc, unit[k], dr, unit[k], ratio
    }
  }' "$results"
