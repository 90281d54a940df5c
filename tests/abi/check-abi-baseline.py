#!/usr/bin/env python3
"""Compares the built library with the ABI of the last release (abidiff).

usage: check-abi-baseline.py ABIDIFF BASELINE.abi LIBRARY.so HEADER-DIR...

The baseline (tests/abi/baseline/libdiskbench-<version>.abi) is abidw's
record of the last release's shared library and public headers. What the
policy (docs/abi.md) allows within one soname: functions and variables
added; public structs grown by members appended at their end (every public
struct carries its size, or is filled by the library). Anything else fails:
a function removed or with another signature, a member moved, resized,
retyped or removed, a struct shrunk. A member appended in the old struct's
tail padding (past its last member, sizeof unchanged) is an append too:
the library counts those bytes as unknown (they must be zero), so the
padding is where a struct's next member may go. abidiff gives the same exit status (4)
to an addition and to a moved member, so its leaf-change report is read
line by line rather than trusting the status.
"""
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

abidiff, baseline, lib = sys.argv[1:4]
headers = sys.argv[4:]
cmd = [abidiff, '--leaf-changes-only', '--no-show-locs']
for h in headers:
    cmd += ['--headers-dir2', h]
cmd += [baseline, lib]


def data_ends(path):
    """{struct name: bit offset where its last member ends} in an abidw file."""
    root = ET.parse(path).getroot()
    by_id = {e.get('id'): e for e in root.iter() if e.get('id')}

    def bits(type_id, depth=0):
        e = by_id.get(type_id)
        if e is None or depth > 32:
            return None
        if e.get('size-in-bits', '').isdigit():
            return int(e.get('size-in-bits'))
        if e.tag in ('typedef-decl', 'qualified-type-def'):
            return bits(e.get('type-id'), depth + 1)
        if e.tag == 'enum-decl':
            u = e.find('underlying-type')
            return bits(u.get('type-id'), depth + 1) if u is not None else None
        return None

    ends = {}
    for c in root.iter('class-decl'):
        members = c.findall('data-member')
        if not c.get('name') or not members:
            continue
        last = members[-1]
        size = bits(last.find('var-decl').get('type-id'))
        if size is not None:
            ends['struct ' + c.get('name')] = \
                int(last.get('layout-offset-in-bits')) + size
    return ends


old_ends = data_ends(baseline)
p = subprocess.run(cmd, capture_output=True, text=True)
out = p.stdout + p.stderr
print(out.strip())
errors = []
if p.returncode & 3:
    errors.append(f'abidiff failed to run (exit {p.returncode})')
if p.returncode & 8:
    errors.append('abidiff: incompatible change')

for kind in ('functions', 'variables') if out.strip() else ():
    m = re.search(r'Removed/Changed/Added ' + kind +
                  r' summary: (\d+) Removed, (\d+) Changed', out)
    if not m:
        errors.append(f'no {kind} summary line in the abidiff output')
    elif int(m.group(1)) or int(m.group(2)):
        errors.append(f'{kind}: {m.group(1)} removed, {m.group(2)} changed')

# Each changed type: "'struct NAME' changed:" and its indented lines.
blocks = re.split(r"\n(?='[^'\n]+' changed:)", out)
for b in blocks[1:]:
    lines = b.strip('\n').split('\n')
    head = lines[0]
    old_size = None
    # Until abidiff says the size changed, the old struct's data ends at
    # the end of its last member: an insertion from there on is appended.
    old_end = old_ends.get(head.split("'")[1])
    for line in lines[1:]:
        s = line.strip()
        if not s:
            continue
        m = re.fullmatch(r'type size changed from (\d+) to (\d+) \(in bits\)', s)
        if m:
            old_size = int(m.group(1))
            if int(m.group(2)) < old_size:
                errors.append(f'{head} shrinks')
            continue
        if re.fullmatch(r'\d+ data member insertions?:', s) or \
                s == "type size hasn't changed":
            continue
        m = re.fullmatch(r"'.*', at offset (\d+) \(in bits\)", s)
        if m and old_size is not None and int(m.group(1)) >= old_size:
            continue
        if m and old_end is not None and int(m.group(1)) >= old_end:
            continue
        errors.append(f'{head} {s}')
        break
    if not head.startswith("'struct "):
        errors.append(f'{head}: not a struct growing at its end')

for e in errors:
    print('FAIL: ' + e)
if errors:
    print('An ABI break needs a new soname; a release that changes the '
          'ABI on purpose records a new baseline (docs/abi.md).')
    sys.exit(1)
print('ok: nothing removed or changed against ' + baseline.rsplit('/', 1)[-1])
