#!/usr/bin/env python3
"""check_exports.py - what our libpmix.so.2 exports, against OpenPMIx's.

Checks that
  * the SONAME is libpmix.so.2 and no symbol carries a version,
  * every exported function or object is PMIx_* or drover_* (hidden
    visibility keeps the rest private),
  * no PMIx_* symbol is exported that OpenPMIx 4.2.2 does not export,
  * every PMIx_* function OpenPMIx 4.2.2 exports is exported (the reference
    library must itself export all REFERENCE_COUNT of them, so a wrong
    reference cannot make the check pass).

Usage: check_exports.py OUR_LIB REFERENCE_LIB
"""
import re
import subprocess
import sys

# OpenPMIx 4.2.2's libpmix.so.2 exports this many PMIx_* functions.
REFERENCE_COUNT = 141


def dynamic_symbols(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = parts[1]
    return syms


def soname(lib):
    out = subprocess.run(["readelf", "-d", lib], check=True, capture_output=True,
                         text=True).stdout
    m = re.search(r"\(SONAME\)\s+Library soname: \[(.*)\]", out)
    return m.group(1) if m else None


def main():
    ours, ref = sys.argv[1], sys.argv[2]
    problems = []
    if soname(ours) != "libpmix.so.2":
        problems.append("SONAME is %r, not libpmix.so.2" % soname(ours))
    mine = dynamic_symbols(ours)
    theirs = {s for s in dynamic_symbols(ref) if s.startswith("PMIx_")}
    for sym in sorted(mine):
        if "@" in sym:
            problems.append("versioned symbol %s" % sym)
        elif not (sym.startswith("PMIx_") or sym.startswith("drover_")):
            problems.append("exports private symbol %s" % sym)
        elif sym.startswith("PMIx_") and sym not in theirs:
            problems.append("exports %s, which OpenPMIx 4.2.2 does not" % sym)
    if len(theirs) != REFERENCE_COUNT:
        problems.append("reference %s exports %d PMIx_* symbols, not %d"
                        % (ref, len(theirs), REFERENCE_COUNT))
    for sym in sorted(theirs):
        if sym not in mine:
            problems.append("missing %s, which OpenPMIx 4.2.2 exports" % sym)
    ours_pmix = {s for s in mine if s.startswith("PMIx_")}
    for p in problems:
        print("FAIL:", p)
    print("exports: %d of OpenPMIx's %d PMIx_* functions, %d drover_* extensions, %d problems"
          % (len(ours_pmix & theirs), len(theirs),
             len([s for s in mine if s.startswith("drover_")]), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
