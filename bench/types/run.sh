#!/usr/bin/env bash
# bench/types/run.sh - pack + unpack of declared datatypes against the
# hand-written registry path, memcpy, and Open MPI's MPI_Pack/MPI_Unpack of
# the equivalent MPI derived datatype, in one run, as ratios; and the time
# to load a file of 1,000 types.
#
#   bench/types/run.sh            (REPS=5 runs of each, the median is kept)
#
# Figures are CPU time of the measuring thread (the machine is shared), the
# best of 5 rounds in each run. Targets (issue 12): 10^6 contiguous doubles within 1.5 x memcpy; the
# struct and the slice at least as fast as MPI_Pack (ratio <= 1); the
# 1,000-type file in under 50 ms.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BENCH_BUILD_DIR:-$top/build-bench}
reps=${REPS:-5}
"$top/contrib/install-deps.sh"
[ -f "$build/build.ninja" ] || meson setup "$build" "$top" --buildtype=release -Dtests=false >/dev/null
ninja -C "$build" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc=$(command -v mpicc.openmpi || command -v mpicc)
"$mpicc" -O2 -I"$top/bench/types" -o "$work/mpi_pack" "$top/bench/types/mpi_pack.c"

for ((i = 0; i < reps; i++)); do
    "$build/bench/types/types_bench"
    # Open MPI's own library path: its mpirun serves OpenPMIx, not drover.
    mpirun --allow-run-as-root -n 1 "$work/mpi_pack"
done | sort -k1,1 -k2,2g | awk '
    $1 != key { if (n) print key, v[int((n + 1) / 2)]; key = $1; n = 0 }
    { v[++n] = $2 }
    END { if (n) print key, v[int((n + 1) / 2)] }' >"$work/medians"

awk '
    { t[$1] = $2 }
    END {
        print "| data | declared ms | registry (hand-written) ms | MPI_Pack+Unpack ms | memcpy ms | declared / MPI | declared / memcpy | target |"
        print "|---|---|---|---|---|---|---|---|"
        printf "| 10^6 contiguous doubles | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | <= 1.5 x memcpy |\n",
            t["contig_declared"] / 1e6, t["contig_registry"] / 1e6, t["contig_mpi"] / 1e6,
            t["contig_memcpy"] / 1e6, t["contig_declared"] / t["contig_mpi"],
            t["contig_declared"] / t["contig_memcpy"]
        printf "| 10^5 struct {char a; int b[5][10]} | %.2f | %.2f | %.2f | | %.2f | | <= 1 x MPI |\n",
            t["struct_declared"] / 1e6, t["struct_registry"] / 1e6, t["struct_mpi"] / 1e6,
            t["struct_declared"] / t["struct_mpi"]
        printf "| 1024x1024 slice of 2048x2048 doubles | %.2f | %.2f | %.2f | | %.2f | | <= 1 x MPI |\n",
            t["slice_declared"] / 1e6, t["slice_registry"] / 1e6, t["slice_mpi"] / 1e6,
            t["slice_declared"] / t["slice_mpi"]
        printf "\n| load a file of 1,000 types | %.1f ms | target < 50 ms |\n", t["load_1000"] / 1e6
    }' "$work/medians"
