#!/usr/bin/env python3
"""Check that each module of src/ includes only the headers of its own
layer and of the layers below it (docs/style.md, src/meson.build):

    tma <- bfrops <- common <- types <- {client, server} <- {launcher, caf}
                               common <- pmi (the PMI client libraries)

client and server meet only in src/server/entry/server_entry.h. The public
headers of include/ are open to all.

Usage: check_layers.py SOURCE_ROOT
Exit status 1, with one line per wrong include, when there is any.
"""
import os
import re
import sys

BELOW = {
    'tma': [],
    'bfrops': ['tma'],
    'common': ['tma', 'bfrops'],
    'types': ['tma', 'bfrops', 'common'],
    'client': ['tma', 'bfrops', 'common', 'types'],
    'server': ['tma', 'bfrops', 'common', 'types'],
    'launcher': ['common', 'types'],
    'caf': [],
    'pmi': ['common'],
}
# The one crossing between client and server.
CROSSINGS = {'client': ['server/entry/server_entry.h']}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main():
    root = sys.argv[1]
    src = os.path.join(root, 'src')
    public = set(os.listdir(os.path.join(root, 'include')))
    modules = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    # Each module's headers, by name, with their paths below src/.
    paths = {}
    for m in modules:
        paths[m] = {}
        for top, _, files in os.walk(os.path.join(src, m)):
            for f in files:
                if f.endswith('.h'):
                    paths[m][f] = os.path.relpath(os.path.join(top, f), src)
    headers = {m: set(paths[m]) for m in modules}
    errors = []
    for module in modules:
        if module not in BELOW:
            errors.append('src/%s: no layer given for it in test/style/check_layers.py' % module)
            continue
        allowed = {module: headers[module]}
        for lower in BELOW[module]:
            allowed[lower] = headers[lower]
        crossings = set(CROSSINGS.get(module, []))
        for name in sorted(os.listdir(os.path.join(src, module))):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(src, module, name)
            for header in INCLUDE.findall(open(path, errors='replace').read()):
                base = os.path.basename(header)
                if header.startswith('../'):
                    where = os.path.normpath(os.path.join(module, header))
                    if where.split('/')[0] in allowed or where in crossings:
                        continue
                elif base in public or any(base in h for h in allowed.values()):
                    continue
                else:
                    owners = [paths[m][base] for m in modules if base in headers[m]]
                    if any(o in crossings for o in owners):
                        continue
                    if not owners:
                        # Generated or system headers found elsewhere.
                        continue
                errors.append('src/%s/%s includes "%s", of a layer it may not use' %
                              (module, name, header))
    for error in errors:
        print(error)
    print('%d modules checked, %d wrong includes' % (len(modules), len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
