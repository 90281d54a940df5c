"""Stall verdicts on real kernel devices (meson test python-real-cause,
suites python and kernel; root and loop devices): ext4 on loop device B
over a file on a second ext4 on loop device A (tests/support/stall-device.py).

- Freezing the lower file system holds loop B's writes to its backing
  file: a stall made below the block layer. Every stall of an O_DIRECT
  write phase must say "below", naming loop B, with requests in flight.
- Freezing the benchmark's own file system holds its writes before they
  become requests: a stall made above the device. Every stall must say
  "above", nothing in flight.
- The same set-up unfrozen: no stall, no verdict.
"""

import json
import os
import subprocess
import sys
import time

import pytest

import diskbench

SOURCE = os.environ.get("DISKBENCH_SOURCE_ROOT",
                        os.path.join(os.path.dirname(__file__), "..", ".."))
STALL = os.path.join(SOURCE, "tests", "support", "stall-device.py")


@pytest.fixture
def device(tmp_path):
    d = str(tmp_path / "dev")
    p = subprocess.run([sys.executable, STALL, "setup", d, "--size-mib", "128"],
                       capture_output=True, text=True)
    if p.returncode == 77:
        pytest.skip("stall-device: " + p.stderr.strip())
    assert p.returncode == 0, p.stderr
    st = json.loads(p.stdout)
    try:
        yield st
    finally:
        t = subprocess.run([sys.executable, STALL, "teardown", d],
                           capture_output=True, text=True)
        assert t.returncode == 0, t.stderr


def write_phase(st, freeze=None, tmp_path=None):
    """An O_DIRECT 4 KiB write phase of 3.5 s on the stalling file system,
    50 ms intervals; with ``freeze``, two holds of 1 s (at 0.5 s and
    2.5 s into it) of that file system ("lower" or "mnt"): a freeze of the
    benchmark's own file system first writes out what it has, a tenth of
    a second or two of the hold in which the device works."""
    holder = None
    if freeze:
        log = str(tmp_path / ("hold-%s.json" % freeze))
        holder = subprocess.Popen([sys.executable, STALL, "hold", st["dir"],
                                   "--hold", "1.0", "--period", "2.0",
                                   "--first", "0.5", "--count", "2",
                                   "--freeze", freeze, "--log", log])
    try:
        with diskbench.Target(st["mnt"], file_size=64 << 20, block_size=4096,
                              direct=True) as t:
            run = diskbench.Run(t, timeline_interval=0.05)
            run.add(diskbench.SeqPhase(write=True, direct=True, time_limit=3.5))
            r = run.execute()[0]
    finally:
        if holder:
            assert holder.wait(timeout=30) == 0
    if freeze:
        with open(log) as f:
            periods = json.load(f)["periods"]
        assert len(periods) == 2
    return r


def loop_name(path):
    return os.path.basename(os.path.realpath(path))


def test_a_stall_below_the_block_layer(device, tmp_path):
    r = write_phase(device, "lower", tmp_path)
    devs = r.devices
    assert devs[0].name == loop_name(device["loop_b"]) and devs[0].role == "fs"
    assert any(d.name == loop_name(device["loop_a"]) and d.role == "backing"
               for d in devs[1:])
    stalls = [s for s in r.stalls().stalls if s.cause_span_ns > 0]
    assert len(stalls) >= 2, r.stalls().text
    for s in stalls:
        assert s.cause == "below", s.cause_text
        assert devs[s.cause_device].name == devs[0].name
        assert s.cause_inflight >= 1 and 3 * s.cause_ns >= 2 * s.cause_span_ns
        assert s.cause_text.startswith("below the block layer: %s held "
                                       % devs[0].name)
    print(r.stalls().text)


def test_a_stall_above_the_device(device, tmp_path):
    r = write_phase(device, "mnt", tmp_path)
    stalls = [s for s in r.stalls().stalls if s.cause_span_ns > 0]
    assert len(stalls) >= 2, r.stalls().text
    for s in stalls:
        assert s.cause == "above", s.cause_text
        assert s.cause_inflight == 0 and 3 * s.cause_ns >= 2 * s.cause_span_ns
        assert s.cause_text.startswith("above the device: nothing in flight on %s"
                                       % r.devices[0].name)
    print(r.stalls().text)


def test_a_healthy_run(device, tmp_path):
    r = write_phase(device)
    assert r.devices and r.device_points(0)
    assert sum(p.writes for p in r.device_points(0)) > 0
    assert r.stalls().stalls == [], r.stalls().text
