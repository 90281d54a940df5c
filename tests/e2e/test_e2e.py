#!/usr/bin/env python3
"""End-to-end tests of diskbench-bonnie and diskbench-report together.

Usage: test_e2e.py PATH-TO-diskbench-bonnie PATH-TO-diskbench-report SOURCE-ROOT [GROUP...]

GROUP: reports (the runs, the reports of them, a full file system under
the outputs), failures (signals while writing) or kept (results kept
when a later phase fails, an unwritable directory, the manual pages);
default all three. meson runs each as a test of its own.

- diskbench-bonnie's --json validates against docs/result-schema.json
  (python3 jsonschema: the test fails without it), its --html is
  well-formed (xmllint --noout).
- diskbench-report reads the CSV and JSON of two runs and a line bonnie++
  1.98 printed (tests/data/bonnie/s16-n1.out), from files and from
  standard input, and writes text, CSV, JSON and HTML, which are checked
  the same way.
- Malformed or missing input: exit 1, the file named on stderr, no -o file
  (nor temporary file) left, an existing -o file untouched.
- -o onto each kind of file: a regular file keeps its mode, a FIFO and a
  device are written into, a symlink and a directory are refused, a failed
  write keeps the old file.
- Every catchable fatal signal sent mid-write (the process stopped once it
  holds its temporary file open): no temporary file left, the -o file old
  or complete, death by that signal; into a stalled FIFO or pipe the
  signal ends it at once; | head -1 ends it quietly.
- A full file system (an 8 MiB tmpfs; needs root, else exit 77) and an
  unwritable directory: exit 1, a message, nothing left behind; small
  files that cannot fit are refused before anything is made, and a test
  file and small files that fit one after the other run.
- Nothing measured is lost: a file system filled while a run waits at a
  -y p prompt (before the small-file tests, or before run 3 of -x 3), and
  SIGINT in run 2 of -x 2, keep every earlier figure in the table, the CSV,
  the JSON and the HTML, with the failed phase marked in each; the exit
  status is the failure's (1, or 5 for the signal).
- The manual pages render without warnings (when man is installed).
"""
import os as _os
import sys as _sys
_sys.path.insert(0, _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), ".."))
import signal_defaults  # noqa: E402,F401 (first: the children inherit it)
import json
import html as html_mod
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

BONNIE = os.path.abspath(sys.argv[1])
REPORT = os.path.abspath(sys.argv[2])
SRC = os.path.abspath(sys.argv[3])
ALL_GROUPS = ['reports', 'failures', 'kept']
GROUPS = sys.argv[4:] or ALL_GROUPS
ROOT = os.geteuid() == 0
USER = ['-u', 'root'] if ROOT else []

failures = []


def fail(name, why, proc=None):
    msg = f"FAIL {name}: {why}"
    if proc is not None:
        msg += (f"\n  rc={proc.returncode}\n  stdout={proc.stdout[:2000]!r}"
                f"\n  stderr={proc.stderr[:2000]!r}")
    failures.append(msg)
    print(msg, flush=True)


def ok(name):
    print(f"ok   {name}", flush=True)


def run(exe, args, cwd=None, stdin=None, timeout=180):
    return subprocess.run([exe] + args, capture_output=True, text=True,
                          cwd=cwd, timeout=timeout,
                          input=stdin if stdin is not None else "")


def check(name, cond, why, proc=None):
    if cond:
        ok(name)
    else:
        fail(name, why, proc)
    return cond


try:
    import jsonschema
except ImportError:
    print("FAIL: python3 jsonschema is missing (Debian: python3-jsonschema)")
    sys.exit(1)
if not shutil.which('xmllint'):
    print("FAIL: xmllint is missing (Debian: libxml2-utils)")
    sys.exit(1)

with open(os.path.join(SRC, 'docs', 'result-schema.json')) as f:
    SCHEMA = json.load(f)
VALIDATOR = jsonschema.validators.validator_for(SCHEMA)(SCHEMA)


def schema_errors(text):
    try:
        doc = json.loads(text)
    except ValueError as e:
        return [f"not JSON: {e}"], None
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in VALIDATOR.iter_errors(doc)][:5], doc


def xml_ok(path):
    p = subprocess.run(['xmllint', '--noout', path], capture_output=True,
                       text=True)
    return p.returncode == 0 and not p.stderr, p.stderr


def csv_lines(text):
    return [l for l in text.splitlines() if l.startswith(('1.98,', '1.97,'))]


def bonnie_line():
    path = os.path.join(SRC, 'tests', 'data', 'bonnie', 's16-n1.out')
    with open(path) as f:
        lines = csv_lines(f.read())
    assert len(lines) == 1, path
    return lines[0]


def test_runs(tmp):
    """Two small runs with reports; returns their file names."""
    made = {}
    for tag, extra in (('a', ['-s', '16', '-r', '8', '-f1', '--no-settle', '-n', '1']),
                       ('b', ['-s', '16', '-r', '8', '-n', '1', '-f', '-q', '--no-settle',
                              '-z', '42', '--percentiles', '50,99,100'])):
        js, ht = os.path.join(tmp, f'{tag}.json'), os.path.join(tmp, f'{tag}.html')
        scratch = os.path.join(tmp, f'scratch-{tag}')
        os.mkdir(scratch)
        p = run(BONNIE, USER + ['-d', scratch, '-m', f'e2e-{tag}',
                                '--json', js, '--html', ht] + extra, cwd=tmp)
        name = f'bonnie run {tag}'
        if not check(name, p.returncode == 0 and len(csv_lines(p.stdout)) == 1,
                     'exit 0 and one CSV line expected', p):
            continue
        check(name + ': scratch empty', os.listdir(scratch) == [],
              f'left {os.listdir(scratch)}')
        csv = os.path.join(tmp, f'{tag}.csv')
        with open(csv, 'w') as f:
            f.write(csv_lines(p.stdout)[0] + '\n')
        with open(js) as f:
            errs, doc = schema_errors(f.read())
        check(name + ': JSON matches the schema', not errs, '; '.join(errs))
        if doc is not None:
            check(name + ': JSON has the run', len(doc.get('runs', [])) == 1 and
                  doc['runs'][0].get('name') == f'e2e-{tag}', 'runs[0].name')
        good, err = xml_ok(ht)
        check(name + ': HTML is well-formed', good, err)
        made[tag] = (csv, js)
    # bonnie++'s own readers take the program's CSV lines, both in one file.
    if len(made) == 2:
        both = os.path.join(tmp, 'both.csv')
        with open(both, 'w') as f:
            for tag in ('a', 'b'):
                with open(made[tag][0]) as g:
                    f.write(g.read())
        with open(both) as f:
            p = subprocess.run(['bon_csv2txt'], stdin=f, capture_output=True,
                               text=True)
        check('bon_csv2txt reads both runs', p.returncode == 0 and
              p.stderr == '' and 'e2e-a' in p.stdout and 'e2e-b' in p.stdout,
              'exit 0, both names', p)
        p = subprocess.run(['bon_csv2html', both], capture_output=True,
                           text=True)
        check('bon_csv2html reads both runs', p.returncode == 0 and
              "Can't process" not in p.stderr and
              p.stdout.count('rowheader') >= 2 and 'e2e-a' in p.stdout and
              'e2e-b' in p.stdout, 'exit 0, a row per run', p)
    return made


def test_report(tmp, made):
    if len(made) != 2:
        fail('report', 'the bonnie runs failed, nothing to read')
        return
    real = os.path.join(tmp, 'bonnie++.csv')
    line = bonnie_line()
    with open(real, 'w') as f:
        f.write(line + '\n')
    inputs = [made['a'][1], made['b'][0], real]
    ours = {}
    for tag in ('a', 'b'):
        with open(made[tag][0]) as f:
            ours[tag] = f.read().strip()

    # Text, the default: one row per run, under one heading per section
    # for our two runs and one of bonnie++'s version over its own row.
    p = run(REPORT, inputs)
    if check('report text', p.returncode == 0 and p.stderr == '', 'exit 0', p):
        out = p.stdout
        check('report text: one heading per section and version',
              out.count('------Sequential Output------') == 2 and
              out.count('------Sequential Create------') == 2 and
              out.count('Version 2.00a ') == 2 and
              all(out.find('Version 2.00a ', i) < out.find('\ntesthost ', i) for i in
                  (0, out.find('------Sequential Create------'))), out)
        check('report text: every run', all(n in out for n in
                                           ('e2e-a', 'e2e-b', 'testhost')), out)
        check('report text: --text is the default',
              run(REPORT, ['--text'] + inputs).stdout == out, 'differs')

    # The verdict across the three set-ups: a line each on stdout, the
    # same as the HTML page's box; one set-up says there is nothing to
    # compare; it refuses another format beside it and -o.
    p = run(REPORT, ['--verdict'] + inputs)
    if check('report --verdict', p.returncode == 0 and p.stderr == '' and
             p.stdout.endswith('\n') and len(p.stdout.splitlines()) >= 1,
             'exit 0, lines', p):
        first = p.stdout.splitlines()[0]
        check('report --verdict: throughput first',
              first.startswith('throughput within ') or
              ': throughput differs by ' in first or
              first.startswith('across the 3 set-ups (e2e-a, e2e-b and '
                               'testhost): no test has a throughput'),
              p.stdout)
        h = run(REPORT, ['--html'] + inputs)
        box = h.stdout.split('<ul class="verdict">\n', 1)[-1].split('</ul>', 1)[0]
        lines = [ln[len('<li>'):-len('</li>')] for ln in box.splitlines()]
        check('report --verdict: the HTML box, line for line',
              [html_mod.unescape(ln) for ln in lines] == p.stdout.splitlines(),
              f'{lines!r} vs {p.stdout!r}')
    p = run(REPORT, ['--verdict', made['a'][1]])
    check('report --verdict of one set-up', p.returncode == 0 and
          p.stdout == '' and 'nothing to compare' in p.stderr, 'a note', p)
    p = run(REPORT, ['--verdict', '--csv'] + inputs)
    check('report --verdict --csv refused', p.returncode == 1 and
          p.stdout == '' and 'choose one output' in p.stderr, 'exit 1', p)

    # CSV: our lines and bonnie++'s come back unchanged, in order.
    p = run(REPORT, ['--csv'] + inputs)
    if check('report csv', p.returncode == 0, 'exit 0', p):
        got = csv_lines(p.stdout)
        check('report csv: lines unchanged', got[1:] == [ours['b'], line] and
              len(got) == 3 and got[0].split(',')[2] == 'e2e-a',
              f'got {got}')

    # JSON: valid, three runs; the JSON run keeps its histograms.
    p = run(REPORT, ['--json', '--percentiles', '50,99'] + inputs)
    if check('report json', p.returncode == 0, 'exit 0', p):
        errs, doc = schema_errors(p.stdout)
        check('report json: matches the schema', not errs, '; '.join(errs))
        if doc:
            names = [r.get('name') for r in doc.get('runs', [])]
            check('report json: three runs in order',
                  names == ['e2e-a', 'e2e-b', 'testhost'], f'{names}')

    # Standard input, and JSON read back gives the same CSV.
    with open(made['b'][0]) as f:
        p = run(REPORT, ['--csv', made['a'][1], '-'], stdin=f.read())
    check('report from stdin', p.returncode == 0 and
          csv_lines(p.stdout)[1:] == [ours['b']], 'CSV of stdin', p)
    # A line without end from a pipe (/dev/zero on standard input), as from
    # a file: refused after a bounded read, in one line, holding at most a
    # line (it grew past 600 MB and printed nothing).
    zeros = os.path.join(tmp, 'zeros.csv')
    with open(zeros, 'wb') as f:
        f.write(bytes(3 << 20))
    for src in ('-', zeros):
        with open('/dev/zero', 'rb') as z, tempfile.TemporaryFile() as err:
            q = subprocess.Popen([REPORT, '--csv', src], stdin=z, stdout=subprocess.DEVNULL,
                                 stderr=err)
            _, status, ru = os.wait4(q.pid, 0)
            q.returncode = os.waitstatus_to_exitcode(status)
            err.seek(0)
            q.stderr, q.stdout = err.read().decode(errors='replace'), ''
        msg = [l for l in q.stderr.splitlines() if l.startswith('diskbench-report:')]
        check(f'report of an endless line ({src})', q.returncode == 1 and len(msg) == 1
              and 'without a line break' in msg[0] and ru.ru_maxrss < 64 * 1024,
              f'{msg}, {ru.ru_maxrss} KiB', q)
    os.unlink(zeros)
    p = run(REPORT, ['--csv', made['a'][0]])
    q = run(REPORT, ['--csv', made['a'][1]])
    check('report: JSON and CSV of a run give the same CSV',
          p.returncode == 0 and p.stdout == q.stdout and
          csv_lines(p.stdout) == [ours['a']], f'{p.stdout!r} vs {q.stdout!r}')

    # HTML to a file: well-formed, the title in it, no temporary left.
    outdir = os.path.join(tmp, 'out')
    os.mkdir(outdir)
    html = os.path.join(outdir, 'compare.html')
    p = run(REPORT, ['--html', '--title', 'e2e <compare>', '-o', html] + inputs)
    if check('report html -o', p.returncode == 0 and p.stdout == '' and
             os.listdir(outdir) == ['compare.html'], 'exit 0, one file', p):
        good, err = xml_ok(html)
        check('report html: well-formed', good, err)
        with open(html) as f:
            page = f.read()
        check('report html: title escaped', 'e2e &lt;compare&gt;' in page,
              'title missing')
        mode = os.stat(html).st_mode & 0o777
        um = os.umask(0)
        os.umask(um)
        check('report html: mode as open(2) would', mode == 0o666 & ~um,
              oct(mode))


def test_report_errors(tmp, made):
    d = os.path.join(tmp, 'errs')
    os.mkdir(d)
    bad = os.path.join(d, 'broken.csv')
    with open(bad, 'w') as f:
        f.write('1.98,2.00a,host,1,1,16M,,8192,5,xx\n')
    trunc = os.path.join(d, 'truncated.json')
    if made.get('a'):
        with open(made['a'][1]) as f:
            text = f.read()
        with open(trunc, 'w') as f:
            f.write(text[:len(text) // 2])
    else:
        with open(trunc, 'w') as f:
            f.write('{"schema_version": 1, "runs": [')
    empty = os.path.join(d, 'empty.csv')
    open(empty, 'w').close()
    missing = os.path.join(d, 'missing.json')
    out = os.path.join(d, 'out.html')
    good = made['a'][1] if made.get('a') else None
    for name, path in (('malformed CSV', bad), ('truncated JSON', trunc),
                       ('empty file', empty), ('missing file', missing)):
        before = sorted(os.listdir(d))
        args = ['--html', '-o', out] + ([good] if good else []) + [path]
        p = run(REPORT, args)
        check(f'report {name}: exit 1, one line naming the file',
              p.returncode == 1 and os.path.basename(path) in p.stderr and
              len(p.stderr.strip().splitlines()) == 1 and p.stdout == '',
              'exit 1 with the file name', p)
        check(f'report {name}: no output file', sorted(os.listdir(d)) == before,
              f'{sorted(os.listdir(d))} vs {before}')
    # An existing output stays as it was.
    with open(out, 'w') as f:
        f.write('keep\n')
    p = run(REPORT, ['--json', '-o', out, bad])
    with open(out) as f:
        check('report error keeps an existing -o file',
              p.returncode == 1 and f.read() == 'keep\n', 'changed', p)
    os.unlink(out)
    # Usage errors.
    for args in ([], ['--csv', '--json', bad], ['--bogus', bad],
                 ['--percentiles', '99,50', bad], ['-o']):
        p = run(REPORT, args)
        check(f'report usage {args}', p.returncode == 1 and
              'usage:' in p.stderr and p.stdout == '', 'exit 1 and usage', p)
    # The option is named right (a char * once went to %c).
    for opt in ('-o', '--output', '--title', '--percentiles'):
        p = run(REPORT, [bad, opt])
        first = p.stderr.splitlines()[0] if p.stderr else ''
        check(f'report usage {opt} without its argument',
              p.returncode == 1 and
              first == f'diskbench-report: option {opt} needs an argument',
              first, p)
    # Control characters in names read back: refused, in one line that
    # shows them escaped; a UTF-8 byte-order mark before JSON is skipped.
    if good:
        with open(good) as f:
            text = f.read()
        nl = os.path.join(d, 'newline.json')
        with open(nl, 'w') as f:
            f.write(text.replace('"name": "e2e-a"', '"name": "e2e\\na"', 1))
        p = run(REPORT, [nl])
        check('report: a name with a line break (JSON) is refused in one line',
              p.returncode == 1 and p.stdout == '' and
              len(p.stderr.splitlines()) == 1 and
              'runs[0].name: "e2e\\na": a control character' in p.stderr,
              '', p)
        bom = os.path.join(d, 'bom.json')
        with open(bom, 'w', encoding='utf-8-sig') as f:
            f.write(text)
        p = run(REPORT, ['--csv', bom])
        q = run(REPORT, ['--csv', good])
        check('report: JSON after a byte-order mark', p.returncode == 0 and
              p.stdout == q.stdout and p.stdout != '', '', p)
        os.unlink(nl)
        os.unlink(bom)
    tab = os.path.join(d, 'tab.csv')
    fields = bonnie_line().split(',')
    fields[2] = 'test\thost'
    with open(tab, 'w') as f:
        f.write(','.join(fields) + '\n')
    p = run(REPORT, [tab])
    check('report: a name with a tab (CSV) is refused in one line',
          p.returncode == 1 and len(p.stderr.splitlines()) == 1 and
          'field 3 (name) "test\\thost": a control character' in p.stderr,
          '', p)
    os.unlink(tab)
    p = run(REPORT, ['--help'])
    check('report --help', p.returncode == 0 and 'usage:' in p.stdout, '', p)
    p = run(REPORT, ['--version'])
    check('report --version', p.returncode == 0 and
          p.stdout.startswith('diskbench-report '), '', p)


def test_report_output(tmp, made):
    """-o FILE: a regular file is replaced by rename keeping its mode; a
    FIFO or a device is written into; a symlink or a directory is
    refused; a failed write keeps the old file. Nothing else is left."""
    if not made.get('a'):
        fail('report -o', 'the bonnie runs failed, nothing to read')
        return
    src = made['a'][1]
    want = run(REPORT, ['--json', src]).stdout
    d = os.path.join(tmp, 'outputs')
    os.mkdir(d)

    out = os.path.join(d, 'secret.json')
    with open(out, 'w') as f:
        f.write('old\n')
    os.chmod(out, 0o600)
    p = run(REPORT, ['--json', '-o', out, src])
    with open(out) as f:
        got = f.read()
    check('report -o keeps a 0600 file 0600', p.returncode == 0 and
          got == want and os.stat(out).st_mode & 0o7777 == 0o600 and
          os.listdir(d) == ['secret.json'],
          f'mode {oct(os.stat(out).st_mode)}, {os.listdir(d)}', p)
    os.unlink(out)

    victim = os.path.join(d, 'victim')
    with open(victim, 'w') as f:
        f.write('victim\n')
    link = os.path.join(d, 'out.html')
    os.symlink('victim', link)
    p = run(REPORT, ['--html', '-o', link, src])
    with open(victim) as f:
        kept = f.read() == 'victim\n'
    check('report -o refuses a symbolic link', p.returncode == 1 and
          'out.html is a symbolic link' in p.stderr and
          len(p.stderr.splitlines()) == 1 and os.path.islink(link) and
          os.readlink(link) == 'victim' and kept and
          sorted(os.listdir(d)) == ['out.html', 'victim'],
          f'{sorted(os.listdir(d))}', p)
    os.unlink(link)
    os.unlink(victim)

    fifo = os.path.join(d, 'fifo')
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()))
    reader.start()
    p = run(REPORT, ['--json', '-o', fifo, src], timeout=30)
    reader.join(30)
    check('report -o into a FIFO', p.returncode == 0 and got == [want] and
          stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.listdir(d) == ['fifo'],
          f'{os.listdir(d)}', p)
    os.unlink(fifo)

    if ROOT:
        null = os.path.join(d, 'null')
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    else:
        null = '/dev/null'
    p = run(REPORT, ['--json', '-o', null, src])
    st = os.lstat(null)
    check('report -o into a character device', p.returncode == 0 and
          stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3),
          oct(st.st_mode), p)
    if ROOT:
        os.unlink(null)

    if ROOT:
        # In a directory anyone may write in, without the sticky bit, a
        # file of root's that nobody may not write is not replaced by
        # nobody (a rename needs only the directory; a shell's > is
        # refused): by diskbench-report -o, nor by diskbench-bonnie -u.
        shared = os.path.join(d, 'shared')
        os.mkdir(shared)
        os.chmod(shared, 0o777)
        roots = os.path.join(shared, 'roots.txt')
        with open(roots, 'w') as f:
            f.write('root\'s\n')
        os.chmod(roots, 0o644)
        q = subprocess.run([REPORT, '--json', '-o', roots, src], capture_output=True,
                           text=True, timeout=60, preexec_fn=lambda: os.setuid(65534))
        st = os.lstat(roots)
        check('report -o as another user keeps a file it may not write',
              q.returncode == 1 and 'Permission denied' in q.stderr and st.st_uid == 0
              and open(roots).read() == 'root\'s\n' and sorted(os.listdir(shared)) == ['roots.txt'],
              f'uid {st.st_uid}, {os.listdir(shared)}', q)
        q = run(BONNIE, ['-d', shared, '-u', 'nobody', '-s', '0', '-n', '1', '-r', '0',
                         '--json', roots])
        check('bonnie -u --json keeps a file its user may not write, before any test',
              q.returncode == 1 and 'cannot write it: Permission denied' in q.stderr
              and 'Create files' not in q.stdout and open(roots).read() == 'root\'s\n',
              f'{os.listdir(shared)}', q)
        os.unlink(roots)
        os.rmdir(shared)

    p = run(REPORT, ['--json', '-o', d, src])
    check('report -o refuses a directory', p.returncode == 1 and
          'is a directory' in p.stderr and os.listdir(d) == [], '', p)

    # A write that fails (the file-size limit, SIGXFSZ ignored): the old
    # file stays byte for byte, no temporary file is left.
    out = os.path.join(d, 'big.html')
    with open(out, 'w') as f:
        f.write('the previous report\n')

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))

    p = subprocess.run([REPORT, '--html', '-o', out, src], capture_output=True,
                       text=True, preexec_fn=small_files, timeout=60)
    with open(out) as f:
        got = f.read()
    # In a coverage build, gcov also fails to write its counts under the
    # limit, and may say so: those lines are not the program's.
    said = [l for l in p.stderr.splitlines() if not l.startswith('libgcov')]
    check('report -o write failure keeps the old file', p.returncode == 1 and
          got == 'the previous report\n' and os.listdir(d) == ['big.html'] and
          'big.html' in p.stderr and 'File too large' in p.stderr and
          len(said) == 1, f'{os.listdir(d)}', p)
    os.unlink(out)


def many_runs_csv(path, lines):
    """A CSV of `lines` runs of bonnie++'s own line, each named apart."""
    fields = bonnie_line().split(',')
    with open(path, 'w') as f:
        for i in range(lines):
            fields[2] = f'run{i}'
            f.write(','.join(fields) + '\n')


def fatal_signals():
    names = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGTERM', 'SIGPIPE', 'SIGALRM',
             'SIGUSR1', 'SIGUSR2', 'SIGXFSZ', 'SIGXCPU', 'SIGVTALRM',
             'SIGPROF', 'SIGIO', 'SIGPWR', 'SIGSTKFLT']
    sigs = [getattr(signal, n) for n in names if hasattr(signal, n)]
    if hasattr(signal, 'SIGRTMIN'):
        sigs += range(signal.SIGRTMIN, signal.SIGRTMAX + 1)
    return sigs


def no_core():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def open_in(pid, d):
    """Whether process pid has a file in directory d open."""
    try:
        fds = os.listdir(f'/proc/{pid}/fd')
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f'/proc/{pid}/fd/{fd}').startswith(d + '/'):
                return True
        except OSError:
            pass
    return False


def test_report_signals(tmp):
    """Each catchable fatal signal, sent while -o is being written: no
    temporary file left, the -o file the complete new one (the signal waits
    for the write), death by that signal. The process is stopped once it
    holds a file in the output directory open (the temporary file), the
    signal is sent, and it is continued: the signal is certain to arrive
    mid-write."""
    if not os.path.isdir('/proc/self/fd'):
        fail('report signals', 'needs /proc to see the write begin')
        return
    src = os.path.join(tmp, 'signals.csv')
    many_runs_csv(src, 1000)
    want = run(REPORT, ['--json', src]).stdout
    d = os.path.join(tmp, 'sig-out')
    os.mkdir(d)
    out = os.path.join(d, 'report.json')
    old = '{"the previous": "report"}\n'
    bad = []
    caught = 0
    for sig in fatal_signals():
        # Until the signal is sent: a write too quick for the polling
        # finishes unseen, and is tried again.
        for attempt in range(5):
            with open(out, 'w') as f:
                f.write(old)
            p = subprocess.Popen([REPORT, '--json', '-o', out, src],
                                 stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, preexec_fn=no_core)
            sent = mid = False
            while p.poll() is None:
                if open_in(p.pid, d):
                    os.kill(p.pid, signal.SIGSTOP)
                    mid = open_in(p.pid, d)
                    os.kill(p.pid, sig)
                    os.kill(p.pid, signal.SIGCONT)
                    sent = True
                    break
            err = p.communicate(timeout=60)[1].decode(errors='replace')
            if sent:
                break
        caught += mid
        with open(out) as f:
            got = f.read()
        why = []
        if os.listdir(d) != ['report.json']:
            why.append(f'left {os.listdir(d)}')
        # Caught mid-write, the signal waits for the write to finish.
        if got != want and (mid or got != old):
            why.append(f'-o file is {"the old one" if got == old else "neither"}'
                       f' ({len(got)} bytes)')
        if p.returncode != -sig:
            why.append(f'exit {p.returncode}')
        if why:
            bad.append(f'{signal.Signals(sig).name if sig < 32 else sig}: '
                       f'{", ".join(why)} {err.strip()[:200]}')
    check(f'report -o: {len(fatal_signals())} signals mid-write leave nothing',
          not bad, '; '.join(bad))
    check(f'report -o: {caught} of the signals came mid-write',
          caught >= len(fatal_signals()) // 2,
          f'{caught} of {len(fatal_signals())}')

    # Into a FIFO whose reader stalls, and into a stalled pipe on standard
    # output: each signal ends the process at once, nothing is left.
    fifo = os.path.join(d, 'fifo')
    os.mkfifo(fifo)
    bad = []
    for sig in (signal.SIGTERM, signal.SIGQUIT, signal.SIGUSR1, signal.SIGPIPE):
        rd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        p = subprocess.Popen([REPORT, '--json', '-o', fifo, src],
                             stderr=subprocess.PIPE, preexec_fn=no_core)
        time.sleep(0.1)
        os.kill(p.pid, sig)
        try:
            p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            bad.append(f'{signal.Signals(sig).name}: still running')
        os.close(rd)
        if p.returncode != -sig or sorted(os.listdir(d)) != ['fifo', 'report.json']:
            bad.append(f'{signal.Signals(sig).name}: exit {p.returncode}, '
                       f'{os.listdir(d)}')
    for sig in (signal.SIGINT, signal.SIGHUP):
        p = subprocess.Popen([REPORT, '--json', src], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, preexec_fn=no_core)
        time.sleep(0.1)
        os.kill(p.pid, sig)
        try:
            p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            bad.append(f'stdout {signal.Signals(sig).name}: still running')
        if p.returncode != -sig:
            bad.append(f'stdout {signal.Signals(sig).name}: exit {p.returncode}')
    check('report into a stalled FIFO or pipe: signals end it at once',
          not bad, '; '.join(bad))

    # A reader that goes away (| head -1): a quiet death by SIGPIPE, or
    # with SIGPIPE ignored one line naming standard output; never more.
    for ignore in (False, True):
        def pre(ignore=ignore):
            no_core()
            if ignore:
                signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        p = subprocess.Popen([REPORT, '--text', src], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, preexec_fn=pre)
        p.stdout.readline()
        p.stdout.close()
        err = p.stderr.read().decode(errors='replace')
        p.wait(timeout=30)
        p.stderr.close()
        if ignore:
            good = p.returncode == 1 and err.count('\n') == 1 and \
                'standard output' in err and 'Broken pipe' in err
        else:
            good = p.returncode == -signal.SIGPIPE and err == ''
        check(f'report | head -1 (SIGPIPE {"ignored" if ignore else "default"})',
              good, f'exit {p.returncode}, stderr {err!r}')


def test_enospc(tmp, made):
    if not ROOT:
        print('skip full file system: needs root to mount a tmpfs')
        return False
    mnt = os.path.join(tmp, 'small')
    os.mkdir(mnt)
    p = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mnt],
                       capture_output=True, text=True)
    if p.returncode:
        print(f'skip full file system: mount failed: {p.stderr.strip()}')
        return False
    try:
        p = run(BONNIE, USER + ['-d', mnt, '-s', '64', '-r', '0', '-n', '0'],
                cwd=tmp)
        check('bonnie ENOSPC: exit 1 and a message',
              p.returncode == 1 and p.stderr.strip() != '', 'exit 1', p)
        check('bonnie ENOSPC: directory empty', os.listdir(mnt) == [],
              f'left {os.listdir(mnt)}')
        # No big file, but 1024 files of up to 64 KiB do not fit in 8 MiB:
        # refused before the first test, naming what is free and what is
        # needed (the library checks bytes and inodes up front; before, it
        # began "Create files in sequential order..." and hit ENOSPC).
        p = run(BONNIE, USER + ['-d', mnt, '-s', '0', '-n', '1:64k:32k'],
                cwd=tmp)
        check('bonnie no room for the small files: refused up front',
              p.returncode == 1 and
              f'not enough room in {mnt}: 8.0 MiB free, the run needs up '
              'to 64.0 MiB at once' in p.stderr and
              'Create files' not in p.stderr and
              'No space left' not in p.stderr, 'exit 1', p)
        check('bonnie no room for the small files: directory empty',
              os.listdir(mnt) == [], f'left {os.listdir(mnt)}')
        # The peak, not the sum: a 6 MiB file, removed before the 1024
        # files of 4 KiB (4 MiB), as bonnie++ does: it fits, and runs.
        p = run(BONNIE, USER + ['-d', mnt, '-s', '6', '-r', '0', '-f', '-q',
                                '-n', '1:4096:4096'], cwd=tmp)
        check('bonnie 6 MiB file then 4 MiB of small files in 8 MiB: runs',
              p.returncode == 0 and len(csv_lines(p.stdout)) == 1,
              'exit 0 and one CSV line', p)
        check('bonnie 6 MiB then 4 MiB: directory empty',
              os.listdir(mnt) == [], f'left {os.listdir(mnt)}')
        # diskbench-report -o on a file system with no room: no file left,
        # and an existing one stays byte for byte.
        if made.get('a'):
            old = os.path.join(mnt, 'old.json')
            with open(old, 'w') as f:
                f.write('{"the previous": "report"}\n')
            fill = os.path.join(mnt, 'fill')
            subprocess.run(['dd', 'if=/dev/zero', f'of={fill}', 'bs=64k'],
                           capture_output=True)
            out = os.path.join(mnt, 'report.json')
            p = run(REPORT, ['--json', '-o', out, made['a'][1]])
            check('report ENOSPC: exit 1 naming the file',
                  p.returncode == 1 and 'report.json' in p.stderr and
                  'No space left' in p.stderr, 'exit 1', p)
            check('report ENOSPC: nothing left',
                  sorted(os.listdir(mnt)) == ['fill', 'old.json'],
                  f'left {os.listdir(mnt)}')
            p = run(REPORT, ['--json', '-o', old, made['a'][1]])
            with open(old) as f:
                kept = f.read() == '{"the previous": "report"}\n'
            check('report ENOSPC: the old file kept', p.returncode == 1 and
                  kept and sorted(os.listdir(mnt)) == ['fill', 'old.json'],
                  f'left {os.listdir(mnt)}', p)
            # diskbench-bonnie's --json and --html go the same way.
            scratch = os.path.join(tmp, 'scratch-enospc')
            os.mkdir(scratch)
            p = run(BONNIE, USER + ['-d', scratch, '-s', '0', '-n', '1',
                                    '--json', old], cwd=tmp)
            with open(old) as f:
                kept = f.read() == '{"the previous": "report"}\n'
            check('bonnie --json ENOSPC: the old file kept',
                  p.returncode != 0 and kept and
                  sorted(os.listdir(mnt)) == ['fill', 'old.json'] and
                  'No space left' in p.stderr,
                  f'left {os.listdir(mnt)}', p)
            os.unlink(fill)
            os.unlink(old)
    finally:
        subprocess.run(['umount', mnt])
    return True


class Driven:
    """diskbench-bonnie with its three streams read as they come; -y p
    prompts answered by answer(index, test) and a newline."""

    def __init__(self, args, cwd, answer=None):
        self.out, self.err = bytearray(), bytearray()
        self.cond = threading.Condition()
        self.proc = subprocess.Popen([BONNIE] + args, cwd=cwd,
                                     stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.threads = [threading.Thread(target=self._read, args=(s, b))
                        for s, b in ((self.proc.stdout, self.out),
                                     (self.proc.stderr, self.err))]
        for t in self.threads:
            t.start()
        self.answer = answer

    def _read(self, stream, buf):
        while True:
            b = stream.read1(4096)
            with self.cond:
                buf.extend(b)
                self.cond.notify_all()
            if not b:
                return

    def wait_err(self, needle, count=1, timeout=60):
        with self.cond:
            return self.cond.wait_for(lambda: self.err.count(needle) >= count,
                                      timeout)

    def finish(self, timeout=120):
        """Answers the prompts until the program ends; (rc, out, err)."""
        done = 0
        end = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < end:
            with self.cond:
                self.cond.wait(0.05)
                tests = re.findall(rb'\n(\d+):\n', self.out)
            while done < len(tests):
                if self.answer:
                    self.answer(done, int(tests[done]))
                done += 1
                try:
                    self.proc.stdin.write(b'\n')
                    self.proc.stdin.flush()
                except BrokenPipeError:
                    pass
        if self.proc.poll() is None:
            self.proc.kill()
        rc = self.proc.wait()
        for t in self.threads:
            t.join()
        self.proc.stdin.close()
        return rc, self.out.decode(), self.err.decode()


def fill(mnt):
    """Fills the file system at mnt; the filler's path."""
    path = os.path.join(mnt, 'filler')
    subprocess.run(['dd', 'if=/dev/zero', f'of={path}', 'bs=64k'],
                   capture_output=True)
    return path


def fill_at_files_prompt(mnt, fillers, seen):
    """At the -y p prompt before the small-file tests: the big test file
    is gone already (as bonnie++ removes it before that prompt), so that
    filling the file system now leaves the creates no room. Notes in seen
    what was there; adds the filler to fillers."""
    seen.extend(n for n in os.listdir(mnt) if re.fullmatch(r'Bonnie\.\d+', n))
    fillers.append(fill(mnt))


def check_kept(name, rc, out, err, js, ht, runs, failed, want_rc, why):
    """runs: per run, the phases that must have figures; failed: (run
    index, phase, JSON error code) of the phase that stopped. Checks the
    CSV (and the table if there is one), the JSON and the HTML."""
    lines = csv_lines(out)
    check(f'{name}: exit {want_rc}', rc == want_rc, f'exit {rc}; {err[-600:]!r}')
    check(f'{name}: says why', why in err, f'{err[-600:]!r}')
    if not check(f'{name}: a CSV line per run', len(lines) == len(runs),
                 f'{len(lines)} lines: {out[-800:]!r}'):
        return
    fields = {'putc': 9, 'put_block': 11, 'rewrite': 13, 'getc': 15,
              'get_block': 17, 'seeks': 19, 'seq_create': 26}
    lat = {'putc': 38, 'put_block': 39, 'rewrite': 40, 'getc': 41,
           'get_block': 42, 'seeks': 43, 'seq_create': 44}
    fi, fphase, fcode = failed
    for i, (line, phases) in enumerate(zip(lines, runs)):
        f = line.split(',')
        check(f'{name}: run {i + 1} CSV has its figures',
              all(f[fields[ph]] and f[lat[ph]] for ph in phases),
              f'{line!r}')
        if i == fi:
            check(f'{name}: run {i + 1} CSV leaves {fphase} empty',
                  f[fields[fphase]] == f[fields[fphase] + 1] == f[lat[fphase]] == ''
                  and '+++++' not in f[fields[fphase]], f'{line!r}')
        # bonnie++'s readers take it.
        p = subprocess.run(['bon_csv2txt'], input=line + '\n', capture_output=True,
                           text=True)
        check(f'{name}: run {i + 1} read by bon_csv2txt',
              p.returncode == 0 and p.stderr == '' and f[2] in p.stdout, '', p)
        csvf = os.path.join(os.path.dirname(js), f'{name.replace(" ", "-")}-{i}.csv')
        with open(csvf, 'w') as g:
            g.write(line + '\n')
        p = subprocess.run(['bon_csv2html', csvf], capture_output=True, text=True)
        check(f'{name}: run {i + 1} read by bon_csv2html',
              p.returncode == 0 and "Can't process" not in p.stderr and
              'rowheader' in p.stdout, '', p)
    if 'Version' in out:
        check(f'{name}: the table marks {fphase}',
              f'{fphase}: not measured: ' in out, out[-1200:])
    with open(js) as g:
        errs, doc = schema_errors(g.read())
    check(f'{name}: JSON matches the schema', not errs, '; '.join(errs))
    if doc is None:
        return
    jr = doc.get('runs', [])
    if not check(f'{name}: JSON has every run', len(jr) == len(runs), f'{len(jr)} runs'):
        return
    for i, phases in enumerate(runs):
        by = {ph['name']: ph for ph in jr[i]['phases']}
        check(f'{name}: JSON run {i + 1} has its figures',
              all(ph in by and by[ph]['ops'] > 0 and by[ph]['error'] is None
                  for ph in phases), f'{sorted(by)}')
    ferr = {ph['name']: ph for ph in jr[fi]['phases']}.get(fphase, {}).get('error')
    check(f'{name}: JSON marks {fphase} with its error',
          ferr is not None and ferr['code'] == fcode, f'{ferr}')
    good, xerr = xml_ok(ht)
    check(f'{name}: HTML is well-formed', good, xerr)
    with open(ht) as g:
        page = g.read()
    check(f'{name}: HTML marks {fphase}', 'stopped by an error' in page,
          'no error in the page')
    check(f'{name}: HTML has the figures',
          all(f'>{line.split(",")[lat[ph]]}</td>' in page
              for line, phases in zip(lines, runs) for ph in phases),
          'a latency cell is missing')


def test_keep_results(tmp):
    """Nothing measured is lost when a later phase or run fails."""
    if not ROOT:
        print('skip keeping results on ENOSPC: needs root to mount a tmpfs')
        return False
    mnt = os.path.join(tmp, 'keep')
    os.mkdir(mnt)
    p = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', mnt],
                       capture_output=True, text=True)
    if p.returncode:
        print(f'skip keeping results: mount failed: {p.stderr.strip()}')
        return False
    big = ['putc', 'put_block', 'rewrite', 'getc', 'get_block', 'seeks']
    try:
        # The small-file tests meet a full file system (filled while the
        # run waits before them, so that no room check can foresee it).
        js, ht = os.path.join(tmp, 'keep-a.json'), os.path.join(tmp, 'keep-a.html')
        filler, big_file = [], []
        run_ = Driven(USER + ['-d', mnt, '-s', '8', '-r', '4', '-f1', '--no-settle', '-n', '1:4096:4096',
                              '-y', 'p', '-m', 'keep-a', '--json', js, '--html', ht],
                      tmp, lambda i, test: fill_at_files_prompt(mnt, filler, big_file)
                      if test == 6 else None)
        rc, out, err = run_.finish()
        for f in filler:
            os.unlink(f)
        check('ENOSPC in seq_create: the test file gone at its prompt', big_file == [],
              f'{big_file} still there')
        check_kept('ENOSPC in seq_create', rc, out, err, js, ht, [big],
                   (0, 'seq_create', -28), 1,
                   'seq_create: write')
        check('ENOSPC in seq_create: nothing left', os.listdir(mnt) == [],
              f'{os.listdir(mnt)}')
        # Run 3 of -x 3 meets a full file system at its block write.
        js, ht = os.path.join(tmp, 'keep-x.json'), os.path.join(tmp, 'keep-x.html')
        filler = []
        run_ = Driven(USER + ['-d', mnt, '-s', '8', '-r', '4', '-f', '--no-settle', '-n', '0', '-x', '3',
                              '-y', 'p', '-m', 'keep-x', '--json', js, '--html', ht],
                      tmp, lambda i, test: filler.append(fill(mnt)) if i == 8 else None)
        rc, out, err = run_.finish()
        for f in filler:
            os.unlink(f)
        blocks = ['put_block', 'rewrite', 'get_block', 'seeks']
        check_kept('-x 3, ENOSPC in run 3', rc, out, err, js, ht, [blocks, blocks, []],
                   (2, 'put_block', -28), 1, 'put_block: write')
        check('-x 3, ENOSPC in run 3: nothing left', os.listdir(mnt) == [],
              f'{os.listdir(mnt)}')
    finally:
        subprocess.run(['umount', mnt])
    # SIGINT in run 2 of -x 2.
    scratch = os.path.join(tmp, 'scratch-x2int')
    os.mkdir(scratch)
    js, ht = os.path.join(tmp, 'keep-int.json'), os.path.join(tmp, 'keep-int.html')
    run_ = Driven(USER + ['-d', scratch, '-s', '16', '-r', '8', '--no-settle', '-n', '0', '-x', '2',
                          '-m', 'kint', '--json', js, '--html', ht], tmp)
    seen = run_.wait_err(b'Writing a byte at a time...', 2)
    time.sleep(0.2)
    run_.proc.send_signal(signal.SIGINT)
    rc, out, err = run_.finish()
    check('SIGINT in run 2 of -x 2: the second run began', seen, err)
    check_kept('SIGINT in run 2 of -x 2', rc, out, err, js, ht, [big, []],
               (1, 'putc', -125), 5, 'interrupted by SIGINT')
    check('SIGINT in run 2 of -x 2: nothing left', os.listdir(scratch) == [],
          f'{os.listdir(scratch)}')
    return True


def test_unwritable(tmp):
    d = os.path.join(tmp, 'ro')
    os.mkdir(d)
    os.chmod(d, 0o555)
    user = ['-u', 'nobody'] if ROOT else []
    p = run(BONNIE, user + ['-d', d, '-s', '16', '-r', '8', '-n', '1'], cwd='/')
    check('bonnie unwritable directory: exit 1 and a message',
          p.returncode == 1 and p.stderr.strip() != '', 'exit 1', p)
    check('bonnie unwritable directory: still empty', os.listdir(d) == [],
          f'left {os.listdir(d)}')
    os.chmod(d, 0o755)


def test_man_pages():
    if not shutil.which('man'):
        print('skip manual pages: man is not installed')
        return
    env = dict(os.environ, MANWIDTH='80', LC_ALL='C.UTF-8')
    for page in ('diskbench-bonnie.1', 'diskbench-report.1', 'diskbench-run.1'):
        path = os.path.join(SRC, 'docs', page)
        p = subprocess.run(['man', '--warnings', '-l', path],
                           capture_output=True, text=True, env=env)
        check(f'man {page}', p.returncode == 0 and p.stderr == '' and
              p.stdout.strip() != '', 'renders without warnings', p)


def main():
    # Others (nobody, with -u) must reach the directories.
    tmp = tempfile.mkdtemp(prefix='diskbench-e2e.')
    os.chmod(tmp, 0o755)
    try:
        for g in GROUPS:
            if g not in ALL_GROUPS:
                print(f'unknown group {g!r}: {", ".join(ALL_GROUPS)}')
                return 1
        mounted = True
        if 'reports' in GROUPS:
            made = test_runs(tmp)
            test_report(tmp, made)
            test_report_errors(tmp, made)
            test_report_output(tmp, made)
            mounted = test_enospc(tmp, made)
        if 'failures' in GROUPS:
            test_report_signals(tmp)
        if 'kept' in GROUPS:
            mounted = test_keep_results(tmp) and mounted
            test_unwritable(tmp)
            test_man_pages()
    finally:
        subprocess.run(['chmod', '-R', 'u+w', tmp])
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f'\n{len(failures)} failure(s)')
        return 1
    if not mounted:
        print('the full file system test was skipped (needs root)')
        return 77
    print('all passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
