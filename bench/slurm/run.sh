#!/usr/bin/env bash
# run.sh - Slurm benchmark on a 2-node namespace cluster (test/slurm/
# cluster.sh, needs root): srun --mpi=pmix with slurmstepd and the ranks on
# drover's libpmix.so.2 against Debian's OpenPMIx, the two alternating
# step by step on the same cluster (the library is rebound between steps).
#
#   bench/slurm/run.sh [BUILD_DIR] [ROUNDS]      (defaults: build, 20)
#
#  - MPI hello (bench/mpi/hello.c: MPI_Init, MPI_Allreduce, MPI_Finalize)
#    at 2 nodes x 4 ranks: the whole srun, mean wall time;
#  - PMIx_Fence with 1 KiB put per rank, 2 nodes x 4 ranks: the mean time
#    of one fence over 200 (test/slurm/pmix_span.c, built against OpenPMIx's
#    headers), one job per round.
# Prints a table of means and the ratio drover / OpenPMIx (targets: hello
# <= 0.8, fence <= 0.5).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
rounds=${2:-20}
lib=$(readlink -f "$build/src/libpmix.so.2")
[ -f "$lib" ] || { echo "run.sh: no $build/src/libpmix.so.2 (build first)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "run.sh: needs root (network namespaces)" >&2; exit 1; }
mpicc=$(command -v mpicc.openmpi || command -v mpicc) || { echo "run.sh: no mpicc" >&2; exit 1; }
. test/slurm/cluster.sh
cluster_start 2
# The programs live outside /tmp, which is private to each node.
"$mpicc" -O2 bench/mpi/hello.c -o "$CLUSTER_DIR/hello"
cc -O2 $(pkg-config --cflags pmix) test/slurm/pmix_span.c -o "$CLUSTER_DIR/pmix_span" \
    $(pkg-config --libs pmix) -Wl,-rpath,"$(pkg-config --variable=libdir pmix)"
unset LD_LIBRARY_PATH
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=eth0

ms_now() { echo $(($(date +%s%N) / 1000)); }
for round in $(seq "$rounds"); do
    for which in drover openpmix; do
        cluster_use "$([ "$which" = drover ] && echo "$lib")"
        t0=$(ms_now)
        if cluster_srun --mpi=pmix -N 2 -n 8 "$CLUSTER_DIR/hello" >/dev/null 2>&1; then
            echo "hello $which $(($(ms_now) - t0))"
        else
            echo "failed $which hello"
        fi
        cluster_srun --mpi=pmix -N 2 -n 8 "$CLUSTER_DIR/pmix_span" 2 1024 200 2>/dev/null |
            sed -n "s/^fence-us /fence $which /p" | grep . || echo "failed $which fence"
    done
done >"$CLUSTER_DIR/times"
# A failed step (OpenPMIx's wire-up fails now and then under Slurm) is
# counted, not timed.
awk -v rounds="$rounds" '
    $1 == "failed" { failed[$2 " " $3]++; next }
    { sum[$1 " " $2] += $3; n[$1 " " $2]++ }
    END {
        for (f in failed) printf "failed steps: %s: %d of %d\n", f, failed[f], rounds
        printf "srun --mpi=pmix on a 2-node namespace cluster, 4 ranks per node, %d rounds alternating\n", rounds
        print "| measure | drover | OpenPMIx 4.2.2 | ratio drover / OpenPMIx |"
        print "|---|---|---|---|"
        d = sum["hello drover"] / n["hello drover"] / 1000; o = sum["hello openpmix"] / n["hello openpmix"] / 1000
        printf "| MPI hello, whole srun (ms) | %.1f | %.1f | %.2f |\n", d, o, d / o
        d = sum["fence drover"] / n["fence drover"]; o = sum["fence openpmix"] / n["fence openpmix"]
        printf "| PMIx_Fence, 1 KiB per rank (us) | %.1f | %.1f | %.2f |\n", d, o, d / o
    }' "$CLUSTER_DIR/times"
