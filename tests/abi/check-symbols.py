#!/usr/bin/env python3
"""Checks what libdiskbench exports against the version script and headers.

- The shared library exports (nm -D --defined-only) only functions named
  diskbench_*, besides the version-node symbols (DISKBENCH_0.1, ...).
- Every export is bound to the version node the map lists it in (@@NODE).
- exported functions == names in lib/libdiskbench.map == functions declared
  with DISKBENCH_API in the public headers; and every function the headers
  declare carries DISKBENCH_API.
- The soname is libdiskbench.so.<major> (readelf -d).
- With --static: every global symbol the archive defines starts with
  diskbench_ (internals use diskbench__), so a static link puts nothing else
  in the application's namespace.

usage: check-symbols.py --lib SO --map MAP --soname NAME [--static A]
                        [--nm NM] [--readelf READELF] HEADER...
"""

import argparse
import re
import subprocess
import sys

errors = []


def error(msg):
    errors.append(msg)


def strip_c_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def parse_map(path):
    """Returns ({symbol: node}, [nodes in order])."""
    text = strip_c_comments(open(path).read())
    text = re.sub(r'#[^\n]*', ' ', text)
    sym_node = {}
    nodes = []
    for m in re.finditer(r'([A-Za-z_][\w.]*)\s*\{(.*?)\}\s*([A-Za-z_][\w.]*)?\s*;',
                         text, flags=re.S):
        node, body, parent = m.group(1), m.group(2), m.group(3)
        nodes.append(node)
        if parent and parent not in nodes:
            error('map: node %s inherits %s, which is not defined before it'
                  % (node, parent))
        scope = 'global'
        for item in body.split(';'):
            item = item.strip()
            lab = re.match(r'(global|local)\s*:\s*(.*)', item, flags=re.S)
            if lab:
                scope, item = lab.group(1), lab.group(2).strip()
            if not item:
                continue
            if scope == 'local':
                if item != '*':
                    error('map: unexpected local entry %r in %s' % (item, node))
                continue
            if not re.fullmatch(r'[A-Za-z_]\w*', item):
                error('map: wildcard or odd entry %r in %s; list names one by one'
                      % (item, node))
                continue
            if item in sym_node:
                error('map: %s listed in both %s and %s' % (item, sym_node[item], node))
            sym_node[item] = node
    if not nodes:
        error('map: no version node found in %s' % path)
    return sym_node, nodes


def parse_header(path):
    """Returns (api_functions, unmarked_functions) declared in a header."""
    text = strip_c_comments(open(path).read())
    # Drop preprocessor lines, continuations included.
    text = re.sub(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', ' ', text, flags=re.M)
    # Drop struct/enum bodies (innermost first).
    while True:
        new = re.sub(r'\{[^{}]*\}', ' ', text)
        if new == text:
            break
        text = new
    text = re.sub(r'\bDISKBENCH_(BEGIN|END)_DECLS\b', ' ', text)
    api, unmarked = set(), set()
    for stmt in text.split(';'):
        stmt = ' '.join(stmt.split())
        if not stmt or re.search(r'\btypedef\b', stmt) or '(' not in stmt:
            continue
        # The name is the identifier just before the first '(' that is not
        # a macro call such as DISKBENCH_DEPRECATED("...").
        stmt_nomacro = re.sub(r'\bDISKBENCH_[A-Z_]+\s*\([^()]*\)', ' ', stmt)
        m = re.search(r'([A-Za-z_]\w*)\s*\(', stmt_nomacro)
        if not m:
            continue
        name = m.group(1)
        if re.search(r'\bDISKBENCH_API\b', stmt):
            api.add(name)
        else:
            unmarked.add(name)
    return api, unmarked


def run(argv):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    if r.returncode != 0:
        print('command failed: %s\n%s' % (' '.join(argv), r.stderr))
        sys.exit(1)
    return r.stdout


def show(title, names):
    return '%s:\n    %s' % (title, '\n    '.join(sorted(names)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--lib', required=True)
    ap.add_argument('--static')
    ap.add_argument('--map', required=True)
    ap.add_argument('--soname', required=True)
    ap.add_argument('--nm', default='nm')
    ap.add_argument('--readelf', default='readelf')
    ap.add_argument('headers', nargs='+')
    args = ap.parse_args()

    sym_node, nodes = parse_map(args.map)

    header_api = set()
    for h in args.headers:
        api, unmarked = parse_header(h)
        header_api |= api
        for name in sorted(unmarked):
            error('%s: %s() is declared without DISKBENCH_API' % (h, name))

    exported = {}
    for line in run([args.nm, '-D', '--defined-only', '--with-symbol-versions',
                     args.lib]).splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        kind, full = parts[-2], parts[-1]
        name, sep, ver = full.partition('@')
        default_ver = ver.startswith('@')
        ver = ver.lstrip('@')
        if kind == 'A' and name in nodes:
            continue  # the version node itself
        if not name.startswith('diskbench_') or name.startswith('diskbench__'):
            error('leak: %s exports %s (%s), outside the public diskbench_ namespace'
                  % (args.lib, full, kind))
            continue
        if kind not in ('T', 'W', 'i'):
            error('%s exports %s as a data symbol (%s); export functions only'
                  % (args.lib, full, kind))
        if not sep or not default_ver:
            error('%s is not bound to a default version node (nm shows %r)'
                  % (name, full))
        elif name in sym_node and ver != sym_node[name]:
            error('%s is bound to %s, but the map lists it in %s'
                  % (name, ver, sym_node[name]))
        exported[name] = ver

    exp, mapped = set(exported), set(sym_node)
    if exp - mapped:
        error(show('exported but not in the map', exp - mapped))
    if mapped - exp:
        error(show('in the map but not exported (missing DISKBENCH_API or '
                   'definition?)', mapped - exp))
    if header_api - mapped:
        error(show('declared DISKBENCH_API in a header but not in the map',
                   header_api - mapped))
    if mapped - header_api:
        error(show('in the map but declared in no public header',
                   mapped - header_api))

    dyn = run([args.readelf, '-d', args.lib])
    m = re.search(r'\(SONAME\)\s+Library soname: \[([^\]]+)\]', dyn)
    if not m:
        error('%s has no SONAME' % args.lib)
    elif m.group(1) != args.soname:
        error('soname is %s, expected %s' % (m.group(1), args.soname))

    if args.static:
        for line in run([args.nm, '-g', '--defined-only', args.static]).splitlines():
            parts = line.split()
            if len(parts) != 3:
                continue  # archive member headers, blank lines
            name = parts[2]
            if not name.startswith('diskbench_'):
                error('static leak: %s defines global %s (%s); make it static '
                      'or name it diskbench__...' % (args.static, name, parts[1]))

    print('%d functions exported, %d in the map (%s), %d declared in %d headers'
          % (len(exp), len(mapped), ', '.join(nodes), len(header_api),
             len(args.headers)))
    if errors:
        for e in errors:
            print('FAIL ' + e)
        return 1
    print('ok: exports, map and headers agree; soname %s' % args.soname)
    return 0


if __name__ == '__main__':
    sys.exit(main())
