#!/usr/bin/env python3
"""The sync methods as the kernel sees them: sync-strace-run (one
sequential write of 8 KiB blocks on the sync engine, a real file) under
strace, counting the fsync, fdatasync and sync_file_range calls on the
test file and the flags it was opened with, for each method, every N
writes and at the end. strace is needed (scripts/test installs it):
without it the test fails.

    check-sync-strace.py SYNC-STRACE-RUN
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SYNC_CALLS = ("fsync", "fdatasync", "sync_file_range")
# 1234  fdatasync(3</tmp/x/diskbench.abc>) = 0
LINE = re.compile(r'^(?:\d+\s+)?(\w+)\((.*)\)\s+=\s+(-?\d+)')

failures = []


def trace(prog, d, method, every, writes, *extra):
    log = os.path.join(d, '..', 'strace-%d.log' % os.getpid())
    env = dict(os.environ)
    # LeakSanitizer cannot run under ptrace.
    env['ASAN_OPTIONS'] = (env.get('ASAN_OPTIONS', '') + ':detect_leaks=0').lstrip(':')
    p = subprocess.run(['strace', '-f', '-qq', '-y', '-e',
                        'trace=openat,fsync,fdatasync,sync_file_range',
                        '-o', log, prog, d, str(method), str(every),
                        str(writes)] + list(extra),
                       capture_output=True, text=True, timeout=120, env=env)
    with open(log) as f:
        lines = f.read().splitlines()
    os.unlink(log)
    if p.returncode != 0:
        raise SystemExit('sync-strace-run %s failed (%d): %s'
                         % (method, p.returncode, p.stderr.strip()))
    keys = dict(l.split('=', 1) for l in p.stdout.splitlines())
    calls = {c: [] for c in SYNC_CALLS}
    opens = []
    inside = d.rstrip('/') + '/'
    for l in lines:
        m = LINE.match(l)
        if not m:
            continue
        name, args = m.group(1), m.group(2)
        if name == 'openat':
            # by path, or by name relative to the directory's descriptor
            if (('"' + inside) in args or ('<' + inside) in args or
                    ('<' + d.rstrip('/') + '>') in args):
                # the test file; not the target's probe of O_DIRECT
                if 'O_CREAT' in args and 'probe' not in args:
                    opens.append(args)
        elif name in calls and ('<' + inside) in args:
            calls[name].append(args)
    return calls, opens, keys


def expect(what, got, want):
    if got != want:
        failures.append('%s: %r, expected %r' % (what, got, want))
    else:
        print('ok   %s: %r' % (what, got))


def main():
    prog = sys.argv[1]
    if not shutil.which('strace'):
        print('FAIL strace is needed (scripts/test installs it)')
        return 1
    with tempfile.TemporaryDirectory(prefix='sync-strace-') as top:
        d = os.path.join(top, 'dir')
        os.mkdir(d)

        def counts(method, every, writes, *extra):
            calls, opens, keys = trace(prog, d, method, every, writes, *extra)
            if os.listdir(d):
                failures.append('left in %s: %s' % (d, os.listdir(d)))
            return {c: len(v) for c, v in calls.items()}, calls, opens, keys

        # default: the closing fsync only
        n, _, opens, keys = counts(0, 0, 10)
        expect('default', n, {'fsync': 1, 'fdatasync': 0, 'sync_file_range': 0})
        expect('default opened without O_DSYNC or O_SYNC',
               [('O_DSYNC' in o or 'O_SYNC' in o) for o in opens], [False])
        # fdatasync every 4 of 10 writes: after 4 and 8, and at the end
        n, _, _, keys = counts(3, 4, 10)
        expect('fdatasync every 4 of 10', n,
               {'fsync': 0, 'fdatasync': 3, 'sync_file_range': 0})
        expect('fdatasync every 4 of 10: sync_count', keys.get('sync_count'), '2')
        # fsync every 3 of 9, apart: none left for the end
        n, _, _, keys = counts(2, 3, 9, 'apart')
        expect('fsync every 3 of 9', n,
               {'fsync': 3, 'fdatasync': 0, 'sync_file_range': 0})
        expect('fsync every 3 of 9: sync_timing', keys.get('sync_timing'), 'apart')
        # fdatasync at the end only
        n, _, _, _ = counts(3, 0, 10)
        expect('fdatasync at the end', n,
               {'fsync': 0, 'fdatasync': 1, 'sync_file_range': 0})
        # sync_file_range every 5 of 10: the ranges written since the last
        n, calls, _, _ = counts(4, 5, 10)
        expect('sync_file_range every 5 of 10', n,
               {'fsync': 0, 'fdatasync': 0, 'sync_file_range': 2})
        expect('sync_file_range ranges',
               [tuple(a.split('>, ', 1)[1].split(', ')[:2])
                for a in calls['sync_file_range']],
               [('0', '40960'), ('40960', '40960')])
        # O_DSYNC, O_SYNC: the open's flags, no call
        n, _, opens, _ = counts(5, 0, 10)
        expect('O_DSYNC: no sync call', n,
               {'fsync': 0, 'fdatasync': 0, 'sync_file_range': 0})
        expect('O_DSYNC in the test file\'s openat',
               [('O_DSYNC' in o and 'O_SYNC' not in o) for o in opens], [True])
        n, _, opens, _ = counts(6, 0, 10)
        expect('O_SYNC: no sync call', n,
               {'fsync': 0, 'fdatasync': 0, 'sync_file_range': 0})
        expect('O_SYNC in the test file\'s openat',
               ['O_SYNC' in o for o in opens], [True])
        # none: nothing at all
        n, _, _, _ = counts(1, 0, 10)
        expect('none', n, {'fsync': 0, 'fdatasync': 0, 'sync_file_range': 0})
    for f in failures:
        print('FAIL ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
