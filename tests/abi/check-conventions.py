#!/usr/bin/env python3
"""Checks the public headers against the API conventions of docs/api.md.

Each rule below is one that a reading of the headers can check; a header
that breaks one fails the test with the function or struct named.

1. Names: every function is diskbench_<object>_<verb or noun>, lower case;
   no `get_` after the object (`diskbench_report_get_info` was 0.x's),
   no `_len` (a count is `_count`), no `_at` suffix (element i is `_get`).
2. Indexed access: a function that takes an index (a `size_t` parameter
   named index or i) is the element accessor `<collection>_get`, the count
   of a nested collection (`<collection>_count` of element `index`), or a
   property of element `index` (`<collection>_<property>`, beside a
   `<collection>_get`). Every `<collection>_get` has a `<collection>_count`.
3. Options: every struct that starts with `size_t sz` and that a caller
   hands in (a `const struct X *` parameter) has both initialisers: the
   `DISKBENCH_X_INIT` macro and the `diskbench_X_init()` function (named
   for its tag, `diskbench_<tag>_init`).
4. 0.x names: a function kept under its 0.x name is declared inside
   `#ifndef DISKBENCH_DEPRECATE_HARD`, marked
   `DISKBENCH_DEPRECATED_FOR(new)`, and `new` is declared outside it. A
   rule-breaking name is allowed only there.

usage: check-conventions.py HEADER...
"""

import re
import sys




def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'),
                  text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def declarations(text):
    """Yields (name, return_type, params, deprecated_for) per function.

    deprecated_for is the new name for a declaration inside
    #ifndef DISKBENCH_DEPRECATE_HARD marked DISKBENCH_DEPRECATED_FOR(new),
    '' for a declaration inside that block without the mark, None outside.
    """
    text = strip_comments(text)
    hard = re.compile(r'#ifndef DISKBENCH_DEPRECATE_HARD\n(.*?)#endif', re.S)
    spans = [(m.start(), m.end(), m.group(1)) for m in hard.finditer(text)]
    decl = re.compile(
        r'(DISKBENCH_DEPRECATED_FOR\((\w+)\)\s*)?DISKBENCH_API\s+([^;{}()]*?)'
        r'\b(diskbench_\w+)\s*\(([^;{}]*?)\)\s*;', re.S)
    for m in decl.finditer(text):
        inside = any(a <= m.start() < b for a, b, _ in spans)
        dep = (m.group(2) or '') if inside else None
        if not inside and m.group(2):
            dep = '!' + m.group(2)  # marked but not guarded
        yield (m.group(4), ' '.join(m.group(3).split()),
               ' '.join(m.group(5).split()), dep)


def structs(text):
    """Yields (tag, first_member) for each struct defined."""
    text = strip_comments(text)
    for m in re.finditer(r'struct\s+(diskbench_\w+)\s*\{\s*([^;]*);', text):
        yield m.group(1), ' '.join(m.group(2).split())


def main():
    errors = []
    funcs = {}       # name -> (ret, params, dep)
    tags = {}        # struct tag -> first member
    macros = set()
    for path in sys.argv[1:]:
        text = open(path).read()
        for name, ret, params, dep in declarations(text):
            funcs[name] = (ret, params, dep)
        for tag, first in structs(text):
            tags[tag] = first
        macros.update(re.findall(r'#\s*define\s+(DISKBENCH_\w+)', text))
    if len(funcs) < 150:
        errors.append('found only %d functions: the parse is broken' % len(funcs))

    current = {n for n, (_, _, dep) in funcs.items() if dep is None}
    for name, (ret, params, dep) in sorted(funcs.items()):
        if dep is not None and dep.startswith('!'):
            errors.append('%s: marked DISKBENCH_DEPRECATED_FOR but not inside '
                          '#ifndef DISKBENCH_DEPRECATE_HARD' % name)
            continue
        if dep is not None:
            if not dep:
                errors.append('%s: inside #ifndef DISKBENCH_DEPRECATE_HARD '
                              'without DISKBENCH_DEPRECATED_FOR(new)' % name)
            elif dep not in current:
                errors.append('%s: deprecated for %s, which is not declared'
                              % (name, dep))
            continue
        # 1. names
        if not re.fullmatch(r'diskbench_[a-z0-9_]+', name):
            errors.append('%s: not lower case diskbench_<object>_...' % name)
        if re.match(r'diskbench_[a-z0-9]+_get_', name):
            errors.append('%s: a `get_` after the object (a property is a '
                          'noun; element i is <collection>_get)' % name)
        if name.endswith('_len') or name.endswith('_at'):
            errors.append('%s: `_len`/`_at` (a count is _count, element i '
                          'is _get)' % name)
        # 2. indexed access
        plist = [p.strip() for p in params.split(',')]
        indexed = any(re.fullmatch(r'size_t (index|i)', p) for p in plist[1:])
        if indexed:
            ok = (name.endswith('_get') or
                  any(g.endswith('_get') and name.startswith(g[:-3])
                      for g in current))
            if not ok:
                errors.append('%s: takes an index, so it is <collection>_get, '
                              'a nested _count or a property beside a _get'
                              % name)
        if name.endswith('_get') and name[:-4] + '_count' not in current:
            errors.append('%s: no %s_count beside it' % (name, name[:-4]))

    # 3. both initialisers for every option struct a caller hands in
    inputs = set()
    for name, (ret, params, dep) in funcs.items():
        inputs.update(re.findall(r'const struct (diskbench_\w+)\s*\*', params))
    for tag, first in sorted(tags.items()):
        if first != 'size_t sz' or tag not in inputs:
            continue
        short = tag[len('diskbench_'):]
        macro = 'DISKBENCH_%s_INIT' % short.upper()
        fn = 'diskbench_%s_init' % short
        if macro not in macros:
            errors.append('struct %s: no %s' % (tag, macro))
        if fn not in current:
            errors.append('struct %s: no %s()' % (tag, fn))

    for e in errors:
        print('check-conventions: ' + e)
    if errors:
        return 1
    print('check-conventions: %d functions (%d under 0.x names), %d structs: '
          'OK' % (len(funcs), len(funcs) - len(current), len(tags)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
