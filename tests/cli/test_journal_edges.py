#!/usr/bin/env python3
"""The results journal's edges, through the programs (issue 50).

Usage: test_journal_edges.py REPORT-DUMP DISKBENCH-REPORT DISKBENCH-BONNIE

- damaged: a journal (report-dump journal: three runs) whose record length
  has its top bit flipped in the middle of the first run. diskbench-report
  once read it as a tail cut by a power cut, wrote the first run's first
  results and exited 0, saying nothing; now it writes what came before
  the damaged record, says on standard error which record (and byte) is
  damaged, what is wrong and what was kept, and exits 2.
- long-name: diskbench-bonnie -m of 70000 bytes once ran, its journal's
  copy of the name silently cut (mid-character for a multi-byte one);
  now a usage error naming the limit, 65536 bytes, before anything runs.
- full: a --journal on a file system with no room (a 4 KiB tmpfs; root
  only, else skipped): the message once said "journal: writing its result
  failed: No space left on device" without saying which file; now it
  names the journal's path.
"""
import os
import subprocess
import sys
import tempfile

DUMP, REPORT, BONNIE = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def fail(what, p=None):
    failures.append(what)
    print('FAIL ' + what)
    if p is not None:
        print(f'  exit {p.returncode}\n  stdout {p.stdout[-2000:]!r}\n'
              f'  stderr {p.stderr[-2000:]!r}')


def records(b):
    """The offset of each record after the 12-byte header."""
    at, pos = [], 12
    while pos + 9 <= len(b):
        at.append(pos)
        pos += 9 + int.from_bytes(b[pos + 1:pos + 5], 'little')
    return at


def test_damaged(tmp):
    good = os.path.join(tmp, 'good.journal')
    with open(good, 'wb') as f:      # a regular file: a journal is one
        subprocess.run([DUMP, 'journal'], stdout=f, check=True)
    with open(good, 'rb') as f:
        whole = f.read()
    at = records(whole)
    b = bytearray(whole)
    b[at[4] + 4] ^= 0x80           # record 5's length: 2^31 more
    path = os.path.join(tmp, 'damaged.journal')
    with open(path, 'wb') as f:
        f.write(b)
    p = subprocess.run([REPORT, '--csv', path], capture_output=True, text=True)
    g = subprocess.run([REPORT, '--csv', good], capture_output=True, text=True)
    if g.returncode != 0 or g.stderr or len(g.stdout.splitlines()) != 3:
        fail('damaged: the whole journal does not read as three runs', g)
    want = f'{path}: journal record 5 (byte {at[4]}): its length '
    if p.returncode != 2:
        fail('damaged: diskbench-report does not exit 2', p)
    if len(p.stderr.splitlines()) != 1 or want not in p.stderr \
            or 'damaged' not in p.stderr or 'kept the 1 run and 3 results' not in p.stderr:
        fail('damaged: the line on standard error does not name the record '
             'and what was kept', p)
    if len(p.stdout.splitlines()) != 1 or p.stdout.split(',')[2] != g.stdout.split(',')[2]:
        fail('damaged: the first run is not written', p)


SMALL = ['-s', '8', '-r', '4', '-n', '0', '-f', '-q'] + \
    (['-u', 'root'] if os.geteuid() == 0 else [])


def bonnie(args, timeout=120):
    return subprocess.run([BONNIE] + args, capture_output=True, text=True,
                          timeout=timeout)


def test_long_name(tmp):
    d = os.path.join(tmp, 'scratch-long')
    os.mkdir(d)
    p = bonnie(['-d', d, '-m', '\u00e9' * 35000] + SMALL)
    if p.returncode != 1 or '-m: a machine name of 70000 bytes; at most 65536' \
            not in p.stderr or 'usage' not in p.stderr:
        fail('long-name: -m of 70000 bytes is not a usage error naming the limit', p)
    if os.listdir(d):
        fail(f'long-name: left {os.listdir(d)}')
    ok = bonnie(['-d', d, '-m', 'x' * 65536, '--no-journal'] + SMALL)
    if ok.returncode != 0 or ('x' * 65536) not in ok.stdout + ok.stderr:
        fail('long-name: -m of 65536 bytes is not taken', ok)


def test_dir_not_utf8(tmp):
    # A directory whose name is not UTF-8: the journal cannot hold it, so
    # the run stops before it measures, says why and how to run without
    # one, and leaves nothing; --no-journal runs.
    d = os.path.join(os.fsencode(tmp), b'caf\xe9')
    os.mkdir(d)
    p = subprocess.run([os.fsencode(BONNIE), b'-d', d] +
                       [os.fsencode(a) for a in SMALL],
                       capture_output=True, timeout=120)
    err = p.stderr.decode('utf-8', 'replace')
    if p.returncode != 1 or 'is not UTF-8' not in err or \
            '(--no-journal runs without one)' not in err or p.stdout:
        fail('dir-not-utf8: the run does not stop with the reason and the way out',
             subprocess.CompletedProcess(p.args, p.returncode, p.stdout.decode(
                 'utf-8', 'replace'), err))
    if os.listdir(d):
        fail(f'dir-not-utf8: left {os.listdir(d)}')
    ok = subprocess.run([os.fsencode(BONNIE), b'-d', d, b'--no-journal'] +
                        [os.fsencode(a) for a in SMALL], capture_output=True,
                        timeout=120)
    if ok.returncode != 0 or os.listdir(d):
        fail('dir-not-utf8: --no-journal does not run cleanly',
             subprocess.CompletedProcess(ok.args, ok.returncode, ok.stdout.decode(
                 'utf-8', 'replace'), ok.stderr.decode('utf-8', 'replace')))


def test_full(tmp):
    if os.geteuid() != 0:
        print('SKIP full: a tmpfs needs root')
        return
    full = os.path.join(tmp, 'full')
    d = os.path.join(tmp, 'scratch-full')
    os.mkdir(full)
    os.mkdir(d)
    m = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=4k', 'none', full],
                       capture_output=True, text=True)
    if m.returncode != 0:
        print(f'SKIP full: mount: {m.stderr.strip()}')
        return
    try:
        j = os.path.join(full, 'run.journal')
        p = bonnie(['-d', d, '--journal', j] + SMALL)
        want = f'diskbench-bonnie: the results journal {j}: '
        if p.returncode == 0 or want not in p.stderr \
                or 'No space left on device' not in p.stderr:
            fail('full: a journal out of room is not named', p)
    finally:
        subprocess.run(['umount', full])


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_damaged(tmp)
        test_long_name(tmp)
        test_dir_not_utf8(tmp)
        test_full(tmp)
    if failures:
        print(f'{len(failures)} failed')
        return 1
    print('ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
