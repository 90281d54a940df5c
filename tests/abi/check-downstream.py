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
4. Links it again against the installed libdiskbench.a with
   `pkg-config --static` (so Libs.private must be complete), checks that no
   libdiskbench.so is needed, and runs it.
5. Builds each --example (the programs of examples/, written against the
   public headers and docs only) the same way, with -Wall -Wextra -Werror,
   and runs the one that takes a directory (custom-phase) against the
   install.
6. Builds each program of each --release DIR (tests/abi/releases/0.1, 0.2:
   the downstream program and the examples exactly as that release had
   them, 0.x names and all) against the install the same way, and runs
   those that need no disk of their own: a release's programs must build
   and run unchanged against every later 0.x or 1.x library.
7. Removes TMP.

usage: check-downstream.py --meson=WORD... --cc=WORD... --builddir DIR
         --source downstream.c --version X.Y.Z --soname NAME
         [--example FILE.c]... [--release DIR]... [--no-shared]
         [--no-static] [--keep]
"""

import argparse
import glob
import os
import shlex
import shutil
import subprocess
import sys
import tempfile


class Fail(Exception):
    pass


def run(argv, env=None, what=None):
    print('$ ' + ' '.join(shlex.quote(a) for a in argv), flush=True)
    r = subprocess.run(argv, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if r.stdout:
        print(r.stdout.rstrip())
    if r.returncode != 0:
        raise Fail('%s failed with status %d' % (what or argv[0], r.returncode))
    return r.stdout


def pkg_config(env, *args):
    out = run(['pkg-config'] + list(args) + ['diskbench'], env=env,
              what='pkg-config ' + ' '.join(args))
    return shlex.split(out)


def check_flags_inside(flags, root, what):
    for f in flags:
        for prefix in ('-I', '-L'):
            if f.startswith(prefix):
                path = os.path.realpath(f[len(prefix):])
                if not path.startswith(os.path.realpath(root) + os.sep):
                    raise Fail('%s: %s points outside the install in %s'
                               % (what, f, root))


def check_output(out, version):
    want = {
        'headers': version,
        'library': version,
        'count': '100',
        'p50': '50',
        'p99': '99',
        'max': '100',
    }
    got = dict(line.split(' ', 1) for line in out.splitlines() if ' ' in line)
    for key, value in want.items():
        if got.get(key) != value:
            raise Fail('program printed %s %r, expected %r'
                       % (key, got.get(key), value))


def needed(readelf, binary):
    out = subprocess.run([readelf, '-d', binary], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    return [line.split('[', 1)[1].rstrip(']')
            for line in out.splitlines() if '(NEEDED)' in line]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--meson', action='append', required=True)
    ap.add_argument('--cc', action='append', required=True)
    ap.add_argument('--builddir', required=True)
    ap.add_argument('--source', required=True)
    ap.add_argument('--version', required=True)
    ap.add_argument('--soname', required=True)
    ap.add_argument('--readelf', default='readelf')
    ap.add_argument('--no-shared', action='store_true')
    ap.add_argument('--no-static', action='store_true')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--example', action='append', default=[])
    ap.add_argument('--release', action='append', default=[])
    args = ap.parse_args()

    if shutil.which('pkg-config') is None:
        print('FAIL pkg-config is not installed')
        return 1

    tmp = tempfile.mkdtemp(prefix='diskbench-downstream-')
    root = os.path.join(tmp, 'root')
    try:
        env = dict(os.environ)
        env.pop('DESTDIR', None)
        run(args.meson + ['install', '-C', args.builddir, '--no-rebuild',
                          '--quiet', '--destdir', root], env=env,
            what='meson install')

        pcs = glob.glob(os.path.join(root, '**', 'pkgconfig', 'diskbench.pc'),
                        recursive=True)
        if len(pcs) != 1:
            raise Fail('expected one installed diskbench.pc, found %r' % pcs)
        pcdir = os.path.dirname(pcs[0])
        libdir = os.path.dirname(pcdir)
        print('installed: %s' % os.path.relpath(pcs[0], root))

        env['PKG_CONFIG_PATH'] = pcdir
        env['PKG_CONFIG_SYSROOT_DIR'] = root
        # A user's environment may point pkg-config elsewhere; don't let it.
        env.pop('PKG_CONFIG_LIBDIR', None)
        env.pop('LD_LIBRARY_PATH', None)

        modversion = pkg_config(env, '--modversion')
        if modversion != [args.version]:
            raise Fail('pkg-config --modversion says %r, expected %s'
                       % (modversion, args.version))

        cflags = ['-std=c99', '-Wall', '-Wextra', '-Wpedantic', '-Werror']
        checked = 0

        if not args.no_shared:
            flags = pkg_config(env, '--cflags', '--libs')
            check_flags_inside(flags, root, 'pkg-config --cflags --libs')
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
            check_output(run([exe], env=renv, what='the shared program'),
                         args.version)
            print('ok shared: built with pkg-config, ran against the install')
            checked += 1

        if not args.no_static:
            flags = pkg_config(env, '--static', '--cflags', '--libs')
            check_flags_inside(flags, root, 'pkg-config --static')
            if '-ldiskbench' not in flags:
                raise Fail('pkg-config --static --libs has no -ldiskbench')
            # Both the .so and the .a are installed; -l:libdiskbench.a makes
            # the linker take the archive, the rest of the flags unchanged.
            flags = ['-l:libdiskbench.a' if f == '-ldiskbench' else f
                     for f in flags]
            exe = os.path.join(tmp, 'downstream-static')
            run(args.cc + cflags + [args.source, '-o', exe] + flags,
                env=env, what='linking the installed libdiskbench.a')
            bad = [n for n in needed(args.readelf, exe) if 'diskbench' in n]
            if bad:
                raise Fail('static program still needs %r' % bad)
            check_output(run([exe], env=env, what='the static program'),
                         args.version)
            print('ok static: linked with pkg-config --static, ran')
            checked += 1

        if checked == 0:
            raise Fail('neither a shared nor a static library to check')

        if args.example and not args.no_shared:
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

        if args.release and not args.no_shared:
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
    except Fail as e:
        print('FAIL ' + str(e))
        return 1
    finally:
        if args.keep:
            print('kept ' + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
