#!/usr/bin/env python3
"""trace_check.py - check a `drover run --trace` file.

    trace_check.py FILE RANKS FENCES [EXIT_CODE]   (a job that ran to its end)
    trace_check.py FILE RANKS killed               (a job ended early)

Prints one "ok"/"not ok" line per check (exit status 1 if any failed): the
file parses as trace-event JSON; every event has the fields its phase needs;
each rank's events come in order (fork+exec, PMIx_Init, the fences,
PMIx_Finalize, exit) inside the rank's span, with plausible durations; the
fences carry the bytes contributed and received; the server's spans cover
each fence from the first arrival to the last release.
"""
import json
import sys

failed = False


def check(what, cond):
    global failed
    print(("ok - " if cond else "not ok - ") + what)
    failed |= not cond


path, nranks = sys.argv[1], int(sys.argv[2])
killed = sys.argv[3] == "killed"
nfences = 0 if killed else int(sys.argv[3])
code = int(sys.argv[4]) if len(sys.argv) > 4 else 0

with open(path) as f:
    doc = json.load(f)
check("the trace is an object with traceEvents and displayTimeUnit ms",
      isinstance(doc.get("traceEvents"), list) and doc.get("displayTimeUnit") == "ms")
events = doc["traceEvents"]
need = {"X": ("name", "pid", "tid", "ts", "dur"), "i": ("name", "pid", "tid", "ts", "s"),
        "M": ("name", "pid", "tid", "args")}
check("every event has the fields of its phase",
      all(e.get("ph") in need and all(k in e for k in need[e["ph"]]) for e in events))
check("no negative duration and none over 60 s",
      all(0 <= e["dur"] < 60e6 for e in events if e["ph"] == "X"))
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
         if e["ph"] == "M" and e["name"] == "thread_name"}
check("every rank's track is named", all(names.get((1, r)) == "rank %d" % r
                                         for r in range(nranks)))
procs = [e for e in events if e["ph"] == "M" and e["name"] == "process_name"]
check("the job is a named process, with a track for the server",
      any(p["pid"] == 1 and p["args"]["name"].startswith("job 0:") for p in procs) and
      names.get((1, nranks)) == "PMIx server")

for r in range(nranks):
    mine = sorted((e for e in events if e["pid"] == 1 and e["tid"] == r and e["ph"] != "M"),
                  key=lambda e: e["ts"])
    span = [e for e in mine if e["ph"] == "X" and e["name"] == "rank %d" % r]
    check("rank %d: one span for its life" % r, len(span) == 1)
    if len(span) != 1:
        continue
    life = span[0]
    inside = all(life["ts"] <= e["ts"] and e["ts"] + e.get("dur", 0) <= life["ts"] + life["dur"]
                 + 1 for e in mine)
    check("rank %d: every event lies within it" % r, inside)
    steps = [e["name"] for e in mine if e["name"] in ("fork+exec", "PMIx_Init", "PMIx_Finalize",
                                                      "exit") or e["name"].startswith("PMIx_Fence")]
    exits = [e for e in mine if e["name"] == "exit"]
    if killed:
        check("rank %d: fork+exec first, exit last: %s" % (r, steps),
              steps[:1] == ["fork+exec"] and steps[-1:] == ["exit"])
        continue
    want = ["fork+exec", "PMIx_Init"] + ["PMIx_Fence %d" % (k + 1) for k in range(nfences)] + \
        ["PMIx_Finalize", "exit"]
    check("rank %d: events in order: %s" % (r, steps), steps == want)
    check("rank %d: exit code %d" % (r, code),
          len(exits) == 1 and exits[0]["args"]["exit_code"] == code)
    fences = [e for e in mine if e["name"].startswith("PMIx_Fence")]
    check("rank %d: each fence says it succeeded" % r,
          all(e["args"].get("status") == "SUCCESS" for e in fences))
    if fences:
        first = fences[0]["args"]
        check("rank %d: the first fence (with data) contributed bytes and received every "
              "rank's: %s" % (r, first),
              first["contributed"] > 0 and first["received"] >= nranks * first["contributed"])
    if len(fences) > 1:
        check("rank %d: the second fence (no data) contributed nothing: %s"
              % (r, fences[1]["args"]), fences[1]["args"]["contributed"] == 0)

if killed:
    sys.exit(1 if failed else 0)
server = sorted((e for e in events if (e["pid"], e["tid"]) == (1, nranks) and e["ph"] == "X"),
                key=lambda e: e["ts"])
check("the server shows %d fences of job 0" % nfences,
      [e["name"] for e in server] == ["PMIx_Fence %d" % (k + 1) for k in range(nfences)])
for k, s in enumerate(server):
    ranks = [e for e in events if e["pid"] == 1 and e["tid"] < nranks and
             e["name"] == "PMIx_Fence %d" % (k + 1)]
    first = min(e["ts"] for e in ranks)
    last = max(e["ts"] + e["dur"] for e in ranks)
    check("server fence %d: from the first arrival to the last release, %d ranks"
          % (k + 1, nranks),
          s["args"]["ranks"] == nranks and abs(s["ts"] - first) < 0.01 and
          abs(s["ts"] + s["dur"] - last) < 0.01)
sys.exit(1 if failed else 0)
