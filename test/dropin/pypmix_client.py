"""A rank written with OpenPMIx's own Python bindings (Debian's
python3-pmix): init, its job's size, a value put and read back by its
neighbour across a fence, finalize. Prints one PASS or FAIL line."""
import sys

from pmix import (PMIX_BOOL, PMIX_COLLECT_DATA, PMIX_GLOBAL, PMIX_JOB_SIZE, PMIX_RANK_WILDCARD,
                  PMIX_STRING, PMIxClient)


def main():
    client = PMIxClient()
    rc, me = client.init([])
    if rc != 0:
        print("FAIL init", rc)
        return 1
    rc, size = client.get({'nspace': me['nspace'], 'rank': PMIX_RANK_WILDCARD}, PMIX_JOB_SIZE, [])
    n = size['value'] if rc == 0 else 0
    rc_put = client.put(PMIX_GLOBAL, "py.key", {'value': "from %d" % me['rank'],
                                                'val_type': PMIX_STRING})
    rc_commit = client.commit()
    rc_fence = client.fence([], [{'key': PMIX_COLLECT_DATA, 'value': True, 'val_type': PMIX_BOOL}])
    peer = (me['rank'] + 1) % n if n > 0 else 0
    rc_get, value = client.get({'nspace': me['nspace'], 'rank': peer}, "py.key", [])
    client.finalize([])
    got = value.get('value') if rc_get == 0 else None
    ok = (rc, rc_put, rc_commit, rc_fence, rc_get) == (0, 0, 0, 0, 0) and got == "from %d" % peer
    print("%s rank %d of %d read '%s' from rank %d" % ("PASS" if ok else "FAIL", me['rank'], n,
                                                      got, peer))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
