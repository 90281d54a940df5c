"""The bytes written from Python (Phase.data): an engine over the sync
engine keeps every write's bytes, which zlib, a real compressor, then
measures."""

import errno
import zlib

import pytest

import diskbench
from diskbench import Engine, EngineOps

SEG = 4096


class Keeping(EngineOps):
    """The sync engine's files; keeps the bytes of each write by offset."""

    name = "pykeep"

    def __init__(self):
        self.written = {}
        self.log = []

    def write(self, handle, buf, offset):
        self.written[offset] = bytes(buf)
        self.log.append(self.written[offset])
        return self.inner.write(handle, buf, offset)


def run_one(tdir, ops, phase, seed=3):
    with Engine.sync() as sync:
        e = Engine.wrap(sync, ops)
        with diskbench.Target(tdir, file_size=1 << 20, block_size=4096,
                              engine=e) as t:
            run = diskbench.Run(t, seed=seed)
            run.add(phase)
            res = run.execute()
        e.close()
    return res[0]


def seq_write():
    return diskbench.SeqPhase(write=True, block_size=64 << 10)


def file_bytes(k):
    return b"".join(k.written[o] for o in sorted(k.written))




def test_default_writes_zeros_and_says_nothing(tdir):
    k = Keeping()
    r = run_one(tdir, k, seq_write())
    assert file_bytes(k) == bytes(1 << 20)
    assert "data_pattern" not in r.config
    k = Keeping()
    p = seq_write()
    assert p.data("zeros") is p
    r = run_one(tdir, k, p)
    assert file_bytes(k) == bytes(1 << 20)
    assert r.config["data_pattern"] == "zeros"


def test_random_does_not_compress(tdir):
    k = Keeping()
    r = run_one(tdir, k, seq_write().data("random"))
    b = file_bytes(k)
    assert len(b) == 1 << 20
    assert len(zlib.compress(b, 9)) / len(b) > 0.99
    segs = [b[i:i + SEG] for i in range(0, len(b), SEG)]
    assert len(set(segs)) == len(segs)
    c = r.config
    assert c["data_pattern"] == "random"
    assert c["data_compress_percent"] == "0"
    assert c["data_dedupe_percent"] == "0"
    assert "data_dedupe_pool" not in c
    assert c["data_fill_writes"] == "16"
    assert int(c["data_fill_ns"]) >= 0


@pytest.mark.parametrize("pct", [30, 50, 70])
def test_compress_percent(tdir, pct):
    k = Keeping()
    r = run_one(tdir, k, seq_write().data("random", compress_percent=pct))
    b = file_bytes(k)
    ratio = len(zlib.compress(b, 9)) / len(b)
    want = (100 - pct) / 100
    assert want - 0.02 <= ratio <= want + 0.05, ratio
    assert r.config["data_compress_percent"] == str(pct)


def test_dedupe_percent(tdir):
    k = Keeping()
    r = run_one(tdir, k, seq_write().data("random", dedupe_percent=50,
                                          dedupe_pool=8))
    b = file_bytes(k)
    segs = [b[i:i + SEG] for i in range(0, len(b), SEG)]
    count = {}
    for s in segs:
        count[s] = count.get(s, 0) + 1
    twinned = sum(n for n in count.values() if n > 1)
    # 256 segments, half drawn from 8: 0.5 within 4 binomial deviations
    assert abs(twinned / len(segs) - 0.5) < 4 * (0.25 / len(segs)) ** 0.5
    assert sum(1 for n in count.values() if n > 1) == 8
    assert r.config["data_dedupe_percent"] == "50"
    assert r.config["data_dedupe_pool"] == "8"


def test_same_seed_same_bytes(tdir):
    got = []
    for seed in (4, 4, 9):
        k = Keeping()
        run_one(tdir, k, seq_write().data("random"), seed=seed)
        got.append(file_bytes(k))
    assert got[0] == got[1] and got[0] != got[2]


def test_random_phase_threads(tdir):
    k = Keeping()
    p = diskbench.RandomPhase(write_percent=100, ops=64, threads=2)
    r = run_one(tdir, k, p.data("random"))
    assert r.config["data_fill_writes"] == "64"
    # the layout's zero blocks, then the phase's 64 random ones
    rnd = [x for x in k.log if any(x)]
    assert len(rnd) == 64 and len(set(rnd)) == 64
    assert all(len(zlib.compress(x, 9)) > 0.99 * len(x) for x in rnd)


def test_refusals_are_named(tdir):
    p = seq_write()
    with pytest.raises(diskbench.DiskbenchValueError):
        p.data("ones")
    with pytest.raises(diskbench.DiskbenchError) as ei:
        p.data("random", compress_percent=100)
    assert ei.value.errno == errno.EINVAL
    assert "compress_percent 100" in str(ei.value)
    with pytest.raises(diskbench.DiskbenchError) as ei:
        p.data("zeros", compress_percent=10)
    assert ei.value.errno == errno.EINVAL
    with pytest.raises(diskbench.DiskbenchError) as ei:
        p.data("random", dedupe_pool=4)
    assert ei.value.errno == errno.EINVAL
    assert "dedupe_pool 4" in str(ei.value)
    assert p.data() is p
    # a read writes nothing: its run fails, saying why
    r = None
    with pytest.raises(diskbench.DiskbenchError) as ei:
        r = run_one(tdir, Keeping(), diskbench.SeqPhase().data("random"))
    assert r is None and "writes nothing" in str(ei.value)
