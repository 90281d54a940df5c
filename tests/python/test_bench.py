"""bench/python-overhead.py runs and prints every row (no speed is
checked: this machine's figures mean nothing)."""

import os
import re
import subprocess
import sys

import pytest


def test_python_overhead_bench_runs(tmp_path):
    if not os.environ.get("DISKBENCH_NOOP_OP"):
        pytest.skip("built without bench/ (-Dbench=false)")
    script = os.path.join(os.environ["DISKBENCH_SOURCE_ROOT"], "bench",
                          "python-overhead.py")
    r = subprocess.run([sys.executable, script, "--build",
                        os.environ["DISKBENCH_BUILD_ROOT"], "--ops", "2000",
                        "--repeat", "1", "--dir", str(tmp_path)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    rows = [l for l in r.stdout.splitlines() if re.search(r"\s\d+\s+\d+", l)]
    assert len(rows) == 12, r.stdout
    for label in ("op in C", "CustomPhase", "ContextPhase", "null engine",
                  "nothing overridden", "write in Python forwarding",
                  "engine with its write in Python", "worker thread",
                  "read in Python forwarding", "engine with its read in Python",
                  "no state kept"):
        assert any(label in row for row in rows), label
    paced = r.stdout.split("service time p50", 1)[1].splitlines()[1:]
    assert len(paced) == 3 and all(len(re.findall(r"\d+\.\d", l)) == 3
                                   for l in paced), r.stdout
    assert os.listdir(tmp_path) == []
