#!/usr/bin/env python3
"""A program built with pkg-config against the installed libdiskbench,
where pkg-config sees diskbench.pc and nothing else.

`meson install --destdir TMP` (tests/support/install_tree.py), then
tests/abi/downstream.c is built with PKG_CONFIG_LIBDIR at TMP's pkgconfig
folder alone, so that no liburing, jansson or zlib .pc is reachable (a
machine with only the library's runtime packages, or a sysroot without
their development files), and PKG_CONFIG_SYSROOT_DIR=TMP; the flags must
point into TMP, at folders that exist.

--mode shared: `pkg-config --cflags --libs diskbench` (it failed while
  diskbench.pc named its private libraries in Requires.private), the
  program needs libdiskbench.so.<major>, runs against the install and
  prints the right version and percentiles. Then a CMake project takes the
  library through pkg_check_modules(... IMPORTED_TARGET diskbench) under
  the same sysroot, with the system's .pc files reachable this time: CMake
  refuses an imported target whose include folder does not exist (the
  sysroot's copy of liburing's /usr/include, once), and the program it
  builds must run.
--mode static: `pkg-config --static --cflags --libs diskbench` (Libs.private
  must name every library a static link needs, as -l flags), linked
  against TMP's libdiskbench.a; the program must need no libdiskbench.so,
  and runs.

A missing pkg-config or cmake fails the test: scripts/test installs both.

usage: check_pkgconfig.py --mode shared|static --meson=WORD... --cc=WORD...
         --builddir DIR --source downstream.c --version X.Y.Z --soname NAME
         [--readelf PATH] [--keep]
"""

import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'support'))
import install_tree as it  # noqa: E402
from install_tree import Fail, pkg_config, run  # noqa: E402

CFLAGS = ['-std=c99', '-Wall', '-Wextra', '-Wpedantic', '-Werror']

CMAKELISTS = '''cmake_minimum_required(VERSION 3.13)
project(diskbench_pkgconfig C)
find_package(PkgConfig REQUIRED)
pkg_check_modules(DISKBENCH REQUIRED IMPORTED_TARGET diskbench)
add_executable(consumer "{source}")
target_link_libraries(consumer PRIVATE PkgConfig::DISKBENCH)
'''


def sysroot_env(env, inst, only_ours):
    env = dict(env, PKG_CONFIG_SYSROOT_DIR=inst.root)
    if only_ours:
        # LIBDIR replaces pkg-config's own search path: nothing of the
        # system's is reachable.
        env['PKG_CONFIG_LIBDIR'] = inst.pcdir
    else:
        env['PKG_CONFIG_PATH'] = inst.pcdir
    return env


def check_shared(args, tmp, env, inst):
    penv = sysroot_env(env, inst, True)
    flags = pkg_config(penv, '--cflags', '--libs')
    it.check_flags_inside(flags, inst.root, 'pkg-config --cflags --libs')
    exe = os.path.join(tmp, 'downstream-shared')
    run(args.cc + CFLAGS + [args.source, '-o', exe] + flags, env=penv,
        what='compiling against the installed library')
    if args.soname not in it.needed(args.readelf, exe):
        raise Fail('%s does not need %s' % (exe, args.soname))
    renv = dict(env, LD_LIBRARY_PATH=inst.libdir)
    it.check_downstream_output(run([exe], env=renv, what='the program'),
                               args.version)
    print('ok shared: pkg-config with diskbench.pc alone, built, ran')

    if shutil.which('cmake') is None:
        raise Fail('cmake is not installed (Debian package cmake; '
                   'scripts/test installs it)')
    src = os.path.join(tmp, 'cmake-src')
    bld = os.path.join(tmp, 'cmake-build')
    os.makedirs(src)
    with open(os.path.join(src, 'CMakeLists.txt'), 'w') as f:
        f.write(CMAKELISTS.format(source=os.path.abspath(args.source)))
    cenv = sysroot_env(env, inst, False)
    run(['cmake', '-S', src, '-B', bld], env=cenv,
        what='cmake configure with pkg_check_modules(IMPORTED_TARGET)')
    run(['cmake', '--build', bld], env=cenv, what='cmake --build')
    it.check_downstream_output(run([os.path.join(bld, 'consumer')], env=renv,
                                   what='the CMake program'),
                               args.version)
    print('ok shared: pkg_check_modules(IMPORTED_TARGET diskbench) under the '
          'sysroot, built, ran')


def check_static(args, tmp, env, inst):
    penv = sysroot_env(env, inst, True)
    flags = pkg_config(penv, '--static', '--cflags', '--libs')
    it.check_flags_inside(flags, inst.root, 'pkg-config --static')
    if '-ldiskbench' not in flags:
        raise Fail('pkg-config --static --libs has no -ldiskbench')
    if not os.path.isfile(os.path.join(inst.libdir, 'libdiskbench.a')):
        raise Fail('no libdiskbench.a in %s' % inst.libdir)
    # Both the .so and the .a are installed; -l:libdiskbench.a makes the
    # linker take the archive, the rest of the flags unchanged.
    flags = ['-l:libdiskbench.a' if f == '-ldiskbench' else f for f in flags]
    exe = os.path.join(tmp, 'downstream-static')
    run(args.cc + CFLAGS + [args.source, '-o', exe] + flags, env=penv,
        what='linking the installed libdiskbench.a')
    bad = [n for n in it.needed(args.readelf, exe) if 'diskbench' in n]
    if bad:
        raise Fail('the static program still needs %r' % bad)
    it.check_downstream_output(run([exe], env=env, what='the static program'),
                               args.version)
    print('ok static: pkg-config --static with diskbench.pc alone, linked '
          'libdiskbench.a, ran')


def check(args, tmp):
    env = it.clean_env()
    inst = it.install(args.meson, args.builddir, os.path.join(tmp, 'root'),
                      env)
    if args.mode == 'shared':
        check_shared(args, tmp, env, inst)
    else:
        check_static(args, tmp, env, inst)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mode', choices=['shared', 'static'], required=True)
    ap.add_argument('--meson', action='append', required=True)
    ap.add_argument('--cc', action='append', required=True)
    ap.add_argument('--builddir', required=True)
    ap.add_argument('--source', required=True)
    ap.add_argument('--version', required=True)
    ap.add_argument('--soname', required=True)
    ap.add_argument('--readelf', default='readelf')
    ap.add_argument('--keep', action='store_true')
    args = ap.parse_args()

    if shutil.which('pkg-config') is None:
        print('FAIL pkg-config is not installed')
        return 1
    with it.scratch('diskbench-pkgconfig-', args.keep) as tmp:
        return it.main(check, args, tmp)


if __name__ == '__main__':
    sys.exit(main())
