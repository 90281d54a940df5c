#!/usr/bin/env python3
"""Checks that docs/architecture.md matches the tree.

Every file of the library (lib/), of its public headers (include/) and
of the tests' support library (tests/support/) has its line in the
document, written as `path`; and every `path` the document names, a file
or a folder, exists. A file added without its line, or a line left
behind by a file moved away, fails here.

usage: check-architecture.py ROOT
"""
import glob
import os
import re
import sys

# Where every file needs a line of its own.
EACH_FILE = ['lib/*', 'lib/*/*', 'include/*.h', 'include/diskbench/*.h*',
             'include/diskbench/sys/*.h', 'tests/support/*']
# Top-level folders a path named in the document may start with.
ROOTS = ('lib/', 'include/', 'tests/', 'examples/', 'programs/', 'bindings/',
         'bench/', 'docs/', 'scripts/')


def main():
    root = sys.argv[1]
    doc_path = os.path.join(root, 'docs', 'architecture.md')
    with open(doc_path, encoding='utf-8') as f:
        doc = f.read()
    named = set(re.findall(r'`([A-Za-z0-9_./+-]+)`', doc))
    ok = True
    for pattern in EACH_FILE:
        for p in sorted(glob.glob(os.path.join(root, pattern))):
            if not os.path.isfile(p):
                continue
            rel = os.path.relpath(p, root)
            if rel not in named:
                print('FAIL docs/architecture.md has no line for `%s`' % rel)
                ok = False
    for name in sorted(named):
        if not name.startswith(ROOTS):
            continue
        if not os.path.exists(os.path.join(root, name.rstrip('/'))):
            print('FAIL docs/architecture.md names `%s`, which is not in the tree'
                  % name)
            ok = False
    if len(named) < 20:
        print('FAIL docs/architecture.md names %d paths: not the document'
              % len(named))
        ok = False
    if ok:
        print('docs/architecture.md: %d paths named, all there, every file '
              'of lib/, include/ and tests/support/ among them' % len(named))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
