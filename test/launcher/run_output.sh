#!/usr/bin/env bash
# run_output.sh - stdout and stderr forwarded in whole lines, --tag-output,
# stdin to rank 0 only (pipe, file, large), -x, --wdir and the library path
# the ranks get.
source "$(dirname "$0")/lib.sh"

run -n 4 --oversubscribe echo hello
check "4 ranks, 4 lines, exit 0" test "$rc" -eq 0 -a "$(grep -c '^hello$' <<<"$out")" -eq 4
run -n 3 --oversubscribe --tag-output sh -c 'echo out; echo err >&2'
check "--tag-output prefixes stdout lines with the rank" \
  test "$(grep -cE '^\[[0-2]\] out$' <<<"$out")" -eq 3 -a "$(grep -c '^\[1\] out$' <<<"$out")" -eq 1
check "--tag-output prefixes stderr lines too" test "$(grep -cE '^\[[0-2]\] err$' <<<"$err")" -eq 3

# Every line is written in three pieces with pauses between: the pieces of
# different ranks must never mix.
piece=$(head -c 3000 /dev/zero | tr '\0' x)
run -n 4 --oversubscribe --tag-output sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do printf a$piece; sleep 0.01; printf b$piece; printf 'c\n'; done"
good=$(grep -cE "^\[[0-3]\] a${piece}b${piece}c\$" <<<"$out")
check "pieces of lines are joined: 40 whole lines (got $good)" test "$good" -eq 40
check "and nothing else" test "$(wc -l <<<"$out")" -eq 40
run -n 1 printf 'no newline'
check "untagged output passes unchanged, last line without newline" test "$out" = "no newline"
run -n 2 --tag-output printf 'partial'
check "tagged: an unterminated last line is still one line per rank" \
  test "$(grep -cE '^\[[01]\] partial$' <<<"$out")" -eq 2
head -c 200000 /dev/zero | tr '\0' y >"$work/long"
echo >>"$work/long"
run -n 1 cat "$work/long"
check "a 200 kB line arrives intact" test "$out" = "$(cat "$work/long")"

echo hello >"$work/in"
launch_stdin "$work/in" -n 3 --oversubscribe sh -c 'read x; echo "got:$x"'
finish
check "stdin from a file goes to rank 0 only" \
  test "$(grep -c '^got:hello$' <<<"$out")" -eq 1 -a "$(grep -c '^got:$' <<<"$out")" -eq 2
seq 200000 >"$work/big"
launch_stdin "$work/big" -n 2 --tag-output wc -l
finish
check "200000 lines of stdin reach rank 0" grep -q '^\[0\] 200000$' <<<"$out"
check "rank 1 reads nothing" grep -q '^\[1\] 0$' <<<"$out"
out=$(seq 50000 | env "$DROVER" run -n 2 --tag-output wc -l 2>&1)
check "stdin from a pipe reaches rank 0" grep -q '^\[0\] 50000$' <<<"$out"
out=$(printf 'a\nb\n' | "$DROVER" run -n 1 head -n 1 2>&1; echo "rc=$?")
check "rank 0 closing stdin early is fine" test "$out" = "$(printf 'a\nrc=0')"

export DROVER_TEST_INHERITED=inherited
run -n 2 -x DROVER_TEST_SET=value -x DROVER_TEST_INHERITED sh -c 'echo "$DROVER_TEST_SET $DROVER_TEST_INHERITED"'
check "-x VAR=value and -x VAR" test "$(grep -c '^value inherited$' <<<"$out")" -eq 2
mkdir "$work/wd"
run -n 1 --wdir "$work/wd" pwd
check "--wdir runs the ranks there" test "$out" = "$work/wd"
cp "$CLIENT" "$work/wd/relative-client"
run -n 1 --wdir "$work/wd" ./relative-client binding
check "a relative program is found in --wdir" grep -q '^cpus ' <<<"$out"

libdir=$(dirname "$(readlink -f "$(ldd "$(dirname "$DROVER")/drover-cli" |
                                   awk '/libpmix.so.2/ {print $3}')")")
export LD_LIBRARY_PATH=/drover-test-path
run -n 1 sh -c 'echo $LD_LIBRARY_PATH'
check "drover's libpmix directory comes first on LD_LIBRARY_PATH" \
  test "$out" = "$libdir:/drover-test-path"
run -n 1 --no-libpmix-path sh -c 'echo $LD_LIBRARY_PATH'
check "--no-libpmix-path leaves it alone" test "$out" = "/drover-test-path"
unset LD_LIBRARY_PATH
export PMIX_NAMESPACE=outer-job PMIX_SERVER_URI4=bogus PMIX_MCA_drover_test=kept
run -n 1 sh -c 'env | grep -E "^PMIX_(NAMESPACE|SERVER_URI4|MCA_drover_test)=" | sort'
check "an enclosing job's PMIX_ variables are replaced, PMIX_MCA_ kept" \
  test "$(grep -c -e '=outer-job' -e '=bogus' <<<"$out")" -eq 0 -a -n "$(grep '=kept' <<<"$out")"
unset PMIX_NAMESPACE PMIX_SERVER_URI4 PMIX_MCA_drover_test
check "nothing left behind" no_leftovers
done_testing
