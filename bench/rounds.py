"""rounds.py - side-by-side timing for the benchmarks' run.sh scripts.

The commands take turns, one run of each per round with the order turning
every round, so that a change in the machine's load weighs on all of them
alike. A table gives each command's median, its range, the ratio of
medians to the reference row, the quartiles of the rounds' own ratios (each
run against the reference's run of the same round) and the CPU time (user +
system) of the whole process tree per run.
"""
import os
import resource
import statistics as st
import subprocess
import sys
import time


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def once(cmd, env=None):
    """Wall seconds, CPU seconds of the whole tree, and stdout of one run."""
    c0, t0 = cpu(), time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                       env=env)
    t1, c1 = time.perf_counter(), cpu()
    if p.returncode != 0:
        sys.exit(f"run.sh: {' '.join(cmd)} failed with status {p.returncode}")
    return t1 - t0, c1 - c0, p.stdout


def wall(out, seconds):
    return seconds


def rotate(rows, n, warmup, measure=wall, env=None, pause=0.0):
    """n rounds (after warmup ones) of every row; measure(stdout, wall)
    gives the figure kept. pause: seconds of rest after each run, so that
    what a command leaves running after it returns (a daemon finishing a
    job) does not land in the next command's time."""
    names = list(rows)
    figures = {k: [] for k in names}
    cpus = {k: [] for k in names}
    for i in range(warmup + n):
        shift = i % len(names)
        for k in names[shift:] + names[:shift]:
            seconds, used, out = once(rows[k], env)
            time.sleep(pause)
            if i >= warmup:
                figures[k].append(measure(out, seconds))
                cpus[k].append(used)
    return figures, cpus


def table(title, unit, scale, reference, figures, cpus):
    ref = figures[reference]
    print(f"{title}, {len(ref)} rounds")
    print(f"| command | median ({unit}) | range ({unit}) | ratio to {reference} | "
          "per-round ratios (quartiles) | CPU per run (ms) |")
    print("|---|---|---|---|---|---|")
    for k, f in figures.items():
        ratios = sorted(a / b for a, b in zip(f, ref))
        q = st.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
        print(f"| {k} | {st.median(f) * scale:.1f} | {min(f) * scale:.1f}-{max(f) * scale:.1f} "
              f"| {st.median(f) / st.median(ref):.2f} | {q[0]:.2f}-{q[2]:.2f} "
              f"| {st.median(cpus[k]) * 1e3:.0f} |")
    print(flush=True)
