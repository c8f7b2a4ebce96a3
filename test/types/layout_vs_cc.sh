#!/bin/sh
# layout_vs_cc.sh LAYOUT_C YAML CC - compiles the C that layout_c writes
# for YAML's types; the compiler refuses it if any size, alignment or
# offset drover computed differs from its own.
set -eu
gen=$1 yaml=$2 cc=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/drover-layout.XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$gen" "$yaml" > "$dir/check.c" 2> "$dir/count"
n=$(cat "$dir/count")
if [ "$n" -lt 50 ]; then
    echo "only $n assertions written: the check would prove little" >&2
    exit 1
fi
"$cc" -std=c11 -Wall -Werror -c "$dir/check.c" -o "$dir/check.o"
echo "ok: $n sizes, alignments and offsets agree with $cc"
