#!/usr/bin/env bash
# run_jobfile.sh - YAML job files (`drover run job.yml`): MPMD apps with
# their own program, arguments, count, environment and working directory;
# job env under app env under -x; the command line over the file; timeout;
# --types through the file; every kind of mistake as exact located lines,
# exit 1 and nothing started; hostile YAML refused like a --types file.
source "$(dirname "$0")/lib.sh"
jobs=$work/jobs
mkdir -p "$jobs/sub"
cd "$work" || exit 1

cat >"$jobs/mpmd.yml" <<EOF
# two apps: ranks 0-1 run the first, rank 2 the second
env: {A: job, B: job}
oversubscribe: true
apps:
  - program: $CLIENT
    args: [app, first, A, B]
    count: 2
    env: {B: app0}
  - program: $CLIENT
    args: [app, second, A, B]
    wdir: sub
EOF
run "$jobs/mpmd.yml"
check "two-app job file runs: exit 0" test "$rc" -eq 0
expected="rank 0 app first appnum 0 size 2 wdir $work A=job B=app0
rank 1 app first appnum 0 size 2 wdir $work A=job B=app0
rank 2 app second appnum 1 size 1 wdir $jobs/sub A=job B=job"
check "ranks of app 0 then app 1, each with its appnum, env and wdir" \
  test "$(grep '^rank' <<<"$out" | sort)" = "$expected"
report

run -x A=cli -n 1 "$jobs/mpmd.yml"
check "-x over the file's env, -n over every app's count" \
  test "$(grep '^rank' <<<"$out" | sort | cut -d' ' -f1-4,11-)" = "rank 0 app first A=cli B=app0
rank 1 app second A=cli B=job"
run --job "$jobs/mpmd.yml" --wdir "$jobs"
check "--job FILE, --wdir over the file's wdir" \
  test "$(grep -c "wdir $jobs A=" <<<"$out")" -eq 3 -a "$rc" -eq 0

cat >"$jobs/slow.yml" <<EOF
timeout: 1
apps: [{program: $CLIENT, args: [sleep]}]
EOF
run "$jobs/slow.yml"
check "the file's timeout fires: exit 124" test "$rc" -eq 124
check "the file's timeout fires: the message" grep -q "timed out after 1 s" <<<"$err"
sed -i 's/^timeout: 1$/timeout: 300/' "$jobs/slow.yml"
run --timeout 0.5 "$jobs/slow.yml"
check "--timeout over the file's: exit 124 after 0.5 s" \
  test "$rc" -eq 124 -a -n "$(grep 'after 0.5 s' <<<"$err")"
check "timed-out job files leave nothing" no_leftovers

# types: relative to the job file's directory, whatever the working one.
printf 'types:\n  point: {type: struct, members: [{x: double}, {y: dobule}]}\n' \
  >"$jobs/sub/bad_types.yml"
printf 'types:\n  point: {type: struct, members: [{x: double}, {y: double}]}\n' \
  >"$jobs/sub/types.yml"
printf 'types: sub/bad_types.yml\napps: [{program: true}]\n' >"$jobs/typed.yml"
run "$jobs/typed.yml"
check "the file's types are checked (relative to the file): exit 1" \
  test "$rc" -eq 1 -a -n "$(grep -F "$jobs/sub/bad_types.yml:2:" <<<"$err")"
run --types "$jobs/sub/types.yml" "$jobs/typed.yml"
check "--types over the file's" test "$rc" -eq 0
printf 'types: sub/types.yml\napps: [{program: true}]\n' >"$jobs/typed.yml"
run "$jobs/typed.yml"
check "a good types file from the job file runs" test "$rc" -eq 0

# Which word is a job file.
run -n 1 -- "$jobs/typed.yml"
check "after --, a .yml word is a program: exit 126" test "$rc" -eq 126
run --job "$jobs/typed.yml" true
check "--job with a program: exit 2, one line" test "$rc" -eq 2 -a -n "$(one_line "$err" "takes no program" && echo y)"
run "$jobs/missing.yml"
check "a missing job file: exit 1, one line" test "$rc" -eq 1 -a -n "$(one_line "$err" missing.yml && echo y)"

# Mistakes: every one reported, exactly, and nothing started.
bad() { # name, file text, expected stderr
  printf '%s\n' "$2" >"$jobs/$1.yml"
  rm -f "$work/started"
  cd "$jobs" || return
  run "$1.yml"
  cd "$work" || return
  check "$1: exit 1" test "$rc" -eq 1
  check "$1: the located messages" test "$err" = "$3"
  [ "$err" = "$3" ] || diff <(echo "$3") <(echo "$err")
  check "$1: nothing started" test ! -e "$work/started"
  check "$1: nothing left" no_leftovers
}
start="{program: touch, args: [$work/started]}"
bad misspelt "apps: [$start]
tiemout: 3
apps_: []
map-by: core
bind-to: core
grace: 1
apps2: 1" "misspelt.yml:2:1: error: tiemout: unknown key 'tiemout' for a job; did you mean 'timeout'?
misspelt.yml:3:1: error: apps_: unknown key 'apps_' for a job; did you mean 'apps'?
misspelt.yml:7:1: error: apps2: unknown key 'apps2' for a job; did you mean 'apps'?"
bad types "apps:
  - $start
  - program: [a]
    args: x
    env: {OK: 1, 1BAD: x, LIST: [1]}
    wdir: {a: b}
oversubscribe: maybe
timeout: soon
bind-to: slot
env: []" "types.yml:3:14: error: apps[1].program: wants a program, not a list
types.yml:4:11: error: apps[1].args: wants a list of arguments, not a value
types.yml:5:18: error: apps[1].env.1BAD: '1BAD' is not a valid variable name
types.yml:5:33: error: apps[1].env.LIST: wants a value, not a list
types.yml:6:11: error: apps[1].wdir: wants a directory, not a mapping
types.yml:3:5: error: apps[1]: an app needs a program
types.yml:7:16: error: oversubscribe: wants true or false, not 'maybe'
types.yml:8:10: error: timeout: wants a number of seconds above 0, not 'soon'
types.yml:9:10: error: bind-to: wants none, core, hwthread, numa or socket, not 'slot'
types.yml:10:6: error: env: wants a mapping of variables to values, not a list"
bad counts "apps:
  - $start
  - {program: a, count: 0}
  - {program: a, count: 70000}
  - {program: a, count: -1}
  - {args: [x], count: two}
  - 3" "counts.yml:3:25: error: apps[1].count: wants a number of ranks from 1 to 65535, not '0'
counts.yml:4:25: error: apps[2].count: wants a number of ranks from 1 to 65535, not '70000'
counts.yml:5:25: error: apps[3].count: wants a number of ranks from 1 to 65535, not '-1'
counts.yml:6:24: error: apps[4].count: wants a number of ranks from 1 to 65535, not 'two'
counts.yml:6:5: error: apps[4]: an app needs a program
counts.yml:7:5: error: apps[5]: wants an app: a mapping with program, args, count, env, wdir, not a value"
bad wdirs "wdir: nowhere
apps:
  - $start
  - {program: a, wdir: /etc/passwd}" "wdirs.yml:1:7: error: wdir: nowhere: no such directory
wdirs.yml:4:24: error: apps[1].wdir: /etc/passwd: not a directory"
bad toomany "apps:
  - $start
  - {program: a, count: 65535}" "toomany.yml:2:3: error: apps: 65536 ranks in all, more than 65535"
bad duplicates "apps:
  - $start
  - {program: a, count: 1, count: 2}
timeout: 1
timeout: 2" "duplicates.yml:3:28: error: apps[1].count: duplicate key 'count' (first at 3:18)
duplicates.yml:5:1: error: timeout: duplicate key 'timeout' (first at 4:1)"
bad syntax "apps: [$start
timeout: 1" "syntax.yml:2:1: error: did not find expected ',' or ']' while parsing a flow sequence"
bad empty "" "empty.yml:1:1: error: a job file is a mapping with apps: and the job's settings"
bad noapps "timeout: 1" "noapps.yml:1:1: error: a job file needs apps:"
bad noapp "apps: []" "noapp.yml:1:7: error: apps: wants at least one app"
bomb="a0: &a0 [x, x, x, x, x, x, x, x, x, x]"
for i in 1 2 3 4 5 6 7 8; do
  bomb="$bomb
a$i: &a$i [$(printf '*a%d, ' $((i - 1)){,,,,,,,,,} | sed 's/, $//')]"
done
bad bomb "$bomb" "bomb.yml:6:58: error: aliases expand the document past 200000 nodes"
bad deep "apps: $(printf '[%.0s' $(seq 70))" "deep.yml:1:70: error: nesting deeper than 64 levels"
done_testing
