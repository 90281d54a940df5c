#!/usr/bin/env python3
"""A CMake project finds the installed libdiskbench.

1. `meson install --destdir TMP` from the build directory.
2. Writes a small CMake project (CMakeLists.txt and main.c) that does
   find_package(diskbench 1.7 REQUIRED) and links diskbench::diskbench,
   configures it with CMAKE_PREFIX_PATH at TMP's prefix, builds it, runs
   it with LD_LIBRARY_PATH at TMP's libdir and checks what it prints: the
   version and a histogram made and freed.
3. Where the static library is installed too, the same with
   diskbench_USE_STATIC_LIBS=ON: the program must not need any
   libdiskbench.so (the private dependencies came with the target).
4. The version file: find_package(diskbench 1.0) is satisfied,
   find_package(diskbench 2.0) is not.
5. Removes TMP.

A missing cmake fails the test: scripts/test installs it.

usage: check_cmake.py --meson=WORD... --builddir DIR --version X.Y.Z
         --soname NAME [--readelf PATH] [--no-shared] [--no-static] [--keep]
"""

import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'support'))
import install_tree as it  # noqa: E402
from install_tree import Fail, run  # noqa: E402


MAIN_C = r'''#include <diskbench.h>

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
	printf("library %s\n", diskbench_version_string());
	printf("count %llu\n", (unsigned long long)diskbench_hist_count(hist));
	printf("max %llu\n", (unsigned long long)diskbench_hist_max(hist));
	diskbench_hist_free(hist);
	return 0;
}
'''

CMAKELISTS = '''cmake_minimum_required(VERSION 3.13)
project(diskbench_consumer C)
find_package(diskbench {want} REQUIRED)
message(STATUS "diskbench ${{diskbench_VERSION}} found in ${{diskbench_DIR}}")
add_executable(consumer main.c)
target_link_libraries(consumer PRIVATE diskbench::diskbench)
'''

# Only the version check: no target is made, nothing is built.
CMAKELISTS_FIND = '''cmake_minimum_required(VERSION 3.13)
project(diskbench_find C)
find_package(diskbench {want})
if(diskbench_FOUND)
  message(STATUS "diskbench-found ${{diskbench_VERSION}}")
else()
  message(STATUS "diskbench-not-found")
endif()
'''


def write_project(path, cmakelists, want):
    os.makedirs(path)
    with open(os.path.join(path, 'CMakeLists.txt'), 'w') as f:
        f.write(cmakelists.format(want=want))
    with open(os.path.join(path, 'main.c'), 'w') as f:
        f.write(MAIN_C)


def build_and_run(tmp, name, prefix, libdir, env, args, static):
    src = os.path.join(tmp, name + '-src')
    bld = os.path.join(tmp, name + '-build')
    write_project(src, CMAKELISTS, '1.7')
    configure = ['cmake', '-S', src, '-B', bld,
                 '-DCMAKE_PREFIX_PATH=' + prefix,
                 '-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF',
                 '-DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF']
    if static:
        configure.append('-Ddiskbench_USE_STATIC_LIBS=ON')
    out = run(configure, env=env, what='cmake configure (%s)' % name)
    found = [l for l in out.splitlines() if 'diskbench %s found in' % args.version in l]
    if not found:
        raise Fail('%s: cmake did not report diskbench %s' % (name, args.version))
    where = found[0].split(' found in ', 1)[1].strip()
    if not os.path.realpath(where).startswith(os.path.realpath(prefix) + os.sep):
        raise Fail('%s: diskbench found in %s, not in the install %s'
                   % (name, where, prefix))
    run(['cmake', '--build', bld], env=env, what='cmake --build (%s)' % name)
    exe = os.path.join(bld, 'consumer')
    libs = it.needed(args.readelf, exe)
    if static:
        bad = [n for n in libs if 'diskbench' in n]
        if bad:
            raise Fail('%s: the static program still needs %r' % (name, bad))
    elif args.soname not in libs:
        raise Fail('%s: the program does not need %s (needs %r)'
                   % (name, args.soname, libs))
    renv = dict(env, LD_LIBRARY_PATH=libdir)
    if not static:
        ldd = run(['ldd', exe], env=renv, what='ldd')
        line = [l for l in ldd.splitlines() if args.soname in l]
        if not line or os.path.realpath(tmp) not in os.path.realpath(
                line[0].split('=>', 1)[-1].split('(')[0].strip()):
            raise Fail('%s: %s did not resolve to the installed copy: %r'
                       % (name, args.soname, line))
    out = run([exe], env=renv, what='the %s program' % name)
    want = {'library': args.version, 'count': '100', 'max': '100'}
    got = dict(l.split(' ', 1) for l in out.splitlines() if ' ' in l)
    for key, value in want.items():
        if got.get(key) != value:
            raise Fail('%s: program printed %s %r, expected %r'
                       % (name, key, got.get(key), value))
    print('ok %s: find_package(diskbench 1.7), built with diskbench::diskbench, '
          'ran against the install' % name)


def check_version(tmp, prefix, env, want, expect_found):
    name = 'find-' + want
    src = os.path.join(tmp, name + '-src')
    write_project(src, CMAKELISTS_FIND, want)
    out = run(['cmake', '-S', src, '-B', os.path.join(tmp, name + '-build'),
               '-DCMAKE_PREFIX_PATH=' + prefix,
               '-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF',
               '-DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF'],
              env=env, what='cmake configure (%s)' % name)
    found = 'diskbench-found' in out
    if found != expect_found:
        raise Fail('find_package(diskbench %s) %s, expected it %s'
                   % (want, 'succeeded' if found else 'failed',
                      'to succeed' if expect_found else 'to fail'))
    print('ok find_package(diskbench %s) %s' % (want,
          'succeeds' if found else 'fails, as it must'))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--meson', action='append', required=True)
    ap.add_argument('--builddir', required=True)
    ap.add_argument('--version', required=True)
    ap.add_argument('--soname', required=True)
    ap.add_argument('--readelf', default='readelf')
    ap.add_argument('--no-shared', action='store_true')
    ap.add_argument('--no-static', action='store_true')
    ap.add_argument('--keep', action='store_true')
    args = ap.parse_args()

    if shutil.which('cmake') is None:
        print('FAIL cmake is not installed (Debian package cmake; '
              'scripts/test installs it)')
        return 1

    with it.scratch('diskbench-cmake-', args.keep) as tmp:
        return it.main(check, args, tmp)


def check(args, tmp):
    env = it.clean_env()
    inst = it.install(args.meson, args.builddir, os.path.join(tmp, 'root'),
                      env)
    if inst.cmake_config is None:
        raise Fail('no diskbenchConfig.cmake was installed')
    cmakedir = os.path.dirname(inst.cmake_config)
    if not os.path.isfile(os.path.join(cmakedir,
                                       'diskbenchConfigVersion.cmake')):
        raise Fail('no diskbenchConfigVersion.cmake beside %s'
                   % inst.cmake_config)
    print('installed: %s' % inst.rel(inst.cmake_config))
    # Relocatable: the include and library folders are set relative to
    # PACKAGE_PREFIX_DIR, which the file finds from its own place.
    with open(inst.cmake_config) as f:
        for line in f:
            if line.startswith(('set(_diskbench_libdir ',
                                'set(_diskbench_includedir ')) and \
                    '"/' in line:
                raise Fail('diskbenchConfig.cmake bakes in an absolute '
                           'path: %s' % line.strip())

    checked = 0
    if not args.no_shared:
        build_and_run(tmp, 'shared', inst.prefix, inst.libdir, env, args, False)
        checked += 1
    if not args.no_static:
        build_and_run(tmp, 'static', inst.prefix, inst.libdir, env, args, True)
        checked += 1
    if checked == 0:
        raise Fail('neither a shared nor a static library to check')

    check_version(tmp, inst.prefix, env, '1.0', True)
    check_version(tmp, inst.prefix, env, '2.0', False)


if __name__ == '__main__':
    sys.exit(main())
