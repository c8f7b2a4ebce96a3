#!/usr/bin/env bash
# run-tests.sh - from a fresh Debian 12 machine: install, build, and run every
# test: the meson suites (unit, ABI, drop-in, integration) with warnings as
# errors, the unit, launcher, daemon, runtime, docs, types, mpirun and mpich
# suites again under ASan+UBSan, and the fuzzers (unpacker, server requests
# and maps, declared datatypes, PMI wire parsers) for a bounded time. Ends
# with one line "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
contrib/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }

passed=0
failed=0
# Sanitizer findings must fail the test that triggers them.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
fuzz_seconds=${DROVER_FUZZ_SECONDS:-120}

# Adds a meson test run's Ok / Fail counts to the totals.
count_meson() {
  local log=$1 ok fail
  ok=$(grep -E '^Ok:' "$log" | awk '{print $2}' | tail -1)
  fail=$(grep -E '^(Fail|Timeout|Unexpected Pass):' "$log" | awk '{s += $NF} END {print s + 0}')
  passed=$((passed + ${ok:-0}))
  failed=$((failed + ${fail:-0}))
}

# Runs one stage; a stage that cannot even build counts as one failure.
stage() {
  local name=$1 dir=$2; shift 2
  echo "=== $name"
  if ! { [ -d "$dir" ] || meson setup "$dir" "$@"; } || ! ninja -C "$dir"; then
    echo "$name: build failed"
    failed=$((failed + 1))
    return
  fi
  meson test -C "$dir" --print-errorlogs --num-processes 2 $STAGE_TEST_ARGS | tee "$dir/test-summary.log"
  count_meson "$dir/test-summary.log"
}

STAGE_TEST_ARGS="" stage "build and test (warnings are errors)" build-ci -Dwerror=true
STAGE_TEST_ARGS="--suite unit --suite launcher --suite daemon --suite runtime --suite docs --suite types --suite mpirun --suite mpich" stage "unit, launcher, daemon, runtime, docs, types, mpirun and mpich tests under ASan+UBSan" build-ci-asan \
  -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false

echo "=== fuzzing for ${fuzz_seconds}s"
if test/fuzz/run-fuzz.sh "$fuzz_seconds"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
fi

echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
