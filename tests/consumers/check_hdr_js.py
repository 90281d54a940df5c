#!/usr/bin/env python3
"""HdrHistogram's own reader reads our interval logs.

Usage: check_hdr_js.py REPORT-DUMP DISKBENCH-REPORT DISKBENCH-BONNIE WORKDIR

Writes the fixed report (report-dump json) as an HdrHistogram log with
diskbench-report --hdr-log, and a small real run of diskbench-bonnie with
--hdr-log and --json, then reads both logs with the npm package
hdr-histogram-js (its HistogramLogReader, installed into WORKDIR with npm
if it is not there yet) and checks them against our JSON of the same
results:

- every interval: its tag, start and count, and where the log has one
  per timeline interval, that its minimum and percentiles fall in the
  interval's own buckets (its timeline interval's histogram in the JSON,
  the recorder's 8 buckets per power of two), and its maximum is that of
  the interval's exact one (holds_max());
- every tag (a phase) with its intervals added up, as HdrHistogram's
  readers add a tag's intervals: the count, p50, p90, p99 and p99.9 within
  2^-precision_bits of the library's (the JSON's latency.percentiles) and
  the maximum too (see check_sum()).
"""
import json
import os
import subprocess
import sys
import tempfile

DUMP, REPORT, BONNIE, WORK = sys.argv[1:5]
PKG = 'hdr-histogram-js'

# Reads a log; prints, as JSON, per interval and per tag (the intervals of
# the tag added into one histogram of the same significant digits, which
# adds count by count), what the reader makes of it.
NODE_READ = r'''
const fs = require('fs');
const hdr = require(process.argv[2]);
const log = fs.readFileSync(process.argv[3], 'utf8');
const pcts = JSON.parse(process.argv[4]);
const reader = new hdr.HistogramLogReader(log, 'packed');
function facts(h) {
    const out = {
        count: h.totalCount,
        digits: h.numberOfSignificantValueDigits,
        // maxValue: HdrHistogram's maximum, the highest value of the
        // highest non-empty bucket (the line's Interval_Max is not read)
        max: h.highestEquivalentValue(h.maxValue),
        max_low: h.lowestEquivalentValue(h.maxValue),
        min: h.minNonZeroValue,
        pcts: pcts.map(p => [p, h.getValueAtPercentile(p)]),
    };
    return out;
}
const intervals = [], sums = {}, order = [];
let h;
while ((h = reader.nextIntervalHistogram()) !== null) {
    const f = facts(h);
    f.tag = h.tag;
    f.start_ms = h.startTimeStampMsec;
    intervals.push(f);
    if (!(h.tag in sums)) {
        order.push(h.tag);
        sums[h.tag] = hdr.build({ bitBucketSize: 'packed', autoResize: true,
                                  numberOfSignificantValueDigits: h.numberOfSignificantValueDigits });
    }
    sums[h.tag].add(h);
}
const tags = order.map(t => Object.assign({ tag: t }, facts(sums[t])));
console.log(JSON.stringify({ intervals, tags }));
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


def tl_bucket(v):
    """The recorder's interval bucket of a value (8 per power of two)."""
    if v < 8:
        return v
    m = v.bit_length() - 1
    return ((m - 2) << 3) | ((v >> (m - 3)) & 7)


def phases(doc):
    """Per phase with operations, in the log's order: its tag, its start
    on the wall clock, and its latency and timeline (the phase's, then a
    paced phase's response time, tagged .../response)."""
    for run in doc['runs']:
        t0 = None
        for ph in run['phases']:
            if ph.get('summary_only') or not ph['latency']['count']:
                continue
            start = ph['timeline']['start_ns']
            t0 = start if t0 is None else t0
            ts = (run['start_time_ns'] or 0) + max(start - t0, 0)
            tag = f"{run['name']}/{ph['name']}".replace(' ', '_').replace(',', '_')
            yield tag, ts, ph['latency'], ph['timeline']
            resp = ph.get('pace', {}).get('response')
            if resp and resp['latency']['count']:
                yield tag + '/response', ts, resp['latency'], resp['timeline']


def ms(ns):
    # whole ms, half up, in integers as the writer does (a float of
    # 1.8e18 ns could round a half either way)
    return (ns + 500000) // 1000000 if ns else 0


def nested(lat, tl):
    """Whether the log holds this phase per timeline interval: the timeline
    kept its interval histograms and the phase's buckets (2^bits per power
    of two) nest in them (8 per power of two)."""
    return 'hists' in tl and lat['histogram']['precision_bits'] >= 3


def half_mag(digits):
    """HdrHistogram's sub-bucket half count magnitude for `digits`
    significant digits: 2^(m+1) sub-buckets, m + 1 = ceil(log2(2 x 10^d))."""
    return (2 * 10**digits - 1).bit_length() - 1


def holds_max(got, mx, bits):
    """The reader's maximum, the highest value of the highest non-empty
    bucket (highestEquivalentValue; the line's Interval_Max is not read),
    is the top of the bucket of ours that holds mx: at most 2^-bits above
    it. Where the reader's buckets are ours (7 bits: 2 significant digits,
    the library's default; 10 bits: 3), mx lies in the reader's bucket too;
    other precisions have the fewest digits at least as fine, and the count
    of a bucket of ours is in the highest of the reader's within it."""
    if not mx <= got['max'] or (got['max'] - mx) * 2**bits > mx:
        return False
    return half_mag(got['digits']) != bits or got['max_low'] <= mx


def tl_bucket_low(b):
    """The lowest value of one of the recorder's interval buckets."""
    return b if b < 8 else (8 | (b & 7)) << ((b >> 3) - 1)


def check_interval(fail, where, got, ops, mx, pairs, lat):
    """An interval of the timeline: its operations, and every value the
    reader gives inside the interval's own buckets (the recorder's); values
    above the phase histogram's range (its overflow) at the phase's
    maximum, as the phase's histogram has them."""
    bits, highest = lat['histogram']['precision_bits'], lat['histogram']['highest_ns']

    def where_is(b):
        return 'over' if tl_bucket_low(b) > highest else b

    def bucket_of(v):
        return 'over' if v > highest else tl_bucket(v)

    if got['count'] != ops:
        fail(f'{where}: count {got["count"]}, ours {ops}')
    buckets = [b for b, _ in pairs]
    for p, v in got['pcts']:
        rank, seen = max(1, -(-ops * p // 100)), 0
        for b, c in pairs:
            seen += c
            if seen >= rank:
                break
        if bucket_of(v) != where_is(b):
            fail(f'{where}: p{p} {v} outside its bucket ({b})')
    if buckets[0] and bucket_of(got['min']) != where_is(buckets[0]):
        fail(f'{where}: min {got["min"]} outside its bucket ({buckets[0]})')
    # Its maximum: the bucket of the interval's exact one.
    if not holds_max(got, mx if mx <= highest else lat['max_ns'], bits):
        fail(f'{where}: max {got["max_low"]}..{got["max"]}, ours {mx}')


def check_sum(fail, where, got, lat, pcts):
    """A tag's intervals added up against the phase's own figures.

    Percentiles: HdrHistogram's reader gives the highest value of the
    bucket of the rank; ours is the same bucket's top, or the maximum where
    lower; both within one of our buckets, 2^-bits of the value.

    Maximum: as holds_max(). With the default 7 bits the reader's buckets
    are ours, 2^-7 of their lowest value wide (1/128 = 0.78 %): the exact
    maximum lies in the reader's highest bucket, whose top the reader
    gives, at most 2^-7 above it. Nothing finer is possible: the log holds
    counts per bucket.
    """
    bits = lat['histogram']['precision_bits']
    worst = {}
    if got['count'] != lat['count']:
        fail(f'{where}: count {got["count"]}, ours {lat["count"]}')
    ours = {p['p']: p['value_ns'] for p in lat['percentiles']}
    for p, v in got['pcts']:
        w = ours.get(p)
        if w is None:      # not asked for, or among overflowed values
            continue
        worst[f'p{p}'] = abs(v - w) / w if w else float(v != w)
        if abs(v - w) * 2**bits > w:
            fail(f'{where}: p{p} {v}, ours {w} ({100 * (v - w) / w:+.2f} %, '
                 f'more than 2^-{bits})')
    mx = lat['max_ns']
    worst['max'] = abs(got['max'] - mx) / mx if mx else float(got['max'] != mx)
    if not holds_max(got, mx, bits):
        fail(f'{where}: max {got["max"]} (its bucket from {got["max_low"]}), '
             f'ours {mx} ({100 * (got["max"] - mx) / mx:+.2f} %)')
    return worst


def check(name, logpath, doc, mod, tmp):
    with open(logpath) as f:
        head = f.readline()
    if head != '#[Histogram log format version 1.3]\n':
        print(f'FAIL {name}: first line {head!r}')
        return False
    pcts = sorted({50, 90, 99, 99.9} |
                  {p['p'] for ph in doc['runs'][0]['phases'] for p in ph['latency']['percentiles']})
    script = os.path.join(tmp, 'read.js')
    with open(script, 'w') as f:
        f.write(NODE_READ)
    p = subprocess.run(['node', script, mod, logpath, json.dumps(pcts)],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print(f'FAIL {name}: node: {p.stderr.strip()}')
        return False
    got = json.loads(p.stdout)
    bad = []

    def fail(what):
        if len(bad) < 40:
            print(f'FAIL {name}: {what}')
        bad.append(what)

    intervals, sums = iter(got['intervals']), {t['tag']: t for t in got['tags']}
    n = nlines = 0
    worst = {}
    for tag, ts, lat, tl in phases(doc):
        n += 1
        if nested(lat, tl):
            want = [(i, pt, row) for i, (pt, row) in enumerate(zip(tl['points'], tl['hists']))
                    if pt[0]]
        else:
            want = [(None, None, None)]
        for i, pt, row in want:
            g = next(intervals, None)
            nlines += 1
            where = f'{tag} interval {i}' if i is not None else f'{tag} (whole phase)'
            if g is None:
                fail(f'{where}: missing')
                continue
            if g['tag'] != tag:
                fail(f'{where}: tag {g["tag"]}')
            at = ts + i * tl['interval_ns'] if i is not None else ts
            if abs(g['start_ms'] - ms(at)) >= 1:
                fail(f'{where}: start {g["start_ms"]} ms, ours {ms(at)}')
            if i is not None:
                check_interval(fail, where, g, pt[0], pt[2], list(zip(row[0::2], row[1::2])), lat)
        if tag not in sums:
            fail(f'{tag}: no intervals')
            continue
        for k, v in check_sum(fail, f'{tag} (its intervals added)', sums[tag], lat, pcts).items():
            if v >= worst.get(k, (-1, ''))[0]:
                worst[k] = (v, tag)
    if next(intervals, None) is not None:
        fail('more intervals than expected')
    far = ', '.join(f'{k} {100 * v:.2f} % ({t})' for k, (v, t) in sorted(worst.items()))
    print(f'{name}: {len(got["intervals"])} intervals of {n} tags read, {len(bad)} failure(s); '
          f'furthest from ours, a tag\'s intervals added: {far}')
    return not bad


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
