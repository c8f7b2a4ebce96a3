#!/usr/bin/env python3
"""Check that every source path README.md and docs/*.md name exists.

Usage: check_paths.py SOURCE_ROOT

The rules, so a doc can name files briefly and still be checked:
  - A name with a slash whose first part is in the tree (src/server/peer.c,
    test/unit/, ../include/pmix.h) exists relative to the source root or to
    the document's own directory (a Markdown link). Others (slurm/pmi.h, a
    system header) are not the tree's.
  - A bare file name in a table column headed "file in `DIR/`" exists in
    DIR, and the row's type (its first `PMIX_...` name) appears in it.
  - Any other bare file name is the name of some file in the tree, unless
    it is one of READER_FILES: names of the reader's own programs in
    examples.
Exit status 1, with one line per missing path, when any is missing.
"""
import os
import re
import sys

EXTENSIONS = r'(?:c|h|sh|py|def|md|build|f90)'
# A path: words, dots, dashes and slashes ending in a known extension, or a
# directory of the tree written with its trailing slash.
PATH = re.compile(r'(?<![\w./-])((?:[\w.-]+/)*[\w.-]+\.' + EXTENSIONS + r'|'
                  r'(?:src|test|docs|include|contrib|bench)/(?:[\w.-]+/)*)(?![\w/-])')
# Names the reader makes up in examples, and placeholders for their paths.
READER_FILES = {'app.c', 'heat.f90', 'script.py'}
PLACEHOLDER = re.compile(r'^[A-Z]+/')
TABLE_DIR = re.compile(r'file in `([\w./-]+/)`')


def tree_names(root):
    names = set()
    for top, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(('.', 'build'))]
        names.update(files)
    return names


def check_table_row(root, table_dir, line, where):
    cells = [c.strip() for c in line.strip().strip('|').split('|')]
    name = cells[-1]
    if not re.fullmatch(r'[\w.-]+\.' + EXTENSIONS, name):
        return []
    path = os.path.join(root, table_dir, name)
    if not os.path.isfile(path):
        return ['%s: %s%s does not exist' % (where, table_dir, name)]
    kind = re.search(r'`(PMIX_\w+)`', line)
    if kind and not re.search(r'\b%s\b' % kind.group(1), open(path).read()):
        return ['%s: %s is not in %s%s' % (where, kind.group(1), table_dir, name)]
    return []


def check_doc(root, doc, names):
    errors = []
    here = os.path.dirname(os.path.join(root, doc))
    table_dir = None
    for number, line in enumerate(open(os.path.join(root, doc)), 1):
        where = '%s:%d' % (doc, number)
        if not line.startswith('|'):
            table_dir = None
        else:
            header = TABLE_DIR.search(line)
            if header:
                table_dir = header.group(1)
                continue
            if table_dir:
                errors += check_table_row(root, table_dir, line, where)
                line = '|'.join(line.split('|')[:-2])
        for match in PATH.finditer(line):
            path = match.group(1)
            if '/' not in path:
                if path not in names and path not in READER_FILES:
                    errors.append('%s: no file is named %s' % (where, path))
                continue
            top = path.split('/')[0]
            if PLACEHOLDER.match(path) or not any(
                    os.path.exists(os.path.join(base, top)) for base in (root, here)):
                # Not a path into the tree (a system header's, say).
                continue
            if not any(os.path.exists(os.path.join(base, path)) for base in (root, here)):
                errors.append('%s: %s does not exist' % (where, path))
    return errors


def main():
    root = sys.argv[1]
    docs = ['README.md'] + sorted(os.path.join('docs', f)
                                  for f in os.listdir(os.path.join(root, 'docs'))
                                  if f.endswith('.md'))
    names = tree_names(root)
    errors = []
    for doc in docs:
        errors += check_doc(root, doc, names)
    for error in errors:
        print(error)
    print('%d documents checked, %d missing paths' % (len(docs), len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
