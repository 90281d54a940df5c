#!/usr/bin/env python3
"""Checks that the library's files are layered: no circle of calls.

Reads the object files of the library (the static archive built without
visibility, so every internal function is a symbol) and draws an arrow
from file A to file B when A uses a function or variable that B defines.
Fails when the arrows make a circle: two files that call each other, or
a longer loop (report/report.c -> format/json.c -> report/report.c). Each file then
has a place: below the files it calls, above those that call it
(docs/architecture.md lists them).

Also fails when lib/DIR/NAME-internal.h declares a function that
lib/DIR/NAME.c does not define: an internal header is named after the file
it belongs to, so that a reader finds the code of a declaration without
searching. A platform's seam, lib/DIR/NAME-platform.h, is defined by one
of lib/DIR/NAME-PLATFORM.c (the one this build compiled): it fails when a
function it declares is defined anywhere else.

With --doc, also fails when a file calls one in a higher layer than its
own, the layers being the "### N. name: `lib/DIR/`" sections of
docs/architecture.md under which each lib/ file and each public header is
named; when a file is not in its layer's folder (or a folder is no
layer's); and when a
file of lib/ includes a header of a higher layer: an internal header
("core/hist-internal.h", its layer its file's) or a public one
(<diskbench/run.h>, its layer the one the page names it in). Includes are
read from the sources, so that what the symbols cannot show (an inline
function, a struct's fields read across files) is caught too.

usage: check-layers.py --nm NM --archive LIB.a --libdir DIR [--doc FILE]
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys


def lib_files(libdir):
    """The library's sources and headers, as paths below lib/."""
    found = []
    for root, _, names in os.walk(libdir):
        for n in names:
            if n.endswith(('.c', '.h')):
                found.append(os.path.relpath(os.path.join(root, n), libdir))
    return sorted(found)


def member_names(libdir):
    """{object member name: source path below lib/}: meson names the object
    of lib/DIR/NAME.c "DIR_NAME.c.o"."""
    return {f.replace('/', '_'): f for f in lib_files(libdir) if f.endswith('.c')}


def read_symbols(nm, archive, members):
    """({symbol: defining file}, {file: set of undefined symbols})."""
    out = subprocess.run([nm, '-A', archive], capture_output=True, text=True,
                         check=True).stdout
    defs, uses = {}, collections.defaultdict(set)
    for line in out.splitlines():
        # "archive:member.o:0000000000000010 T name" or "archive:member.o:  U name"
        head, _, rest = line.rpartition(':')
        parts = head.split(':')
        member = os.path.basename(parts[-1]) if len(parts) > 1 else head
        member = re.sub(r'\.o(bj)?$', '', member)
        member = members.get(member, member)
        fields = rest.split()
        if len(fields) == 2 and fields[0] == 'U':
            uses[member].add(fields[1])
        elif len(fields) == 3 and fields[1] in 'TDBRVWG':
            defs[fields[2]] = member
        uses.setdefault(member, set())
    return defs, uses


def circles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def header_owners(libdir, defs):
    """Lines 'X-internal.h declares f, defined in Y.c' for every mismatch,
    and 'X-platform.h declares f, defined in Y.c' where Y is not X-*.c."""
    bad = []
    for rel in lib_files(libdir):
        if rel.endswith('-internal.h'):
            owner = rel[:-len('-internal.h')] + '.c'
            owns = lambda where, owner=owner: where == owner
        elif rel.endswith('-platform.h'):
            stem = rel[:-len('-platform.h')] + '-'
            owner = stem + 'PLATFORM.c'
            owns = lambda where, stem=stem: (where.startswith(stem) and
                                             where.endswith('.c'))
        else:
            continue
        h = os.path.join(libdir, rel)
        text = open(h, encoding='utf-8').read()
        text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
        # Inline functions are the header's own code, not declarations.
        text = re.sub(r'static\s+inline[^;{]*\{.*?\n\}', '', text, flags=re.S)
        for name in sorted(set(re.findall(r'\b(diskbench_\w+)\s*\(', text))):
            where = defs.get(name)
            if where and not owns(where):
                bad.append('lib/%s declares %s, defined in lib/%s'
                           % (rel, name, where))
    return bad


def doc_folders(path):
    """{layer number: its folder below lib/}, from "### N. name: `lib/DIR/`"."""
    folders = {}
    for line in open(path, encoding='utf-8'):
        m = re.match(r'###\s+(\d+)\..*`lib/([A-Za-z0-9_-]+)/`', line)
        if m:
            folders[int(m.group(1))] = m.group(2)
    return folders


def folder_problems(libdir, layer, folders):
    """Lines for a file outside its layer's folder, or a folder no layer has."""
    bad = []
    for f, n in sorted(layer.items()):
        if f.startswith('<'):
            continue
        want = folders.get(n)
        if want is None:
            bad.append('layer %d of the page names no folder' % n)
        elif os.path.dirname(f) != want:
            bad.append('lib/%s is in layer %d, whose folder is lib/%s/'
                       % (f, n, want))
    for d in sorted(os.listdir(libdir)):
        if os.path.isdir(os.path.join(libdir, d)) and d not in folders.values():
            bad.append('lib/%s/ is the folder of no layer of the page' % d)
    return sorted(set(bad))


def doc_layers(path):
    """{file: layer number} from the "### N. name" sections of the page."""
    layers, current = {}, None
    for line in open(path, encoding='utf-8'):
        m = re.match(r'###\s+(\d+)\.', line)
        if m:
            current = int(m.group(1))
            continue
        if line.startswith('#'):
            current = None
            continue
        if current is not None:
            for name in re.findall(r'`lib/([A-Za-z0-9_./+-]+\.c)`', line):
                layers[name] = current
            for name in re.findall(r'`include/(diskbench[A-Za-z0-9_./+-]*\.h)(?:\.in)?`', line):
                layers['<%s>' % name] = current
    return layers


def include_problems(libdir, layer):
    """Lines for every include of a higher layer's header by a lib/ file."""
    bad = []
    for rel in lib_files(libdir):
        own = rel[:-len('-internal.h')] + '.c' if rel.endswith('-internal.h') \
            else rel[:-2] + '.c'
        if own not in layer:
            continue
        text = open(os.path.join(libdir, rel), encoding='utf-8').read()
        for m in re.finditer(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', text, re.M):
            kind, inc = m.groups()
            if kind == '"':
                if not inc.endswith('-internal.h'):
                    continue
                if not os.path.exists(os.path.join(libdir, inc)):
                    bad.append('lib/%s includes "%s", which is not a path '
                               'below lib/' % (rel, inc))
                    continue
                target, name = inc[:-len('-internal.h')] + '.c', '"%s"' % inc
            else:
                if not inc.startswith('diskbench'):
                    continue
                target = name = '<%s>' % inc
                if target not in layer:
                    bad.append('lib/%s includes %s, a public header in no '
                               'layer of the page' % (rel, name))
                    continue
            if target in layer and layer[target] > layer[own]:
                bad.append('lib/%s (layer %d) includes %s (layer %d, above it)'
                           % (rel, layer[own], name, layer[target]))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--nm', required=True)
    ap.add_argument('--archive', required=True)
    ap.add_argument('--libdir', required=True)
    ap.add_argument('--doc')
    args = ap.parse_args()

    defs, uses = read_symbols(args.nm, args.archive, member_names(args.libdir))
    if len(uses) < 10:
        print('FAIL read %d object files from %s: not the library'
              % (len(uses), args.archive))
        return 1
    graph = collections.defaultdict(dict)
    for f, names in uses.items():
        graph.setdefault(f, {})
        for n in names:
            g = defs.get(n)
            if g and g != f:
                graph[f].setdefault(g, []).append(n)
    ok = True
    for comp in circles(graph):
        ok = False
        print('FAIL these files call each other in a circle: %s'
              % ', '.join(comp))
        for a in comp:
            for b in comp:
                if b in graph[a]:
                    names = sorted(graph[a][b])
                    more = ' and %d more' % (len(names) - 4) if len(names) > 4 else ''
                    print('  %s -> %s: %s%s' % (a, b, ', '.join(names[:4]), more))
    for line in header_owners(args.libdir, defs):
        ok = False
        print('FAIL ' + line)
    if args.doc:
        layer = doc_layers(args.doc)
        for f in sorted(graph):
            if f not in layer:
                ok = False
                print('FAIL lib/%s is in no layer of %s' % (f, args.doc))
                continue
            for g, names in sorted(graph[f].items()):
                if g in layer and layer[g] > layer[f]:
                    ok = False
                    print('FAIL lib/%s (layer %d) calls lib/%s (layer %d, '
                          'above it): %s' % (f, layer[f], g, layer[g],
                                             ', '.join(sorted(names)[:4])))
        for line in folder_problems(args.libdir, layer,
                                    doc_folders(args.doc)):
            ok = False
            print('FAIL ' + line)
        includes = include_problems(args.libdir, layer)
        for line in includes:
            ok = False
            print('FAIL ' + line)
        if not any(k.startswith('<') for k in layer):
            ok = False
            print('FAIL %s names no public header in a layer' % args.doc)
    edges = sum(len(v) for v in graph.values())
    print('%d files, %d arrows between them%s'
          % (len(graph), edges, ', no circle' if ok else ''))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
