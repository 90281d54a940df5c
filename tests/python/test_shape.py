"""Shaped load from Python (Phase.shape, RandomPhase's distribution and
block_mix, SeqPhase's write_percent and block_mix): a device simulated in
Python on the sync engine, whose clock moves only when a request takes
its 100 us or a shaped phase waits (wait_until), so every time is known."""

import errno

import pytest

import diskbench
from diskbench import Engine, EngineOps

US = 1000
MS = 1000 * US
S = 1000 * MS


class SimClock(EngineOps):
    """The sync engine's files, a clock of its own: each read or write
    takes 100 us."""

    name = "pysim"

    def __init__(self):
        self.now = 10 * S
        self.waits = 0
        self.offsets = []
        self.sizes = []

    def clock(self):
        return self.now

    def wait_until(self, when_ns):
        self.waits += 1
        self.now = max(self.now, when_ns)

    def read(self, handle, buf, offset):
        self.now += 100 * US
        self.offsets.append(offset)
        self.sizes.append(len(buf))
        return self.inner.read(handle, buf, offset)

    def write(self, handle, buf, offset):
        self.now += 100 * US
        return self.inner.write(handle, buf, offset)


def run_one(tdir, phase, seed=3, sim=None):
    sim = sim or SimClock()
    with Engine.sync() as sync:
        e = Engine.wrap(sync, sim)
        with diskbench.Target(tdir, file_size=1 << 20, block_size=4096,
                              engine=e) as t:
            run = diskbench.Run(t, seed=seed)
            run.add(phase)
            res = run.execute()
        e.close()
    return res[0], sim


def test_bursts_give_the_duty_cycle(tdir):
    p = diskbench.RandomPhase(ops=40)
    assert p.shape(burst_ops=10, idle=0.003) is p
    r, sim = run_one(tdir, p)
    assert r.errno == 0 and r.ops == 40
    # 4 bursts of 10 reads of 100 us, an idle 3 ms between them
    assert r.elapsed_ns == 40 * 100 * US + 3 * 3 * MS
    assert r.histogram.max == 100 * US
    assert r.get_config("burst_ops") == "10"
    assert r.get_config("idle_ns") == "3000000"
    assert r.get_config("idle_dist") == "fixed"
    assert sim.waits >= 3


def test_think_time_on_a_sequential_phase(tdir):
    p = diskbench.SeqPhase(total_bytes=20 * 4096).shape(
        think=0.0005, think_dist="fixed")
    r, _ = run_one(tdir, p)
    assert r.ops == 20
    assert r.elapsed_ns == 20 * 100 * US + 19 * 500 * US
    assert r.get_config("think_ns") == "500000"
    assert r.get_config("think_dist") == "fixed"


def test_drawn_think_times_repeat_with_the_seed(tdir):
    def elapsed(seed):
        p = diskbench.RandomPhase(ops=200).shape(
            think=0.0002, think_dist="exponential")
        r, _ = run_one(tdir, p, seed=seed)
        assert r.get_config("think_dist") == "exponential"
        return r.elapsed_ns

    assert elapsed(5) == elapsed(5) != elapsed(6)


def test_zipf_and_a_block_mix(tdir):
    p = diskbench.RandomPhase(ops=3000, distribution="zipf", param=1.2,
                              block_mix={4096: 3, 8192: 1})
    r, sim = run_one(tdir, p)
    assert r.ops == 3000
    assert r.get_config("random_distribution") == "zipf"
    assert r.get_config("zipf_theta") == "1.2"
    assert r.get_config("block_mix") == "4096:3,8192:1"
    reads = sim.offsets[-3000:]
    # 256 blocks, theta 1.2: block 0 has 1 / H = 0.24 of the draws
    assert 0.19 < reads.count(0) / 3000 < 0.29
    big = sim.sizes[-3000:].count(8192) / 3000
    assert 0.2 < big < 0.3
    assert all(o % 4096 == 0 and o < 1 << 20 for o in reads)


def test_seq_read_write_mix(tdir):
    p = diskbench.SeqPhase(total_bytes=64 * 4096, write_percent=50,
                           block_mix=[(4096, 1), (16384, 1)])
    r, _ = run_one(tdir, p)
    assert r.bytes == 64 * 4096
    assert r.get_config("access") == "read and write"
    assert r.get_config("write_percent") == "50"
    assert r.get_config("block_mix") == "4096:1,16384:1"


def test_shape_is_checked(tdir):
    p = diskbench.SeqPhase()
    with pytest.raises(diskbench.DiskbenchValueError):
        p.shape(think=0.001, think_dist="gaussian")
    with pytest.raises(diskbench.DiskbenchError) as ei:
        p.shape(burst_ops=5)
    assert ei.value.errno == errno.EINVAL and "needs an idle_ns" in str(ei.value)
    p.shape(think=0.001)
    with pytest.raises(diskbench.DiskbenchError) as ei:
        p.pace(100)
    assert ei.value.errno == errno.EINVAL and "paced or shaped" in str(ei.value)
    p.shape()
    p.pace(100)
    p.close()
    b = diskbench.BonniePhase("put_block")
    with pytest.raises(diskbench.DiskbenchError) as ei:
        b.shape(think=0.001)
    assert ei.value.errno == errno.ENOTSUP
    b.close()
    with pytest.raises(diskbench.DiskbenchError) as ei:
        diskbench.RandomPhase(distribution="zipf", param=11)
    assert ei.value.errno == errno.EINVAL and "zipf theta" in str(ei.value)
    with pytest.raises(diskbench.DiskbenchValueError):
        diskbench.RandomPhase(distribution="lognormal")
    with pytest.raises(diskbench.DiskbenchValueError):
        diskbench.RandomPhase(block_mix=[])
    with pytest.raises(TypeError):
        diskbench.RandomPhase(block_mix=[4096])
    with pytest.raises(diskbench.DiskbenchError) as ei:
        diskbench.SeqPhase(block_mix={4096: 0})
    assert "weight is 0" in str(ei.value)
