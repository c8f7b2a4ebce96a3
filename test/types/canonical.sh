#!/bin/sh
# canonical.sh DROVER FILE... - `drover types show --yaml` writes each
# file's types as canonical YAML that loads to the same types (same names,
# signatures and fingerprints), and writing that again changes nothing.
set -u
drover=$1
shift
dir=$(mktemp -d "${TMPDIR:-/tmp}/drover-canonical.XXXXXX")
trap 'rm -rf "$dir"' EXIT
status=0 n=0
ids() {
    "$drover" types show --json "$1" |
        grep -o '"name": "[^"]*", "signature": "[^"]*", "fingerprint": "[^"]*"' | sort
}
for f in "$@"; do
    "$drover" types show --yaml "$f" > "$dir/once.yml" || { echo "FAIL $f: no YAML"; status=1; continue; }
    "$drover" types show --yaml "$dir/once.yml" > "$dir/twice.yml" || { echo "FAIL $f: its YAML does not load"; status=1; continue; }
    ids "$f" > "$dir/want"
    ids "$dir/once.yml" > "$dir/got"
    if [ ! -s "$dir/want" ] || ! cmp -s "$dir/want" "$dir/got"; then
        echo "FAIL $f: the canonical YAML declares other types"
        diff "$dir/want" "$dir/got"
        status=1
    fi
    cmp -s "$dir/once.yml" "$dir/twice.yml" || { echo "FAIL $f: canonical YAML is not stable"; status=1; }
    n=$((n + $(wc -l < "$dir/want")))
done
[ "$status" -eq 0 ] && echo "ok: $n types written back and reloaded identically"
exit "$status"
