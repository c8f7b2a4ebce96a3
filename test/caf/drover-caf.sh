#!/usr/bin/env bash
# drover-caf.sh - `drover caf` builds a coarray program that runs as one
# image without a launcher, compiles without linking when asked, and rejects
# bad input with a one-line error.
set -u
drover=$(realpath "$1") source=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fail=1; fi
}
"$drover" caf -O1 -J "$work" "$source" -o "$work/prog"
check "drover caf links a program" test -x "$work/prog"
check "it runs as a single image without a launcher" grep -q '^PASS images (1 images)' <<<"$("$work/prog")"
check "it finds libcaf_drover through its rpath" \
  bash -c "readelf -d '$work/prog' | grep -q 'R.*PATH.*'"
(cd "$work" && "$drover" caf -c "$source" -o obj.o)
check "drover caf -c compiles without linking" test -s "$work/obj.o"
err=$("$drover" caf 2>&1); rc=$?
check "no files: exit 2 ($rc)" test "$rc" -eq 2
check "no files: one line naming the problem" grep -q '^drover caf: no source' <<<"$err"
err=$("$drover" caf -fcoarray=single "$source" 2>&1); rc=$?
check "a -fcoarray option of its own is refused ($rc)" test "$rc" -eq 2
check "the message names it" grep -q "'-fcoarray=single' conflicts" <<<"$err"
err=$(DROVER_FC=/nonexistent/gfortran "$drover" caf "$source" 2>&1); rc=$?
check "a missing compiler: exit 127 ($rc)" test "$rc" -eq 127
check "the message names the compiler" grep -q 'cannot run /nonexistent/gfortran' <<<"$err"
exit "$fail"
