#!/usr/bin/env python3
"""check_exports.py - what our libpmix.so.2 exports, against OpenPMIx's.

Checks that
  * the SONAME is libpmix.so.2 and no symbol carries a version,
  * every exported function or object is PMIx_* or drover_* (hidden
    visibility keeps the rest private),
  * no PMIx_* symbol is exported that OpenPMIx 4.2.2 does not export,
  * every function of the PMIx data API (issue 2's scope) is exported.

It reports how many of OpenPMIx's PMIx_* functions we export so far.
Usage: check_exports.py OUR_LIB REFERENCE_LIB
"""
import re
import subprocess
import sys

# The data API drover provides without PMIx_Init: all must be present.
REQUIRED = """
PMIx_Data_pack PMIx_Data_unpack PMIx_Data_copy PMIx_Data_print PMIx_Data_copy_payload
PMIx_Data_load PMIx_Data_unload PMIx_Data_embed PMIx_Data_compress PMIx_Data_decompress
PMIx_Data_array_destruct PMIx_Value_load PMIx_Value_unload PMIx_Value_xfer PMIx_Value_compare
PMIx_Value_destruct PMIx_Info_load PMIx_Info_xfer PMIx_Info_list_start PMIx_Info_list_add
PMIx_Info_list_insert PMIx_Info_list_xfer PMIx_Info_list_convert PMIx_Info_list_release
PMIx_Data_type_string PMIx_Error_string PMIx_Proc_state_string PMIx_Scope_string
PMIx_Persistence_string PMIx_Data_range_string PMIx_Info_directives_string
PMIx_Alloc_directive_string PMIx_IOF_channel_string PMIx_Job_state_string
PMIx_Link_state_string PMIx_Device_type_string PMIx_Value_comparison_string PMIx_Info_string
PMIx_Value_string PMIx_Get_attribute_string PMIx_Get_attribute_name PMIx_Get_version
PMIx_Topology_destruct PMIx_Cpuset_destruct
""".split()


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
    for sym in REQUIRED:
        if sym not in mine:
            problems.append("missing data API function %s" % sym)
    ours_pmix = {s for s in mine if s.startswith("PMIx_")}
    for p in problems:
        print("FAIL:", p)
    print("exports: %d of OpenPMIx's %d PMIx_* functions, %d drover_* extensions, %d problems"
          % (len(ours_pmix & theirs), len(theirs),
             len([s for s in mine if s.startswith("drover_")]), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
