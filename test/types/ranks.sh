#!/bin/sh
# ranks.sh DROVER TYPES_RANKS DIR - declared types across the ranks of a
# job: 4 ranks exchange a declared struct, also when the --types file has
# it from a file it includes (relative to its own directory, from another
# working directory); a rank with a conflicting declaration is refused,
# and a broken --types file starts nothing.
set -u
drover=$1 prog=$2 dir=$3
status=0
fail() { echo "FAIL: $*"; status=1; }

out=$("$drover" run -n 4 --oversubscribe --timeout 60 --types "$dir/particles.yml" "$prog" exchange 2>&1)
rc=$?
[ "$rc" -eq 0 ] || fail "exchange: exit $rc: $out"
for r in 0 1 2 3; do
    printf '%s\n' "$out" | grep -qx "rank $r: particle $r is datatype 32768; the 3 peers' particles arrived whole" ||
        fail "exchange: rank $r did not report: $out"
done

inc=$(mktemp -d "${TMPDIR:-/tmp}/drover-types-inc.XXXXXX")
trap 'rm -rf "$inc"' EXIT
mkdir "$inc/sub"
cp "$dir/particles.yml" "$inc/sub/"
printf 'include: [sub/particles.yml]\n' > "$inc/main.yml"
here=$(pwd)
case $drover in /*) adrover=$drover ;; *) adrover=$here/$drover ;; esac
case $prog in /*) aprog=$prog ;; *) aprog=$here/$prog ;; esac
out=$(cd / && "$adrover" run -n 2 --timeout 60 --types "$inc/main.yml" "$aprog" exchange 2>&1)
rc=$?
[ "$rc" -eq 0 ] || fail "included: exit $rc: $out"
[ "$(printf '%s\n' "$out" | grep -c "particle [01] is datatype 32768; the 1 peers' particles arrived whole")" -eq 2 ] ||
    fail "included: the ranks did not report: $out"

out=$("$drover" run -n 2 --timeout 60 --types "$dir/particles.yml" "$prog" conflict 2>&1)
rc=$?
[ "$rc" -ne 0 ] || fail "conflict: drover exited 0"
printf '%s\n' "$out" | grep -qx "rank 1: PMIx_Init refused: TYPE-MISMATCH" ||
    fail "conflict: rank 1 was not refused: $out"
printf '%s\n' "$out" | grep -q "drover: rank 1: the job's datatypes:14:3: error: types.point: type 'point' is already declared differently (datatype 32768)" ||
    fail "conflict: the reason is missing: $out"

bad=$(mktemp "${TMPDIR:-/tmp}/drover-types-bad.XXXXXX")
trap 'rm -rf "$inc" "$bad"' EXIT
printf 'types:\n  p: {type: pointer}\n' > "$bad"
out=$("$drover" run -n 2 --types "$bad" "$prog" exchange 2>&1)
rc=$?
[ "$rc" -eq 1 ] || fail "bad file: exit $rc, not 1"
printf '%s\n' "$out" | grep -q "error: types.p: a pointer needs a \`subtype'" || fail "bad file: no message: $out"
printf '%s\n' "$out" | grep -q "rank" && fail "bad file: a rank ran: $out"

[ "$status" -eq 0 ] && echo "ok: exchange, an included file, conflict and a broken file behave"
exit "$status"
