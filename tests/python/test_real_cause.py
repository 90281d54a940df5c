"""Stall verdicts on real kernel devices (meson test python-real-cause,
suites python and kernel; root and loop devices): ext4 on loop device B
over a file on a second ext4 on loop device A (tests/support/stall-device.py).

- Freezing the lower file system holds loop B's writes to its backing
  file: a stall made below the block layer. Every stall of an O_DIRECT
  write phase must say "below", naming loop B, with requests in flight.
- Freezing the benchmark's own file system holds its writes before they
  become requests: a stall made above the device. Every stall must say
  "above", nothing in flight.
- The kernel's block throttle (a cgroup's limit of one write a second on
  loop B, set for a second and lifted, twice) holds the benchmark's bios
  before they reach loop B: above the device too, nothing in flight.
- The same set-up unfrozen: no stall, no verdict.
"""

import json
import os
import subprocess
import sys
import threading
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


def write_phase(st, freeze=None, tmp_path=None, time_limit=3.5):
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
            run.add(diskbench.SeqPhase(write=True, direct=True, time_limit=time_limit))
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


class Throttle:
    """A block-I/O cgroup of this test's own (cgroup v1's blkio, or v2's
    io), with this process in it while it lasts: set(n) limits its writes
    to the device to n a second, set(0) lifts the limit. None when the
    machine has neither controller to write to."""

    @staticmethod
    def make(major, minor):
        for root, v2 in (("/sys/fs/cgroup/blkio", False), ("/sys/fs/cgroup", True)):
            ctl = "io.max" if v2 else "blkio.throttle.write_iops_device"
            if not os.path.isdir(root):
                continue
            if v2:
                try:
                    with open(os.path.join(root, "cgroup.controllers")) as f:
                        if "io" not in f.read().split():
                            continue
                except OSError:
                    continue
            path = os.path.join(root, "diskbench-test-%d" % os.getpid())
            try:
                os.mkdir(path)
            except OSError:
                continue
            if os.path.exists(os.path.join(path, ctl)):
                return Throttle(root, path, ctl, v2, major, minor)
            os.rmdir(path)
        return None

    def __init__(self, root, path, ctl, v2, major, minor):
        self.root, self.path, self.ctl, self.v2 = root, path, ctl, v2
        self.dev = "%d:%d" % (major, minor)
        with open(os.path.join(path, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))

    def set(self, per_sec):
        with open(os.path.join(self.path, self.ctl), "w") as f:
            if self.v2:
                f.write("%s wiops=%s" % (self.dev, per_sec or "max"))
            else:
                f.write("%s %d" % (self.dev, per_sec))

    def close(self):
        self.set(0)
        with open(os.path.join(self.root, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))
        os.rmdir(self.path)


def test_bios_held_above_the_device(device, tmp_path):
    st = os.stat(device["loop_b"])
    thr = Throttle.make(os.major(st.st_rdev), os.minor(st.st_rdev))
    if thr is None:
        pytest.skip("no block I/O cgroup controller to throttle with")
    stop = threading.Event()

    def toggle():
        # One write a second from 0.5 s to 1.5 s and from 2.5 s to 3.5 s:
        # the next write after each start waits in the throttle, its bio
        # held before loop B, until the limit is lifted.
        t0 = time.monotonic()
        for at, n in ((0.5, 1), (1.5, 0), (2.5, 1), (3.5, 0)):
            if stop.wait(max(0.0, t0 + at - time.monotonic())):
                return
            thr.set(n)

    try:
        tg = threading.Thread(target=toggle)
        tg.start()
        try:
            r = write_phase(device, tmp_path=tmp_path, time_limit=4.5)
        finally:
            stop.set()
            tg.join()
    finally:
        thr.close()
    stalls = [s for s in r.stalls().stalls if s.cause_span_ns > 0]
    assert len(stalls) >= 2, r.stalls().text
    for s in stalls:
        assert s.cause == "above", s.cause_text
        assert s.cause_inflight == 0 and 3 * s.cause_ns >= 2 * s.cause_span_ns
        assert s.cause_text.startswith("above the device: nothing in flight on %s"
                                       % r.devices[0].name)
    print(r.stalls().text)
