#!/usr/bin/env python3
"""check_prototypes.py - prove every PMIx_* prototype in drover's headers
matches OpenPMIx 4.2.2's, and that pmix_server.h and pmix_tool.h define
the same callback types and the same pmix_server_module_t.

Each function the reference headers declare is checked four ways:

  1. Spelling. gcc's -aux-info writes every declaration it sees, with
     parameter names dropped, arrays adjusted to pointers and whitespace
     normalised, plus the file that holds it. Both header sets are passed
     through it and the return and parameter text compared: this catches a
     changed typedef name (int for pmix_status_t) as well as a wrong type.
  2. Type. A file compiled against OUR headers asserts, one line per
     function, that __typeof__(PMIx_X) is compatible with the reference's
     text: a wrong parameter type, const, count or return type fails to
     compile, independently of how the text is spelled.
  3. Export. The same functions are referenced from a file compiled with
     "#pragma GCC visibility push(hidden)" around our headers: a declaration
     without PMIX_EXPORT leaves a HIDDEN undefined symbol in the object.
  4. Place. Ours must declare it in the header of the same name as the
     reference does, and nowhere else.

The types check asserts each function-pointer typedef of the reference's
pmix_server.h and pmix_tool.h against the reference's own text (parameter
names are legal in a type name), every member of pmix_server_module_t
(offset as measured on the reference, and type), the struct's size and tag,
and that function-like macros named PMIx_* exist.

Every assertion is alone on its line of a generated file, so a compiler
error is attributed to the item on that line and the other items are still
judged. The last lines are "prototypes: N checked, M mismatches" and
"types: N checked, M mismatches"; the exit status is 0 only when both are
clean (77, meson's "skip", when gcc or readelf is missing).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HEADERS = ['pmix.h', 'pmix_server.h', 'pmix_tool.h']
# The function-pointer typedefs, the module and the PMIx_* macros of these
# headers are checked here; those of pmix_common.h belong to abi_check.py.
TYPE_HEADERS = HEADERS
MODULE = 'pmix_server_module_t'
AUX_LINE = re.compile(r'^/\* (?P<file>.+?):\d+:\S+ \*/ (?P<decl>.*);$')
AUX_DECL = re.compile(r'^(?:extern )?(?P<ret>.*?)\b(?P<name>PMIx_\w+) \((?P<params>.*)\)$')
# typedef RET (*NAME)(PARAMS); spread over any number of lines.
FNPTR_TYPEDEF = re.compile(r'typedef\s+([^;{}()]+?)\(\s*\*\s*(\w+)\s*\)\s*\(([^;]*?)\)\s*;')
ERROR_LINE = re.compile(r'^(?P<file>[^:]+):(?P<line>\d+):\d+: error: (?P<msg>.*)$')


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def includes(dirs):
    return [arg for d in dirs for arg in ('-I', d)]


def unit_text(body, hidden=False):
    """A translation unit including every API header, then body."""
    lines = ['#include <stddef.h>']
    if hidden:
        lines.append('#pragma GCC visibility push(hidden)')
    lines += ['#include <%s>' % h for h in HEADERS]
    if hidden:
        lines.append('#pragma GCC visibility pop')
    return '\n'.join(lines + body) + '\n'


def compile_lines(gcc, dirs, workdir, name, items, extra_args=()):
    """Compile one file with one line per (key, code) item; return the keys
    whose line drew an error (with the message), and whether the compiler
    failed for a reason no line explains."""
    header = unit_text([]).count('\n')
    path = os.path.join(workdir, name)
    with open(path, 'w') as f:
        f.write(unit_text([code for _, code in items]))
    res = run([gcc, '-std=gnu11', '-fsyntax-only'] + list(extra_args) +
              includes(dirs) + [path])
    failed = {}
    for line in res.stderr.splitlines():
        m = ERROR_LINE.match(line)
        if m and os.path.basename(m.group('file')) == name:
            index = int(m.group('line')) - header - 1
            if 0 <= index < len(items):
                failed.setdefault(items[index][0], m.group('msg'))
    unexplained = res.returncode != 0 and not failed
    if unexplained:
        sys.stderr.write(res.stderr)
    return failed, unexplained


def declarations(gcc, dirs, workdir, tag):
    """Every PMIx_* declaration seen through dirs, as name -> list of
    (header basename, return text, parameter text)."""
    src = os.path.join(workdir, tag + '_decls.c')
    aux = os.path.join(workdir, tag + '.aux')
    with open(src, 'w') as f:
        f.write(unit_text([]))
    res = run([gcc, '-std=gnu11', '-fsyntax-only', '-aux-info', aux] + includes(dirs) + [src])
    if res.returncode != 0:
        sys.exit('%s headers do not compile:\n%s' % (tag, res.stderr))
    found = {}
    with open(aux) as f:
        for line in f:
            m = AUX_LINE.match(line.rstrip('\n'))
            d = m and AUX_DECL.match(m.group('decl'))
            if d:
                found.setdefault(d.group('name'), []).append(
                    (os.path.basename(m.group('file')), d.group('ret').strip(),
                     d.group('params').strip()))
    return found


def check_origin(gcc, dirs, workdir):
    """Refuse to judge ours if a pmix header came from outside its
    directories (an installed OpenPMIx would make the check vacuous)."""
    src = os.path.join(workdir, 'origin.c')
    with open(src, 'w') as f:
        f.write(unit_text([]))
    res = run([gcc, '-std=gnu11', '-M'] + includes(dirs) + [src])
    roots = [os.path.abspath(d) + os.sep for d in dirs]
    stray = [p for p in res.stdout.replace('\\\n', ' ').split()
             if os.path.basename(p).startswith('pmix') and p.endswith('.h')
             and not any(os.path.abspath(p).startswith(r) for r in roots)]
    if res.returncode != 0 or stray:
        sys.exit('our headers pull in foreign pmix headers: %s\n%s' % (stray, res.stderr))


def hidden_functions(gcc, dirs, workdir, names):
    """The names whose declaration in our headers is not exported."""
    src = os.path.join(workdir, 'exports.c')
    obj = os.path.join(workdir, 'exports.o')
    refs = ['void *drover_probe_exports[] = {'] + \
           ['    (void *)&%s,' % n for n in names] + ['};']
    with open(src, 'w') as f:
        f.write(unit_text(refs, hidden=True))
    res = run([gcc, '-std=gnu11', '-fPIC', '-c', '-o', obj] + includes(dirs) + [src])
    if res.returncode != 0:
        sys.exit('export probe does not compile:\n' + res.stderr)
    symbols = run(['readelf', '-sW', obj]).stdout
    return {fields[7] for fields in (l.split() for l in symbols.splitlines())
            if len(fields) >= 8 and fields[6] == 'UND' and fields[5] != 'DEFAULT'}


def check_prototypes(gcc, ours, ref, workdir):
    theirs = declarations(gcc, [ref], workdir, 'ref')
    mine = declarations(gcc, ours, workdir, 'ours')
    problems = {}

    def note(name, text):
        problems.setdefault(name, []).append(text)

    for name in sorted(set(mine) - set(theirs)):
        note(name, 'declared by us but not by the reference')
    common = sorted(set(theirs) & set(mine))
    for name in sorted(set(theirs) - set(mine)):
        note(name, 'not declared by our headers')

    for name in common:
        ref_file, ret, params = theirs[name][0]
        for file, our_ret, our_params in mine[name]:
            if file != ref_file:
                note(name, 'declared in %s, reference uses %s' % (file, ref_file))
            if (our_ret, our_params) != (ret, params):
                note(name, 'spelled "%s (%s)", reference "%s (%s)"'
                     % (our_ret, our_params, ret, params))

    asserts = [(n, '_Static_assert(__builtin_types_compatible_p(__typeof__(%s), %s (%s)), '
                   '"type of %s");' % (n, theirs[n][0][1], theirs[n][0][2], n))
               for n in common]
    failed, unexplained = compile_lines(gcc, ours, workdir, 'prototypes.c', asserts)
    for name, msg in sorted(failed.items()):
        note(name, 'type differs: ' + msg)

    for name in sorted(hidden_functions(gcc, ours, workdir, common)):
        note(name, 'not marked PMIX_EXPORT')

    for name in sorted(problems):
        for text in problems[name]:
            print('%s: %s' % (name, text))
    mismatches = len(problems) + (1 if unexplained else 0)
    print('prototypes: %d checked, %d mismatches' % (len(theirs), mismatches))
    return mismatches


def strip_comments(text):
    return re.sub(r'/\*.*?\*/|//[^\n]*', ' ', text, flags=re.S)


def reference_types(ref):
    """From the reference headers: function-pointer typedefs as name ->
    (return text, parameter text), PMIx_* function-like macros as (name,
    parameter count), and the module's tag and members ((type, name) in
    order)."""
    typedefs, macros, members = {}, [], None
    for header in TYPE_HEADERS:
        with open(os.path.join(ref, header)) as f:
            text = strip_comments(f.read())
        for m in FNPTR_TYPEDEF.finditer(text):
            typedefs[m.group(2)] = (' '.join(m.group(1).split()), ' '.join(m.group(3).split()))
        for name, params in re.findall(r'^\s*#\s*define\s+(PMIx_\w+)\(([^)]*)\)', text,
                                       flags=re.M):
            macros.append((name, len([p for p in params.split(',') if p.strip()])))
        body = re.search(r'typedef\s+struct\s+(\w+)\s*\{([^}]*)\}\s*' + MODULE + r'\s*;', text)
        if body:
            members = (body.group(1), re.findall(r'(\w+)\s+(\w+)\s*;', body.group(2)))
    if members is None:
        sys.exit('%s not found in the reference headers' % MODULE)
    return typedefs, macros, members


def reference_layout(gcc, ref, workdir, members):
    """Offsets of the module's members and its size, measured by a program
    built against the reference headers."""
    src = os.path.join(workdir, 'ref_layout.c')
    exe = os.path.join(workdir, 'ref_layout')
    body = ['#include <stdio.h>', 'int main(void)', '{']
    body += ['    printf("%%zu\\n", offsetof(%s, %s));' % (MODULE, name) for _, name in members]
    body += ['    printf("%%zu\\n", sizeof(%s));' % MODULE, '    return 0;', '}']
    with open(src, 'w') as f:
        f.write(unit_text(body))
    res = run([gcc, '-std=gnu11', '-o', exe] + includes([ref]) + [src])
    if res.returncode != 0:
        sys.exit('reference layout probe does not build:\n' + res.stderr)
    values = [int(v) for v in run([exe]).stdout.split()]
    return values[:-1], values[-1]


def check_types(gcc, ours, ref, workdir):
    typedefs, macros, (tag, members) = reference_types(ref)
    offsets, size = reference_layout(gcc, ref, workdir, members)
    items = [(t, '_Static_assert(__builtin_types_compatible_p(%s, %s (*)(%s)), "%s");'
                 % (t, ret, params, t)) for t, (ret, params) in sorted(typedefs.items())]
    items += [('%s.%s' % (MODULE, name),
               '_Static_assert(offsetof(%s, %s) == %d && __builtin_types_compatible_p('
               '__typeof__(((%s *)0)->%s), %s), "member %s");'
               % (MODULE, name, off, MODULE, name, typ, name))
              for (typ, name), off in zip(members, offsets)]
    items.append(('sizeof(%s)' % MODULE, '_Static_assert(sizeof(%s) == %d, "size");'
                  % (MODULE, size)))
    items.append(('struct %s' % tag, '_Static_assert(__builtin_types_compatible_p(struct %s, %s),'
                  ' "tag");' % (tag, MODULE)))
    # A function-like macro is defined when invoking it expands to something
    # other than its own text; the helpers come in through -D so that every
    # line of the file stays one item.
    for name, arity in macros:
        call = '%s(%s)' % (name, ', '.join(['0'] * arity))
        items.append((name, '_Static_assert(sizeof(DROVER_XSTR(%s)) != sizeof(DROVER_STR(%s)), '
                            '"macro %s");' % (call, call, name)))
    helpers = ['-DDROVER_STR(...)=#__VA_ARGS__', '-DDROVER_XSTR(...)=DROVER_STR(__VA_ARGS__)']
    failed, unexplained = compile_lines(gcc, ours, workdir, 'types.c', items, helpers)
    for key, msg in sorted(failed.items()):
        print('%s: %s' % (key, msg))
    mismatches = len(failed) + (1 if unexplained else 0)
    print('types: %d checked, %d mismatches' % (len(items), mismatches))
    return mismatches


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--ours', action='append', required=True,
                    help='directory holding our headers (repeat for the generated ones)')
    ap.add_argument('--ref', default='/usr/lib/x86_64-linux-gnu/pmix2/include',
                    help='directory holding the OpenPMIx 4.2.2 headers')
    ap.add_argument('--gcc', default=shutil.which('gcc'),
                    help='gcc (needed for -aux-info)')
    ap.add_argument('--workdir', help='where generated files go (default: a temporary directory)')
    args = ap.parse_args()
    if not args.gcc or not shutil.which('readelf') or \
            not os.path.exists(os.path.join(args.ref, 'pmix.h')):
        print('skipped: needs gcc, readelf and the reference headers')
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        workdir = args.workdir or tmp
        os.makedirs(workdir, exist_ok=True)
        check_origin(args.gcc, args.ours, workdir)
        bad = check_prototypes(args.gcc, args.ours, args.ref, workdir)
        bad += check_types(args.gcc, args.ours, args.ref, workdir)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
