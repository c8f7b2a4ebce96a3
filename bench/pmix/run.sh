#!/usr/bin/env bash
# bench/pmix/run.sh - what a PMIx client pays, under drover and under the
# anchor (Debian's Open MPI mpirun, whose daemon serves OpenPMIx 4.2.2),
# side by side in one run; and the drover server's memory per client.
#
#   bench/pmix/run.sh            (REPS=5 runs of each, the median is kept)
#
# The same pmix_bench binary runs under both: under mpirun its library
# path points at OpenPMIx's libpmix.so.2. Figures are microseconds, ratios
# drover / OpenPMIx (lower is better for drover). Targets (issue 3): Get
# <= 0.1 x OpenPMIx, fence <= 0.5 x, <= 16 KiB of server memory per client.
#
# Then rounds of put + commit + get of the neighbour's new key by 4 ranks
# (pmix_putget; issue 9): microseconds per round side by side (OpenPMIx
# is slow and quadratic at this, so only a few hundred rounds), and
# drover's per-round cost at 2,500 and 10,000 rounds, which stays flat
# when a get's answer does not grow with the keys the target holds.
# PUTGET_REPS (default 3) runs of each, the median kept.
#
# Both tables add drover with --trace (docs/launcher.md, timeline trace):
# what recording every request costs, as the ratio traced / untraced
# (target < 1.05).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BENCH_BUILD_DIR:-$top/build-bench}
reps=${REPS:-5}
"$top/contrib/install-deps.sh"
[ -f "$build/build.ninja" ] || meson setup "$build" "$top" --buildtype=release -Dtests=false >/dev/null
ninja -C "$build" >/dev/null
drover=$build/src/launcher/drover
bench=$build/bench/pmix/pmix_bench
idle=$build/bench/pmix/pmix_idle
putget=$build/bench/pmix/pmix_putget
putget_reps=${PUTGET_REPS:-3}
openpmix=$(pkg-config --variable=libdir pmix)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run_under LAUNCHER N [PROGRAM ARGS...]: the program's "name value" lines
# (pmix_bench's by default), REPS times.
run_under() {
    local launcher=$1 n=$2
    shift 2
    [ $# -gt 0 ] || set -- "$bench"
    for ((i = 0; i < reps; i++)); do
        if [ "$launcher" = drover ]; then
            "$drover" run -n "$n" --oversubscribe "$@"
        elif [ "$launcher" = traced ]; then
            "$drover" run -n "$n" --oversubscribe --trace "$work/trace.json" "$@"
        else
            mpirun --allow-run-as-root --oversubscribe -n "$n" \
                -x LD_LIBRARY_PATH="$openpmix" "$@"
        fi
    done
}

# The median of each figure.
medians() {
    sort -k1,1 -k2,2g | awk '
        $1 != key { if (n) print key, v[int((n + 1) / 2)]; key = $1; n = 0 }
        { v[++n] = $2 }
        END { if (n) print key, v[int((n + 1) / 2)] }'
}

echo "| figure | ranks | OpenPMIx (mpirun) us | drover us | drover / OpenPMIx | target | drover --trace us | traced / drover |"
echo "|---|---|---|---|---|---|---|---|"
for n in 2 8; do
    run_under mpirun "$n" | medians >"$work/openpmix.$n"
    run_under drover "$n" | medians >"$work/drover.$n"
    run_under traced "$n" | medians >"$work/traced.$n"
    join <(sort "$work/openpmix.$n") <(sort "$work/drover.$n") | join - <(sort "$work/traced.$n") |
        awk -v n="$n" '
            BEGIN { target["get_job"] = "<= 0.10"; target["get_peer"] = "<= 0.10";
                    target["fence"] = "<= 0.50"; target["fence_1k"] = "<= 0.50";
                    target["init"] = "" }
            { printf "| %s | %d | %.3f | %.3f | %.3f | %s | %.3f | %.3f |\n", $1, n, $2, $3, $3 / $2,
                     target[$1], $4, $4 / $3 }'
done

echo
echo "| put+commit+get of the neighbour's new key | ranks | OpenPMIx (mpirun) us/round | drover us/round | drover / OpenPMIx | drover --trace us/round | traced / drover |"
echo "|---|---|---|---|---|---|---|"
for rounds in 250 500; do
    reps=$putget_reps run_under mpirun 4 "$putget" $rounds | medians >"$work/putget.openpmix"
    reps=$putget_reps run_under drover 4 "$putget" $rounds | medians >"$work/putget.drover"
    reps=$putget_reps run_under traced 4 "$putget" $rounds | medians >"$work/putget.traced"
    join "$work/putget.openpmix" "$work/putget.drover" | join - "$work/putget.traced" |
        awk '{ printf "| %s rounds | 4 | %.1f | %.1f | %.4f | %.1f | %.3f |\n", substr($1, 8), $2, $3,
               $3 / $2, $4, $4 / $3 }'
done
for rounds in 2500 10000; do
    reps=$putget_reps run_under drover 4 "$putget" $rounds | medians
done >"$work/putget.linear"
echo
echo "| drover put+commit+get | ranks | 2,500 rounds us/round | 10,000 rounds us/round | 10,000 / 2,500 (flat: ~1) |"
echo "|---|---|---|---|---|"
awk '{ v[$1] = $2 } END { a = v["putget_2500"]; b = v["putget_10000"];
        printf "| per round | 4 | %.1f | %.1f | %.2f |\n", a, b, b / a }' "$work/putget.linear"

# Server memory per client: drover's resident size with N idle clients
# connected, minus the same with N processes that never touch PMIx.
n=256
rss_with() {
    local mode=$1 dir=$work/$1 pid rss
    mkdir -p "$dir"
    "$drover" run -n $n --oversubscribe "$idle" "$dir" $mode &
    pid=$!
    while [ "$(find "$dir" -name 'ready.*' | wc -l)" -lt $n ]; do sleep 0.1; done
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
    touch "$dir/go"
    wait $pid
    echo "$rss"
}
base=$(rss_with nopmix)
full=$(rss_with pmix)
echo
echo "| server memory | ranks | drover RSS without PMIx KiB | with $n clients KiB | per client KiB | target |"
echo "|---|---|---|---|---|---|"
awk -v b="$base" -v f="$full" -v n=$n \
    'BEGIN { printf "| per connected client | %d | %d | %d | %.1f | <= 16 |\n", n, b, f, (f - b) / n }'
