#!/usr/bin/env python3
"""Builds a program against an installed libdiskbench, as a user would.

1. `meson install --destdir TMP` from the build directory (no root needed:
   everything lands under TMP).
2. `cc downstream.c $(pkg-config --cflags --libs diskbench)`, with
   PKG_CONFIG_PATH at TMP's diskbench.pc and PKG_CONFIG_SYSROOT_DIR=TMP, and
   checks that the flags point into TMP, not at the source or build tree.
3. Runs it with LD_LIBRARY_PATH at TMP's libdir, checks that it loaded the
   installed libdiskbench.so.<major> and printed the right version and
   percentiles.
   (The static link, `pkg-config --static` and libdiskbench.a, is the
   consumers suite's pkg-config-static test, which shares the install
   through tests/support/install_tree.py.)
4. Builds each --example (the programs of examples/, written against the
   public headers and docs only) the same way, with -Wall -Wextra -Werror,
   and runs the one that takes a directory (custom-phase) against the
   install.
5. Builds each program of each --release DIR (tests/abi/releases/0.1, 0.2:
   the downstream program and the examples exactly as that release had
   them, 0.x names and all) against the install the same way, and runs
   those that need no disk of their own: a release's programs must build
   and run unchanged against every later 0.x or 1.x library.
6. Removes TMP.

usage: check-downstream.py --meson=WORD... --cc=WORD... --builddir DIR
         --source downstream.c --version X.Y.Z --soname NAME
         [--example FILE.c]... [--release DIR]... [--keep]

Needs the shared library: tests/abi/meson.build registers it only where
one is built.
"""

import argparse
import glob
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'support'))
import install_tree as it  # noqa: E402
from install_tree import Fail, needed, pkg_config, run  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--meson', action='append', required=True)
    ap.add_argument('--cc', action='append', required=True)
    ap.add_argument('--builddir', required=True)
    ap.add_argument('--source', required=True)
    ap.add_argument('--version', required=True)
    ap.add_argument('--soname', required=True)
    ap.add_argument('--readelf', default='readelf')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--example', action='append', default=[])
    ap.add_argument('--release', action='append', default=[])
    args = ap.parse_args()

    if shutil.which('pkg-config') is None:
        print('FAIL pkg-config is not installed')
        return 1

    with it.scratch('diskbench-downstream-', args.keep) as tmp:
        return it.main(check, args, tmp)


def check(args, tmp):
    root = os.path.join(tmp, 'root')
    env = it.clean_env()
    inst = it.install(args.meson, args.builddir, root, env)
    libdir = inst.libdir

    env['PKG_CONFIG_PATH'] = inst.pcdir
    env['PKG_CONFIG_SYSROOT_DIR'] = root

    modversion = pkg_config(env, '--modversion')
    if modversion != [args.version]:
        raise Fail('pkg-config --modversion says %r, expected %s'
                   % (modversion, args.version))

    cflags = ['-std=c99', '-Wall', '-Wextra', '-Wpedantic', '-Werror']

    # The static link (pkg-config --static, libdiskbench.a) is the
    # consumers suite's pkg-config-static test.
    flags = pkg_config(env, '--cflags', '--libs')
    it.check_flags_inside(flags, root, 'pkg-config --cflags --libs')
    exe = os.path.join(tmp, 'downstream-shared')
    run(args.cc + cflags + [args.source, '-o', exe] + flags,
        env=env, what='compiling against the installed library')
    if args.soname not in needed(args.readelf, exe):
        raise Fail('%s does not need %s' % (exe, args.soname))
    renv = dict(env, LD_LIBRARY_PATH=libdir)
    ldd = run(['ldd', exe], env=renv, what='ldd')
    lib_line = [l for l in ldd.splitlines() if args.soname in l]
    if not lib_line or root not in lib_line[0]:
        raise Fail('%s did not resolve to the installed copy: %r'
                   % (args.soname, lib_line))
    it.check_downstream_output(run([exe], env=renv,
                                   what='the shared program'),
                               args.version)
    print('ok shared: built with pkg-config, ran against the install')

    if args.example:
        flags = pkg_config(env, '--cflags', '--libs')
        renv = dict(env, LD_LIBRARY_PATH=libdir)
        for src in args.example:
            name = os.path.splitext(os.path.basename(src))[0]
            exe = os.path.join(tmp, name)
            run(args.cc + ['-std=c11', '-Wall', '-Wextra', '-Werror',
                           '-D_POSIX_C_SOURCE=200809L', src, '-o', exe] +
                flags + ['-lm'], env=env,
                what='building examples/%s.c against the install' % name)
            if name == 'custom-phase':
                work = os.path.join(tmp, 'work')
                os.mkdir(work)
                run([exe, work, '20'], env=renv, what='running ' + name)
                if os.listdir(work):
                    raise Fail('%s left %r' % (name, os.listdir(work)))
        print('ok examples: %d built against the install' % len(args.example))

    if args.release:
        flags = pkg_config(env, '--cflags', '--libs')
        renv = dict(env, LD_LIBRARY_PATH=libdir)
        for rel in args.release:
            tag = os.path.basename(rel.rstrip('/'))
            srcs = sorted(glob.glob(os.path.join(rel, '*.c')))
            if not srcs:
                raise Fail('release %s: no programs in %s' % (tag, rel))
            ran = 0
            for src in srcs:
                name = os.path.splitext(os.path.basename(src))[0]
                exe = os.path.join(tmp, 'rel-%s-%s' % (tag, name))
                run(args.cc + ['-std=c11', '-Wall', '-Wextra', '-Werror',
                               '-D_POSIX_C_SOURCE=200809L', '-I', rel,
                               src, '-o', exe] + flags + ['-lm'], env=env,
                    what='building %s\'s %s.c against the install'
                    % (tag, name))
                work = os.path.join(tmp, 'work-%s-%s' % (tag, name))
                os.mkdir(work)
                argv = {
                    'downstream': [],
                    'latency-histogram': ['2000'],
                    'custom-phase': [work, '20'],
                    'stalling-engine': [os.path.join(tmp, tag + '.html'),
                                        work, '-s', '2', '-t', '20'],
                }.get(name)
                if argv is None:
                    continue  # built only: it needs a disk of its own
                out = run([exe] + argv, env=renv,
                          what='running %s\'s %s' % (tag, name))
                if name == 'downstream' and 'library %s' % args.version not in out:
                    raise Fail('%s\'s downstream did not load library %s'
                               % (tag, args.version))
                if os.listdir(work):
                    raise Fail('%s\'s %s left %r' % (tag, name, os.listdir(work)))
                ran += 1
            print('ok release %s: %d programs built unchanged against the '
                  'install, %d ran' % (tag, len(srcs), ran))


if __name__ == '__main__':
    sys.exit(main())
