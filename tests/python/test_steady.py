"""Ramp and steady state from Python (Phase.ramp, Phase.steady): a device
simulated in Python on the sync engine, whose clock only moves when a
request takes its time, so every time is known."""

import errno

import pytest

import diskbench
from diskbench import Engine, EngineOps

US = 1000
MS = 1000 * US
S = 1000 * MS


class Wobble(EngineOps):
    """The sync engine's files, a clock of its own: a read or write takes
    1 ms in even tenths of a second (from the first), 4 ms in odd ones,
    until ``settle`` (0: never), then 1 ms."""

    name = "pywobble"

    def __init__(self, settle=0):
        self.now = 10 * S
        self.start = None
        self.settle = settle
        self.calls = 0

    def clock(self):
        return self.now

    def wait_until(self, when_ns):
        self.now = max(self.now, when_ns)

    def _take(self):
        self.calls += 1
        if self.start is None:
            self.start = self.now
        rel = self.now - self.start
        if self.settle and rel >= self.settle:
            self.now += MS
        else:
            self.now += 4 * MS if (rel // (100 * MS)) % 2 else MS

    def read(self, handle, buf, offset):
        self._take()
        return self.inner.read(handle, buf, offset)


def run_one(tdir, ops, phase):
    with Engine.sync() as sync:
        e = Engine.wrap(sync, ops)
        with diskbench.Target(tdir, file_size=1 << 20, block_size=4096,
                              engine=e) as t:
            run = diskbench.Run(t, seed=3)
            run.add(phase)
            res = run.execute()
        e.close()
    return res[0]


def test_a_ramp_is_left_out(tdir):
    # reads of 1 ms: 200 end by 200 ms, the 201st at 201 ms is the ramp's
    # last (the first past 200.5 ms)
    sim = Wobble(settle=1)
    p = diskbench.RandomPhase(ops=600)
    assert p.ramp(0.2005) is p
    r = run_one(tdir, sim, p)
    assert r.config["ramp_ops"] == "201"
    assert r.config["ramp_bytes"] == str(201 * 4096)
    assert r.ops == 399 and r.histogram.count == 399
    assert r.histogram.max == MS


def test_steady_state_stops_a_window_after_the_device_settles(tdir):
    sim = Wobble(settle=1 * S)
    p = diskbench.RandomPhase(time_limit=30)
    assert p.steady(range_percent=10, slope_percent=10, window=0.5,
                    sample=0.1) is p
    r = run_one(tdir, sim, p)
    assert r.config["steady"] == "true"
    assert r.config["ended_by"] == "steady"
    assert r.config["steady_at_ns"] == str(1500 * MS)
    assert 1500 * MS <= sim.now - sim.start <= 1505 * MS
    # the result is the window: 1 ms reads, some 500
    assert r.histogram.max == MS
    assert 495 <= r.ops <= 501
    assert int(r.config["steady_total_ops"]) == sim.calls


def test_never_steady_stops_at_max_time(tdir):
    sim = Wobble()
    p = diskbench.RandomPhase(time_limit=30)
    p.steady(window=0.5, sample=0.1, max_time=1.0)
    r = run_one(tdir, sim, p)
    assert r.config["steady"] == "false"
    assert r.config["ended_by"] == "steady_max_ns"
    assert "steady_at_ns" not in r.config
    assert 1000 * MS <= sim.now - sim.start <= 1005 * MS


def test_ramp_and_steady_are_checked():
    p = diskbench.SeqPhase()
    with pytest.raises(diskbench.DiskbenchError) as ei:
        p.steady(window=2.5)
    assert ei.value.errno == errno.EINVAL and "window_ns" in str(ei.value)
    assert "window_ns" in p.errmsg
    with pytest.raises(diskbench.DiskbenchValueError):
        p.steady(metric="latency")
    with pytest.raises(TypeError):
        p.steady(range_percent="10")
    with pytest.raises(diskbench.DiskbenchError) as ei:
        p.ramp(86401)
    assert ei.value.errno == errno.EINVAL and "ramp_ns" in str(ei.value)
    p.steady(metric="bandwidth")
    assert p.errmsg == ""
    with pytest.raises(diskbench.DiskbenchError) as ei:
        p.pace(10)
    assert ei.value.errno == errno.ENOTSUP
    assert p.steady(off=True) is p
    p.pace(10)
    p.ramp(1)
    b = diskbench.BonniePhase("getc")
    with pytest.raises(diskbench.DiskbenchError) as ei:
        b.ramp(1)
    assert ei.value.errno == errno.ENOTSUP and "ramp" in str(ei.value)
