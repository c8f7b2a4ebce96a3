#!/usr/bin/env bash
# run.sh - MPICH benchmark, drover beside Debian MPICH's own mpiexec.hydra
# in one run, as ratios to hydra:
#   - an MPICH hello (MPI_Init + MPI_Allreduce + MPI_Finalize, the program
#     of bench/mpi) at 8 ranks (target: drover <= 0.6); a third row runs
#     each of drover's ranks in a session of its own, as hydra does, which
#     on a kernel with autogroup scheduling (Debian's default) gives them
#     a larger share of a busy machine (docs/launcher.md);
#   - launch of 8 x /bin/true (target <= 1.0);
#   - a PMI-1 get after a fence (test/mpich/pmi_wire latency: 8 ranks,
#     each getting another's key), per get (target <= 0.5), also with
#     setsid ranks.
#
# The commands take turns, one run of each per round, so that a change in
# the machine's load weighs on all of them alike. Each table gives the
# median time, its range, the ratio of medians to hydra, the range of the
# rounds' own ratios (each run against hydra's run of the same round), and
# the CPU time (user + system) of the whole process tree per run.
#
#   bench/mpich/run.sh [BUILD_DIR] [RANKS] [ROUNDS]   (defaults: build, 8, 20)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
ranks=${2:-8}
rounds=${3:-20}
drover=$(readlink -f "$build/src/launcher/drover")
wire=$(readlink -f "$build/test/mpich/pmi_wire")
[ -x "$drover" ] && [ -x "$wire" ] || { echo "run.sh: build $build first" >&2; exit 1; }
for tool in mpiexec.hydra mpicc.mpich; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc.mpich -O2 bench/mpi/hello.c -o "$work/hello"
python3 - "$drover" "$wire" "$work/hello" "$ranks" "$rounds" <<'PY'
import resource, statistics as st, subprocess, sys, time

drover, wire, hello, ranks, rounds = sys.argv[1:4] + [sys.argv[4], int(sys.argv[5])]
d_run = [drover, "run", "-n", ranks, "--oversubscribe"]
hydra = ["mpiexec.hydra", "-n", ranks]

def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def once(cmd):
    """Wall seconds, CPU seconds of the whole tree, and stdout of one run."""
    c0, t0 = cpu(), time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    t1, c1 = time.perf_counter(), cpu()
    if p.returncode != 0:
        sys.exit(f"run.sh: {' '.join(cmd)} failed with status {p.returncode}")
    return t1 - t0, c1 - c0, p.stdout

def rotate(rows, n, warmup, measure):
    """n rounds (after warmup ones) of every row, the order turning each
    round; measure(stdout, wall) gives the figure kept."""
    names = list(rows)
    figures = {k: [] for k in names}
    cpus = {k: [] for k in names}
    for i in range(warmup + n):
        shift = i % len(names)
        for k in names[shift:] + names[:shift]:
            wall, used, out = once(rows[k])
            if i >= warmup:
                figures[k].append(measure(out, wall))
                cpus[k].append(used)
    return figures, cpus

def table(title, unit, scale, rows, figures, cpus):
    ref = figures["hydra"]
    print(f"{title}, {ranks} ranks, {len(ref)} rounds")
    print(f"| launcher | median ({unit}) | range ({unit}) | ratio to hydra | per-round ratios "
          "(quartiles) | CPU per run (ms) |")
    print("|---|---|---|---|---|---|")
    for k in rows:
        f = figures[k]
        ratios = sorted(a / b for a, b in zip(f, ref))
        q = st.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
        print(f"| {k} | {st.median(f) * scale:.1f} | {min(f) * scale:.1f}-{max(f) * scale:.1f} "
              f"| {st.median(f) / st.median(ref):.2f} | {q[0]:.2f}-{q[2]:.2f} "
              f"| {st.median(cpus[k]) * 1e3:.0f} |")
    print()

wall = lambda out, w: w
rows = {"drover": d_run + [hello], "hydra": hydra + [hello],
        "drover, setsid ranks": d_run + ["setsid", hello]}
table("MPICH hello (MPI_Init + MPI_Allreduce + MPI_Finalize)", "ms", 1e3, rows,
      *rotate(rows, rounds, 3, wall))
rows = {"drover": d_run + ["/bin/true"], "hydra": hydra + ["/bin/true"]}
table("launch of /bin/true", "ms", 1e3, rows, *rotate(rows, max(rounds, 30), 3, wall))

def per_get(out, w):
    for line in out.splitlines():
        if line.startswith("get ") and line.endswith(" us"):
            return float(line.split()[1])
    sys.exit("run.sh: pmi_wire printed no latency")
rows = {"drover": d_run + [wire, "latency", "2000"], "hydra": hydra + [wire, "latency", "2000"],
        "drover, setsid ranks": d_run + ["setsid", wire, "latency", "2000"]}
table("PMI-1 get after a fence, per get (2000 gets per run)", "us", 1, rows,
      *rotate(rows, max(rounds // 2, 5), 1, per_get))
PY
