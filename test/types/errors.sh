#!/bin/sh
# errors.sh DROVER DIR [DOC] - `drover types check` on every broken file
# in DIR: it must exit 1 and print exactly the messages in FILE.expected.
# With DOC (docs/datatypes.md), every message its "For example" block
# quotes must be one of them, so the guide cannot drift.
set -u
drover=$1 dir=$2 doc=${3:-}
case $drover in /*) ;; *) drover=$PWD/$drover ;; esac
cd "$dir" || exit 1
status=0 n=0
for f in *.yml; do
    n=$((n + 1))
    out=$("$drover" types check "$f" 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -ne 1 ]; then
        echo "FAIL $f: exit $rc, not 1"
        status=1
    fi
    if [ "$out" != "$(cat "$f.expected")" ]; then
        echo "FAIL $f: messages differ:"
        printf '%s\n' "$out" | diff "$f.expected" - 
        status=1
    fi
done
[ "$n" -gt 0 ] || { echo "no files in $dir"; exit 1; }
if [ -n "$doc" ]; then
    quoted=$(sed -n '/^For example, from/,/^The kinds of error/p' "$doc" | sed -n 's/^    //p')
    [ -n "$quoted" ] || { echo "FAIL $doc quotes no messages"; status=1; }
    printf '%s\n' "$quoted" | while IFS= read -r line; do
        [ -z "$line" ] || cat ./*.expected | grep -qxF -- "$line" || echo "FAIL $doc quotes a message no file gives: $line"
    done | grep . && status=1
fi
[ "$status" -eq 0 ] && echo "ok: $n broken files, every message as expected"
exit "$status"
