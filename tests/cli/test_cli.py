#!/usr/bin/env python3
"""End-to-end tests of diskbench-bonnie, the bonnie++-compatible CLI.

Usage: test_cli.py PATH-TO-diskbench-bonnie [GROUP...]

GROUP: runs, options, signals or journal (default: all four); meson runs each
group as a test of its own, so that each stays well within its timeout
on a loaded machine.

Bad invocations: each must exit 1, say what is wrong on stderr, and leave
the scratch directory empty. Small real runs: exit 0, the text table and
CSV shapes bonnie++ prints, -x, -q, and an interrupted run (exit 5, files
removed, the results said to be partial). Sizes are kept tiny (-s 16 -r 8,
-n 1) so the whole file runs in well under a minute.
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
ALL_GROUPS = ['runs', 'caches', 'options', 'signals', 'processes', 'journal']
GROUPS = sys.argv[2:] or ALL_GROUPS
REPORT = os.path.join(os.path.dirname(EXE), '..', 'report', 'diskbench-report')
ROOT = os.geteuid() == 0
# bonnie++ insists on -u when run as root; as anyone else, -u to oneself.
USER = ['-u', 'root'] if ROOT else []

USAGE = """usage:
diskbench-bonnie [-d scratch-dir] [-c concurrency] [-s size(MiB)[:chunk-size(b)]]
      [-n number-to-stat[:max-size[:min-size][:num-directories[:chunk-size]]]]
      [-m machine-name] [-r ram-size-in-MiB]
      [-x number-of-tests] [-u uid-to-use:gid-to-use] [-g gid-to-use]
      [-q] [-f] [-b] [-p processes | -y] [-z seed | -Z random-file]
      [-D]

Version: """

BIG_HEADER = [
    None,  # "Version <ours>       ------Sequential Output------ ..."
    "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--",
    "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP",
]
FILE_HEADER_3 = ("              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP"
                 "  /sec %CP  /sec %CP")

failures = []


def fail(name, why, proc=None):
    msg = f"FAIL {name}: {why}"
    if proc is not None:
        msg += f"\n  rc={proc.returncode}\n  stdout={proc.stdout!r}\n  stderr={proc.stderr!r}"
    failures.append(msg)
    print(msg)


def run(args, cwd=None, timeout=120):
    return subprocess.run([EXE] + args, capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, stdin=subprocess.DEVNULL)


def empty(d):
    return os.listdir(d) == []


# (arguments after -d SCRATCH, expected stderr substring, usage printed?,
#  give -u as root?)
def bad_cases(scratch, tmp):
    missing = os.path.join(tmp, 'no-such-dir')
    randfile = os.path.join(tmp, 'short.rand')
    with open(randfile, 'wb') as f:
        f.write(b'\x01\x02')
    cases = [
        (['-k'], 'unknown option -k', True, True),
        (['--bogus'], 'unknown option --bogus', True, True),
        (['-s'], 'option -s needs an argument', True, True),
        (['--json'], 'option --json needs an argument', True, True),
        (['-s', 'abc', '-r', '0'], '-s abc', True, True),
        (['-s', '16x', '-r', '0'], '-s 16x', True, True),
        (['-s', '-5', '-r', '0'], '-s -5', True, True),
        (['-s', '16:1000', '-r', '0'], 'power of two', True, True),
        (['-s', '16:128', '-r', '0'], 'power of two', True, True),
        (['-s', '16:2048k', '-r', '0'], 'power of two', True, True),
        (['-s', '16:8k:0', '-r', '0'], 'number of seeks', True, True),
        (['-s', '16:8k:100:0', '-r', '0'], 'number of seekers', True, True),
        (['-s', '16:8k:100:2000', '-r', '0'], 'number of seekers', True, True),
        (['-s', '16:8k:100:5:7', '-r', '0'], 'at most size:chunk:seeks:seekers', True, True),
        (['-s', '0', '-n', '0'], 'nothing to test', True, True),
        (['-s', '0', '-n', 'abc'], '-n abc', True, True),
        (['-s', '0', '-n', '1:100:200'], 'below the smallest', True, True),
        (['-s', '0', '-n', '1:-3'], '-n 1:-3', True, True),
        (['-s', '0', '-n', '1:0:0:0'], 'number of directories', True, True),
        (['-s', '0', '-n', '1:0:0:100000'], "Can't have more than 99,999 directories.", False, True),
        (['-s', '0', '-n', '1:0:0:1:1000'], 'power of two', True, True),
        (['-s', '0', '-n', '30000', '-r', '0'], 'Not enough ram to test with 30000K files.', False, True),
        (['-s', '0', '-n', '4000', '-r', '256'],
         'When testing 4000K of files in 256 MiB of RAM the system is likely to', False, True),
        (['-c', '0'], '-c 0', True, True),
        (['-c', '201'], '-c 201', True, True),
        (['-c', 'x'], '-c x', True, True),
        (['-r', 'abc'], '-r abc', True, True),
        (['-r', '-1'], '-r -1', True, True),
        (['-s', '16', '-r', '100'], 'File size should be double RAM for good results, RAM is 100M.', True, True),
        (['-x', 'abc'], '-x abc', True, True),
        (['-x', '-2'], '-x -2', True, True),
        (['-f', '5', '-s', '0', '-n', '1'], 'unexpected argument "5"', True, True),
        (['-fx'], '-fx', True, True),
        (['-s', '0', '-n', '1', 'stray'], 'unexpected argument "stray"', True, True),
        (['-d', missing], f'Can\'t change to directory "{missing}".', True, True),
        (['-m', 'a,b'], '-m a,b', True, True),
        (['-z', 'abc'], '-z abc', True, True),
        (['-z', '99999999999'], '-z 99999999999', True, True),
        (['-Z', missing], f'Can\'t open random file "{missing}".', False, True),
        (['-Z', randfile], f'Can\'t read random data from "{randfile}".', False, True),
        (['-p', '3', '-y', 's'], 'use one or the other', True, True),
        (['-p', '0'], '-p 0', True, True),
        (['-y', 'x'], '-y x', True, True),
        (['-u', 'no-such-user-xyz'], "Can't find user no-such-user-xyz", False, False),
        (['-g', 'no-such-group-xyz'], "Can't find group no-such-group-xyz", False, True),
        (['-u', '0', '-u', '0'], 'the user is already given', True, False),
        (['-g', '0', '-u', '0:0'], 'the group is already given', True, False),
        (['--engine', 'foo'], '--engine foo', True, True),
        (['--engine', 'null', '-s', '0', '-n', '1'], '--engine null', True, True),
        (['--iodepth', '0', '--engine', 'io_uring'], '--iodepth 0', True, True),
        (['--iodepth', '4'], 'only with --engine io_uring', True, True),
        (['--percentiles', '50,abc'], '--percentiles 50,abc', True, True),
        (['--percentiles', '99,50'], 'ascending', True, True),
        (['--percentiles', '0'], '--percentiles 0', True, True),
        (['--percentiles', '101'], '--percentiles 101', True, True),
        (['--timeline-interval', '0'], '--timeline-interval 0', True, True),
        (['--device-interval', '0'], '--device-interval 0: the interval must be 1 to 86400000 ms', True, True),
        (['--device-interval', '86400001'], '--device-interval 86400001: the interval must be 1 to 86400000 ms', True, True),
        (['--no-device', '--device-interval', '5'], '--device-interval 5: the devices are not sampled (--no-device)', True, True),
        (['--device-interval', '5', '--no-device'], '--no-device: a device interval is given', True, True),
        (['--timeline-interval', 'x'], '--timeline-interval x', True, True),
        # Each numeric option takes its range only, and says which.
        (['--timeline-interval', '99999999999999'],
         '--timeline-interval 99999999999999: the interval must be 1 to 86400000 ms', True, True),
        (['--timeline-interval', '86400001', '-s', '0', '-n', '1'], 'must be 1 to 86400000 ms', True, True),
        # bonnie++ 2.00a takes -x -1 (its default, one run): refused.
        (['-x', '-1', '-s', '0', '-n', '1'], '-x -1: the number of tests must be 0 to 2147483647', True, True),
        (['-x', '99999999999999'], '-x 99999999999999: the number of tests must be 0 to 2147483647', True, True),
        (['--iodepth', '99999999999999', '--engine', 'io_uring'],
         '--iodepth 99999999999999: the queue depth must be 1 to 4096', True, True),
        (['--percentiles', '1e999'], '--percentiles 1e999: a comma-separated list of percentiles above 0 and at most 100', True, True),
        (['--percentiles', '50,' + '9' * 400], 'above 0 and at most 100', True, True),
        (['-s', '99999999999999', '-r', '0'], '-s 99999999999999: the size must be 0 to 2147483647 MiB', True, True),
        (['-s', '99999999999999g', '-r', '0'], 'the size must be 0 to 2147483647 MiB', True, True),
        (['-s', '16:8k:99999999999999', '-r', '0'], 'the number of seeks must be 1 to 2147483647', True, True),
        (['-s', '16:99999999999999k', '-r', '0'], 'power of two from 256 to 1048576', True, True),
        (['-s', '0', '-n', '99999999999999'], '-n 99999999999999: the number of files must be 0 to 2097151', True, True),
        (['-s', '0', '-n', '1:99999999999999'], 'the largest size must be 0 to 2147483647 bytes', True, True),
        (['-s', '0', '-n', '1:0:99999999999999'], 'the smallest size must be 0 to 2147483647 bytes', True, True),
        (['-s', '0', '-n', '1:0:0:99999999999999'], 'the number of directories must be 1 to 99999', True, True),
        (['-r', '99999999999999'], '-r 99999999999999: the RAM size must be 0 to 1073741823 MiB', True, True),
        (['-c', '99999999999999'], '-c 99999999999999: the concurrency must be 1 to 200', True, True),
        (['-p', '99999999999999'], '-p 99999999999999: the number of processes must be 1 to 32767', True, True),
        (['-p', '-2'], 'the number of processes must be 1 to 32767, or -1', True, True),
        (['-f99999999999999'], '-f99999999999999: the per-byte size must be 0 to 2147483647 MiB', True, True),
        (['-z', '4294967296'], '-z 4294967296: the seed must be a number from 0 to 4294967295', True, True),
        (['-s', '0', '-n', '1', '--cleanup', scratch], '--cleanup', True, True),
        (['--json', os.path.join(missing, 'r.json')], 'cannot write in', True, True),
        # A directory as the report: refused before the first test (it
        # was found only after all of them ran).
        (['-s', '0', '-n', '1', '--json', tmp], f'--json {tmp}: is a directory', True, True),
        (['-s', '0', '-n', '1', '--html', tmp + '/'], 'is a directory', True, True),
        (['-D', '-s', '16', '-r', '8', '-n', '0'], 'one-byte writes cannot use O_DIRECT', True, True),
        (['-s', '2000000:256', '-r', '0'], 'File size 2000000 too big for chunk size 256', False, True),
        (['--seek-time'], 'option --seek-time needs an argument', True, True),
        (['--seek-time', '0'], '--seek-time 0: the seek time must be 1 to 86400 seconds (a day)', True, True),
        (['--seek-time', 'x'], '--seek-time x: the seek time must be 1 to 86400 seconds', True, True),
        (['--seek-time', '86401', '-s', '0', '-n', '1'], 'the seek time must be 1 to 86400 seconds', True, True),
        (['--seek-time', '1.5'], '--seek-time 1.5', True, True),
        (['--seek-time', '99999999999999'], 'the seek time must be 1 to 86400 seconds', True, True),
        (['--drop-cache=x'], 'option --drop-cache takes no argument', True, True),
        (['--progress=yes'], 'option --progress takes no argument', True, True),
        # --drop-cache does not lift the other checks.
        (['--drop-cache', '-D', '-s', '16', '-r', '8', '-n', '0'], 'one-byte writes cannot use O_DIRECT', True, True),
    ]
    if ROOT:
        # A cold cache needs root; -u makes the run someone else.
        cases.append((['-u', 'nobody', '-s', '0', '-n', '1', '--cold-metadata'],
                      '--cold-metadata: dropping the caches (/proc/sys/vm/drop_caches, '
                      'for the whole machine) needs root; -u makes the run another user',
                      True, False))
    else:
        cases.append((['-s', '0', '-n', '1', '--cold-metadata'],
                      '--cold-metadata: dropping the caches (/proc/sys/vm/drop_caches, '
                      'for the whole machine) needs root', True, True))
    if ROOT:
        cases.append((['-s', '16', '-r', '8'],
                      'You must use the "-u" switch when running as root.', True, False))
    return cases


def test_bad_invocations(tmp):
    scratch = os.path.join(tmp, 'scratch-bad')
    os.mkdir(scratch)
    n = 0
    for args, needle, usage, with_user in bad_cases(scratch, tmp):
        name = 'bad ' + ' '.join(args)
        full = ['-d', scratch] + (USER if with_user else []) + args
        p = run(full, cwd=tmp, timeout=30)
        n += 1
        if p.returncode != 1:
            fail(name, 'exit status is not 1', p)
        elif needle not in p.stderr:
            fail(name, f'stderr lacks {needle!r}', p)
        elif usage and USAGE not in p.stderr:
            fail(name, 'no usage text', p)
        elif p.stdout:
            fail(name, 'something on stdout', p)
        elif not empty(scratch):
            fail(name, f'scratch directory not empty: {os.listdir(scratch)}', p)
            for e in os.listdir(scratch):
                shutil.rmtree(os.path.join(scratch, e), ignore_errors=True)
    print(f'{n} bad invocations checked')
    if n < 30:
        fail('bad invocations', f'only {n} cases')


def csv_fields(line):
    return line.split(',')


def check_csv(name, line, expect_name=None):
    f = csv_fields(line)
    if len(f) != 50:
        fail(name, f'CSV line has {len(f)} fields, not 50: {line!r}')
        return False
    if f[0] != '1.98':
        fail(name, f'CSV format field is {f[0]!r}')
        return False
    if expect_name and f[2] != expect_name:
        fail(name, f'CSV name field is {f[2]!r}')
        return False
    return True


def check_bon_csv2txt(name, csv_text, expect):
    tool = shutil.which('bon_csv2txt')
    if not tool:
        fail(name, 'bon_csv2txt not found: install Debian\'s bonnie++ package', None)
        return
    p = subprocess.run([tool], input=csv_text, capture_output=True, text=True,
                       timeout=30)
    if p.returncode != 0 or expect not in p.stdout:
        fail(name, f'bon_csv2txt did not print a row for {expect!r}', p)


def new_scratch(tmp, name):
    d = os.path.join(tmp, name)
    os.mkdir(d)
    return d


def test_no_room(tmp):
    """A check that fails before the first test (here: a file twice the
    free room): one line says that no test ran and why, with no table, no
    CSV line, no partial-results line and no report file; exit 1. An old
    report file stays as it was."""
    name = 'no room'
    d = new_scratch(tmp, 'scratch-room')
    st = os.statvfs(d)
    size = st.f_bavail * st.f_frsize // (1 << 20) * 2 + 64
    if size > 2**31 - 1:
        print(f'skip {name}: more free room than -s can ask for')
        return
    js, html = os.path.join(tmp, 'room.json'), os.path.join(tmp, 'room.html')
    with open(html, 'w') as f:
        f.write('old page\n')
    p = run(['-d', d] + USER + ['-s', str(size), '-r', '8', '-n', '1',
                               '--json', js, '--html', html, '--no-progress'])
    lines = [ln for ln in p.stderr.splitlines() if not ln.startswith('Using uid')]
    if p.returncode != 1:
        fail(name, 'exit status not 1', p)
    if p.stdout != '':
        fail(name, 'a table or CSV line on standard output', p)
    if (len(lines) != 1 or not lines[0].startswith(
            'diskbench-bonnie: no test ran: not enough room in ') or
            'nothing was measured, no report file written.' not in lines[0]):
        fail(name, 'not one line saying no test ran and why', p)
    if 'partial' in p.stderr:
        fail(name, 'says the results are partial', p)
    if os.path.exists(js):
        fail(name, '--json file written')
    with open(html) as f:
        if f.read() != 'old page\n':
            fail(name, 'the old --html file was replaced')
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')


def test_full_run(tmp):
    name = 'full run'
    d = new_scratch(tmp, 'scratch-full')
    p = run(['-d', d] + USER + ['-s', '16', '-r', '8', '-n', '1', '-m', 'testhost',
                               '--no-progress'])
    if p.returncode != 0:
        return fail(name, 'exit status', p)
    lines = p.stdout.splitlines()
    if len(lines) != 11:
        return fail(name, f'{len(lines)} lines on stdout, not 11', p)
    # bonnie++'s "Version %5s": five columns at least, a longer version
    # (1.10.0) pushes the rest right, as bonnie++'s printf does.
    version = lines[0].split()[1] if len(lines[0].split()) > 1 else ''
    if not (lines[0] == 'Version %5s       ------Sequential Output------ '
            '--Sequential Input- --Random-' % version and len(version) >= 5):
        fail(name, f'first heading line {lines[0]!r}')
    for i in (1, 2):
        if lines[i] != BIG_HEADER[i]:
            fail(name, f'heading line {i + 1}: {lines[i]!r}')
    if not lines[3].startswith('testhost        16M ') or len(lines[3]) != 79:
        fail(name, f'data line {lines[3]!r}')
    if not lines[4].startswith('Latency  '):
        fail(name, f'latency line {lines[4]!r}')
    if not lines[5].endswith('------Sequential Create------ --------Random Create--------'):
        fail(name, f'file heading {lines[5]!r}')
    if lines[6] != 'testhost            -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--':
        fail(name, f'file heading 2 {lines[6]!r}')
    if lines[7] != FILE_HEADER_3:
        fail(name, f'file heading 3 {lines[7]!r}')
    if not lines[8].startswith('                  1 '):
        fail(name, f'file data line {lines[8]!r}')
    if check_csv(name, lines[10], 'testhost'):
        f = csv_fields(lines[10])
        if f[5] != '16M' or f[21] != '1':
            fail(name, f'CSV size {f[5]!r} / files {f[21]!r}')
        check_bon_csv2txt(name, lines[10] + '\n', 'testhost')
    for msg in ('Writing a byte at a time...done\n', 'Writing intelligently...done\n',
                'Rewriting...done\n', 'Reading a byte at a time...done\n',
                'Reading intelligently...done\n',
                "start 'em...done...done...done...done...done...\n",
                'Create files in sequential order...done.\n',
                'Delete files in random order...done.\n'):
        if msg not in p.stderr:
            fail(name, f'stderr lacks {msg!r}', p)
    if ROOT and 'Using uid:0, gid:0.' not in p.stderr:
        fail(name, 'no "Using uid" line', p)
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')


def test_cache_options(tmp):
    """--drop-cache, --seek-time and (as root) --cold-metadata: accepted
    with a file below twice the RAM, and recorded in every result."""
    import json
    name = 'cache options'
    d = new_scratch(tmp, 'scratch-cache')
    out = os.path.join(tmp, 'cache.json')
    args = ['-d', d] + USER + ['-s', '16', '-r', '100', '-f1', '-n', '1', '-m', 'cachehost',
                               '--drop-cache', '--seek-time', '1', '--no-settle',
                               '--json', out, '--no-progress']
    if ROOT:
        args.append('--cold-metadata')
    p = run(args)
    if p.returncode != 0:
        return fail(name, 'exit status', p)
    with open(out) as f:
        phases = {ph['name']: ph for ph in json.load(f)['runs'][0]['phases']}
    for ph in ('rewrite', 'getc', 'get_block', 'seeks'):
        cd = phases[ph]['config'].get('cache_drop')
        if cd != 'dropped':
            fail(name, f'{ph}: cache_drop {cd!r}, expected dropped')
    seeks = phases['seeks']
    if seeks['config'].get('seek_time_ns') != 1000000000:
        fail(name, f"seeks: seek_time_ns {seeks['config'].get('seek_time_ns')!r}")
    if not 1e9 <= seeks['elapsed_ns'] < 3e9:
        fail(name, f"seeks ran {seeks['elapsed_ns']} ns, not about 1 s")
    if seeks['config'].get('settle') is not False:
        fail(name, f"--no-settle: seeks' settle is {seeks['config'].get('settle')!r}")
    lines = p.stdout.splitlines()
    csv = [ln for ln in lines if ln.startswith('1.98,')]
    if len(csv) != 1 or not check_csv(name, csv[0], 'cachehost'):
        return fail(name, 'no CSV line', p)
    # The CSV's seeks field is the number made, not bonnie++'s 8192.
    if csv_fields(csv[0])[7] != str(seeks['ops']):
        fail(name, f"CSV seeks {csv_fields(csv[0])[7]!r}, the phase made {seeks['ops']}")
    # The table's label is bonnie++'s: size and the parts asked for; a
    # seek phase bounded by time asked for no count, so none is shown.
    rows = [ln for ln in lines if ln.startswith('cachehost ') and '%CP' not in ln
            and '-Create--' not in ln]
    if len(rows) != 1 or rows[0].split()[1] != '16M':
        fail(name, f'the size label is not "16M": {rows!r}')
    # Timelines by default: from 100 us, doubled as needed, at most 2048.
    for ph in phases.values():
        tl = ph['timeline']
        iv = tl['interval_ns']
        if iv % 100000 or (iv // 100000) & (iv // 100000 - 1) or len(tl['points']) > 2048:
            fail(name, f"{ph['name']}: timeline of {len(tl['points'])} points of {iv} ns")
    if phases['get_block']['timeline']['interval_ns'] > 1600000:
        fail(name, f"get_block ({phases['get_block']['elapsed_ns']} ns) has a timeline of "
             f"{phases['get_block']['timeline']['interval_ns']} ns intervals")
    for ph in ('seq_stat', 'seq_del', 'ran_stat', 'ran_del'):
        cd = phases[ph]['config'].get('cache_drop', '')
        want = 'dropped system-wide' if ROOT else 'not done'
        if not cd.startswith(want):
            fail(name, f'{ph}: cache_drop {cd!r}, expected {want}...')
    # Without the options: bonnie++'s behaviour, and its RAM rule.
    t0 = time.monotonic()
    p = run(['-d', d] + USER + ['-s', '16', '-r', '8', '-f1', '-n', '0', '--json', out,
                               '--timeline-interval', '100', '--no-progress'])
    secs = time.monotonic() - t0
    if p.returncode != 0:
        return fail(name + ' (without)', 'exit status', p)
    with open(out) as f:
        phases = {ph['name']: ph for ph in json.load(f)['runs'][0]['phases']}
    if not phases['get_block']['config'].get('cache_drop', '').startswith('not done'):
        fail(name, 'without --drop-cache, get_block does not say "not done"')
    if 'seek_time_ns' in phases['seeks']['config']:
        fail(name, 'without --seek-time, seeks has a seek_time_ns')
    if phases['seeks']['ops'] != 8192:
        fail(name, f"without --seek-time, {phases['seeks']['ops']} seeks, not 8192")
    # bonnie++'s untimed 3 s pause before the seeks, kept without --no-settle.
    if phases['seeks']['config'].get('settle') is not True or secs < 3:
        fail(name, f"without --no-settle: settle {phases['seeks']['config'].get('settle')!r}"
             f", the run took {secs:.1f} s")
    for ph in phases.values():
        if ph['timeline']['interval_ns'] != 100000000:
            fail(name, f"--timeline-interval 100: {ph['name']} has "
                 f"{ph['timeline']['interval_ns']} ns intervals")
    os.unlink(out)
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')


def test_device_options(tmp):
    """--device-interval and --no-device: the device figures every so
    often (by default 100 ms, not the timeline's 100 us start), or none."""
    import json
    import statistics
    name = 'device options'
    d = new_scratch(tmp, 'scratch-device')
    out = os.path.join(tmp, 'device.json')
    block = os.major(os.stat(d).st_dev) != 0

    def seeks_of(extra):
        p = run(['-d', d] + USER + ['-s', '16', '-r', '8', '-f1', '-n', '0',
                                   '--seek-time', '1', '--no-settle', '--json', out,
                                   '--no-progress'] + extra)
        if p.returncode != 0:
            fail(name + ' ' + ' '.join(extra), 'exit status', p)
            return None
        with open(out) as f:
            phases = {ph['name']: ph for ph in json.load(f)['runs'][0]['phases']}
        os.unlink(out)
        return phases['seeks']

    for extra, want_ms in (([], 100), (['--device-interval', '50'], 50),
                           (['--timeline-interval', '20'], 20),
                           (['--timeline-interval', '1'], 10)):
        seeks = seeks_of(extra)
        if seeks is None:
            continue
        dev = seeks['devices']
        if not block:
            if dev['list'] or 'no block device' not in (dev['note'] or ''):
                fail(name, f'{extra}: a directory on no block device: {dev!r}')
            continue
        lengths = [iv[1] for iv in dev['intervals']]
        med = statistics.median(lengths) / 1e6 if lengths else 0
        # About 1 s of seeks: its intervals are the ones asked for.
        if not 0.9 * want_ms <= med <= 1.1 * want_ms or \
                len(lengths) > seeks['elapsed_ns'] / (want_ms * 1e6) + 2:
            fail(name, f'{extra}: {len(lengths)} device intervals of median '
                 f'{med:.2f} ms for {seeks["elapsed_ns"]} ns, not {want_ms} ms')
    seeks = seeks_of(['--no-device'])
    if seeks is not None and (seeks['devices']['list'] or
                              'off' not in (seeks['devices']['note'] or '')):
        fail(name, f"--no-device: {seeks['devices']!r}")
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')


def test_x2(tmp):
    name = '-x 2'
    d = new_scratch(tmp, 'scratch-x2')
    p = run(['-d', d] + USER + ['-s', '16', '-r', '8', '-f', '-n', '1', '-x', '2',
                               '-z', '42', '-m', 'xhost', '--no-settle'])
    if p.returncode != 0:
        return fail(name, 'exit status', p)
    lines = p.stdout.splitlines()
    if len(lines) != 3 or not lines[0].startswith('format_version,bonnie_version,name,'):
        return fail(name, 'not a header and two lines', p)
    for ln in lines[1:]:
        if check_csv(name, ln, 'xhost'):
            f = csv_fields(ln)
            if f[4] != '42':
                fail(name, f'seed field {f[4]!r}')
            if f[9:11] != ['', ''] or f[15:17] != ['', '']:
                fail(name, 'per-byte fields not empty with -f')
    check_bon_csv2txt(name, lines[1] + '\n', 'xhost')
    if 'Version' in p.stdout:
        fail(name, 'a text table with -x 2', p)
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')


def test_quiet(tmp):
    name = '-q'
    d = new_scratch(tmp, 'scratch-q')
    p = run(['-d', d] + USER + ['-s', '0', '-n', '1:-1:0:2', '-z', '99', '-q', '-m', 'qhost'])
    if p.returncode != 0:
        return fail(name, 'exit status', p)
    lines = p.stdout.splitlines()
    if len(lines) != 1:
        return fail(name, 'stdout is not one CSV line', p)
    if check_csv(name, lines[0], 'qhost'):
        f = csv_fields(lines[0])
        # bonnie++ 2.00a puts the directories in field 26, 25 empty.
        if f[4] != '99' or f[21:26] != ['1', 'link', '', '', '2']:
            fail(name, f'CSV fields {f[4:26]!r}')
        if any(f[i] for i in range(5, 21)):
            fail(name, 'big-file fields not empty with -s 0')
    if '------Sequential Create------' not in p.stderr or '1:link/2' not in p.stderr:
        fail(name, 'the text table is not on stderr', p)
    if 'Using uid' in p.stderr or 'Create files' in p.stderr:
        fail(name, 'progress messages with -q', p)
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')


def test_x1_x0(tmp):
    d = new_scratch(tmp, 'scratch-x1')
    p = run(['-d', d] + USER + ['-s', '0', '-n', '1', '-x', '1', '-q'])
    if p.returncode != 0 or len(p.stdout.splitlines()) != 1:
        fail('-x 1', 'not one CSV line', p)
    elif check_csv('-x 1', p.stdout.strip()):
        pass
    if p.stderr:
        fail('-x 1', 'a text table with -x 1', p)
    p = run(['-d', d] + USER + ['-s', '0', '-n', '1', '-x', '0'])
    if p.returncode != 0 or p.stdout:
        fail('-x 0', 'ran something', p)
    if not empty(d):
        fail('-x 1/0', f'left behind: {os.listdir(d)}')


def interrupt(tmp, name, args, wait_for, sig, delay, said=None):
    """Sends sig once wait_for is on stderr and delay has passed: exit 5,
    "partial" said (and `said`, if given), no file left, a CSV line of what
    was measured."""
    d = new_scratch(tmp, 'scratch-' + name.replace(' ', '-'))
    proc = subprocess.Popen([EXE, '-d', d] + USER + args, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    err = bytearray()
    seen = threading.Event()

    def reader():
        while True:
            b = proc.stderr.read1(4096)
            if not b:
                break
            err.extend(b)
            if wait_for.encode() in err:
                seen.set()

    t = threading.Thread(target=reader)
    t.start()
    if not seen.wait(60):
        proc.kill()
        t.join()
        return fail(name, f'never saw {wait_for!r}: {bytes(err)!r}')
    time.sleep(delay)
    # The signal is for a phase with its files made: on a loaded machine
    # the first of them may come later than the delay (seen under ASan with
    # a second test run beside it), so wait for one, up to 10 s.
    end = time.monotonic() + 10
    files_during = os.listdir(d)
    while not files_during and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.01)
        files_during = os.listdir(d)
    proc.send_signal(sig)
    out = proc.stdout.read().decode()
    rc = proc.wait(60)
    t.join()
    stderr = bytes(err).decode()
    if rc != 5:
        fail(name, f'exit status {rc}, not 5; stderr={stderr!r}')
    if 'partial' not in stderr:
        fail(name, f'"partial" not said: {stderr!r}')
    if said and said not in stderr:
        fail(name, f'{said!r} not said: {stderr!r}')
    if not files_during:
        fail(name, 'no test file existed during the phase')
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')
    lines = out.splitlines()
    if not lines or not check_csv(name, lines[-1]):
        fail(name, f'no CSV of what was measured: {out!r}')


# Every catchable signal whose default action ends a program, but for the
# faults (SEGV, BUS, FPE, ILL, ABRT, SYS, TRAP): the manual page's SIGNALS.
STOP_SIGNALS = [n for n in ('SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGTERM', 'SIGPIPE',
                            'SIGALRM', 'SIGUSR1', 'SIGUSR2', 'SIGXFSZ', 'SIGXCPU',
                            'SIGVTALRM', 'SIGPROF', 'SIGIO', 'SIGPWR', 'SIGSTKFLT')
                if hasattr(signal, n)]


def stop_signals():
    """(signal number, the name the program gives it), SIGRTMIN..MAX too."""
    sigs = [(getattr(signal, n), n) for n in STOP_SIGNALS]
    sigs += [(n, f'SIGRTMIN+{n - signal.SIGRTMIN}')
             for n in range(signal.SIGRTMIN, signal.SIGRTMAX + 1)]
    return sigs


def test_every_signal(tmp):
    """Each signal, during putc and during the small-file tests: stopped,
    nothing left, the measured results printed as partial, exit 5."""
    sigs = stop_signals()
    for sig, sname in sigs:
        interrupt(tmp, f'{sname} in putc', ['-s', '16', '-r', '8', '-n', '1'],
                  'Writing a byte at a time...', sig, 0.1,
                  said=f'interrupted by {sname}: the results are partial')
        interrupt(tmp, f'{sname} in seq_create', ['-s', '0', '-n', '8', '-r', '0'],
                  'Create files in sequential order...', sig, 0.05,
                  said=f'interrupted by {sname}: the results are partial')
    print(f'{len(sigs)} signals checked in putc and in seq_create')


def elapsed_pipeline(cmd, timeout=120):
    """Runs a bash pipeline; its time, stdout, and its first command's
    exit status (printed last by the pipeline itself)."""
    t0 = time.monotonic()
    p = subprocess.run(['bash', '-c', cmd + '; echo "status ${PIPESTATUS[0]}"'],
                       capture_output=True, text=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    lines = p.stdout.splitlines()
    status = int(lines[-1].split()[1]) if lines and lines[-1].startswith('status ') else None
    return time.monotonic() - t0, lines[:-1], status, p


def test_pipe_closed(tmp):
    """The reader goes away while a run measures: the run stops at once,
    removes its files and exits 5, as for SIGPIPE. Through a shell, `|
    head -2` after the first of twenty runs (which would take a minute or
    more); and standard output and error on one pipe that the test closes
    after two lines, during put_block."""
    d = new_scratch(tmp, 'scratch-pipe')
    user = ' '.join(USER)
    name = '| head -2'
    before = len(failures)
    secs, out, status, p = elapsed_pipeline(
        f'{EXE} -d {d} {user} -s 16 -r 8 -f1 -n 0 -x 20 -q --no-settle 2>/dev/null | head -2')
    if len(out) != 2 or not out[0].startswith('format_version,'):
        fail(name, f'head did not get two lines: {out!r}', p)
    if secs > 30:
        fail(name, f'took {secs:.1f} s: it measured on with nobody reading')
    if status != 5:
        fail(name, f'exit status {status}, not 5', p)
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')
        for e in os.listdir(d):
            shutil.rmtree(os.path.join(d, e), ignore_errors=True)
    if len(failures) == before:
        print(f'ok   {name}: stopped after {secs:.1f} s, exit {status}')

    name = '2>&1 to a pipe closed'
    before = len(failures)
    r, w = os.pipe()
    proc = subprocess.Popen([EXE, '-d', d] + USER + ['-s', '64', '-r', '8', '-f1', '-n', '16'],
                            stdout=w, stderr=w, stdin=subprocess.DEVNULL)
    os.close(w)
    got = b''
    with os.fdopen(r, 'rb', buffering=0) as f:
        while got.count(b'\n') < 2:
            b = f.read(1)
            if not b:
                break
            got += b
        time.sleep(0.2)
        during = os.listdir(d)
        t0 = time.monotonic()
    try:
        rc = proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = proc.wait()
    secs = time.monotonic() - t0
    if got.count(b'\n') != 2 or not during:
        fail(name, f'two lines with a test file expected: {got!r} {during}')
    if secs > 3 or rc != 5:
        fail(name, f'exit {rc} {secs:.1f} s after the pipe closed')
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')
    if len(failures) == before:
        print(f'ok   {name}: stopped {secs:.2f} s after, exit {rc}')


def test_one_thread(tmp):
    """With standard output and error on pipes (watched for their reader
    going), the process that measures has one thread, as bonnie++ does: a
    second one makes the kernel take a file reference and the position
    lock for every one-byte read and write and every *at() call. The
    small-file tests, which start no seeker threads. The watcher is a
    child process that is gone when the program ends."""
    name = 'one thread on pipes'
    d = new_scratch(tmp, 'scratch-threads')
    before = len(failures)
    proc = subprocess.Popen([EXE, '-d', d] + USER + ['-s', '0', '-n', '8'],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL)
    most, kids, seen = 0, set(), 0
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            tasks = os.listdir(f'/proc/{proc.pid}/task')
            with open(f'/proc/{proc.pid}/task/{proc.pid}/children') as f:
                kids.update(f.read().split())
        except OSError:
            break
        most = max(most, len(tasks))
        seen += 1
        time.sleep(0.02)
    out, err = proc.communicate(timeout=60)
    if proc.returncode != 0:
        fail(name, f'exit {proc.returncode}: {err[-500:]!r}')
    if not seen:
        fail(name, 'the run ended before it could be looked at')
    if most != 1:
        fail(name, f'{most} threads while measuring, not 1')
    if not kids:
        fail(name, 'no watcher process for the pipes')
    for k in kids:
        if os.path.exists(f'/proc/{k}'):
            try:
                with open(f'/proc/{k}/stat') as f:
                    state = f.read().rsplit(')', 1)[1].split()[0]
            except OSError:
                continue
            if state != 'Z':
                fail(name, f'watcher {k} still running after the program ended')
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')
    if len(failures) == before:
        print(f'ok   {name}: {most} thread, watcher {sorted(kids)} gone ({seen} looks)')


def test_stdout_error(tmp):
    """A write to standard output that fails (a full device): one line
    naming the error, exit 1, nothing left; with -x, before measuring."""
    d = new_scratch(tmp, 'scratch-full-stdout')
    for name, extra in (('stdout /dev/full', ['-s', '0', '-n', '1', '-q']),
                        ('stdout /dev/full -x 5', ['-s', '16', '-r', '8', '-n', '1', '-q', '-x', '5'])):
        with open('/dev/full', 'w') as full:
            t0 = time.monotonic()
            p = subprocess.run([EXE, '-d', d] + USER + extra, stdout=full,
                               stderr=subprocess.PIPE, text=True, timeout=120,
                               stdin=subprocess.DEVNULL)
            secs = time.monotonic() - t0
        lines = [l for l in p.stderr.splitlines() if 'No space left on device' in l]
        if p.returncode != 1 or len(lines) != 1:
            fail(name, f'exit {p.returncode}, stderr {p.stderr!r}')
        if '-x' in extra and secs > 5:
            fail(name, f'ran {secs:.1f} s into a full standard output')
        # What the CSV could not take stays in the results journal, the
        # one thing left, said on stderr (-x: the header fails before
        # anything is measured, and nothing is left).
        left = os.listdir(d)
        if '-x' in extra:
            if left:
                fail(name, f'left behind: {left}')
        elif len(left) != 1 or not re.fullmatch(r'Bonnie\.\d+\.journal', left[0]) \
                or f'results journal {d}/{left[0]} (diskbench-report reads it)' not in p.stderr:
            fail(name, f'left behind: {left}, stderr {p.stderr!r}')
        else:
            with open(os.path.join(d, left[0]), 'rb') as f:
                if f.read(8) != b'DBJOURNL':
                    fail(name, 'the journal kept is not one')
            os.unlink(os.path.join(d, left[0]))


def reader(stream, buf, cond):
    def run():
        while True:
            b = stream.read1(4096)
            if not b:
                break
            with cond:
                buf.extend(b)
                cond.notify_all()
        with cond:
            buf.extend(b'')
            cond.notify_all()
    t = threading.Thread(target=run)
    t.start()
    return t


def wait_for(buf, cond, needle, timeout=60):
    with cond:
        return cond.wait_for(lambda: needle in buf, timeout)


def test_prompt_signal(tmp):
    """-y p: a signal while the run waits for a line, with the test file
    there: it stops, removes the file, exits 5."""
    name = '-y p signal'
    d = new_scratch(tmp, 'scratch-prompt')
    proc = subprocess.Popen([EXE, '-d', d] + USER + ['-s', '16', '-r', '8', '-f', '-n', '0',
                                                     '-y', 'p', '-q'],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    out, err, cond = bytearray(), bytearray(), threading.Condition()
    ts = [reader(proc.stdout, out, cond), reader(proc.stderr, err, cond)]
    ok_ = wait_for(out, cond, b'\n1:\n')
    if ok_:
        proc.stdin.write(b'\n')
        proc.stdin.flush()
        ok_ = wait_for(out, cond, b'\n2:\n')
    time.sleep(0.2)
    during = os.listdir(d)
    proc.send_signal(signal.SIGUSR1)
    try:
        rc = proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = proc.wait()
    proc.stdin.close()
    for t in ts:
        t.join()
    if not ok_:
        return fail(name, f'no prompt: {bytes(out)!r} {bytes(err)!r}')
    if not during:
        fail(name, 'no test file while waiting at the prompt')
    if rc != 5 or b'interrupted by SIGUSR1' not in err:
        fail(name, f'exit {rc}, stderr {bytes(err)!r}')
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')


SEM_KEY = 4711
IPC_RMID, SETVAL = 0, 16


def sem_exists():
    p = subprocess.run(['ipcs', '-s'], capture_output=True, text=True)
    return f'0x{SEM_KEY:08x}' in p.stdout


def pending(sig):
    """preexec_fn: the program starts with sig pending and blocked."""
    def fn():
        signal.pthread_sigmask(signal.SIG_BLOCK, [sig])
        os.kill(os.getpid(), sig)
    return fn


def test_semaphores(tmp):
    """_test_semaphores() while holding a lock of this machine: the key is
    bonnie++'s, the same for every run, so a second test run at the same
    time (two scripts/test on one machine) waits its turn instead of
    finding the other's set."""
    import fcntl
    with open(os.path.join(tempfile.gettempdir(), 'diskbench-test-sem-4711.lock'), 'w') as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        _test_semaphores(tmp)


def _test_semaphores(tmp):
    """-p and -y s: a signal while waiting at a semaphore cleans up; -p
    does not leave a set it made when a signal comes first; a signal
    pending at start (inherited, blocked) is taken, not lost."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if not shutil.which('ipcs'):
        return fail('-y s', 'ipcs is needed (Debian: util-linux)')
    if sem_exists():
        return fail('-y s', f'a semaphore set with key {SEM_KEY} exists already: not ours to use')
    d = new_scratch(tmp, 'scratch-sem')
    try:
        # -p with SIGUSR1 pending: no set left.
        p = subprocess.run([EXE] + USER + ['-p', '3'], capture_output=True, text=True,
                           timeout=30, preexec_fn=pending(signal.SIGUSR1))
        if p.returncode != 5 or sem_exists():
            fail('-p signal', f'exit {p.returncode}, set left: {sem_exists()}', p)
        subprocess.run([EXE] + USER + ['-p', '-1'], capture_output=True)
        # A run with SIGTERM pending: nothing made, exit 5.
        p = subprocess.run([EXE, '-d', d] + USER + ['-s', '16', '-r', '8', '-n', '1'],
                           capture_output=True, text=True, timeout=30,
                           preexec_fn=pending(signal.SIGTERM))
        if (p.returncode != 5 or 'interrupted by SIGTERM before any test ran' not in p.stderr
                or not empty(d)):
            fail('pending SIGTERM', f'left {os.listdir(d)}', p)
        # -y s: every test's semaphore at 1 lets one process through; test
        # 2 (rewrite) at 2 makes it wait there, the test file made.
        p = subprocess.run([EXE] + USER + ['-p', '1'], capture_output=True, text=True)
        if p.returncode != 0 or 'Creating semaphore for 1 procs.' not in p.stdout:
            return fail('-p 1', 'no set', p)
        semid = libc.semget(SEM_KEY, 12, 0o666)
        if semid < 0 or libc.semctl(semid, 2, SETVAL, 2) != 0:
            return fail('-y s', f'semctl: errno {ctypes.get_errno()}')
        proc = subprocess.Popen([EXE, '-d', d] + USER + ['-s', '16', '-r', '8', '-f', '-n', '0',
                                                         '-y', 's'],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        out, err, cond = bytearray(), bytearray(), threading.Condition()
        ts = [reader(proc.stdout, out, cond), reader(proc.stderr, err, cond)]
        seen = wait_for(err, cond, b'Writing intelligently...done\n')
        time.sleep(0.3)
        during = os.listdir(d)
        proc.send_signal(signal.SIGALRM)
        try:
            rc = proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = proc.wait()
        for t in ts:
            t.join()
        if not seen or not during:
            fail('-y s signal', f'never waited with the file made: {bytes(err)!r}')
        if rc != 5 or b'interrupted by SIGALRM' not in err:
            fail('-y s signal', f'exit {rc}, stderr {bytes(err)!r}')
        if not empty(d):
            fail('-y s signal', f'left behind: {os.listdir(d)}')
    finally:
        if sem_exists():
            subprocess.run([EXE] + USER + ['-p', '-1'], capture_output=True)
    if sem_exists():
        fail('-p -1', 'the semaphore set is still there')


def test_report_dir_as_user(tmp):
    """--json in a directory the -u user cannot write: refused before
    anything runs (it was checked as root, and failed after the run)."""
    name = '--json as -u nobody'
    if not ROOT:
        print(f'skip {name}: needs root')
        return
    os.chmod(tmp, 0o755)
    d = new_scratch(tmp, 'scratch-nobody')
    os.chmod(d, 0o777)
    outdir = new_scratch(tmp, 'root-only')
    os.chmod(outdir, 0o755)
    for opt in ('--json', '--html'):
        t0 = time.monotonic()
        p = run(['-d', d, '-u', 'nobody', '-s', '16', '-r', '8', '-n', '1',
                 opt, os.path.join(outdir, 'r.out')])
        secs = time.monotonic() - t0
        if p.returncode != 1 or f'{opt} {outdir}/r.out: cannot write in {outdir}: Permission denied' not in p.stderr:
            fail(name, 'not refused at once', p)
        elif 'Writing' in p.stderr or p.stdout:
            fail(name, f'the run started ({secs:.1f} s)', p)
        if not empty(d) or not empty(outdir):
            fail(name, f'made {os.listdir(d)} {os.listdir(outdir)}')


def kill_during(d, args, wait_for_, delay):
    """Runs in d, SIGKILLs once wait_for_ is on stderr and delay has
    passed; returns the names left with the run's pid."""
    proc = subprocess.Popen([EXE, '-d', d] + USER + args, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    err, cond = bytearray(), threading.Condition()
    t = reader(proc.stderr, err, cond)
    seen = wait_for(err, cond, wait_for_.encode())
    time.sleep(delay)
    proc.kill()
    proc.wait()
    t.join()
    mine = f'Bonnie.{proc.pid}'
    return seen, [e for e in os.listdir(d) if e == mine or e.startswith(mine + '.')]


def dead_pid():
    p = subprocess.Popen(['true'])
    p.wait()
    return p.pid


def tree_of(path):
    out = []
    for root, dirs, files in os.walk(path):
        for n in dirs + files:
            out.append(os.path.relpath(os.path.join(root, n), path))
    return sorted(out)


def test_cleanup(tmp):
    """--cleanup: removes what SIGKILLed runs left, and only that."""
    name = '--cleanup'
    os.chmod(tmp, 0o755)
    d = new_scratch(tmp, 'scratch-killed')
    cases = (
        ('putc', ['-s', '16', '-r', '8', '-n', '0'], 'Writing a byte at a time...', 0.3),
        ('seeks', ['-s', '16:4k', '-r', '8', '-n', '0', '-f'], "start 'em...", 0.2),
        ('create', ['-s', '0', '-n', '8:4096:0:3', '-r', '0'],
         'Create files in sequential order...', 0.2),
        # -b: a directory fsync after each link, so that the kill comes
        # while the links are there.
        ('symlinks', ['-s', '0', '-n', '8:-2:0:2', '-r', '0', '-b'],
         'Create files in sequential order...', 0.3),
    )
    for what, args, needle, delay in cases:
        seen, left = kill_during(d, args, needle, delay)
        if not seen or not left:
            fail(name, f'SIGKILL in {what} left nothing to clean ({seen})')
    before = tree_of(d)
    p = run(['--cleanup', d])
    # Each killed run's results journal stays, said to be kept.
    journals = sorted(e for e in os.listdir(d) if re.fullmatch(r'Bonnie\.\d+\.journal', e))
    if p.returncode != 0 or len(journals) != len(cases) or sorted(os.listdir(d)) != journals:
        fail(name, f'killed runs not cleaned: {os.listdir(d)}', p)
    elif p.stdout.count('removed ') != len(cases) or f' {len(cases)} left' not in p.stdout \
            or p.stdout.count("results journal, kept: diskbench-report reads") != len(cases):
        fail(name, 'what was removed is not said', p)
    else:
        print(f'ok   {name}: {len(before) - len(cases)} entries of {len(cases)} killed runs '
              f'removed, their journals kept')
    for j in journals:
        os.unlink(os.path.join(d, j))

    # Strangers' files at our names, and ours mixed with theirs.
    s = new_scratch(tmp, 'scratch-strangers')
    os.chmod(s, 0o777)
    putc = bytes(i & 0x7f for i in range(65536))
    victim = os.path.join(tmp, 'victim')
    with open(victim, 'wb') as f:
        f.write(putc)
    pids = [dead_pid() for _ in range(8)]
    sleeper = subprocess.Popen(['sleep', '60'])

    def write(rel, data):
        with open(os.path.join(s, rel), 'wb') as f:
            f.write(data)
    try:
        write(f'Bonnie.{pids[0]}', os.urandom(100000))             # other content
        os.symlink(victim, os.path.join(s, f'Bonnie.{pids[1]}'))    # a link at our name
        write(f'Bonnie.{sleeper.pid}', putc)                        # a live pid
        os.makedirs(os.path.join(s, f'Bonnie.{pids[2]}.files', '00000'))
        write(f'Bonnie.{pids[2]}.files/00000/0000000000abc', bytes(4096))   # ours
        write(f'Bonnie.{pids[2]}.files/00000/notes.txt', b'keep me')       # theirs
        os.makedirs(os.path.join(s, f'Bonnie.{pids[3]}.files'))
        write(f'Bonnie.{pids[3]}.files/0000000001xyz', b'not zeros')       # our name, their data
        os.symlink(victim, os.path.join(s, f'Bonnie.{pids[3]}.files', '0000000002q'))
        ext = os.path.join(tmp, 'elsewhere')
        os.makedirs(ext)
        with open(os.path.join(ext, '0000000000abc'), 'wb') as f:
            f.write(bytes(10))
        os.symlink(ext, os.path.join(s, f'Bonnie.{pids[4]}.files'))       # a link to a dir
        os.mkfifo(os.path.join(s, f'Bonnie.{pids[5]}'))                   # a FIFO
        write('notes.txt', b'not ours')
        write(f'Bonnie.{pids[6]}.bak', putc)                              # not our name
        write(f'Bonnie.{pids[7]}', putc)                                  # ours, root's
        # Not root: nothing of another owner is touched.
        if ROOT:
            q = subprocess.run([EXE, '--cleanup', s], capture_output=True, text=True,
                               timeout=60, preexec_fn=lambda: os.setuid(65534))
            if q.returncode != 0 or f'left {s}/Bonnie.{pids[7]}: owned by uid 0, not by you' not in q.stdout \
                    or 'removed' in q.stdout.replace(' 0 removed', ''):
                fail(name + ' as nobody', 'took what is not its own', q)
        keep = sorted(os.listdir(s))
        p = run(['--cleanup', s], timeout=60)
        want_left = {
            f'Bonnie.{pids[0]}': 'its content is not what',
            f'Bonnie.{pids[1]}': 'a symbolic link, not the file',
            f'Bonnie.{sleeper.pid}': f'process {sleeper.pid} is running',
            f'Bonnie.{pids[2]}.files/00000/notes.txt': 'not a name',
            f'Bonnie.{pids[2]}.files': 'it still holds',
            f'Bonnie.{pids[3]}.files/0000000001xyz': 'its content is not what',
            f'Bonnie.{pids[3]}.files/0000000002q': 'a symbolic link that',
            f'Bonnie.{pids[4]}.files': 'a symbolic link, not the directory',
            f'Bonnie.{pids[5]}': 'a FIFO',
            f'Bonnie.{pids[6]}.bak': 'not a name',
        }
        for rel, why in want_left.items():
            if f'left {s}/{rel}: {why}' not in p.stdout:
                fail(name, f'{rel}: not left with {why!r}', p)
        if p.returncode != 0 or f'removed {s}/Bonnie.{pids[7]} (test file, 65536 bytes)' not in p.stdout:
            fail(name, 'our test file among strangers not removed', p)
        got = tree_of(s)
        want = sorted(set(tree_of(s)) | set())  # computed below
        want = sorted([f'Bonnie.{pids[0]}', f'Bonnie.{pids[1]}', f'Bonnie.{sleeper.pid}',
                       f'Bonnie.{pids[2]}.files', f'Bonnie.{pids[2]}.files/00000',
                       f'Bonnie.{pids[2]}.files/00000/notes.txt',
                       f'Bonnie.{pids[3]}.files', f'Bonnie.{pids[3]}.files/0000000001xyz',
                       f'Bonnie.{pids[3]}.files/0000000002q', f'Bonnie.{pids[4]}.files',
                       f'Bonnie.{pids[5]}', 'notes.txt', f'Bonnie.{pids[6]}.bak'])
        if got != want:
            fail(name, f'strangers: {sorted(set(want) - set(got))} gone, '
                       f'{sorted(set(got) - set(want))} stayed (of {keep})', p)
        with open(victim, 'rb') as f:
            if f.read() != putc:
                fail(name, 'the symbolic link\'s target changed')
        if os.listdir(ext) != ['0000000000abc']:
            fail(name, 'the linked directory changed')
    finally:
        sleeper.kill()
        sleeper.wait()
    p = run(['--cleanup', os.path.join(tmp, 'no-such-dir')])
    if p.returncode != 1 or 'No such file or directory' not in p.stderr:
        fail(name, 'a missing directory', p)

    # Names strangers control, printed escaped: a planted name with a line
    # break cannot forge a line, ESC and OSC sequences do not reach the
    # terminal, bytes that are no UTF-8 are shown as such; valid UTF-8
    # stays. A directory named with '=' is one argument (--cleanup a=b).
    e = new_scratch(tmp, 'scratch=escapes')
    forged = 'Bonnie.1\nremoved FORGED (test file, 5 bytes)'
    planted = [forged, 'Bonnie.2\x1b]0;owned\x07', 'Bonnie.3\x1b[2J', 'Bonnie.4\t\r',
               'Bonnie.5.caf\u00e9']
    for n in planted:
        with open(os.path.join(e, n), 'wb') as f:
            f.write(b'theirs')
    with open(os.path.join(os.fsencode(e), b'Bonnie.6\xff\xc2\x9b'), 'wb') as f:
        f.write(b'theirs')
    p = subprocess.run([EXE, '--cleanup', e], capture_output=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    out = p.stdout.decode('utf-8', 'strict')
    lines = out.splitlines()
    wants = [f'left {e}/Bonnie.1\\nremoved FORGED (test file, 5 bytes): ',
             f'left {e}/Bonnie.2\\x1b]0;owned\\x07: ', f'left {e}/Bonnie.3\\x1b[2J: ',
             f'left {e}/Bonnie.4\\t\\r: ', f'left {e}/Bonnie.5.caf\u00e9: ',
             f'left {e}/Bonnie.6\\xff\\xc2\\x9b: ']
    if p.returncode != 0 or len(lines) != len(wants) + 1 or '\x1b' in out \
            or any(not any(l.startswith(w) for l in lines) for w in wants) \
            or any(l.startswith('removed') for l in lines) \
            or not lines[-1].startswith(f'{e}: 0 removed, 6 left'):
        fail(name + ' escapes', 'names not escaped, or a line forged', p)
    elif sorted(os.listdir(e)) != sorted(planted + [os.fsdecode(b'Bonnie.6\xff\xc2\x9b')]):
        fail(name + ' escapes', 'a planted file was touched')
    else:
        print(f'ok   {name}: planted names shown escaped, one line each, in {e}')
    for n in os.listdir(os.fsencode(e)):
        os.unlink(os.path.join(os.fsencode(e), n))
    # -m with a line break: refused, the message one line.
    p = run(['-d', e, '-m', 'a\nb', '-s', '0', '-n', '0'])
    msg = [l for l in p.stderr.splitlines() if l.startswith('diskbench-bonnie: -m')]
    if p.returncode != 1 or len(msg) != 1 or '-m a\\nb:' not in msg[0]:
        fail('-m with a line break', 'the message is not one line naming it', p)
    else:
        print(f'ok   -m with a line break: {msg[0]}')


def created_names(args, cwd):
    """Runs a program under strace; the base names of the files it created
    (opened with O_CREAT), in order, and its exit status."""
    log = os.path.join(cwd, 'strace.log')
    # LeakSanitizer cannot run under ptrace: in a sanitizer build, the leak
    # check is left to the other tests.
    env = dict(os.environ)
    env['ASAN_OPTIONS'] = (env.get('ASAN_OPTIONS', '') + ':detect_leaks=0').lstrip(':')
    p = subprocess.run(['strace', '-f', '-qq', '-e', 'trace=open,openat,creat',
                        '-o', log] + args, cwd=cwd, capture_output=True,
                       text=True, timeout=300, env=env)
    names = []
    with open(log) as f:
        for line in f:
            if 'O_CREAT' not in line or '"' not in line:
                continue
            name = line.split('"')[1].rsplit('/', 1)[-1]
            if len(name) >= 10 and name[:10].isalnum():
                names.append(name)
    os.unlink(log)
    return p, names


def test_random_file_like_bonnie(tmp):
    """-Z: the numbers of the file are the run's random numbers, as in
    bonnie++: the same file names, in the same order, as bonnie++ 2.00a
    makes with the same file (seen with strace)."""
    name = '-Z against bonnie++'
    bonnie = shutil.which('bonnie++') or '/usr/sbin/bonnie++'
    if not shutil.which('strace') or not os.access(bonnie, os.X_OK):
        fail(name, 'strace and bonnie++ are needed (scripts/test installs them)')
        return
    rnd = os.path.join(tmp, 'random.bin')
    with open(rnd, 'wb') as f:
        x = 12345
        for _ in range(5000):
            x = (x * 1103515245 + 12345) & 0xffffffff
            f.write(x.to_bytes(4, 'big'))
    args = ['-s', '0', '-n', '1:0:0:3', '-Z', rnd] + USER
    got = {}
    for tag, exe in (('ours', EXE), ('bonnie++', bonnie)):
        scratch = new_scratch(tmp, 'zrand-' + tag)
        p, names = created_names([exe, '-d', scratch] + args, tmp)
        if p.returncode != 0:
            fail(name, f'{tag} exit {p.returncode}', p)
            return
        if not empty(scratch):
            fail(name, f'{tag} left files in {scratch}')
        got[tag] = names
    if len(got['ours']) < 2048 or got['ours'] != got['bonnie++']:
        fail(name, f"{len(got['ours'])} names, {len(got['bonnie++'])} from "
             f"bonnie++; first differing: "
             + str(next(((a, b) for a, b in zip(got['ours'], got['bonnie++'])
                         if a != b), None)))
    else:
        print(f'ok   {name}: {len(got["ours"])} file names identical')


STALL_LINE = re.compile(r'^diskbench-bonnie: (\S+): stall of (\d+\.\d{3}) s from '
                        r'(\d+\.\d{3}) s to (\d+\.\d{3}) s into the phase, (\d+) operations?'
                        r'(?:; the longest \d+\.\d{3} s at offset (\d+) of file 0, thread ([0-4]))?'
                        r'(?:; ((?:below the block layer|above the device|the device was busy'
                        r'|undecided): .+))?$')
# (the seeks' five threads are numbered 0 to 4; the verdict from the
# device figures, where the scratch directory is on a block device)


def test_stall_summary(tmp):
    """A real stall (the process stopped for 1.3 s in the seeks, which run
    3 s with no untimed pause before them, so that the stop lands in a
    timed test even when this script is slow to send it): the
    end-of-run lines on stderr, the HTML summary and the JSON's stalls
    name the same stalls, since all three come from diskbench_stalls_find()."""
    name = 'stall summary'
    d = new_scratch(tmp, 'scratch-stall')
    jpath, hpath = os.path.join(tmp, 'stall.json'), os.path.join(tmp, 'stall.html')
    for attempt in range(3):
        proc = subprocess.Popen([EXE, '-d', d] + USER + ['-s', '64', '-r', '8', '-n', '0', '-f',
                                                         '--seek-time', '3', '--no-settle',
                                                         '-m', 'host', '--json', jpath,
                                                         '--html', hpath],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        out, err, cond = bytearray(), bytearray(), threading.Condition()
        ts = [reader(proc.stdout, out, cond), reader(proc.stderr, err, cond)]
        if wait_for(err, cond, b"start 'em..."):
            time.sleep(0.5)  # the seekers started and timed
            proc.send_signal(signal.SIGSTOP)
            time.sleep(1.3)
            proc.send_signal(signal.SIGCONT)
        rc = proc.wait(60)
        for t in ts:
            t.join()
        lines = [ln for ln in bytes(err).decode().splitlines() if ': stall of ' in ln]
        if rc != 0:
            return fail(name, f'exit {rc}: {bytes(err)!r}')
        if lines:
            break
    if not lines:
        return fail(name, f'no stall line in three tries: {bytes(err)!r}')
    # After the table: the last lines of stderr.
    tail = bytes(err).decode().splitlines()[-len(lines):]
    if tail != lines:
        fail(name, f'stall lines are not the last on stderr: {bytes(err)!r}')
    with open(jpath) as f:
        doc = json.load(f)
    with open(hpath) as f:
        page = f.read()
    want = []
    for ph in doc['runs'][0]['phases']:
        for s in ph.get('stalls', []):
            want.append((ph['name'], '%.3f' % (s['latency_ns'] / 1e9),
                         '%.3f' % (s['start_ns'] / 1e9), '%.3f' % (s['end_ns'] / 1e9),
                         str(s['ops'])))
    got = []
    for ln in lines:
        m = STALL_LINE.match(ln)
        if not m:
            return fail(name, f'stall line {ln!r}')
        got.append(m.groups()[:5])
    # The stop is one stall of 1.3 s or more; a loaded machine may add
    # shorter ones of its own (0.1-0.4 s seen with a second test run
    # beside it), which must then be in the JSON and HTML as well.
    if not any(float(g[1]) >= 1.3 for g in got):
        fail(name, f'no stall of 1.3 s or more from a 1.3 s stop: {lines!r}')
    if got != want:
        fail(name, f'stderr says {got}, the JSON {want}')
    # Each stall has its verdict where the scratch directory is on a block
    # device (the shim's stop sleeps above the device: "above", unless the
    # machine's other I/O kept the disk busy meanwhile).
    if os.major(os.stat(d).st_dev) != 0:
        for ln in lines:
            if not STALL_LINE.match(ln).group(8):
                fail(name, f'no verdict in {ln!r}')
    phases = sorted(set(g[0] for g in got))
    html = sorted(re.findall(r'<li class="g\d"><b>\w+</b> host (\S+): ', page))
    if html != phases:
        fail(name, f'the HTML summary names {html}, stderr {phases}')
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')
    print(f'ok   {name}: {len(lines)} stall(s), same in stderr, JSON and HTML')


LIVE_LEFT = re.compile(r', (\d+):(\d\d) left')
LIVE_RATE = re.compile(r', ([\d.]+) (MiB|KiB)/s')


def test_live_stall(tmp):
    """The live line during and after one write stalled 2 s: put_block's
    writes of 8 KiB each take 0.5 ms (slow-write-shim.so, LD_PRELOAD) and
    its 200th sleeps 2 s more, about 0.1 s into the phase. While it
    sleeps the line must say "stalled X s" with X the time since the last
    write completed, drawn by the ticker although the run's thread
    waits; afterwards the time left must be about what remains (over the
    phase so far it would be 2.1 s x 96/4, some 50 s) and the rate a real
    one (not the few KiB/s of the 0.1 s before and the stall), with the
    stall counted."""
    name = 'live line stall'
    shim = os.environ.get('SLOW_WRITE_SHIM')
    if not shim or not os.path.exists(shim):
        return fail(name, f'SLOW_WRITE_SHIM={shim!r}: no shim (meson sets it)')
    d = new_scratch(tmp, 'scratch-live')
    log, jpath = os.path.join(tmp, 'live-stall.log'), os.path.join(tmp, 'live.json')
    env = dict(os.environ, LD_PRELOAD=shim, SLOW_WRITE_SIZE='8192',
               SLOW_WRITE_DELAY_US='500', SLOW_WRITE_STALL_AT='200',
               SLOW_WRITE_STALL_MS='2000', SLOW_WRITE_LOG=log)
    # An ASan build's runtime would insist on coming first.
    env['ASAN_OPTIONS'] = ':'.join(filter(None, [os.environ.get('ASAN_OPTIONS'),
                                                 'verify_asan_link_order=0']))
    proc = subprocess.Popen([EXE, '-d', d] + USER + ['-s', '32', '-r', '16', '-n', '0',
                                                     '-f', '-b', '--progress', '--no-settle',
                                                     '--json', jpath],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=env)
    parts = []   # (when read, CLOCK_MONOTONIC as the shim's log; text)
    buf = b''
    while True:
        b = proc.stderr.read1(4096)
        if not b:
            break
        now = time.monotonic()
        # Each line is whole once the next \r or \n came.
        *whole, buf = re.split(rb'[\r\n]', buf + b)
        parts += [(now, w.decode(errors='replace').replace('\x1b[K', ''))
                  for w in whole if w]
    rc = proc.wait(60)
    if rc != 0:
        return fail(name, f'exit {rc}')
    try:
        with open(log) as f:
            t0, t1 = (int(x) / 1e9 for x in f.read().split())
    except (OSError, ValueError) as e:
        return fail(name, f'no stall log from the shim: {e}')
    put = [(t, ln) for t, ln in parts if ln.startswith('Writing intelligently...')]
    done = [t for t, ln in put if ln.endswith('done')]
    if not done:
        return fail(name, f'no "done" of put_block in {parts!r}')
    end = done[0]
    during = []
    for t, ln in put:
        m = re.search(r'stalled (\d+\.\d) s', ln)
        if not m:
            continue
        x = float(m.group(1))
        if t < t0 + 0.9:
            fail(name, f'{ln!r} {t - t0:+.2f} s from the stall\'s start')
        elif t <= t1 + 0.3:
            during.append((t, x))
            # The last report before the stall is at most 0.1 s (the
            # progress interval) and a write older; the line is drawn
            # every 0.2 s and read a little later.
            if not (t - t0) - 0.5 <= x <= (t - t0) + 0.25:
                fail(name, f'{ln!r} read {t - t0:.2f} s into the stall')
    if len(during) < 2:
        return fail(name, f'{len(during)} "stalled" lines in a stall of {t1 - t0:.2f} s: {put!r}')
    # Drawn after the stall ended: read 0.4 s after it (a tick is 0.2 s).
    after = [(t, ln) for t, ln in put if t > t1 + 0.4 and not ln.endswith('done')]
    lefts = 0
    for t, ln in after:
        if 'stalled' in ln:
            fail(name, f'{ln!r} {t - t1:.2f} s after the stall ended')
        m = re.search(r'; 1 stall, (\d+\.\d) s$', ln)
        if not m or not 1.8 <= float(m.group(1)) <= 2.4:
            fail(name, f'after the stall, {ln!r} does not count it (2 s)')
        m = LIVE_LEFT.search(ln)
        if m:
            lefts += 1
            left = int(m.group(1)) * 60 + int(m.group(2))
            # Rounded to the second, drawn up to 0.2 s before it is read.
            if left > (end - t) + 1.5:
                fail(name, f'{ln!r} with {end - t:.1f} s left')
        m = LIVE_RATE.search(ln)
        if m and (m.group(2) == 'KiB' or float(m.group(1)) < 1):
            fail(name, f'{ln!r}: the writes go at 8 KiB per 0.5 ms at most')
    if not lefts:
        return fail(name, f'no time left shown after the stall: {after!r}')
    with open(jpath) as f:
        doc = json.load(f)
    ph = next(p for p in doc['runs'][0]['phases'] if p['name'] == 'put_block')
    if not any(1.9e9 <= s['latency_ns'] <= 2.5e9 for s in ph['stalls']):
        fail(name, f"the JSON's put_block stalls {ph['stalls']!r}")
    if not empty(d):
        fail(name, f'left behind: {os.listdir(d)}')
    print(f'ok   {name}: {len(during)} "stalled" lines in {t1 - t0:.2f} s, '
          f'{lefts} times left after it')


def report(*args):
    return subprocess.run([REPORT] + list(args), capture_output=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def test_journal(tmp):
    """The results journal: an uninterrupted run's reads back as exactly
    what the run wrote (JSON byte for byte, its CSV line); runs killed by
    SIGKILL at random moments keep every test they finished, in order,
    the one they were in marked partial, and --cleanup keeps the journal;
    --journal never writes over a file; --no-journal makes none."""
    name = 'journal'
    d = new_scratch(tmp, 'scratch-journal')
    out = os.path.join(tmp, 'journal-out')
    os.makedirs(out)
    jpath, rpath = os.path.join(out, 'whole.journal'), os.path.join(out, 'whole.json')
    args = ['-s', '16', '-r', '8', '-n', '1:4096:0:2']
    p = run(['-d', d] + USER + args + ['-q', '--journal', jpath, '--json', rpath])
    if p.returncode != 0 or not empty(d):
        return fail(name, 'the whole run', p)
    q = report('--json', jpath)
    with open(rpath, 'rb') as f:
        if q.returncode != 0 or q.stdout != f.read():
            fail(name, 'the journal does not read back as the run\'s JSON', q)
    csv_line = [l for l in p.stdout.splitlines() if l.count(',') > 40]
    q = report('--csv', jpath)
    if q.returncode != 0 or q.stdout.decode().splitlines() != csv_line:
        fail(name, f'the journal\'s CSV {q.stdout!r} is not the run\'s {csv_line!r}', q)
    # Written over: never (a killed run's journal may be all it measured).
    p2 = run(['-d', d] + USER + args + ['--journal', jpath])
    if p2.returncode != 1 or 'exists' not in p2.stderr or not empty(d):
        fail(name, '--journal over a file', p2)
    p2 = run(['-d', d] + USER + args + ['--journal', os.path.join(tmp, 'no-dir', 'j')])
    if p2.returncode != 1 or 'no-dir' not in p2.stderr or not empty(d):
        fail(name, '--journal in a missing directory', p2)

    # Killed at random moments of a run that takes about span seconds;
    # without the per-character tests (-f), which took half of each run's
    # 10 s here, so that the kills land in the other tests as often.
    args = args + ['-f']
    t0 = time.monotonic()
    full = run(['-d', d] + USER + args + ['--no-journal'])
    span = time.monotonic() - t0
    # The tests a whole run says "done" for.
    total = sum(1 for ln in full.stderr.splitlines() if 'done' in ln)
    if not empty(d):
        fail(name, f'--no-journal left {os.listdir(d)}')
    rng = __import__('random').Random()
    kills = []
    for k in range(5):
        delay = rng.uniform(0.05, span)
        proc = subprocess.Popen([EXE, '-d', d] + USER + args, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        time.sleep(delay)
        proc.kill()
        err = proc.communicate()[1].decode()
        j = os.path.join(d, f'Bonnie.{proc.pid}.journal')
        if proc.returncode == 0:
            continue   # it finished first: nothing to recover
        # The tests it said "done" for (a line each) are in it, whole.
        done = sum(1 for ln in err.splitlines() if 'done' in ln)
        if done == total and total and not os.path.exists(j) and empty(d):
            # Killed on its way out, after every test and after it wrote
            # its outputs and removed its journal: nothing to recover.
            continue
        c = subprocess.run([EXE, '--cleanup', d], capture_output=True, text=True, timeout=60)
        if c.returncode != 0 or os.listdir(d) != [os.path.basename(j)] \
                or 'results journal, kept' not in c.stdout:
            fail(name, f'--cleanup after a kill at {delay:.2f} s: {os.listdir(d)}', c)
            continue
        q = report('--json', j)
        if q.returncode != 0:
            fail(name, f'a journal killed at {delay:.2f} s does not read', q)
            continue
        phases = json.loads(q.stdout)['runs'][0]['phases']
        whole = [ph for ph in phases if not ph.get('error')]
        partial = [ph for ph in phases if ph.get('error')]
        if len(whole) < done \
                or len(partial) > 1 or phases[:len(whole)] != whole \
                or (partial and 'killed' not in partial[0]['error']['message']):
            fail(name, f'killed at {delay:.2f} s after {done} "done": '
                       f'{[(ph["name"], ph.get("error")) for ph in phases]}')
        t = report('--text', j)
        if t.returncode != 0 or (partial and b'killed' not in t.stderr + t.stdout):
            fail(name, 'the text table of a killed run\'s journal', t)
        kills.append(f'{delay:.2f}s:{len(whole)}' + ('+1' if partial else ''))
        os.unlink(j)
    print(f'ok   {name}: read back whole; killed at {", ".join(kills)} '
          f'(time: tests whole + partial) of a {span:.2f} s run')


def main():
    if not os.access(EXE, os.X_OK):
        print(f'{EXE}: not executable')
        return 1
    tmp = tempfile.mkdtemp(prefix='diskbench-cli-')
    try:
        for g in GROUPS:
            if g not in ALL_GROUPS:
                print(f'unknown group {g!r}: {", ".join(ALL_GROUPS)}')
                return 1
        if 'runs' in GROUPS:
            test_bad_invocations(tmp)
            test_full_run(tmp)
            test_x2(tmp)
            test_quiet(tmp)
            test_x1_x0(tmp)
            test_no_room(tmp)
        if 'caches' in GROUPS:
            test_cache_options(tmp)
            test_random_file_like_bonnie(tmp)
            test_report_dir_as_user(tmp)
        if 'options' in GROUPS:
            test_device_options(tmp)
            test_stall_summary(tmp)
            test_live_stall(tmp)
        if 'journal' in GROUPS:
            test_journal(tmp)
        if 'signals' in GROUPS:
            # SIGINT in the middle of the per-byte write (about 2.5 s long).
            interrupt(tmp, 'sigint', ['-s', '16', '-r', '8', '-n', '1'],
                      'Writing a byte at a time...', signal.SIGINT, 0.5)
            # SIGTERM in the middle of the small-file tests.
            interrupt(tmp, 'sigterm', ['-s', '0', '-n', '4', '-r', '0'],
                      'Create files in sequential order...', signal.SIGTERM, 0.1)
            test_every_signal(tmp)
            test_pipe_closed(tmp)
            test_stdout_error(tmp)
            test_prompt_signal(tmp)
        if 'processes' in GROUPS:
            test_one_thread(tmp)
            test_semaphores(tmp)
            test_cleanup(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f'{len(failures)} failure(s)')
        return 1
    print('all passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
