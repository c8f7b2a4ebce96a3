"""A PMIx tool written with OpenPMIx's own Python bindings (Debian's
python3-pmix), against the drover daemon: it connects to the system
server, lists the namespaces, and spawns two ranks of `echo` with their
output forwarded to it (written to its stdout by the tool library).
Prints what it found, one line each; the script checks them."""
import sys
import time

from pmix import (PMIX_BOOL, PMIX_CONNECT_TO_SYSTEM, PMIX_FWD_STDOUT, PMIX_QUERY_NAMESPACES,
                  PMIxTool)


def main():
    tool = PMIxTool()
    rc, me = tool.init([{'key': PMIX_CONNECT_TO_SYSTEM, 'value': True, 'val_type': PMIX_BOOL}])
    print("init", rc, me['nspace'] if rc == 0 else "-", flush=True)
    if rc != 0:
        return 1
    rc, res = tool.query([{'keys': [PMIX_QUERY_NAMESPACES], 'qualifiers': []}])
    print("namespaces", rc, res[0]['value'] if rc == 0 and res else "-", flush=True)
    app = {'cmd': '/bin/echo', 'argv': ['/bin/echo', 'echoed', 'by', 'a', 'spawned', 'rank'],
           'env': [], 'maxprocs': 2, 'info': []}
    rc, nspace = tool.spawn([{'key': PMIX_FWD_STDOUT, 'value': True, 'val_type': PMIX_BOOL}],
                            [app])
    print("spawned", rc, nspace, flush=True)
    # The ranks' output reaches the tool after the spawn returns.
    time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)
    tool.finalize()
    return 0


if __name__ == '__main__':
    sys.exit(main())
