"""Sync methods from Python (Phase.sync): a device simulated in Python on
the sync engine, whose clock only moves when a call takes its time, counts
the fsync, fdatasync and sync_file_range calls, so every figure is
known."""

import errno

import pytest

import diskbench
from diskbench import Engine, EngineOps, OpenFlags

MS = 1000 * 1000


class Counting(EngineOps):
    """The sync engine's files; a write takes 1 ms, fsync 5 ms, fdatasync
    3 ms, sync_file_range 2 ms on a clock of its own. Counts each call and
    the flags of each open."""

    name = "pycount"

    def __init__(self):
        self.now = 10 ** 12
        self.calls = {"fsync": 0, "fdatasync": 0, "sync_file_range": 0}
        self.ranges = []
        self.opens = []

    def clock(self):
        return self.now

    def open(self, path, flags):
        self.opens.append(flags)
        return self.inner.open(path, flags)

    def write(self, handle, buf, offset):
        self.now += MS
        return self.inner.write(handle, buf, offset)

    def fsync(self, handle):
        self.calls["fsync"] += 1
        self.now += 5 * MS
        self.inner.fsync(handle)

    def fdatasync(self, handle):
        self.calls["fdatasync"] += 1
        self.now += 3 * MS
        self.inner.fdatasync(handle)

    def sync_file_range(self, handle, offset, length):
        self.calls["sync_file_range"] += 1
        self.ranges.append((offset, length))
        self.now += 2 * MS
        self.inner.sync_file_range(handle, offset, length)


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


def seq_write():
    return diskbench.SeqPhase(write=True, block_size=64 << 10)


def test_fdatasync_every_5_inside(tdir):
    sim = Counting()
    p = seq_write()
    assert p.sync("fdatasync", every=5) is p
    r = run_one(tdir, sim, p)
    # 16 writes: syncs after 5, 10, 15 inside their writes, one at the end
    assert sim.calls == {"fsync": 0, "fdatasync": 4, "sync_file_range": 0}
    assert r.ops == 16
    assert r.histogram.max == 4 * MS and r.histogram.min == MS
    c = r.config
    assert c["sync_method"] == "fdatasync"
    assert c["sync_every"] == "5"
    assert c["sync_timing"] == "inside the write"
    assert c["sync_count"] == "3"
    assert c["sync_total_ns"] == str(9 * MS)
    assert c["sync_max_ns"] == str(3 * MS)
    assert c["fsync"] == "see sync_method"


def test_apart_keeps_the_writes_own_time(tdir):
    sim = Counting()
    r = run_one(tdir, sim, seq_write().sync("fsync", every=4, apart=True))
    assert sim.calls["fsync"] == 4 and sim.calls["fdatasync"] == 0
    assert r.histogram.max == MS
    assert r.config["sync_timing"] == "apart"
    assert r.config["sync_total_ns"] == str(20 * MS)


def test_range_and_open_flags(tdir):
    sim = Counting()
    run_one(tdir, sim, seq_write().sync("sync_file_range", every=8))
    assert sim.calls["sync_file_range"] == 2
    assert sim.ranges == [(0, 8 << 16), (8 << 16, 8 << 16)]
    sim = Counting()
    r = run_one(tdir, sim, seq_write().sync("O_DSYNC"))
    assert any(f & OpenFlags.DSYNC for f in sim.opens)
    assert sim.calls == {"fsync": 0, "fdatasync": 0, "sync_file_range": 0}
    assert r.config["sync_method"] == "O_DSYNC"
    assert "sync_every" not in r.config


def test_random_threads_each_sync(tdir):
    sim = Counting()
    p = diskbench.RandomPhase(write_percent=100, ops=20, threads=2)
    r = run_one(tdir, sim, p.sync("fdatasync", every=3))
    assert sim.calls["fdatasync"] == 8
    assert r.config["sync_count"] == "6"


def test_refusals_are_named():
    p = seq_write()
    with pytest.raises(diskbench.DiskbenchValueError):
        p.sync("fsync2")
    with pytest.raises(diskbench.DiskbenchError) as ei:
        p.sync("O_DSYNC", every=2)
    assert ei.value.errno == errno.EINVAL and "every 2" in str(ei.value)
    with pytest.raises(diskbench.DiskbenchError) as ei:
        p.sync("fdatasync", apart=True)
    assert ei.value.errno == errno.EINVAL and "APART" in str(ei.value)
    with pytest.raises(diskbench.DiskbenchError) as ei:
        diskbench.SeqPhase().sync("fsync")
    assert ei.value.errno == errno.ENOTSUP
    assert p.sync() is p


def test_engine_table_calls(tdir):
    with Engine.sync() as e:
        t = e.table
        assert t.has("fdatasync") and t.has("sync_file_range")
        path = str(tdir / "f")
        h = t.open(path, OpenFlags.READ | OpenFlags.WRITE | OpenFlags.CREATE
                   | OpenFlags.DSYNC)
        t.fdatasync(h)
        t.sync_file_range(h, 0, 0)
        t.close(h)
        t.unlink(path)


def test_wal_context_phase_commits_with_fdatasync(tdir):
    """A write-ahead log as a context phase: append 8 KiB to a file opened
    O_DSYNC, or append and fdatasync through the phase's engine
    (CustomContext.fdatasync, never an fsync in its place)."""
    for dsync in (False, True):
        sim = Counting()

        def op(ctx, index):
            if index == 10:
                return diskbench.DONE
            h = ctx.file(0, dsync=dsync)
            ctx.write(h, b"w" * 8192, index * 8192)
            if not dsync:
                ctx.fdatasync(h)
            return 8192

        r = run_one(tdir, sim, diskbench.ContextPhase("wal", op))
        assert r.ops == 10 and r.errno == 0, r.errmsg
        if dsync:
            assert sim.calls["fdatasync"] == 0
            assert any(f & OpenFlags.DSYNC for f in sim.opens)
        else:
            assert sim.calls == {"fsync": 0, "fdatasync": 10,
                                 "sync_file_range": 0}
            # each commit: the write (1 ms) and its fdatasync (3 ms)
            assert r.histogram.min == 4 * MS and r.histogram.max == 4 * MS
