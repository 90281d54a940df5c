"""What the tests of an installed libdiskbench share.

The tests that build a program the way a user would (tests/abi's
check-downstream.py, tests/consumers' check_cmake.py, check_pkgconfig.py
and check_subproject.py) import this module from tests/support:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    '..', 'support'))
    import install_tree as it

- Fail: the exception a check raises; main() prints 'FAIL <why>'.
- run(): a command, echoed, its output printed, Fail on a non-zero status.
- needed(): the NEEDED entries of an ELF file (readelf -d).
- clean_env(): the environment without what would point a build or a run
  elsewhere (DESTDIR, LD_LIBRARY_PATH, pkg-config's and CMake's paths).
- install(): `meson install --destdir` of a build directory into a fresh
  tree, and where its parts landed (prefix, libdir, diskbench.pc, the
  CMake package).
- pkg_config(): pkg-config's answer for diskbench, as a list of words;
  check_flags_inside(): its -I and -L flags all point into the install.
- check_downstream_output(): what tests/abi/downstream.c must print.
- scratch(): a temporary directory, removed afterwards unless kept.
- main(): runs a check, printing FAIL and returning 1 on Fail.
"""

import contextlib
import glob
import os
import shlex
import shutil
import subprocess
import sys
import tempfile


class Fail(Exception):
    pass


def run(argv, env=None, what=None, cwd=None):
    """Runs argv, prints it and its output (stdout and stderr together),
    and returns the output; Fail naming `what` on a non-zero status."""
    print('$ ' + ' '.join(shlex.quote(a) for a in argv), flush=True)
    r = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if r.stdout:
        print(r.stdout.rstrip(), flush=True)
    if r.returncode != 0:
        raise Fail('%s failed with status %d' % (what or argv[0], r.returncode))
    return r.stdout


def needed(readelf, binary):
    """The shared libraries an ELF file needs (its DT_NEEDED entries)."""
    out = subprocess.run([readelf, '-d', binary], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    return [line.split('[', 1)[1].rstrip(']')
            for line in out.splitlines() if '(NEEDED)' in line]


# A user's environment may point a build or a run elsewhere; the tests
# set what they need themselves.
POINTERS = ('DESTDIR', 'LD_LIBRARY_PATH',
            'PKG_CONFIG_PATH', 'PKG_CONFIG_LIBDIR', 'PKG_CONFIG_SYSROOT_DIR',
            'CMAKE_PREFIX_PATH', 'diskbench_DIR', 'diskbench_ROOT',
            'CMAKE_GENERATOR', 'CMAKE_BUILD_TYPE')


def clean_env():
    env = dict(os.environ)
    for var in POINTERS:
        env.pop(var, None)
    return env


def _one(root, pattern, what):
    found = glob.glob(os.path.join(root, '**', pattern), recursive=True)
    if len(found) != 1:
        raise Fail('expected one installed %s, found %r' % (what, found))
    return found[0]


class Install:
    """Where `meson install --destdir root` put the library's parts.

    root: the destdir; prefix: the folder holding include/ (under root);
    pc: diskbench.pc and pcdir its folder; libdir: the folder holding
    pkgconfig/ (and the libraries); cmake_config: diskbenchConfig.cmake
    (None if not installed)."""

    def __init__(self, root):
        self.root = root
        self.pc = _one(root, os.path.join('pkgconfig', 'diskbench.pc'),
                       'diskbench.pc')
        self.pcdir = os.path.dirname(self.pc)
        self.libdir = os.path.dirname(self.pcdir)
        header = _one(root, os.path.join('include', 'diskbench.h'),
                      'diskbench.h')
        # The prefix is where include/ is: the libdir may be lib/ARCH.
        self.prefix = os.path.dirname(os.path.dirname(header))
        configs = glob.glob(os.path.join(root, '**', 'cmake', 'diskbench',
                                         'diskbenchConfig.cmake'),
                            recursive=True)
        if len(configs) > 1:
            raise Fail('expected one installed diskbenchConfig.cmake, found %r'
                       % configs)
        self.cmake_config = configs[0] if configs else None

    def rel(self, path):
        return os.path.relpath(path, self.root)


def install(meson, builddir, root, env):
    """meson install of builddir into root (a folder that need not exist;
    no root rights needed: everything lands under it). meson is the
    command, a list of words."""
    run(list(meson) + ['install', '-C', builddir, '--no-rebuild', '--quiet',
                       '--destdir', root], env=env, what='meson install')
    inst = Install(root)
    print('installed: %s' % inst.rel(inst.pc))
    return inst


def pkg_config(env, *args):
    """`pkg-config ARGS diskbench` in env, split into words."""
    out = run(['pkg-config'] + list(args) + ['diskbench'], env=env,
              what='pkg-config ' + ' '.join(args))
    return shlex.split(out)


def check_flags_inside(flags, root, what):
    """Fail if an -I or -L flag points outside root, or at nothing."""
    for f in flags:
        for prefix in ('-I', '-L'):
            if f.startswith(prefix):
                path = os.path.realpath(f[len(prefix):])
                if not path.startswith(os.path.realpath(root) + os.sep):
                    raise Fail('%s: %s points outside the install in %s'
                               % (what, f, root))
                if not os.path.isdir(path):
                    raise Fail('%s: %s is no folder' % (what, f))


def check_downstream_output(out, version):
    """tests/abi/downstream.c prints its headers' and its library's
    version, and the count, median, 99th percentile and maximum of 1..100."""
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


@contextlib.contextmanager
def scratch(prefix, keep=False):
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        yield tmp
    finally:
        if keep:
            print('kept ' + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main(check, *args):
    """Runs check(*args): 0 if it returns, 1 after 'FAIL <why>' if it
    raises Fail."""
    try:
        check(*args)
    except Fail as e:
        print('FAIL ' + str(e), flush=True)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit('a module of the consumer tests, not a program')
