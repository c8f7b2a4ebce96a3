#!/usr/bin/env bash
# run.sh - coarray benchmark: the same bench.f90 built with OpenCoarrays'
# caf (over Open MPI) and with drover caf, run side by side at 2 and 8
# images, $REPEAT runs each (default 5, the two alternating so that both see
# the same machine), printed as one table: best figures, and ratios of the
# best and of the median runs (above 1: drover is better). The machine is
# shared: the median ratio says how reliably drover is ahead.
#
#   bench/caf/run.sh [BUILD_DIR]        (BUILD_DIR defaults to ./build)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
repeat=${REPEAT:-5}
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
# The machine may be shared: the load average says how much the figures
# had to compete with.
load() { cut -d' ' -f1 /proc/loadavg; }
load_before=$(load)
for images in 2 8; do
  for _ in $(seq "$repeat"); do
    # shellcheck disable=SC2086 # the launch commands carry arguments
    $oc_launch "$images" "$work/bench_oc" | sed "s/^/$images oc /" >>"$results"
    # shellcheck disable=SC2086
    $drover_launch "$images" "$work/bench_drover" | sed "s/^/$images drover /" >>"$results"
  done
done

echo "coarray benchmark: $repeat runs each, OpenCoarrays and drover alternating;"
echo "best and median of the runs; ratio above 1 means drover is better"
echo "$(nproc) cores; load average $load_before before the runs, $(load) after"
echo
printf '| %-17s | %6s | %14s | %14s | %10s | %12s |\n' figure images "OpenCoarrays" drover "best ratio" "median ratio"
printf '|%s|%s|%s|%s|%s|%s|\n' ------------------- -------- ---------------- ---------------- ------------ --------------
awk '
  function better(a, b, u) { return u == "GB/s" ? a > b : a < b }
  # As text: a figure of 0 (below the clock resolution) has no ratio.
  function ratio(oc, dr, u) {
    if ((u == "GB/s" ? oc : dr) == 0) return "-"
    return sprintf("%.2fx", u == "GB/s" ? dr / oc : oc / dr)
  }
  # The median of the values list[key, 1..count] (sorted in place).
  function median(list, key, count,   i, j, t) {
    for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++)
      if (list[key, j] < list[key, i]) { t = list[key, i]; list[key, i] = list[key, j]; list[key, j] = t }
    return count % 2 ? list[key, (count + 1) / 2] : (list[key, count / 2] + list[key, count / 2 + 1]) / 2
  }
  { key = $3 " " $1; unit[key] = $5; if (!(key in order)) order[key] = NR
    impl = $2 SUBSEP key; runs[impl]++; value[impl, runs[impl]] = $4
    if (!(impl in best) || better($4, best[impl], $5)) best[impl] = $4 }
  END {
    n = 0; for (k in order) keys[n++] = k
    for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
      if (order[keys[j]] < order[keys[i]]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
    for (i = 0; i < n; i++) {
      k = keys[i]; split(k, part, " "); u = unit[k]
      oc = "oc" SUBSEP k; dr = "drover" SUBSEP k
      printf "| %-17s | %6s | %9.3f %-4s | %9.3f %-4s | %10s | %12s |\n", part[1], part[2],
        best[oc], u, best[dr], u, ratio(best[oc], best[dr], u),
        ratio(median(value, oc, runs[oc]), median(value, dr, runs[dr]), u)
    }
  }' "$results"
