#!/bin/sh
# errors.sh DROVER DIR - `drover types check` on every broken file in DIR:
# it must exit 1 and print exactly the messages in FILE.expected.
set -u
drover=$1 dir=$2
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
[ "$status" -eq 0 ] && echo "ok: $n broken files, every message as expected"
exit "$status"
