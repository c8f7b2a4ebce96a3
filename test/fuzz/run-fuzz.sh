#!/bin/bash
# run-fuzz.sh - build the fuzzers with clang, ASan and UBSan, seed them and
# run each for a quarter of the time given: fuzz_unpack (PMIx_Data_unpack of
# arbitrary bytes), fuzz_server (client requests to the server, node and
# rank maps) and fuzz_types (the YAML loader of declared datatypes and
# their unpack); then fuzz_pmi1 and fuzz_pmi2 (the PMI wire parsers) and
# fuzz_pmi_server (the server's PMI connections), fuzz_jobfile (drover
# run's job files) and fuzz_output_frames (the frames of a daemon job's
# output) for a tenth each.
#
#   test/fuzz/run-fuzz.sh [seconds]        (default 60)
#
# The build lives in its own directory (FUZZ_BUILD_DIR, default build-fuzz
# at the top of the tree), configured once with CC=clang, -Dfuzz=true and
# the sanitizers; every source is instrumented for coverage
# (-fsanitize=fuzzer-no-link) so the fuzzer can steer into the library.
# Only the fuzz programs are built. Corpora and findings are kept under
# <build>/fuzz-run/<harness>, so a later run continues from what was learnt.
#
# Prints one line per harness, "fuzz NAME: N runs in S s, F findings", and
# exits non-zero
# when the fuzzer found something (a crash, a leak, a timeout, an
# out-of-memory or a broken invariant) or could not run; the end of the
# fuzzer's log and the saved inputs are shown then.
set -eu -o pipefail

seconds=${1:-60}
case $seconds in
    '' | *[!0-9]*) echo "usage: $0 [seconds]" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${FUZZ_BUILD_DIR:-$top/build-fuzz}

if [ ! -f "$build/build.ninja" ]; then
    CC=clang meson setup "$build" "$top" \
        -Dfuzz=true \
        -Db_sanitize=address,undefined \
        -Db_lundef=false \
        -Dc_args=-fsanitize=fuzzer-no-link \
        -Dc_link_args=-fsanitize=fuzzer-no-link >"$build.setup.log" 2>&1 || {
        cat "$build.setup.log" >&2
        echo "fuzz: cannot configure $build" >&2
        exit 1
    }
    rm -f "$build.setup.log"
fi
ninja -C "$build" -j2 test/fuzz/fuzz_unpack test/fuzz/fuzz_seed test/fuzz/fuzz_server \
    test/fuzz/fuzz_server_seed test/fuzz/fuzz_types test/fuzz/fuzz_types_seed \
    test/fuzz/fuzz_pmi1 test/fuzz/fuzz_pmi2 test/fuzz/fuzz_pmi_server \
    test/fuzz/fuzz_pmi_seed test/fuzz/fuzz_jobfile test/fuzz/fuzz_jobfile_seed \
    test/fuzz/fuzz_output_frames test/fuzz/fuzz_output_frames_seed >/dev/null || {
    echo "fuzz: build failed (run: ninja -C $build test/fuzz/fuzz_unpack)" >&2
    exit 1
}

# Runs one harness for its share of the time with its own corpus.
# Prints its summary line; returns non-zero on any finding.
run_harness() {
    local name=$1 seeder=$2 secs=$3
    local work=$build/fuzz-run/$name
    local corpus=$work/corpus artifacts=$work/artifacts log=$work/fuzz.log
    local status=0 started=$SECONDS

    mkdir -p "$corpus" "$artifacts" "$work/tmp"
    rm -f "$artifacts"/*
    "$build/test/fuzz/$seeder" "$corpus" >/dev/null
    # fuzz_server's server never finalizes (libFuzzer just exits), so its
    # socket directory goes in a TMPDIR of the run's own, removed after.
    TMPDIR=$work/tmp \
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1} \
        "$build/test/fuzz/$name" \
        -max_total_time="$secs" \
        -max_len=4096 \
        -timeout=10 \
        -rss_limit_mb=2048 \
        -print_final_stats=1 \
        -artifact_prefix="$artifacts/" \
        "$corpus" >"$log" 2>&1 || status=$?
    rm -rf "$work/tmp"
    local elapsed=$((SECONDS - started))
    local runs findings
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    findings=$(find "$artifacts" -type f | wc -l)
    echo "fuzz $name: ${runs:-0} runs in $elapsed s, $findings findings"
    if [ "$status" -ne 0 ] || [ "$findings" -ne 0 ]; then
        echo "--- end of $log ---"
        tail -n 60 "$log"
        for f in "$artifacts"/*; do
            [ -f "$f" ] || continue
            echo "--- $f ($(stat -c %s "$f") bytes) ---"
            od -A d -t x1 "$f" | head -n 20
        done
        return 1
    fi
}

# The PMIx and datatype harnesses share most of the time; the PMI ones are
# small.
quarter=$(( (seconds + 3) / 4 ))
pmi=$(( (seconds + 9) / 10 ))
result=0
run_harness fuzz_unpack fuzz_seed "$quarter" || result=1
run_harness fuzz_server fuzz_server_seed "$quarter" || result=1
run_harness fuzz_types fuzz_types_seed "$quarter" || result=1
run_harness fuzz_pmi1 fuzz_pmi_seed "$pmi" || result=1
run_harness fuzz_pmi2 fuzz_pmi_seed "$pmi" || result=1
run_harness fuzz_pmi_server fuzz_pmi_seed "$pmi" || result=1
run_harness fuzz_jobfile fuzz_jobfile_seed "$pmi" || result=1
run_harness fuzz_output_frames fuzz_output_frames_seed "$pmi" || result=1
exit $result
