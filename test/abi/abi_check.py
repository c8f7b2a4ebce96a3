#!/usr/bin/env python3
"""abi_check.py - prove drover's public headers match OpenPMIx 4.2.2's.

The same questions are asked of both header sets ("ours" and the
reference installed by libpmix-dev) and the answers are compared:

  1. Collection. The preprocessor (-dD) lists every macro with the file
     that defines it; clang's JSON AST lists every typedef, structure,
     enumeration and function whose name starts with pmix_/PMIx_/PMIX_.
     Names are taken from both sides, so a name either side lacks is a
     difference like any other.
  2. One probe. probe.c prints, for every object-like constant and every
     enumerator, its C type and value (strings as strings); for every
     *_STATIC_INIT, the bytes of a static object it initialises; for every
     structure, its size and alignment and each member's offset and size
     (members of the unnamed union in pmix_value_t included); for every
     scalar typedef, its size, alignment and signedness. Each question is
     one line of probe.c, so when a line does not compile against one side
     (a missing type or member) it is dropped on that side only and the
     compiler's message becomes the difference.
  3. Without running anything, the spelling of declarations is compared:
     function and callback signatures (typedef names as written, parameter
     names ignored), whether a function is exported, member types, and the
     parameter count of function-like macros.

The probe is compiled and run once per side and the two outputs diffed.
The last line is a summary: "ABI: N constants, M structs, K declarations,
D differences". The exit status is 0 only when D is 0 (77, meson's "skip",
when a required tool is missing).
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys

# The headers a PMIx program may include; a side is asked only about those
# it has, so a missing header shows up as missing names.
HEADERS = ['pmix_version.h', 'pmix_common.h', 'pmix_deprecated.h', 'pmix.h',
           'pmix_server.h', 'pmix_tool.h']

NAME_RE = re.compile(r'^(pmix|PMIx|PMIX)_')
# Object-like macros that are not values: the visibility attribute.
NOT_CONSTANTS = {'PMIX_EXPORT'}
# Static initialisers whose type is not spelled after their name.
INIT_TYPES = {'PMIX_LOOKUP_STATIC_INIT': 'pmix_pdata_t',
              'PMIX_DEVICE_DIST_STATIC_INIT': 'pmix_device_distance_t'}

Side = collections.namedtuple('Side', 'name incdirs headers')


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, **kw)


def side_headers(incdirs):
    """The public headers present in a side's include directories."""
    return [h for h in HEADERS
            if any(os.path.exists(os.path.join(d, h)) for d in incdirs)]


def include_block(side):
    return ''.join('#include <%s>\n' % h for h in side.headers)


def iflags(side):
    return ['-I' + d for d in side.incdirs]


# ---- Collection: macros -------------------------------------------------

MARKER_RE = re.compile(r'^# \d+ "([^"]*)"')
DEFINE_RE = re.compile(r'^#define ([A-Za-z_]\w*)(\([^)]*\))?\s?(.*)$')


def collect_macros(cc, side, work):
    """Map macro name -> (params or None, body, defining header basename)."""
    src = os.path.join(work, 'collect-%s.c' % side.name)
    with open(src, 'w') as f:
        f.write(include_block(side))
    res = run(cc + ['-E', '-dD'] + iflags(side) + [src])
    if res.returncode != 0:
        raise SystemExit('preprocessing the %s headers failed:\n%s'
                         % (side.name, res.stderr))
    macros, cur = {}, ''
    for line in res.stdout.splitlines():
        m = MARKER_RE.match(line)
        if m:
            cur = os.path.basename(m.group(1))
            continue
        m = DEFINE_RE.match(line)
        if m and NAME_RE.match(m.group(1)):
            params = m.group(2)
            if params is not None:
                params = [p.strip() for p in params[1:-1].split(',') if p.strip()]
            macros[m.group(1)] = (params, m.group(3).strip(), cur)
        elif line.startswith('#undef '):
            macros.pop(line.split()[1], None)
    return macros


# ---- Collection: declarations (clang AST) -------------------------------

def walk_files(node, state):
    """Follow the JSON dump in order: a location names its file only when
    it differs from the previous one printed."""
    if isinstance(node, dict):
        for key, val in node.items():
            if key == 'includedFrom':
                continue
            if key == 'file' and isinstance(val, str):
                state[0] = val
            else:
                walk_files(val, state)
    elif isinstance(node, list):
        for val in node:
            walk_files(val, state)


def unnamed(qualtype):
    """A type spelling without what varies for reasons other than the
    headers: the source position clang prints for unnamed records, and
    whether clang chose to print _Bool as bool."""
    qualtype = re.sub(r'\bbool\b', '_Bool', qualtype)
    return re.sub(r'\((unnamed|anonymous)( struct| union)? at [^)]*\)', '(unnamed)',
                  qualtype)


def record_fields(rec, prefix=''):
    """[(member path, type spelling)] of a record, descending into members
    whose type is an unnamed record defined in place."""
    out, pending = [], None
    for child in rec.get('inner', []):
        if child['kind'] == 'RecordDecl' and not child.get('name'):
            pending = child
        elif child['kind'] == 'FieldDecl':
            qt = child['type']['qualType']
            name = child.get('name', '')
            path = prefix + name
            if name:
                out.append((path, unnamed(qt)))
            if pending is not None and ('(unnamed' in qt or '(anonymous' in qt):
                out.extend(record_fields(pending, path + '.' if name else prefix))
            pending = None
    return out


def normalize_signature(qualtype):
    """A function type with top-level qualifiers of parameters removed, as
    they are not part of the type."""
    if not qualtype.endswith(')'):
        return qualtype
    depth, i = 0, len(qualtype) - 1
    while i >= 0:
        depth += {')': 1, '(': -1}.get(qualtype[i], 0)
        if depth == 0:
            break
        i -= 1
    head, inside = qualtype[:i], qualtype[i + 1:-1]
    params, depth, cur = [], 0, ''
    for ch in inside:
        depth += {'(': 1, ')': -1}.get(ch, 0)
        if ch == ',' and depth == 0:
            params.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        params.append(cur.strip())
    norm = []
    for p in params:
        if p.startswith('const ') and '*' not in p:
            p = p[len('const '):]
        p = re.sub(r'\*\s*const$', '*', p)
        norm.append(p)
    return head + '(' + ', '.join(norm) + ')'


def collect_decls(clang, side, work):
    """Declarations named pmix_*: functions, typedefs, records, enumerators.
    Returns (dict, header errors)."""
    src = os.path.join(work, 'collect-%s.c' % side.name)
    res = run([clang, '-fsyntax-only', '-std=gnu11', '-Xclang', '-ast-dump=json']
              + iflags(side) + [src])
    errors = [l for l in res.stderr.splitlines() if ': error:' in l]
    if not res.stdout.strip():
        raise SystemExit('clang could not read the %s headers:\n%s' % (side.name, res.stderr))
    ast = json.loads(res.stdout)
    records = {}
    decls = {'function': {}, 'typedef': {}, 'enumerator': {}, 'record': {}}
    state = ['']
    for node in ast.get('inner', []):
        walk_files(node.get('loc', {}), state)
        where = os.path.basename(state[0])
        walk_files({k: v for k, v in node.items() if k != 'loc'}, state)
        kind, name = node['kind'], node.get('name', '')
        if kind == 'RecordDecl' and node.get('completeDefinition'):
            records[node['id']] = node
        if kind == 'EnumDecl':
            for c in node.get('inner', []):
                if c['kind'] == 'EnumConstantDecl' and NAME_RE.match(c['name']):
                    decls['enumerator'][c['name']] = where
        if not NAME_RE.match(name):
            continue
        if kind == 'FunctionDecl':
            sig = normalize_signature(unnamed(node['type']['qualType']))
            if node.get('storageClass') == 'static':
                sig = 'static ' + ('inline ' if node.get('inline') else '') + sig
            else:
                vis = any(c['kind'] == 'VisibilityAttr' for c in node.get('inner', []))
                sig += '' if vis else ' [not exported]'
            decls['function'][name] = (sig, where)
        elif kind == 'TypedefDecl':
            qt = unnamed(node['type']['qualType'])
            rec = None
            for c in node.get('inner', []):
                owned = c.get('ownedTagDecl') or {}
                if owned.get('kind') == 'RecordDecl':
                    rec = owned['id']
                for cc_ in c.get('inner', []):
                    d = cc_.get('decl') or {}
                    if cc_.get('kind') == 'RecordType' and d.get('kind') == 'RecordDecl':
                        rec = d['id']
            decls['typedef'][name] = (qt, where, rec)
    for name, (qt, where, rec) in list(decls['typedef'].items()):
        if rec in records:
            decls['record'][name] = (record_fields(records[rec]), where)
    return decls, errors


# ---- The probe ----------------------------------------------------------

PROBE_HEAD = r'''
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define PROBE_TYPE(x) _Generic((x), char *: "string", const char *: "string", \
    _Bool: "bool", char: "char", signed char: "schar", unsigned char: "uchar", \
    short: "short", unsigned short: "ushort", int: "int", unsigned int: "uint", \
    long: "long", unsigned long: "ulong", long long: "llong", \
    unsigned long long: "ullong", float: "float", double: "double", \
    long double: "ldouble", default: "other")

static void p_str(const char *k, const char *t, const char *s)
{
    printf("%s\t%s \"", k, t);
    for (; s != NULL && *s; s++) {
        if (*s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\')
            putchar(*s);
        else
            printf("\\x%02x", (unsigned char)*s);
    }
    printf("\"\n");
}
static void p_s(const char *k, const char *t, long long v) { printf("%s\t%s %lld\n", k, t, v); }
static void p_u(const char *k, const char *t, unsigned long long v) { printf("%s\t%s %llu\n", k, t, v); }
static void p_f(const char *k, const char *t, long double v) { printf("%s\t%s %La\n", k, t, v); }

#define PROBE_CONST(k, x) _Generic((x), char *: p_str, const char *: p_str, \
    float: p_f, double: p_f, long double: p_f, unsigned int: p_u, \
    unsigned long: p_u, unsigned long long: p_u, default: p_s)(k, PROBE_TYPE(x), (x))

/* An initialised object as its size and its runs of non-zero bytes. */
static void p_bytes(const char *k, const void *p, size_t n)
{
    const unsigned char *b = p;
    printf("%s\tsize %zu", k, n);
    for (size_t i = 0; i < n; i++) {
        if (b[i] != 0 && (i == 0 || b[i - 1] == 0))
            printf(" @%zu=", i);
        if (b[i] != 0)
            printf("%02x", b[i]);
    }
    printf("\n");
}
#define PROBE_RECORD(k, T) printf("%s\tsize %zu align %zu\n", k, sizeof(T), _Alignof(T))
#define PROBE_FIELD(k, T, m) printf("%s\toffset %zu size %zu\n", k, offsetof(T, m), \
    sizeof(((T *)0)->m))
#define PROBE_SCALAR(k, T) printf("%s\tsize %zu align %zu %s\n", k, sizeof(T), _Alignof(T), \
    ((T)-1 < (T)0) ? "signed" : "unsigned")
#define PROBE_SIZE(k, T) printf("%s\tsize %zu align %zu\n", k, sizeof(T), _Alignof(T))
'''


def probe_lines(macros, decls):
    """[(key, C statement)] for every runtime question, over both sides."""
    lines = []
    names = set()
    inits = {}
    for m in macros:
        for name, (params, body, _) in m.items():
            if params is not None or name in NOT_CONSTANTS or not body:
                continue
            if body.startswith('{'):
                if name.endswith('_STATIC_INIT'):
                    inits[name] = INIT_TYPES.get(
                        name, 'pmix_' + name[len('PMIX_'):-len('_STATIC_INIT')].lower() + '_t')
            elif '__attribute__' not in body:
                names.add(name)
    for d in decls:
        names.update(d['enumerator'])
    for name in sorted(names):
        lines.append(('const ' + name, 'PROBE_CONST("const %s", %s);' % (name, name)))
    for name in sorted(inits):
        lines.append(('init ' + name, '{ static const %s v = %s; p_bytes("init %s", &v, '
                      'sizeof v); }' % (inits[name], name, name)))
    records = {}
    typedefs = {}
    for d in decls:
        for name, (fields, _) in d['record'].items():
            records.setdefault(name, [])
            for f, _t in fields:
                if f not in records[name]:
                    records[name].append(f)
        for name, (qt, _, _) in d['typedef'].items():
            typedefs.setdefault(name, qt)
    for name in sorted(records):
        lines.append(('struct ' + name, 'PROBE_RECORD("struct %s", %s);' % (name, name)))
        for f in records[name]:
            key = 'field %s.%s' % (name, f)
            lines.append((key, 'PROBE_FIELD("%s", %s, %s);' % (key, name, f)))
    for name in sorted(set(typedefs) - set(records)):
        qt = typedefs[name]
        how = 'PROBE_SIZE' if ('(' in qt or '[' in qt) else 'PROBE_SCALAR'
        lines.append(('typedef ' + name, '%s("typedef %s", %s);' % (how, name, name)))
    return lines


def write_probe(path, side, lines, dropped):
    """Write probe.c for one side; map each function to its key. Every
    question is a function of its own so that the compiler recovers from
    an error in one without losing the next."""
    text = (PROBE_HEAD + include_block(side)).splitlines()
    owner, kept = {}, []
    for n, (key, stmt) in enumerate(lines):
        if key in dropped:
            continue
        text.append('static void q%d(void) { %s }' % (n, stmt))
        owner['q%d' % n] = key
        kept.append('q%d' % n)
    text.append('static void (*const probes[])(void) = { %s };' % ', '.join(kept + ['0']))
    text.append('int main(void)\n{\n    for (size_t i = 0; probes[i]; i++)\n'
                '        probes[i]();\n    return 0;\n}\n')
    with open(path, 'w') as f:
        f.write('\n'.join(text))
    return owner


FUNC_RE = re.compile(r"In function '(q\d+)'")
ERROR_RE = re.compile(r'^([^:]+):(\d+):\d+: error: (.*)$')


def run_probe(cc, side, lines, work):
    """Compile and run the probe against one side. Returns (answers, failed)
    where failed maps a key to the compiler's complaint on this side."""
    src = os.path.join(work, 'probe-%s.c' % side.name)
    exe = os.path.join(work, 'probe-%s' % side.name)
    env = dict(os.environ, LC_ALL='C')
    failed = {}
    for _attempt in range(20):
        owner = write_probe(src, side, lines, failed)
        res = run(cc + ['-std=gnu11', '-w', '-fmax-errors=0'] + iflags(side)
                  + [src, '-o', exe], env=env)
        if res.returncode == 0:
            break
        # An error belongs to the question whose function the compiler was
        # in, even when it is reported inside a header's macro.
        func, progress = None, False
        for line in res.stderr.splitlines():
            m = FUNC_RE.search(line)
            if m:
                func = m.group(1)
                continue
            m = ERROR_RE.match(line)
            if not m:
                continue
            key = owner.get(func)
            if key is None:
                raise SystemExit('the %s headers do not compile:\n%s' % (side.name, res.stderr))
            if key not in failed:
                failed[key] = m.group(3)
                progress = True
        if not progress:
            raise SystemExit('the %s probe does not compile:\n%s' % (side.name, res.stderr))
    else:
        raise SystemExit('giving up on the %s probe' % side.name)
    out = run([exe])
    if out.returncode != 0:
        raise SystemExit('the %s probe failed: %s' % (side.name, out.stderr))
    answers = {}
    for line in out.stdout.splitlines():
        key, _, val = line.partition('\t')
        answers[key] = val
    return answers, failed


# ---- Comparison ---------------------------------------------------------

def where_of(key, macros, decls):
    """The header that defines the name behind a key, or ''."""
    kind, _, name = key.partition(' ')
    name = name.split('.')[0].rstrip('()')
    if name in macros:
        return macros[name][2]
    for part in ('function', 'typedef', 'record'):
        if name in decls[part]:
            return decls[part][name][1]
    return decls['enumerator'].get(name, '')


def absent(complaint):
    """Whether a compiler complaint means the name is simply not there."""
    return not complaint or any(w in complaint for w in (
        'undeclared', 'unknown type name', 'has no member named'))


def compare(cc, clang, sides, work, verbose):
    macros = [collect_macros(cc, s, work) for s in sides]
    collected = [collect_decls(clang, s, work) for s in sides]
    decls = [c[0] for c in collected]
    diffs = []  # (key, message, our file, reference file)

    def add(key, msg):
        diffs.append((key, msg, where_of(key, macros[0], decls[0]),
                      where_of(key, macros[1], decls[1])))

    for side, (_, errors) in zip(sides, collected):
        for e in errors:
            diffs.append(('header', '%s headers: %s' % (side.name, e), '', ''))

    # Runtime answers.
    lines = probe_lines(macros, decls)
    answers, failures = zip(*(run_probe(cc, s, lines, work) for s in sides))
    for key, _ in lines:
        a = [answers[i].get(key) for i in range(2)]
        why = [failures[i].get(key, '') for i in range(2)]
        if a[0] == a[1]:
            if a[0] is None and verbose:
                print('NOTE %s: not probed (%s)' % (key, why[1]))
            continue
        if a[1] is None and why[1] and not absent(why[1]):
            # OpenPMIx ships a few macros that do not compile; ours working
            # where theirs cannot be used is not a difference anyone sees.
            print('NOTE %s: the reference does not compile (%s); ours: %s' % (key, why[1], a[0]))
            continue
        add(key, '; '.join('%s: %s' % (sides[i].name, a[i] if a[i] is not None
                                       else 'absent' if absent(why[i]) else why[i])
                           for i in range(2)))

    # Spelling of declarations.
    def spelled(kind, table, fmt=lambda v: v):
        for name in sorted(set(table[0]) | set(table[1])):
            v = [fmt(t[name]) if name in t else None for t in table]
            if v[0] != v[1]:
                add('%s %s' % (kind, name), '; '.join(
                    '%s: %s' % (sides[i].name, v[i] if v[i] is not None else 'absent')
                    for i in range(2)))
    spelled('function', [d['function'] for d in decls], lambda v: v[0])
    spelled('typedef', [d['typedef'] for d in decls], lambda v: v[0])
    fieldtypes = [{'%s.%s' % (r, f): t for r, (fl, _) in d['record'].items() for f, t in fl}
                  for d in decls]
    for name in sorted(set(fieldtypes[0]) & set(fieldtypes[1])):
        if fieldtypes[0][name] != fieldtypes[1][name]:
            add('field-type ' + name, '; '.join('%s: %s' % (sides[i].name, fieldtypes[i][name])
                                                for i in range(2)))
    fnmacros = [{n: len(p) for n, (p, _, _) in m.items() if p is not None} for m in macros]
    for name in sorted(set(fnmacros[0]) | set(fnmacros[1])):
        v = [f.get(name) for f in fnmacros]
        if v[0] != v[1]:
            add('macro %s()' % name, '; '.join(
                '%s: %s' % (sides[i].name, 'absent' if v[i] is None else '%d parameters' % v[i])
                for i in range(2)))

    for key, msg, ours, ref in diffs:
        place = ours or ('reference: ' + ref if ref else '')
        print('DIFF %s [%s]: %s' % (key, place, msg))
    if diffs:
        byfile = collections.Counter(d[2] or ('absent (reference %s)' % d[3]) for d in diffs)
        print('differences by file: ' + ', '.join('%s %d' % (f or '?', n)
                                                  for f, n in byfile.most_common()))
    nconst = sum(1 for k, _ in lines if k.startswith('const '))
    nstruct = sum(1 for k, _ in lines if k.startswith('struct '))
    ndecl = len(set(decls[0]['function']) | set(decls[1]['function'])
                | set(decls[0]['typedef']) | set(decls[1]['typedef']))
    print('ABI: %d constants, %d structs, %d declarations, %d differences'
          % (nconst, nstruct, ndecl, len(diffs)))
    return len(diffs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--cc', default='cc', help='C compiler for the probe (may hold flags)')
    ap.add_argument('--clang', default='clang', help='clang, to read declarations')
    ap.add_argument('--ours', action='append', required=True,
                    help='an include directory of our headers (repeat)')
    ap.add_argument('--ref', help='the reference include directory '
                    '(default: pkg-config --variable=includedir pmix)')
    ap.add_argument('--workdir', required=True)
    ap.add_argument('-v', '--verbose', action='store_true')
    args = ap.parse_args()

    if shutil.which(args.clang) is None:
        print('clang not found: skipping')
        return 77
    ref = args.ref
    if not ref:
        res = run(['pkg-config', '--variable=includedir', 'pmix'])
        ref = res.stdout.strip()
        if res.returncode != 0 or not ref:
            print('no reference PMIx headers (pkg-config pmix): skipping')
            return 77
    os.makedirs(args.workdir, exist_ok=True)
    sides = [Side('ours', args.ours, side_headers(args.ours)),
             Side('reference', [ref], side_headers([ref]))]
    return 1 if compare(args.cc.split(), args.clang, sides, args.workdir, args.verbose) else 0


if __name__ == '__main__':
    sys.exit(main())
