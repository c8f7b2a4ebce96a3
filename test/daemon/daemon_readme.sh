#!/usr/bin/env bash
# daemon_readme.sh - the README's daemon workflow, run line by line as it
# is written (drover is this build's, build/docs/hello_pmix the built
# example), so that the README cannot drift from what the daemon does.
# Argument: README.md; $HELLO is the example program.
source "$(dirname "$0")/lib.sh"
readme=$1
awk '/^## The daemon workflow/ {on = 1; next} on && /^    / {print substr($0, 5); seen = 1; next}
     seen {exit}' "$readme" | sed "s|build/docs/hello_pmix|$HELLO|g" >"$work/workflow.sh"
check "the README has the workflow" grep -q "drover daemon stop" "$work/workflow.sh"
drover() { "$DROVER" "$@"; }
export -f drover
timeout -s KILL 120 bash -e "$work/workflow.sh" >"$work/out" 2>"$work/err"
rc=$?
out=$(cat "$work/out")
check "it runs to the end (exit 0)" test "$rc" -eq 0
check "ps shows the submitted job" \
  grep -Eq "^1 +(queued|running|completed) +4 .*hello_pmix" <<<"$out"
check "wait gives its status" grep -q "^exit status 0$" <<<"$out"
check "output and run --daemon both show the 4 ranks" \
  test "$(grep -c "rank 0 of 4 in .*says \"hello from rank" <<<"$out")" -eq 2
check "output --rank 1 adds rank 1's line alone" \
  test "$(grep -c "rank 1 of 4 in " <<<"$out")" -eq 3
check "stop stops it, keeping only the journal" stopped
done_testing
