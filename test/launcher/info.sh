#!/usr/bin/env bash
# info.sh - `drover info` lists the version, every standard datatype and the
# attribute table, and rejects an unknown section with a one-line error.
set -u
drover=$1
fail=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then echo "ok - $what"; else echo "not ok - $what"; fail=1; fi
}
out=$("$drover" info) || { echo "not ok - drover info exits 0"; exit 1; }
datatypes=$(printf '%s\n' "$out" | sed -n '/^datatypes:/,/^attributes:/p' | grep -c '^  ')
attributes=$(printf '%s\n' "$out" | sed -n '/^attributes:/,$p' | grep -c '^  ')
check "version line names drover" grep -q '^version: drover ' <<<"$out"
check "66 standard datatypes listed (got $datatypes)" test "$datatypes" -eq 66
check "PMIX_BOOL is datatype 1" grep -qE '^ +1 +PMIX_BOOL ' <<<"$out"
check "PMIX_STOR_ACCESS_TYPE is datatype 69" grep -qE '^ +69 +PMIX_STOR_ACCESS_TYPE ' <<<"$out"
check "all 528 PMIx 4.2 attribute keys listed (got $attributes)" test "$attributes" -eq 528
check "PMIX_JOB_SIZE is pmix.job.size, a uint32" \
  grep -qE '^ +PMIX_JOB_SIZE +pmix\.job\.size +PMIX_UINT32 ' <<<"$out"
err=$("$drover" info bogus 2>&1 >/dev/null); rc=$?
check "unknown section exits 2" test "$rc" -eq 2
check "unknown section gets a one-line message naming it" \
  test "$(printf '%s\n' "$err" | wc -l)" -eq 1 -a -n "$(grep -F "'bogus'" <<<"$err")"
"$drover" frobnicate >/dev/null 2>&1; rc=$?
check "unknown command exits 2" test "$rc" -eq 2
exit $fail
