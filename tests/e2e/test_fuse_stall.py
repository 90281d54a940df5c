#!/usr/bin/env python3
"""diskbench-bonnie on a device that stalls when the test says so.

Usage: test_fuse_stall.py PATH-TO-diskbench-bonnie SOURCE-ROOT PATH-TO-holdfs

Root only, with loop devices and /dev/fuse: tests/support/fuse-stall.py
puts ext4 on a loop device (direct I/O) over an image file on holdfs
(tests/support/holdfs.c), a FUSE file system that holds every read,
write and sync arriving in a hold window until the window closes, and
logs each window: when it opened and closed, how many requests it held
and when the first of them arrived. Below the loop device's queue, then,
the device has requests and completes none: what the library's verdict
calls "below the block layer".

diskbench-bonnie runs with -y p, which prints each test's number and
waits for a line before starting it: at each prompt the test schedules
that test's windows (absolute times on CLOCK_MONOTONIC, the clock of the
JSON's timelines) through holdfs's control FIFO, then lets it start.
Three regimes, each on a fresh device, with 20 ms timeline intervals:

  a. O_DIRECT writes (-D, 512-byte blocks): two holds of 0.8 s, at 0.3 s
     and 1.8 s into put_block, inside its writes;
  b. buffered writes of a file of 96 MiB while the loop device's own
     dirty limit is 256 KiB (its bdi's max_bytes, with strict_limit):
     the writers wait for the device's writeback; two holds of 1.2 s in
     put_block and two in rewrite, at 0.3 s and 2.0 s into each. Longer
     than a's: the throttled writer pauses often (p99 7.7-7.9 ms here),
     so the stall rule's relative threshold (100 x p99) is 0.78-0.79 s,
     and a writer held 0.8 s is a stall or not by a few ms; at 1.2 s it
     waits over the rule's absolute second.

     The holds of a and b need about 1 s of writes that were not held:
     put_block takes 3.8 s unheld in a and 2.5 s in b on the project's
     2-core machine, rewrite 3 s; the short periods leave margin for a
     faster machine, and a test cut too short is said ("not inside its
     writes"). A hold too short to be a stall under the phase's own
     rule (stall_summary's threshold_ns, at most 1 s) is said as well;
  c. holds of 1 s in a test's closing fsync: windows open at the prompts
     of put_block (buffered, 16 MiB: its writes end in the page cache in
     tens of ms, then its fsync writes it all out) and of get_block (its
     reads come from the page cache; its fsync commits the atime update
     and flushes). Nothing reaches the device before the fsync, so the
     window holds the fsync's first request at its arrival, whenever
     the writes end: the window holds the fsync alone, for the window's
     rest, whatever the machine's load.

The fixture is checked first (failures say "fixture"): each regime's
windows held requests where they were meant to (inside the writes in a
and b; in c, in the closing fsync, which no operation of the phase
waited for), each hold was long enough to be a stall under its phase's
rule, the loop device had requests in flight at every sample the test
took of /sys/block/loopN/stat inside each hold (every 10 ms, from 20 ms
after the hold's first request to 20 ms before its end) and completed
none between them, the loop device used direct I/O, the dirty limit
came back, and nothing (mount, loop device, directory) was left behind.

Then, against holdfs's log, only the windows that held at least one
request, each from when its first request arrived (before that it held
nothing: in c, the window opens before the test starts) to its end:

- each hold is ONE stall of the JSON, of the held length within 25 %,
  starting within 0.1 s of the hold (the 20 ms intervals and a held
  request's own arrival are well within it), with verdict "below" naming
  the loop device;
- each phase that held has its share stalled (stall_summary's
  stalled_ns over elapsed_ns) within 10 percentage points of its share
  held;
- no stall of 200 ms or more anywhere where nothing was held.

One line per failed assertion, then a last line (FUSE_STALL_KEEP=DIR
keeps the JSON documents and holdfs's logs in DIR). A fourth regime, b
with a memory cgroup's limit in place of the bdi's, needs cgroup v2's
memory controller (fuse-stall.py's memory_cgroup()); the project's
machine has cgroup v1's only, where it is skipped with a line saying
so, and it is not written yet for a machine that has it (a line says
that too). 20 to 30 s on the 2-core machine of the project. Exit 77
(skipped) only when not root, without loop devices or without FUSE
(no /dev/fuse, or holdfs not built: no libfuse3).
"""
import os as _os
import sys as _sys
_sys.path.insert(0, _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), ".."))
import signal_defaults  # noqa: E402,F401 (first: the children inherit it)
import contextlib
import importlib.util
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

SKIP = 77
BONNIE = os.path.abspath(sys.argv[1])
SRC = os.path.abspath(sys.argv[2])
HOLDFS = sys.argv[3] if len(sys.argv) > 3 else ''

_spec = importlib.util.spec_from_file_location(
    'fuse_stall', os.path.join(SRC, 'tests', 'support', 'fuse-stall.py'))
fs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fs)

MS = 1_000_000
S = 1_000_000_000
INTERVAL_MS = 20
# What bonnie runs in every regime: no per-byte tests (-f), no small
# files (-n 0), 50 seeks by one seeker without the 3 s pause, no size
# check against the RAM (-r 0), no journal on the device under test.
COMMON = ['-f', '-n', '0', '-r', '0', '--no-settle', '--no-progress',
          '--no-journal', '--timeline-interval', str(INTERVAL_MS)]
# The assertions' tolerances (issue 46, item 5).
LENGTH_TOL = 0.25          # a stall's length against the hold's
START_TOL = 100 * MS       # its start against the hold's first request
SHARE_TOL = 0.10           # stalled share against held share
LONG_NS = 200 * MS         # no stall this long where nothing was held
# Each hold is this much longer than the least stall of its phase's rule
# (one under it is rightly no stall: the fixture's fault).
RULE_MARGIN = 1.15
# The loop device is sampled every 10 ms; inside a hold, a sample this
# far from its ends must show a request in flight (the first held
# request is counted at its arrival, the last let go at the end).
SAMPLE_S = 0.01
EDGE_NS = 20 * MS

# FUSE_STALL_KEEP=DIR keeps each regime's JSON and holdfs's log there.
KEEP = os.environ.get('FUSE_STALL_KEEP')

failures = []


class Stop(Exception):
    """SIGTERM (meson's timeout) or SIGINT: clean up and go."""


def on_signal(sig, frame):
    raise Stop(signal.Signals(sig).name)


def fail(name, why, kind='library'):
    failures.append((kind, f'FAIL {name}: {why}'))
    print(failures[-1][1], flush=True)


def fixture_fail(name, why):
    fail(name, 'fixture: ' + why, 'fixture')


def ok(name, what):
    print(f'ok   {name}: {what}', flush=True)


def secs(ns):
    return f'{ns / S:.3f} s'


# --- the schedules, at each -y p prompt ---------------------------------
# bonnie's test numbers: 1 put_block, 2 rewrite, 4 get_block, 5 seeks.
PUT_BLOCK, REWRITE, GET_BLOCK, SEEKS = 1, 2, 4, 5


def windows_at(offsets_s, hold_s):
    """A schedule: at the prompts of the tests in offsets_s, windows of
    hold_s starting those offsets after the prompt; every other prompt
    clears what was left of the one before."""
    def at_prompt(dev, test):
        dev.clear()
        t = time.monotonic_ns()
        for off in offsets_s.get(test, ()):
            dev.hold_at(t + off * S, t + (off + hold_s) * S)
    return at_prompt


REGIMES = [
    {'name': 'a', 'what': 'O_DIRECT writes, holds inside put_block',
     'size_mib': 64, 'args': ['-s', '32:512:50:1', '-D'],
     'schedule': windows_at({PUT_BLOCK: (0.3, 1.8)}, 0.8),
     'where': 'ops', 'expect': {'put_block': 2}},
    {'name': 'b', 'what': 'buffered writes over a 256 KiB dirty limit, holds inside '
                          'put_block and rewrite',
     'size_mib': 160, 'args': ['-s', '96:8192:50:1'], 'dirty_bytes': 256 << 10,
     # 1.4 s: the rule's 1 s x 1.15 with room for a first held request
     # that comes late on a loaded machine (1.146 s of 1.2 s was seen).
     'schedule': windows_at({PUT_BLOCK: (0.3, 2.2), REWRITE: (0.3, 2.2)}, 1.4),
     'where': 'ops', 'expect': {'put_block': 2, 'rewrite': 2}},
    {'name': 'c', 'what': 'holds in the closing fsync of put_block and get_block',
     'size_mib': 64, 'args': ['-s', '16:8192:50:1'],
     'schedule': windows_at({PUT_BLOCK: (0.0,), GET_BLOCK: (0.0,)}, 1.0),
     'where': 'fsync', 'expect': {'put_block': 1, 'get_block': 1}},
]


# --- running ------------------------------------------------------------
class LoopSampler(threading.Thread):
    """The loop device's /sys/block/loopN/stat every SAMPLE_S:
    (time_ns, requests in flight, requests completed)."""

    def __init__(self, dev):
        super().__init__(daemon=True)
        self.path = f'/sys/block/{dev.loop_name}/stat'
        self.samples = []
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            with open(self.path) as f:
                v = [int(x) for x in f.read().split()]
            self.samples.append((time.monotonic_ns(), v[8], v[0] + v[4]))
            self.done.wait(SAMPLE_S)

    def stop(self):
        self.done.set()
        self.join()


def run_bonnie(tmp, dev, name, args, at_prompt):
    """diskbench-bonnie -y p on the device, at_prompt(dev, test) at each
    test's prompt: the JSON document, or None."""
    jpath = os.path.join(tmp, name + '.json')
    cmd = [BONNIE, '-d', dev.mnt, '-u', 'root', '-m', name, '-y', 'p',
           '--json', jpath] + COMMON + args
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, bufsize=1)
    err = []
    t = threading.Thread(target=lambda: err.extend(p.stderr), daemon=True)
    t.start()
    watchdog = threading.Timer(120, p.kill)
    watchdog.start()
    try:
        for line in p.stdout:
            m = re.fullmatch(r'(\d+):', line.strip())
            if m:
                at_prompt(dev, int(m.group(1)))
                p.stdin.write('\n')
                p.stdin.flush()
        p.wait()
    finally:
        watchdog.cancel()
        if p.poll() is None:
            p.kill()
            p.wait()
        t.join(5)
    if p.returncode != 0:
        fixture_fail(name, f'diskbench-bonnie: exit {p.returncode}: {"".join(err)[-2000:]!r}')
        return None
    with open(jpath) as f:
        doc = json.load(f)
    if KEEP:
        shutil.copy(jpath, KEEP)
    return doc


def loops_of(d):
    p = subprocess.run(['losetup', '-l', '-n', '-O', 'NAME,BACK-FILE'],
                       capture_output=True, text=True)
    return [ln.strip() for ln in p.stdout.splitlines() if d in ln]


def mounts_of(d):
    with open('/proc/self/mounts') as f:
        return [ln.split()[1] for ln in f if d in ln]


def run_regime(tmp, rg):
    """One regime on a fresh device: (doc, holdfs's windows, the loop
    sampler's samples, the loop device's name), doc None on failure."""
    name = rg['name']
    doc = wins = samples = loop = None
    d = None
    try:
        with fs.FuseStall(HOLDFS, size_mib=rg['size_mib']) as dev:
            d, loop = dev.dir, dev.loop_name
            if not dev.dio:
                fixture_fail(name, f'{dev.loop} does not use direct I/O')
            with contextlib.ExitStack() as stack:
                bdi = f'/sys/class/bdi/{dev.devno[0]}:{dev.devno[1]}'
                before = bdi_state(bdi)
                if rg.get('dirty_bytes'):
                    got = stack.enter_context(dev.dirty_limit(rg['dirty_bytes']))
                    ok(name, f"{dev.loop_name}'s dirty limit: max_bytes {got['max_bytes']}, "
                             f"strict_limit {got['strict_limit']}")
                sampler = LoopSampler(dev)
                sampler.start()
                t = time.monotonic()
                try:
                    doc = run_bonnie(tmp, dev, name, rg['args'], rg['schedule'])
                finally:
                    sampler.stop()
                print(f'     {name}: diskbench-bonnie ran {time.monotonic() - t:.1f} s',
                      flush=True)
            if bdi_state(bdi) != before:
                fixture_fail(name, f'{bdi}: {bdi_state(bdi)} after, {before} before')
            # Nothing of the benchmark's is left to hold: a window still
            # open closes now, and its line is written.
            dev.clear()
            dev.command('release')
            time.sleep(0.2)
            wins = dev.windows()
            samples = sampler.samples
            if KEEP:
                shutil.copy(dev.log, os.path.join(KEEP, name + '-holds.log'))
    except fs.TeardownError as e:
        fixture_fail(name, f'teardown: {e}')
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        fixture_fail(name, f'{type(e).__name__}: {e}')
        doc = None
    if d and (os.path.exists(d) or loops_of(d) or mounts_of(d)):
        fixture_fail(name, f'left behind: {loops_of(d) + mounts_of(d) or d}')
    elif d:
        ok(name, 'torn down: no mount, loop device or directory left')
    return doc, wins, samples, loop


def bdi_state(bdi):
    out = {}
    # max_bytes is not among them: the kernel keeps the limit as a ratio
    # of the machine's dirty limit, which moves with its free memory.
    for n in ('max_ratio_fine', 'max_ratio', 'min_ratio_fine', 'strict_limit'):
        with contextlib.suppress(OSError):
            with open(os.path.join(bdi, n)) as f:
                out[n] = f.read().strip()
    return out


# --- checking -----------------------------------------------------------
def phases(doc):
    """Each phase: name, start and end on CLOCK_MONOTONIC, the end of its
    last operation (the end of the last timeline interval in which one
    ended: after it, the phase only closes its file), its stalls with
    absolute times, and the phase itself."""
    out = []
    for ph in doc['runs'][0]['phases']:
        tl = ph['timeline']
        t0 = tl['start_ns']
        used = [i for i, pt in enumerate(tl['points']) if pt[0]]
        last = t0 + ((used[-1] + 1) if used else 0) * tl['interval_ns']
        out.append({'name': ph['name'], 't0': t0, 't1': t0 + ph['elapsed_ns'],
                    'ops_end': min(last, t0 + ph['elapsed_ns']),
                    'stalls': [(t0 + s['start_ns'], t0 + s['end_ns'], s)
                               for s in ph['stalls']],
                    'ph': ph})
    return out


def overlap(a0, a1, b0, b1):
    return max(0, min(a1, b1) - max(a0, b0))


def describe(s, ph):
    st = s[2]
    return (f"{secs(st['latency_ns'])} from {secs(s[0] - ph['t0'])} ({st['cause']})")


def check_fixture(rg, wins, samples, ps):
    """The device did what the regime needs; the held spans, each
    (start, end, window, phase)."""
    name = rg['name']
    held = [w for w in wins if w['held'] > 0]
    spans = []
    for w in held:
        hs, he = w['first_held_ns'], w['end_ns']
        ph = max(ps, key=lambda p: overlap(hs, he, p['t0'], p['t1']))
        if not overlap(hs, he, ph['t0'], ph['t1']):
            fixture_fail(name, f'a window held {w["held"]} requests outside every test: {w}')
            continue
        spans.append((hs, he, w, ph))
        where = f"{ph['name']}: hold of {secs(he - hs)} from {secs(hs - ph['t0'])}"
        if w.get('cut_short'):
            fixture_fail(name, f'{where}: cut short')
        if rg['where'] == 'ops' and not (ph['t0'] <= hs and he <= ph['ops_end']):
            fixture_fail(name, f'{where}: not inside its writes (they end at '
                               f"{secs(ph['ops_end'] - ph['t0'])}): make the test longer")
        # Long enough to be a stall under the phase's own rule: an
        # operation of 1 s, or of 100 x p99 and 100 ms (the threshold).
        thr = ph['ph']['stall_summary'].get('threshold_ns') or 0
        rule = min(S, max(100 * MS, thr))
        if he - hs < RULE_MARGIN * rule:
            fixture_fail(name, f'{where}: shorter than {RULE_MARGIN} x the stall rule\'s '
                               f'{secs(rule)} (100 x p99 {secs(thr)}): make it longer')
        # In the closing fsync: no operation of the phase waited for it.
        # (The timeline says when the last one ended only to an interval;
        # an operation that met the hold would have lasted most of it.)
        worst = ph['ph']['latency']['max_ns']
        if rg['where'] == 'fsync' and (hs < ph['t0'] or worst > (he - hs) // 4):
            fixture_fail(name, f'{where}: an operation of the phase waited '
                               f'{secs(worst)}: the hold was not in the closing fsync alone')
        inside = [(t, n, c) for t, n, c in samples if hs + EDGE_NS <= t <= he - EDGE_NS]
        empty = [t for t, n, _ in inside if n == 0]
        done = inside[-1][2] - inside[0][2] if inside else 0
        if not inside or empty or done:
            fixture_fail(name, f'{where}: the loop device had nothing in flight at '
                               f'{len(empty)} of {len(inside)} samples inside it, and '
                               f'completed {done} requests')
        else:
            ok(name, f"{where}: held {w['held']} requests "
                     f"(read {w['read']}, write {w['write']}, fsync {w['fsync']}); "
                     f"{len(inside)} samples, each with a request in flight, none "
                     f"completed")
    got = {}
    for _, _, _, ph in spans:
        got[ph['name']] = got.get(ph['name'], 0) + 1
    if got != rg['expect']:
        fixture_fail(name, f'held windows per test: {got}, not {rg["expect"]} '
                           f'(windows: {wins})')
    return spans


def check_stalls(rg, spans, ps, loop):
    name = rg['name']
    for i, (hs, he, w, ph) in enumerate(spans, 1):
        length = he - hs
        tag = f"{name}/{ph['name']}"
        where = f'hold {i} ({secs(length)} from {secs(hs - ph["t0"])} into the phase)'
        hits = [(s, p) for p in ps for s in p['stalls'] if s[0] < he and s[1] > hs]
        if len(hits) != 1:
            fail(tag, f'{where} is {len(hits)} stalls, not one' +
                 (': ' + ', '.join(describe(s, p) for s, p in hits) if hits else ''))
            continue
        s, p = hits[0]
        st = s[2]
        bad = []
        if abs(st['latency_ns'] - length) > LENGTH_TOL * length:
            bad.append(f"lasts {secs(st['latency_ns'])}, not {secs(length)} within "
                       f'{LENGTH_TOL:.0%}')
        if abs(s[0] - hs) > START_TOL:
            bad.append(f'starts {(s[0] - hs) / MS:+.0f} ms from the hold, more than '
                       f'{START_TOL // MS} ms')
        devs = p['ph']['devices']['list']
        dev = devs[st['cause_device']]['name'] if st.get('cause_device') is not None \
            and st['cause_device'] < len(devs) else None
        if st['cause'] != 'below' or dev != loop:
            bad.append(f"verdict {st['cause']} on {dev}, not below on {loop} "
                       f"({st.get('cause_text')!r})")
        if p is not ph:
            bad.append(f"is a stall of {p['name']}")
        # Placed: a hold in the closing fsync is said to be there (the
        # phase's waits hold the fsync it fell in), one inside the
        # operations is not.
        in_fsync = rg['where'] == 'fsync'
        if st.get('in_wait') is not in_fsync or not st.get('device'):
            bad.append(f"has device {st.get('device')} and in_wait {st.get('in_wait')}, "
                       f"not True and {in_fsync}")
        if in_fsync and not any(
                w['what'] == 'fsync' and w['start_ns'] < s[1] - p['t0'] and
                w['start_ns'] + w['latency_ns'] > s[0] - p['t0']
                for w in p['ph'].get('waits', [])):
            bad.append(f"overlaps no fsync among the phase's waits "
                       f"({p['ph'].get('waits')})")
        for b in bad:
            fail(tag, f'{where}: the stall {b}')
        if not bad:
            ok(tag, f"{where} is one stall of {secs(st['latency_ns'])} from "
                    f"{(s[0] - hs) / MS:+.0f} ms, below on {loop}")
    for p in ps:
        mine = [(hs, he) for hs, he, _, ph in spans if ph is p]
        if not mine:
            continue
        el = p['ph']['elapsed_ns']
        held = sum(overlap(hs, he, p['t0'], p['t1']) for hs, he in mine) / el
        stalled = p['ph']['stall_summary']['stalled_ns'] / el
        tag = f"{name}/{p['name']}"
        if abs(stalled - held) > SHARE_TOL:
            fail(tag, f'{stalled:.1%} of the phase stalled, {held:.1%} held '
                      f'(more than {SHARE_TOL * 100:.0f} points apart)')
        else:
            ok(tag, f'{stalled:.1%} of the phase stalled, {held:.1%} held')
    for p in ps:
        for s in p['stalls']:
            if s[2]['latency_ns'] >= LONG_NS and not any(
                    s[0] < he and s[1] > hs for hs, he, _, _ in spans):
                fail(f"{name}/{p['name']}", f'a stall of {describe(s, p)} where nothing '
                                            f'was held')


def check_memcg():
    """The memory-cgroup variant of b needs cgroup v2's memory controller."""
    try:
        with fs.memory_cgroup(64 << 20):
            pass
    except fs.Skip as e:
        print(f'skip memcg: {e}', flush=True)
        return
    # Its holds and sizes need a machine with the controller to be
    # measured on, as b's were; until then the bdi's limit stands in.
    print('skip memcg: cgroup v2 has the memory controller here, but the '
          'memory-cgroup regime is not written yet (b covers the dirty limit)',
          flush=True)


def main():
    why = fs.usable(HOLDFS)
    if why:
        print(f'SKIP: {why}')
        return SKIP
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    t = time.monotonic()
    tmp = tempfile.mkdtemp(prefix='diskbench-fuse-test.')
    try:
        for rg in REGIMES:
            print(f"== {rg['name']}: {rg['what']}", flush=True)
            doc, wins, samples, loop = run_regime(tmp, rg)
            if not doc or wins is None:
                continue
            ps = phases(doc)
            spans = check_fixture(rg, wins, samples, ps)
            check_stalls(rg, spans, ps, loop)
        check_memcg()
    except Stop as e:
        fixture_fail('test', f'stopped by {e}')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    took = time.monotonic() - t
    if failures:
        fx = sum(1 for k, _ in failures if k == 'fixture')
        print(f'\n{len(failures)} failure(s) ({len(failures) - fx} of the stalls, '
              f'{fx} of the fixture) in {took:.1f} s')
        return 1
    print(f'all passed in {took:.1f} s')
    return 0


if __name__ == '__main__':
    sys.exit(main())
