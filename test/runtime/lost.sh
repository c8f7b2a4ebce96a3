#!/bin/sh
# lost.sh MINIHOST CLIENT - the server dies under waiting clients: each
# must report PMIX_ERR_LOST_CONNECTION within seconds (client_lost.c).
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
TMPDIR=$work/tmp "$1" 3 "$2" "$work" >/dev/null 2>&1 &
for i in $(seq 100); do
    [ -f "$work/rank.1" ] && [ -f "$work/rank.2" ] && break
    sleep 0.1
done
status=0
for r in 1 2; do
    if [ "$(cat "$work/rank.$r" 2>/dev/null)" != ok ]; then
        echo "lost.sh: rank $r: $(cat "$work/rank.$r" 2>/dev/null || echo 'no answer (hung?)')" >&2
        status=1
    fi
done
wait
[ $status -eq 0 ] && echo "lost.sh: clients saw the server go"
exit $status
