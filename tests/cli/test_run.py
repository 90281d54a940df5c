#!/usr/bin/env python3
"""End-to-end tests of diskbench-run, the program that runs job files.

Usage: test_run.py PATH-TO-diskbench-run PATH-TO-diskbench-report [live]

Tiny jobs (a few MiB, the sync engine; the null engine where only the
runs' count matters) in a temporary directory: every report file and the
results journal written, --set, --dry-run and a bad job making nothing,
repetitions as runs of one set-up, --again (the same recipe, the machine
differences said, a set-up of its own that diskbench-report compares
with the old one), SIGINT after the first phase (its result whole, the
second's partial, in every output; exit 130) and --options. Each case
takes well under a second but the SIGINT one (about 1 s). With `live`
alone (a test of its own that meson runs alone: it reads the live line
as it is drawn): the live line during a write stalled 2 s
(tests/support/slow-write-shim.c) and the stall in the phase's summary.
"""
import os as _os
import sys as _sys
_sys.path.insert(0, _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), ".."))
import signal_defaults  # noqa: E402,F401 (first: the children inherit it)
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

EXE = os.path.abspath(sys.argv[1])
REPORT = os.path.abspath(sys.argv[2])
LIVE = sys.argv[3:] == ['live']

failures = []


def fail(name, why, proc=None):
    msg = f'FAIL {name}: {why}'
    if proc is not None:
        msg += (f'\n  rc={proc.returncode}\n  stdout={proc.stdout!r}'
                f'\n  stderr={proc.stderr!r}')
    failures.append(msg)
    print(msg)


def check(name, cond, why, proc=None):
    if cond:
        print(f'ok   {name}')
    else:
        fail(name, why, proc)
    return cond


def run(args, cwd, timeout=120):
    return subprocess.run([EXE] + args, capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)


def new_case(tmp, name):
    """A directory for the case, with d/ the directory benchmarked."""
    case = os.path.join(tmp, name)
    os.makedirs(os.path.join(case, 'd'))
    return case


def write(path, text):
    with open(path, 'w') as f:
        f.write(text)


def load(path):
    with open(path) as f:
        return json.load(f)


def phases(doc, run=0):
    return doc['runs'][run]['phases']


TINY = """; a tiny job: a write and random reads of a 4 MiB file
[job]
dir = d
engine = sync
size = 4m
seed = 7
{extra}
[w]
kind = seq_write
block = 64k

[r]
kind = random_io
block = 4k
ops = 200
"""


def test_outputs(tmp):
    """Every report file the job and the command line name, and the
    journal by default beside the first (out.json: out.journal)."""
    name = 'outputs'
    case = new_case(tmp, name)
    write(os.path.join(case, 'tiny.ini'), TINY.format(extra='json = out.json\ncsv = job.csv\n'))
    p = run(['tiny.ini', '--csv', 'out.csv', '--html', 'out.html', '--text',
             'out.txt', '--hdr', 'out.hdr', '-q'], case)
    if not check(name + ': exit 0', p.returncode == 0, 'exit status', p):
        return
    made = sorted(os.listdir(case))
    check(name + ': the files', made == ['d', 'out.csv', 'out.hdr', 'out.html',
                                         'out.journal', 'out.json', 'out.txt',
                                         'tiny.ini'],
          f'made {made} (--csv replaces the job\'s csv)')
    check(name + ': nothing left in the directory', os.listdir(os.path.join(case, 'd')) == [],
          f'left {os.listdir(os.path.join(case, "d"))}')
    doc = load(os.path.join(case, 'out.json'))
    ph = phases(doc)
    check(name + ': the JSON', [x['name'] for x in ph] == ['w', 'r'] and
          ph[0]['bytes'] == 4 << 20 and ph[1]['ops'] == 200 and
          ph[0]['config'].get('job') == 'kind=seq_write block=64k' and
          'size=4m' in ph[0]['config'].get('job_run', ''),
          f'phases {[(x["name"], x["bytes"], x["ops"], x["config"].get("job")) for x in ph]}')
    for f, what in (('out.csv', '1.98,'), ('out.txt', ' w: '),
                    ('out.html', '<html'), ('out.hdr', '#')):
        with open(os.path.join(case, f), errors='replace') as fh:
            text = fh.read()
        check(f'{name}: {f}', what in text, f'no {what!r} in {text[:200]!r}')
    # The journal reads back as the same results.
    r = subprocess.run([REPORT, '--json', os.path.join(case, 'out.journal')],
                       capture_output=True, text=True, timeout=60)
    jd = json.loads(r.stdout) if r.returncode == 0 else None
    check(name + ': the journal', jd is not None and
          [(x['name'], x['ops']) for x in phases(jd)] == [(x['name'], x['ops']) for x in ph],
          'does not read back as the JSON', r)
    # Each phase summed up on standard output.
    lines = p.stdout.splitlines()
    check(name + ': the summaries', len(lines) == 3 and lines[0] == '== tiny.ini ==' and
          lines[1].startswith('  w (seq_write): ') and 'MiB/s' in lines[1] and
          'p50 ' in lines[1] and 'p99 ' in lines[1] and 'max ' in lines[1] and
          lines[1].endswith('no stalls') and lines[2].startswith('  r (random_io): '),
          f'stdout {p.stdout!r}')
    check(name + ': -q says nothing on stderr', p.stderr == '', f'stderr {p.stderr!r}')

    # Without outputs: JOB.journal in the current directory, said; a
    # second run takes the next name.
    os.remove(os.path.join(case, 'tiny.ini'))
    write(os.path.join(case, 'plain.ini'), TINY.format(extra=''))
    p = run(['plain.ini'], case)
    p2 = run(['plain.ini'], case)
    check(name + ': the default journal', p.returncode == 0 and p2.returncode == 0 and
          os.path.exists(os.path.join(case, 'plain.journal')) and
          os.path.exists(os.path.join(case, 'plain.2.journal')) and
          'results journal plain.journal' in p.stderr and
          'results journal plain.2.journal' in p2.stderr,
          f'made {sorted(os.listdir(case))}', p2)
    # --no-journal makes none; --journal FILE that exists is refused.
    p = run(['plain.ini', '--no-journal'], case)
    check(name + ': --no-journal', p.returncode == 0 and
          not os.path.exists(os.path.join(case, 'plain.3.journal')), 'a journal made', p)
    p = run(['plain.ini', '--journal', 'plain.journal'], case)
    check(name + ': --journal over a file', p.returncode == 2 and
          'plain.journal' in p.stderr and 'File exists' in p.stderr, 'not refused', p)


def test_bad_job(tmp):
    """A bad job: the library's one line with file:line, exit 2, nothing
    made (no journal, no output, nothing in the directory)."""
    name = 'bad job'
    case = new_case(tmp, 'bad')
    write(os.path.join(case, 'bad.ini'),
          '[job]\ndir = d\njson = out.json\n\n[w]\nkind = seq_write\nblock = 3x\n')
    before = sorted(os.listdir(case))
    p = run(['bad.ini'], case)
    check(name + ': exit 2, one line', p.returncode == 2 and p.stdout == '' and
          p.stderr.count('\n') == 1 and
          p.stderr.startswith('diskbench-run: bad.ini:7: [w] block '), 'message', p)
    check(name + ': nothing made', sorted(os.listdir(case)) == before and
          os.listdir(os.path.join(case, 'd')) == [], f'{sorted(os.listdir(case))}')
    # A --set that does not hold: the same, the line "set".
    write(os.path.join(case, 'good.ini'), TINY.format(extra='json = out.json\n'))
    before = sorted(os.listdir(case))
    p = run(['good.ini', '-s', 'w.block=3x'], case)
    check(name + ': bad --set', p.returncode == 2 and p.stderr.count('\n') == 1 and
          p.stderr.startswith('diskbench-run: good.ini: set: [w] block "3x"') and
          sorted(os.listdir(case)) == before, 'message', p)
    # One the whole job's checks refuse: named as set, not by a line.
    p = run(['good.ini', '-s', 'w.queue_depth=8'], case)
    check(name + ': --set over a limit', p.returncode == 2 and p.stderr.count('\n') == 1 and
          p.stderr.startswith("diskbench-run: good.ini: set: [w] queue_depth 8 is over the "
                              "sync engine's 1") and
          sorted(os.listdir(case)) == before, 'message', p)
    for args, what in ((['good.ini', '--no-such'], 'unknown option'),
                       ([], 'no job file'),
                       (['good.ini', '-s', 'size'], 'SECTION.KEY=VALUE'),
                       (['missing.ini'], 'missing.ini'),
                       (['good.ini', '--json', 'd/no/such/x.json'], '--json d/no/such/x.json')):
        p = run(args, case)
        check(f'{name}: {" ".join(args) or "no job"}', p.returncode == 2 and
              what in p.stderr and sorted(os.listdir(case)) == before, 'refused', p)


def test_set(tmp):
    """--set sizes a job down: [job] size and a phase's option."""
    name = '--set'
    case = new_case(tmp, 'set')
    write(os.path.join(case, 'big.ini'),
          '[job]\ndir = d\nsize = 1g\njson = out.json\n\n[w]\nkind = seq_write\n'
          'block = 1m\n\n[r]\nkind = random_io\nops = 1000000\n')
    p = run(['big.ini', '-q', '--set', 'job.size=2m', '-s', 'r.ops=50',
             '-s', 'w.block=256k'], case)
    if not check(name + ': exit 0', p.returncode == 0, 'exit', p):
        return
    ph = phases(load(os.path.join(case, 'out.json')))
    check(name + ': the sizes', ph[0]['bytes'] == 2 << 20 and ph[0]['ops'] == 8 and
          ph[1]['ops'] == 50 and 'size=2m' in ph[0]['config']['job_run'] and
          ph[1]['config']['job'] == 'kind=random_io ops=50',
          f'{[(x["bytes"], x["ops"], x["config"]["job"]) for x in ph]}')


def test_dry_run(tmp):
    """--dry-run: each job's plan, and nothing made: not in the directory
    (not even for a moment, a probe made and removed: its mtime stays,
    with the null engine and the sync engine alike), no journal, no
    report file."""
    name = '--dry-run'
    case = new_case(tmp, 'dry')
    write(os.path.join(case, 'tiny.ini'), TINY.format(extra='json = out.json\nrepeat = 2\n'))
    write(os.path.join(case, 'null.ini'),
          '[job]\ndir = d\nengine = null\nsize = 1g\n\n[w]\nkind = seq_write\n')
    d = os.path.join(case, 'd')
    before = sorted(os.listdir(case))
    mtime = os.stat(d).st_mtime_ns
    time.sleep(0.05)
    p = run(['--dry-run', 'null.ini'], case)
    check(name + ': null engine: directory untouched', p.returncode == 0 and
          os.stat(d).st_mtime_ns == mtime and os.listdir(d) == [] and
          '1. w: kind=seq_write' in p.stdout, 'changed or no plan', p)
    p = run(['--dry-run', 'tiny.ini', '--csv', 'x.csv'], case)
    check(name + ': the plans', p.returncode == 0 and
          p.stdout.startswith('== tiny.ini: not executed ==\n2 runs, each:\n') and
          '1. w: kind=seq_write block=64k' in p.stdout and
          '2. r: kind=random_io block=4k ops=200' in p.stdout, 'plan', p)
    check(name + ': nothing made', os.listdir(d) == [] and sorted(os.listdir(case)) == before
          and os.stat(d).st_mtime_ns == mtime,
          f'{sorted(os.listdir(case))}, {os.listdir(d)}, mtime '
          f'{os.stat(d).st_mtime_ns} against {mtime}')


def test_repeat(tmp):
    """repeat = 3 on the null engine: three runs of one set-up."""
    name = 'repeat'
    case = new_case(tmp, 'repeat')
    write(os.path.join(case, 'r.ini'),
          '[job]\ndir = d\nengine = null\nsize = 64m\nrepeat = 3\nname = nullbox\n'
          'json = out.json\n\n[w]\nkind = seq_write\nblock = 1m\n')
    p = run(['r.ini', '-q'], case)
    if not check(name + ': exit 0', p.returncode == 0, 'exit', p):
        return
    doc = load(os.path.join(case, 'out.json'))
    check(name + ': three runs, one name', len(doc['runs']) == 3 and
          all(r['name'] == 'nullbox' and r['phases'][0]['bytes'] == 64 << 20
              for r in doc['runs']) and
          p.stdout.count('== r.ini, run ') == 3 and '== r.ini, run 3 of 3 (nullbox) ==' in p.stdout,
          f'{[(r["name"], len(r["phases"])) for r in doc["runs"]]}', p)
    # -m names the set-up; two jobs go into one report.
    p = run(['r.ini', 'r.ini', '-q', '-m', 'other', '--json', 'two.json', '--no-journal'], case)
    doc = load(os.path.join(case, 'two.json')) if p.returncode == 0 else {'runs': []}
    check(name + ': two jobs, -m', len(doc['runs']) == 6 and
          all(r['name'] == 'other' for r in doc['runs']), 'runs', p)


def test_again(tmp):
    """--again on a JSON result: the same recipe run again under the old
    name + " again", the machine differences said (none here), and
    diskbench-report compares the two as two set-ups."""
    name = '--again'
    case = new_case(tmp, 'again')
    write(os.path.join(case, 'tiny.ini'), TINY.format(extra='json = old.json\nname = box\n'))
    p = run(['tiny.ini', '-q', '-s', 'r.write_percent=50'], case)
    if not check(name + ': the first run', p.returncode == 0, 'exit', p):
        return
    p = run(['--again', 'old.json', '--json', 'new.json', '-q'], case)
    if not check(name + ': exit 0', p.returncode == 0, 'exit', p):
        return
    old, new = load(os.path.join(case, 'old.json')), load(os.path.join(case, 'new.json'))
    keys = [(x['name'], x['config'].get('job'), x['config'].get('job_run')) for x in phases(old)]
    check(name + ': the same recipe', keys == [(x['name'], x['config'].get('job'),
                                                 x['config'].get('job_run'))
                                                for x in phases(new)] and
          keys[1][1] == 'kind=random_io block=4k ops=200 write_percent=50',
          f'{keys} vs {[(x["name"], x["config"].get("job")) for x in phases(new)]}')
    check(name + ': the name', old['runs'][0]['name'] == 'box' and
          new['runs'][0]['name'] == 'box again', f'{new["runs"][0]["name"]!r}')
    check(name + ': the machine differences', '== machine: old.json (run 1) -> this run ==\n'
          '  no difference recorded' in p.stdout, 'not said', p)
    # From the journal the first run kept by default (old.journal): the
    # same recipe again.
    p = run(['--again', 'old.journal', '--json', 'fromj.json', '-q', '--no-journal'], case)
    fj = load(os.path.join(case, 'fromj.json')) if p.returncode == 0 else None
    check(name + ': from a journal', fj is not None and
          [(x['name'], x['config'].get('job')) for x in phases(fj)] ==
          [(k[0], k[1]) for k in keys] and fj['runs'][0]['name'] == 'box again',
          'not the same recipe', p)
    # Run 1 of 1 by number; run 2 does not exist.
    p = run(['--again', 'old.json:1', '-q', '--no-journal', '-m', 'third'], case)
    check(name + ': RESULT:1', p.returncode == 0 and '== old.json:1 (third) ==' in p.stdout,
          'not run', p)
    p = run(['--again', 'old.json:2', '-q'], case)
    check(name + ': RESULT:2', p.returncode == 2 and 'run 2, but it holds 1' in p.stderr,
          'not refused', p)
    r = subprocess.run([REPORT, '--verdict', os.path.join(case, 'old.json'),
                        os.path.join(case, 'new.json')], capture_output=True, text=True,
                       timeout=60)
    check(name + ': diskbench-report sees two set-ups', r.returncode == 0 and
          '2 set-ups (box and box again)' in r.stdout, 'verdict', r)


def test_sigint(tmp):
    """SIGINT once the first phase ended, in the second (a random phase of
    20 s): exit 130, the first result whole and the second partial
    (-ECANCELED) in the JSON, the CSV and the journal."""
    name = 'SIGINT'
    case = new_case(tmp, 'sigint')
    write(os.path.join(case, 'long.ini'),
          '[job]\ndir = d\nsize = 4m\njson = out.json\ncsv = out.csv\n\n'
          '[a]\nkind = seq_write\n\n[b]\nkind = random_io\nops = 1000000000\ntime = 20s\n')
    proc = subprocess.Popen([EXE, 'long.ini', '-q'], cwd=case, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    out = bytearray()
    seen = threading.Event()

    def reader():
        while True:
            b = proc.stdout.read1(4096)
            if not b:
                break
            out.extend(b)
            if b'  a (seq_write)' in out:
                seen.set()

    t = threading.Thread(target=reader)
    t.start()
    if not seen.wait(60):
        proc.kill()
        t.join()
        return fail(name, f'the first phase never ended: {bytes(out)!r}')
    time.sleep(0.3)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    err = proc.stderr.read().decode()
    rc = proc.wait(60)
    t.join()
    took = time.monotonic() - start
    check(name + ': exit 130', rc == 130 and 'interrupted by SIGINT' in err,
          f'rc {rc}, stderr {err!r}')
    check(name + ': stopped at once', took < 10, f'{took:.1f} s after the signal')
    check(name + ': said partial', 'stopped, partial' in out.decode(), f'{bytes(out)!r}')
    doc = load(os.path.join(case, 'out.json'))
    ph = phases(doc)
    check(name + ': the JSON', [x['name'] for x in ph] == ['a', 'b'] and
          ph[0]['error'] is None and ph[0]['bytes'] == 4 << 20 and
          ph[1]['error'] and ph[1]['error']['code'] == -125 and ph[1]['ops'] > 0,
          f'{[(x["name"], x["error"]) for x in ph]}')
    with open(os.path.join(case, 'out.csv')) as f:
        csv = f.read()
    check(name + ': the CSV', csv.startswith('1.98,'), f'{csv!r}')
    r = subprocess.run([REPORT, '--json', os.path.join(case, 'out.journal')],
                       capture_output=True, text=True, timeout=60)
    jd = json.loads(r.stdout) if r.returncode == 0 else None
    check(name + ': the journal', jd is not None and
          [x['name'] for x in phases(jd)] == ['a', 'b'] and
          phases(jd)[1]['error']['code'] == -125, 'not read back', r)
    check(name + ': nothing left in the directory', os.listdir(os.path.join(case, 'd')) == [],
          f'{os.listdir(os.path.join(case, "d"))}')


def test_options(tmp):
    """--options: the job table, five tab-separated fields a line."""
    name = '--options'
    p = run(['--options'], tmp)
    lines = p.stdout.splitlines()
    rows = [ln.split('\t') for ln in lines]
    keys = {r[0] for r in rows}
    check(name, p.returncode == 0 and len(lines) > 50 and
          all(len(r) == 5 and all(r[:4]) for r in rows) and
          {'kind', 'dir', 'repeat', 'journal', 'queue_depth', 'sweep_limit'} <= keys and
          any(r[0] == 'repeat' and r[1] == 'job' and r[2] == 'count' for r in rows),
          f'{len(lines)} lines', p)
    p = run(['--help'], tmp)
    check('--help', p.returncode == 0 and p.stdout.startswith('usage: diskbench-run'), 'help', p)
    p = run(['--version'], tmp)
    check('--version', p.returncode == 0 and p.stdout.startswith('diskbench-run '), 'version', p)


def test_live(tmp):
    """--progress: the live line names the phase, then says "stalled X s"
    while the 400th of 2048 writes of 8 KiB sleeps 2 s (each takes 0.5 ms:
    slow-write-shim.so), and after it the rate and the stall counted; the
    summary says it."""
    name = 'live line'
    shim = os.environ.get('SLOW_WRITE_SHIM')
    if not shim or not os.path.exists(shim):
        return fail(name, f'SLOW_WRITE_SHIM={shim!r}: no shim (meson sets it)')
    case = new_case(tmp, 'live')
    write(os.path.join(case, 'w.ini'),
          '[job]\ndir = d\nsize = 16m\n\n[w]\nkind = seq_write\nblock = 8k\n')
    env = dict(os.environ, LD_PRELOAD=shim, SLOW_WRITE_SIZE='8192',
               SLOW_WRITE_DELAY_US='500', SLOW_WRITE_STALL_AT='400',
               SLOW_WRITE_STALL_MS='2000')
    # An ASan build's runtime would insist on coming first.
    env['ASAN_OPTIONS'] = ':'.join(filter(None, [os.environ.get('ASAN_OPTIONS'),
                                                 'verify_asan_link_order=0']))
    p = subprocess.run([EXE, 'w.ini', '--progress', '--no-journal'], cwd=case, env=env,
                       capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL)
    if not check(name + ': exit 0', p.returncode == 0, 'exit', p):
        return
    parts = [x.replace('\x1b[K', '') for x in re.split(r'[\r\n]', p.stderr) if x]
    live = [x for x in parts if x.startswith('w (seq_write)...')]
    check(name + ': drawn', live and any(re.search(r'\d+%, [\d.]+ (MiB|KiB)/s', x)
                                          for x in live), f'{parts!r}')
    check(name + ': the stall while it lasts',
          any(re.search(r'stalled (1\.[0-9]|2\.[0-9]) s', x) for x in live), f'{live!r}')
    check(name + ': the stall after it', any(re.search(r'MiB/s.*; 1 stall, [12]\.\d s$', x)
                                              for x in live), f'{live!r}')
    summ = [x for x in p.stdout.splitlines() if x.startswith('  w (seq_write): ')]
    check(name + ': the summary', len(summ) == 1 and 'no stalls' not in summ[0] and
          re.search(r'1 stall of [12](\.\d+)? s', summ[0]) and 'max 2.' in summ[0],
          f'{p.stdout!r}')


def main():
    if not os.access(EXE, os.X_OK):
        print(f'{EXE}: not executable')
        return 1
    tmp = tempfile.mkdtemp(prefix='diskbench-run-')
    try:
        if LIVE:
            test_live(tmp)
            return finish()
        test_options(tmp)
        test_outputs(tmp)
        test_bad_job(tmp)
        test_set(tmp)
        test_dry_run(tmp)
        test_repeat(tmp)
        test_again(tmp)
        test_sigint(tmp)
        return finish()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def finish():
    if failures:
        print(f'{len(failures)} failure(s)')
        return 1
    print('all passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
