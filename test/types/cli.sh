#!/bin/sh
# cli.sh DROVER DIR - `drover types` and `drover info datatypes --types`:
# what they print and their exit statuses, for good and bad use.
set -u
drover=$1 dir=$2
status=0
fail() { echo "FAIL: $*"; status=1; }
# expect STATUS TEXT CMD...: CMD exits STATUS and prints a line equal to TEXT.
expect() {
    want=$1 text=$2
    shift 2
    out=$("$@" 2>&1)
    rc=$?
    [ "$rc" -eq "$want" ] || fail "$*: exit $rc, not $want: $out"
    printf '%s\n' "$out" | grep -qxF -- "$text" || fail "$*: no line '$text' in: $out"
}

expect 0 "grid: struct  STRUCT  size 204  align 4  extent 204" \
    "$drover" types show "$dir/layouts.yml" grid
expect 0 "  b: array[5][10]  SUBARRAY  offset 4  size 200  align 4  extent 200" \
    "$drover" types show "$dir/layouts.yml" grid
expect 0 "  signature {@0:i1;@4:[5,10](i4);}(204)" "$drover" types show "$dir/layouts.yml" grid
expect 0 "  32768  grid                         204 bytes (declared)" \
    "$drover" info datatypes --types "$dir/layouts.yml"
expect 0 "   22  PMIX_PROC                    260 bytes" \
    "$drover" info datatypes --types "$dir/layouts.yml"
expect 1 "drover types: $dir/layouts.yml declares no type 'nosuch'" \
    "$drover" types show "$dir/layouts.yml" nosuch
expect 1 "/nonexistent/types.yml: cannot read it (not a readable file)" \
    "$drover" types check /nonexistent/types.yml
expect 1 "$dir/errors/syntax.yml:2:45: error: did not find expected ',' or ']' while parsing a flow sequence" \
    "$drover" types check "$dir/layouts.yml" "$dir/errors/syntax.yml"
expect 1 "$dir/errors/syntax.yml:2:45: error: did not find expected ',' or ']' while parsing a flow sequence" \
    "$drover" info datatypes --types "$dir/errors/syntax.yml"
expect 2 "usage: drover types check [--lenient] FILE..." "$drover" types check
expect 2 "drover types: unknown option '--frob'" "$drover" types show --frob "$dir/layouts.yml"
expect 2 "usage: drover types check [--lenient] FILE..." "$drover" types frob
[ "$status" -eq 0 ] && echo "ok: drover types and drover info --types behave"
exit "$status"
