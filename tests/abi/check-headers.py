#!/usr/bin/env python3
"""Compiles each public header alone, as C99 and as C++, with warnings as errors.

A header that needs another one included first, uses a GNU extension, or
warns under -Wpedantic fails here. Each header becomes a
one-line translation unit of its own, so the test does not depend on the
project's compiler arguments (-D_GNU_SOURCE and the like), only on the
compiler a user would run.

Then the 1.0 compatibility modes, each a small unit that must compile or
must fail: a 0.x name compiles without a word by default (C99, -Werror),
warns with DISKBENCH_DEPRECATION_WARNINGS (so -Werror fails, naming the new
name), is undeclared with DISKBENCH_DEPRECATE_HARD (where the 1.0 names
compile); and in C11 diskbench_result_merge() and diskbench_report_add()
take an array of owned or of borrowed results without a cast, and refuse
an array of anything else; and a custom phase makes its files and
requests with <diskbench.h> alone, in 1.0 mode too (no engine writer's
header).

It checks the layering: a part header includes only parts that come
before it in the umbrella header's order (common.h and types.h first, the
bonnie++ suite last), so that no header needs one above it.

It also checks that the list it was given is complete: every *.h in
--partdir and its sys/ is in it (else meson would neither test nor install the header),
and the umbrella header includes every one of them.

Then the C++ program --program (tests/abi/umbrella.cpp), which includes
every public header and uses every *_INIT macro of --partdir's headers
(a macro it does not use fails the test), is compiled with each C++
compiler given (--cxx, the project's, and --cxx-alt, the other of g++ and
clang++) as C++11 and as C++17, with -Wold-style-cast and
-Wzero-as-null-pointer-constant among the errors: the macros a C++ user
expands in their own code must take the warnings such a build turns on.

usage: check-headers.py --cc=WORD... [--cxx=WORD...] [--cxx-alt=WORD...]
                        -I DIR... [--partdir DIR --umbrella FILE]
                        [--program FILE.cpp] -- HEADER...
  --cc/--cxx are given once per word of the compiler command (as meson's
  compiler.cmd_array() has it). HEADER is the name a user writes in
  #include <...>, e.g. diskbench/hist.h. Without --cxx the C++ half fails:
  no C++ compiler is no pass; with --program, so does a missing --cxx-alt.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

C_FLAGS = ['-std=c99', '-Wall', '-Wextra', '-Wpedantic', '-Werror',
           '-Wstrict-prototypes', '-Wmissing-prototypes', '-Wundef',
           '-Wshadow']
CXX_FLAGS = ['-std=c++11', '-Wall', '-Wextra', '-Wpedantic', '-Werror',
             '-Wundef', '-Wshadow', '-Wold-style-cast',
             '-Wzero-as-null-pointer-constant']
CXX_STDS = ['-std=c++11', '-std=c++17']


def compile_one(cmd, flags, incdirs, header, lang, tmp):
    suffix = '.c' if lang == 'c' else '.cpp'
    base = header.replace('/', '_').replace('.', '_')
    src = os.path.join(tmp, base + suffix)
    with open(src, 'w') as f:
        f.write('#include <%s>\n' % header)
        # ISO C forbids an empty translation unit; the include may be empty
        # if a guard were wrong, so give the unit something of its own.
        f.write('int headertest_%s(void);\n' % base)
        f.write('int headertest_%s(void) { return 0; }\n' % base)
    obj = os.path.join(tmp, base + suffix + '.o')
    argv = list(cmd) + flags + ['-I' + d for d in incdirs] + ['-c', src, '-o', obj]
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode != 0:
        print('FAIL %-4s <%s>\n  %s\n%s' % (lang, header, ' '.join(argv), r.stdout))
        return False
    print('ok   %-4s <%s>' % (lang, header))
    return True


MODES = [
    # (what, flags, source, must compile, text the failure must show)
    ('0.x names, no flags', ['-std=c99'],
     'size_t f(const struct diskbench_timeline *t) '
     '{ return diskbench_timeline_len(t) + '
     '(diskbench_run_result(NULL, 0) != NULL); }', True, None),
    ('0.x names, DISKBENCH_DEPRECATION_WARNINGS',
     ['-std=c99', '-DDISKBENCH_DEPRECATION_WARNINGS'],
     'size_t f(const struct diskbench_timeline *t) '
     '{ return diskbench_timeline_len(t); }', False,
     'use diskbench_timeline_count()'),
    ('0.x names, DISKBENCH_DEPRECATE_HARD',
     ['-std=c99', '-DDISKBENCH_DEPRECATE_HARD'],
     'size_t f(const struct diskbench_timeline *t) '
     '{ return diskbench_timeline_len(t); }', False, 'diskbench_timeline_len'),
    ('1.0 names, DISKBENCH_DEPRECATE_HARD',
     ['-std=c99', '-DDISKBENCH_DEPRECATE_HARD',
      '-DDISKBENCH_DEPRECATION_WARNINGS'],
     'size_t f(const struct diskbench_timeline *t) '
     '{ return diskbench_timeline_count(t) + '
     '(diskbench_run_result_get(NULL, 0) != NULL); }', True, None),
    ('sys/ opt-in: an engine table without <diskbench/sys/engine.h>, '
     'DISKBENCH_DEPRECATE_HARD', ['-std=c99', '-DDISKBENCH_DEPRECATE_HARD'],
     'size_t f(void) { struct diskbench_engine_ops o = '
     'DISKBENCH_ENGINE_OPS_INIT; return o.sz; }', False,
     'DISKBENCH_ENGINE_OPS_INIT'),
    ('sys/ opt-in: the same with <diskbench/sys/engine.h>',
     ['-std=c99', '-DDISKBENCH_DEPRECATE_HARD', '-include',
      'diskbench/sys/engine.h'],
     'size_t f(void) { struct diskbench_engine_ops o = '
     'DISKBENCH_ENGINE_OPS_INIT; return o.sz; }', True, None),
    ('a custom phase\'s files and requests without <diskbench/sys/engine.h> '
     '(examples/custom-phase.c\'s calls), DISKBENCH_DEPRECATE_HARD',
     ['-std=c99', '-DDISKBENCH_DEPRECATE_HARD'],
     'int f(struct diskbench_custom_ctx *ctx) { static char b[4096];\n'
     '  int64_t h; int err = diskbench_custom_file(ctx, 0,\n'
     '    DISKBENCH_CUSTOM_FILE_DIRECT | DISKBENCH_CUSTOM_FILE_SYNC, &h);\n'
     '  if (err < 0) return err;\n'
     '  if (diskbench_custom_write(ctx, h, b, sizeof(b), 0) < 0) return -1;\n'
     '  diskbench_custom_time_from_here(ctx);\n'
     '  if (diskbench_custom_read(ctx, h, b, sizeof(b), 0) < 0) return -1;\n'
     '  return diskbench_custom_fsync(ctx, h); }', True, None),
    ('sys/ for 0.x sources: the engine table through <diskbench.h>',
     ['-std=c99'],
     'size_t f(void) { struct diskbench_engine_ops o = '
     'DISKBENCH_ENGINE_OPS_INIT; return o.sz; }', True, None),
    ('owned and borrowed result arrays, C11', ['-std=c11'],
     'int f(struct diskbench_report *r, struct diskbench_result **m) {\n'
     '  struct diskbench_result *own[2] = { NULL, NULL };\n'
     '  const struct diskbench_result *borrowed[2] = { NULL, NULL };\n'
     '  struct diskbench_result *const fixed[1] = { NULL };\n'
     '  return diskbench_report_add(r, NULL, own, 2) +\n'
     '         diskbench_report_add(r, NULL, borrowed, 2) +\n'
     '         diskbench_report_add(r, NULL, NULL, 0) +\n'
     '         diskbench_result_merge(m, own, NULL, 2, NULL) +\n'
     '         diskbench_result_merge(m, borrowed, NULL, 2, NULL) +\n'
     '         diskbench_result_merge(m, fixed, NULL, 1, NULL); }', True, None),
    ('an array of something else, C11', ['-std=c11'],
     'int f(struct diskbench_report *r) { int *x[2] = { NULL, NULL };\n'
     '  return diskbench_report_add(r, NULL, x, 2); }', False, '_Generic'),
]


def check_modes(cmd, incdirs, tmp):
    ok = True
    for i, (what, flags, body, must_compile, shows) in enumerate(MODES):
        src = os.path.join(tmp, 'mode%d.c' % i)
        with open(src, 'w') as f:
            f.write('#include <diskbench.h>\nint modetest(void);\n'
                    'int modetest(void) { return 0; }\n')
            f.write(body.replace('int f(', 'static int f(')
                        .replace('size_t f(', 'static size_t f(') + '\n')
        argv = (list(cmd) + flags +
                [x for x in C_FLAGS if not x.startswith('-std=')] +
                ['-Wno-unused-function'] +
                ['-I' + d for d in incdirs] + ['-c', src, '-o', src + '.o'])
        r = subprocess.run(argv, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        compiled = r.returncode == 0
        if compiled != must_compile:
            print('FAIL mode %s: %s\n  %s\n%s' % (
                what, 'compiled' if compiled else 'did not compile',
                ' '.join(argv), r.stdout))
            ok = False
        elif shows and shows not in r.stdout:
            print('FAIL mode %s: failed without %r\n%s' % (what, shows, r.stdout))
            ok = False
        else:
            print('ok   mode %s (%s)' % (what, 'compiles' if must_compile
                                         else 'refused'))
    return ok


def check_program(compilers, incdirs, program, partdir, tmp):
    """--program uses every *_INIT macro and compiles with every compiler
    and standard, as a strict C++ user's build would."""
    ok = True
    macros = set()
    for pat in ('*.h', os.path.join('sys', '*.h')):
        for path in glob.glob(os.path.join(partdir, pat)):
            with open(path) as f:
                macros.update(re.findall(r'^\s*#\s*define\s+(DISKBENCH_\w+_INIT)\b',
                                         f.read(), flags=re.M))
    with open(program) as f:
        used = set(re.findall(r'\bDISKBENCH_\w+_INIT\b', f.read()))
    if len(macros) < 10:
        print('FAIL found only %d *_INIT macros in %s' % (len(macros), partdir))
        ok = False
    for m in sorted(macros - used):
        print('FAIL %s does not use %s' % (os.path.basename(program), m))
        ok = False
    if ok:
        print('ok   %s uses all %d *_INIT macros'
              % (os.path.basename(program), len(macros)))
    for cmd in compilers:
        for std in CXX_STDS:
            flags = [std] + [f for f in CXX_FLAGS if not f.startswith('-std=')]
            obj = os.path.join(tmp, 'program%s.o' % std[5:].replace('+', 'p'))
            argv = (list(cmd) + flags + ['-I' + d for d in incdirs] +
                    ['-c', program, '-o', obj])
            r = subprocess.run(argv, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, universal_newlines=True)
            if r.returncode != 0:
                print('FAIL %s %s\n  %s\n%s' % (' '.join(cmd), std,
                                                 ' '.join(argv), r.stdout))
                ok = False
            else:
                print('ok   %s %s: %s' % (' '.join(cmd), std,
                                          os.path.basename(program)))
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cc', action='append', required=True)
    ap.add_argument('--cxx', action='append', default=None)
    ap.add_argument('--cxx-alt', action='append', default=None)
    ap.add_argument('--program')
    ap.add_argument('-I', dest='incdirs', action='append', default=[])
    ap.add_argument('--partdir')
    ap.add_argument('--umbrella')
    ap.add_argument('headers', nargs='+')
    args = ap.parse_args()

    ok = True
    if args.partdir:
        parts = {'diskbench/' + os.path.relpath(p, args.partdir)
                 for pat in ('*.h', os.path.join('sys', '*.h'))
                 for p in glob.glob(os.path.join(args.partdir, pat))}
        for h in sorted(parts - set(args.headers)):
            print('FAIL <%s> is not in public_header_names '
                  '(include/diskbench/meson.build)' % h)
            ok = False
    if args.umbrella:
        with open(args.umbrella) as f:
            included = set(re.findall(r'^\s*#\s*include\s*<([^>]+)>', f.read(),
                                      flags=re.M))
        umbrella_name = os.path.basename(args.umbrella)
        for h in args.headers:
            if h != umbrella_name and h not in included:
                print('FAIL <%s> does not include <%s>' % (umbrella_name, h))
                ok = False
        if args.partdir:
            with open(args.umbrella) as f:
                order = re.findall(r'^\s*#\s*include\s*<(diskbench/[^>]+)>',
                                   f.read(), flags=re.M)
            rank = {h: i for i, h in enumerate(order)}
            for h in order:
                path = os.path.join(args.partdir, os.path.relpath(h, 'diskbench'))
                if not os.path.exists(path):
                    continue  # generated (version.h)
                with open(path) as f:
                    text = f.read()
                # What a header includes for 0.x sources only is no need of
                # its own: the 1.0 headers stand without it.
                text = re.sub(r'#ifndef DISKBENCH_DEPRECATE_HARD\n.*?#endif',
                              '', text, flags=re.S)
                deps = re.findall(r'^\s*#\s*include\s*<(diskbench/[^>]+)>',
                                  text, flags=re.M)
                for d in deps:
                    if d not in rank or rank[d] >= rank[h]:
                        print('FAIL <%s> includes <%s>, which is not before it '
                              'in <%s>: a header needs only the ones below it'
                              % (h, d, umbrella_name))
                        ok = False
            print('ok   layering: %d part headers, each including only those '
                  'before it' % len(order))
    with tempfile.TemporaryDirectory(prefix='diskbench-headers-') as tmp:
        for h in args.headers:
            ok &= compile_one(args.cc, C_FLAGS, args.incdirs, h, 'c', tmp)
        ok &= check_modes(args.cc, args.incdirs, tmp)
        if args.cxx:
            for h in args.headers:
                ok &= compile_one(args.cxx, CXX_FLAGS, args.incdirs, h, 'c++', tmp)
            if args.program:
                if not args.cxx_alt:
                    print('FAIL c++: the second C++ compiler (g++ or clang++, '
                          'the one the build does not use) was not found; '
                          'install it (Debian packages g++, clang)')
                    ok = False
                if not args.partdir:
                    print('FAIL --program needs --partdir')
                    ok = False
                else:
                    ok &= check_program([args.cxx] + ([args.cxx_alt] if args.cxx_alt
                                                      else []),
                                        args.incdirs, args.program,
                                        args.partdir, tmp)
        else:
            print('FAIL c++: no C++ compiler was found at configure time; '
                  'install g++ (or configure with -Dtests=false)')
            ok = False
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
