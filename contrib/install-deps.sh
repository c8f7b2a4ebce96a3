#!/usr/bin/env bash
# install-deps.sh - install the Debian 12 packages drover builds and tests with.
# Runs `apt-get update` once, and only when something is missing.
set -euo pipefail

packages=(
  gcc meson ninja-build pkg-config python3
  musl-tools                        # the drover executable, static against musl (README)
  libevent-dev libhwloc-dev libssl-dev libyaml-dev zlib1g-dev check
  libpmix-dev                       # the reference headers/library we test our ABI against
  clang libclang-rt-14-dev          # libFuzzer and the sanitizer runtimes
  clang-format                      # test/style: the format of the files it lists
  procps                            # pgrep/pkill in the launcher tests
  hyperfine mpich openmpi-bin       # bench/launch: drover beside hydra and mpirun
  gfortran                          # coarray tests (drover caf)
  libcoarrays-openmpi-dev           # OpenCoarrays, the coarray benchmark's anchor
  libopenmpi-dev python3-mpi4py     # test/mpi: Open MPI programs and mpi4py under drover run
  python3-pmix                      # test/dropin: OpenPMIx's Python bindings on drover's library
  slurm-wlm munge                   # test/slurm: a multi-node Slurm cluster in namespaces
  iproute2 util-linux               # test/slurm: ip netns, unshare, nsenter
  libmpich-dev mpich-doc            # test/mpich: MPICH programs and MPICH's own examples
  libpmi0-dev libpmi2-0-dev         # the PMI-1/PMI-2 API headers libpmi.so.1/libpmi2.so.0 follow
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
