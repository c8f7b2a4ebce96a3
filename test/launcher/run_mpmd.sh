#!/usr/bin/env bash
# run_mpmd.sh - several apps on the command line, as mpirun, prterun and
# hydra take them: `drover run -n 2 a : -n 1 b`. One job, ranks of app 0
# first, each app with its own -n, -x and --wdir (PMIX_APPNUM, app size,
# environment, working directory); the job's options before the first
# program; every mistake one line, exit 2, nothing started.
source "$(dirname "$0")/lib.sh"
mkdir -p "$work/sub"
cd "$work" || exit 1

run --oversubscribe --tag-output -n 2 -x A=zero "$CLIENT" app first A B : \
  -n 1 -x B=one --wdir sub "$CLIENT" app second A B
check "two apps on the command line: exit 0" test "$rc" -eq 0
expected="[0] rank 0 app first appnum 0 size 2 wdir $work A=zero B=-
[1] rank 1 app first appnum 0 size 2 wdir $work A=zero B=-
[2] rank 2 app second appnum 1 size 1 wdir $work/sub A=- B=one"
check "ranks of app 0 then app 1, each with its appnum, app size, -x and --wdir" \
  test "$(grep 'rank . app' <<<"$out" | sort)" = "$expected"
report

run --oversubscribe -n 1 "$CLIENT" app a : -n 1 -- "$CLIENT" app b : -n 1 sh -c 'echo third'
check "three apps, '--' ending an app's options: exit 0" test "$rc" -eq 0
check "... each ran its own program" \
  test "$(grep -c 'app [ab] appnum' <<<"$out")" -eq 2 -a -n "$(grep -x third <<<"$out")"
check "... nothing left behind" no_leftovers

# Mistakes: one line each, exit 2, nothing started.
mistake() { # what, the message's pattern, then the arguments
  local what=$1 pattern=$2
  shift 2
  run "$@"
  check "$what: exit 2, one line" test "$rc" -eq 2 -a -z "$out"
  check "... saying so" one_line "$err" "$pattern"
}
mistake "an app without -n" "the app after ':' number 1 needs its number of ranks (-n N)" \
  -n 1 true : false
mistake "an app without a program" "the app after ':' number 2 has no program" \
  -n 1 true : -n 1 true : -n 1
mistake "a trailing ':'" "the app after ':' number 1 has no program" -n 1 true :
mistake "nothing before ':'" "no program before ':'" -n 1 : -n 1 true
mistake "a job option after ':'" \
  "--timeout is the whole job's: give it before the first program, not after ':' number 1" \
  -n 1 true : -n 1 --timeout 5 true
mistake "a bad count after ':'" "-n wants a number of ranks from 1 to 65535, not 'x'" \
  -n 1 true : -n x true
mistake "a bad -x after ':'" "-x wants VAR or VAR=value with a valid variable name, not '1A'" \
  -n 1 true : -n 1 -x 1A true
mistake "too many ranks in all" "65536 ranks in all, more than 65535" \
  -n 65535 true : -n 1 true
mistake "an unknown option after ':'" "unknown option '--frobnicate'" \
  -n 1 true : -n 1 --frobnicate true
mistake "a bad rank list" "--stop-in-init wants a list of ranks such as 0,2,5, not '1,x'" \
  -n 2 --stop-in-init=1,x true
run -n 1 true : -n 1 --wdir "$work/none" true
check "a missing --wdir of an app: exit 1, one line" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "--wdir $work/none: no such directory" && echo y)"
run -n 2 --stop-in-init=2 true
check "a rank list beyond the job: exit 1, one line" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "--stop-in-init=2 names rank 2, but the job has 2 ranks" && echo y)"
check "... nothing left behind" no_leftovers
done_testing
