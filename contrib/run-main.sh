#!/usr/bin/env bash
# run-main.sh - from a fresh Debian 12 machine: install, build, and show what
# drover provides (`drover info`: version, datatypes, attributes).
set -euo pipefail
cd "$(dirname "$0")/.."
contrib/install-deps.sh
[ -d build ] || meson setup build --buildtype=release -Dtests=false
ninja -C build
build/src/launcher/drover info "$@"
