#!/usr/bin/env python3
"""scripts/bench-tail, the terminal's tail summary of scripts/bench.

Usage: test_bench_tail.py PATH-TO-report-dump PATH-TO-bench-tail

bench-tail prints the library's stall line (the JSON's stall_summary
text) as the HTML does: on the fixed three-run report (report-dump), the
stalls it prints must be the HTML report's, word for word (the HTML adds
the grade in front and the factor over the other runs after), and so must
its "No stalls" verdict on a report without them; a JSON without
stall_summary is refused, naming the phase. Its p99 is the
library's (the JSON's own percentile list). --smoke accepts a run with
every test measured and the cache kept out, and names what is missing or
wrong otherwise.
"""
import copy
import html
import importlib.machinery
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

DUMP, TAIL = sys.argv[1], sys.argv[2]
failures = []


def fail(what):
    failures.append(what)
    print('FAIL ' + what)


def dump(fmt):
    return subprocess.run([DUMP, fmt], capture_output=True, text=True, check=True).stdout


def tail(*args):
    return subprocess.run([sys.executable, TAIL] + list(args), capture_output=True,
                          text=True, timeout=60)


def html_stalls(page):
    """The HTML summary's stall lines, as "run phase: what the library
    says": without the grade in front and what the page adds after (how
    far it stands out against the other runs)."""
    m = re.search(r'<ul class="stalls">(.*?)</ul>', page, re.S)
    if not m:
        return []
    out = []
    for li in re.findall(r'<li class="g\d"><b>\w+</b> (.*?)</li>', m.group(1), re.S):
        text = html.unescape(re.sub(r'<[^>]+>', '', li)).strip()
        out.append(text.split("; its worst ")[0])
    return sorted(out)


def tail_lines(out):
    """bench-tail's stall lines without their grade, sorted as html_stalls."""
    return sorted(re.sub(r' \(grade \w+\)$', '', ln) for ln in tail_stalls(out))


def tail_stalls(out):
    lines = out.splitlines()
    if 'Stalls (' not in out:
        return []
    i = next(k for k, ln in enumerate(lines) if ln.startswith('Stalls ('))
    return [ln.strip() for ln in lines[i + 1:] if ln.startswith('  ')]


def write(tmp, name, doc):
    path = os.path.join(tmp, name)
    with open(path, 'w') as f:
        json.dump(doc, f)
    return path


def main():
    tmp = tempfile.mkdtemp(prefix='bench-tail-')
    doc = json.loads(dump('json'))
    path = write(tmp, 'fixture.json', doc)
    p = tail(path)
    if p.returncode != 0:
        fail(f'bench-tail on the fixture: exit {p.returncode}: {p.stderr}')
    want = html_stalls(dump('html'))
    got = tail_lines(p.stdout)
    # ...and each with the library's grade.
    if not all(re.search(r' \(grade (hiccup|stall|severe)\)$', ln)
               for ln in tail_stalls(p.stdout)):
        fail(f'a stall line without its grade: {tail_stalls(p.stdout)}')
    if not want:
        fail('the fixture has no stalls in its HTML: the test checks nothing')
    if got != want:
        fail(f'stalls differ from the HTML report:\n  html: {want}\n  tail: {got}')
    # bench-tail's p99, from the buckets, is the library's (the JSON's own
    # percentile list), in every phase of every run.
    loader = importlib.machinery.SourceFileLoader('bench_tail', TAIL)
    spec = importlib.util.spec_from_loader('bench_tail', loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    checked = 0
    for r in doc['runs']:
        for ph in r['phases']:
            pct = {x['p']: x['value_ns'] for x in ph['latency'].get('percentiles', [])}
            if 99 in pct:
                checked += 1
                if mod.percentile(ph['latency'], 99) != pct[99]:
                    fail(f"{r['name']} {ph['name']}: p99 {mod.percentile(ph['latency'], 99)} "
                         f'from the buckets, the library says {pct[99]}')
    if checked < 30:
        fail(f'only {checked} p99 values checked')
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith('  ') and ' p99 ' in ln]
    if len(lines) < 36:
        fail(f'{len(lines)} phase lines for three runs of twelve')

    # Without the stalls: the same verdict as the HTML's.
    calm = copy.deepcopy(doc)
    calm['runs'] = [r for r in calm['runs'] if r['name'] != 'raid-c']
    p = tail(write(tmp, 'calm.json', calm))
    if 'No stalls' not in p.stdout or tail_stalls(p.stdout):
        fail(f'no "No stalls" for a report without stalls: {p.stdout}')

    # --smoke: the fixture has no cache_drop keys (it was not a run of
    # scripts/bench): refused on Linux, naming the tests.
    one = copy.deepcopy(doc)
    one['runs'] = one['runs'][:1]
    p = tail('--smoke', 'true', 'true', write(tmp, 'one.json', one))
    if p.returncode != 1 or "get_block: cache_drop ''" not in p.stdout:
        fail(f'--smoke accepted a run without the cache dropped: {p.stdout}')
    for ph in one['runs'][0]['phases']:
        cfg = ph.setdefault('config', {})
        if ph['name'] in ('rewrite', 'getc', 'get_block', 'seeks'):
            cfg['cache_drop'] = 'dropped'
        if ph['name'] in ('seq_stat', 'seq_del', 'ran_stat', 'ran_del'):
            cfg['cache_drop'] = 'dropped system-wide (sync, then 3 written to ...)'
        if ph['name'] == 'seeks':
            cfg['seek_time_ns'] = 3000000000
    p = tail('--smoke', 'true', 'true', write(tmp, 'smoke.json', one))
    if p.returncode != 0 or not p.stdout.startswith('smoke: all 12 tests measured'):
        fail(f'--smoke refused a good run: {p.stdout}')
    broken = copy.deepcopy(one)
    broken['runs'][0]['phases'] = [ph for ph in broken['runs'][0]['phases']
                                   if ph['name'] != 'ran_stat']
    broken['runs'][0]['phases'][0]['ops'] = 0
    p = tail('--smoke', 'true', 'true', write(tmp, 'broken.json', broken))
    if (p.returncode != 1 or 'ran_stat: did not run' not in p.stdout or
            'putc: no operations' not in p.stdout):
        fail(f'--smoke did not name the missing and empty tests: {p.stdout}')
    old = copy.deepcopy(doc)
    for r in old['runs']:
        for ph in r['phases']:
            ph.pop('stall_summary', None)
    p = tail(write(tmp, 'old.json', old))
    if p.returncode == 0 or 'has no stall_summary text' not in p.stderr:
        fail(f'a JSON without stall_summary was not refused: {p.stdout} {p.stderr}')
    p = tail()
    if p.returncode != 2:
        fail('bench-tail without arguments did not exit 2')

    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
    if failures:
        print(f'{len(failures)} failure(s)')
        return 1
    print('all passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
