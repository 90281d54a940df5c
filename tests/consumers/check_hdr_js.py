#!/usr/bin/env python3
"""HdrHistogram's own reader reads our interval logs.

Usage: check_hdr_js.py REPORT-DUMP DISKBENCH-REPORT DISKBENCH-BONNIE WORKDIR

Writes the fixed report (report-dump json) as an HdrHistogram log with
diskbench-report --hdr-log, and a small real run of diskbench-bonnie with
--hdr-log and --json, then reads both logs with the npm package
hdr-histogram-js (its HistogramLogReader, installed into WORKDIR with npm
if it is not there yet) and checks every interval against our JSON: the
tag, the count, min, max and the percentiles, each within HdrHistogram's
precision (one bucket: the same lowest equivalent value).
"""
import json
import os
import subprocess
import sys
import tempfile

DUMP, REPORT, BONNIE, WORK = sys.argv[1:5]
PKG = 'hdr-histogram-js'

NODE_CHECK = r'''
const fs = require('fs');
const hdr = require(process.argv[2]);
const log = fs.readFileSync(process.argv[3], 'utf8');
const want = JSON.parse(fs.readFileSync(process.argv[4], 'utf8'));
const reader = new hdr.HistogramLogReader(log, 'packed');
let bad = 0, n = 0, h;
function same(hist, a, b) {
    return hist.lowestEquivalentValue(a) === hist.lowestEquivalentValue(b);
}
while ((h = reader.nextIntervalHistogram()) !== null) {
    const w = want[n++];
    const where = `interval ${n} (${h.tag})`;
    const check = (ok, what) => { if (!ok) { bad++; console.log(`FAIL ${where}: ${what}`); } };
    if (!w) { check(false, 'more intervals than expected'); break; }
    check(h.tag === w.tag, `tag ${h.tag}, ours ${w.tag}`);
    check(h.totalCount === w.count, `count ${h.totalCount}, ours ${w.count}`);
    check(same(h, h.minNonZeroValue, w.min), `min ${h.minNonZeroValue}, ours ${w.min}`);
    check(same(h, h.maxValue, w.max), `max ${h.maxValue}, ours ${w.max}`);
    for (const [p, v] of w.percentiles) {
        if (v === null) continue;
        const got = h.getValueAtPercentile(p);
        check(same(h, got, v), `p${p} ${got}, ours ${v}`);
    }
    check(Math.abs(h.startTimeStampMsec - w.start_ms) < 1, `start ${h.startTimeStampMsec} ms, ours ${w.start_ms}`);
}
if (n !== want.length) { bad++; console.log(`FAIL ${n} intervals, ${want.length} expected`); }
console.log(`${n} intervals read, ${bad} failure(s)`);
process.exit(bad ? 1 : 0);
'''


def ensure_pkg():
    mod = os.path.join(WORK, 'node_modules', PKG)
    if not os.path.isdir(mod):
        os.makedirs(WORK, exist_ok=True)
        p = subprocess.run(['npm', 'install', '--no-audit', '--no-fund', '--prefix', WORK, PKG],
                           capture_output=True, text=True, timeout=300)
        if p.returncode != 0 or not os.path.isdir(mod):
            print(f'npm install {PKG} failed:\n{p.stdout}\n{p.stderr}')
            sys.exit(1)
    return mod


def bucket_top(b):
    """The largest value of one of the recorder's interval buckets."""
    if b < 8:
        return b
    shift = (b >> 3) - 1
    return ((8 | (b & 7)) << shift) + (1 << shift) - 1


def per_interval(tag, ts, tl):
    """One interval per timeline interval with operations, from the JSON's
    interval histograms: count, max, min and percentiles at bucket tops."""
    out = []
    for i, (pt, row) in enumerate(zip(tl['points'], tl['hists'])):
        ops, mx = pt[0], pt[2]
        if not ops:
            continue
        pairs = list(zip(row[0::2], row[1::2]))
        pcts = []
        for p in (50, 90, 99, 99.9, 100):
            rank, seen = max(1, -(-ops * p // 100)), 0
            for b, c in pairs:
                seen += c
                if seen >= rank:
                    pcts.append([p, bucket_top(b)])
                    break
        at = ts + i * tl['interval_ns']
        # Each count sits at its bucket's top: so do min and max (the
        # line's Interval_Max column has the exact maximum).
        if bucket_top(pairs[-1][0]) < mx:
            raise SystemExit(f'{tag}: interval {i}: max {mx} above its last bucket')
        out.append({'tag': tag, 'count': ops, 'min': bucket_top(pairs[0][0]),
                    'max': bucket_top(pairs[-1][0]), 'percentiles': pcts,
                    'start_ms': (at + 500000) // 1000000 if at else 0})
    return out


def expected(doc):
    """What the log should hold: per phase with operations, our figures;
    per timeline interval where the timeline has interval histograms."""
    out = []
    for run in doc['runs']:
        t0 = None
        for ph in run['phases']:
            if ph.get('summary_only') or not ph['latency']['count']:
                continue
            start = ph['timeline']['start_ns']
            t0 = start if t0 is None else t0
            ts = (run['start_time_ns'] or 0) + max(start - t0, 0)
            tag = f"{run['name']}/{ph['name']}".replace(' ', '_').replace(',', '_')
            if 'hists' in ph['timeline']:
                out += per_interval(tag, ts, ph['timeline'])
                continue
            out.append({
                'tag': tag,
                'count': ph['latency']['count'],
                'min': ph['latency']['min_ns'],
                'max': ph['latency']['max_ns'],
                'percentiles': [[p['p'], p['value_ns']] for p in ph['latency']['percentiles']],
                # whole ms, half up, in integers as the writer does (a
                # float of 1.8e18 ns could round a half either way)
                'start_ms': (ts + 500000) // 1000000 if ts else 0,
            })
    return out


def check(name, logpath, doc, mod, tmp):
    want = os.path.join(tmp, name + '.want.json')
    with open(want, 'w') as f:
        json.dump(expected(doc), f)
    with open(logpath) as f:
        head = f.readline()
    if head != '#[Histogram log format version 1.3]\n':
        print(f'FAIL {name}: first line {head!r}')
        return False
    script = os.path.join(tmp, 'check.js')
    with open(script, 'w') as f:
        f.write(NODE_CHECK)
    p = subprocess.run(['node', script, mod, logpath, want], capture_output=True, text=True)
    print(f'{name}: {p.stdout.strip()} {p.stderr.strip()}')
    return p.returncode == 0


def main():
    mod = ensure_pkg()
    ok = True
    with tempfile.TemporaryDirectory(prefix='diskbench-hdr-') as tmp:
        # The fixed report, through diskbench-report.
        fx = os.path.join(tmp, 'fx.json')
        with open(fx, 'w') as f:
            subprocess.run([DUMP, 'json'], stdout=f, check=True)
        log = os.path.join(tmp, 'fx.hdr')
        subprocess.run([REPORT, '--hdr-log', '-o', log, fx], check=True)
        with open(fx) as f:
            ok &= check('fixture', log, json.load(f), mod, tmp)
        # A real run, through diskbench-bonnie.
        d = os.path.join(tmp, 'scratch')
        os.mkdir(d)
        j, log = os.path.join(tmp, 'run.json'), os.path.join(tmp, 'run.hdr')
        user = ['-u', 'root'] if os.geteuid() == 0 else []
        p = subprocess.run([BONNIE, '-d', d] + user + ['-s', '16', '-r', '8', '-n', '1', '-m', 'host',
                                                       '--no-progress', '--json', j, '--hdr-log', log],
                           capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            print(f'FAIL diskbench-bonnie: exit {p.returncode}: {p.stderr}')
            return 1
        with open(j) as f:
            doc = json.load(f)
        ok &= check('diskbench-bonnie', log, doc, mod, tmp)
        # Its timelines kept their interval histograms: a log with one
        # interval per timeline interval, also from its JSON read back.
        if not all('hists' in ph['timeline'] for ph in doc['runs'][0]['phases']
                   if ph['latency']['count']):
            print('FAIL diskbench-bonnie: a timeline without interval histograms')
            ok = False
        back = os.path.join(tmp, 'back.hdr')
        subprocess.run([REPORT, '--hdr-log', '-o', back, j], check=True)
        with open(log) as a, open(back) as b:
            if a.read() != b.read():
                print('FAIL diskbench-report --hdr-log of the JSON differs from '
                      'diskbench-bonnie --hdr-log')
                ok = False
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
