#!/usr/bin/env python3
"""A meson project that builds libdiskbench as its subproject, warnings
as errors.

1. Copies the source tree (the files git knows of or would, without build
   folders; every file but build folders without git) into
   TMP/parent/subprojects/libdiskbench, and writes the parent: a
   meson.build that calls subproject('libdiskbench') and builds a program
   with dependency('diskbench'), and the program, which uses the version
   header's macros, an INIT macro and the library.
2. `meson setup -Dwerror=true -Doptimization=--optimization` with the
   compiler given (--cc): the subproject must take werror (its own
   warning_level=3 and flags), and `meson introspect` must show only the
   library's targets in it (the internal archive, the shared and the
   static library: no program, example, benchmark, test, documentation or
   Python target) and only the library's files to install (headers,
   libraries, diskbench.pc, the CMake package: no program, manual page,
   HTML or Python package).
3. Builds it (ninja -j2) and runs the program: every file of lib/ compiles
   without a warning at that level (gcc warns at -O0, -O1 and -Os of what
   it does not at -O2, the level of the project's own builds).
4. A parent that asks for more gets it: `-Dlibdiskbench:examples=true`
   configures the examples (configured only, not built).
5. Each --extra COMPILER:LEVEL (e.g. clang:s) configures the parent again
   with that compiler (CC) and -Doptimization=LEVEL and builds the
   library's targets alone: lib/ must build without a warning there too.

usage: check_subproject.py --meson=WORD... --cc=WORD... --source DIR
         [--version X.Y.Z] [--optimization 0] [--extra CC:LEVEL]...
         [--jobs N] [--other-cc-missing] [--keep]
  --version: what the program must print (default: the version meson
  configured the subproject with).
  --other-cc-missing: meson found no second compiler for an --extra; the
  test fails rather than check less.
"""

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'support'))
import install_tree as it  # noqa: E402
from install_tree import Fail, run  # noqa: E402

PARENT_MESON = '''project('parent', 'c', default_options: ['c_std=c99'])
libdiskbench = subproject('libdiskbench')
executable('app', 'app.c', dependencies: dependency('diskbench'))
'''

APP_C = r'''#include <diskbench.h>
#include <diskbench/version.h>

#include <stdio.h>

int main(void)
{
	struct diskbench_hist_opts opts = DISKBENCH_HIST_OPTS_INIT;
	struct diskbench_hist *hist;
	uint64_t v;

	if (diskbench_hist_new(&hist, &opts) < 0)
		return 1;
	for (v = 1; v <= 100; v++)
		diskbench_hist_record(hist, v);
	printf("headers %s\n", DISKBENCH_VERSION_STRING);
	printf("library %s\n", diskbench_version_string());
	printf("max %llu\n", (unsigned long long)diskbench_hist_max(hist));
	diskbench_hist_free(hist);
	return 0;
}
'''

SUBPROJECT = 'libdiskbench'
# What the subproject may configure: lib/meson.build's archive of the
# library's objects, and the library itself (shared and static).
LIB_TARGETS = {'diskbench-internal', 'diskbench'}


def copy_tree(source, dest):
    """The files a build reads: git's (tracked and untracked, not ignored),
    or without git everything but .git, build folders and caches."""
    files = None
    if os.path.isdir(os.path.join(source, '.git')) and shutil.which('git'):
        r = subprocess.run(['git', '-C', source, 'ls-files', '-z', '--cached',
                            '--others', '--exclude-standard'],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if r.returncode == 0:
            files = [f for f in r.stdout.decode().split('\0') if f]
    if files is None:
        files = []
        for top, dirs, names in os.walk(source):
            dirs[:] = [d for d in dirs
                       if d not in ('.git', '__pycache__') and not
                       (top == source and d.startswith('build')) and not
                       os.path.exists(os.path.join(top, d, 'meson-private'))]
            files += [os.path.relpath(os.path.join(top, n), source)
                      for n in names]
    copied = 0
    for rel in files:
        src = os.path.join(source, rel)
        if not os.path.isfile(src):
            continue  # deleted in the work tree
        dst = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)
        copied += 1
    if not os.path.isfile(os.path.join(dest, 'meson.build')):
        raise Fail('no meson.build among the %d files copied from %s'
                   % (copied, source))
    print('copied %d files of %s' % (copied, source))


def introspect(meson, build, what):
    out = subprocess.run(list(meson) + ['introspect', what, build],
                         stdout=subprocess.PIPE, universal_newlines=True,
                         check=True).stdout
    return json.loads(out)


def setup(args, parent, build, env, cc, optimization, options=()):
    env = dict(env, CC=' '.join(shlex.quote(w) for w in cc))
    run(list(args.meson) + ['setup', build, parent, '-Dwerror=true',
                            '-Doptimization=' + optimization,
                            '-Ddebug=false'] + list(options),
        env=env, what='meson setup (%s, -O%s)' % (cc[-1], optimization))
    opts = {o['name']: o['value']
            for o in introspect(args.meson, build, '--buildoptions')}
    if opts.get(SUBPROJECT + ':werror') is not True:
        raise Fail('the subproject does not take werror: %s:werror is %r'
                   % (SUBPROJECT, opts.get(SUBPROJECT + ':werror')))
    return env


def sub_targets(args, build):
    return [t for t in introspect(args.meson, build, '--targets')
            if t.get('subproject') == SUBPROJECT]


def check_lib_flags(args, build, targets):
    """Every library source is compiled with -Werror."""
    n = 0
    for t in targets:
        for src in t.get('target_sources', []):
            if src.get('language') != 'c':
                continue
            if '-Werror' not in src.get('parameters', []):
                raise Fail('%s compiles its sources without -Werror: %r'
                           % (t['name'], src.get('parameters')))
            n += len(src.get('sources', []))
    if n < 30:
        raise Fail('only %d C sources in the subproject\'s targets' % n)
    return n


def check_only_library(args, build, version):
    targets = sub_targets(args, build)
    names = sorted({t['name'] for t in targets})
    extra = [n for n in names if n not in LIB_TARGETS]
    if extra or set(names) != LIB_TARGETS:
        raise Fail('the subproject configures %r; only the library (%r) '
                   'was asked for' % (names, sorted(LIB_TARGETS)))
    kinds = sorted(t['type'] for t in targets)
    print('ok the subproject configures only the library: %s'
          % ', '.join('%s (%s)' % (t['name'], t['type']) for t in targets))
    if any(k not in ('shared library', 'static library') for k in kinds):
        raise Fail('the subproject configures %r' % kinds)
    n = check_lib_flags(args, build, targets)
    print('ok werror on for the %d sources of the library' % n)

    installed = introspect(args.meson, build, '--installed')
    bad = []
    for dest in installed.values():
        base = os.path.basename(dest)
        if '/include/diskbench' in dest or base == 'diskbench.h':
            continue
        if base.startswith('libdiskbench.') or base == 'diskbench.pc':
            continue
        if '/cmake/diskbench/' in dest:
            continue
        bad.append(dest)
    if bad:
        raise Fail('the subproject installs more than the library: %r'
                   % sorted(bad))
    print('ok it installs the library only (%d files)' % len(installed))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--meson', action='append', required=True)
    ap.add_argument('--cc', action='append', required=True)
    ap.add_argument('--source', required=True)
    ap.add_argument('--version')
    ap.add_argument('--optimization', default='0')
    ap.add_argument('--extra', action='append', default=[])
    ap.add_argument('--jobs', default='2')
    ap.add_argument('--other-cc-missing', action='store_true')
    ap.add_argument('--keep', action='store_true')
    args = ap.parse_args()
    if args.other_cc_missing:
        print('FAIL the other of gcc and clang was not found at configure '
              'time: install it (Debian packages gcc, clang; scripts/test '
              'installs both)')
        return 1
    for e in args.extra:
        if ':' not in e:
            ap.error('--extra COMPILER:LEVEL, not %r' % e)
    if shutil.which('ninja') is None:
        print('FAIL ninja is not installed')
        return 1
    with it.scratch('diskbench-subproject-', args.keep) as tmp:
        return it.main(check, args, tmp)


def check(args, tmp):
    env = it.clean_env()
    env.pop('CC', None)
    parent = os.path.join(tmp, 'parent')
    copy_tree(os.path.abspath(args.source),
              os.path.join(parent, 'subprojects', SUBPROJECT))
    with open(os.path.join(parent, 'meson.build'), 'w') as f:
        f.write(PARENT_MESON)
    with open(os.path.join(parent, 'app.c'), 'w') as f:
        f.write(APP_C)

    build = os.path.join(tmp, 'build')
    benv = setup(args, parent, build, env, args.cc, args.optimization)
    if args.version is None:
        subs = introspect(args.meson, build, '--projectinfo')['subprojects']
        args.version = [p['version'] for p in subs
                        if p['name'] == SUBPROJECT][0]
    check_only_library(args, build, args.version)
    run(['ninja', '-C', build, '-j', args.jobs], env=benv,
        what='building the parent at -O%s, werror' % args.optimization)
    out = run([os.path.join(build, 'app')], env=env, what='the parent\'s program')
    got = dict(l.split(' ', 1) for l in out.splitlines() if ' ' in l)
    want = {'headers': args.version, 'library': args.version, 'max': '100'}
    for key, value in want.items():
        if got.get(key) != value:
            raise Fail('the program printed %s %r, expected %r'
                       % (key, got.get(key), value))
    print('ok the parent built with werror at -O%s (%s) and ran'
          % (args.optimization, ' '.join(args.cc)))

    # Asked for, the examples are there.
    asked = os.path.join(tmp, 'build-asked')
    setup(args, parent, asked, env, args.cc, args.optimization,
          ['-D%s:examples=true' % SUBPROJECT])
    names = {t['name'] for t in sub_targets(args, asked)}
    if not names - LIB_TARGETS:
        raise Fail('-D%s:examples=true configured no example: %r'
                   % (SUBPROJECT, sorted(names)))
    print('ok -D%s:examples=true configures %d targets more'
          % (SUBPROJECT, len(names - LIB_TARGETS)))
    shutil.rmtree(asked, ignore_errors=True)

    for e in args.extra:
        cc, level = e.rsplit(':', 1)
        xbuild = os.path.join(tmp, 'build-%s-O%s' % (os.path.basename(cc), level))
        xenv = setup(args, parent, xbuild, env, shlex.split(cc), level)
        lib_outputs = []
        for t in sub_targets(args, xbuild):
            lib_outputs += [os.path.relpath(f, xbuild) for f in t['filename']]
        run(['ninja', '-C', xbuild, '-j', args.jobs] + sorted(set(lib_outputs)),
            env=xenv, what='building the library with %s at -O%s, werror'
            % (cc, level))
        print('ok the library built with werror, %s at -O%s' % (cc, level))
        shutil.rmtree(xbuild, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
