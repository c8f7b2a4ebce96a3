#!/usr/bin/env bash
# daemon_jobfile.sh - job files through the daemon: `drover submit job.yml`
# and `drover run --daemon job.yml` run the file's MPMD apps in the
# submitter's working directory (relative paths of the file from its own
# directory); a wrong file is its located messages, exit 1, nothing queued.
source "$(dirname "$0")/lib.sh"
mkdir -p "$work/jobs/sub"
cd "$work" || exit 1
cat >"$work/jobs/mpmd.yml" <<EOF
env: {A: job}
oversubscribe: true
apps:
  - {program: $CLIENT, args: [app, first, A], count: 2}
  - {program: $CLIENT, args: [app, second, A], wdir: sub}
EOF
printf 'apps: [{program: true, cuont: 2}]\n' >"$work/jobs/bad.yml"

dr daemon start
check "the daemon starts" test "$rc" -eq 0
dr submit jobs/mpmd.yml
check "submit job.yml: a job id" test "$rc" -eq 0 -a "$out" = 1
dr wait 1
check "wait: the job's status (0)" test "$rc" -eq 0
dr output 1
check "output: both apps' ranks, each with its appnum, env and wdir" \
  test "$(grep '^rank' <<<"$out" | sort)" = "rank 0 app first appnum 0 size 2 wdir $work A=job
rank 1 app first appnum 0 size 2 wdir $work A=job
rank 2 app second appnum 1 size 1 wdir $work/jobs/sub A=job"
dr ps
check "ps: the job file's 3 ranks" test -n "$(awk '$1 == 1 && $3 == 3' <<<"$out")"

dr submit -n 1 -x A=cli jobs/mpmd.yml
dr wait "$out"
check "submit: the command line over the file" test "$rc" -eq 0
dr output 2
check "... (-n 1 for each app, -x A=cli)" \
  test "$(grep -c 'A=cli' <<<"$out")" -eq 2 -a "$(grep -c '^rank' <<<"$out")" -eq 2

dr submit jobs/bad.yml
check "submit of a wrong job file: exit 1 and the located message" \
  test "$rc" -eq 1 -a "$err" = "jobs/bad.yml:1:24: error: apps[0].cuont: unknown key 'cuont' for an app; did you mean 'count'?"
njobs=$("$DROVER" ps --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
check "... nothing queued" test "$njobs" -eq 2

dr run --daemon -n 1 jobs/mpmd.yml
check "run --daemon job.yml: exit 0, the ranks' output" \
  test "$rc" -eq 0 -a "$(grep -c '^rank' <<<"$out")" -eq 2
dr run --daemon jobs/bad.yml
check "run --daemon with a wrong job file: exit 1, the message" \
  test "$rc" -eq 1 -a -n "$(one_line "$err" "did you mean 'count'" && echo y)"

pids=$(job_pids)
dr daemon stop
check "the daemon stops" test "$rc" -eq 0
check "nothing left" jobs_gone $pids
done_testing
