#!/usr/bin/env python3
"""bonnie++'s own consumers read our CSV: bon_csv2txt and bon_csv2html
(Debian package bonnie++) are fed the fixed three-run report written by
report-dump, alone and mixed with real bonnie++ 2.00a lines, and must show
our values. Missing tools fail the test: scripts/test installs them."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

dump, data = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL", what)
    else:
        print("ok  ", what)


for tool in ("bon_csv2txt", "bon_csv2html"):
    if not shutil.which(tool):
        sys.exit(f"{tool} not found: install Debian's bonnie++ package")

ours = subprocess.run([dump, "csv"], check=True, capture_output=True,
                      text=True).stdout
real = open(os.path.join(data, "bonnie", "s256-n16-4096-1024-d4.out")).read()
real_line = [l for l in real.splitlines(True) if l.startswith("1.98,")][0]
lines = [l for l in ours.splitlines(True) if l.startswith("1.98,")]
check(len(lines) == 3, "report-dump wrote three 1.98 lines")
mixed = "".join(lines) + real_line

# bon_csv2txt: stdin only; one row per run under each heading.
txt = subprocess.run(["bon_csv2txt"], input=mixed, capture_output=True,
                     text=True)
check(txt.returncode == 0, "bon_csv2txt exit 0")
check(txt.stderr == "", "bon_csv2txt said nothing on stderr: %r" % txt.stderr)
out = txt.stdout
for name in ("raid-a", "raid-b", "raid-c"):
    row = re.search(r"^%s\s+64M::8192:5 1536k  98 16\.0m  40 21\.3m  35 1536k  99"
                    r"    0k \+\+\+  1638   3$" % name, out, re.M)
    check(row is not None, "bon_csv2txt I/O row of %s with our rates" % name)
    frow = re.search(r"^%s\s+1  1024  90 \+\+\+\+\+ \+\+\+  1365  60   341  88"
                     r" \+\+\+\+\+ \+\+\+   512  30$" % name, out, re.M)
    check(frow is not None, "bon_csv2txt file row of %s with our rates" % name)
check(re.search(r"^Latency\s+8000us\s+700ms\s+366us\s+4000us\s+15us\s+610us$",
                out, re.M) is not None,
      "bon_csv2txt shows raid-c's 700ms block-write stall")
check(re.search(r"^Latency\s+976us\s+50us\s+732us\s+666ms\s+40us\s+1953us$",
                out, re.M) is not None,
      "bon_csv2txt shows raid-c's 666ms random-create stall")
check(re.search(r"^testh?o? +256M::8192:5 1358k", out, re.M) is not None
      and re.search(r"^test +16:4096:1024:4  6013  95", out, re.M) is not None,
      "bon_csv2txt shows the real bonnie++ line beside ours")

# bon_csv2html: a file argument; one pair of rows per run, colours.
with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
    f.write(ours + real_line)
    path = f.name
try:
    html = subprocess.run(["bon_csv2html", path], capture_output=True,
                          text=True)
finally:
    os.unlink(path)
check(html.returncode == 0, "bon_csv2html exit 0")
check("Can't process" not in html.stderr + html.stdout,
      "bon_csv2html processed every data line")
page = html.stdout
for name in ("raid-a", "raid-b", "raid-c", "testhost"):
    check(re.search(r'class="rowheader"><font size=\+1>%s</td>' % name, page)
          is not None,
          "bon_csv2html has a row for %s" % name)
check(re.search(r'<td bgcolor="#[0-9A-F]{6}"[^>]*>700ms</td>', page)
      is not None, "bon_csv2html colours the 700ms stall")
check(page.count(">1638<") == 3, "bon_csv2html shows our seek rate 3 times")
# put_block 16384 KiB/s is converted to MiB/s: (16384+512)/1024 = 16.
check(page.count(">16<") >= 3, "bon_csv2html shows put_block as 16 MiB/s")

if failures:
    sys.exit("%d check(s) failed" % len(failures))
