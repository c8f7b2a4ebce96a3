#!/usr/bin/env bash
# run-main.sh - from a fresh Debian 12 machine: install, build, and run the
# main job: after a summary of what the library provides (`drover info`), a
# PMIx job, a coarray Fortran job and an unmodified Open MPI job, each
# launched by `drover run`. The jobs run 4 ranks whatever the number of
# cores, hence --oversubscribe.
set -euo pipefail
cd "$(dirname "$0")/.."
contrib/install-deps.sh
[ -d build ] || meson setup build --buildtype=release -Dtests=false
ninja -C build
drover=build/src/launcher/drover

echo "== drover info: the first lines (the whole list is in build/drover-info.txt)"
"$drover" info >build/drover-info.txt
head -n 8 build/drover-info.txt

echo "== drover run -n 4 hello_pmix: put, commit, fence with data, get a neighbour's key"
"$drover" run --oversubscribe -n 4 build/docs/hello_pmix

echo "== drover caf + drover run -n 4: coarray Fortran images over shared memory"
"$drover" caf -J build docs/examples/hello_caf.f90 -o build/hello_caf
"$drover" run --oversubscribe -n 4 build/hello_caf

echo "== mpicc + drover run -n 4: an unmodified Open MPI program on drover's libpmix.so.2"
mpicc docs/examples/hello_mpi.c -o build/hello_mpi
"$drover" run --oversubscribe -n 4 build/hello_mpi
