#!/usr/bin/env python3
"""diskbench-bonnie never writes through a name someone swapped.

Usage: test_identity.py PATH-TO-diskbench-bonnie

A scratch directory of mode 777 lets anyone rename its entries. Between two
phases (-y p makes the program wait for a newline before each), the test
renames our test file, or our small-file directory, and puts a symbolic
link to a victim in its place, then lets the run go on. The victim must
keep every byte, the link must stay, the phase must fail with a message
that says what moved, and what is still ours must be removed. Run as root
with -u root, as the issue that found this did.
"""
import os as _os
import sys as _sys
_sys.path.insert(0, _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), ".."))
import signal_defaults  # noqa: E402,F401 (first: the children inherit it)
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading

EXE = os.path.abspath(sys.argv[1])
USER = ['-u', 'root'] if os.geteuid() == 0 else []
failures = []


def fail(name, why):
    failures.append(f'FAIL {name}: {why}')
    print(failures[-1])


def reader(stream, q):
    for line in stream:
        q.put(line)
    q.put(None)


def wait_prompt(q, out, timeout=60):
    """Reads stdout lines until a '-y p' prompt ("N:"); False at the end."""
    while True:
        line = q.get(timeout=timeout)
        if line is None:
            return False
        out.append(line)
        if re.fullmatch(r'\d+:\n', line):
            return True


def swapped_run(name, args, swap, after_prompts):
    """Runs the program, answers prompts, calls swap(pid) once
    after_prompts prompts were answered (at the next prompt), answers the
    rest. Returns (exit status, stdout, stderr)."""
    p = subprocess.Popen([EXE] + args + USER + ['-y', 'p'], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    q = queue.Queue()
    t = threading.Thread(target=reader, args=(p.stdout, q), daemon=True)
    t.start()
    out = []
    answered = 0
    try:
        while wait_prompt(q, out):
            if answered == after_prompts:
                swap(p.pid)
            p.stdin.write('\n')
            p.stdin.flush()
            answered += 1
    except BrokenPipeError:
        pass
    err = p.stderr.read()
    rc = p.wait(timeout=60)
    t.join(timeout=10)
    return rc, ''.join(out), err


def test_test_file(tmp):
    name = 'test file swapped for a symlink before rewrite'
    before = len(failures)
    d = os.path.join(tmp, 'scratch')
    os.mkdir(d)
    os.chmod(d, 0o777)
    other = os.path.join(tmp, 'other')
    os.mkdir(other)
    victim = os.path.join(other, 'VICTIM')
    data = bytes([0x5a]) * (8 << 20)
    with open(victim, 'wb') as f:
        f.write(data)
    moved = {}

    def swap(pid):
        ours = os.path.join(d, f'Bonnie.{pid}')
        moved['ours'] = ours
        os.rename(ours, ours + '.m')
        os.symlink(victim, ours)

    rc, out, err = swapped_run(name, ['-d', d, '-s', '8', '-r', '4', '-n', '0', '-f'],
                               swap, 1)
    with open(victim, 'rb') as f:
        if f.read() != data:
            fail(name, 'the victim behind the link was changed')
    if rc == 0:
        fail(name, f'exit 0 after the swap; stderr={err!r}')
    if 'replaced since it was created' not in err:
        fail(name, f'no message saying the file was replaced: {err!r}')
    if 'ours' not in moved:
        fail(name, f'the swap never happened: stdout={out!r} stderr={err!r}')
        return
    left = sorted(os.listdir(d))
    if left != [os.path.basename(moved['ours'])] or not os.path.islink(moved['ours']):
        fail(name, f'expected only the link to be left, found {left}')
    if len(failures) == before:
        print(f'ok {name}: exit {rc}, {err.strip().splitlines()[-1] if err.strip() else ""}')


def test_files_dir(tmp):
    name = 'small-file directory swapped for a symlink before seq_stat'
    before = len(failures)
    d = os.path.join(tmp, 'scratch2')
    os.mkdir(d)
    os.chmod(d, 0o777)
    other = os.path.join(tmp, 'other2')
    os.mkdir(other)
    with open(os.path.join(other, 'keep'), 'w') as f:
        f.write('keep')
    moved = {}

    def swap(pid):
        ours = os.path.join(d, f'Bonnie.{pid}.files')
        moved['ours'] = ours
        os.rename(ours, ours + '.m')
        os.symlink(other, ours)

    rc, out, err = swapped_run(name, ['-d', d, '-s', '0', '-n', '1'], swap, 1)
    if sorted(os.listdir(other)) != ['keep']:
        fail(name, f'the victim directory changed: {sorted(os.listdir(other))}')
    if rc == 0:
        fail(name, f'exit 0 after the swap; stderr={err!r}')
    if 'ours' not in moved:
        fail(name, f'the swap never happened: stdout={out!r} stderr={err!r}')
        return
    if 'small-file directory' not in err or moved['ours'] + '.m' not in err:
        fail(name, f'the message does not say what moved and where: {err!r}')
    if os.path.isdir(moved['ours'] + '.m') and os.listdir(moved['ours'] + '.m'):
        fail(name, f'our files were left in the moved directory: '
                   f'{len(os.listdir(moved["ours"] + ".m"))} entries')
    if len(failures) == before:
        print(f'ok {name}: exit {rc}')


def main():
    tmp = tempfile.mkdtemp(prefix='diskbench-identity-')
    try:
        test_test_file(tmp)
        test_files_dir(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f'{len(failures)} failed')
        sys.exit(1)
    print('all passed')


main()
