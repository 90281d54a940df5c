#!/usr/bin/env python3
"""Runs an example on a fresh directory and checks what it promises.

usage: run-example.py [--status N] [--expect REGEX]... [--expect-stderr REGEX]...
                      -- PROGRAM ARG...

@DIR@ in an ARG stands for a new empty directory made under the
current one (meson runs a test in the build directory). The program must
exit N (default 0), its standard output must match each --expect REGEX
and its standard error each --expect-stderr REGEX (re.search, multiline),
and the directory must be empty afterwards: the example removed, through
the library, everything it made. The directory is removed at the end,
also when a check fails.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def main(argv):
    expect, expect_err, status = [], [], 0
    while argv and argv[0] != '--':
        if argv[0] == '--expect' and len(argv) > 1:
            expect.append(argv[1])
        elif argv[0] == '--expect-stderr' and len(argv) > 1:
            expect_err.append(argv[1])
        elif argv[0] == '--status' and len(argv) > 1 and argv[1].isdigit():
            status = int(argv[1])
        else:
            print(__doc__, file=sys.stderr)
            return 2
        argv = argv[2:]
    cmd = argv[1:]
    if not cmd:
        print(__doc__, file=sys.stderr)
        return 2
    d = tempfile.mkdtemp(prefix='example.', dir=os.getcwd())
    try:
        cmd = [a.replace('@DIR@', d) for a in cmd]
        if os.path.exists(cmd[0]):
            # meson may name the program relative to the test's workdir.
            cmd[0] = os.path.abspath(cmd[0])
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=120)
        sys.stdout.write(r.stdout)
        sys.stderr.write(r.stderr)
        ok = True
        if r.returncode != status:
            print('FAIL %s exited %d, not %d' % (cmd[0], r.returncode, status))
            ok = False
        for name, out, regexes in (('output', r.stdout, expect),
                                   ('standard error', r.stderr, expect_err)):
            for e in regexes:
                if not re.search(e, out, re.M):
                    print('FAIL no line of the %s matches %r' % (name, e))
                    ok = False
        left = sorted(os.listdir(d))
        if left:
            print('FAIL left in %s: %s' % (d, ', '.join(left)))
            ok = False
        return 0 if ok else 1
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
